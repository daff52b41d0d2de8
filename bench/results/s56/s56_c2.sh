# session 56, call 2 (one H200, 16 cores): which attention ops the decoder models reach a backend with on this
# machine's transformers (s56_attention_ops.py); then issue 23's GPU rows for fp32 training steps, cold and warm,
# aot_eager / Inductor / kiln, one process per (model, backend, phase), the four training models.
export PYTHONPATH=.
mkdir -p $OUT/c2
start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used --format=csv; nproc; uptime; git log -1 --format=%h
  python3 -c "import sys, torch, triton, transformers; print(sys.version.split()[0], torch.__version__, triton.__version__, torch.version.cuda, transformers.__version__)"; } > $OUT/c2/machine.txt 2>&1
for m in gpt2 llama bart whisper; do timeout 60 python3 bench/results/s56/s56_attention_ops.py $m 2>&1 | grep -v "Warn\|warn" | sort | uniq -c | head -12; done > $OUT/c2/attention_ops.txt
timeout 60 python3 bench/results/s56/s56_attention_ops.py bart --train 2>&1 | grep -v "Warn\|warn" | sort | uniq -c | head -12 >> $OUT/c2/attention_ops.txt
echo "probe done at $(( $(date +%s) - start )) s" >> $OUT/c2/machine.txt
left=$(( 575 - ($(date +%s) - start) ))
timeout $left python3 scripts/gpu_compile_time.py --out /tmp/ct --train --models bert,resnet,deit,efficientnet --budget-s $(( left - 150 )) --timeout 150 > /tmp/ct.log 2>&1
cp /tmp/ct/compile_time.* $OUT/c2/
echo "done at $(( $(date +%s) - start )) s; $(uptime)" | tee -a $OUT/c2/machine.txt
cat $OUT/c2/attention_ops.txt | cut -c1-250
grep "^|" /tmp/ct.log | cut -c1-400
tail -n 3 /tmp/ct.log | cut -c1-300
