#!/bin/bash
# written in session 76 for the next session's first call (one H200): (1) item 105's prediction, Whisper's bf16
# inference peak in requested bytes equal to eager's (three fresh processes, accuracy and memory only; the rows now
# carry *_requested_peak_mib beside the allocator's *_peak_mib); (2) max-autotune rows not measured yet (issue 19):
# timm ConvNeXt's and HF ConvNeXt's bf16 inference, both compilers in max-autotune, one process, alternating rounds.
export PYTHONPATH=. PYTHONUNBUFFERED=1; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; git log -1 --format=%h; } > $OUT/machine.txt 2>&1
for i in 1 2 3; do
  timeout 60 python3 scripts/gpu_models.py --out $OUT/pk$i --no-time --backends kiln --models whisper > $OUT/pk$i.log 2>&1
  echo "peak $i rc $? at $(( $(date +%s) - start )) s" >> $OUT/machine.txt
  grep -h "^{" $OUT/pk$i.log >> $OUT/peak_rows.txt; rm -rf $OUT/pk$i $OUT/pk$i.log
done
timeout $(( 570 - $(date +%s) + start )) python3 scripts/gpu_models.py --out $OUT/ma \
  --backends inductor@max-autotune,kiln@max-autotune --models timm_convnext,convnext --budget-s 300 > $OUT/ma.log 2>&1
echo "ma rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/machine.txt
grep "^{\"model" $OUT/ma.log > $OUT/ma_rows.txt; grep -v "^W12\|^I12\|^V12\|^{" $OUT/ma.log | tail -n 15 > $OUT/ma_tail.txt
rm -rf $OUT/ma.log $OUT/ma; cat $OUT/machine.txt; cut -c1-400 $OUT/peak_rows.txt $OUT/ma_rows.txt
