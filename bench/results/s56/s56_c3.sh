# session 56, call 3 (one H200, 16 cores): issue 23's GPU rows for the other two fp32 training models the issue
# names (DeiT-tiny, EfficientNet-B0), cold and warm, aot_eager / Inductor / kiln; then, in what is left, issue 19's
# max-autotune bf16 inference rows not measured yet (both compilers in max-autotune, one process).
export PYTHONPATH=.
mkdir -p $OUT/c3/mt
start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used --format=csv; nproc; uptime; git log -1 --format=%h; } > $OUT/c3/machine.txt 2>&1
timeout 380 python3 scripts/gpu_compile_time.py --out /tmp/ct --train --models deit,efficientnet --budget-s 240 --timeout 150 > /tmp/ct.log 2>&1
cp /tmp/ct/compile_time.* $OUT/c3/
echo "compile rows done at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/c3/machine.txt
left=$(( 560 - ($(date +%s) - start) ))
timeout $left python3 scripts/gpu_models.py --out /tmp/m0 --backends inductor@max-autotune,kiln@max-autotune --models whisper,convnext,regnet --budget-s $(( left - 150 )) > /tmp/m0.log 2>&1
cp /tmp/m0/*.json $OUT/c3/mt/
echo "done at $(( $(date +%s) - start )) s; $(uptime)" | tee -a $OUT/c3/machine.txt
grep "^|" /tmp/ct.log | cut -c1-400
grep "^{" /tmp/m0.log | cut -c1-700
tail -n 2 /tmp/m0.log | cut -c1-300
