# session 57, call 6 (one H200): what kiln's BART fp32 training step holds between steps (s57_memory_held.py).
export PYTHONPATH=.
mkdir -p $OUT/c6
timeout 150 python3 bench/results/s57/s57_memory_held.py $OUT/c6/memory_held_bart.json bart 2>&1 | grep "^{\|Error" | cut -c1-500
