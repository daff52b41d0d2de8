#!/bin/bash
# s98 c4 (one H100, right after c3): Whisper's AMP-training step, kiln default and reduce-overhead: top kernels, host
# time (cProfile, torch.profiler), the kiln.cudagraphs log at INFO, kiln.stats()
export PYTHONPATH=. PYTHONUNBUFFERED=1; timeout 330 python3 -c "
import logging, runpy, sys
logging.basicConfig(level=logging.WARNING)
logging.getLogger('kiln.cudagraphs').setLevel(logging.DEBUG)
sys.argv=['gpu_profile.py','whisper','--train','--amp','--host','--top','12','--backends','kiln,kiln@reduce-overhead']
runpy.run_path('scripts/gpu_profile.py', run_name='__main__')
import kiln; print('STATS', kiln.stats())
" > $OUT/p.log 2>&1
