#!/bin/bash
# session 64, call 5 (one H200, 175 s; typed inline): issue 23's worst GPU row of session 53 (DeBERTa-v2, bf16
# inference, cold, kiln's overhead 0.35 of Inductor's), re-measured at main's kiln (9d8e8b3); the warm rows were
# cut by the call's limit (the device time left).
R=$OUT; mkdir -p $R; export PYTHONPATH=.; start=$(date +%s); { nvidia-smi --query-gpu=name,memory.used --format=csv; uptime; } > $R/machine.txt; timeout 175 python3 scripts/gpu_compile_time.py --out $R/ct --models deberta_v2 --timeout 80 > $R/ct.log 2>&1; echo "rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $R/machine.txt; cat $R/machine.txt; grep "cold\|warm" $R/ct.log | cut -c1-330
