#!/bin/bash
# session 34 call 6: the reviewed build workers (run by path through runpy, refusing another cache environment,
# only generated top-level kernels): where ResNet's cold build goes; kiln cold and warm on ResNet-18 and GPT-2
mkdir -p $OUT
PYTHONPATH=. timeout 120 python3 .devrun/s34_buildtimes.py resnet > $OUT/buildtimes_resnet.json 2> $OUT/buildtimes.err
rm -rf $OUT/kernels
PYTHONPATH=. timeout $((585 - SECONDS)) python3 scripts/gpu_compile_time.py --out $OUT/kiln --models resnet,gpt2 --backends kiln --budget-s 300 > $OUT/kiln.log 2>&1
tail -n 6 $OUT/kiln.log
python3 - <<'PY'
import json, os
d = json.load(open(os.environ["OUT"] + "/buildtimes_resnet.json"))
print({k: round(v, 2) for k, v in d["stats"].items() if k.startswith("seconds")})
w = [e for e in d["events"] if e[0] == "worker"]
print(len(w), "worker jobs, longest", max((e[2] - e[1], e[3]) for e in w) if w else None)
PY
