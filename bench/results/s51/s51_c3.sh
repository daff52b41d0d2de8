# session 51, call 3 (nvidia-h200-x2): CUDA graphs handing out their outputs: GPU 0: every replayed step checked
# against eager (s51_graph_handout.py), then DistilBERT AMP-bf16 training in max-autotune; GPU 1: GPT-2 AMP-bf16
# training in max-autotune; kiln against Inductor
export PYTHONPATH=.
mkdir -p $OUT/c3
(CUDA_VISIBLE_DEVICES=0 timeout 580 sh -c "python3 bench/results/s51/s51_graph_handout.py $OUT/c3/handout.json > $OUT/c3/handout.log 2>&1; KILN_LOGS=autotune python3 scripts/gpu_models.py --out $OUT/c3/gpu0 --models distilbert --train --amp --backends inductor@max-autotune,kiln@max-autotune --budget-s 200 > $OUT/c3/gpu0.log 2>&1") &
(CUDA_VISIBLE_DEVICES=1 KILN_LOGS=autotune timeout 580 python3 scripts/gpu_models.py --out $OUT/c3/gpu1 --models gpt2 --train --amp --backends inductor@max-autotune,kiln@max-autotune --budget-s 200 > $OUT/c3/gpu1.log 2>&1) &
wait
grep -v "^W1130" $OUT/c3/handout.log | tail -n 30 | cut -c1-300
grep -h "vs_inductor" $OUT/c3/*.log | cut -c1-700
grep -h "cudagraphs\|CUDA graph" $OUT/c3/gpu*.log | cut -c1-250 | head -20
