# session 55, call 3 (nvidia-h200-x2): issue 19's max-autotune rows not yet measured, kiln and Inductor both in
# max-autotune, one process per GPU. GPU 0 (cores 0-15): bf16 inference of RoBERTa, ALBERT, T5 and DeBERTa-v2;
# GPU 1 (cores 16-31): AMP-bf16 training of GPT-2, BERT and ViT. No model starts after 420 s.
export PYTHONPATH=.
mkdir -p $OUT/c3/a $OUT/c3/b
start=$(date +%s)
(CUDA_VISIBLE_DEVICES=0 taskset -c 0-15 timeout 570 python3 scripts/gpu_models.py --out /tmp/m0 --backends inductor@max-autotune,kiln@max-autotune --models roberta,albert,t5,deberta_v2 --budget-s 420 > /tmp/m0.log 2>&1; cp /tmp/m0/*.json /tmp/m0/*.md $OUT/c3/a/) &
(CUDA_VISIBLE_DEVICES=1 taskset -c 16-31 timeout 570 python3 scripts/gpu_models.py --out /tmp/m1 --train --amp --backends inductor@max-autotune,kiln@max-autotune --models gpt2,bert,vit --budget-s 420 > /tmp/m1.log 2>&1; cp /tmp/m1/*.json /tmp/m1/*.md $OUT/c3/b/) &
wait
echo "done at $(( $(date +%s) - start )) s"
cat $OUT/c3/a/*.md $OUT/c3/b/*.md | cut -c1-400
grep -v "^W11\|^I11\|^V11" /tmp/m0.log | tail -n 4 | cut -c1-300
grep -v "^W11\|^I11\|^V11" /tmp/m1.log | tail -n 4 | cut -c1-300
