# session 50, call 3 (nvidia-h200): the matmul tile's forms against cuBLAS; fused products' correctness
export PYTHONPATH=.
mkdir -p $OUT/c3
timeout 200 python3 bench/results/s50/s50_tile_forms.py $OUT/c3/tile_forms.json 2>&1 | tail -n 8
KILN_CACHE_DIR=$(mktemp -d) timeout 330 python3 bench/results/s50/s50_fused_products.py $OUT/c3/fused_products.json > $OUT/c3/fused_products.log 2>&1
grep -E " ok | FAIL " $OUT/c3/fused_products.log
