"""Peak CUDA memory of eager, Inductor and kiln on real models, and what each holds at its peak.

    PYTHONPATH=. python3 scripts/gpu_memory.py --out DIR [--models vit_base,deit_tiny,...] [--train]

--models takes the timm short names below or any model of the suite (vit, bert, bart, ...).

Peak memory is max_memory_allocated during one step, above what was allocated before it (the inputs and
parameters). For each backend, the CUDA allocator's history is replayed to the peak, and the blocks live there
are listed by size with the line that allocated them (kiln's wrapper, Inductor's output code, or else the
model's own line), beside the allocation that reached the peak. kiln's wrappers are saved with the results.
"""
import argparse
import json
import linecache
import os
import sys
import time

import torch

import kiln

# timm names (the rows), built with random weights: nothing is downloaded
MODELS = {"vit_base": "vit_base_patch16_224", "deit_tiny": "deit_tiny_patch16_224", "convnext_atto": "convnext_atto",
          "regnetx_002": "regnetx_002", "resnet18": "resnet18"}


def build(name, train):
    """A timm model by the short names above, else any model of the suite (kiln.tools.models) at full size."""
    if name not in MODELS:
        from kiln.tools.workloads import workload
        w, dtype = workload(name), torch.float32 if train else torch.bfloat16
        model = w.make_module("cuda", dtype, "gpu")   # Logits: the inputs passed by their names, logits out
        return model.train(train), w.make_inputs("cuda", dtype, "gpu")
    import timm
    model = timm.create_model(MODELS[name], pretrained=False).cuda()
    x = torch.randn(32, 3, 224, 224, device="cuda")
    if train:
        return model.train(), [x]
    return model.eval().to(torch.bfloat16), [x.to(torch.bfloat16)]


def logits(out):
    return out if isinstance(out, torch.Tensor) else out.logits


def step_fn(f, inputs, train, marks=None):
    """One step; with marks, the memory held after the forward (saved activations and the output) is noted."""
    def step():
        if train:
            loss = logits(f(*inputs)).float().sum()
            if marks is not None:
                torch.cuda.synchronize()
                marks.append(torch.cuda.memory_allocated())
            loss.backward()
        else:
            with torch.no_grad():
                f(*inputs)
    return step


def peak_mib(step, marks):
    """(peak, held after the forward) in MiB above what was allocated before the step."""
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    base = torch.cuda.memory_allocated()
    marks.clear()
    step()
    torch.cuda.synchronize()
    after_forward = (marks[0] - base) / 2 ** 20 if marks else None
    return (torch.cuda.max_memory_allocated() - base) / 2 ** 20, after_forward


def live_at_peak(step):
    """The blocks live at the step's peak: [(MiB, where it was allocated)], largest first."""
    torch.cuda.memory._record_memory_history(max_entries=200000)
    step()
    torch.cuda.synchronize()
    snap = torch.cuda.memory._snapshot()
    torch.cuda.memory._record_memory_history(enabled=None)
    events = [e for trace in snap["device_traces"] for e in trace]
    live, total, best, best_live, peak_event = {}, 0, -1, {}, None
    for e in events:
        if e["action"] == "alloc":
            live[e["addr"]] = e
            total += e["size"]
        elif e["action"] in ("free_requested",) and e["addr"] in live:
            total -= live.pop(e["addr"])["size"]
        if total > best:
            best, best_live, peak_event = total, dict(live), e

    def where(e):
        frames = e.get("frames") or []
        for f in frames:   # a compiler's generated code: kiln's wrapper, Inductor's output code
            if "kiln wrapper" in f["filename"] or "torchinductor" in f["filename"]:
                line = linecache.getline(f["filename"], f["line"]).strip()
                return f"{os.path.basename(f['filename'])}:{f['line']} {line}"
        for f in frames:   # eager's: the model's own line
            if "/torch/" not in f["filename"] and "python3." not in f["filename"]:
                return f"{f['filename'].split('site-packages/')[-1]}:{f['line']} {f['name']}"
        return frames[0]["filename"] + ":" + str(frames[0]["line"]) if frames else "?"
    rows = sorted(((e["size"] / 2 ** 20, where(e)) for e in best_live.values()), reverse=True)
    return best / 2 ** 20, rows[:25], where(peak_event) if peak_event else "?"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", required=True)
    p.add_argument("--models", default=",".join(MODELS))
    p.add_argument("--train", action="store_true")
    p.add_argument("--budget-s", type=float, default=500)
    a = p.parse_args()
    os.makedirs(a.out, exist_ok=True)
    start = time.time()
    results = []
    for name in a.models.split(","):
        if time.time() - start > a.budget_s:
            print(f"budget spent: {name} and later models not run")
            break
        row = {"model": name, "train": a.train}
        try:
            torch._dynamo.reset()
            model, inputs = build(name, a.train)
            trace = f"/tmp/kiln_memory_trace_{name}"   # (the wrappers are copied into the results)
            for backend in ("eager", "inductor", "kiln"):
                torch._dynamo.reset()
                f = model if backend == "eager" else torch.compile(model, backend="inductor") \
                    if backend == "inductor" else kiln.compile(model, options={"trace": trace})
                marks = []
                step = step_fn(f, inputs, a.train, marks)
                step()
                step()
                model.zero_grad(set_to_none=True)
                peak, after_forward = peak_mib(step, marks)
                row[backend] = round(peak, 1)
                if after_forward is not None:
                    row[f"{backend}_after_forward"] = round(after_forward, 1)
                model.zero_grad(set_to_none=True)
                row[f"{backend}_replayed_peak"], row[f"{backend}_live"], row[f"{backend}_peak_at"] = \
                    live_at_peak(step)
                model.zero_grad(set_to_none=True)
                del f, step
                torch.cuda.empty_cache()   # (this process shares the GPU with others)
            row["wrappers"] = {d: open(os.path.join(trace, d, "wrapper.py")).read()
                               for d in sorted(os.listdir(trace)) if os.path.exists(os.path.join(trace, d, "wrapper.py"))}
        except Exception as e:   # one model's failure is a row
            row["error"] = f"{type(e).__name__}: {str(e)[:300]}"
        results.append(row)
        print(json.dumps({k: v for k, v in row.items() if not k.endswith("_live") and k != "wrappers"}), flush=True)
        for backend in ("eager", "inductor", "kiln"):
            print(f"  {backend} peak reached at {row.get(f'{backend}_peak_at')}")
            for mib, where in row.get(f"{backend}_live", [])[:8]:
                print(f"    {backend} {mib:8.1f} MiB  {where}")
        sys.stdout.flush()
        with open(os.path.join(a.out, f"memory{'_train' if a.train else ''}.json"), "w") as fh:   # after each model
            json.dump(results, fh, indent=1)


if __name__ == "__main__":
    main()
