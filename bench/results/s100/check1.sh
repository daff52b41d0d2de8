#!/bin/bash
# s100, one GPU call: Whisper's and BART's AMP-training step, kiln default against kiln reduce-overhead (s99's fixes:
# expanded inputs copied by their distinct elements, the per-shape budget fixed), one process each, alternating
# rounds; the CUDA-graph log lines counted, and Dynamo's graph breaks
export PYTHONPATH=. PYTHONUNBUFFERED=1
for m in whisper bart; do
  KILN_LOGS=all TORCH_LOGS=graph_breaks timeout 270 python3 scripts/gpu_models.py --out $OUT/$m --train --amp \
    --backends kiln,kiln@reduce-overhead --models $m --budget-s 60 > $OUT/$m.log 2>&1; echo $m rc $?
  grep "cudagraphs\|CUDA graph" $OUT/$m.log | sed 's/^.*kiln: //' > $OUT/${m}_cg_lines.txt
  echo "graph breaks: $(grep -c 'Graph break' $OUT/$m.log)"
  sed 's/([0-9]* recordings side by side)//' $OUT/${m}_cg_lines.txt | sort | uniq -c | sort -rn | head -12
  grep "^{" $OUT/$m.log | cut -c1-1500
done
