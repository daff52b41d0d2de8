# session 57, call 1 (one H200): does programmatic dependent launch shorten a CUDA graph of small kernels (issue 19's
# tiny-op graph, by hand)? Then issue 23's EfficientNet-B0 fp32 training compile row with session 56's compile-time
# change (cold and warm; aot_eager, Inductor, kiln).
export PYTHONPATH=.
mkdir -p $OUT/c1
start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; nproc; uptime; git log -1 --format=%h; python3 -c "import torch, triton; print(torch.__version__, torch.version.cuda, triton.__version__)"; } > $OUT/c1/machine.txt 2>&1
timeout 120 python3 bench/results/s57/s57_pdl_probe.py $OUT/c1/pdl.json 2>&1 | tail -n 20
echo "probe done at $(( $(date +%s) - start )) s" >> $OUT/c1/machine.txt
timeout 400 python3 scripts/gpu_compile_time.py --out /tmp/ct --train --models efficientnet --budget-s 330 --timeout 200 > /tmp/ct.log 2>&1
cp /tmp/ct/compile_time.* $OUT/c1/
echo "done at $(( $(date +%s) - start )) s; $(uptime)" | tee -a $OUT/c1/machine.txt
grep "^|" /tmp/ct.log | cut -c1-400
tail -n 3 /tmp/ct.log | cut -c1-300
