#!/bin/bash
# For a later session: issue 19's 16 max-autotune rows never measured (bench/NOTES.md's known gaps), both compilers
# in max-autotune. Inductor's tuning takes 200-470 s a model, so one GPU measures one row a call:
#   MODELS=t5 MODE="--train --amp" LIMIT=585 BUDGET=250 bash bench/results/s98/ma_rows.sh
# On a machine of several GPUs this script runs one model per GPU at once (scripts/gpu_models.py --jobs: compiles
# at once, each job's timing rounds alone after them): the AMP-training rows first, then the bf16 inference rows
# on the GPUs left, each group in $OUT/amp and $OUT/inf. A second call takes the rows the first did not reach:
#   SKIP=<rows done> bash bench/results/s100/next_rows.sh
export PYTHONPATH=. PYTHONUNBUFFERED=1 TIMING_LOCK=${OUT:?OUT must be set}/timing.lock   # (both groups time alone)
AMP="deberta_v2 t5 bart swin convnext resnet regnet mobilenet_v2 efficientnet timm_vit timm_regnet timm_mobilenetv3
timm_efficientnet timm_convnext"
INF="efficientnet timm_efficientnet"
gpus=$(nvidia-smi -L | wc -l)
amp=($(for m in $AMP; do [[ " $SKIP " == *" amp:$m "* ]] || echo $m; done))
inf=($(for m in $INF; do [[ " $SKIP " == *" inf:$m "* ]] || echo $m; done))
amp=("${amp[@]:0:$gpus}"); left=$(( gpus - ${#amp[@]} )); inf=("${inf[@]:0:$left}")
echo "on $gpus GPUs: AMP training ${amp[*]}; bf16 inference ${inf[*]}"
run() {   # group, mode, first GPU, models...
  local group=$1 mode=$2 first=$3; shift 3; [ $# -gt 0 ] || return
  mkdir -p $OUT/$group
  CUDA_VISIBLE_DEVICES=$(seq -s, $first $(( first + $# - 1 ))) OUT=$OUT/$group MODE="$mode" JOBS=$# \
    MODELS=$(IFS=,; echo "$*") LIMIT=${LIMIT:-585} BUDGET=60 bash bench/results/s98/ma_rows.sh > $OUT/$group.out 2>&1
}
run amp "--train --amp" 0 "${amp[@]}" & run inf "" ${#amp[@]} "${inf[@]}" & wait
cat $OUT/amp/ma_rows.txt $OUT/inf/ma_rows.txt 2>/dev/null | python3 -c "
import json, sys
for line in sys.stdin:
    r, k, i = json.loads(line), 'kiln@max-autotune', 'inductor@max-autotune'
    print(r['model'], r['mode'], round(r.get(k + '_vs_inductor', float('nan')), 3), r.get(k + '_accuracy'),
          r.get(i + '_accuracy'), round(r.get(k + '_compile_s', 0)), round(r.get(i + '_compile_s', 0)))"
