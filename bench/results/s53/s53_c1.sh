# session 53, call 1 (nvidia-h200-x2): issue 23's GPU rows over the whole suite, bf16 inference, cold and warm,
# aot_eager / Inductor / kiln. Four shards at once, two per GPU, each pinned to its own 8 of the host's 32 cores
# (so every compiler's worker pool is sized to 8 cores), one process per (model, backend, phase) within a shard.
export PYTHONPATH=.
mkdir -p $OUT/c1
shard() {  # GPU CORES NAME MODELS
  (CUDA_VISIBLE_DEVICES=$1 taskset -c $2 timeout 585 python3 scripts/gpu_compile_time.py --out /tmp/ct_$3 \
     --models $4 --budget-s 440 --timeout 200 > $OUT/c1/$3.log 2>&1; cp /tmp/ct_$3/compile_time.json $OUT/c1/$3.json) &
}
shard 0 0-7 a gpt2,bart,vit,resnet,albert
shard 0 8-15 b t5,llama,deit,regnet,distilbert
shard 1 16-23 c whisper,mistral,swin,mobilenet_v2,roberta
shard 1 24-31 d efficientnet,qwen2,convnext,bert,deberta_v2
sleep 5; uptime
wait
uptime
for s in a b c d; do grep -c compile_s $OUT/c1/$s.log; tail -n 2 $OUT/c1/$s.log | cut -c1-200; done
