"""Library calls and fallbacks whose output layout follows their arguments': kiln may lay the arguments out
otherwise than the trace did, so nothing downstream may assume the traced output strides (issue 24)."""
import os
import re

import pytest
import torch
import torch.nn.functional as F

from conftest import kiln_compile, run_and_compare
from kiln.lowering import extern_calls

B, N, H, D = 2, 5, 2, 16


def fused_qkv_attention(qkv):
    """timm's ViT/DeiT attention: one qkv projection, split by a permute and unbind."""
    b, n, _ = qkv.shape
    q, k, v = qkv.reshape(b, n, 3, H, D).permute(2, 0, 3, 1, 4).unbind(0)
    return F.scaled_dot_product_attention(q, k, v).transpose(1, 2).reshape(b, n, H * D)


def test_fused_qkv_attention_forward(check):
    check(fused_qkv_attention, torch.randn(B, N, 3 * H * D))


def test_fused_qkv_attention_backward(check_grad):
    check_grad(fused_qkv_attention, torch.randn(B, N, 3 * H * D, requires_grad=True))


def test_fused_qkv_attention_dynamic():
    """Symbolic sizes: the output layout cannot be planned on fake tensors, so the wrapper checks it."""
    compiled = kiln_compile(fused_qkv_attention, dynamic=True)
    for n in (N, N + 2, N + 3):
        x = torch.randn(B, n, 3 * H * D)
        torch.testing.assert_close(compiled(x), fused_qkv_attention(x), atol=1e-5, rtol=1e-5)


def test_wrapper_restrides_an_unplanned_layout(monkeypatch):
    """Without the plan from fake tensors, the wrapper's check alone keeps the result right."""
    monkeypatch.setattr(extern_calls, "propagated_strides", lambda *args: None)
    run_and_compare(fused_qkv_attention, [torch.randn(B, N, 3 * H * D)])


@pytest.mark.parametrize("own", [False, True], ids=["torch-op", "kilns-function"])
def test_only_torch_ops_run_on_fake_tensors_to_find_output_strides(own):
    """An extern's output strides, where kiln lays its arguments out otherwise than traced, are found by running it
    on fake tensors: only a torch op (or an OpThen of one) runs there. kiln's own runtime functions may launch its
    kernels (its Triton matmul, the aligned-rows blocks' transposed copy), which would write through a fake
    tensor's null pointer; for them the wrapper checks the layout the call returns."""
    import sympy
    from torch._subclasses.fake_tensor import FakeTensorMode
    from kiln import ir
    from kiln.lowering.externs import OpThen
    calls = []

    def kilns_function(a, b):   # (a stand-in: records that it ran)
        calls.append(a)
        return torch.mm(a, b)
    with FakeTensorMode():
        meta = torch.empty(4, 6)
    refs = [ir.TensorRef(ir.Buffer(name, ir.Layout(torch.float32, torch.device("cpu"), sizes, strides)), sizes, strides,
                         sympy.Integer(0)) for name, sizes, strides in (("a", [4, 5], [1, 4]), ("b", [5, 6], [6, 1]))]
    target = OpThen(kilns_function, None, "kiln's") if own else OpThen(torch.ops.aten.mm.default, None, "mm")
    strides = extern_calls.propagated_strides(meta, target, refs, {})
    assert (strides, calls) == ((None, []) if own else ([[6, 1]], []))


def test_output_keeps_eager_layout_after_an_in_place_update(check, check_grad):
    """y = x.clone(); y[..., ::2] = 5: functionalized, y is a `where` that traces row-major, but eager's y
    keeps x's transposed strides."""
    def fn(x):
        y = x.clone()
        y[..., ::2] = 5
        return y, y * 2
    check(fn, torch.randn(4, 6).t())
    check_grad(fn, torch.randn(4, 6).t().requires_grad_())



def test_view_of_a_saved_output_keeps_eager_layout(check, check_grad):
    """The same y, returned only as y.t() beside cumprod(y), which saves y for its backward: the saved y keeps
    the traced row-major layout, so y.t() must not be returned as a view of it (strides (1, 4), where eager's
    are (6, 1): fuzz seed 176565)."""
    def fn(x):
        y = x.clone()
        y[..., ::2] = 5
        return torch.cumprod(y, dim=1), y.t()
    check(fn, torch.randn(4, 6).t())
    check_grad(fn, torch.randn(4, 6).t().requires_grad_())

def test_fused_qkv_attention_reads_q_k_v_in_place(stats_delta):
    """q, k and v are strided views of the qkv projection, as eager passes them: no kernel copies them (a
    dim of size 1 left over from the unbind had kept the slices from staying views)."""
    delta = stats_delta()
    x = torch.randn(B, N, 3 * H * D)
    torch.testing.assert_close(kiln_compile(fused_qkv_attention)(x), fused_qkv_attention(x))
    assert delta["kernels_generated"] == 0 and delta["graphs_compiled"] == 1, repr(delta)


@torch.library.custom_op("kiln_test::strides_of", mutates_args=())
def strides_of(x: torch.Tensor) -> torch.Tensor:
    """A library call that sees its argument's layout, as memory-efficient attention checks its bias's."""
    return torch.tensor(x.stride(), dtype=torch.float32) + x.sum()


@strides_of.register_fake
def _(x):
    return x.new_empty(x.dim(), dtype=torch.float32)


@pytest.mark.parametrize("batch", [2, 1])
def test_extern_argument_keeps_traced_padding_and_broadcast(batch):
    """A pad-then-slice leaves rows padded, and an expand broadcasts (eager's SDPA does both to its mask on
    CUDA, for the memory-efficient kernel's 16-byte alignment): a library call gets the argument with the
    traced gaps and stride-0 dims, not densely packed (Swin's training step failed "attn_bias is not
    correctly aligned" on a dense copy of an expanded bias)."""
    def fn(x):
        return strides_of(F.pad(x * 2, (0, 3))[..., :5].expand(2, 3, 5))
    x = torch.randn(batch, 3, 5)
    torch.testing.assert_close(kiln_compile(fn)(x), fn(x))


