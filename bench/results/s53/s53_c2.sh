# session 53, call 2 (nvidia-h200-x2): the rest of issue 23's GPU rows (as call 1: four shards, two per GPU, 8 cores
# each), Qwen2 again (0.41 in call 1, its aot_eager floor 1.6 s cold against 1.1 warm); then GPU 0: misaligned-row
# heads in each of kiln's Triton matmul configurations (s52_head_tiles.py); GPU 1: the CUDA checks (gpu_check.py)
export PYTHONPATH=.
mkdir -p $OUT/c2
start=$(date +%s)
shard() {  # GPU CORES NAME MODELS
  (CUDA_VISIBLE_DEVICES=$1 taskset -c $2 timeout 360 python3 scripts/gpu_compile_time.py --out /tmp/ct_$3 \
     --models $4 --budget-s 220 --timeout 160 > /tmp/ct_$3.log 2>&1; cp /tmp/ct_$3/compile_time.json $OUT/c2/$3.json) &
}
shard 0 0-7 a qwen2,albert,resnet
shard 0 8-15 b regnet,distilbert
shard 1 16-23 c mobilenet_v2,roberta
shard 1 24-31 d bert,deberta_v2
sleep 5; uptime
wait
uptime
left=$((585 - $(date +%s) + start))
echo "left $left s"; tail -n 4 /tmp/ct_*.log > $OUT/c2/shards.log
(CUDA_VISIBLE_DEVICES=0 timeout $left python3 bench/results/s52/s52_head_tiles.py $OUT/c2/head_tiles.json > $OUT/c2/head_tiles.log 2>&1) &
(CUDA_VISIBLE_DEVICES=1 timeout $left python3 scripts/gpu_check.py --out /tmp/gc --skip-bench > $OUT/c2/gpu_check.log 2>&1) &
wait
tail -n 4 $OUT/c2/gpu_check.log | cut -c1-300
