# session 50, call 5 (nvidia-h200): where GPT-2's bf16 inference differs between kiln and Inductor, both in
# max-autotune without CUDA graphs (GPU kernels, library calls by operand shapes)
export PYTHONPATH=.
mkdir -p $OUT/c5
KILN_LOGS=autotune timeout 400 python3 scripts/gpu_profile.py gpt2 --dtype bfloat16 --gemms --top 24 --backends inductor@max-autotune-no-cudagraphs,kiln@max-autotune-no-cudagraphs > $OUT/c5/gpt2_profile.txt 2>&1
grep -v "^E1130\|^W1130\|^  \|AUTOTUNE\|^strides\|^dtypes\|Autotune Choices\|^{" $OUT/c5/gpt2_profile.txt | tail -n 120
