"""kiln under torch.distributed: 2 CPU processes over gloo (loopback, a file store), killed if they hang.

DDP (around a compiled module, and compiled around DDP, cut at small gradient buckets into many graphs) and
FSDP2 (blocks compiled, then sharded) train two models of the suite for three SGD steps; the losses and
parameters must match eager DDP/FSDP2 by the suite's accuracy rule. A compiled function with collectives in
its graph (dist.all_reduce, all-gather, reduce-scatter) must equal eager. Each rank writes what it found to a
file, which the test reads."""
import json
import os
import re

import pytest
import torch
import torch.distributed as dist

import kiln
from conftest import StatsDelta
from kiln.tools import distributed

WORLD = 2


def forbid_inductor():
    """The session's patch (conftest) does not reach the spawned processes: each applies it itself."""
    if os.environ.get("KILN_FORBID_INDUCTOR") == "1":
        from conftest import _forbidden, inductor_patches
        for module, attr in inductor_patches():
            setattr(module, attr, _forbidden)


def run(worker, tmp_path, *args):
    """worker(rank, world, out_path, *args) on WORLD processes; every rank's JSON report."""
    timeout_s = int(os.environ.get("KILN_TEST_SPAWN_TIMEOUT", 420))
    distributed.spawn(worker, WORLD, (str(tmp_path / "store"), str(tmp_path), *args), timeout_s=timeout_s)
    return [json.loads((tmp_path / f"rank{r}.json").read_text()) for r in range(WORLD)]


def train_worker(rank, world, store, out, name, how):
    forbid_inductor()
    with distributed.process_group(rank, world, store, timeout_s=300):   # (its error names the collective)
        result, error = distributed.checked(name, how, "kiln", bucket_cap_mb=0.02)
        stats = kiln.capture.stats()
        report = {"error": error, "losses": [x.item() for x in result["losses"]],
                  "graphs": stats["graphs_compiled"], "fallbacks": stats["graphs_fallback"]}
    with open(os.path.join(out, f"rank{rank}.json"), "w") as f:
        json.dump(report, f)


@pytest.mark.parametrize("how", ["ddp", "fsdp2"])
@pytest.mark.parametrize("name", ["gpt2", "resnet"])
def test_trains_like_eager(tmp_path, name, how):
    reports = run(train_worker, tmp_path, name, how)
    for rank, r in enumerate(reports):
        assert r["error"] is None, f"rank {rank}: {r['error']}"
        assert r["fallbacks"] == 0
        # DDP: Dynamo cuts the model at each small bucket, forward and backward; FSDP2: a graph per block, both
        assert r["graphs"] >= (6 if how == "ddp" else 4), r
    assert reports[0]["losses"] != reports[1]["losses"]   # each rank trained on its own batch


def test_compiled_ddp_trains_like_eager(tmp_path):
    """torch.compile(DDP(model)): Dynamo's DDPOptimizer runs each compiled piece once on fake tensors, and counts
    AOTAutograd's invocations to know it may (kiln failed its first backward: 'found bucket -1')."""
    for rank, r in enumerate(run(train_worker, tmp_path, "gpt2", "compiled_ddp")):
        assert r["error"] is None, f"rank {rank}: {r['error']}"
        assert r["fallbacks"] == 0 and r["graphs"] >= 6, r


def collectives_worker(rank, world, store, out):
    forbid_inductor()
    with distributed.process_group(rank, world, store, timeout_s=300):
        report = distributed.check_collectives()
    with open(os.path.join(out, f"rank{rank}.json"), "w") as f:
        json.dump(report, f)


def test_collectives_in_a_compiled_graph(tmp_path):
    """wait_tensor returns the collective's output tensor itself: kiln handed that buffer's memory to the next
    result while the waited value was still to be read (g.sum(0) read g * w). A broadcast's output was copied to
    the layout torch's meta function gives, before its wait."""
    for rank, r in enumerate(run(collectives_worker, tmp_path)):
        assert all(r["equal"]), f"rank {rank}: {r['equal']}"
        # one graph, its collectives and waits kiln's externs, not fallbacks
        assert r["graphs_compiled"] == 1 and r["extern_calls"] >= 8 and r["fallback_ops"] == 0, r


def stuck_worker(rank, world, store, out):
    with distributed.process_group(rank, world, store):
        if rank == 0:
            dist.all_reduce(torch.ones(1))   # its partner never joins
        else:
            import time
            time.sleep(120)


def test_a_hung_collective_times_out(tmp_path, capfd):
    """A rank stuck in a collective fails the test in spawn's time, with each rank's stacks, instead of hanging CI."""
    with pytest.raises(TimeoutError):
        distributed.spawn(stuck_worker, WORLD, (str(tmp_path / "store"), str(tmp_path)), timeout_s=30)
    assert "all_reduce" in capfd.readouterr().err   # rank 0's stack names where it waits


def test_a_store_into_a_collectives_input_waits_for_it(tmp_path):
    """An all-gather reads its input until its wait returns: x.mul_(2) after it had been placed in the kernel
    before the wait (with an independent sin, ahead of a matmul), so the gather could send the doubled values."""
    c10d = torch.ops._c10d_functional
    with distributed.process_group(0, 1, str(tmp_path / "store")):
        group = dist.group.WORLD.group_name

        def fn(x, y, w):
            gathered = c10d.all_gather_into_tensor(x, 1, group)
            z = (y * 3).sin() @ w   # a kernel and a library call between the collective and its wait
            x.mul_(2)
            return c10d.wait_tensor(gathered) + 1, z
        x, y, w = torch.randn(64), torch.randn(64), torch.randn(64, 64)
        mutated = x.clone()
        with torch.no_grad():
            out = kiln.compile(fn, options={"strict": True, "trace": str(tmp_path / "trace")})(mutated, y, w)
        torch.testing.assert_close(out[0], x + 1)
        torch.testing.assert_close(mutated, x * 2)
    (wrapper,) = [p.read_text() for p in (tmp_path / "trace").glob("*/wrapper.py")]
    lines = wrapper.splitlines()
    wait = next(i for i, line in enumerate(lines) if "wait_tensor" in line)
    stores = [i for i, line in enumerate(lines) if line.strip().startswith("kernel") and re.search(r"\barg0_1\b", line)]
    assert stores and min(stores) > wait, wrapper


def test_a_store_into_a_collectives_input_with_its_wait_in_another_graph_runs_eagerly(tmp_path):
    """No place in this graph is safe for the store: the graph runs eagerly. (What it gathers is not checked:
    eager's store races with the gather, as the program asks.)"""
    c10d = torch.ops._c10d_functional
    with distributed.process_group(0, 1, str(tmp_path / "store")):
        group = dist.group.WORLD.group_name

        def fn(x):
            gathered = c10d.all_gather_into_tensor(x, 1, group)
            x.mul_(2)
            return gathered
        x = torch.randn(64)
        mutated = x.clone()
        delta = StatsDelta()
        with torch.no_grad():
            out = kiln.compile(fn)(mutated)
        c10d.wait_tensor(out)
        torch.testing.assert_close(mutated, x * 2)
        assert delta["graphs_fallback"] == 1