def test_extern_argument_size_one_dims_keep_eager_strides():
    """A size-1 dim's stride is what eager's tensor has: cuDNN attention's backward rejected its [B, H, N, 1]
    logsumexp when the last stride was the span of the others ("the stride for the last dimension ... should
    be 1"), in six models' AMP training."""
    def fn(x):
        return strides_of(torch.logsumexp(x, -1, keepdim=True))
    x = torch.randn(2, 3, 4)
    torch.testing.assert_close(kiln_compile(fn)(x), fn(x))


@pytest.mark.parametrize("bias", [False, True], ids=["mm", "addmm"])
@pytest.mark.parametrize("train", [False, True], ids=["inference", "training"])
def test_matmul_with_misaligned_rows_runs_transposed(monkeypatch, built, check_grad, train, bias):
    """A product whose output rows are not 16-byte aligned (GPT-2's 50257 logits; with a bias, DeBERTa's 128100)
    is computed transposed, block by block of rows, on the devices of TRANSPOSED_MATMUL_DEVICES (the CPU here, so
    that CI runs the path), and read, returned with eager's strides, and differentiated as the product."""
    from kiln.lowering import externs
    monkeypatch.setattr(externs, "TRANSPOSED_MATMUL_DEVICES", {"cpu"})
    monkeypatch.setattr(externs, "TRANSPOSED_FROM", 1)   # (however small)
    monkeypatch.setattr(externs, "TRANSPOSED_MATMUL_DTYPES", {torch.float32})
    monkeypatch.setattr(externs, "LAST_ROWS", 4)

    def f(x, w, b):
        # 36 rows of 37 floats: rows misaligned, columns aligned (blocks of 16, 8, 4 and 4 rows, then the last 4
        # in blocks of 12 columns and 1)
        y = F.linear(x, w, b if bias else None)
        return y, torch.relu(y) * 2
    x, w, b = torch.randn(2, 18, 24), torch.randn(37, 24), torch.randn(37)
    if train:
        check_grad(lambda *xs: sum(o.sum() for o in f(*xs)), x.requires_grad_(), w.requires_grad_(),
                   b.requires_grad_())
    else:
        run_and_compare(f, [x, w, b])
    op = "aten.addmm.default (aligned rows" if bias else "aten.mm.default (aligned rows"
    assert any(op in c.wrapper_source for c in built)


INTERPRETED = pytest.mark.skipif(os.environ.get("TRITON_INTERPRET") != "1",
                                 reason="kiln's Triton matmul runs here under the interpreter: the suite's Triton half")


def misaligned_head(monkeypatch, tile_up_to=None):
    """A head whose rows are misaligned on the CPU standing in for CUDA, in float16 (the interpreter's)."""
    from kiln.lowering import externs
    monkeypatch.setattr(externs, "TRANSPOSED_MATMUL_DEVICES", {"cpu"})
    monkeypatch.setattr(externs, "TRANSPOSED_FROM", 1)
    if tile_up_to is not None:
        monkeypatch.setattr(externs, "TILE_UP_TO", tile_up_to)


@INTERPRETED
@pytest.mark.parametrize("bias", [False, True], ids=["mm", "addmm"])
@pytest.mark.parametrize("train", [False, True], ids=["inference", "training"])
def test_a_head_with_misaligned_rows_runs_as_kilns_matmul(monkeypatch, built, check_grad, train, bias):
    """A 16-bit product with misaligned output rows (a language model's head) and a short contraction is computed
    by kiln's Triton matmul, whose tiles store those rows directly (on an H200, GPT-2's head at 1024 rows: 167 us
    against the aligned-rows blocks' 466), and read, returned and differentiated as the product."""
    misaligned_head(monkeypatch)

    def f(x, w, b):   # 32 rows of 37 halves
        y = F.linear(x, w, b if bias else None)
        return y, torch.relu(y) * 2
    x, w, b = (torch.randn(2, 16, 24, dtype=torch.float16), torch.randn(37, 24, dtype=torch.float16),
               torch.randn(37, dtype=torch.float16))
    if train:
        check_grad(lambda *xs: sum(o.float().sum() for o in f(*xs)), x.requires_grad_(), w.requires_grad_(),
                   b.requires_grad_())
    else:
        run_and_compare(f, [x, w, b])
    assert any(f"aten.{'addmm' if bias else 'mm'} in kiln.runtime.matmul: tiles 128x128x64" in c.wrapper_source
               for c in built) and not any("aligned rows" in c.wrapper_source for c in built)


@INTERPRETED
@pytest.mark.parametrize("rows, k, tile", [(32, 24, False), (16, 24, True), (32, 16, True)])
def test_a_head_runs_as_kilns_matmul_where_its_rows_or_contraction_are_few(monkeypatch, built, rows, k, tile):
    """kiln's matmul trails the library's on large products; the aligned-rows blocks add a copy of the output: so a
    head runs as the matmul only where its rows or its contraction number at most TILE_UP_TO (16 here)."""
    misaligned_head(monkeypatch, tile_up_to=16)
    run_and_compare(lambda x, w: x @ w.t(), [torch.randn(rows, k, dtype=torch.float16),
                                           torch.randn(37, k, dtype=torch.float16)])
    assert ("kiln.runtime.matmul: tiles" in built[-1].wrapper_source) == tile
    assert ("aligned rows" in built[-1].wrapper_source) != tile


