#!/bin/bash
# session 66, call 5 (one H200): DeiT's AMP training step, Inductor reduce-overhead against kiln reduce-overhead in
# one process, alternating rounds.
export PYTHONPATH=.
timeout 230 python3 scripts/gpu_models.py --out $OUT/ro --train --amp --backends inductor@reduce-overhead,kiln@reduce-overhead --models deit --budget-s 30 > $OUT/ro.log 2>&1
