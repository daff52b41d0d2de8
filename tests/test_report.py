"""The compile trace (kiln.tools.trace), `kiln report` (kiln.tools.report) and KILN_LOGS (kiln.logs)."""
import os
import re
import shutil
import subprocess
import sys
import urllib.request
import xml.etree.ElementTree as ET

import pytest
import torch

from kiln.tools.trace import GraphTrace, graph_svg, install_dynamo_hooks, uninstall_dynamo_hooks

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The example, f(x) = (sin(x)**2 + cos(x)**2).sum(), as Dynamo and AOT autograd print it on torch 2.13;
# the stages after those are what kiln's pipeline would hand to the trace.
DYNAMO_GRAPH = '''class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[1024]"):
        l_x_ = L_x_

        # File: example.py:4 in f, code: return (torch.sin(x) ** 2 + torch.cos(x) ** 2).sum()
        sin: "f32[1024]" = torch.sin(l_x_)
        pow_1: "f32[1024]" = sin ** 2;  sin = None
        cos: "f32[1024]" = torch.cos(l_x_);  l_x_ = None
        pow_2: "f32[1024]" = cos ** 2;  cos = None
        add: "f32[1024]" = pow_1 + pow_2;  pow_1 = pow_2 = None
        sum_1: "f32[]" = add.sum();  add = None
        return (sum_1,)
'''
AOT_FORWARD = '''class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[1024]"):
        sin: "f32[1024]" = torch.ops.aten.sin.default(primals_1)
        pow_1: "f32[1024]" = torch.ops.aten.pow.Tensor_Scalar(sin, 2)
        cos: "f32[1024]" = torch.ops.aten.cos.default(primals_1)
        pow_2: "f32[1024]" = torch.ops.aten.pow.Tensor_Scalar(cos, 2)
        add: "f32[1024]" = torch.ops.aten.add.Tensor(pow_1, pow_2);  pow_1 = pow_2 = None
        sum_1: "f32[]" = torch.ops.aten.sum.default(add);  add = None
        return (sum_1, primals_1, sin, cos)
'''
AOT_BACKWARD = '''class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[1024]", sin: "f32[1024]", cos: "f32[1024]", tangents_1: "f32[]"):
        expand: "f32[1024]" = torch.ops.aten.expand.default(tangents_1, [1024]);  tangents_1 = None
        pow_3: "f32[1024]" = torch.ops.aten.pow.Tensor_Scalar(cos, 1.0);  cos = None
        mul: "f32[1024]" = torch.ops.aten.mul.Scalar(pow_3, 2.0);  pow_3 = None
        mul_1: "f32[1024]" = torch.ops.aten.mul.Tensor(expand, mul);  mul = None
        sin_1: "f32[1024]" = torch.ops.aten.sin.default(primals_1)
        neg: "f32[1024]" = torch.ops.aten.neg.default(sin_1);  sin_1 = None
        mul_2: "f32[1024]" = torch.ops.aten.mul.Tensor(mul_1, neg);  mul_1 = neg = None
        pow_4: "f32[1024]" = torch.ops.aten.pow.Tensor_Scalar(sin, 1.0);  sin = None
        mul_3: "f32[1024]" = torch.ops.aten.mul.Scalar(pow_4, 2.0);  pow_4 = None
        mul_4: "f32[1024]" = torch.ops.aten.mul.Tensor(expand, mul_3);  expand = mul_3 = None
        cos_1: "f32[1024]" = torch.ops.aten.cos.default(primals_1);  primals_1 = None
        mul_5: "f32[1024]" = torch.ops.aten.mul.Tensor(mul_4, cos_1);  mul_4 = cos_1 = None
        add_1: "f32[1024]" = torch.ops.aten.add.Tensor(mul_2, mul_5);  mul_2 = mul_5 = None
        return (add_1,)
'''
DECOMPOSED = '''def forward(self, primals_1: "f32[1024]"):
    sin = torch.ops.aten.sin.default(primals_1)
    mul = torch.ops.aten.mul.Tensor(sin, sin)
    cos = torch.ops.aten.cos.default(primals_1)
    mul_1 = torch.ops.aten.mul.Tensor(cos, cos)
    add = torch.ops.aten.add.Tensor(mul, mul_1)
    sum_1 = torch.ops.aten.sum.default(add)
    return (sum_1, primals_1, sin, cos)
'''
IR = '''primals_1: InputBuffer(f32[1024])
buf0: ComputedBuffer(f32[1024]) = Pointwise(i0 -> sin(load(primals_1, i0)))
buf1: ComputedBuffer(f32[1024]) = Pointwise(i0 -> load(buf0, i0) * load(buf0, i0))
buf2: ComputedBuffer(f32[1024]) = Pointwise(i0 -> cos(load(primals_1, i0)))
buf3: ComputedBuffer(f32[1024]) = Pointwise(i0 -> load(buf2, i0) * load(buf2, i0))
buf4: ComputedBuffer(f32[1024]) = Pointwise(i0 -> load(buf1, i0) + load(buf3, i0))
buf5: ComputedBuffer(f32[]) = Reduction(sum, r0 < 1024 -> load(buf4, r0))
'''
KERNEL_0 = '''#include <cmath>
extern "C" void kernel_0_sin_cos_add(const float* __restrict in_ptr0, float* __restrict out_ptr0,
                                     float* __restrict out_ptr1, float* __restrict out_ptr2) {
    #pragma omp parallel for simd
    for (long i0 = 0; i0 < 1024; ++i0) {
        float s = std::sin(in_ptr0[i0]);
        float c = std::cos(in_ptr0[i0]);
        out_ptr0[i0] = s;  // sin and cos are saved for the backward
        out_ptr1[i0] = c;
        out_ptr2[i0] = s * s + c * c;
    }
}
'''
KERNEL_1 = '''extern "C" void kernel_1_sum(const float* __restrict in_ptr0, float* __restrict out_ptr0) {
    float acc = 0.0f;
    #pragma omp parallel for simd reduction(+:acc)
    for (long r0 = 0; r0 < 1024; ++r0) acc += in_ptr0[r0];
    out_ptr0[0] = acc;
}
'''
BACKWARD_KERNEL = '''#include <cmath>
extern "C" void kernel_0_sin_cos_mul(const float* in_ptr0, const float* in_ptr1, const float* in_ptr2,
                                     const float* in_ptr3, float* out_ptr0) {
    #pragma omp parallel for simd
    for (long i0 = 0; i0 < 1024; ++i0) {
        float t = in_ptr3[0];
        out_ptr0[i0] = t * 2.0f * in_ptr2[i0] * -std::sin(in_ptr0[i0]) + t * 2.0f * in_ptr1[i0] * std::cos(in_ptr0[i0]);
    }
}
'''
WRAPPER = '''import torch

def call(args, kernels):
    primals_1, = args
    buf0 = torch.empty((1024,), dtype=torch.float32)
    buf2 = torch.empty((1024,), dtype=torch.float32)
    buf4 = torch.empty((1024,), dtype=torch.float32)
    kernels.k0_sin_cos_add(primals_1, buf0, buf2, buf4)
    buf5 = torch.empty((), dtype=torch.float32)
    kernels.k1_sum(buf4, buf5)
    return (buf5, primals_1, buf0, buf2)
'''
FORWARD_NODES = [  # name, op, inputs, kernel after fusion
    ("buf0", "aten.sin", ["primals_1"], "k0_sin_cos_add"),
    ("buf1", "aten.mul", ["buf0", "buf0"], "k0_sin_cos_add"),
    ("buf2", "aten.cos", ["primals_1"], "k0_sin_cos_add"),
    ("buf3", "aten.mul", ["buf2", "buf2"], "k0_sin_cos_add"),
    ("buf4", "aten.add", ["buf1", "buf3"], "k0_sin_cos_add"),
    ("buf5", "aten.sum", ["buf4"], "k1_sum"),
]
FORWARD_FUSION = [dict(zip(("node", "kernel", "fused", "with", "reason"), decision)) for decision in [
    ("buf0", "k0_sin_cos_add", False, None, "first node: starts a pointwise kernel"),
    ("buf1", "k0_sin_cos_add", True, "buf0", "same iteration space 1024"),
    ("buf2", "k0_sin_cos_add", True, "buf1", "same iteration space 1024; shares the load of primals_1"),
    ("buf3", "k0_sin_cos_add", True, "buf2", "same iteration space 1024"),
    ("buf4", "k0_sin_cos_add", True, "buf3", "same iteration space 1024"),
    ("buf5", "k1_sum", False, "buf4", "reduction (1024 -> 1) differs from buf4's iteration space 1024"),
]]
SECTIONS = [  # (section id, heading) in page order
    ("dynamo_graph", "Dynamo FX graph"), ("aot_forward", "AOT forward graph"), ("decomposed", "Decomposed graph"),
    ("ir", "kiln IR"), ("fusion", "Fusion decisions"), ("graphs", "Graph before and after fusion"),
    ("kernels", "Kernels"), ("wrapper", "Wrapper"), ("cost", "Where the time goes"),
]


