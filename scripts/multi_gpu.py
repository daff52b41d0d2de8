"""DDP and FSDP2 training through kiln and through Inductor, on 1 to N GPUs (issues 21 and 22).

    torchrun --nproc-per-node N scripts/multi_gpu.py --out DIR [--models gpt2,resnet] [--wrappings ddp,fsdp2]
        [--backends inductor,kiln] [--size gpu] [--autocast bfloat16] [--steps 3] [--rounds 4] [--calls 5]
    python3 scripts/multi_gpu.py --summarize DIR     # the scaling table, from DIR/world*.json

Per model and wrapping, every rank trains the same start (its own batch: weak scaling) with SGD:
- eager runs (kiln.tools.distributed.references: in fp64, as is, and from one ulp away), then one run per
  backend, whose first step's seconds are its compile time; after `steps` steps, each backend's losses and parameters are
  checked against eager's by the suite's accuracy rule;
- with N > 1 (unless --no-solo), each backend also trains on every rank alone, over a one-rank group of its
  own (every GPU busy with a 1-GPU run at once): the 1-GPU step of weak scaling, on the same host, in the same
  process and the same rounds as the N-GPU step, so their ratio is not moved by the machine's drift between
  two launches (rounds of two launches differed by up to 30 %);
- then timed rounds alternating between eager and the backends (median of `calls` steps each, the first
  backend changing every round), with CUDA's peak memory above what the runs hold between steps.
First, a function with collectives in its graph (all-reduce, broadcast, all-gather, reduce-scatter) runs
through kiln against eager on every rank (kiln.tools.distributed.check_collectives).
Each local rank runs on its own share of the host's CPUs (kiln.tools.distributed.pin_to_share; --no-pin: on any).
Rank 0 writes DIR/world{N}.json with every rank's figures. Without CUDA, it runs on CPU processes over gloo.
NVLink multicast stays off (it can put a shared host's GPUs out of service).
"""
import argparse
import datetime
import gc
import glob
import itertools
import json
import os
import platform
import statistics
import sys

for _var, _value in (("NCCL_NVLS_ENABLE", "0"), ("TORCH_SYMM_MEM_DISABLE_MULTICAST", "1"), ("NVSHMEM_DISABLE_NVLS", "1")):
    os.environ[_var] = _value

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402

import kiln  # noqa: E402
from kiln.tools.bench import _own_recompile_budget  # noqa: E402
from kiln.tools.distributed import check_collectives, error, pin_to_share, references, train  # noqa: E402


