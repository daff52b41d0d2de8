#!/bin/bash
# session 65, call 1 (one H200, ~450 s): bounds tests decided by the index's bounds (KernelWriter.decided) and
# unread values dropped, on exp/kiln; main's kiln (PYTHONPATH=.) is the tree before them.
# 1) kiln default mode's GPU kernels, before (main) and after (exp): timm MobileNetV3, HF EfficientNet;
# 2) default mode, kiln (after) against Inductor in one process, with accuracy: the suite's conv nets.
R=$OUT; mkdir -p $R; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; } > $R/machine.txt 2>&1
for m in timm_mobilenetv3 efficientnet; do
  for v in before after; do
    pp=$([ $v = after ] && echo exp:. || echo .)
    PYTHONPATH=$pp timeout 80 python3 scripts/gpu_profile.py $m --dtype bfloat16 --top 14 --backends kiln \
      > $R/profile_${m}_$v.txt 2>&1
    echo "profile $m $v rc $? at $(( $(date +%s) - start )) s" >> $R/machine.txt
  done
done
PYTHONPATH=exp:. timeout 280 python3 scripts/gpu_models.py --out /tmp/m --backends inductor,kiln --budget-s 190 \
  --models timm_mobilenetv3,mobilenet_v2,efficientnet,timm_efficientnet,convnext,regnet > /tmp/m.log 2>&1
echo "models rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $R/machine.txt
cp /tmp/m/*.json /tmp/m/*.md $R/ 2>/dev/null; grep -v "^W12\|^I12\|^V12" /tmp/m.log | tail -n 30 > $R/models_log_tail.txt
cat $R/machine.txt
for f in $R/profile_*; do echo "== $f"; grep -v "^W12\|^I12\|Warning\|_warn" $f | sed -n 1,12p | cut -c1-120; done
grep "^{" /tmp/m.log | cut -c1-400