def write_example_trace(root):
    """The trace kiln's pipeline would write for the example's forward and backward graphs."""
    fw = GraphTrace(root, "g0_forward")
    fw.stage("dynamo_graph", DYNAMO_GRAPH)
    fw.stage("aot_forward", AOT_FORWARD)
    fw.stage("decomposed", DECOMPOSED)
    fw.stage("ir", IR)
    fw.fusion(FORWARD_FUSION)
    fw.graph("before", [{"name": n, "op": op, "inputs": i, "kernel": None} for n, op, i, _ in FORWARD_NODES])
    fw.graph("after", [{"name": n, "op": op, "inputs": i, "kernel": k} for n, op, i, k in FORWARD_NODES])
    fw.stage("kernel", KERNEL_0, filename="kernel_0_sin_cos_add.cpp")
    fw.stage("kernel", KERNEL_1, filename="kernel_1_sum.cpp")
    fw.stage("wrapper", WRAPPER)
    fw.kernels([   # as options={"trace_profile": True} fills them in
        {"name": "k0_sin_cos_add", "kind": "kernel", "fallback": False, "file": "kernel_0_sin_cos_add.cpp",
         "source_ops": ["aten.sin", "aten.mul", "aten.cos", "aten.mul", "aten.add"], "bytes": 16384,
         "time_us": 2.4, "pct_copy": 41.0},
        {"name": "extern1", "kind": "extern", "fallback": False, "target": "aten.mm.default", "source_ops": ["mm"],
         "bytes": 12288, "dtype": "float32", "flops": 2097152, "time_us": 30.5, "pct_copy": 1.0, "pct_matmul": 72.0},
        {"name": "k1_sum", "kind": "kernel", "fallback": False, "source_ops": ["aten.sum"], "file": "kernel_1_sum.cpp",
         "bytes": 4100, "time_us": 1.1, "pct_copy": 23.0},
    ])
    fw.finish()

    bw = GraphTrace(root, "g0_backward")
    bw.stage("aot_backward", AOT_BACKWARD)
    bw.fusion([{"node": "buf0", "kernel": "k0_sin_cos_mul", "fused": False, "with": None, "reason": "first node"}]
              + [{"node": f"buf{i}", "kernel": "k0_sin_cos_mul", "fused": True, "with": f"buf{i - 1}",
                  "reason": "same iteration space 1024"} for i in range(1, 12)])
    bw.stage("kernel", BACKWARD_KERNEL, filename="kernel_0_sin_cos_mul.cpp")
    bw.kernels([{"name": "k0_sin_cos_mul", "kind": "kernel", "fallback": False, "file": "kernel_0_sin_cos_mul.cpp",
                 "bytes": 16388,
                 "source_ops": ["aten.expand", "aten.mul", "aten.sin", "aten.neg", "aten.cos", "aten.add"]}])
    bw.finish()


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def test_trace_writes_every_stage_and_pages(tmp_path):
    write_example_trace(str(tmp_path))
    fw = tmp_path / "g0_forward"
    for name in ["index.html", "dynamo_graph.py", "aot_forward.py", "decomposed.py", "ir.txt", "fusion.json",
                 "graph_before.svg", "graph_after.svg", "kernel_0_sin_cos_add.cpp", "kernel_1_sum.cpp",
                 "wrapper.py", "kernels.json"]:
        assert (fw / name).is_file(), name
    assert read(fw / "kernel_1_sum.cpp") == KERNEL_1

    page = read(fw / "index.html")
    positions = [page.index(f"<section id='{sid}'>") for sid, _ in SECTIONS]
    assert positions == sorted(positions), "sections out of pipeline order"
    assert "torch.ops.aten.sin.default(primals_1)" in page
    assert "same iteration space 1024; shares the load of primals_1" in page
    assert "i0 &lt; 1024" in page and "i0 < 1024" not in page  # kernel source is escaped
    assert "reduction (1024 -&gt; 1) differs from buf4&#x27;s iteration space 1024" in page
    assert "href='#kernel-k1_sum'" in page and "id='kernel-k1_sum'" in page  # fusion table links to kernels
    assert "href='#node-buf4'" in page  # kernels link back to their nodes
    assert "aten.sin, aten.mul, aten.cos, aten.mul, aten.add" in page

    backward = read(tmp_path / "g0_backward" / "index.html")
    assert "tangents_1" in backward
    # not profiled: the cost section says why it has no times, and lists the bytes
    cost = backward.split("<section id='cost'>")[1]
    assert "compiled without options={&#x27;trace_profile&#x27;: True}" in cost and "16,388" in cost

    cost = page.split("<section id='cost'>")[1]
    assert "<b>34.0 µs</b> over 3 steps" in cost and "library calls: 1, 30.5 µs (90%)" in cost
    assert cost.index("extern1") < cost.index("k0_sin_cos_add") < cost.index("k1_sum")   # longest first
    assert "30.5 µs, 72% of the matmul ceiling" in cost and "2.4 µs, 41% of the copy ceiling" in cost
    assert "id='extern-extern1'" in cost and "href='#extern-extern1'" in cost

    root_page = read(tmp_path / "index.html")
    assert root_page.index("g0_forward/index.html") < root_page.index("g0_backward/index.html")
    assert "<a href='g0_forward/index.html#cost'>34.0</a>" in root_page
    assert "<a href='g0_backward/index.html#cost'>not timed</a>" in root_page and "trace_profile" in root_page
    assert "None recorded" in root_page  # no Dynamo events without install_dynamo_hooks


