#!/bin/bash
# session 47, call 1 (2 H200s): issue 22's DDP/FSDP2 probe (bench/results/s47/s47_ddp_probe.py), unpinned then each
# rank pinned to its half of the CPUs; then issue 16's fp32 training profiles, T5 on GPU 0 and Swin on GPU 1.
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PYTHONPATH=. PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used --format=csv; nproc; uptime; git log -1 --format=%h
  python3 -c "import sys, torch, triton; print(sys.version.split()[0], torch.__version__, triton.__version__)"; } > $R/machine.txt 2>&1
c=/tmp/cache_s47; export KILN_CACHE_DIR=$c/k TRITON_CACHE_DIR=$c/t TORCHINDUCTOR_CACHE_DIR=$c/i
timeout 210 torchrun --nproc-per-node 2 bench/results/s47/s47_ddp_probe.py $R --rounds 6 > $R/probe.log 2>&1
echo "probe rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $R/machine.txt
timeout 170 torchrun --nproc-per-node 2 bench/results/s47/s47_ddp_probe.py $R --pin --rounds 6 > $R/probe_pin.log 2>&1
echo "probe_pin rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $R/machine.txt
left=$(( 585 - ($(date +%s) - start) ))
(CUDA_VISIBLE_DEVICES=0 timeout $left python3 scripts/gpu_profile.py t5 --train --gemms --top 20 > $R/prof_t5_train.txt 2>&1) &
(CUDA_VISIBLE_DEVICES=1 timeout $left python3 scripts/gpu_profile.py swin --train --gemms --top 20 > $R/prof_swin_train.txt 2>&1) &
wait
echo "done at $(( $(date +%s) - start )) s; $(uptime)" >> $R/machine.txt
grep -v "^W1129\|^\*\*\*\|OMP_NUM" $R/probe.log $R/probe_pin.log | tail -30
