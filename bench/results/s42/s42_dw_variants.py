"""GPU time of one kernel from a kiln trace under launch and code variants, beside cuDNN's convolution of the same
shape and a copy of the same bytes (the floor):
  PYTHONPATH=. python3 bench/results/s42/s42_dw_variants.py TRACE_GRAPH_DIR KERNEL_HASH CONV OUT.json
CONV: n,c,h,w,k,stride,pad (the depthwise convolution cuDNN runs for comparison, bf16 channels-last)."""
import importlib.util, json, re, sys, tempfile, os
import torch
import triton
from triton.testing import do_bench

trace, key, conv, out = sys.argv[1:5]
wrapper = open(os.path.join(trace, "wrapper.py")).read()
kfile = sorted(f for f in os.listdir(trace) if f.startswith("kernel") and key in open(os.path.join(trace, f)).read())[0]
source = open(os.path.join(trace, kfile)).read()
[call] = [l.strip() for l in wrapper.splitlines() if re.match(rf"\s*kernel_\w+_{key}\(", l)]
name = call[:call.index("(")]
args = [a.strip() for a in re.split(r",(?![^()]*\))", call[len(name) + 1:-1])]
declared = dict(re.findall(r"(buf\d+) = (_empty_cuda\(.*?\))\n", wrapper))
dtypes = {"torch.bfloat16": torch.bfloat16, "torch.float32": torch.float32, "torch.float16": torch.float16}


def tensor(a):
    if a in declared:
        sizes, strides, dt = re.match(r"_empty_cuda\(\((.*?)\), \((.*?)\), (.*)\)", declared[a]).groups()
        sizes, strides = [int(v) for v in sizes.split(",") if v.strip()], [int(v) for v in strides.split(",") if v.strip()]
        return torch.randn(sizes, dtype=dtypes[dt], device="cuda").as_strided(sizes, strides) \
            if all(s > 0 for s in strides) else torch.randn(sizes, dtype=dtypes[dt], device="cuda")
    return torch.randn(1 << 26, dtype=torch.bfloat16, device="cuda")   # a graph input or aliased buffer: big enough


ptrs = [tensor(a) for a in args[1:] if a.startswith(("buf", "arg"))]
ints = [int(eval(a)) for a in args[1:] if not a.startswith(("buf", "arg"))]
N, R, XB, RB = ints
from kiln.codegen.triton import prelude
header = prelude(False) + "\n"
results = {"kernel": name, "call": call, "conv": conv}


def load(src, tag):
    path = os.path.join(tempfile.mkdtemp(), f"k_{tag}.py")
    open(path, "w").write(header + src)
    spec = importlib.util.spec_from_file_location(f"k_{tag}", path)
    m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
    return getattr(m, name)


def time_variant(fn, xb, rb, warps):
    grid = (triton.cdiv(N, xb) * triton.cdiv(R, rb),)
    f = lambda: fn[grid](*ptrs, N, R, xb, rb, num_warps=warps)
    f(); torch.cuda.synchronize()
    return do_bench(f, warmup=50, rep=300) * 1000


variants = {"as_generated": source,
            # timing only, not the same numbers: no IEEE square root and division per element (a batch norm's
            # 1 / sqrt(var + eps), computed for every element of a channel)
            "no_rn": source.replace("tl.sqrt_rn(", "(").replace("tl.math.div_rn(1.0, ", "(")}
tiles = [(XB, RB, 4), (XB, RB, 8), (64, 32, 4), (64, 16, 4), (128, 16, 8), (128, 32, 8), (16, 128, 4)]
for tag, src in variants.items():
    fn = load(src, tag)
    for xb, rb, w in tiles:
        if rb > triton.next_power_of_2(R):
            continue
        try:
            results[f"{tag} {xb}x{rb} w{w}"] = round(time_variant(fn, xb, rb, w), 2)
        except Exception as e:
            results[f"{tag} {xb}x{rb} w{w}"] = f"{type(e).__name__}"
        print(tag, xb, rb, w, results[f"{tag} {xb}x{rb} w{w}"], flush=True)
if conv == "-":
    json.dump(results, open(out, "w"), indent=1)
    sys.exit()
n, c, h, w, k, s, p = map(int, conv.split(","))
x = torch.randn(n, c, h, w, device="cuda", dtype=torch.bfloat16).to(memory_format=torch.channels_last)
wt = torch.randn(c, 1, k, k, device="cuda", dtype=torch.bfloat16).to(memory_format=torch.channels_last)
torch.nn.functional.conv2d(x, wt, None, s, p, 1, c)
results["cudnn_conv"] = round(do_bench(lambda: torch.nn.functional.conv2d(x, wt, None, s, p, 1, c), warmup=50, rep=300) * 1000, 2)
y = torch.nn.functional.conv2d(x, wt, None, s, p, 1, c)
src_bytes, dst = x.clone(), torch.empty_like(x)
results["copy_input_bytes"] = round(do_bench(lambda: dst.copy_(src_bytes), warmup=50, rep=300) * 1000, 2)
results["io_bytes_mb"] = (x.numel() + y.numel()) * 2 / 1e6
print(results)
json.dump(results, open(out, "w"), indent=1)