def test_disabled_trace_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    trace = GraphTrace(None, "g0_forward")
    assert not trace.enabled
    trace.stage("dynamo_graph", DYNAMO_GRAPH)
    trace.stage("kernel", KERNEL_0, filename="kernel_0.cpp")
    trace.fusion(FORWARD_FUSION)
    trace.graph("after", [])
    trace.kernels([])
    trace.finish()
    assert os.listdir(tmp_path) == []


def test_graph_svg_layers_and_colors():
    nodes = [{"name": n, "op": op, "inputs": i, "kernel": k} for n, op, i, k in FORWARD_NODES]
    colors = {"k0_sin_cos_add": "#8dd3c7", "k1_sum": "#ffffb3"}
    svg = ET.fromstring(graph_svg(nodes, colors))
    ns = "{http://www.w3.org/2000/svg}"
    boxes = {g.find(f"{ns}text").text: g.find(f"{ns}rect") for g in svg.iter(f"{ns}g")}
    assert sorted(boxes) == ["buf0", "buf1", "buf2", "buf3", "buf4", "buf5", "primals_1"]
    y = {name: float(rect.get("y")) for name, rect in boxes.items()}
    assert y["primals_1"] < y["buf0"] == y["buf2"] < y["buf1"] < y["buf4"] < y["buf5"]
    assert boxes["buf0"].get("fill") == boxes["buf4"].get("fill") == "#8dd3c7"
    assert boxes["buf5"].get("fill") == "#ffffb3"
    assert len(svg.findall(f"{ns}path")) == 7  # x * x draws one arrow