@INTERPRETED
@pytest.mark.parametrize("bias", [False, True], ids=["mm", "addmm"])
def test_kilns_matmul_is_built_ahead_as_its_first_call_launches_it(monkeypatch, bias):
    """The graph's record of kiln's matmul's launches (built ahead with its kernels on the GPU) holds the arguments
    its first call passes, as Triton's warmup takes them (tensors as their dtypes): a build of other arguments
    would leave the first call to build its own."""
    from kiln.runtime import matmul, module
    misaligned_head(monkeypatch)
    recorded, launched = [], []
    warmups, launch_args = module.matmul_warmups, matmul.launch_args
    monkeypatch.setattr(module, "matmul_warmups", lambda *a: recorded.append(warmups(*a)) or recorded[-1])
    monkeypatch.setattr(matmul, "launch_args", lambda *a: launched.append(launch_args(*a)) or launched[-1])
    x, w, b = (torch.randn(2, 16, 24, dtype=torch.float16), torch.randn(37, 24, dtype=torch.float16),
               torch.randn(37, dtype=torch.float16))
    run_and_compare(lambda x, w, b: F.linear(x, w, b if bias else None), [x, w, b])
    [[(config, _, args)]] = recorded
    assert config == (128, 128, 64, 3, 4)
    calls = [launch for _, launch in launched if not launch[0].is_meta]   # (not the record's own)
    assert [[a.dtype if isinstance(a, torch.Tensor) else a for a in launch] for launch in calls] == [args]


@INTERPRETED
@pytest.mark.parametrize("generated", [True, False], ids=["generated", "from-the-graph-cache"])
def test_kilns_matmul_builds_behind_only_for_a_graph_just_generated(monkeypatch, generated):
    """A graph just generated hands its matmul launches to the builds behind it, beside its kernels, on the build
    workers (its tile's file in their set); one loaded from the graph cache leaves them to Triton's cache at the
    first launch. (On the GPU: the interpreter builds nothing, so the loading is run here as if it did not.)"""
    import kiln.capture
    from kiln.config import Options
    from kiln.runtime import build_pool, matmul, module, triton_launch
    misaligned_head(monkeypatch)
    artifacts = []
    load = kiln.capture.load
    monkeypatch.setattr(kiln.capture, "load", lambda artifact, *a, **k: artifacts.append(artifact) or
                        load(artifact, *a, **k))
    run_and_compare(lambda x, w: x @ w.t(), [torch.randn(32, 24, dtype=torch.float16),
                                           torch.randn(37, 24, dtype=torch.float16)])
    [artifact] = artifacts
    behind = []
    monkeypatch.setattr(triton_launch, "interpreting", lambda: False)
    monkeypatch.setattr(triton_launch, "build_behind", lambda warmups, *a, **k: behind.append(warmups))
    monkeypatch.setattr(triton_launch, "load_c_launcher", lambda *a: None)
    module.load_triton(artifact, Options.make(None, {}), generated)
    launches = [w for warmups in behind for w in warmups if w[0] is matmul.launcher(artifact.products[0][0])]
    assert len(launches) == (1 if generated else 0)
    assert build_pool.joins(matmul.kernel())


@pytest.mark.parametrize("bias", [False, True], ids=["mm", "addmm"])
def test_a_product_with_misaligned_rows_takes_little_memory_beyond_its_output(monkeypatch, bias):
    """The blocks of an aligned-rows product are computed into the output's own rows not written yet: only its last
    rows (64 of 4096) take memory of their own, a quarter of their columns at a time (1/256 of the output, the
    columns rounded up to whole vectors). With a quarter of the rows beside the output, HF BERT's bf16 inference
    peaked at 304.5 MiB on an H200 against eager's 250.5; with the last 64 rows whole, DeBERTa-v2's at 1028.4
    against 1024.8."""
    from torch.utils._python_dispatch import TorchDispatchMode
    from kiln.lowering import externs

    class Allocations(TorchDispatchMode):   # the bytes of each fresh storage an op returns
        def __init__(self):
            super().__init__()
            self.sizes = []

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            result = func(*args, **(kwargs or {}))
            inputs = {t.untyped_storage().data_ptr() for t in torch.utils._pytree.tree_leaves((args, kwargs))
                      if isinstance(t, torch.Tensor)}
            self.sizes += [t.untyped_storage().nbytes() for t in torch.utils._pytree.tree_leaves(result)
                           if isinstance(t, torch.Tensor) and t.untyped_storage().data_ptr() not in inputs]
            return result
    a, w, b = torch.randn(4096, 24), torch.randn(301, 24), torch.randn(301)   # (4096 rows: the last 64 are 1/64)
    with Allocations() as seen:
        out = externs.aligned_rows_mm(a, w.t(), b if bias else None)
    torch.testing.assert_close(out, torch.addmm(b, a, w.t()) if bias else a @ w.t())
    assert seen.sizes[0] == out.untyped_storage().nbytes()
    assert max(seen.sizes[1:]) <= out.untyped_storage().nbytes() / 250


def test_a_small_product_with_misaligned_rows_runs_as_it_is(monkeypatch, built):
    """A classifier's head (32 images x 10 classes: rows of 40 bytes) is computed by one library call: in blocks,
    the 8 launches of HF ResNet's 2-class head took 600 us of host time at the end of its 1.6 ms inference step,
    where the library's kernel for misaligned rows takes a few us at that size."""
    from kiln.lowering import externs
    monkeypatch.setattr(externs, "TRANSPOSED_MATMUL_DEVICES", {"cpu"})
    monkeypatch.setattr(externs, "TRANSPOSED_MATMUL_DTYPES", {torch.float32})
    run_and_compare(F.linear, [torch.randn(32, 512), torch.randn(10, 512), torch.randn(10)])
    assert "aten.addmm.default" in built[-1].wrapper_source and "aligned rows" not in built[-1].wrapper_source


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_only_16_bit_products_with_misaligned_rows_run_transposed(monkeypatch, built, dtype):
    """cuBLAS's float32 kernels for misaligned rows ran faster than the transposed blocks (H200: BERT's head 3.8 ms
    against 4.6, GPT-2's 6.3 against 7.2); its 16-bit ones, tensor-core kernels, slower (0.82 against 0.65, 3.5
    against 0.92)."""
    from kiln.lowering import externs
    monkeypatch.setattr(externs, "TRANSPOSED_MATMUL_DEVICES", {"cpu"})
    monkeypatch.setattr(externs, "TRANSPOSED_FROM", 1)
    x, w = torch.randn(64, 24, dtype=dtype), torch.randn(37, 24, dtype=dtype)
    run_and_compare(lambda x, w: x @ w.t(), [x, w])   # (tolerances by dtype)
    assert ("aligned rows" in built[-1].wrapper_source) == (dtype == torch.bfloat16)


