# session 57, call 3 (one H200): small reductions spread over more programs, fewer warps on small tiles (the working
# tree's change on top of dependent launch, applied from pdl.patch while CI ran on the local checkout; stored as s57_c3_tree.patch): the CUDA
# checks, then the tiny-op graph and bf16 inference rows against the old heuristic and Inductor.
export PYTHONPATH=.
patch -p1 < bench/results/s57/s57_c3_tree.patch > /dev/null || exit 1
mkdir -p $OUT/c3
start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; nproc; uptime; } > $OUT/c3/machine.txt 2>&1
timeout 200 python3 scripts/gpu_check.py --out /tmp/chk --skip-bench > $OUT/c3/gpu_check.log 2>&1
grep -c "^PASS" $OUT/c3/gpu_check.log; grep "FAIL\|rror" $OUT/c3/gpu_check.log | head -n 8 | cut -c1-300
echo "checks done at $(( $(date +%s) - start )) s" >> $OUT/c3/machine.txt
left=$(( 560 - ($(date +%s) - start) ))
timeout $left python3 bench/results/s57/s57_spread_check.py $OUT/c3 gpt2,bert,resnet,efficientnet,vit,llama,convnext --budget-s $(( left - 100 )) 2>&1 | grep "^{" | cut -c1-1200
echo "done at $(( $(date +%s) - start )) s; $(uptime)" | tee -a $OUT/c3/machine.txt
