#!/bin/bash
# session 84, call c1 (s83/s84_next_c1.sh, with the collector check added): one H100/H200, on the tree
# after 420abf1 (layer norms lowered whole in inference graphs; each kernel's first launch waits for its own
# build): (a) issue 23's compile time, timm ViT and ConvNeXt bf16 inference, cold and warm, aot_eager / Inductor /
# kiln, one round (scripts/gpu_compile_time.py); (b) the suite's accuracy rule, kiln only, on the models with
# layer norms, 8 processes at once (scripts/gpu_models.py --no-time); (c) timm ViT's first call sampled. ~420 s.
export PYTHONPATH=. PYTHONUNBUFFERED=1; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; git log -1 --format=%h; git status --short | head;
  python3 -c "import torch, triton, sys, gc; print(torch.__version__, triton.__version__, sys.version, gc.get_freeze_count()); import kiln.capture as c; print(\"interpreter_frozen_count\", c.interpreter_frozen_count())"; } > $OUT/machine.txt 2>&1
timeout 300 python3 scripts/gpu_compile_time.py --out $OUT/ct --models timm_vit,timm_convnext --timeout 120 > $OUT/ct.log 2>&1
echo "ct rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/machine.txt
d=$(mktemp -d); mkdir -p /tmp/o   # (c) timm ViT's first call sampled: is the collector's full pass gone?
KILN_CACHE_DIR=$d/k TORCHINDUCTOR_CACHE_DIR=$d/i TRITON_CACHE_DIR=$d/t timeout 60 \
  python3 bench/results/s83/sample_gpu_compile.py timm_vit kiln /tmp/o/s_timm_vit_kiln > /tmp/o/vit_sample.log 2>&1
echo "sample rc $? at $(( $(date +%s) - start )) s" >> $OUT/machine.txt
left=$(( 420 - ($(date +%s) - start) ))
timeout $left python3 scripts/gpu_models.py --out $OUT/acc --backends kiln --no-time --jobs 8 \
  --models gpt2,bert,vit,bart,deberta_v2,deit,swin,convnext,whisper,t5,timm_vit,timm_deit,timm_convnext \
  > $OUT/acc.log 2>&1
echo "acc rc $? at $(( $(date +%s) - start )) s" >> $OUT/machine.txt
cp $OUT/ct/* $OUT/acc/*.json /tmp/o/ 2>/dev/null; grep "^{\"model" $OUT/acc.log > /tmp/o/acc_rows.txt
grep -v "^W12\|^I12\|^V12\|^{" $OUT/acc.log | tail -n 30 > /tmp/o/acc_tail.txt; cp $OUT/machine.txt /tmp/o/
rm -rf $OUT/ct $OUT/acc $OUT/acc.log; grep -v "^W12\|^I12" $OUT/ct.log | tail -n 40 > /tmp/o/ct_tail.txt; rm $OUT/ct.log $OUT/machine.txt
tar czf $OUT/c1.tgz -C /tmp/o .
cat /tmp/o/machine.txt; cat /tmp/o/compile_time.md; cut -c1-300 /tmp/o/acc_rows.txt; tail -n 1 /tmp/o/vit_sample.log | cut -c1-1500