@pytest.mark.parametrize("rows, layout", [(64, "(1, 64, )"), (38, "(40, 1, )")], ids=["column-major", "padded"])
@pytest.mark.parametrize("train", [False, True], ids=["inference", "training"])
def test_a_computed_matrix_with_misaligned_rows_is_stored_aligned_for_its_matmuls(monkeypatch, built, check_grad,
                                                                                  train, rows, layout):
    """A matrix kiln computes for matmuls, with rows of 37 floats (148 bytes), is stored on the devices of
    PADDED_ROWS_DEVICES (the CPU here, so that CI runs the path) column-major where its 64 rows make 256-byte
    columns, else (38 rows) with rows padded to 40: cuBLAS read DeBERTa-v2's 128100-word logits' gradient, in its
    weight's and its input's gradients, with align-2 kernels at 1.6-3.2x the time. Read as itself and
    transposed, by the products and by a kernel, its values and gradients are eager's."""
    from kiln.lowering import externs
    monkeypatch.setattr(externs, "PADDED_ROWS_DEVICES", {"cpu"})
    monkeypatch.setattr(externs, "PADDED_FROM", 1)

    def f(x, w, h):
        g = torch.tanh(x) * 2
        return g @ w, g.t() @ h, g.sum(1)
    x, w, h = torch.randn(rows, 37), torch.randn(37, 8), torch.randn(rows, 5)
    if train:
        check_grad(lambda *xs: sum(o.sum() for o in f(*xs)), x.requires_grad_(), w.requires_grad_(), h)
    else:
        run_and_compare(f, [x, w, h])
    assert any(f"_empty_cpu(({rows}, 37, ), {layout}" in c.wrapper_source for c in built), built[-1].wrapper_source


@pytest.mark.parametrize("batch, seq, dtype, layout", [(2, 16, torch.float16, "(1, 32, )"),
                                                       (3, 13, torch.float64, "(38, 1, )")],
                         ids=["column-major", "padded"])
def test_a_misaligned_matrix_two_products_read_is_computed_once(monkeypatch, built, check_grad, batch, seq, dtype,
                                                                layout):
    """A language model head's logits' gradient, cast as under autocast, read by the weight's product transposed
    and by the input's product as itself, is computed once, in the aligned layout: GPT-2's, with rows padded,
    was written twice, by one kernel of two outputs. (float16, not bfloat16, whose casts Triton's interpreter
    rounds otherwise than eager; the padded case casts to float64: oneDNN's bfloat16 products on the CPU read a
    padded matrix's gaps, so the CPU is no device of PADDED_ROWS_DEVICES outside tests.)"""
    from kiln.lowering import externs
    monkeypatch.setattr(externs, "PADDED_ROWS_DEVICES", {"cpu"})
    monkeypatch.setattr(externs, "PADDED_FROM", 1)
    x, w = torch.randn(batch, seq, 16), torch.randn(37, 16)
    check_grad(lambda x, w: (x.to(dtype) @ w.to(dtype).t()).float().sum(), x.requires_grad_(), w.requires_grad_())
    backward = built[-1].wrapper_source
    assert backward.count(f"_empty_cpu(({batch * seq}, 37, ") == 1 and \
        f"_empty_cpu(({batch * seq}, 37, ), {layout}" in backward, backward


@pytest.mark.parametrize("case", ["one_query", "transposed_batch"])
def test_a_batched_matrix_keeps_a_unit_stride_matrix_dim(monkeypatch, built, check, case):
    """A bmm operand with misaligned rows is stored padded, not with a batch dim made unit-stride: one query's
    attention row [B*H, 1, S] (its other matrix dim has size 1) and a [L, B*H, d] value transposed into the bmm
    (the batch dim second-innermost) had no unit-stride matrix dim left, which ATen copies for cuBLAS at every
    call (a fresh reader's review)."""
    from kiln.lowering import externs
    monkeypatch.setattr(externs, "PADDED_ROWS_DEVICES", {"cpu"})
    monkeypatch.setattr(externs, "PADDED_FROM", 1)
    if case == "one_query":
        check(lambda p, v: torch.bmm(torch.softmax(p, -1), v), torch.randn(16, 1, 37), torch.randn(16, 37, 8))
        layout = "(16, 1, 37, ), (40, 37, 1, )"
    else:
        check(lambda a, w: torch.bmm(torch.tanh(a).transpose(0, 1), w), torch.randn(5, 16, 37), torch.randn(16, 37, 8))
        layout = "(16, 5, 37, ), (40, 640, 1, )"
    assert f"_empty_cpu({layout}" in built[-1].wrapper_source, built[-1].wrapper_source


