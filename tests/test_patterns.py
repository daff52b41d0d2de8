"""The attention rewrite (kiln/patterns.py): hand-written attention becomes one SDPA call.

kiln applies it to CUDA graphs only; here it is applied to CPU graphs through a small backend, so
that the matcher and the rewritten graph's numerics are tested without a GPU."""
import math

import pytest
import torch
import torch.nn.functional as F

from kiln.patterns import rewrite_attention
from kiln.tools.workloads import CausalSelfAttention, manual_softmax


def rewritten(fn, *inputs):
    """fn compiled by a backend that only applies the rewrite: (rewrites made, graph code, outputs)."""
    seen = []

    def backend(gm, example_inputs):
        seen.append(rewrite_attention(gm, device_types=("cpu",)))
        seen.append(gm.code)
        return gm.forward
    torch._dynamo.reset()
    out = torch.compile(fn, backend=backend, fullgraph=True)(*inputs)
    return seen[0], seen[1], out


def qkv(*shape):
    g = torch.Generator().manual_seed(0)
    return [torch.randn(*shape, generator=g) for _ in range(3)]


def test_gpt2_causal_attention_becomes_sdpa():
    m = CausalSelfAttention(64, 4, 16).eval()
    x = torch.randn(2, 16, 64)
    count, code, out = rewritten(m, x)
    assert count == 1 and "scaled_dot_product_attention" in code and "amax" not in code
    torch.testing.assert_close(out, m(x))


def test_attention_of_a_dtype_faster_as_written_stays(monkeypatch):
    """Attention in a (device, dtype) of WRITTEN_FASTER (CUDA's float32: SDPA's memory-efficient kernel took ViT's
    fp32 training 8.1 ms where the written form took ~5.7) is left as written; here the CPU's float32 stands in."""
    from kiln import patterns
    monkeypatch.setattr(patterns, "WRITTEN_FASTER", {("cpu", torch.float32)})
    m = CausalSelfAttention(64, 4, 16).eval()
    x = torch.randn(2, 16, 64)
    count, code, out = rewritten(m, x)
    assert count == 0 and "scaled_dot_product_attention" not in code
    torch.testing.assert_close(out, m(x))


@pytest.mark.parametrize("variant", ["softmax_mul", "manual_div", "additive_mask", "dropout_eval"])
def test_attention_spellings(variant):
    q, k, v = qkv(2, 3, 8, 16)
    mask = torch.randn(8, 8)

    def fn(q, k, v):
        if variant == "softmax_mul":
            return F.softmax(torch.matmul(q, k.transpose(-1, -2)) * 0.25, dim=-1) @ v
        if variant == "manual_div":
            return manual_softmax(q @ k.transpose(-2, -1) / math.sqrt(16)) @ v
        if variant == "additive_mask":
            return (q @ k.transpose(-2, -1) / 4 + mask).softmax(-1) @ v
        return F.dropout(torch.softmax(q @ k.transpose(-2, -1), -1), 0.3, training=False) @ v
    count, _, out = rewritten(fn, q, k, v)
    assert count == 1
    torch.testing.assert_close(out, fn(q, k, v))


@pytest.mark.parametrize("case", ["weights_returned", "three_d", "softmax_other_dim", "scale_before_mask_add",
                                  "floor_division"])
def test_not_attention(case):
    """Graphs the rewrite must leave alone: it would change what they compute or drop a result."""
    q, k, v = qkv(2, 3, 8, 16) if case != "three_d" else qkv(2, 8, 16)

    def fn(q, k, v):
        s = q @ k.transpose(-2, -1)
        if case == "weights_returned":
            p = s.softmax(-1)
            return p @ v, p
        if case == "softmax_other_dim":
            return s.softmax(-2) @ v
        if case == "scale_before_mask_add":
            return ((s + 1.0) / 4).softmax(-1) @ v
        if case == "floor_division":
            return torch.div(s, 4, rounding_mode="floor").softmax(-1) @ v
        return s.softmax(-1) @ v
    count, code, out = rewritten(fn, q, k, v)
    assert count == 0 and "scaled_dot_product_attention" not in code
    torch.testing.assert_close(out, fn(q, k, v))


def materialized_mask(kind, batch, length, dtype=torch.bool):
    """A mask as transformers 5.17 builds it under torch.compile, where it cannot look at the data: from
    aranges, broadcast over the batch (all True when nothing is padded; the causal triangle for decoders)."""
    q_idx, kv_idx = torch.arange(length)[:, None], torch.arange(length)[None, :]
    allowed = {"bidirectional": kv_idx >= 0, "causal": kv_idx <= q_idx, "window": (q_idx - kv_idx).abs() <= 2}[kind]
    allowed = allowed[None, None].expand(batch, -1, length, length)
    if dtype == torch.bool:
        return allowed
    return torch.zeros((), dtype=dtype).masked_fill(~allowed, torch.finfo(dtype).min)   # HF's additive form


