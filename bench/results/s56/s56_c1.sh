# session 56, call 1 (nvidia-h200-x2). GPU 1 (cores 16-31): issue 19's 50-tiny-op graph, kiln's reduce-overhead with
# the small kernels' warps at 1/2/4/8 (s56_tiny_warps.py), then max-autotune AMP-bf16 training rows not measured
# yet. GPU 0 (cores 0-15): max-autotune bf16 inference rows not measured yet. Both compilers in max-autotune, one
# process per GPU; no model starts after the budget.
export PYTHONPATH=.
mkdir -p $OUT/c1/a $OUT/c1/b
start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used --format=csv; nproc; uptime; git log -1 --format=%h
  python3 -c "import sys, torch, triton; print(sys.version.split()[0], torch.__version__, triton.__version__, torch.version.cuda)"; } > $OUT/c1/machine.txt 2>&1
(CUDA_VISIBLE_DEVICES=0 taskset -c 0-15 timeout 560 python3 scripts/gpu_models.py --out /tmp/m0 --backends inductor@max-autotune,kiln@max-autotune --models mistral,qwen2,deit,swin --budget-s 400 > /tmp/m0.log 2>&1; cp /tmp/m0/*.json /tmp/m0/*.md $OUT/c1/a/) &
(CUDA_VISIBLE_DEVICES=1 taskset -c 16-31 sh -c "timeout 120 python3 bench/results/s56/s56_tiny_warps.py $OUT/c1/tiny_warps.json > /tmp/tiny.log 2>&1; timeout 430 python3 scripts/gpu_models.py --out /tmp/m1 --train --amp --backends inductor@max-autotune,kiln@max-autotune --models vit,deit,llama --budget-s 280 > /tmp/m1.log 2>&1; cp /tmp/m1/*.json /tmp/m1/*.md $OUT/c1/b/") &
sleep 5; uptime >> $OUT/c1/machine.txt
wait
echo "done at $(( $(date +%s) - start )) s; $(uptime)" | tee -a $OUT/c1/machine.txt
tail -n 40 /tmp/tiny.log | cut -c1-300
cat $OUT/c1/a/*.md $OUT/c1/b/*.md | cut -c1-400
grep -v "^W12\|^I12\|^V12" /tmp/m0.log | tail -n 4 | cut -c1-300
grep -v "^W12\|^I12\|^V12" /tmp/m1.log | tail -n 4 | cut -c1-300
