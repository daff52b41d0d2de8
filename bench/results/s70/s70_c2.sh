#!/bin/bash
# session 70, call 2 (one H200): (1) at DeiT-tiny's 192 columns every combine narrower than 3 programs lost ~1.2 us
# with dependent launches and won without them, and dependent launches cost the default 2.1 us (c1): the "late"
# variant lets the next kernel start only as each program exits (no gdc_launch_dependents at its start);
# (2) the fp32 training rows last read under 1.00 (session 48: T5, Swin, BART, Whisper), both compile orders.
export PYTHONPATH=. PYTHONUNBUFFERED=1; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime;
  python3 -c "import sys, torch, triton; print(sys.version.split()[0], torch.__version__, triton.__version__)"; } > $OUT/machine.txt 2>&1
timeout 100 python3 bench/results/s67/ln_backward.py --shapes 32x197x192,32x197x768 \
  --variants inductor,default,late,nodep,spread1,spread1+late > $OUT/ln.txt 2>&1
echo "ln rc $? at $(( $(date +%s) - start )) s" >> $OUT/machine.txt
timeout $(( 585 - $(date +%s) + start )) python3 scripts/gpu_models.py --out $OUT/tr --train --both-orders \
  --models t5,swin,whisper,bart --budget-s 330 > $OUT/tr.log 2>&1
echo "tr rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/machine.txt
grep "^{" $OUT/tr.log > $OUT/tr_rows.txt; grep -v "^W12\|^I12\|^V12" $OUT/tr.log | tail -n 20 > $OUT/tr_tail.txt; rm -f $OUT/tr.log
cat $OUT/machine.txt; grep "us a call" $OUT/ln.txt | cut -c1-330; cat $OUT/tr/*.md
