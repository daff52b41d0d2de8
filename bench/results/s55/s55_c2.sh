# session 55, call 2 (nvidia-h200-x2): where issue 16's lowest fp32 training rows lose, for the next session.
# GPU 0 (cores 0-15): Whisper's fp32 training step, both compilers' top kernels and library calls by operand layout
# (gpu_profile.py --gemms) and the step's timeline; GPU 1 (cores 16-31): BART's, the same.
export PYTHONPATH=.
mkdir -p $OUT/c2
start=$(date +%s)
(CUDA_VISIBLE_DEVICES=0 taskset -c 0-15 timeout 420 python3 scripts/gpu_profile.py whisper --train --gemms --top 20 > $OUT/c2/whisper_profile.log 2>&1) &
(CUDA_VISIBLE_DEVICES=1 taskset -c 16-31 timeout 420 python3 scripts/gpu_profile.py bart --train --gemms --top 20 > $OUT/c2/bart_profile.log 2>&1) &
wait
echo "done at $(( $(date +%s) - start )) s"
grep -v "^W11\|^I11\|^V11" $OUT/c2/whisper_profile.log | tail -n 60 | cut -c1-220
