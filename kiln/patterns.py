"""Pattern rewrites on Dynamo's FX graph, before AOTAutograd, and one on the ATen graphs after it.

Dropout that drops nothing becomes its input, as in eager (rewrite_identity_calls).

Identical computations of an ATen graph become one (eliminate_common_subexpressions).

Collectives of an ATen graph start early and are waited for late (overlap_collectives).

A convolution of a zero-padded input pads it itself (fold_padding_into_convolutions).

A sum of x and a scatter-add onto zeros scatters onto x (accumulate_scatters_into_sums).

A CPU scalar that an ATen graph computes for its GPU ops is computed on the GPU (scalars_on_their_readers_device).

Attention written by hand, softmax(q @ k^T * scale [masked]) [dropout] @ v, becomes one call to
F.scaled_dot_product_attention. On a GPU that is a fused flash / memory-efficient kernel that never
writes the (L, S) score matrix, forward or backward; fusing the hand-written ops cannot avoid it,
because the softmax sits between two matmuls. The rewrite happens before AOTAutograd, so the
backward graph uses the fused attention's own backward.

The graph is torch-level (Dynamo), so one operation has several spellings (operator.matmul,
torch.matmul, Tensor.matmul, ...): `kind` maps each node to one name, and the matcher walks back
from the softmax.
"""
import logging
import math
import operator

import torch
import torch.nn.functional as F
from torch._subclasses.fake_tensor import FakeTensor, unset_fake_temporarily
from torch.multiprocessing.reductions import StorageWeakRef

log = logging.getLogger("kiln.fusion")

KINDS = {"bmm": "matmul", "truediv": "div", "invert": "not", "logical_not": "not", "bitwise_not": "not"}


def kind(n):
    """What an FX node computes, whatever its spelling: 'matmul', 'softmax', 'div', ... or None."""
    if n.op == "call_function":
        name = getattr(n.target, "__name__", "")
    elif n.op == "call_method":
        name = n.target
    else:
        return None
    return KINDS.get(name, name)


def arg(n, i, name, default=None):
    return n.args[i] if len(n.args) > i else n.kwargs.get(name, default)


def value(n):
    return n.meta.get("example_value") if isinstance(n, torch.fx.Node) else None


def is_last_dim(n, dim):
    v = value(n)
    return v is not None and dim in (-1, v.dim() - 1)


def only_feeds(node, users):
    """node's result goes nowhere else, so replacing its consumers makes it dead."""
    return all(u in users for u in node.users)


def match_softmax(p):
    """(scores, ops) if p = softmax(scores, -1), as F.softmax or as exp(x - amax) / sum: the nodes in between."""
    if kind(p) == "softmax" and is_last_dim(p, arg(p, 1, "dim")) and len(p.args) <= 2 and "dtype" not in p.kwargs:
        return p.args[0], [p]
    if kind(p) != "div" or len(p.args) != 2 or p.kwargs or not all(isinstance(a, torch.fx.Node) for a in p.args):
        return None
    e, total = p.args
    if kind(total) != "sum" or total.args[0] is not e or not is_last_dim(e, arg(total, 1, "dim")) \
            or not arg(total, 2, "keepdim", False):
        return None
    if kind(e) != "exp" or kind(e.args[0]) != "sub":
        return None
    x, top = e.args[0].args
    if kind(top) != "amax" or top.args[0] is not x or not is_last_dim(x, arg(top, 1, "dim")) \
            or not arg(top, 2, "keepdim", False):
        return None
    return x, [p, total, e, e.args[0], top]


