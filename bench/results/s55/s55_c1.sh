# session 55, call 1 (nvidia-h200-x2). GPU 0 (cores 0-15): the CUDA checks (gpu_check.py, its benchmark skipped;
# this session's lowering of slice_scatter and slice_backward reaches Triton kernels too), then the fp32 training
# rows of Whisper and T5 (issue 16's lowest). GPU 1 (cores 16-31): the fp32 training rows of Swin, BART and Llama
# (Llama: its rotary embedding's gradient now loads through affine indices).
export PYTHONPATH=.
mkdir -p $OUT/c1
start=$(date +%s)
(CUDA_VISIBLE_DEVICES=0 taskset -c 0-15 sh -c "timeout 200 python3 scripts/gpu_check.py --out /tmp/chk --skip-bench > $OUT/c1/gpu_check.log 2>&1; timeout 330 python3 scripts/gpu_models.py --out /tmp/g0 --train --models whisper,t5 --budget-s 200 > /tmp/g0.log 2>&1; cp /tmp/g0/*.json $OUT/c1/ 2>/dev/null; cp /tmp/g0/*.md $OUT/c1/train_a.md 2>/dev/null") &
(CUDA_VISIBLE_DEVICES=1 taskset -c 16-31 sh -c "timeout 540 python3 scripts/gpu_models.py --out /tmp/g1 --train --models swin,bart,llama --budget-s 330 > /tmp/g1.log 2>&1; mkdir -p $OUT/c1/b; cp /tmp/g1/*.json $OUT/c1/b/ 2>/dev/null; cp /tmp/g1/*.md $OUT/c1/train_b.md 2>/dev/null") &
wait
echo "done at $(( $(date +%s) - start )) s"
tail -n 4 $OUT/c1/gpu_check.log
grep "^|" /tmp/g0.log /tmp/g1.log | cut -c1-300
grep -v "^W11\|^I11\|^V11" /tmp/g0.log | tail -n 3 | cut -c1-300
grep -v "^W11\|^I11\|^V11" /tmp/g1.log | tail -n 3 | cut -c1-300