def test_a_computed_bias_and_a_batch_other_calls_read_keep_their_layouts(monkeypatch, built, check):
    """Only a matmul's matrices take the aligned layout: addmm's computed [64, 37] bias stays row-major (cuBLAS
    copies it into the result), and a batch of matrices that a convolution reads too is computed once, in the
    traced layout both library calls take (a fresh reader's review)."""
    from kiln.lowering import externs
    monkeypatch.setattr(externs, "PADDED_ROWS_DEVICES", {"cpu"})
    monkeypatch.setattr(externs, "PADDED_FROM", 1)
    check(lambda b, x, w: torch.addmm(torch.tanh(b), x, w), torch.randn(64, 37), torch.randn(64, 8),
          torch.randn(8, 37))
    assert "_empty_cpu((64, 37, ), (37, 1, )" in built[-1].wrapper_source, built[-1].wrapper_source

    def conv_and_bmm(x, w):
        s = torch.tanh(x) * 2
        return F.conv1d(s, w), torch.bmm(s, s.transpose(1, 2))
    check(conv_and_bmm, torch.randn(4, 16, 37), torch.randn(8, 16, 3))
    assert built[-1].wrapper_source.count("_empty_cpu((4, 16, 37, )") == 1, built[-1].wrapper_source


@pytest.mark.parametrize("conv", ["2d", "1d", "transposed", "grouped"])
@pytest.mark.parametrize("train", [False, True], ids=["inference", "training"])
def test_convolution_bias_added_by_a_kernel(monkeypatch, built, check, check_grad, conv, train):
    """On the devices of BIAS_ADDED_APART (cuDNN's: the CPU here, so that CI runs the path), a convolution runs
    without its bias, and the bias is added over the channels by kiln's kernel of the output's consumer: one
    launch fewer per convolution, and the same values and gradients as eager's."""
    from kiln.lowering import externs
    monkeypatch.setattr(externs, "BIAS_ADDED_APART", {"cpu"})
    x, w, b, args = {
        "2d": (torch.randn(2, 6, 7, 5), torch.randn(4, 6, 3, 3), torch.randn(4),
               ([1, 2], [1, 0], [1, 1], False, [0, 0], 1)),
        "1d": (torch.randn(3, 4, 9), torch.randn(5, 4, 3), torch.randn(5), ([1], [1], [1], False, [0], 1)),
        "transposed": (torch.randn(2, 4, 5, 5), torch.randn(4, 3, 2, 2), torch.randn(3),
                       ([2, 2], [0, 0], [1, 1], True, [1, 1], 1)),
        # (grouped, not depthwise: a library call on every target)
        "grouped": (torch.randn(2, 6, 8, 8), torch.randn(6, 2, 3, 3), torch.randn(6),
                    ([1, 1], [1, 1], [1, 1], False, [0, 0], 3)),
    }[conv]

    def f(x, w, b):
        return F.gelu(torch.ops.aten.convolution(x, w, b, *args))
    if train:
        check_grad(lambda *xs: f(*xs).sum(), x.requires_grad_(), w.requires_grad_(), b.requires_grad_())
    else:
        check(f, x, w, b)
    sources = [c.wrapper_source for c in built if "aten.convolution.default" in c.wrapper_source]
    # the extern is called without the bias (a small convolution's product of its windows: mm, not addmm)
    assert sources and all(", None, [" in s or "aten.mm.default (aten.convolution.default" in s for s in sources)
    assert not any("aten.addmm" in s for s in sources), sources


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16, torch.float64, torch.int64, torch.complex64])
@pytest.mark.parametrize("shape", [(5, 7), (64, 64), (100, 37), (3, 130)])
@pytest.mark.parametrize("wide", [False, True], ids=["32-bit", "64-bit"])
@pytest.mark.parametrize("bias", [False, True], ids=["copy", "bias"])
def test_transposed_copy_kernel(monkeypatch, dtype, shape, wide, bias):
    """The tiled kernel that copies an aligned-rows product's transposed blocks into the output (run here by
    Triton's interpreter) writes exactly the block's rows, partial tiles included, and nothing around them; so
    does its variant with 64-bit offsets (used past 2**31 elements, here forced). Complex blocks, which Triton has
    no type for, are copied by ATen. With a bias, each column gets its bias, added in float32 and rounded once
    (float64 blocks by ATen, in their own precision)."""
    from kiln.runtime import transposed_copy
    from kiln.runtime.transposed_copy import copy_transposed, kernel
    monkeypatch.setenv("TRITON_INTERPRET", "1")
    if wide:
        monkeypatch.setattr(transposed_copy, "WIDE_FROM", 0)
    kernel.cache_clear()   # (built under the interpreter)
    m, n = shape
    product = (torch.randn(n, m) * 100).to(dtype)
    b = (torch.randn(n) * 100).to(dtype) if bias else None
    out = torch.full((m + 2, n), -1).to(dtype)
    copy_transposed(out[1:m + 1], product.t(), b)
    kernel.cache_clear()
    # (with a bias, a float64 block is left to ATen: the kernel adds in float32)
    expected = product.t() if b is None else (product.t().float() + b.float()).to(dtype) \
        if dtype in transposed_copy.BIAS_DTYPES else product.t() + b
    if b is not None and dtype == torch.bfloat16:   # (Triton's interpreter rounds float32 to bf16 toward 0)
        torch.testing.assert_close(out[1:m + 1], expected, atol=0, rtol=2 ** -7)
    else:
        assert torch.equal(out[1:m + 1], expected)
    assert (out[0] == -1).all() and (out[-1] == -1).all()


