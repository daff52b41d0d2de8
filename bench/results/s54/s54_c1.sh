# session 54, call 1 (nvidia-h200-x2). GPU 0 (cores 0-15): issue 23's GIL probe (s53_gil_probe.py) on DeBERTa-v2
# and ViT: the first call's wall seconds beside the main thread's CPU seconds, aot_eager / Inductor / kiln / kiln
# with one build thread. GPU 1 (cores 16-31): BART in reduce-overhead at batch 2 (issue 19's one unmeasured row),
# then issue 23's rows for DeBERTa-v2 and GPT-2 again, two repeats (the compile-stage change of session 53).
export PYTHONPATH=.
mkdir -p $OUT/c1
start=$(date +%s)
(CUDA_VISIBLE_DEVICES=0 taskset -c 0-15 sh -c "timeout 300 python3 bench/results/s53/s53_gil_probe.py deberta_v2 $OUT/c1/gil_deberta_v2.json > /tmp/gil.log 2>&1; timeout 250 python3 bench/results/s53/s53_gil_probe.py vit $OUT/c1/gil_vit.json >> /tmp/gil.log 2>&1") &
(CUDA_VISIBLE_DEVICES=1 taskset -c 16-31 sh -c "timeout 170 python3 scripts/gpu_modes.py --out /tmp/m1 --models bart --batches 2 --skip-checks --budget-s 100 > /tmp/modes.log 2>&1; cp /tmp/m1/modes_reduce_overhead.json $OUT/c1/; timeout 380 python3 scripts/gpu_compile_time.py --out /tmp/ct --models deberta_v2,gpt2 --repeats 2 --budget-s 300 --timeout 150 > /tmp/ct.log 2>&1; cp /tmp/ct/compile_time.json $OUT/c1/") &
wait
echo "done at $(( $(date +%s) - start )) s"
tail -n 3 /tmp/gil.log | cut -c1-300
grep -v "^W11\|^I11\|^V11" /tmp/modes.log | tail -n 6 | cut -c1-400
grep "^|" /tmp/ct.log
cat $OUT/c1/gil_*.json | head -80
