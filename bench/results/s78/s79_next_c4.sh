#!/bin/bash
# written in session 78 for a later call (one H200), issue 19: the GPU freezing rows again with the fixed
# scripts/gpu_modes.py --freezing (before session 78 its timing rounds ran kiln's frozen variant unfrozen, and
# Inductor's two variants shared compiled frames; bench/NOTES.md 108): bf16 inference at batch 32, eager / kiln /
# kiln frozen / Inductor / Inductor frozen in one process.
export PYTHONPATH=. PYTHONUNBUFFERED=1; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; git log -1 --format=%h; } > $OUT/machine.txt 2>&1
timeout 560 python3 scripts/gpu_modes.py --out $OUT/fr \
  --freezing resnet,timm_resnet,mobilenet_v2,convnext,timm_convnext,efficientnet --budget-s 420 > $OUT/fr.log 2>&1
echo "fr rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/machine.txt
grep "^{\"model" $OUT/fr.log > $OUT/fr_rows.txt; grep -v "^W12\|^I12\|^V12\|^{" $OUT/fr.log | tail -n 15 > $OUT/fr_tail.txt
cp $OUT/fr/*.json $OUT/ 2>/dev/null; rm -rf $OUT/fr.log $OUT/fr; cat $OUT/machine.txt; cut -c1-400 $OUT/fr_rows.txt
