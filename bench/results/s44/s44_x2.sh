#!/bin/bash
# session 44, issue 22 on 2 H200s: scripts/multi_gpu.py launches, each with fresh compile caches (cold compile
# times), one launch per model so that a cut-short call keeps what finished.
#   s44_x2.sh BUDGET_S LAUNCH...   LAUNCH = NRANKS:MODEL[,MODEL...]
# Writes $OUT/w{N}_{models}/world{N}.json (+ .log) and $OUT/machine.txt.
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PYTHONPATH=. PYTHONUNBUFFERED=1
mkdir -p $OUT
{ nvidia-smi --query-gpu=name,memory.used --format=csv; nvidia-smi topo -m; uptime; git rev-parse --short HEAD 2>/dev/null
  python3 -c "import sys, torch, triton; print(sys.version.split()[0], torch.__version__, triton.__version__, torch.version.cuda, torch.cuda.nccl.version())"; } >> $OUT/machine.txt 2>&1
budget=$1; shift; start=$(date +%s)
for spec in "$@"; do
  left=$(( budget - ($(date +%s) - start) ))
  if [ $left -lt 90 ]; then echo "no time left for $spec" | tee -a $OUT/machine.txt; continue; fi
  n=${spec%%:*}; models=${spec#*:}; dir=$OUT/w${n}_${models//,/_}; c=/tmp/cache_$n_${models//,/_}_$RANDOM
  echo "$(date +%T) launch $spec ($left s left)" | tee -a $OUT/machine.txt
  KILN_CACHE_DIR=$c/k TRITON_CACHE_DIR=$c/t TORCHINDUCTOR_CACHE_DIR=$c/i timeout $(( left - 20 )) \
    torchrun --nproc-per-node $n scripts/multi_gpu.py --out $dir --models $models --rounds ${ROUNDS:-7} --calls ${CALLS:-10} \
    > $dir.log 2>&1
  echo "$(date +%T) rc $? $(uptime)" | tee -a $OUT/machine.txt
  grep "s/step\|Error\|error" $dir.log | grep -v Warn | head -8
done
