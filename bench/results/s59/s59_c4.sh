#!/bin/bash
# session 59, call 4 (one H200): after a fresh reader's review of c7b7d0e (torch frees a stream's cuBLAS workspaces
# when a graph recorded there is destroyed, pytorch#193402: made by the warm-up, outside kiln's pool, they would go
# to any tensor), the workspaces are made in the graphs' pool before the warm-up. Checks: where they live and a
# destroyed graph's effect (s59_workspace_check.py), the fresh-process memory test, gpu_modes' CUDA-graph checks,
# DistilBERT and GPT-2 at batch 1 with each of kiln / kiln reduce-overhead in a process of its own too.
export PYTHONPATH=.
R=$OUT; mkdir -p $R/ro; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; git log -1 --format=%h; git status --short | head; } > $R/machine.txt 2>&1
timeout 60 python3 bench/results/s59/s59_workspace_check.py $R/workspace.json > $R/workspace.log 2>&1; echo "workspace check rc $?" >> $R/machine.txt
T=tests/test_modes.py::test_a_process_recording_graphs_holds_no_more_cublas_workspaces_than_one_running_them
timeout 120 python3 -m pytest -q -p no:cacheprovider $T > $R/test.log 2>&1; echo "test rc $?" >> $R/machine.txt
timeout 400 python3 scripts/gpu_modes.py --out $R/ro --models distilbert,gpt2 --batches 1 --fresh-memory kiln,kiln_ro --budget-s 200 > $R/ro.log 2>&1
echo "modes rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $R/machine.txt
cat $R/machine.txt; tail -n 3 $R/test.log; tail -n 5 $R/workspace.log; grep "^{" $R/ro.log | cut -c1-2500
