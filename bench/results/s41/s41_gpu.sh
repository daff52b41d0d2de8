#!/bin/bash
# session 41, one device call: per-kernel profiles of depthwise models (s41_dw_profile.py), then compile-time rows, cold/warm,
# aot_eager / Inductor / kiln (scripts/gpu_compile_time.py), and model rows (scripts/gpu_models.py), as budget allows.
#   s41_gpu.sh BUDGET_S STEP...   STEP = dwprof:WORKLOAD[:BACKEND,...] | infer|train:MODELS:REPEATS (compile time) | models|trainmodels:MODELS
#   (scripts/gpu_models.py: bf16 inference, or fp32 training steps)
# Everything lands in $OUT/r, packed into $OUT/results.tgz at the end (the device returns at most 8 files).
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/machine.txt; uptime >> $R/machine.txt
python3 -c "import sys, torch, triton; print(sys.version.split()[0], torch.__version__, triton.__version__)" >> $R/machine.txt
budget=$1; shift; start=$(date +%s)
for spec in "$@"; do
  left=$(( budget - ($(date +%s) - start) ))
  if [ $left -lt 60 ]; then echo "no time left for $spec" | tee -a $R/machine.txt; continue; fi
  if [ ${spec%%:*} = dwprof ]; then
    w=${spec#dwprof:}
    PYTHONPATH=. timeout $left python3 bench/results/s41/s41_dw_profile.py ${w%%:*} $R/dwprof_${w%%:*}.json $(echo $w: | cut -d: -f2) > $R/dwprof_${w%%:*}.log 2>&1
    grep -v Warn $R/dwprof_${w%%:*}.log | head -12
    continue
  fi
  IFS=: read mode models repeats <<< "$spec"
  dir=$R/${mode}_${models//,/_}
  if [ $mode = models ] || [ $mode = trainmodels ]; then
    PYTHONPATH=. timeout $left python3 scripts/gpu_models.py --out $dir --models $models --budget-s $(( left - 90 )) \
      $([ $mode = trainmodels ] && echo --train) > $dir.log 2>&1
    cat $dir/*.md 2>/dev/null | head -40 || tail -5 $dir.log
    continue
  fi
  PYTHONPATH=. timeout $left python3 scripts/gpu_compile_time.py --out $dir --models $models --repeats $repeats \
    $([ $mode = train ] && echo --train) --timeout 200 --budget-s $(( left - 120 )) > $dir.log 2>&1
  cat $dir/compile_time.md 2>/dev/null || tail -5 $dir.log
done
uptime >> $R/machine.txt; cat $R/machine.txt
tar czf $OUT/results.tgz -C $R . && rm -rf $R
