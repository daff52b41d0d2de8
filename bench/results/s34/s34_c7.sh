#!/bin/bash
# session 34 call 7: loads in bounds for every lane drop their masked region's mask, and what they compute is
# shared by the regions (issue 23, 16): ResNet's stem kernel build; the three backends' compile time on ResNet-18;
# bf16 inference of HF and timm ResNet-18 against Inductor (accuracy and speed)
mkdir -p $OUT
PYTHONPATH=. timeout 120 python3 .devrun/s34_buildtimes.py resnet > $OUT/buildtimes_resnet.json 2> $OUT/buildtimes.err
rm -rf $OUT/kernels
python3 - <<'PY'
import json, os
d = json.load(open(os.environ["OUT"] + "/buildtimes_resnet.json"))
w = sorted(((e[2] - e[1], e[3]) for e in d["events"] if e[0] == "worker"), reverse=True)
print("build", round(d["stats"]["seconds_build"], 2), "slowest jobs", [(round(t, 2), n[-30:]) for t, n in w[:3]])
PY
PYTHONPATH=. timeout 240 python3 scripts/gpu_compile_time.py --out $OUT/ct --models resnet --budget-s 200 > $OUT/ct.log 2>&1
tail -n 5 $OUT/ct.log
PYTHONPATH=. timeout $((585 - SECONDS)) python3 scripts/gpu_models.py --out $OUT/inf --models resnet,timm_resnet --budget-s $((560 - SECONDS)) > $OUT/inf.log 2>&1
python3 - <<'PY'
import json, os, glob
for p in glob.glob(os.environ["OUT"] + "/inf/models_*.json"):
    for r in json.load(open(p))["rows"]:
        print(r["model"], r.get("mode"), "ind", r.get("inductor_ms"), "kiln", r.get("kiln_ms"), "k/i", r.get("kiln_vs_inductor"), r.get("kiln_accuracy"), r.get("inductor_accuracy"), r.get("error"))
PY
