#!/bin/bash
# session 47, call 2 (2 H200s): issue 22's table again, each rank pinned to its half of the CPUs
# (scripts/multi_gpu.py's default now), GPT-2 and ResNet-50, a 2-rank launch each (1-GPU steps timed in the same
# rounds), fresh caches; then Swin's fp32 training kernels, all of them, kiln against Inductor (GPU 0) and fp32
# attention, memory-efficient against math (GPU 1).
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PYTHONPATH=. PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used --format=csv; nproc; uptime; git log -1 --format=%h
  python3 -c "import sys, torch, triton; print(sys.version.split()[0], torch.__version__, triton.__version__, torch.version.cuda, torch.cuda.nccl.version())"; } > $R/machine.txt 2>&1
for spec in gpt2:225 resnet:165; do
  m=${spec%%:*}; t=${spec#*:}; c=/tmp/cache_s47_$m
  KILN_CACHE_DIR=$c/k TRITON_CACHE_DIR=$c/t TORCHINDUCTOR_CACHE_DIR=$c/i timeout $t \
    torchrun --nproc-per-node 2 scripts/multi_gpu.py --out $R/w2_$m --models $m --rounds 9 --calls 10 > $R/w2_$m.log 2>&1
  echo "$m rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $R/machine.txt
done
left=$(( 580 - ($(date +%s) - start) ))
(CUDA_VISIBLE_DEVICES=0 timeout $left python3 scripts/gpu_profile.py swin --train --top 160 > $R/prof_swin_train_all.txt 2>&1) &
(CUDA_VISIBLE_DEVICES=1 timeout $left python3 bench/results/s47/s47_attention_fp32.py $R/attention_fp32.json > $R/attention_fp32.txt 2>&1) &
wait
echo "done at $(( $(date +%s) - start )) s; $(uptime)" >> $R/machine.txt
grep -h "s/step\|Error" $R/w2_*.log | head; cat $R/attention_fp32.txt
