"""cProfile of one zoo model's compile under a mode (kiln backend), to find where kiln's own time goes; with
DEADLINE_S (session 82), dumped then if the compile has not finished (GCViT's dynamic compile runs past 20 minutes).
PYTHONPATH=.:/tmp/timmlib python3 bench/results/s81/profile_zoo_compile.py MODEL MODE OUT.prof [DEADLINE_S]"""
import cProfile
import importlib.util
import os
import signal
import sys
import time

import torch

import kiln

spec = importlib.util.spec_from_file_location(
    "zoo_check", os.path.join(os.path.dirname(__file__), "..", "s79", "zoo", "zoo_check.py"))
zoo = importlib.util.module_from_spec(spec)
spec.loader.exec_module(zoo)

name, mode, out = sys.argv[1:4]
train = mode == "train"
module = zoo.build(name, train)
base = zoo.make_inputs(name, zoo.SPECS[name]["base"])
compiled = kiln.compile(module, dynamic=True if mode == "dynamic" else None,
                        options={"strict": True} | ({"freezing": True} if mode == "frozen" else {}))
prof = cProfile.Profile()
start = time.time()


def dump(*_):
    prof.disable()
    print(f"{name} {mode}: {time.time() - start:.1f} s", kiln.stats(), flush=True)
    prof.dump_stats(out)
    os._exit(0)   # (at a deadline the compile is still running)


if len(sys.argv) > 4:
    signal.signal(signal.SIGALRM, dump)
    signal.alarm(int(sys.argv[4]))
prof.enable()
zoo.step(compiled, base, train)
if mode == "dynamic":
    zoo.step(compiled, zoo.make_inputs(name, zoo.SPECS[name]["alt"], seed=2), train)
dump()
