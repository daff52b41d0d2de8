# session 53, call 3 (nvidia-h200-x2): heads with misaligned rows as kiln's Triton matmul in the default mode.
# GPU 0: GPT-2 in reduce-overhead at batch 1 / 2 (issue 19), then the suite's bf16 inference rows whose heads
# change (issue 16), then GPT-2's AMP training; GPU 1 (16 cores): compile time of GPT-2 (the head's tile now built
# ahead) and ResNet-18 (the suite's row calls 1-2 did not reach), cold and warm (issue 23).
export PYTHONPATH=.
mkdir -p $OUT/c3
(CUDA_VISIBLE_DEVICES=0 timeout 540 sh -c "python3 scripts/gpu_modes.py --out /tmp/m0 --models gpt2 --batches 1,2 --skip-checks --budget-s 100 > $OUT/c3/modes.log 2>&1; cp /tmp/m0/modes_reduce_overhead.json $OUT/c3/; python3 scripts/gpu_models.py --out /tmp/g0 --models gpt2,distilbert,bert,roberta,bart --budget-s 200 > $OUT/c3/infer.log 2>&1; python3 scripts/gpu_models.py --out /tmp/g1 --models gpt2 --train --amp --budget-s 60 > $OUT/c3/amp.log 2>&1") &
(CUDA_VISIBLE_DEVICES=1 taskset -c 16-31 timeout 540 python3 scripts/gpu_compile_time.py --out /tmp/ct --models gpt2,resnet --budget-s 300 --timeout 200 > $OUT/c3/compile.log 2>&1; cp /tmp/ct/compile_time.json $OUT/c3/) &
wait
grep -v "^W11\|^I11\|^V11" $OUT/c3/modes.log | tail -n 12 | cut -c1-400
grep -h "vs_inductor" $OUT/c3/infer.log $OUT/c3/amp.log | cut -c1-500
grep "^|" $OUT/c3/compile.log
