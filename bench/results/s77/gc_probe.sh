# session 77 (issue 23): warm CPU starts, kiln and Inductor alternating, the collector on (its passes over the
# timed first call recorded) and off: bash bench/results/s77/gc_probe.sh MODEL ROUNDS > LOG (from the repository root)
M=$1; TMPDIR=${TMPDIR:-/tmp}
D=$(mktemp -d); export PYTHONPATH=.:${EXTRA_PATH}
for be in kiln inductor; do
  KILN_CACHE_DIR=$D/$be/k TORCHINDUCTOR_CACHE_DIR=$D/$be/i TRITON_CACHE_DIR=$D/$be/t PROBE_OUT=$TMPDIR/x.json python3 bench/results/s77/gc_probe.py $M $be > /dev/null 2>&1
done
for i in $(seq $2); do for off in "" 1; do for be in kiln inductor; do
  GC_OFF=$off KILN_CACHE_DIR=$D/$be/k TORCHINDUCTOR_CACHE_DIR=$D/$be/i TRITON_CACHE_DIR=$D/$be/t PROBE_OUT=$TMPDIR/r.json python3 bench/results/s77/gc_probe.py $M $be > /dev/null 2>&1
  echo "$M $be gc_off=${off:-0} $(cat $TMPDIR/r.json)"
done; done; done
