# session 55, call 4 (nvidia-h200-x2): more of issue 19's max-autotune rows, kiln and Inductor both in max-autotune.
# GPU 0 (cores 0-15): DeBERTa-v2's bf16 inference, then DistilBERT's AMP training; GPU 1 (cores 16-31): BERT's
# AMP-bf16 training. No model starts after 330 s.
export PYTHONPATH=.
mkdir -p $OUT/c4/a $OUT/c4/b
start=$(date +%s)
(CUDA_VISIBLE_DEVICES=0 taskset -c 0-15 sh -c "timeout 250 python3 scripts/gpu_models.py --out /tmp/m0 --backends inductor@max-autotune,kiln@max-autotune --models deberta_v2 --budget-s 100 > /tmp/m0.log 2>&1; cp /tmp/m0/*.json /tmp/m0/*.md $OUT/c4/a/; timeout 280 python3 scripts/gpu_models.py --out /tmp/m2 --train --amp --backends inductor@max-autotune,kiln@max-autotune --models distilbert --budget-s 60 > /tmp/m2.log 2>&1; mkdir -p $OUT/c4/c; cp /tmp/m2/*.json $OUT/c4/c/") &
(CUDA_VISIBLE_DEVICES=1 taskset -c 16-31 timeout 540 python3 scripts/gpu_models.py --out /tmp/m1 --train --amp --backends inductor@max-autotune,kiln@max-autotune --models bert --budget-s 330 > /tmp/m1.log 2>&1; cp /tmp/m1/*.json /tmp/m1/*.md $OUT/c4/b/) &
wait
echo "done at $(( $(date +%s) - start )) s"
cat $OUT/c4/a/*.md $OUT/c4/b/*.md | cut -c1-300
grep "^{" /tmp/m0.log /tmp/m1.log /tmp/m2.log | cut -c1-600
