#!/bin/bash
# session 67, call 6 (one H200): a layer norm's backward (AMP: bf16 gradient in, residual added) per kernel, kiln's
# variants against Inductor in one process (bench/results/s67/ln_backward.py); Inductor's kernels printed.
export PYTHONPATH=.
TORCH_LOGS=output_code timeout 400 python3 bench/results/s67/ln_backward.py > $OUT/ln.txt 2> $OUT/inductor_code.txt
echo "rc $?" >> $OUT/ln.txt; cat $OUT/ln.txt