def measure(args, name, how, device, solo=None):
    """Every backend's rows for one model and wrapping, on this rank; with `solo` (this rank's one-rank group),
    each row's solo_step_s too: the same training on this rank alone, timed in the same rounds."""
    kw = dict(device=device, size=args.size, autocast=getattr(torch, args.autocast) if args.autocast else None,
              lr=args.lr, steps=args.steps)
    refs = references(name, how, **kw)
    rows, runs = [], {"eager": refs["eager"]["run"]}
    turns = itertools.count()   # each compile of the model gets its own recompiles (bench._own_recompile_budget)
    for backend in args.backends:
        _own_recompile_budget(next(turns))
        before = dict(kiln.capture.STATS)
        row = {"model": name, "wrapping": how, "backend": backend}
        try:
            result = train(name, how, backend, **kw)
        except Exception as e:   # this backend's row says why; the others still run
            rows.append(dict(row, failure=f"{type(e).__name__}: {(str(e).splitlines() or [''])[0]}"))
            torch._dynamo.reset()
            continue
        runs[backend] = result["run"]
        row.update(error=error(result, refs), first_step_s=result["first_step_s"])
        if backend == "kiln":
            row.update({f"kiln_{k}": kiln.capture.STATS[k] - before.get(k, 0)
                        for k in ("graphs_compiled", "graphs_fallback")})
        rows.append(row)
    rows.append({"model": name, "wrapping": how, "backend": "eager", "error": None, "first_step_s": None})
    if solo is not None:
        for backend in list(runs):
            if backend != "eager":
                _own_recompile_budget(next(turns))
            runs[backend + "@1"] = train(name, how, backend, group=solo, **kw)["run"]
    times, peaks = {b: [] for b in runs}, {b: 0 for b in runs}
    cuda = torch.device(device).type == "cuda"
    for r in range(args.rounds):
        for b in list(runs) if r % 2 == 0 else list(reversed(runs)):
            if cuda:
                torch.cuda.synchronize(device)
                torch.cuda.reset_peak_memory_stats(device)
                held = torch.cuda.memory_allocated(device)
            times[b].append(statistics.median(runs[b].timed_step()[0] for _ in range(args.calls)))
            if cuda:
                peaks[b] = max(peaks[b], torch.cuda.max_memory_allocated(device) - held)
    for row in rows:
        b = row["backend"]
        if b in runs:
            row.update(step_s=statistics.median(times[b]), rounds_s=times[b], peak_bytes=peaks[b] if cuda else None)
        if b + "@1" in runs:
            row.update(solo_step_s=statistics.median(times[b + "@1"]), solo_rounds_s=times[b + "@1"])
    return rows


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True)
    p.add_argument("--models", default="gpt2,resnet")
    p.add_argument("--wrappings", default="ddp,fsdp2")
    p.add_argument("--backends", default="inductor,kiln")
    p.add_argument("--size", default=None, help="the suite's size preset (default: gpu on CUDA, tiny on the CPU)")
    p.add_argument("--autocast", default=None, help="a dtype, e.g. bfloat16 (default: bfloat16 on CUDA)")
    p.add_argument("--lr", type=float, default=None, help="SGD's (default: 1e-6 at the gpu size, else 1e-3)")
    p.add_argument("--steps", type=int, default=3)
    p.add_argument("--rounds", type=int, default=4)
    p.add_argument("--calls", type=int, default=5)
    p.add_argument("--no-pin", dest="pin", action="store_false",
                   help="leave every rank free to run on every CPU (default: each local rank on its own share)")
    p.add_argument("--no-solo", dest="solo", action="store_false",
                   help="with N > 1 ranks, leave out the one-rank runs in the same rounds")
    p.add_argument("--summarize", action="store_true", help="write DIR/summary.md from DIR/world*.json")
    args = p.parse_args(argv)
    if args.summarize:
        return summarize(args.out)
    cuda = torch.cuda.is_available()
    args.size = args.size or ("gpu" if cuda else "tiny")
    args.autocast = args.autocast or ("bfloat16" if cuda else None)
    args.lr = args.lr or (1e-6 if args.size == "gpu" else 1e-3)
    args.backends = args.backends.split(",")
    rank, world = int(os.environ.get("RANK", 0)), int(os.environ.get("WORLD_SIZE", 1))
    local = int(os.environ.get("LOCAL_RANK", 0))
    cpus = pin_to_share(local, int(os.environ.get("LOCAL_WORLD_SIZE", 1))) if args.pin else None
    device = f"cuda:{local}" if cuda else "cpu"
    if cuda:
        torch.cuda.set_device(local)
    dist.init_process_group("nccl" if cuda else "gloo", timeout=datetime.timedelta(seconds=600),
                            **({"device_id": torch.device(device)} if cuda else {}))
    meta = {"command": " ".join(sys.argv), "world": world, "date": datetime.date.today().isoformat(),
            "device": torch.cuda.get_device_name() if cuda else platform.processor(),
            "versions": {"torch": torch.__version__, "python": platform.python_version(), "cuda": torch.version.cuda,
                         "nccl": ".".join(map(str, torch.cuda.nccl.version())) if cuda else None},
            "load_average": os.getloadavg()[0], "size": args.size, "autocast": args.autocast, "lr": args.lr,
            "steps": args.steps, "rounds": args.rounds, "calls": args.calls,
            "cpus_per_rank": len(cpus) if cpus else None}
    rows = []
    solo = dist.new_subgroups(1)[0] if args.solo and world > 1 else None   # (every rank makes every group)

    def save():   # rank 0's, as it goes: a run cut short keeps what it measured
        if rank == 0:
            os.makedirs(args.out, exist_ok=True)
            with open(os.path.join(args.out, f"world{world}.json"), "w") as f:
                json.dump({"meta": meta, "rows": rows}, f, indent=1)
    try:
        found = check_collectives(device)   # collectives in a compiled graph, over NCCL (gloo without CUDA)
        gathered = [None] * world
        dist.all_gather_object(gathered, found)
        meta["collectives_in_a_graph"] = gathered
        print(f"rank {rank}: collectives in a compiled graph: {found}", flush=True)
        save()
        for name in [m for m in args.models.split(",") if m]:   # (--models "": the collectives check only)
            for how in args.wrappings.split(","):
                found = measure(args, name, how, device, solo)
                print(f"rank {rank}: {name} {how}: " + ", ".join(
                    f"{r['backend']} {r.get('step_s') or 0:.4f}s/step" for r in found), flush=True)
                gathered = [None] * world
                dist.all_gather_object(gathered, [dict(r, rank=rank) for r in found])
                rows += [r for ranks in gathered for r in ranks]
                save()
                torch._dynamo.reset()
                gc.collect()
                if cuda:
                    torch.cuda.empty_cache()
    finally:
        dist.destroy_process_group()


