#!/bin/bash
# session 78: the hoisting cap (HOIST_MAX_BYTES together) end to end on the 2-core CPU, inference (not frozen), quick, float32: kiln
# against Inductor in one process (session 44's script, 21 rounds of 20 calls), the code before the change (OLD, a
# worktree at 1829017) and after (this tree) in alternating processes, twice:
#   [MODELS=... PAIRS=n VARIANTS=kiln_frozen,inductor_frozen] OLD=/work/wt78 TIMMLIB=/tmp/timmlib bash bench/results/s78/s78_cpu_ab.sh > OUT.txt
uptime
for m in ${MODELS:-timm_resnet resnet mobilenet_v2 timm_regnet}; do
  for round in $(seq ${PAIRS:-2}); do
    for tree in $OLD .; do
      echo "$m round $round $( [ $tree = . ] && echo after || echo before ): $(cd $tree && ROUNDS=21 CALLS=20 PYTHONPATH=.:$TIMMLIB python3 $OLDPWD/bench/results/s44/s44_cpu_frozen.py $m ${VARIANTS:-kiln,inductor} 2>&1 | grep "^$m")"
    done
  done
done
uptime
