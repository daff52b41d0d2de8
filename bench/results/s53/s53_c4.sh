# session 53, call 4 (nvidia-h200): kiln's first call, cold and warm, beyond its backend's compile (issue 23):
# DeBERTa-v2 (the suite's worst cold row) and ViT (a warm row above Inductor's), under cProfile
export PYTHONPATH=.
mkdir -p $OUT/c4
for m in deberta_v2 vit; do timeout 280 python3 bench/results/s53/s53_first_call.py $m $OUT/c4/$m > /dev/null 2>&1; done
for f in $OUT/c4/*.txt; do head -n 4 $f | cut -c1-600; done