def f_with_graph_break(x):
    y = torch.sin(x)
    print("a print is a graph break")
    return torch.cos(y)


def test_dynamo_graph_break_and_recompile_are_recorded(tmp_path, capsys):
    root = str(tmp_path)
    torch._dynamo.reset()
    install_dynamo_hooks(root)
    try:
        compiled = torch.compile(f_with_graph_break, backend="eager", dynamic=False)
        compiled(torch.randn(3))
        compiled(torch.randn(5))  # a new static shape fails the size guard: recompile
    finally:
        uninstall_dynamo_hooks()
        torch._dynamo.reset()
    assert "Graph break" not in capsys.readouterr().err  # recorded, not printed

    events = read(tmp_path / "dynamo_events.txt")
    breaks = re.findall(r"^=== graph break \[0/0\] ===\nGraph break in user code at .*test_report.py:\d+$",
                        events, re.M)
    assert len(breaks) == 1, events  # the recompile re-traces the same break: recorded once
    assert "`print`" in events
    assert re.search(r"^=== recompile \[0/1\] f_with_graph_break \(.*test_report.py:\d+\) ===\n"
                     r"0/0: tensor 'x' size mismatch at index 0. expected 3, actual 5$", events, re.M), events
    assert "Traceback (most recent call last)" not in events  # Dynamo's own stack is left out

    root_page = read(tmp_path / "index.html")
    assert "graph breaks: 1, recompiles: 2" in root_page  # f and its resume function after the break
    assert "size mismatch at index 0. expected 3, actual 5" in root_page


