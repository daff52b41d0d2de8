# session 50, call 2 (nvidia-h200-x2): fused products with every configuration of kiln's matmul (stages too),
# the tuning key with the product's sizes; GPU 0: correctness and the tuner's times; GPU 1: GPT-2 and ViT in
# max-autotune, kiln against Inductor
export PYTHONPATH=.
mkdir -p $OUT/c2
(CUDA_VISIBLE_DEVICES=0 KILN_CACHE_DIR=$(mktemp -d) timeout 560 python3 bench/results/s50/s50_fused_products.py $OUT/c2/fused_products.json > $OUT/c2/fused_products.log 2>&1) &
(CUDA_VISIBLE_DEVICES=1 KILN_LOGS=+autotune timeout 570 python3 scripts/gpu_models.py --out $OUT/c2/max_autotune --models gpt2,vit --backends inductor@max-autotune,kiln@max-autotune --budget-s 300 > $OUT/c2/max_autotune.log 2>&1) &
wait
for f in $OUT/c2/*.log; do tail -n 3 $f; done
