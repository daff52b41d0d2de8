#!/bin/bash
# The next session's first GPU call (~540 s on one H100/H200), after session 90's two first-call fixes:
# build_ahead now awaits each build before loading it (Triton 3.6's FutureKernel has no metadata: every load failed,
# and the first kernel of each graph was compiled again on the main thread, 0.73 s of BERT's first call), and kiln's
# C launcher takes bool constexprs (kiln's matmul went through Triton's launcher, built with gcc at the first call).
# 1. the probe (s90/first_launch_probe.py) on BERT's kiln cold child: no jit_compile on MainThread expected;
# 2. BERT, DistilBERT, timm RegNet and ConvNeXt alone, two cold rounds (session 90 read 0.26, 0.35, 0.26, -);
# 3. the models never measured on this code, two shards, cold and warm, in the time left.
#   bash bench/results/s90/next_c1.sh
export PYTHONUNBUFFERED=1 PYTHONPATH=.; start=$(date +%s)
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; uptime; } > $OUT/machine.txt 2>&1
d=$(mktemp -d)
KILN_CACHE_DIR=$d/k TORCHINDUCTOR_CACHE_DIR=$d/i TRITON_CACHE_DIR=$d/t timeout 90 python3 \
  bench/results/s90/first_launch_probe.py $OUT/probe_bert.json -- --child --model bert --backend kiln --device cuda \
  > $OUT/probe.log 2>&1
for m in ${MODELS:-bert distilbert timm_regnet convnext}; do
  [ $(( $(date +%s) - start )) -gt ${BUDGET:-330} ] && { echo "budget: $m not run" >> $OUT/machine.txt; continue; }
  python3 scripts/gpu_compile_time.py --out $OUT/ct_$m --models $m --repeats 2 --phases cold --timeout 150 \
    > $OUT/ct_$m.log 2>&1
done
left=$(( ${DEADLINE:-530} - ($(date +%s) - start) ))
[ $left -gt 150 ] && python3 bench/results/s89/suite_shards.py $OUT/shards $left \
  ${SHARD_MODELS:-deit,resnet,albert,regnet,timm_resnet,timm_vit,timm_convnext,gpt2,mistral,bart,t5,whisper} \
  > $OUT/shards.out 2>&1
tail -n 3 $OUT/ct_*/compile_time.md
mkdir -p /tmp/pack && cp -r $OUT/. /tmp/pack/ && tar czf $OUT/results.tgz -C /tmp/pack . && \
  find $OUT -mindepth 1 ! -name results.tgz -delete
