# session 52, call 1 (nvidia-h200-x2): GPU 0: products with misaligned output rows in each form (s52_head_tiles.py);
# GPU 1: CUDA graphs handing out outputs at the session's code (every replayed step against eager)
export PYTHONPATH=.
mkdir -p $OUT/c1
(CUDA_VISIBLE_DEVICES=0 timeout 400 python3 bench/results/s52/s52_head_tiles.py $OUT/c1/head_tiles.json > $OUT/c1/head_tiles.log 2>&1) &
(CUDA_VISIBLE_DEVICES=1 timeout 400 python3 bench/results/s51/s51_graph_handout.py $OUT/c1/handout.json > $OUT/c1/handout.log 2>&1) &
wait
tail -n 3 $OUT/c1/head_tiles.log | cut -c1-300
grep -v "^W1130\|^W1201" $OUT/c1/handout.log | tail -n 20 | cut -c1-300