def match_attention(out):
    """The SDPA call's arguments if out = softmax(q @ k^T ...) @ v, else None: (q, k, v, mask, dropout, scale)."""
    if kind(out) != "matmul" or len(out.args) != 2:
        return None
    p, v = out.args
    dropout = 0.0
    chain = []
    if kind(p) == "dropout":
        if arg(p, 2, "training", True):
            dropout = arg(p, 1, "p", 0.5)
        chain.append(p)
        p = p.args[0]
    soft = match_softmax(p)
    if soft is None:
        return None
    s, ops = soft
    chain += ops
    mask = None
    if kind(s) == "masked_fill" and arg(s, 2, "value") == -math.inf:
        mask = ("not", s.args[1])   # masked_fill fills where True; SDPA attends where True
        chain.append(s)
        s = s.args[0]
    elif kind(s) == "add" and value(s.args[1]) is not None and value(s.args[1]).is_floating_point():
        mask = ("add", s.args[1])   # an additive float mask, added after the scale, as SDPA adds it
        chain.append(s)
        s = s.args[0]
    scale = 1.0
    if kind(s) in ("div", "mul") and len(s.args) == 2 and isinstance(s.args[1], (int, float)) and not s.kwargs:
        scale = 1.0 / s.args[1] if kind(s) == "div" else float(s.args[1])
        chain.append(s)
        s = s.args[0]
    if kind(s) != "matmul":
        return None
    q, kt = s.args
    if kind(kt) != "transpose" or sorted(d % value(kt).dim() for d in kt.args[1:3]) != [value(kt).dim() - 2,
                                                                                        value(kt).dim() - 1]:
        return None
    chain.append(s)
    users = set(chain) | {out}
    if not all(only_feeds(n, users) for n in chain):
        return None
    return q, kt.args[0], v, mask, dropout, scale


# (device type, dtype) of attention left as written: on CUDA, SDPA's one float32 kernel (memory-efficient) took 8.1
# ms of ViT-base's fp32 training step, where Inductor's written form of the same attention (cuBLAS's batched products
# and a softmax kernel) took ~5.7 (bench/NOTES.md 54; BERT's fp32 step: 8.4 ms, item 46). Flash attention, the
# half-precision kernel, is what the rewrite is for.
WRITTEN_FASTER = {("cuda", torch.float32)}


def supported(q, k, v, device_types):
    """Shapes a fused attention kernel takes: 4-D (batch, heads, seq, head dim), head dim at most 256; not in a
    dtype whose attention runs faster as written (WRITTEN_FASTER)."""
    q, k, v = value(q), value(k), value(v)
    if q is None or k is None or v is None or q.device.type not in device_types or \
            (q.device.type, q.dtype) in WRITTEN_FASTER:
        return False
    return (q.dim() == k.dim() == v.dim() == 4 and q.dtype == k.dtype == v.dtype and q.shape[-1] == k.shape[-1]
            and isinstance(q.shape[-1], int) and q.shape[-1] <= 256 and v.shape[-1] <= 256
            and q.shape[:-2] == k.shape[:-2] == v.shape[:-2] and q.dtype in (torch.float16, torch.bfloat16,
                                                                              torch.float32))


def rewrite_identity_calls(gm):
    """Replaces dropout that drops nothing (p == 0, or not training) by its input; returns how many.

    Eager returns the input itself there, but torch's decomposition of aten.dropout returns a copy, whose
    layout is a fresh buffer's (an expanded input's copy is dense) and which an in-place write does not share
    with the input. Replaced before AOTAutograd, the input is returned as eager returns it. (The other dropout
    ops are not decomposed and return their input already.)"""
    count = 0
    for n in list(gm.graph.nodes):
        if n.op != "call_function" or kind(n) != "dropout" or not n.args:
            continue   # F.dropout(input, p, training) and torch.dropout(input, p, train)
        p, training = arg(n, 1, "p", 0.5), arg(n, 2, "training", n.kwargs.get("train", True))
        if isinstance(p, (int, float)) and isinstance(training, bool) and (p == 0 or not training):
            n.replace_all_uses_with(n.args[0])
            gm.graph.erase_node(n)
            count += 1
    if count:
        gm.recompile()
    return count


SDPA_MASK, SDPA_CAUSAL = (3, "attn_mask"), (5, "is_causal")   # F.scaled_dot_product_attention's argument slots
RANDOM = ("rand", "bernoulli", "dropout", "normal", "uniform", "multinomial", "exponential", "poisson")
MAX_FOLDED_ELEMENTS = 1 << 24


