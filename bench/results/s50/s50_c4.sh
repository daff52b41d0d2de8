# session 50, call 4 (nvidia-h200-x2): max-autotune, kiln against Inductor, with the tile's wrapped reads;
# GPU 0: GPT-2 and Llama; GPU 1: ResNet-18 and DistilBERT
export PYTHONPATH=.
mkdir -p $OUT/c4
(CUDA_VISIBLE_DEVICES=0 KILN_LOGS=+autotune timeout 560 python3 scripts/gpu_models.py --out $OUT/c4/gpu0 --models gpt2,llama --backends inductor@max-autotune,kiln@max-autotune --budget-s 280 > $OUT/c4/gpu0.log 2>&1) &
(CUDA_VISIBLE_DEVICES=1 KILN_LOGS=+autotune timeout 560 python3 scripts/gpu_models.py --out $OUT/c4/gpu1 --models resnet,distilbert --backends inductor@max-autotune,kiln@max-autotune --budget-s 280 > $OUT/c4/gpu1.log 2>&1) &
wait
grep -h "vs_inductor" $OUT/c4/*.log | cut -c1-600
