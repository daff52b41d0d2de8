"""Distributed training through kiln: the suite's models trained with DDP or FSDP2, checked against eager.

The two ways in, as PyTorch documents them:
- DDP around a compiled module, `DDP(kiln.compile(model))`, or `torch.compile(DDP(model), backend="kiln")`.
  Dynamo's DDPOptimizer cuts the model's graph at DDP's gradient buckets, and kiln compiles every piece.
- FSDP2, the torchtitan recipe: each block compiled, then sharded with `fully_shard`, then the root sharded.
  FSDP's hooks (all-gathers, reduce-scatters) run outside the compiled graphs.

A `Run` trains in every rank of a process group: 2 CPU processes over gloo in the tests (`spawn`), torchrun
over NCCL in scripts/multi_gpu.py. `checked` trains the same start eagerly in float64, eagerly (also from one
ulp away) and compiled, and applies the suite's accuracy rule to the losses and the parameters after the last
step.
"""
import contextlib
import datetime
import faulthandler
import gc
import os
import signal
import time

import torch
import torch.distributed as dist
from torch import nn

from kiln.tools import accuracy
from kiln.tools.bench import _compile as compiled, _wall_time as wall_time
from kiln.tools.workloads import workload

WRAPPINGS = ("ddp", "compiled_ddp", "fsdp2")


def blocks(module):
    """The repeated blocks a model is compiled and sharded by: the members of its outermost ModuleLists (a
    transformer's layers, a CNN's stages), or the module itself where it has none."""
    found = []

    def walk(m):
        for child in m.children():
            if isinstance(child, nn.ModuleList):
                found.extend(child)
            else:
                walk(child)
    walk(module)
    return found or [module]


def wrap(module, how, backend, device, bucket_cap_mb=None, group=None):
    """module (returning its loss) as `how` trains it through `backend` ("eager", "kiln", "inductor", ...), over
    `group`'s ranks (default: all of them). bucket_cap_mb: DDP's gradient buckets, which are also where Dynamo cuts the graph (the first bucket too:
    DDP and Dynamo read its size from a torch.distributed constant, 1 MiB, more than a test's model has)."""
    from torch.nn.parallel import DistributedDataParallel as DDP
    device_ids = [device.index] if device.type == "cuda" else None
    buckets = {}
    if bucket_cap_mb is not None:
        buckets = {"bucket_cap_mb": bucket_cap_mb}
        dist._DEFAULT_FIRST_BUCKET_BYTES = min(dist._DEFAULT_FIRST_BUCKET_BYTES, int(bucket_cap_mb * 2 ** 20))
    if how == "ddp":
        return DDP(compiled(module, backend), device_ids=device_ids, process_group=group, **buckets)
    if how == "compiled_ddp":
        return compiled(DDP(module, device_ids=device_ids, process_group=group, **buckets), backend)
    if how == "fsdp2":
        from torch.distributed.device_mesh import DeviceMesh, init_device_mesh
        from torch.distributed.fsdp import fully_shard
        mesh = DeviceMesh.from_group(group, device.type) if group is not None else \
            init_device_mesh(device.type, (dist.get_world_size(),))
        # Dynamo compiles a block again where blocks differ in a constant it guards on (HF's layer index): past
        # its recompile limit (8) the remaining blocks would run eagerly, with one warning
        config, members = torch._dynamo.config, blocks(module)
        config.recompile_limit = max(config.recompile_limit, 4 * len(members))
        for block in members:
            if backend != "eager":
                block.compile(backend=backend)
            fully_shard(block, mesh=mesh)
        return fully_shard(module, mesh=mesh)
    raise ValueError(f"unknown wrapping {how!r}: one of {', '.join(WRAPPINGS)}")


