#!/bin/bash
# session 39, one device call: compile time cold/warm, aot_eager / Inductor / kiln, issue 23's rows.
#   s39_gpu.sh BUDGET_S SPEC...   SPEC = infer|train:MODELS:REPEATS (models comma-separated)
# Each spec runs scripts/gpu_compile_time.py into $OUT/<mode>_<models>; a spec starts only while BUDGET_S seconds
# have not passed.
mkdir -p $OUT
nvidia-smi --query-gpu=name --format=csv,noheader > $OUT/machine.txt; uptime >> $OUT/machine.txt
python3 -c "import sys, torch, triton; print(sys.version.split()[0], torch.__version__, triton.__version__)" >> $OUT/machine.txt
budget=$1; shift; start=$(date +%s)
for spec in "$@"; do
  IFS=: read mode models repeats <<< "$spec"
  left=$(( budget - ($(date +%s) - start) ))
  if [ $left -lt 60 ]; then echo "no time left for $spec"; continue; fi
  dir=$OUT/${mode}_${models//,/_}
  PYTHONPATH=. timeout $left python3 scripts/gpu_compile_time.py --out $dir --models $models --repeats $repeats \
    $([ $mode = train ] && echo --train) --timeout 200 --budget-s $(( left - 120 )) > $dir.log 2>&1
  cat $dir/compile_time.md 2>/dev/null || tail -5 $dir.log
done
uptime >> $OUT/machine.txt; cat $OUT/machine.txt
