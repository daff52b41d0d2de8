#!/bin/bash
# session 39: cProfile of kiln's cold compile of MODEL's first step on the GPU (fresh caches), saved as
# $OUT/prof_MODEL.prof with its text tables; prints the kiln-side functions above 0.05 s cumulative.
#   s39_prof.sh MODEL [--train]
mkdir -p $OUT /tmp/p39 && d=$(mktemp -d -p /tmp/p39)
KILN_CACHE_DIR=$d/k TORCHINDUCTOR_CACHE_DIR=$d/i TRITON_CACHE_DIR=$d/t PYTHONPATH=. timeout 120 \
  python3 bench/results/s37/s37_prof.py $1 $OUT/prof_$1.prof $2 > $OUT/prof_$1.txt 2>&1
grep "first step" $OUT/prof_$1.txt | cut -c1-700
python3 - $OUT/prof_$1.prof <<'PY'
import pstats, sys
s = pstats.Stats(sys.argv[1]); s.sort_stats("cumulative")
for (f, l, n), (cc, nc, tt, ct, callers) in sorted(s.stats.items(), key=lambda x: -x[1][3]):
    if ct > 0.05 and ("kiln" in f or "aot_autograd" in f or "_functorch" in f or n in ("aot_module_simplified",)):
        print(f"{ct:7.3f} {tt:7.3f} {nc:7d} {f.split('site-packages/')[-1].replace('/work/main/', '')}:{l}({n})")
PY