class Run:
    """Workload `name` wrapped by `how` and compiled by `backend`, trained by SGD on this rank's own batch (weak
    scaling: the same batch size on every rank) over `group` (default: every rank). Every run of a name starts
    from the same parameters."""

    def __init__(self, name, how, backend, *, device="cpu", size="tiny", dtype=torch.float32, autocast=None,
                 lr=1e-3, bucket_cap_mb=None, nudge=None, group=None):
        self.device = device = torch.device(device)
        w = workload(name)
        self.module = w.make_module(device, dtype, size, train=True)
        self.inputs = w.make_inputs(device, dtype, size, seed=1 + dist.get_rank())
        if nudge is not None:   # parameters and inputs one ulp away (accuracy.nudged): how far eager's rounding moves
            g = torch.Generator(device).manual_seed(nudge)
            with torch.no_grad():
                for p in self.module.parameters():
                    p.copy_(accuracy.nudged(p, g))
            self.inputs = [accuracy.nudged(x, g) for x in self.inputs]
        self.model = wrap(self.module, how, backend, device, bucket_cap_mb, group)
        self.optimizer = torch.optim.SGD(self.module.parameters(), lr=lr)
        self.autocast = autocast

    def step(self):
        cast = torch.autocast(self.device.type, dtype=self.autocast) if self.autocast else contextlib.nullcontext()
        with cast:
            loss = self.model(*self.inputs)
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad(set_to_none=True)
        return loss.detach().float()

    def timed_step(self):
        """(seconds, loss) of one step, the device synchronized on both sides."""
        return wall_time(self.step, self.device.type)

    def parameters(self):
        """Every parameter, whole on every rank (FSDP2's shards gathered), detached, in a fixed order."""
        return [(p.full_tensor() if hasattr(p, "full_tensor") else p).detach().clone()
                for p in self.module.parameters()]


def train(name, how, backend, steps=3, **kw):
    """`steps` steps of a fresh Run: its losses, its parameters after them, and the first step's seconds."""
    run = Run(name, how, backend, **kw)
    first_s, loss = run.timed_step()
    losses = [loss] + [run.step() for _ in range(steps - 1)]
    return {"losses": losses, "params": run.parameters(), "first_step_s": first_s, "run": run}


def references(name, how, **kw):
    """What `error` compares with: an fp64 eager run, eager's run, and eager's runs from parameters and inputs
    one ulp away (the accuracy rule's bound on ill-conditioned results)."""
    fp64 = train(name, how, "eager", **{**kw, "dtype": torch.float64, "autocast": None})
    nudged = [train(name, how, "eager", **kw, nudge=seed) for seed in range(accuracy.NUDGED_RUNS)]
    for run in [fp64, *nudged]:
        del run["run"]   # (their models: only eager's is timed)
    return {"fp64": fp64, "eager": train(name, how, "eager", **kw), "nudged": nudged}


def error(result, refs):
    """Why a run's losses and final parameters fail the suite's accuracy rule against eager's, or None."""
    def tensors(run):
        return [torch.stack(run["losses"])] + run["params"]
    return accuracy.accuracy_error(tensors(result), tensors(refs["eager"]), tensors(refs["fp64"]),
                                   nudged=[tensors(run) for run in refs["nudged"]])


def checked(name, how, backend, **kw):
    """`train` through backend, and why it fails the accuracy rule against eager from the same start (or None)."""
    refs = references(name, how, **kw)
    result = train(name, how, backend, **kw)
    del result["run"], refs["eager"]["run"]   # (their DDP/FSDP modules hold the process group: see process_group)
    return result, error(result, refs)


def collectives_program(world, group):
    """A function with collectives in its graph, as kiln receives them: dist.all_reduce, and broadcast,
    all-gather and reduce-scatter as torch's functional collectives over `group` (its name) of `world` ranks."""
    c10d = torch.ops._c10d_functional

    def program(x, w):   # x: [n, m] with n divisible by world, w: [m]
        y = (x * 2).sin()
        dist.all_reduce(y)
        b = c10d.wait_tensor(c10d.broadcast(y.t() * 2, 0, group))   # torch's meta says transposed; it is contiguous
        g = c10d.wait_tensor(c10d.all_gather_into_tensor(y + 1, world, group))
        r = c10d.wait_tensor(c10d.reduce_scatter_tensor(g * w, "sum", world, group))
        return y.cos() + 1, g.sum(0), r * 3, y @ w.view(-1, 1), b + 1
    return program


