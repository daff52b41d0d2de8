# session 51, call 1 (nvidia-h200-x2): GPU 0: GPT-2's head, kiln's aligned-rows blocks against kiln's Triton
# matmul, then GPT-2 bf16 inference in max-autotune (kiln against Inductor); GPU 1: DistilBERT AMP-bf16 training
# in max-autotune (issue 19's "including AMP training")
export PYTHONPATH=.
mkdir -p $OUT/c1
(CUDA_VISIBLE_DEVICES=0 timeout 560 sh -c "python3 bench/results/s50/s50_head_triton.py > $OUT/c1/head_triton.log 2>&1; KILN_LOGS=+autotune python3 scripts/gpu_models.py --out $OUT/c1/gpu0 --models gpt2 --backends inductor@max-autotune,kiln@max-autotune --budget-s 200 > $OUT/c1/gpu0.log 2>&1") &
(CUDA_VISIBLE_DEVICES=1 KILN_LOGS=autotune timeout 560 python3 scripts/gpu_models.py --out $OUT/c1/gpu1 --models distilbert --train --amp --backends inductor@max-autotune,kiln@max-autotune --budget-s 200 > $OUT/c1/gpu1.log 2>&1) &
wait
cat $OUT/c1/head_triton.log | tail -n 5
grep -h "vs_inductor" $OUT/c1/*.log | cut -c1-700
tail -n 3 $OUT/c1/gpu1.log
