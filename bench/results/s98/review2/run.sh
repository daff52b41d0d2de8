#!/bin/bash
s=$1; shift
echo "=== commit"; (cd /tmp/r2/adv && PYTHONPATH=/tmp/r2/commit:/tmp/r2/adv timeout 600 python3 $s "$@" 2>&1 | tail -${TAILN:-25})
echo "=== parent"; (cd /tmp/r2/adv && PYTHONPATH=/tmp/r2/parent:/tmp/r2/adv timeout 600 python3 $s "$@" 2>&1 | tail -${TAILN:-25})
