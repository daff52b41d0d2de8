# session 38: build a generated kernel for sm_90 on the CPU (no GPU: triton.compile with a GPUTarget), per stage timed.
# usage: s38_build_local.py SOURCE.py KERNEL SIG(comma list: *bf16,i32,...) [XBLOCK RBLOCK] [warps]
import sys, time, tempfile, os, importlib.util
os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp())
import triton
from triton.compiler import ASTSource
from triton.backends.compiler import GPUTarget
src, name, sig = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
blocks = [int(b) for b in sys.argv[4:6]] if len(sys.argv) > 5 else []
warps = int(sys.argv[6]) if len(sys.argv) > 6 else 4
spec = importlib.util.spec_from_file_location("m", src); m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
fn = getattr(m, name)
names = fn.arg_names
signature = {n: t for n, t in zip(names, sig)}
constexprs = {}
cnames = [n for n in names if n not in signature]
for n, v in zip(cnames, blocks):
    signature[n] = "constexpr"; constexprs[(names.index(n),)] = v
target = GPUTarget("cuda", 90, 32)
from triton.backends.nvidia.compiler import CUDABackend
backend = CUDABackend(target)
opts = backend.parse_options({"num_warps": warps})
t0 = time.perf_counter()
stages = {}
# time each stage the way triton.compile runs them
from triton._C.libtriton import ir
ctx = ir.context(); ir.load_dialects(ctx); backend.load_dialects(ctx)
srcobj = ASTSource(fn, signature, constexprs)
codegen_fns = backend.get_codegen_implementation(opts)
module_map = backend.get_module_map()
t = time.perf_counter()
module = srcobj.make_ir(target, opts, codegen_fns, module_map, ctx)
print("ast->ttir %.3f" % (time.perf_counter() - t))
try:
    backend.add_stages(stages, opts, srcobj.language)
except TypeError:
    backend.add_stages(stages, opts)
metadata = {}
for ext, fnc in stages.items():
    t = time.perf_counter()
    module = fnc(module, metadata)
    print("%s %.3f" % (ext, time.perf_counter() - t))
print("total %.3f" % (time.perf_counter() - t0))
if isinstance(module, (bytes, str)) and len(sys.argv) > 7:
    open(sys.argv[7], "wb" if isinstance(module, bytes) else "w").write(module)
