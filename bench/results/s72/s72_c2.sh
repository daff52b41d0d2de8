#!/bin/bash
# session 72, call 2 (one H200): T5's fp32 training step profiled, kiln against Inductor (issue 16: T5 at 0.99),
# with kiln's trace (kernels, wrapper, one-shot per-kernel times) packed in one archive.
export PYTHONPATH=. PYTHONUNBUFFERED=1; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; git log -1 --format=%h; } > $OUT/machine.txt 2>&1
timeout 280 python3 scripts/gpu_profile.py t5 --train --gemms --top 40 --trace /tmp/t5trace > $OUT/prof_t5.txt 2>&1
echo "prof rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/machine.txt
tar czf $OUT/t5trace.tgz -C /tmp t5trace 2>/dev/null; ls -la $OUT >> $OUT/machine.txt
cat $OUT/machine.txt; grep -v "^W12\|^I12\|^V12\|warn" $OUT/prof_t5.txt | grep -A45 "top CUDA kernels" | cut -c1-170