SMALL_CONVOLUTIONS = {   # x, weight, bias, stride, padding, dilation (one group: as matrix products where small)
    "1x1 bias": (torch.randn(2, 6, 7, 5), torch.randn(4, 6, 1, 1), torch.randn(4), [1, 1], [0, 0], [1, 1]),
    "1x1 no bias": (torch.randn(3, 5, 4, 4), torch.randn(7, 5, 1, 1), None, [1, 1], [0, 0], [1, 1]),
    "1x1 stride 2": (torch.randn(2, 6, 7, 5), torch.randn(4, 6, 1, 1), None, [2, 2], [0, 0], [1, 1]),
    "1x1 one-element stride": (torch.randn(2, 6, 6, 6), torch.randn(4, 6, 1, 1), torch.randn(4), [3], [0], [1]),
    "1x1 one pixel": (torch.randn(2, 8, 1, 1), torch.randn(3, 8, 1, 1), torch.randn(3), [1, 1], [0, 0], [1, 1]),
    "1x1 uneven stride": (torch.randn(2, 6, 7, 9), torch.randn(4, 6, 1, 1), None, [2, 3], [0, 0], [1, 1]),
    "1x1 empty batch": (torch.randn(0, 6, 5, 5), torch.randn(4, 6, 1, 1), torch.randn(4), [2, 2], [0, 0], [1, 1]),
    "3x3 padded": (torch.randn(2, 6, 8, 7), torch.randn(5, 6, 3, 3), torch.randn(5), [1, 1], [1, 1], [1, 1]),
    "3x3 unpadded": (torch.randn(2, 6, 8, 7), torch.randn(5, 6, 3, 3), None, [1, 1], [0, 0], [1, 1]),
    "3x3 stride 2, odd size": (torch.randn(2, 6, 9, 8), torch.randn(7, 6, 3, 3), None, [2, 2], [1, 1], [1, 1]),
    "3x3 dilated": (torch.randn(2, 4, 9, 9), torch.randn(5, 4, 3, 3), torch.randn(5), [1, 1], [2, 2], [2, 2]),
    "uneven window, stride and padding": (torch.randn(2, 4, 9, 10), torch.randn(5, 4, 3, 2), None, [2, 3], [1, 0],
                                          [1, 1]),
    "7x7 stem": (torch.randn(2, 3, 8, 8), torch.randn(4, 3, 7, 7), None, [2, 2], [3, 3], [1, 1]),
    "patches": (torch.randn(2, 3, 16, 16), torch.randn(8, 3, 4, 4), torch.randn(8), [4, 4], [0, 0], [1, 1]),
    "patches, rows left over": (torch.randn(2, 3, 11, 10), torch.randn(8, 3, 4, 4), None, [4, 4], [0, 0], [1, 1]),
    "windows apart, padded": (torch.randn(2, 4, 9, 9), torch.randn(5, 4, 2, 2), None, [3, 3], [1, 1], [1, 1]),
    "windows apart, dilated": (torch.randn(2, 4, 9, 9), torch.randn(5, 4, 2, 2), None, [3, 3], [0, 0], [2, 2]),
    "dilated patches": (torch.randn(2, 4, 8, 8), torch.randn(5, 4, 2, 2), None, [2, 2], [0, 0], [2, 2]),
}


@pytest.mark.parametrize("case", SMALL_CONVOLUTIONS)
@pytest.mark.parametrize("train", [False, True], ids=["inference", "training"])
def test_small_convolution_runs_as_a_matrix_product(built, check, check_grad, case, train):
    """A small convolution on the CPU is a product of its windows with the weight (oneDNN's per-call set-up cost
    small ones 2-3x the product's time), forward and backward: eager's values, gradients and the layouts of the
    parameters' gradients, for windows that overlap, tile the input, leave pixels unread or read padding."""
    x, w, b, stride, padding, dilation = SMALL_CONVOLUTIONS[case]

    def f(x, w, b):
        return F.gelu(torch.ops.aten.convolution(torch.tanh(x), w, b, stride, padding, dilation, False, [0, 0], 1))
    inputs = (x, w) if b is None else (x, w, b)
    g = (lambda x, w: f(x, w, None)) if b is None else f
    if train:
        check_grad(lambda *xs: g(*xs).sum(), *(t.clone().requires_grad_() for t in inputs))
    else:
        check(g, *inputs)
    sources = [c.wrapper_source for c in built]
    assert any("convolution.default as a product of its windows" in s for s in sources), sources
    assert not train or any("convolution_backward.default as a product of its windows" in s for s in sources), sources
    assert not any("aten.convolution.default (channels-last)" in s for s in sources)


def test_a_linear_and_a_convolution_of_one_product_build_one_function(built, check):
    """A linear and a 1x1 convolution over the same rows become the same BLAS call: one function, named by its
    body's hash. The module held it twice, once per op that made it (their comments differ), and failed to build
    (timm MaxViT, found by the session-81 zoo sweep); the graph ran eagerly."""
    def f(t, weight, bias):
        image = t.reshape(1, 4, 4, 16).permute(0, 3, 1, 2)   # channels-last in memory
        a = F.conv2d(image, weight[:, :, None, None], bias).flatten(2).transpose(1, 2)
        return a.relu() + F.linear(t * 2, weight, bias).sigmoid()
    check(f, torch.randn(1, 16, 16), torch.randn(32, 16), torch.randn(32))
    if os.environ.get("KILN_TARGET") == "triton":   # (BLAS products are the C++ modules')
        return
    defined = re.findall(r"extern \"C\" void (blas_\w+)\(", built[-1].kernel_source)
    called = re.findall(r"(blas_\w+)\(", built[-1].wrapper_source)
    assert len(called) == 2 and len(set(called)) == 1 and defined == called[:1], (defined, called)


