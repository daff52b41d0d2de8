#!/bin/bash
# written in session 78 for a later call (one H200): the GPU rows of the conv nets after session 78's bound on
# the bytes independent nodes make early (scheduler.HOIST_MAX_BYTES, 16 MB a node -> 4 MB together; fewer weight
# relayouts joined into earlier kernels), bf16 inference, eager / Inductor / kiln in one process, alternating
# rounds, with launch counts; compare with the suite's earlier rows (bench/NOTES.md 76, 105).
export PYTHONPATH=. PYTHONUNBUFFERED=1; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; git log -1 --format=%h; } > $OUT/machine.txt 2>&1
timeout 560 python3 scripts/gpu_models.py --out $OUT/cn --launches \
  --models timm_resnet,resnet,timm_convnext,convnext,mobilenet_v2,timm_efficientnet --budget-s 420 > $OUT/cn.log 2>&1
echo "cn rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/machine.txt
grep "^{\"model" $OUT/cn.log > $OUT/cn_rows.txt; grep -v "^W12\|^I12\|^V12\|^{" $OUT/cn.log | tail -n 15 > $OUT/cn_tail.txt
rm -rf $OUT/cn.log $OUT/cn; cat $OUT/machine.txt; cut -c1-400 $OUT/cn_rows.txt
