"""Compile time under dynamic=True of a zoo model (bench/results/s79/zoo), two kiln trees in alternating processes
(fresh caches), the first call (base sizes) and the second (other sizes) timed apart, with kiln's stage seconds:
    PYTHONPATH=.:/tmp/timmlib python3 bench/results/s81/dynamic_ab.py MODEL OLD_TREE NEW_TREE [ROUNDS]"""
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def child(name):
    import importlib.util
    import kiln
    spec = importlib.util.spec_from_file_location("zoo_check", os.path.join(HERE, "..", "s79", "zoo", "zoo_check.py"))
    zoo = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(zoo)
    module = zoo.build(name, False)
    compiled = kiln.compile(module, dynamic=True, options={"strict": True})
    times = []
    for dims, seed in ((zoo.SPECS[name]["base"], 1), (zoo.SPECS[name]["alt"], 2)):
        inputs = zoo.make_inputs(name, dims, seed)
        start = time.perf_counter()
        zoo.step(compiled, inputs, False)
        times.append(time.perf_counter() - start)
    stats = kiln.stats()
    print("ROW " + json.dumps({"first_s": times[0], "second_s": times[1], **{k: round(v, 2) for k, v in stats.items()
                                                                             if k.startswith("seconds_")}}))


def main():
    if sys.argv[1] == "--child":
        return child(sys.argv[2])
    name, trees, rounds = sys.argv[1], sys.argv[2:4], int(sys.argv[4]) if len(sys.argv) > 4 else 2
    for r in range(rounds):
        for tree in trees:
            with tempfile.TemporaryDirectory() as d:
                env = dict(os.environ, KILN_CACHE_DIR=f"{d}/kiln",
                           PYTHONPATH=f"{tree}:/tmp/timmlib")
                out = subprocess.run([sys.executable, __file__, "--child", name], env=env, capture_output=True,
                                     text=True)
            rows = [line[4:] for line in out.stdout.splitlines() if line.startswith("ROW ")]
            print(f"round {r} {tree}: {rows[-1] if rows else out.stderr.strip().splitlines()[-1:]}", flush=True)


if __name__ == "__main__":
    main()