def constant_value(gm, node):
    """node's value if it is computed from no graph input (factories, aranges, comparisons, expands of them)
    and draws no random number, evaluated now; else None. Static shapes only: with symbolic sizes the ancestry
    reaches a placeholder."""
    ancestors, todo = set(), [node]
    while todo:
        n = todo.pop()
        if n in ancestors:
            continue
        v = value(n)
        if n.op not in ("call_function", "call_method") or any(r in str(n.target) for r in RANDOM) or \
                (isinstance(v, torch.Tensor) and v.numel() > MAX_FOLDED_ELEMENTS):
            return None
        ancestors.add(n)
        todo += n.all_input_nodes
    env = {}
    with unset_fake_temporarily(), torch.no_grad():
        for n in gm.graph.nodes:
            if n in ancestors:
                args, kwargs = torch.fx.node.map_arg((n.args, n.kwargs), lambda a: env[a])
                env[n] = n.target(*args, **kwargs) if n.op == "call_function" else \
                    getattr(args[0], n.target)(*args[1:], **kwargs)
    return env[node]


def mask_effect(mask):
    """'none' if an SDPA attn_mask lets every query attend to every key, 'causal' if it is exactly SDPA's own
    is_causal mask (top-left lower triangle), else None. A float mask is additive: 0 attends, -inf (or the
    dtype's lowest value, as HF writes it) does not."""
    if not isinstance(mask, torch.Tensor) or mask.dim() < 2:
        return None
    if mask.dtype == torch.bool:
        attends = mask
    else:
        blocked = (mask == -math.inf) | (mask == torch.finfo(mask.dtype).min)
        if not ((mask == 0) | blocked).all():
            return None
        attends = mask == 0
    if attends.all():
        return "none"
    causal = torch.ones(attends.shape[-2:], dtype=torch.bool, device=attends.device).tril()
    return "causal" if torch.equal(attends, causal.expand(attends.shape)) else None


def fold_constant_masks(gm):
    """Drops an SDPA attn_mask that is a constant of no effect, or replaces a constant causal one by
    is_causal=True; returns how many. Models materialize such masks when compiled (transformers builds its
    all-True bidirectional and its causal masks from aranges when it cannot look at the data): with a mask,
    SDPA cannot take flash attention, and on CUDA it fell back to the math form, which writes [B, H, L, S]
    matrices (HF BERT's inference held three of 96 MiB; eager's flash call holds none)."""
    count = 0
    for n in gm.graph.nodes:
        if kind(n) != "scaled_dot_product_attention" or not isinstance(arg(n, *SDPA_MASK), torch.fx.Node) or \
                arg(n, *SDPA_CAUSAL, False) is not False:
            continue
        effect = mask_effect(constant_value(gm, arg(n, *SDPA_MASK)))
        if effect is None:
            continue
        args, kwargs = list(n.args[:3]), {k: v for k, v in n.kwargs.items() if k not in ("attn_mask", "is_causal")}
        for i, name in enumerate(("dropout_p", "is_causal", "scale", "enable_gqa"), start=4):
            if len(n.args) > i:
                kwargs[name] = n.args[i]
        kwargs["is_causal"] = effect == "causal"
        n.args, n.kwargs = tuple(args), kwargs
        count += 1
    if count:
        gm.graph.eliminate_dead_code()
        gm.recompile()
        log.info("kiln: %d attention mask(s) were constants: dropped, or made is_causal", count)
    return count


