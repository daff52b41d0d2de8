#!/bin/bash
# usage: run.sh script.py [args]: runs on the commit, then on the parent
s=$1; shift
echo "=== commit"; (cd /tmp/review && PYTHONPATH=/tmp/review/commit:/tmp/review timeout 600 python3 $s "$@" 2>&1 | tail -${TAILN:-25})
echo "=== parent"; (cd /tmp/review && PYTHONPATH=/tmp/review/parent:/tmp/review timeout 600 python3 $s "$@" 2>&1 | tail -${TAILN:-25})
