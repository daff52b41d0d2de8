#!/bin/bash
# session 63, call 1 (one H200): which compiler's max-autotune EfficientNet (bf16 inference) made an illegal memory
# access in session 62's timing rounds (both compilers in one process). Each compiler alone, in its own process:
# kiln first (short); if kiln's crashes alone, again without CUDA graphs and with CUDA_LAUNCH_BLOCKING=1 to name
# the kernel; else Inductor's alone.
export PYTHONPATH=.
R=$OUT; mkdir -p $R; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; git log -1 --format=%h
  python3 -c "import sys, torch, triton; print(sys.version.split()[0], torch.__version__, triton.__version__, torch.version.cuda)"; } > $R/machine.txt 2>&1
step() {   # name, backend, extra env
  local name=$1 backend=$2; shift 2
  env "$@" timeout ${T:-200} python3 scripts/gpu_models.py --out /tmp/$name --backends $backend --models efficientnet > /tmp/$name.log 2>&1
  local rc=$?
  echo "$name ($backend $*): rc $rc at $(( $(date +%s) - start )) s" >> $R/machine.txt
  grep "^{" /tmp/$name.log | cut -c1-1500 > $R/$name.rows
  grep -v "^W12\|^I12\|^V12\|num_choices" /tmp/$name.log | grep -i -B2 -A12 "illegal\|Error" | head -60 > $R/$name.err
  return $rc
}
KILN_TRACE=/tmp/trace step kiln_mt kiln@max-autotune
if grep -q "illegal\|error" $R/kiln_mt.rows $R/kiln_mt.err 2>/dev/null || [ ! -s $R/kiln_mt.rows ]; then
  step kiln_mtnocg kiln@max-autotune-no-cudagraphs CUDA_LAUNCH_BLOCKING=1
  step kiln_default kiln CUDA_LAUNCH_BLOCKING=1
  (cd /tmp && tar czf $R/trace.tgz trace 2>/dev/null)
else
  T=430 step inductor_mt inductor@max-autotune
fi
cat $R/machine.txt; for f in $R/*.rows; do echo "== $f"; cat $f; done; for f in $R/*.err; do echo "== $f"; head -40 $f; done