def align_attention_masks(gm, device_types=("cuda",)):
    """Gives each SDPA call's mask a last dim of stride 1 where the trace has another; returns how many. The
    GPU's fused kernels (flash, memory-efficient) require one, and torch picks the kernel from the traced
    layout, which may differ from eager's: BART's encoder padding mask, expanded for the decoder's
    cross-attention, is traced with strides (0, 512, 1, 0); eager's has a stride-1 last dim and runs the
    memory-efficient kernel, while the trace took the math path, which saves two (batch, heads, L, S) float
    matrices per layer for the backward (BART's fp32 training step held 1.9 GiB more than eager). The copy is
    dense along the mask's last dims only: a dim it broadcasts (stride 0) before the last stays broadcast,
    as the kernels take it. All matches are found first, so a failure leaves the graph as it was."""
    from torch.fx.experimental.symbolic_shapes import statically_known_true
    changes = []
    for n in gm.graph.nodes:
        query = value(arg(n, 0, "query"))
        if n.op != "call_function" or kind(n) != "scaled_dot_product_attention" or \
                not isinstance(query, torch.Tensor) or query.device.type not in device_types:
            continue
        mask = arg(n, *SDPA_MASK)
        mask_value = value(mask)
        fake_mode = getattr(mask_value, "fake_mode", None)
        if fake_mode is None or mask_value.dim() == 0 or statically_known_true(mask_value.shape[-1] == 1) or \
                statically_known_true(mask_value.stride(-1) == 1):
            continue
        broadcast = [d for d in range(mask_value.dim() - 1)
                     if statically_known_true(mask_value.stride(d) == 0) and not statically_known_true(
                         mask_value.shape[d] == 1)]
        with fake_mode:
            narrowed = mask_value
            for d in broadcast:
                narrowed = narrowed.narrow(d, 0, 1)
            dense_value = narrowed.contiguous().expand(mask_value.shape)
        changes.append((n, mask, broadcast, dense_value))
    graph = gm.graph
    for n, mask, broadcast, dense_value in changes:
        with graph.inserting_before(n):
            dense = mask
            for d in broadcast:
                dense = graph.call_method("narrow", (dense, d, 0, 1))
            dense = graph.call_method("contiguous", (dense,))
            if broadcast:
                dense = graph.call_method("expand_as", (dense, mask))
        dense.meta["example_value"] = dense_value
        if len(n.args) > SDPA_MASK[0]:
            n.update_arg(SDPA_MASK[0], dense)
        else:
            n.update_kwarg(SDPA_MASK[1], dense)
    if changes:
        gm.recompile()
        log.info("kiln: %d attention mask(s) laid out densely for the fused attention kernels", len(changes))
    return len(changes)


def rewrite_attention(gm, device_types=("cuda",)):
    """Replaces hand-written attention in gm by F.scaled_dot_product_attention, folds constant masks of SDPA
    calls (fold_constant_masks, every device) and lays out the others as the fused kernels take them
    (align_attention_masks); returns how many attentions changed."""
    graph = gm.graph
    count = 0
    for out in list(graph.nodes):
        found = match_attention(out)
        if found is None or not supported(*found[:3], device_types):
            continue
        q, k, v, mask, dropout, scale = found
        with graph.inserting_before(out):
            attn_mask = None
            if mask is not None and mask[0] == "not":   # ~~m is m
                m = mask[1]
                attn_mask = m.args[0] if kind(m) == "not" else graph.call_function(operator.invert, (m,))
            elif mask is not None:
                attn_mask = mask[1]
            sdpa = graph.call_function(F.scaled_dot_product_attention, (q, k, v),
                                       {"attn_mask": attn_mask, "dropout_p": dropout, "scale": scale})
        out.replace_all_uses_with(sdpa)
        count += 1
    if count:
        graph.eliminate_dead_code()
        gm.recompile()
        log.info("kiln: rewrote %d hand-written attention(s) into scaled_dot_product_attention", count)
    return count + fold_constant_masks(gm) + align_attention_masks(gm, device_types)


def eliminate_common_subexpressions(gm):
    """Nodes computing the same deterministic op of the same operands become one; returns how many went.
    Besides the work saved, a value compared for equality (x == amin(x) written as elu(x) == elu(x).amin())
    must be the same bits on both sides: two copies in two C++ loops could round otherwise (a vectorized
    expm1 against a scalar one). A node whose storage the graph returns is kept: eager returns separate
    tensors, which a caller may write to separately. (torch's fx_graph_cse does this, but imports Inductor.)"""
    def storage(n):
        value = n.meta.get("val")
        try:
            return StorageWeakRef(value.untyped_storage()) if isinstance(value, torch.Tensor) else None
        except NotImplementedError:   # no storage (sparse, ...)
            return None

    returned = {storage(n) for n in gm.graph.output_node().all_input_nodes} - {None}
    seen, removed = {}, 0
    for n in list(gm.graph.nodes):
        op = n.target
        if n.op != "call_function" or not (op is operator.getitem or isinstance(op, torch._ops.OpOverload) and
                                           not op._schema.is_mutable and
                                           torch.Tag.nondeterministic_seeded not in op.tags):
            continue
        if storage(n) in returned:
            continue
        try:
            key = (op, tuple(n.args), tuple(sorted(n.kwargs.items())))
            hash(key)
        except TypeError:   # an unhashable argument (a symbolic size)
            continue
        if key in seen:
            n.replace_all_uses_with(seen[key])
            gm.graph.erase_node(n)
            removed += 1
        else:
            seen[key] = n
    if removed:
        gm.recompile()
    return removed


