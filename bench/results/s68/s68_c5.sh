#!/bin/bash
# session 68, call 5 (one H200): after the review's fixes: the refcount probe read from a view's base at import
# (cuda_graphs.REFCOUNT_KEPT_ALONE), tests/test_modes.py on the GPU, timm DeiT-tiny's AMP step in reduce-overhead
# against Inductor (call 2: 1.13), and the layer norm's backward with reductions.FEW_OUTPUTS (call 4's exp/).
export PYTHONPATH=.; start=$(date +%s)
python3 -c "import torch; from kiln.runtime import cuda_graphs as c; print(torch.__version__, 'kept alone refcount', c.REFCOUNT_KEPT_ALONE)" > $OUT/machine.txt 2>&1
timeout 100 python3 -m pytest -q -x tests/test_modes.py > $OUT/test_modes.txt 2>&1
echo "tests rc $? at $(( $(date +%s) - start )) s; $(tail -1 $OUT/test_modes.txt)" >> $OUT/machine.txt
timeout 60 python3 bench/results/s67/ln_backward.py --shapes 32x197x192,32x197x384,32x197x768 --variants inductor,default > $OUT/ln.txt 2>&1
echo "ln rc $? at $(( $(date +%s) - start )) s" >> $OUT/machine.txt
timeout $(( 240 - $(date +%s) + start )) python3 scripts/gpu_models.py --out $OUT/ro --train --amp --backends inductor@reduce-overhead,kiln@reduce-overhead --models timm_deit --budget-s 20 > $OUT/ro.log 2>&1
echo "ro rc $? at $(( $(date +%s) - start )) s" >> $OUT/machine.txt
cat $OUT/machine.txt; grep "us a call" $OUT/ln.txt; grep "^{" $OUT/ro.log | cut -c1-700
