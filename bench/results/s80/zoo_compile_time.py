"""Cold compile time (fresh kiln, Inductor and Triton caches) of models outside the suite, from the session-79
zoo (bench/results/s79/zoo/zoo_check.py builds them), one process per model, backend and round, rounds
alternating the backends; the suite's own table comes from scripts/gpu_compile_time.py. Session 80:
    PYTHONPATH=.:/tmp/timmlib python3 bench/results/s80/zoo_compile_time.py --models mobilevit,levit --modes infer,train
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BACKENDS = ("aot_eager", "inductor", "kiln")


def child(a):
    import torch
    sys.path.insert(0, os.path.join(HERE, "..", "s79", "zoo"))
    import zoo_check as z
    from kiln.tools.bench import _compile, _compile_time, _make_step, _own_recompile_budget
    from torch._dynamo.utils import compilation_time_metrics
    tiny = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.ReLU())
    _compile(tiny, a.backend)(torch.ones(2, 3))   # (imports and worker pools, outside the timed compile)
    torch._dynamo.reset()
    compilation_time_metrics.clear()
    train = a.mode == "train"
    module = z.build(a.model, train)
    inputs = z.make_inputs(a.model, z.SPECS[a.model]["base"])
    _own_recompile_budget(0)
    step = _make_step(_compile(module, a.backend), inputs, train)
    _, seconds = _compile_time(step, "cpu")
    print("ROW " + json.dumps({"compile_s": seconds, "backend_s": sum(
        compilation_time_metrics.get("OutputGraph.call_user_compiler", []))}))


def run(model, mode, backend, timeout):
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, KILN_CACHE_DIR=f"{d}/kiln", TORCHINDUCTOR_CACHE_DIR=f"{d}/inductor",
                   TRITON_CACHE_DIR=f"{d}/triton")
        cmd = [sys.executable, __file__, "--child", "--model", model, "--mode", mode, "--backend", backend]
        try:
            out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return {"error": "timeout"}
    rows = [line[4:] for line in out.stdout.splitlines() if line.startswith("ROW ")]
    return json.loads(rows[-1]) if rows else {"error": (out.stderr.strip().splitlines() or ["?"])[-1][:300]}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--child", action="store_true")
    p.add_argument("--model")
    p.add_argument("--models")
    p.add_argument("--mode", default="infer")
    p.add_argument("--modes", default="infer")
    p.add_argument("--backend")
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--timeout", type=int, default=600)
    a = p.parse_args()
    if a.child:
        return child(a)
    for model in a.models.split(","):
        for mode in a.modes.split(","):
            runs = {b: [] for b in BACKENDS}
            for _ in range(a.rounds):
                for b in BACKENDS:
                    runs[b].append(run(model, mode, b, a.timeout))
            med = {b: statistics.median([r["compile_s"] for r in rs if "compile_s" in r] or [float("nan")])
                   for b, rs in runs.items()}
            over = (med["kiln"] - med["aot_eager"]) / max(med["inductor"] - med["aot_eager"], 1e-9)
            print(f"{model:12s} {mode:5s} cold s: aot_eager {med['aot_eager']:.1f}  inductor {med['inductor']:.1f}  "
                  f"kiln {med['kiln']:.1f}  kiln's overhead / Inductor's {over:.2f}  "
                  f"errors {[r['error'] for rs in runs.values() for r in rs if 'error' in r]}", flush=True)
            print("JSON " + json.dumps({"model": model, "mode": mode, "runs": runs}), flush=True)


if __name__ == "__main__":
    main()
