# session 50, call 6 (nvidia-h200-x2): max-autotune, kiln against Inductor: MobileNetV2 on GPU 0, ConvNeXt on GPU 1
export PYTHONPATH=.
mkdir -p $OUT/c6
(CUDA_VISIBLE_DEVICES=0 KILN_LOGS=autotune timeout 250 python3 scripts/gpu_models.py --out $OUT/c6/gpu0 --models mobilenet_v2 --backends inductor@max-autotune,kiln@max-autotune --budget-s 100 > $OUT/c6/gpu0.log 2>&1) &
(CUDA_VISIBLE_DEVICES=1 KILN_LOGS=autotune timeout 250 python3 scripts/gpu_models.py --out $OUT/c6/gpu1 --models convnext --backends inductor@max-autotune,kiln@max-autotune --budget-s 100 > $OUT/c6/gpu1.log 2>&1) &
wait
grep -h "vs_inductor" $OUT/c6/*.log | cut -c1-700
