bash bench/results/s100/check1.sh   # HEAD 2d74516
