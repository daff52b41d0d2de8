"""Issue 23's GPU compile rows over the real-model suite, two shards at once on one GPU (8 cores each, as session
53's four shards on two GPUs): each shard takes the next model from one queue and runs scripts/gpu_compile_time.py
on it (aot_eager, Inductor and kiln, cold on fresh cache dirs then warm, each in a fresh process), and no model is
started that its estimate (session 53's per-model seconds, x1.15) would not let finish before the deadline.

    PYTHONPATH=. python3 bench/results/s89/suite_shards.py OUT_DIR DEADLINE_S MODEL,MODEL,... [--train]

Writes OUT_DIR/rows.json (gpu_compile_time's compile_time.json of each model, merged: a device call returns 8 files
at most) and OUT_DIR/shards.log; prints the models not started.
"""
import json
import os
import subprocess
import sys
import threading
import time

ESTIMATE_S = {"gpt2": 148, "bart": 255, "vit": 147, "efficientnet": 167, "qwen2": 139, "convnext": 143,
              "albert": 135, "bert": 134, "deberta_v2": 280, "t5": 184, "llama": 150, "deit": 141, "regnet": 139,
              "distilbert": 124, "whisper": 178, "mistral": 178, "swin": 165, "mobilenet_v2": 137, "roberta": 134,
              "resnet": 131}


def main():
    out, deadline, models = sys.argv[1], time.time() + float(sys.argv[2]), sys.argv[3].split(",")
    train = "--train" in sys.argv
    os.makedirs(out, exist_ok=True)
    queue, lock, log = list(models), threading.Lock(), open(os.path.join(out, "shards.log"), "a")
    merged = {"device": "cuda", "train": train, "rows": []}

    def shard(cores):
        while True:
            with lock:
                fits = [m for m in queue if time.time() + 1.15 * ESTIMATE_S.get(m, 130) * (1.4 if train else 1)
                        < deadline]
                if not fits:
                    return
                model = fits[0]
                queue.remove(model)
            started = time.time()
            tmp = f"/tmp/ct_{model}"
            cmd = ["taskset", "-c", cores, sys.executable, "scripts/gpu_compile_time.py", "--out", tmp,
                   "--models", model, "--timeout", "200"] + (["--train"] if train else [])
            with open(f"{tmp}.log", "w") as f:
                rc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT).returncode
            with lock:
                if os.path.exists(f"{tmp}/compile_time.json"):
                    merged["rows"] += json.load(open(f"{tmp}/compile_time.json"))["rows"]
                    with open(os.path.join(out, "rows.json"), "w") as f:
                        json.dump(merged, f, indent=1)
                print(f"{model} cores {cores} rc {rc} {time.time() - started:.0f} s, load "
                      f"{os.getloadavg()[0]:.1f}", file=log, flush=True)

    threads = [threading.Thread(target=shard, args=(c,)) for c in ("0-7", "8-15")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print("not started:", ",".join(queue), file=log, flush=True)
    print("not started:", ",".join(queue))


if __name__ == "__main__":
    main()
