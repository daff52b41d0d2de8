#!/bin/bash
# session 66, call 4 (one H200): DeiT's AMP training step, kiln default against kiln max-autotune without CUDA graphs
# (GPU time per kernel); then kiln reduce-overhead against kiln max-autotune with the host's Python functions.
export PYTHONPATH=.
timeout 400 python3 scripts/gpu_profile.py deit --train --amp --backends kiln,kiln@max-autotune-no-cudagraphs --top 30 > $OUT/prof.txt 2>&1
timeout 270 python3 scripts/gpu_profile.py deit --train --amp --backends kiln@reduce-overhead,kiln@max-autotune --top 3 --host > $OUT/prof_host.txt 2>&1
