#!/bin/bash
# usage: [COMMIT=tree] [PARENT=tree] run.sh path/to/script.py [args]: runs a reproducer on the patched tree, then
# on its parent (defaults /tmp/review/commit and /tmp/review/parent); harness.py and common_layers.py come from here
here=$(cd "$(dirname "$0")" && pwd); s=$(cd "$(dirname "$1")" && pwd)/$(basename "$1"); shift
export COMMIT=${COMMIT:-/tmp/review/commit}; PARENT=${PARENT:-/tmp/review/parent}
for tree in "$COMMIT" "$PARENT"; do
  echo "=== $tree"; (cd "$(dirname "$s")" && PYTHONPATH=$tree:$here timeout 600 python3 "$s" "$@" 2>&1 | tail -${TAILN:-25})
done