def test_convolutions_as_products_match_eager_on_random_shapes(built, check_grad):
    """conv_products' windows, products and gradients against eager's convolution and its backward, on random
    windows, strides, paddings (within the window's reach), dilations and sizes: windows that overlap, tile, skip
    pixels or leave rows unread, with and without a bias; 24 convolutions in one graph (one compile)."""
    g = torch.Generator().manual_seed(0)

    def pick(*options):
        return options[int(torch.randint(len(options), (), generator=g))]
    cases, shapes, tensors = [], [], []
    for _ in range(24):
        window, stride, dilation = ([pick(1, 2, 3, 4) for _ in range(2)] for _ in range(3))
        dilation = [pick(1, d) for d in dilation]
        padding = [pick(0, (d * (k - 1)) // 2, d * (k - 1)) for k, d in zip(window, dilation)]
        size = [max(1, d * (k - 1) + 1 - 2 * p) + pick(0, 1, 2, 5) for k, d, p in zip(window, dilation, padding)]
        n, c, k = pick(1, 2), pick(1, 3), pick(1, 4)
        bias = pick(True, False)
        cases.append((stride, padding, dilation, bias))
        shapes.append((c, k))
        tensors += [torch.randn(n, c, *size, generator=g), torch.randn(k, c, *window, generator=g)] + \
            ([torch.randn(k, generator=g)] if bias else [])

    def f(*ts):
        ts, total = list(ts), 0
        for stride, padding, dilation, bias in cases:
            x, w, b = ts.pop(0), ts.pop(0), ts.pop(0) if bias else None
            y = torch.ops.aten.convolution(torch.tanh(x), w, b, stride, padding, dilation, False, [0, 0], 1)
            total = total + (F.gelu(y) * torch.arange(y.numel()).view(y.shape).sin()).sum()
        return total
    check_grad(f, *(t.requires_grad_() for t in tensors))
    [forward, backward] = [c.wrapper_source for c in built]
    # (one input and one output channel in one group is no depthwise convolution: eager multiplies its padding)
    assert forward.count("convolution.default as a product of its windows") == 24, forward
    assert "aten.convolution" not in backward.replace("convolution_backward.default as a product", ""), backward


@pytest.mark.parametrize("layout", ["NCHW", "channels-last", "a slice"])
def test_a_patch_embedding_of_the_callers_image_is_a_product_of_its_windows_as_laid_out(built, check, layout,
                                                                                         monkeypatch):
    """An inference graph's convolution of its input image with fewer output elements than it (a patch embedding)
    reads the image as the caller laid it out: the kernel gathering the product's windows reads it there, with no
    channels-last copy of the image first (the image is read by that kernel alone). (Each launch a call of its own,
    to read the wrapper's lines.)"""
    from kiln.runtime import wrapper
    monkeypatch.setattr(wrapper, "RUN_BYTES", 0)
    x = torch.randn(3, 3, 16, 17)
    x = {"NCHW": x, "channels-last": x.contiguous(memory_format=torch.channels_last), "a slice": x[1:, :, :, 1:]}[layout]
    w, b = torch.randn(8, 3, 4, 4), torch.randn(8)
    check(lambda x, w, b: F.gelu(F.conv2d(x, w, b, stride=4)), x, w, b)
    source = built[-1].wrapper_source
    lines = source.splitlines()
    [gather] = [line for line in lines if "arg0_1" in line and "= args" not in line and "del " not in line]
    # the product (addmm: the bias, the windows, the weight): ATen's call, or BLAS's from the C++ module
    windows = re.search(r"(?:_c\d+\(arg2_1, |blas_addmm_\w+\()(buf\d+)\b.*convolution.default as a product of its "
                        r"windows", source)
    assert windows and "convolution" in gather and re.search(rf"\b{windows[1]}\b", gather), source


@pytest.mark.parametrize("window, shape", [(1, (2, 6, 5, 5)), (3, (2, 6, 5, 5)), (3, (2, 1, 5, 6)), (1, (2, 3, 1, 1)),
                                           (2, (2, 1, 4, 4))], ids=["1x1", "3x3", "one channel", "one pixel",
                                                                    "windows apart, one channel"])
def test_convolution_gradients_as_products_keep_parameter_strides(window, shape):
    """The weight's and bias's gradients leave the graph with their parameters' strides (DDP's buckets compare
    them, size-1 dims too), and the input's with eager's layout, size-1 dims too (one channel or one pixel, where
    channels-last and NCHW are the same memory: given channels-last strides there, an input parameter's .grad
    kept them)."""
    apart = window == 2   # (a 2x2 window at stride 2)
    conv = torch.nn.Conv2d(shape[1], 4, window, padding=0 if apart else window // 2, stride=2 if apart else 1)
    x = torch.randn(*shape, requires_grad=True)
    kiln_compile(conv)(x).sum().backward()
    assert conv.weight.grad.stride() == conv.weight.stride() and conv.bias.grad.stride() == conv.bias.stride()
    assert x.grad.stride() == x.stride()


@pytest.mark.parametrize("case", ["large", "wide windows", "padding past the window", "grouped", "no input channels"])
def test_other_convolutions_stay_library_calls(built, check, check_grad, case):
    """Above MATMUL_CONVOLUTION_UP_TO multiply-adds (oneDNN is as fast or faster there), with more than WINDOWS_UP_TO
    elements of windows to copy, padding past the window's reach, groups or no input channels, a convolution stays
    oneDNN's, with eager's gradients (zero channels: the bias's gradient has the bias's size, where a product of the
    traced gradient's rows would have none)."""
    x, w, padding, groups = {
        "large": (torch.randn(2, 64, 32, 32), torch.randn(64, 64, 1, 1), [0, 0], 1),
        "wide windows": (torch.randn(2, 8, 40, 40), torch.randn(2, 8, 3, 3), [1, 1], 1),   # 2 x 1600 x 72
        "padding past the window": (torch.randn(2, 6, 5, 5), torch.randn(4, 6, 3, 3), [3, 3], 1),
        "grouped": (torch.randn(2, 6, 5, 5), torch.randn(4, 3, 1, 1), [0, 0], 2),
        "no input channels": (torch.randn(2, 0, 5, 5), torch.randn(4, 0, 1, 1), [0, 0], 1),
    }[case]
    check(lambda x, w: torch.ops.aten.convolution(torch.tanh(x), w, None, [1, 1], padding, [1, 1], False, [0, 0],
                                                  groups), x, w)
    sources = [c.wrapper_source for c in built]
    assert not any("conv_products" in s for s in sources) and any("aten.convolution.default" in s for s in sources)
    if case == "no input channels":
        check_grad(lambda x, w, b: F.gelu(F.conv2d(x.tanh(), w, b)).sum(), x.requires_grad_(), w.requires_grad_(),
                   torch.randn(4, requires_grad=True))


def test_a_backward_with_many_windows_of_the_gradient_stays_a_library_call(built, check_grad):
    """Where windows overlap, the input's gradient is the transposed convolution, a product of the output
    gradient's windows: past WINDOWS_UP_TO elements of them (16 output channels of one input's), the backward stays
    oneDNN's while the forward, with 16 times fewer, is a product; eager's gradients either way."""
    x, w = torch.randn(2, 1, 32, 32, requires_grad=True), torch.randn(16, 1, 3, 3, requires_grad=True)
    check_grad(lambda x, w: F.gelu(F.conv2d(x.tanh(), w, padding=1)).sum(), x, w)
    sources = [c.wrapper_source for c in built]
    assert any("convolution.default as a product of its windows" in s for s in sources), sources
    assert not any("convolution_backward.default as a product of its windows" in s for s in sources), sources
    assert any("aten.convolution_backward.default (channels-last)" in s for s in sources), sources


@pytest.mark.parametrize("train", [False, True], ids=["inference", "training"])
def test_a_bias_read_only_by_elementwise_ops_is_added_by_them(monkeypatch, built, check, check_grad, train):
    """On the devices of UNFUSED_BIAS_DEVICES (the CPU here, so that CI runs the path), a product whose users are
    all elementwise is computed alone, its bias added in their kernels: cuBLASLt's float32 bias epilogue ran in
    slower kernels than cuBLAS's product (H200: BERT's [4096, 3072] x [3072, 768], 497 us a layer against 413). A
    product the graph returns, or that a training forward saves for its backward (GELU's input), keeps its bias:
    added by its users, it would be stored with the bias in a pass of its own."""
    from kiln.lowering import externs
    monkeypatch.setattr(externs, "UNFUSED_BIAS_DEVICES", {("cpu", torch.float32)})

    def f(x, w1, b1, w2, b2):
        hidden = F.gelu(F.linear(x, w1, b1))   # (its input saved by a training forward)
        return F.linear(hidden, w2, b2) + x, F.linear(x, w2.t(), b1)   # (a residual add; a product returned)
    x, w1, b1, w2, b2 = torch.randn(3, 5, 16), torch.randn(32, 16), torch.randn(32), torch.randn(16, 32), \
        torch.randn(16)
    if train:
        check_grad(lambda *a: sum(o.sum() for o in f(*a)), *(t.requires_grad_() for t in (x, w1, b1, w2, b2)))
    else:
        check(f, x, w1, b1, w2, b2)
    graph_source = next(c.wrapper_source for c in built if ("_forward" if train else "_inference") in c.wrapper_source)
    calls = re.findall(r"# (aten\.\w+)\.default", graph_source)
    assert (calls.count("aten.mm"), calls.count("aten.addmm")) == ((1, 2) if train else (2, 1))


def library_products(a, b, c, bias, nan_bias, batched, batched_t):
    """Products of operands as they lie in memory (transposed, sliced at an offset and with gaps between rows,
    size-1 dims, an empty contraction, broadcast) and of biases broadcast each way, scaled."""
    return (a @ b, a.t()[:3].t() @ b[:3], b.t() @ a.t(), a[2:, 1:] @ c[1:5, 2:], a[:1] @ b, a @ b[:, :1],
            a[:, :1] @ b[:1], a[:, :0] @ b[:0], torch.addmm(bias, a, b), torch.addmm(bias[:1], a, b, alpha=0.5),
            torch.addmm(c[:a.shape[0], :1], a, b, beta=2), torch.addmm(nan_bias, a, b, beta=0),
            torch.addmm(bias, a[:, :0], b[:0], beta=3), a @ bias.unsqueeze(1).expand(-1, b.shape[1])[:b.shape[0]],
            torch.bmm(batched, batched_t.transpose(1, 2)), torch.bmm(batched[:, 1:], batched_t[:, :3].transpose(1, 2)),
            torch.baddbmm(batched[:, :, :4], batched, batched_t.transpose(1, 2)[:, :, :4], alpha=0.25, beta=-1),
            torch.addmm(bias, a.abs() + 1, b, alpha=float("inf")))   # (ATen's call: inf is no C literal)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_products_the_cpp_module_calls_blas_for_match_eager(dtype, built):
    """On the CPU, a product whose operands and output BLAS reads as they lie is called by kiln's C++ module
    (codegen.cpp_products), into memory the wrapper allocates; any other stays ATen's call. Each layout against
    eager and the fp64 reference: BLAS's transposes, leading dims, offsets, the bias's broadcast, beta 0 (a NaN
    bias unread, as eager's), an empty contraction (beta times the bias, or zeros)."""
    m, k, n = 6, 5, 7
    a, b, c = (torch.randn(s, dtype=dtype) for s in ((m, k), (k, n), (m + 2, n + 2)))
    bias, nan_bias = torch.randn(n, dtype=dtype), torch.full((m, n), float("nan"), dtype=dtype)
    batched, batched_t = torch.randn(3, 4, k, dtype=dtype), torch.randn(3, 6, k, dtype=dtype)
    run_and_compare(library_products, [a, b, c, bias, nan_bias, batched, batched_t])
    if os.environ.get("KILN_TARGET") != "triton":
        calls = re.findall(r"^\s+blas_(\w+?)_\w+\(", built[-1].wrapper_source, re.M)
        # every product but the broadcast one (and those kiln computes otherwise: no contraction)
        assert len(calls) >= 12 and {"mm", "addmm", "bmm"} <= set(calls), built[-1].wrapper_source
        assert "aten.mm.default" in built[-1].wrapper_source   # (the broadcast matrix: ATen's call, as labelled)

