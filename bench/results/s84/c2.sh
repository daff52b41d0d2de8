#!/bin/bash
# session 84, call c2 (one H100/H200): issue 23's fp32 training rows, GPT-2 and BERT, cold and warm, aot_eager /
# Inductor / kiln, one round, and kiln again from alt/ (an untracked copy of the kiln package with a layer norm's
# backward kept whole and lowered through its decomposition, bench/NOTES.md 114), in the same call; then timm ViT's
# and ConvNeXt's bf16 inference rows and the accuracy rule on the layer-norm models if time is left. ~540 s.
export PYTHONUNBUFFERED=1; start=$(date +%s); mkdir -p /tmp/o
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; git log -1 --format=%h; git status --short | head;
  PYTHONPATH=. python3 -c "import torch, triton, sys, gc; print(torch.__version__, triton.__version__, sys.version, gc.get_freeze_count()); import kiln.capture as c; print('interpreter_frozen_count', c.interpreter_frozen_count())"; } > /tmp/o/machine.txt 2>&1
for m in gpt2 bert; do
  PYTHONPATH=. timeout 150 python3 scripts/gpu_compile_time.py --out /tmp/o/ct_main_$m --models $m --train --timeout 60 > /tmp/o/ct_main_$m.log 2>&1
  PYTHONPATH=alt:. timeout 70 python3 scripts/gpu_compile_time.py --out /tmp/o/ct_alt_$m --models $m --train --backends kiln --timeout 60 > /tmp/o/ct_alt_$m.log 2>&1
  echo "$m rc $? at $(( $(date +%s) - start )) s" >> /tmp/o/machine.txt
done
left=$(( 530 - ($(date +%s) - start) ))
PYTHONPATH=. timeout $(( left > 200 ? 150 : left / 2 )) python3 scripts/gpu_compile_time.py --out /tmp/o/ct_inf --models timm_vit,timm_convnext --timeout 60 > /tmp/o/ct_inf.log 2>&1
echo "inference rc $? at $(( $(date +%s) - start )) s" >> /tmp/o/machine.txt
left=$(( 530 - ($(date +%s) - start) ))
PYTHONPATH=. timeout $left python3 scripts/gpu_models.py --out /tmp/o/acc --backends kiln --no-time --jobs 8 \
  --models gpt2,bert,vit,bart,deberta_v2,deit,swin,convnext,whisper,t5,timm_vit,timm_deit,timm_convnext > /tmp/o/acc.log 2>&1
echo "acc rc $? at $(( $(date +%s) - start )) s" >> /tmp/o/machine.txt
grep "^{\"model" /tmp/o/acc.log > /tmp/o/acc_rows.txt; for f in /tmp/o/*.log; do grep -v "^W12\|^I12\|^V12\|^{" $f | tail -n 30 > $f.tail; rm $f; done
tar czf $OUT/c2.tgz -C /tmp/o .
cat /tmp/o/machine.txt; cat /tmp/o/ct_*/compile_time.md; cut -c1-200 /tmp/o/acc_rows.txt
