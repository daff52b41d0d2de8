# session 51, call 4 (nvidia-h200-x2), with CUDA graphs handing out their outputs: GPU 0: reduce-overhead rows
# (bf16 inference at batch 1 and 2, kiln against Inductor, the accuracy of a replayed call); GPU 1: AMP-bf16
# training in reduce-overhead, kiln against Inductor
export PYTHONPATH=.
mkdir -p $OUT/c4
(CUDA_VISIBLE_DEVICES=0 timeout 320 python3 scripts/gpu_modes.py --out $OUT/c4/gpu0 --models gpt2,llama,t5 --batches 1,2 --budget-s 200 > $OUT/c4/gpu0.log 2>&1) &
(CUDA_VISIBLE_DEVICES=1 timeout 320 python3 scripts/gpu_models.py --out $OUT/c4/gpu1 --models distilbert,gpt2,bert --train --amp --backends inductor@reduce-overhead,kiln@reduce-overhead --budget-s 180 > $OUT/c4/gpu1.log 2>&1) &
wait
grep -v "^W1130\|^I1130\|^V1130" $OUT/c4/gpu0.log | tail -n 30 | cut -c1-400
grep -h "vs_inductor" $OUT/c4/gpu1.log | cut -c1-600
