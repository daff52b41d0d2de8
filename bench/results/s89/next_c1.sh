#!/bin/bash
# For the next session's first GPU call (~560 s on one H100/H200): session 89's two-shard suite run read kiln's cold
# overhead above 1/3 of Inductor's on BERT 0.63, timm RegNet 0.46, ConvNeXt 0.36 and DistilBERT 0.35, with the
# extra time outside the backend's call (the first call) and the shards' floors moving by up to 1.5 s between
# processes. Here one model at a time on the whole machine, two rounds of cold processes (aot_eager, Inductor,
# kiln alternating), then a wall-clock sample of BERT's kiln cold child (s87/sampled.py), and the CPU topology
# (whether the shards' 0-7 / 8-15 split shared physical cores); and issue 19's CPU inputs written by a GPU graph
# (s89/cpu_writes_gpu.py); all in $OUT/results.tgz.
#   bash bench/results/s89/next_c1.sh
export PYTHONUNBUFFERED=1 PYTHONPATH=.; start=$(date +%s)
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; uptime; lscpu | grep -i "thread\|core\|socket\|model name";
  cat /sys/devices/system/cpu/cpu0/topology/thread_siblings_list; } > $OUT/machine.txt 2>&1
timeout 90 python3 bench/results/s89/cpu_writes_gpu.py $OUT/cpu_writes_gpu.json > $OUT/cpu_writes_gpu.log 2>&1
d=$(mktemp -d)
KILN_CACHE_DIR=$d/k TORCHINDUCTOR_CACHE_DIR=$d/i TRITON_CACHE_DIR=$d/t timeout 100 python3 bench/results/s87/sampled.py \
  $OUT/bert_kiln_cold_sampled.json -- --child --model bert --backend kiln --device cuda > $OUT/sampled.log 2>&1
for m in ${MODELS:-bert distilbert timm_regnet convnext}; do
  [ $(( $(date +%s) - start )) -gt ${BUDGET:-340} ] && { echo "budget: $m not run" >> $OUT/machine.txt; continue; }
  python3 scripts/gpu_compile_time.py --out $OUT/ct_$m --models $m --repeats 2 --phases cold --timeout 150 \
    > $OUT/ct_$m.log 2>&1
done
tail -n 3 $OUT/ct_*/compile_time.md
# (a call returns 8 files at most: everything in one archive)
cd $OUT && tar czf results.tgz --exclude results.tgz . && find . -mindepth 1 ! -name results.tgz -delete
