#!/bin/bash
# s99, for the next session (one GPU): Whisper's AMP-training step, kiln default against kiln reduce-overhead (expanded
# inputs copied, the budget fix), one process, alternating rounds; the CUDA-graph log lines counted, and Dynamo's
# graph breaks (19 graphs on the GPU against 2 on the CPU: bench/results/s99/whisper_frames_cpu.py)
export PYTHONPATH=. PYTHONUNBUFFERED=1
KILN_LOGS=all TORCH_LOGS=graph_breaks timeout 300 python3 scripts/gpu_models.py --out $OUT/w --train --amp \
  --backends kiln,kiln@reduce-overhead --models whisper --budget-s 60 > /tmp/w.log 2>&1; echo rc $?
grep "cudagraphs\|CUDA graph" /tmp/w.log | sed 's/^.*kiln: //' > $OUT/cg_lines.txt
grep -A3 "Graph break" /tmp/w.log | head -80 > $OUT/graph_breaks.txt; grep -c "Graph break" /tmp/w.log
sed 's/([0-9]* recordings side by side)//' $OUT/cg_lines.txt | sort | uniq -c | sort -rn | head -30
grep "^{" /tmp/w.log | cut -c1-1500