@pytest.mark.parametrize("kind, dtype, expected", [("bidirectional", torch.bool, "is_causal = False"),
                                                   ("causal", torch.bool, "is_causal = True"),
                                                   ("causal", torch.float32, "is_causal = True")])
def test_constant_mask_is_folded(kind, dtype, expected):
    """An SDPA mask computed from no input is evaluated at compile time: all True is no mask, the causal
    triangle is is_causal=True. With a mask, SDPA cannot take flash attention (HF ViT and BERT on the H100
    ran the math form and held [B, H, L, L] matrices in fp32)."""
    q, k, v = qkv(2, 3, 8, 16)

    def fn(q, k, v):
        return F.scaled_dot_product_attention(q, k, v, attn_mask=materialized_mask(kind, 2, 8, dtype))
    count, code, out = rewritten(fn, q, k, v)
    assert count == 1 and "attn_mask" not in code and "arange" not in code and expected in code
    torch.testing.assert_close(out, fn(q, k, v))


@pytest.mark.parametrize("case", ["window", "from_input", "random"])
def test_mask_kept(case):
    """Masks that do something else than no mask or is_causal, or that depend on data, stay."""
    q, k, v = qkv(2, 3, 8, 16)
    padding = torch.ones(2, 8, dtype=torch.bool)
    padding[1, 6:] = False

    def fn(q, k, v, padding):
        if case == "window":
            mask = materialized_mask("window", 2, 8)
        elif case == "from_input":
            mask = padding[:, None, None, :].expand(2, 1, 8, 8)
        else:
            mask = torch.rand(8, 8) >= 0   # all True, but drawn: never evaluated at compile time
        return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    count, code, out = rewritten(fn, q, k, v, padding)
    assert count == 0 and "attn_mask" in code
    if case != "random":
        torch.testing.assert_close(out, fn(q, k, v, padding))


def test_sdpa_mask_gets_a_stride_one_last_dim():
    """The GPU's fused attention kernels need a mask whose last dim has stride 1, and torch chooses the kernel
    by the traced layout: a mask with another (BART's expanded padding mask, strides (0, 512, 1, 0) in the trace)
    took the math path and saved (batch, heads, L, S) matrices for the backward. The mask is made dense along
    its last dims, by keyword or by position; a dim it broadcasts before them stays broadcast (a dense copy over
    the heads would be the matrix this avoids); a mask with a stride-1 last dim, or a last dim of 1, is left."""
    q, k, v = qkv(2, 3, 8, 16)
    keep = torch.rand(2, 8) > 0.2
    bias = torch.randn(2, 1, 8, 1)

    def fn(q, k, v, keep, bias):
        return (F.scaled_dot_product_attention(q, k, v, attn_mask=keep[:, None, :, None].expand(2, 1, 8, 8)),
                F.scaled_dot_product_attention(q, k, v, bias.expand(2, 3, 8, 8)),   # broadcast over heads too
                F.scaled_dot_product_attention(q, k, v, keep[:, None, None, :]),
                F.scaled_dot_product_attention(q, k, v, bias))
    count, code, out = rewritten(fn, q, k, v, keep, bias)
    assert count == 2 and code.count(".contiguous()") == 2 and code.count(".narrow(1, 0, 1)") == 1, code
    for actual, expected in zip(out, fn(q, k, v, keep, bias)):
        torch.testing.assert_close(actual, expected)


def test_collectives_start_early_and_are_waited_for_late():
    """overlap_collectives: an all-reduce moves up to its input and its wait down to the first reader, so that
    the matmul between them runs while the data travels; collectives keep their order (every rank's)."""
    from kiln.patterns import overlap_collectives
    c10d, aten = torch.ops._c10d_functional, torch.ops.aten
    g = torch.fx.Graph()
    x, w = g.placeholder("x"), g.placeholder("w")
    y = g.call_function(aten.sin.default, (x,))
    m = g.call_function(aten.mm.default, (w, w))
    first = g.call_function(c10d.all_reduce.default, (y, "sum", "0"))
    first_done = g.call_function(c10d.wait_tensor.default, (first,))
    second = g.call_function(c10d.all_reduce.default, (x, "sum", "0"))
    second_done = g.call_function(c10d.wait_tensor.default, (second,))
    n = g.call_function(aten.mm.default, (m, m))
    out = g.call_function(aten.add.Tensor, (first_done, n))
    g.output((out, second_done))
    gm = torch.fx.GraphModule(torch.nn.Module(), g)
    assert overlap_collectives(gm) > 0
    order = [node.target for node in gm.graph.nodes]
    assert order == ["x", "w", aten.sin.default,
                     c10d.all_reduce.default, c10d.all_reduce.default,   # after the input, in order
                     aten.mm.default, aten.mm.default,                   # run while the data travels
                     c10d.wait_tensor.default, aten.add.Tensor,          # a wait just before its reader
                     c10d.wait_tensor.default, "output"]


