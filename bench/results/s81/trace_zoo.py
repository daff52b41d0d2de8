"""Compile one zoo model under a mode with kiln's trace on, to compare generated code between two versions:
PYTHONPATH=<tree>:/tmp/timmlib python3 bench/results/s81/trace_zoo.py MODEL MODE DIR"""
import importlib.util
import os
import sys

import kiln

spec = importlib.util.spec_from_file_location(
    "zoo_check", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "s79", "zoo", "zoo_check.py"))
zoo = importlib.util.module_from_spec(spec)
spec.loader.exec_module(zoo)

name, mode, out = sys.argv[1:4]
train = mode == "train"
module = zoo.build(name, train)
compiled = kiln.compile(module, dynamic=True if mode == "dynamic" else None,
                        options={"strict": True, "trace": out} | ({"freezing": True} if mode == "frozen" else {}))
zoo.step(compiled, zoo.make_inputs(name, zoo.SPECS[name]["base"]), train)
if mode == "dynamic":
    zoo.step(compiled, zoo.make_inputs(name, zoo.SPECS[name]["alt"], seed=2), train)
print(kiln.__file__, kiln.stats()["kernels_generated"])
