MODELS=deberta_v2 MODE="--train --amp" LIMIT=395 BUDGET=100 bash bench/results/s98/ma_rows.sh   # HEAD 2d74516; timed out in Inductor tuning
