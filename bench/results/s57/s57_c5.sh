# session 57, call 5 (one H200, the session's last device minutes): issue 19's DistilBERT reduce-overhead rows (not
# reached in call 4), then issue 16's BART fp32 training peak: where eager's and kiln's peaks go
# (s57_memory_peak.py, CUDA memory history of one step each).
export PYTHONPATH=.
mkdir -p $OUT/c5
start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; nproc; uptime; git log -1 --format=%h; } > $OUT/c5/machine.txt 2>&1
timeout 130 python3 scripts/gpu_modes.py --out $OUT/c5 --models distilbert --skip-checks --budget-s 60 2>&1 | grep "^{" | cut -c1-1200
echo "modes done at $(( $(date +%s) - start )) s" >> $OUT/c5/machine.txt
timeout 170 python3 bench/results/s57/s57_memory_peak.py $OUT/c5/memory_peak_bart.json bart 2>&1 | grep "^eager\|^kiln\|Error" | cut -c1-400
echo "done at $(( $(date +%s) - start )) s; $(uptime)" | tee -a $OUT/c5/machine.txt
