# session 57, call 4 (one H200): issue 19's reduce-overhead rows with programmatic dependent launch (the working
# tree's change, applied from pdl.patch while CI ran on the local checkout): gpu_modes.py's checks of kiln's CUDA
# graphs (now of dependent kernels), the tiny-op graph, and the transformers' batch-1 and batch-2 bf16 rows
# (kiln default, kiln reduce-overhead, Inductor reduce-overhead), those below 1.10 in the README's table first.
# (pdl.patch was the change to kiln/ and tests/ of the commit that adds this script: not stored apart)
export PYTHONPATH=.
patch -p1 < bench/results/s57/pdl.patch > /dev/null || exit 1
mkdir -p $OUT/c4
start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; nproc; uptime; } > $OUT/c4/machine.txt 2>&1
timeout 540 python3 scripts/gpu_modes.py --out $OUT/c4 --models gpt2,llama,roberta,t5,bart,bert,distilbert --budget-s 430 2>&1 | grep "^{\|budget" | cut -c1-1500
echo "done at $(( $(date +%s) - start )) s; $(uptime)" | tee -a $OUT/c4/machine.txt