def scalars_on_their_readers_device(gm):
    """0-dim CPU tensors that the graph computes from numbers and sizes alone, for ATen ops on one GPU only, are
    computed on that GPU; returns how many nodes moved. AOTAutograd makes them of a float computed from sizes
    (x * (1 / math.sqrt(n)) under dynamic=True becomes scalar_tensor(n) -> sqrt -> reciprocal, with no device), and
    so does torch.tensor(2.0) written without one. Eager lets a GPU op read a CPU scalar; a GPU kernel cannot, and a
    graph that held one ran eagerly. A CPU scalar the graph is given is copied to the GPU as the graph starts, for
    the same readers; a constant it holds (x[1:] = 5 copies from one) becomes a number those readers' kernels
    inline. A scalar stays where eager makes it if the graph returns it, reads it as a number (.item()) or
    in an op that is not ATen's (a custom op may read it on the host), or draws it at random (from the CPU's
    generator)."""
    from kiln.lowering.seeds_and_constants import inlined_as_number

    def aten_op(n):
        return n.op == "call_function" and isinstance(n.target, torch._ops.OpOverload) and \
            n.target.namespace in ("aten", "prims")

    def movable(n):
        value = n.meta.get("val")
        if not (isinstance(value, FakeTensor) and value.dim() == 0 and value.device.type == "cpu"):
            return False
        if n.op == "get_attr":   # (only a number kernels inline moves: a complex constant stays a CPU buffer)
            return inlined_as_number(value)
        return n.op == "placeholder" or aten_op(n) and not n.target._schema.is_mutable and \
            torch.Tag.nondeterministic_seeded not in n.target.tags and \
            all(a.kwarg_only for a in n.target._schema.arguments if a.name == "device")

    def devices_read_on(n):
        value = n.meta.get("val")
        values = value if isinstance(value, (list, tuple)) else [value]
        return {v.device for v in values} if aten_op(n) and all(isinstance(v, torch.Tensor) for v in values) \
            else {None}

    moving = {n for n in gm.graph.nodes if movable(n)}
    changed = True
    while changed:   # keep only scalars whose tensor operands move too and whose readers are moved or on one GPU
        changed = False
        for n in list(moving):
            operands_move = all(a in moving or not isinstance(a.meta.get("val"), torch.Tensor)
                                for a in n.all_input_nodes)
            readers = set().union(*(devices_read_on(u) for u in n.users if u not in moving))
            if not operands_move or None in readers or any(d.type != "cuda" for d in readers):
                moving.discard(n)
                changed = True
    readers = set().union(*(devices_read_on(u) for n in moving for u in n.users if u not in moving))
    if len(readers) != 1:   # (none read on a GPU, or several GPUs)
        return 0
    device = readers.pop()
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    for n in moving:
        value = n.meta["val"]
        with value.fake_mode:
            on_device = value.to(device)
        if n.op == "get_attr":   # a constant the graph holds: a number its readers' kernels inline on the GPU
            n.meta["val"] = on_device
            continue
        if n.op == "placeholder":   # a scalar the graph is given is copied to the GPU once, as the graph starts
            with gm.graph.inserting_after(placeholders[-1]):
                copy = gm.graph.call_function(torch.ops.aten._to_copy.default, (n,), {"device": device})
            n.replace_all_uses_with(copy, delete_user_cb=lambda u: u is not copy)
            copy.meta["val"] = on_device
            continue
        if any(a.name == "device" for a in n.target._schema.arguments):   # (a factory: scalar_tensor, full, ...)
            n.kwargs = {**n.kwargs, "device": device}
        n.meta["val"] = on_device
    if moving:
        gm.recompile()
    return len(moving)


