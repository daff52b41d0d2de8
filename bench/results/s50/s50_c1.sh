# session 50, call 1 (nvidia-h200-x2): fused products' correctness and the tuner's times on GPU 0; GPT-2 and BERT
# in max-autotune, kiln against Inductor, on GPU 1
export PYTHONPATH=.
mkdir -p $OUT/c1
(CUDA_VISIBLE_DEVICES=0 KILN_CACHE_DIR=$(mktemp -d) timeout 560 python3 bench/results/s50/s50_fused_products.py $OUT/c1/fused_products.json > $OUT/c1/fused_products.log 2>&1) &
(CUDA_VISIBLE_DEVICES=1 KILN_LOGS=autotune timeout 570 python3 scripts/gpu_models.py --out $OUT/c1/max_autotune --models gpt2,bert --backends inductor@max-autotune,kiln@max-autotune --budget-s 300 > $OUT/c1/max_autotune.log 2>&1) &
wait
for f in $OUT/c1/*.log; do tail -n 5 $f; done
