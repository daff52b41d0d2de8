# session 54, call 2 (nvidia-h200-x2): issue 23's worst GPU rows again, cold and warm, two rounds each, two shards
# (one per GPU, each pinned to its own 16 of the 32 cores: session 53's four shards of 8 cores each put DeBERTa-v2
# at 0.35, where call 1's GIL probe, alone on 16 cores, read 0.13).
export PYTHONPATH=.
mkdir -p $OUT/c2
shard() {  # GPU CORES NAME MODELS
  (CUDA_VISIBLE_DEVICES=$1 taskset -c $2 timeout 570 python3 scripts/gpu_compile_time.py --out /tmp/ct_$3 \
     --models $4 --repeats 2 --budget-s 290 --timeout 150 > /tmp/ct_$3.log 2>&1; \
     for f in /tmp/ct_$3/compile_time.*; do cp $f $OUT/c2/$3_$(basename $f); done) &
}
shard 0 0-15 a deberta_v2,gpt2
shard 1 16-31 b vit,convnext
sleep 5; uptime
wait
uptime
grep -h "^|" /tmp/ct_a.log /tmp/ct_b.log
tail -n 3 /tmp/ct_a.log /tmp/ct_b.log | cut -c1-300
