# session 77: every C++ kernel of the suite's CPU graphs (quick; inference and a training step) with its one-shot time
# (trace_profile) and whether it declares a condition before its vectorized loop; run before and after the change:
#   PYTHONPATH=.:$TIMMLIB python3 bench/results/s77/maxpool/attr_scan.py OUT.json resnet timm_resnet mobilenet_v2 bert gpt2
# which kernels of the suite's CPU graphs (quick, inference and training) carry the no-threading attribute, and
# their one-shot times: python3 attr_scan.py OUT.json MODELS...
import torch, kiln, copy, sys, glob, os, json, shutil, re
from kiln.tools.workloads import workload
res = {}
for name in sys.argv[2:]:
    for train in (False, True):
        d = f"/tmp/w77/scan/{name}_{train}"
        shutil.rmtree(d, ignore_errors=True)
        w = workload(name)
        m = w.make_module("cpu", torch.float32, "quick", train); x = w.make_inputs("cpu", torch.float32, "quick")
        torch._dynamo.reset()
        f = kiln.compile(m, options={"trace": d, "trace_profile": True})
        try:
            if train:
                f(*x).backward() if f(*x).dim() == 0 else f(*x).sum().backward()
            else:
                with torch.no_grad(): f(*x)
        except Exception as e:
            print(name, train, "failed", e); continue
        for kj in glob.glob(f"{d}/*/kernels.json"):
            g = os.path.basename(os.path.dirname(kj))
            for k in json.load(open(kj)):
                if k["kind"] != "kernel": continue
                src = open(os.path.join(os.path.dirname(kj), k["file"])).read()
                key = re.sub(r"_[0-9a-f]{10}\b", "", src.split("\n", 1)[1]).replace('__attribute__((optimize("no-tree-pre", "no-tree-dominator-opts"))) ', "")
                res[f"{name}|{train}|{g}|{k['name']}"] = [k["time_us"], "optimize(" in src or bool(re.search(r"^\s+bool tmp\d+ = ", src.split("#pragma omp simd")[0], re.M)), key[:0]]
    print(name, flush=True)
json.dump(res, open(sys.argv[1], "w"))
