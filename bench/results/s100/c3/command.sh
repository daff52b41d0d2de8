MODELS=mistral MODE="--train --amp" LIMIT=585 BUDGET=250 bash bench/results/s98/ma_rows.sh   # HEAD 2d74516