def test_a_wait_does_not_move_past_a_write():
    """A copy_ into the input an all-gather reads (kept in a graph without gradients) stays after the wait: moved
    past it, the wait would let the copy overwrite what the collective may still be reading."""
    from kiln.patterns import overlap_collectives
    c10d, aten = torch.ops._c10d_functional, torch.ops.aten
    g = torch.fx.Graph()
    x = g.placeholder("x")
    gathered = g.call_function(c10d.all_gather_into_tensor.default, (x, 2, "0"))
    done = g.call_function(c10d.wait_tensor.default, (gathered,))
    doubled = g.call_function(aten.mul.Tensor, (x, 2))
    g.call_function(aten.copy_.default, (x, doubled))
    g.output((done,))
    gm = torch.fx.GraphModule(torch.nn.Module(), g)
    overlap_collectives(gm)
    order = [node.target for node in gm.graph.nodes]
    assert order.index(c10d.wait_tensor.default) < order.index(aten.copy_.default)


@pytest.mark.parametrize("pads, folded", [([1, 1, 1, 1], True), ([0, 0, 0, 0], True), ([2, 2], True),
                                          ([0, 1, 0, 1], False), ([1, 1, 1, 1, 1, 1], False)],
                         ids=["symmetric", "zero", "last_dim", "asymmetric", "channels"])
@pytest.mark.parametrize("padding", [1, [1]], ids=["int", "one_element_list"])
def test_a_zero_padded_input_is_padded_by_its_convolution(pads, folded, padding):
    """constant_pad_nd(x, pads, 0) read by a convolution becomes the convolution's own padding, where pads are
    spatial and as much before as after (HF MobileNetV2's TensorFlow "same" padding); otherwise it stays. A
    padding of one element is every spatial dim's (it had been taken for the last dim's alone)."""
    from torch.fx.experimental.proxy_tensor import make_fx

    from kiln.patterns import fold_padding_into_convolutions
    x, w = torch.randn(2, 3, 8, 8), torch.randn(4, 3 + 2 * (len(pads) > 4), 3, 3)   # (padded channels: 5)

    def fn(x, w):
        return F.conv2d(F.pad(x, pads), w, padding=padding)
    gm = make_fx(fn)(x, w)
    assert fold_padding_into_convolutions(gm) == int(folded)
    assert (gm.graph.find_nodes(op="call_function", target=torch.ops.aten.constant_pad_nd.default) == []) == folded
    torch.testing.assert_close(gm(x, w), fn(x, w))


def test_a_padded_input_read_elsewhere_too_is_kept_for_its_other_readers():
    from torch.fx.experimental.proxy_tensor import make_fx

    from kiln.patterns import fold_padding_into_convolutions
    x, w = torch.randn(2, 3, 8, 8), torch.randn(4, 3, 3, 3)

    def fn(x, w):
        padded = F.pad(x, [1, 1, 1, 1])
        return F.conv2d(padded, w), padded.sum()
    gm = make_fx(fn)(x, w)
    assert fold_padding_into_convolutions(gm) == 1
    assert len(gm.graph.find_nodes(op="call_function", target=torch.ops.aten.constant_pad_nd.default)) == 1
    for got, expected in zip(gm(x, w), fn(x, w)):
        torch.testing.assert_close(got, expected)


def scatter_onto_zeros(how, x, idx, v):
    if how == "index_put":
        return torch.zeros_like(x).index_put((idx,), v, accumulate=True)
    return torch.zeros_like(x).scatter_add(0, idx[:, None].expand(-1, x.shape[1]), v)


@pytest.mark.parametrize("how", ["index_put", "scatter_add"])
@pytest.mark.parametrize("first", [True, False], ids=["x_first", "scatter_first"])
def test_a_sum_with_a_scatter_onto_zeros_scatters_onto_the_sum(how, first):
    from torch.fx.experimental.proxy_tensor import make_fx

    from kiln.patterns import accumulate_scatters_into_sums
    x, idx, v = torch.randn(10, 4), torch.tensor([3, 1, 3, 9, 0]), torch.randn(5, 4)

    def fn(x, idx, v):
        s = scatter_onto_zeros(how, x, idx, v)
        return x * 2 + s if first else s + x * 2
    gm = make_fx(fn)(x, idx, v)
    assert accumulate_scatters_into_sums(gm) == 1
    assert [n.args[1] for n in gm.graph.find_nodes(op="call_function", target=torch.ops.aten.add.Tensor)] == [0]
    assert not gm.graph.find_nodes(op="call_function", target=torch.ops.aten.zeros_like.default)
    torch.testing.assert_close(gm(x, idx, v), fn(x, idx, v))