def overlap_collectives(gm):
    """Each torch.distributed collective of an ATen graph moves up to just after its inputs (and after the
    collective before it: every rank issues them in the same order), and each wait down to just before the
    first reader of its result, so that the kernels in between run while the data travels. Neither moves past
    an op that writes to memory (a copy_ into an input, which may be what the collective reads) or has other
    effects. Returns how many nodes moved."""
    from kiln.lowering.collectives import COLLECTIVES, WAIT

    def barrier(n):
        return n.op == "call_function" and n.target is not operator.getitem and (
            not isinstance(n.target, torch._ops.OpOverload) or n.target._schema.is_mutable)
    nodes = list(gm.graph.nodes)
    if not any(n.target in COLLECTIVES or n.target is WAIT for n in nodes if n.op == "call_function"):
        return 0   # (most graphs: no pass over them)
    moved, previous = 0, None
    for n in nodes:
        if barrier(n):
            previous = n
        elif n.op == "call_function" and n.target in COLLECTIVES:
            order = {m: i for i, m in enumerate(gm.graph.nodes)}
            after = max(n.all_input_nodes + ([previous] if previous else []), key=order.get)
            if n.prev is not after:
                after.append(n)
                moved += 1
            previous = n
    for n in nodes:
        if n.op == "call_function" and n.target is WAIT and n.users:
            order = {m: i for i, m in enumerate(gm.graph.nodes)}
            first = min(n.users, key=order.get)
            stop = next((m for m in gm.graph.nodes if order[n] < order[m] < order[first] and barrier(m)), first)
            if n.next is not stop:
                stop.prepend(n)
                moved += 1
    if moved:
        gm.recompile()
    return moved


