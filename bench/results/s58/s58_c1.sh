#!/bin/bash
# session 58, call 1 (2 H200s): issue 22's table at 806920b+ (dependent launch, the leak fix, the compile-time
# work since session 47), GPT-2 and ResNet-50, a 2-rank launch each with the 1-GPU steps in the same rounds, fresh
# caches, 11 rounds; then where GPT-2 DDP's second rank adds host time (bench/results/s36/s36_fsdp_prof.py: host
# and step time, cProfile by area, 2 ranks against each rank alone, per backend).
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PYTHONPATH=. PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used --format=csv; nproc; uptime; git log -1 --format=%h
  python3 -c "import sys, torch, triton; print(sys.version.split()[0], torch.__version__, triton.__version__, torch.version.cuda, torch.cuda.nccl.version())"; } > $R/machine.txt 2>&1
for spec in gpt2:240 resnet:175; do
  m=${spec%%:*}; t=${spec#*:}; c=/tmp/cache_s58_$m
  KILN_CACHE_DIR=$c/k TRITON_CACHE_DIR=$c/t TORCHINDUCTOR_CACHE_DIR=$c/i timeout $t \
    torchrun --nproc-per-node 2 scripts/multi_gpu.py --out $R/w2_$m --models $m --rounds 11 --calls 10 > $R/w2_$m.log 2>&1
  echo "$m rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $R/machine.txt
  python3 scripts/multi_gpu.py --summarize --out $R/w2_$m > /dev/null 2>&1
done
left=$(( 570 - ($(date +%s) - start) ))
c=/tmp/cache_s58_gpt2; KILN_CACHE_DIR=$c/k TRITON_CACHE_DIR=$c/t TORCHINDUCTOR_CACHE_DIR=$c/i timeout $left \
  torchrun --nproc-per-node 2 bench/results/s36/s36_fsdp_prof.py $R/prof gpt2 ddp eager,kiln,inductor > $R/prof_ddp.log 2>&1
echo "prof rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $R/machine.txt
cat $R/machine.txt; cat $R/w2_*/summary.md | cut -d'|' -f2-12; grep -h "step \[" $R/prof_ddp.log | cut -c1-300
