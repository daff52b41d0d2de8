#!/bin/bash
# session 84, call c2 (one H100/H200), in order of priority, ~480 s: (a) the suite's accuracy rule, kiln only, on
# the models with layer norms (session 83's layer norms lowered whole, never run on a GPU), 8 processes at once;
# (b) issue 23's compile time of timm ViT and ConvNeXt bf16 inference, cold and warm, aot_eager / Inductor / kiln
# (the collector's pass of item 113, with Python 3.12's own frozen objects now told apart); (c) GPT-2's fp32
# training rows, and kiln again from alt/ (an untracked copy of the package with the parked patch
# s84/whole_layer_norm_backward.patch applied), in the same call. Set up alt/ first, on this machine:
#   rm -rf alt && git worktree add /tmp/alt HEAD && (cd /tmp/alt && git apply bench/results/s84/whole_layer_norm_backward.patch)
#   && mkdir alt && cp -r /tmp/alt/kiln alt/ && git worktree remove --force /tmp/alt
export PYTHONUNBUFFERED=1; start=$(date +%s); mkdir -p /tmp/o
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; git log -1 --format=%h; git status --short | head;
  PYTHONPATH=. python3 -c "import torch, triton, sys, gc; print(torch.__version__, triton.__version__, sys.version, gc.get_freeze_count()); import kiln.capture as c; print('interpreter_frozen_count', c.interpreter_frozen_count())"; } > /tmp/o/machine.txt 2>&1
PYTHONPATH=. timeout 150 python3 scripts/gpu_models.py --out /tmp/o/acc --backends kiln --no-time --jobs 8 \
  --models gpt2,bert,vit,bart,deberta_v2,deit,swin,convnext,whisper,t5,timm_vit,timm_deit,timm_convnext > /tmp/o/acc.log 2>&1
echo "acc rc $? at $(( $(date +%s) - start )) s" >> /tmp/o/machine.txt; tar czf $OUT/c2.tgz -C /tmp/o .   # (what is done comes back if the call is cut short)
PYTHONPATH=. timeout 150 python3 scripts/gpu_compile_time.py --out /tmp/o/ct_inf --models timm_vit,timm_convnext --timeout 50 > /tmp/o/ct_inf.log 2>&1
echo "inference rc $? at $(( $(date +%s) - start )) s" >> /tmp/o/machine.txt; tar czf $OUT/c2.tgz -C /tmp/o .
left=$(( 470 - ($(date +%s) - start) ))
PYTHONPATH=. timeout $(( left * 2 / 3 )) python3 scripts/gpu_compile_time.py --out /tmp/o/ct_main_gpt2 --models gpt2 --train --timeout 50 > /tmp/o/ct_main.log 2>&1
left=$(( 470 - ($(date +%s) - start) ))
PYTHONPATH=alt:. timeout $left python3 scripts/gpu_compile_time.py --out /tmp/o/ct_alt_gpt2 --models gpt2 --train --backends kiln --timeout 50 > /tmp/o/ct_alt.log 2>&1
echo "train rc $? at $(( $(date +%s) - start )) s" >> /tmp/o/machine.txt
grep "^{\"model" /tmp/o/acc.log > /tmp/o/acc_rows.txt; for f in /tmp/o/*.log; do grep -v "^W12\|^I12\|^V12\|^{" $f | tail -n 30 > $f.tail; rm $f; done
tar czf $OUT/c2.tgz -C /tmp/o .
cat /tmp/o/machine.txt; cat /tmp/o/ct_*/compile_time.md; cut -c1-200 /tmp/o/acc_rows.txt
