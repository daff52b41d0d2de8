# session 51, call 2 (nvidia-h200-x2): GPU 0: where DistilBERT's AMP-bf16 training step differs between kiln and
# Inductor, both in max-autotune without CUDA graphs (kernels, library calls by operand shapes); GPU 1: GPT-2 AMP
# training in max-autotune, kiln against Inductor
export PYTHONPATH=.
mkdir -p $OUT/c2
(CUDA_VISIBLE_DEVICES=0 KILN_LOGS=autotune timeout 570 python3 scripts/gpu_profile.py distilbert --train --amp --gemms --top 30 --backends inductor@max-autotune-no-cudagraphs,kiln@max-autotune-no-cudagraphs > $OUT/c2/distilbert_profile.txt 2>&1) &
(CUDA_VISIBLE_DEVICES=1 KILN_LOGS=autotune timeout 570 python3 scripts/gpu_models.py --out $OUT/c2/gpu1 --models gpt2 --train --amp --backends inductor@max-autotune,kiln@max-autotune --budget-s 100 > $OUT/c2/gpu1.log 2>&1) &
wait
grep -h "vs_inductor" $OUT/c2/*.log | cut -c1-700
grep -v "^E1130\|^W1130\|^V1130\|^  \|AUTOTUNE\|^strides\|^dtypes\|Autotune Choices\|^{" $OUT/c2/distilbert_profile.txt | tail -n 150