def run_python(code, **env):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=REPO,
                          env={**os.environ, "PYTHONPATH": REPO, **env})


LOG_SCRIPT = """
import sys, torch
from kiln.logs import configure_from_env, get_logger

def log_lines(setting):
    print(f"--- {setting}", file=sys.stderr)
    if setting is not None:
        torch._logging.set_logs()   # torch's settings back to none, as in a fresh process
        configure_from_env(setting)
    get_logger("fusion").info("fused buf1 into k0")
    get_logger("fusion").debug("scored buf1")
    get_logger("cache").info("cache hit")
    get_logger("fallback").warning("falling back to eager")

log_lines(None)  # as KILN_LOGS set it at import
for setting in ["", "+fusion,fallback", "all", "fusoin"]:
    log_lines(setting)
"""


def torch_log_lines(stderr):
    """torch's log lines ("I1125 03:46:48.018000 26923 kiln/x.py:459] [0/0] message") as "I message"."""
    return re.sub(r"^([VIWE])\d{4} [\d:.]+ \d+ \S+\](?: \[[^]]*\])* ", r"\1 ", stderr, flags=re.M)


def test_kiln_logs_env():
    # one interpreter, as importing kiln takes seconds: KILN_LOGS at import, then other settings
    stderr = torch_log_lines(run_python(LOG_SCRIPT, KILN_LOGS="cache").stderr)
    assert stderr.split("--- ")[1:] == [
        "None\nI cache hit\nW falling back to eager\n",
        "\nW falling back to eager\n",  # by default, only warnings
        "+fusion,fallback\nI fused buf1 into k0\nV scored buf1\nW falling back to eager\n",
        "all\nI fused buf1 into k0\nI cache hit\nW falling back to eager\n",
        "fusoin\nW kiln: unknown name 'fusoin' in KILN_LOGS; expected 'all' or fusion, codegen, cache, fallback, autotune\n"
        "W falling back to eager\n",
    ], stderr


FALLBACK_SCRIPT = "import torch; torch.compile(lambda x: torch.histc(x, bins=4).sin(), backend='kiln')(torch.randn(9))"


@pytest.mark.parametrize("env", [{"KILN_LOGS": "all"}, {"TORCH_LOGS": "kiln"}, {"KILN_LOGS": "fallback"}])
def test_logs_show_a_fallback_op(env):
    """A user who sets KILN_LOGS or TORCH_LOGS and only calls torch.compile(backend="kiln") sees the op that
    ran eagerly, once."""
    stderr = torch_log_lines(run_python(FALLBACK_SCRIPT, **env).stderr)
    assert stderr.count("I kiln: no lowering for aten.histc.default; it runs eagerly") == 1, stderr


def test_torch_logs_output_code_shows_kernels_and_wrapper():
    stderr = run_python("import torch; torch.compile(lambda x: x.sin() + 1, backend='kiln')(torch.randn(9))",
                        TORCH_LOGS="output_code").stderr
    assert "[__output_code] kiln output code for g0_inference:" in stderr, stderr
    assert re.search(r"\[__output_code\] extern \"C\" void kernel_sin_add_[0-9a-f]{10}\(", stderr), stderr   # the C++ kernel
    assert "[__output_code] def call(args):" in stderr, stderr                    # the wrapper


def test_kiln_channels_are_registered_with_torch():
    import logging

    from torch._logging._internal import log_registry   # (kiln registered them on import, above)
    assert log_registry.log_alias_to_log_qnames["kiln_fusion"] == ["kiln.fusion"]
    torch._logging.set_logs(modules={"kiln_cache": logging.DEBUG})
    try:
        assert logging.getLogger("kiln.cache").getEffectiveLevel() == logging.DEBUG
    finally:
        torch._logging.set_logs()


