#!/usr/bin/env bash
# kiln's test command: installs what the tests need, then runs the suite twice —
# through the C++/OpenMP backend, and through the Triton backend under the Triton interpreter.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install -q torch==2.13.0
python3 -m pip install -q -e ".[test]"
if ! command -v chromium >/dev/null 2>&1; then
    (apt-get update -qq && apt-get install -y -qq chromium >/dev/null) || echo "chromium not installed: the report rendering test is skipped"
fi
export KILN_FORBID_INDUCTOR=1          # every kiln test runs with Inductor's compile_fx patched to raise
# The two passes run at once: each is bound by one Python process (a pass's user + system time is its wall time),
# and the machine has two cores. The Triton pass's kernels run in the interpreter, so it takes one OpenMP thread
# and leaves the other core to the C++ pass's kernels. Its output follows the C++ pass's.
interpreted_log=$(mktemp)
TRITON_INTERPRET=1 KILN_TARGET=triton OMP_NUM_THREADS=1 python3 -m pytest -q -p no:cacheprovider --durations=80 --durations-min=3 \
    tests/test_ops.py tests/test_models.py tests/test_fusion.py tests/test_dynamic.py tests/test_distributed.py \
    tests/test_optimizers.py tests/test_autotune.py tests/test_index_bounds.py tests/test_extern_layouts.py \
    tests/test_numerics.py tests/test_real_models.py \
    tests/test_compile_time.py::test_an_inference_batch_norm_reaches_kiln_whole_and_computes_as_its_decomposition \
    > "$interpreted_log" 2>&1 &
interpreted=$!
status=0
python3 -m pytest -q --durations=80 --durations-min=3 tests || status=$?
wait "$interpreted" || status=$?
echo "--- the correctness suite again, through Triton kernels on the CPU (TRITON_INTERPRET=1)"
cat "$interpreted_log"
rm -f "$interpreted_log"
exit "$status"
