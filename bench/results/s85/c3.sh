#!/bin/bash
# session 85, call c3 (one H100/H200), ~130 s (the budget left), issue 23's GPU compile-time rows in priority
# order, one model per scripts/gpu_compile_time.py run (aot_eager / Inductor / kiln, cold then warm, one process
# each), partial results tarred into $OUT after each: timm ConvNeXt bf16 inference (cut off in c2), then fp32
# training of BERT, ResNet-18 and DeiT-tiny (last measured in session 35).
export PYTHONUNBUFFERED=1; start=$(date +%s); mkdir -p /tmp/o
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; git log -1 --format=%h; } > /tmp/o/machine.txt 2>&1
step() {   # name, timeout, args...
  local name=$1 limit=$2; shift 2
  local left=$(( 130 - ($(date +%s) - start) )); [ $left -lt 30 ] && return
  [ $limit -gt $left ] && limit=$left
  PYTHONPATH=. timeout $limit python3 scripts/gpu_compile_time.py --out /tmp/o/$name --timeout 90 "$@" > /tmp/o/$name.log 2>&1
  echo "$name rc $? at $(( $(date +%s) - start )) s" >> /tmp/o/machine.txt
  grep -v "^W12\|^I12\|^V12" /tmp/o/$name.log | tail -n 40 > /tmp/o/$name.tail; tar czf $OUT/c3.tgz -C /tmp/o --exclude='*.log' .
}
step inf_convnext 190 --models timm_convnext
step train_bert 230 --models bert --train
step train_resnet 170 --models resnet --train
step train_deit 170 --models deit --train
cat /tmp/o/machine.txt; cat /tmp/o/*/compile_time.md