def check_collectives(device="cpu"):
    """collectives_program through kiln (strict) against eager on this rank: whether each output matches, and how
    many graphs, externs and fallback ops kiln compiled for it."""
    import kiln
    program = collectives_program(dist.get_world_size(), dist.group.WORLD.group_name)
    g = torch.Generator(device).manual_seed(dist.get_rank())
    x = torch.randn(4 * dist.get_world_size(), 8, generator=g, device=device)
    w = torch.randn(8, generator=g, device=device)
    before = dict(kiln.capture.STATS)
    expected = program(x.clone(), w)
    got = kiln.compile(program, options={"strict": True})(x.clone(), w)
    return {"equal": [torch.allclose(a, b, rtol=1e-5, atol=1e-5) for a, b in zip(expected, got)],
            **{k: kiln.capture.STATS[k] - before.get(k, 0) for k in ("graphs_compiled", "extern_calls", "fallback_ops")}}


@contextlib.contextmanager
def process_group(rank, world, store_path, device="cpu", timeout_s=300):
    """A process group over a file store (no ports to collide), destroyed on the way out. What holds it (a DDP
    module's reducer) must be gone by then: destroyed later, a reducer may wait forever on the destroyed group
    (tests/test_distributed.py hung at a worker's return, now and then)."""
    backend = "nccl" if torch.device(device).type == "cuda" else "gloo"
    store = dist.FileStore(store_path, world)
    dist.init_process_group(backend, store=store, rank=rank, world_size=world,
                            timeout=datetime.timedelta(seconds=timeout_s))
    try:
        yield
    finally:
        gc.collect()
        dist.destroy_process_group()


def pin_to_share(local_rank, local_world):
    """Binds this process (its threads too) to its own share of the CPUs it may run on, the local ranks' shares
    disjoint, as torchrun's --numa-binding=exclusive does on one NUMA node. The steps timed here are bound by the
    host, and a rank's host time moved by up to 25 % between rounds with every rank free to run anywhere; with
    two ranks, each collective waits for the slower one. Returns the CPUs kept."""
    cpus = sorted(os.sched_getaffinity(0))
    share = max(1, len(cpus) // local_world)
    kept = cpus[local_rank * share:(local_rank + 1) * share] or cpus
    os.sched_setaffinity(0, kept)
    torch.set_num_threads(len(kept))
    return kept


def spawn(fn, world, args=(), timeout_s=600):
    """fn(rank, world, *args) in `world` fresh processes, each with its share of the cores (as torchrun gives);
    raises what a rank raised, or TimeoutError when they are not done in timeout_s (after each rank printed its
    stacks, and all were killed): a hung collective must not hang the caller."""
    import torch.multiprocessing as mp
    threads = max(1, len(os.sched_getaffinity(0)) // world)
    context = mp.start_processes(_rank_main, args=(fn, world, threads, *args), nprocs=world, join=False,
                                 start_method="spawn")
    deadline = time.monotonic() + timeout_s
    while not context.join(timeout=1):
        if time.monotonic() > deadline:
            alive = [p for p in context.processes if p.is_alive()]
            for p in alive:
                os.kill(p.pid, signal.SIGUSR1)
            time.sleep(2)
            for p in alive:
                p.kill()
            raise TimeoutError(f"{world} processes running {fn.__name__} were not done in {timeout_s} s")


def _rank_main(rank, fn, world, threads, *args):
    faulthandler.register(signal.SIGUSR1)   # spawn's timeout asks every rank where it is stuck
    torch.set_num_threads(threads)
    fn(rank, world, *args)
