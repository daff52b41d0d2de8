# s99 c3 (the same H100): max-autotune rows never measured, bf16 inference (Inductor's tuning left time for RegNet alone)
MODELS=regnet,efficientnet,timm_efficientnet MODE="" LIMIT=400 BUDGET=200 bash bench/results/s98/ma_rows.sh
