#!/bin/bash
# s98 c3 (one H100, right after c2): Whisper's AMP-training step in kiln's modes, one process, alternating rounds
export PYTHONPATH=. PYTHONUNBUFFERED=1; KILN_LOGS=cudagraphs,fallback timeout 480 python3 scripts/gpu_models.py --out $OUT/w --train --amp --backends kiln,kiln@reduce-overhead,kiln@max-autotune-no-cudagraphs --models whisper --budget-s 100 > $OUT/w.log 2>&1