def summarize(out):
    """DIR/summary.md: per model, wrapping and backend, the step time at each GPU count (the slowest rank's),
    the weak-scaling efficiency (1-GPU step / N-GPU step) between launches and, where the N-rank launch timed
    one-rank runs in its rounds, within that launch (the two medians' ratio, and the median of each round's ratio);
    compile time and peak memory per rank at the most GPUs, and the accuracy check."""
    worlds = {}
    for path in sorted(glob.glob(os.path.join(out, "world*.json"))):
        with open(path) as f:
            data = json.load(f)
        worlds[data["meta"]["world"]] = data
    keyed = {}
    for world, data in worlds.items():
        for r in data["rows"]:
            keyed.setdefault((r["model"], r["wrapping"], r["backend"]), {}).setdefault(world, []).append(r)
    sizes = sorted(worlds)
    n = sizes[-1]
    head = ["model", "wrapping", "backend", *(f"step s, {k} ranks" for k in sizes), "scaling efficiency",
            f"1-GPU step s, in the {n}-rank launch", "scaling efficiency, same launch",
            "scaling efficiency, paired rounds",
            f"compile s per rank ({n} ranks)", f"peak GiB per rank ({n} ranks)", "accuracy"]
    lines = ["| " + " | ".join(head) + " |", "|---" * len(head) + "|"]
    for (model, how, backend), by_world in sorted(keyed.items()):
        steps = {k: max(r.get("step_s") or 0 for r in rs) for k, rs in by_world.items()}
        last = by_world.get(n, [])
        eff = steps[sizes[0]] / steps[n] if len(sizes) > 1 and steps.get(sizes[0]) and steps.get(n) else None
        solo = max((r.get("solo_step_s") or 0 for r in last), default=0)
        # each round's 1-GPU step over its N-GPU step (the slowest rank's each), then their median: the machine's
        # drift between rounds moves both steps of a round alike
        paired = [max(s) / max(w) for s, w in zip(zip(*(r["solo_rounds_s"] for r in last)),
                                                  zip(*(r["rounds_s"] for r in last)))] \
            if last and all(r.get("solo_rounds_s") and r.get("rounds_s") for r in last) else []
        errors = sorted({r.get("error") or r.get("failure") for rs in by_world.values() for r in rs} - {None})
        cells = [model, how, backend, *(f"{steps[k]:.4f}" if steps.get(k) else "" for k in sizes),
                 f"{eff:.2f}" if eff else "", f"{solo:.4f}" if solo else "",
                 f"{solo / steps[n]:.2f}" if solo and steps.get(n) else "",
                 f"{statistics.median(paired):.2f}" if paired else "",
                 ", ".join(f"{r['first_step_s']:.1f}" for r in last if r.get("first_step_s") is not None),
                 ", ".join(f"{r['peak_bytes'] / 2 ** 30:.2f}" for r in last if r.get("peak_bytes") is not None),
                 "; ".join(errors)[:160] if errors else "pass"]
        lines.append("| " + " | ".join(cells) + " |")
    with open(os.path.join(out, "summary.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
