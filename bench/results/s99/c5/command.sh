# s99 c5 (the same H100): HF EfficientNet's bf16-inference max-autotune row; Inductor's tuning ran past the limit (rc 124)
MODELS=efficientnet MODE="" LIMIT=330 BUDGET=100 bash bench/results/s98/ma_rows.sh
