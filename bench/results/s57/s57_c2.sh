# session 57, call 2 (one H200): programmatic dependent launch (the working tree's change, applied from pdl.patch
# while CI ran on the local checkout). Its tests that need the CUDA driver or a GPU, the CUDA checks
# (gpu_check.py), then the tiny-op graph and suite rows with dependent launch on and off beside Inductor.
# (pdl.patch was the change to kiln/ and tests/ of the commit that adds this script: not stored apart)
export PYTHONPATH=.
patch -p1 < bench/results/s57/pdl.patch > /dev/null || exit 1
mkdir -p $OUT/c2
start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; nproc; uptime; python3 -c "import torch, triton; print(torch.__version__, torch.version.cuda, triton.__version__)"; } > $OUT/c2/machine.txt 2>&1
timeout 150 python3 -m pytest -q -p no:cacheprovider tests/test_cuda_launch.py tests/test_compile_time.py::test_a_warm_start_on_a_gpu_launches_the_stored_binaries "tests/test_gpu_codegen.py::test_kernels_on_a_hopper_gpu_launch_as_programmatic_dependents" > $OUT/c2/pytest.log 2>&1
tail -n 3 $OUT/c2/pytest.log
echo "tests done at $(( $(date +%s) - start )) s" >> $OUT/c2/machine.txt
timeout 200 python3 scripts/gpu_check.py --out /tmp/chk --skip-bench > $OUT/c2/gpu_check.log 2>&1
grep -c "^PASS" $OUT/c2/gpu_check.log; grep -v "^PASS" $OUT/c2/gpu_check.log | head -n 8 | cut -c1-300
echo "checks done at $(( $(date +%s) - start )) s" >> $OUT/c2/machine.txt
left=$(( 540 - ($(date +%s) - start) ))
timeout $left python3 bench/results/s57/s57_pdl_check.py $OUT/c2 gpt2,resnet,bert,efficientnet --budget-s $(( left - 120 )) 2>&1 | grep "^{" | cut -c1-900
echo "done at $(( $(date +%s) - start )) s; $(uptime)" | tee -a $OUT/c2/machine.txt
