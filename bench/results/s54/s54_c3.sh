# session 54, call 3 (nvidia-h200-x2): issue 23's worst GPU rows again, cold and warm, two rounds each, two shards
# GPT-2 and ConvNeXt (the two rows call 2 did not reach), as call 2: two rounds, one shard per GPU, 16 cores each.
export PYTHONPATH=.
mkdir -p $OUT/c3
shard() {  # GPU CORES NAME MODELS
  (CUDA_VISIBLE_DEVICES=$1 taskset -c $2 timeout 420 python3 scripts/gpu_compile_time.py --out /tmp/ct_$3 \
     --models $4 --repeats 2 --budget-s 100 --timeout 150 > /tmp/ct_$3.log 2>&1; \
     for f in /tmp/ct_$3/compile_time.*; do cp $f $OUT/c3/$3_$(basename $f); done) &
}
shard 0 0-15 a gpt2
shard 1 16-31 b convnext
sleep 5; uptime
wait
uptime
grep -h "^|" /tmp/ct_a.log /tmp/ct_b.log
tail -n 3 /tmp/ct_a.log /tmp/ct_b.log | cut -c1-300
