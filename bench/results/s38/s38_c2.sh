#!/bin/bash
# session 38 call 2: the build budget now shrinks transposing tiles too (Llama's RoPE kernel): its sm_90 build
# time; Llama's compile time cold/warm; bf16 inference speed of Llama and ResNet-18 against Inductor, with the
# budget (new) and without it (old: BUILD_BUDGET_MS unbounded), one gpu_models process each
mkdir -p $OUT
nvidia-smi --query-gpu=name --format=csv,noheader > $OUT/machine.txt; uptime >> $OUT/machine.txt
PYTHONPATH=. timeout 100 python3 scripts/gpu_kernel_build_times.py llama /tmp/kt_llama > $OUT/kt_llama.txt 2>&1
grep -v Warning $OUT/kt_llama.txt | head -4; head -1 /tmp/kt_llama/kernel_cat_cos*.py
PYTHONPATH=. timeout 150 python3 scripts/gpu_compile_time.py --out $OUT/ct --models llama > $OUT/ct.log 2>&1
cat $OUT/ct/compile_time.md
for v in new old; do
  budget=$([ $v = old ] && echo 1e9 || echo 0)
  PYTHONPATH=. timeout 170 python3 -c "
import sys, runpy
import kiln.codegen.triton as t
if $budget: t.BUILD_BUDGET_MS = $budget
sys.argv = ['gpu_models.py', '--out', '$OUT/speed_$v', '--models', 'llama,resnet', '--budget-s', '150']
runpy.run_path('scripts/gpu_models.py', run_name='__main__')" > $OUT/speed_$v.log 2>&1
  python3 - $OUT/speed_$v <<'PY'
import json, sys, glob
for p in glob.glob(sys.argv[1] + "/models_*.json"):
    for r in json.load(open(p))["rows"]:
        print(sys.argv[1][-9:], r["model"], "ind", r.get("inductor_ms"), "kiln", r.get("kiln_ms"), "k/i", r.get("kiln_vs_inductor"), r.get("kiln_accuracy"), r.get("error"))
PY
done
uptime >> $OUT/machine.txt