@pytest.mark.parametrize("case", ["scatter_read_elsewhere", "broadcast", "not_accumulated", "ones", "dtypes",
                                  "alpha", "bfloat16", "twice"])
def test_sums_a_scatter_cannot_take_stay(case):
    from torch.fx.experimental.proxy_tensor import make_fx

    from kiln.patterns import accumulate_scatters_into_sums
    x, idx, v = torch.randn(10, 4), torch.tensor([3, 1, 3, 9, 0]), torch.randn(5, 4)

    def fn(x, idx, v):
        if case == "scatter_read_elsewhere":
            s = scatter_onto_zeros("index_put", x, idx, v)
            return x + s, s * 3
        if case == "broadcast":
            return x[:1] + scatter_onto_zeros("index_put", x, idx, v)
        if case == "not_accumulated":
            return x + torch.zeros_like(x).index_put((idx,), v)
        if case == "ones":
            return x + torch.full_like(x, 1).index_put((idx,), v, accumulate=True)
        if case == "dtypes":
            return x.double() + scatter_onto_zeros("index_put", x, idx, v)
        if case == "bfloat16":   # (its values added onto x one by one would be lost: see the next test)
            return x.bfloat16() + scatter_onto_zeros("index_put", x.bfloat16(), idx, v.bfloat16())
        if case == "twice":   # (add(s, s): a lookup's gradient twice, made one by common subexpressions)
            s = scatter_onto_zeros("index_put", x, idx, v)
            return s + s
        return torch.add(x, scatter_onto_zeros("index_put", x, idx, v), alpha=2)
    gm = make_fx(fn)(x, idx, v)
    assert accumulate_scatters_into_sums(gm) == 0
    torch.testing.assert_close(gm(x, idx, v), fn(x, idx, v))


def test_values_scattered_onto_a_sum_keep_eagers_results():
    """Eager sums the values first and adds x once; the rewrite adds them onto x one by one, which it does only
    in float32 and wider (in bfloat16, 100 ones onto 256 stayed 256 where eager gives 356), and onto x + 0, which
    makes a -0.0 of x that no value reaches +0.0 as eager's x + zeros does (1 / it: inf, not -inf)."""
    from torch.fx.experimental.proxy_tensor import make_fx

    from kiln.patterns import accumulate_scatters_into_sums

    def fn(x, idx, v):
        return x + scatter_onto_zeros("index_put", x, idx, v)
    for x, v, rewritten in [(torch.full((4, 1), 256.0, dtype=torch.bfloat16), torch.ones(100, 1, dtype=torch.bfloat16),
                             False), (torch.full((4, 1), -0.0), torch.ones(100, 1), True)]:
        idx = torch.zeros(100, dtype=torch.long)
        gm = make_fx(fn)(x, idx, v)
        assert accumulate_scatters_into_sums(gm) == int(rewritten)
        got, expected = gm(x, idx, v), fn(x, idx, v)
        assert torch.equal(got, expected) and torch.equal(got.signbit(), expected.signbit()), (got, expected)


def test_a_lookups_gradient_taken_twice(check_grad):
    """x[i] read twice: the backward's two scatters onto zeros become one (common subexpressions), added to
    itself; that sum stays (its rewrite erased a node it still read, and the backward failed to compile)."""
    check_grad(lambda x, i: x[i].sum() + x[i].sum(), torch.randn(10, 4, requires_grad=True), torch.tensor([3, 1, 3, 9]))


def test_a_tied_embeddings_gradient_is_summed_in_one_buffer(built, check_grad):
    """A tied embedding's gradient is the output projection's product plus each lookup's scatter onto zeros:
    the compiled backward allocates no buffer of the embedding's size besides the product's (a library call's
    own on Triton), the scatters adding into it (it held the product, both scatters and the sum: BART's fp32
    training peaked ~300 MiB above eager's)."""
    vocab, dim = 300, 8
    weight, w = torch.randn(vocab, dim, requires_grad=True), torch.randn(dim, dim, requires_grad=True)
    a, b = torch.randint(vocab, (2, 6)), torch.randint(vocab, (2, 6))

    def fn(weight, w, a, b):
        h = torch.tanh(F.embedding(a, weight) @ w)
        g = torch.tanh(F.embedding(b, weight) @ w + h.mean(1, keepdim=True))
        return F.cross_entropy((g @ weight.t()).flatten(0, 1), b.flatten())
    check_grad(fn, weight, w, a, b)
    backward = built[-1].wrapper_source
    assert backward.count(f"_empty_cpu(({vocab}, {dim}, )") <= 1, backward
