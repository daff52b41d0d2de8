"""cProfile of one zoo model's compile under a mode (kiln backend), dumped at a deadline if the compile has not
finished by then (MaxViT's and GCViT's dynamic compiles run past 20 minutes on the 2-core CPU).
PYTHONPATH=.:/tmp/timmlib python3 bench/results/s82/profile_with_deadline.py MODEL MODE OUT.prof DEADLINE_S"""
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

name, mode, out, deadline = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
train = mode == "train"
module = zoo.build(name, train)
base = zoo.make_inputs(name, zoo.SPECS[name]["base"])
compiled = kiln.compile(module, dynamic=True if mode == "dynamic" else None,
                        options={"strict": True} | ({"freezing": True} if mode == "frozen" else {}))
prof = cProfile.Profile()
start = time.time()


def dump(*_):
    prof.disable()
    prof.dump_stats(out)
    print(f"dumped after {time.time() - start:.1f} s", flush=True)
    os._exit(0)


signal.signal(signal.SIGALRM, dump)
signal.alarm(int(deadline))
prof.enable()
zoo.step(compiled, base, train)
if mode == "dynamic":
    zoo.step(compiled, zoo.make_inputs(name, zoo.SPECS[name]["alt"], seed=2), train)
dump()