def fold_padding_into_convolutions(gm):
    """A convolution of constant_pad_nd(x, pads, 0) that pads only its spatial dims, by as much before as after,
    reads x with its own padding that much larger: the same sums (the padded zeros add nothing; with a weight that
    is inf or NaN, eager's products with them are NaN, which the folded convolution does not compute), without a
    padded copy of x. HF MobileNetV2 and EfficientNet pad before each convolution (TensorFlow's "same" padding), by
    0 for 1x1 convolutions: 52 copy kernels in MobileNetV2's frozen CPU inference, 42 of them symmetric. Returns how
    many convolutions it changed."""
    aten = torch.ops.aten
    changed = 0
    for conv in gm.graph.find_nodes(op="call_function", target=aten.convolution.default):
        pad, weight = conv.args[0], conv.args[1]
        if len(conv.args) != 9 or conv.args[6] or not isinstance(pad, torch.fx.Node) or \
                pad.target is not aten.constant_pad_nd.default or arg(pad, 2, "value", 0) != 0 or \
                not isinstance(weight.meta.get("val"), torch.Tensor):
            continue
        spatial = weight.meta["val"].dim() - 2
        padding, pads = list(conv.args[4]), list(arg(pad, 1, "pad"))
        padding = padding * spatial if len(padding) == 1 else padding   # (one size for every spatial dim)
        if len(padding) != spatial or not all(isinstance(p, int) for p in padding + pads) or len(pads) % 2 or \
                len(pads) > 2 * spatial or any(pads[i] != pads[i + 1] or pads[i] < 0 for i in range(0, len(pads), 2)):
            continue
        for i in range(0, len(pads), 2):   # (pads run from the last dim backwards)
            padding[spatial - 1 - i // 2] += pads[i]
        conv.args = (pad.args[0], *conv.args[1:4], padding, *conv.args[5:])
        if not pad.users:
            gm.graph.erase_node(pad)
        changed += 1
    if changed:
        gm.recompile()
    return changed


ZERO_FILLS = {torch.ops.aten.full.default: 1, torch.ops.aten.full_like.default: 1, torch.ops.aten.new_full.default: 2,
              torch.ops.aten.zeros.default: None, torch.ops.aten.zeros_like.default: None,
              torch.ops.aten.new_zeros.default: None}   # op -> the position of its fill value (None: zeros)
SCATTER_ADDS = {torch.ops.aten.index_put.default: lambda n: arg(n, 3, "accumulate", False),
                torch.ops.aten.scatter_add.default: lambda n: True}
EXACT_ENOUGH = (torch.float32, torch.float64)   # float dtypes whose sums the rewrite may reassociate


def accumulate_scatters_into_sums(gm):
    """add(x, s), where s scatter-adds values onto zeros (index_put with accumulate, scatter_add) and goes
    nowhere else, becomes that scatter-add onto x + 0: the same sums, without a tensor of zeros beside x. A gradient
    with several contributions is such a sum: a tied embedding's (the output projection's product, then the
    lookups' embedding_dense_backward, each a scatter onto zeros) was summed at the end of the backward, all its
    contributions held side by side until then (BART: three 147 MiB tensors beside the sum, where eager's autograd
    adds each into one as it comes); now each lookup's scatter adds into the sum so far as soon as its values
    exist. Returns how many sums it changed.
    The values are added onto x one by one, where eager sums them and adds the sum to x: the same sums in another
    order. In bfloat16 and float16 that order lost whole values (100 ones onto 256 in bfloat16 stay 256, eager
    gives 356), so only float32, float64 and integers are rewritten. x + 0 keeps eager's +0.0 where x is -0.0
    and no value lands."""
    changed = 0
    for add in list(gm.graph.find_nodes(op="call_function", target=torch.ops.aten.add.Tensor)):
        if len(add.args) != 2 or add.kwargs or add.args[0] is add.args[1] or \
                not isinstance(out := add.meta.get("val"), torch.Tensor) or not reassociable(out.dtype):
            continue
        for x, s in (add.args, reversed(add.args)):
            if isinstance(x, torch.fx.Node) and isinstance(s, torch.fx.Node) and s.target in SCATTER_ADDS and \
                    SCATTER_ADDS[s.target](s) and len(s.users) == 1 and is_zeros(s.args[0]) and \
                    all(isinstance(v := n.meta.get("val"), torch.Tensor) and v.shape == out.shape and
                        v.dtype == out.dtype and v.device == out.device for n in (x, s)):
                break
        else:
            continue
        with gm.graph.inserting_before(add):
            if out.dtype.is_floating_point:   # (-0.0 + 0 is +0.0, as eager's x + zeros; any other x stays x)
                plus_zero = gm.graph.call_function(torch.ops.aten.add.Tensor, (x, 0))
                plus_zero.meta = {**s.meta, "val": torch.ops.aten.add.Tensor(x.meta["val"], 0)}
                x = plus_zero
            onto = gm.graph.call_function(s.target, (x, *s.args[1:]), dict(s.kwargs))
        onto.meta = {**s.meta, "val": out}   # (s's origin: an index error names the scatter)
        add.replace_all_uses_with(onto)
        zeros = s.args[0]
        gm.graph.erase_node(add)
        gm.graph.erase_node(s)
        if not zeros.users:
            gm.graph.erase_node(zeros)
        changed += 1
    if changed:
        gm.recompile()
        log.info("kiln: %d scatter-add(s) onto zeros add into the sum they joined", changed)
    return changed


def reassociable(dtype):
    """Whether sums of this dtype may be taken in another order: integers (exact) and EXACT_ENOUGH floats."""
    if dtype.is_floating_point:
        return dtype in EXACT_ENOUGH
    return not dtype.is_complex and dtype != torch.bool


def is_zeros(n):
    if not isinstance(n, torch.fx.Node) or n.op != "call_function" or n.target not in ZERO_FILLS:
        return False
    at = ZERO_FILLS[n.target]
    return at is None or (len(n.args) > at and n.args[at] == 0 and not isinstance(n.args[at], bool))


def written_arguments(node):
    """The fx nodes that an op writes into (by its schema: copy_'s self, an optimizer's in-place update)."""
    schema = getattr(node.target, "_schema", None)
    if node.op != "call_function" or schema is None:
        return []
    by_name = {a.name: a for a in schema.arguments}
    passed = [*zip(schema.arguments, node.args), *((by_name.get(k), v) for k, v in node.kwargs.items())]
    return [v for arg, value in passed if arg is not None and arg.alias_info is not None and arg.alias_info.is_write
            for v in (value if isinstance(value, (list, tuple)) else [value]) if isinstance(v, torch.fx.Node)]


def mutated_inputs(gm):
    """The indices of the graph's inputs that its ops write into (AOTAutograd's copy_ back into a mutated
    input, an optimizer's in-place update)."""
    placeholders = {n: i for i, n in enumerate(gm.graph.find_nodes(op="placeholder"))}
    return sorted({placeholders[v] for node in gm.graph.nodes for v in written_arguments(node) if v in placeholders})
