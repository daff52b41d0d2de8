#!/bin/bash
# written in session 76 for a later session's call (one H200), issue 23: bf16 inference compile time on the GPU,
# cold and warm, aot_eager / Inductor / kiln, the models whose cold rows were the highest in item 76's one round
# (DeBERTa-v2 0.35) and those never measured warm on the GPU; one process per (model, backend, phase).
export PYTHONPATH=. PYTHONUNBUFFERED=1; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; git log -1 --format=%h; } > $OUT/machine.txt 2>&1
timeout 585 python3 scripts/gpu_compile_time.py --out $OUT/ct --models deberta_v2,whisper,swin,t5,mistral,qwen2 \
  --timeout 150 --budget-s 480 > $OUT/ct.log 2>&1
echo "ct rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/machine.txt
grep "^{\|^[a-z0-9_]* [a-z_]* \(cold\|warm\)" $OUT/ct.log > $OUT/ct_rows.txt; rm -f $OUT/ct.log
cat $OUT/machine.txt; cat $OUT/ct/compile_time.md 2>/dev/null; cut -c1-300 $OUT/ct_rows.txt
