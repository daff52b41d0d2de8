#!/bin/bash
# session 77: the window-kernel change end to end on the 2-core CPU, inference (not frozen), quick, float32: kiln
# against Inductor in one process (session 44's script, 21 rounds of 20 calls), the code before the change (OLD, a
# worktree at f65f484) and after (this tree) in alternating processes, twice:
#   OLD=/work/wt77 TIMMLIB=/tmp/timmlib bash bench/results/s77/s77_cpu_ab.sh > OUT.txt
uptime
for m in timm_resnet resnet mobilenet_v2; do
  for round in 1 2; do
    for tree in $OLD .; do
      echo "$m round $round $( [ $tree = . ] && echo after || echo before ): $(cd $tree && ROUNDS=21 CALLS=20 PYTHONPATH=.:$TIMMLIB python3 $OLDPWD/bench/results/s44/s44_cpu_frozen.py $m kiln,inductor 2>&1 | grep "^$m")"
    done
  done
done
uptime