def test_report_serves_the_trace(tmp_path):
    write_example_trace(str(tmp_path))
    server = subprocess.Popen([sys.executable, "-c", "import sys; from kiln.tools.report import main_report; "
                               "main_report(sys.argv[1:])", str(tmp_path)],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=REPO,
                              env={**os.environ, "PYTHONPATH": REPO})
    try:
        address = re.search(r"http://127\.0\.0\.1:\d+/", server.stdout.readline()).group(0)
        with urllib.request.urlopen(address + "g0_forward/index.html", timeout=10) as response:
            assert "kiln trace: g0_forward" in response.read().decode()
    finally:
        server.terminate()
        server.wait(timeout=10)


def chromium(*args, tmp_path):
    """Run headless Chromium as CI does (as root, so without its sandbox)."""
    profile = tmp_path / "chromium-profile"
    return subprocess.run(
        ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         f"--user-data-dir={profile}", *args], capture_output=True, text=True, timeout=60, check=True)


@pytest.mark.skipif(shutil.which("chromium") is None, reason="needs chromium (apt-get install -y chromium)")
def test_report_renders_in_chromium(tmp_path):
    write_example_trace(str(tmp_path / "trace"))
    page = (tmp_path / "trace" / "g0_forward" / "index.html").as_uri()
    dom = chromium("--dump-dom", page, tmp_path=tmp_path).stdout
    for sid, heading in SECTIONS:
        assert re.search(rf"<section id=\"{sid}\">\s*<h2>{heading}</h2>", dom), heading
    # the pictures: the diagrams before and after fusion, and the cost bars (one per kernel or extern, two shades)
    assert dom.count("<svg") == 3 and "k0_sin_cos_add" in dom
    cost_svg = dom.split("<section id=\"cost\">")[1].split("</svg>")[0]
    assert cost_svg.count("<rect") == 6
    # every link of the page leads somewhere: an element of the page, or a file of the trace
    ids = set(re.findall(r' id="([^"]+)"', dom))
    for href in set(re.findall(r'href="([^"]+)"', dom)):
        if href.startswith("#"):
            assert href[1:] in ids, href
        else:
            assert (tmp_path / "trace" / "g0_forward" / href.split("#")[0]).exists(), href

    png = tmp_path / "report.png"
    chromium("--hide-scrollbars", "--window-size=1280,2000", f"--screenshot={png}", page, tmp_path=tmp_path)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 20000


def test_kiln_logs_applies_to_a_plain_compile():
    """KILN_LOGS works for a user who only imports kiln (kiln.logs was never imported by the package)."""
    stderr = run_python("import torch, kiln; kiln.compile(lambda x: x.sin() + 1)(torch.randn(4))",
                        KILN_LOGS="codegen").stderr
    assert "I kiln: compiled g0_inference" in torch_log_lines(stderr), stderr


HIDE_ENTRY_POINT = """
import importlib.metadata
found = importlib.metadata.entry_points
# a source checkout on PYTHONPATH: no installed package, so no torch_dynamo_backends entry point for kiln
importlib.metadata.entry_points = lambda **kw: importlib.metadata.EntryPoints(
    e for e in found(**kw) if e.name != "kiln") if kw.get("group") == "torch_dynamo_backends" else found(**kw)
"""


@pytest.mark.parametrize("user_code", [
    HIDE_ENTRY_POINT + "import torch, kiln",   # from a source checkout: registered on import
    "import torch",                            # installed: through the entry point, without import kiln
    "import torch; torch._dynamo.list_backends(); import kiln",   # entry point read, then kiln imported
], ids=["source-checkout", "entry-point", "entry-point-then-import"])
def test_backend_kiln_is_registered(user_code):
    done = run_python(user_code + "\nprint(torch.compile(lambda x: x.sin() * 2, backend='kiln')(torch.ones(3)))\n"
                      "from kiln.capture import kiln_backend\n"
                      "print(torch._dynamo.lookup_backend('kiln') is kiln_backend, 'kiln' in torch._dynamo.list_backends())")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "True True", done.stdout
