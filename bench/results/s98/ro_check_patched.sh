# session 98: for the next session, with positions.patch applied (git apply bench/results/s98/positions.patch):
# Whisper's AMP training step, kiln default against kiln reduce-overhead, with the recordings' log lines counted
export PYTHONPATH=. PYTHONUNBUFFERED=1
timeout 200 python3 scripts/gpu_models.py --out $OUT/w --train --amp --backends kiln,kiln@reduce-overhead --models whisper --budget-s 30 > $OUT/w.log 2>&1
echo rc $?; grep "^{" $OUT/w.log | cut -c1-1200; grep -c "records its CUDA graph" $OUT/w.log; grep "without a CUDA graph\|keeps one recording" $OUT/w.log | sort | uniq -c | head
