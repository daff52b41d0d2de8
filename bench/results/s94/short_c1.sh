#!/bin/bash
# Session 94's GPU call when little device time was left (eleven tries found no machine): the depthwise probe
# (s93/dw_loop_probe.py) and timm DeiT's bf16 inference compile rows alone on the machine, one round, cold then
# warm, plus one profiled warm process per compiler (s93/next_c1.sh's first two steps, shorter), in results.tgz.
#   bash bench/results/s94/short_c1.sh
export PYTHONUNBUFFERED=1 PYTHONPATH=.
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; uptime; } > $OUT/machine.txt 2>&1
timeout 100 python3 bench/results/s93/dw_loop_probe.py $OUT/dw_loop_probe.json > $OUT/dw_loop_probe.log 2>&1
timeout 200 python3 scripts/gpu_compile_time.py --out $OUT/ct_timm_deit --models timm_deit --repeats 1 \
  --timeout 100 --profile > $OUT/ct_timm_deit.log 2>&1
tail -n 6 $OUT/ct_*/compile_time.md; grep -v "^{" $OUT/dw_loop_probe.log | cut -c1-160
mkdir -p /tmp/pack && cp -r $OUT/. /tmp/pack/ && tar czf $OUT/results.tgz -C /tmp/pack . && \
  find $OUT -mindepth 1 ! -name results.tgz -delete
