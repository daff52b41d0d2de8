"""The strides eager gives a Dynamo graph's outputs, which kiln's compiled graph keeps (capture reports them to
AOTAutograd and lowering lays the outputs out so): after functionalization and decomposition, an output's traced
layout may be another than eager's, and the user can see strides.
"""
import collections
import contextlib
import itertools

import torch
from torch._functorch import config as functorch_config
from torch._prims_common import (ELEMENTWISE_TYPE_PROMOTION_KIND, compute_elementwise_output_strides,
                                 elementwise_dtypes, is_channels_last_contiguous_or_false_2d, is_contiguous_or_false,
                                 is_non_overlapping_and_dense_or_false, make_contiguous_strides_for,
                                 suggest_memory_format)
from torch.fx.experimental.symbolic_shapes import is_concrete_int

from kiln.patterns import kind


def eager_output_strides(gm):
    """The strides of the Dynamo graph's outputs, as eager lays them out. After functionalization and
    decomposition an output's traced layout may be another: y = x.clone(); y[..., ::2] = 5 becomes a
    `where` laid out row-major, where eager's y keeps x's strides."""
    memo = {}
    for node in gm.graph.nodes:   # in order, so that each node's operands are known: no deep recursion
        eager_strides(node, memo)
    output = next(n for n in gm.graph.nodes if n.op == "output")
    return [eager_strides(a, memo) for a in output.args[0]] if isinstance(output.args[0], (list, tuple)) else []


# Ops whose eager kernels lay their output out by the input's suggested memory format (channels-last if it
# is, else row-major), where torch's meta kernels keep the input's layout (a transposed x stays transposed);
# and ops whose eager kernels lay it out row-major whatever the inputs' (masked_fill fills a contiguous clone).
LAID_OUT_BY_SUGGESTED_FORMAT = {"batch_norm"}
LAID_OUT_ROW_MAJOR = {"masked_fill"}


def eager_strides(node, memo):
    """The strides eager gives a Dynamo node's tensor (None if not a strided tensor): the traced example
    value's, except where eager lays its output out otherwise than torch's meta kernel:
    - a pointwise op: eager (TensorIterator) orders the output's dims by its operands' strides, first operand
      first, and the meta kernels of some (copysign, xlogy, xlog1py: their where-based references) follow another
      operand (eager_pointwise_strides);
    - the ops of LAID_OUT_BY_SUGGESTED_FORMAT: by their input's memory format; LAID_OUT_ROW_MAJOR's: row-major;
    - any other op whose operands eager lays out otherwise than the trace did: the op run again on fake operands
      laid out as eager's (rerun_strides), since for views and layout-preserving ops the meta kernels carry
      strides through as eager's do (a flip or a view of batch_norm's output follows its eager layout)."""
    if not isinstance(node, torch.fx.Node):
        return None
    if node not in memo:
        value = node.meta.get("example_value")
        memo[node] = value.stride() if isinstance(value, torch.Tensor) and value.layout == torch.strided else None
        # the tensors it reads, also those in a list (stack's, cat's)
        operands = [a for a in node.all_input_nodes if isinstance(a.meta.get("example_value"), torch.Tensor)]
        fake_mode = getattr(value, "fake_mode", None)
        if memo[node] is None or fake_mode is None or not operands or "out" in node.kwargs:
            return memo[node]
        if kind(node) in LAID_OUT_ROW_MAJOR:
            with fake_mode:
                memo[node] = torch.empty(value.shape, device="meta").stride()
            return memo[node]
        strides = [eager_strides(a, memo) for a in operands]
        if None in strides:
            return memo[node]
        pointwise = is_pointwise(node) and "memory_format" not in node.kwargs and elementwise(operands, value)
        by_format = kind(node) in LAID_OUT_BY_SUGGESTED_FORMAT and operands[0] is node.args[0]
        relaid = not all(known_equal(st, a.meta["example_value"].stride()) for a, st in zip(operands, strides))
        if not (pointwise or by_format or relaid):
            return memo[node]
        with fake_mode:
            laid_out = {a: torch.empty_strided(a.meta["example_value"].shape, st, dtype=a.meta["example_value"].dtype,
                                               device=a.meta["example_value"].device)
                        for a, st in zip(operands, strides)}
            if pointwise:
                memo[node] = eager_pointwise_strides(node, laid_out, value)
            elif by_format:
                fmt = suggest_memory_format(laid_out[operands[0]])
                memo[node] = torch.empty(value.shape, device="meta", memory_format=fmt).stride()
            else:
                memo[node] = rerun_strides(node, laid_out, fake_mode) or memo[node]
    return memo[node]


def known_equal(a, b):
    """Whether two strides are known equal, without guarding on a symbolic size."""
    from torch.fx.experimental.symbolic_shapes import statically_known_true
    return len(a) == len(b) and all(x is y or statically_known_true(x == y) for x, y in zip(a, b))


def eager_pointwise_strides(node, laid_out, value):
    """TensorIterator's output layout for a pointwise op (laid_out: {operand node: fake tensor laid out as
    eager's}), operands in the kernel's order. CPU eager first converts each operand of another dtype than the
    computation's to it (a dense copy, so an expanded operand's broadcast dims no longer defer to the next
    operand's order: maximum(int32 expanded, float transposed) is row-major); `where` converts its values so
    on every device, never its condition, which comes first (x.where(cond, y) too)."""
    operands, condition = list(laid_out.values()), None
    if kind(node) == "where":
        condition = laid_out.get(node.args[1] if node.op == "call_method" else node.args[0])
        operands = [condition] + [t for t in operands if t is not condition] if condition is not None else operands
    if kind(node) == "where" or value.device.type == "cpu":
        common = value.dtype if value.dtype != torch.bool else \
            elementwise_dtypes(*operands, type_promotion_kind=ELEMENTWISE_TYPE_PROMOTION_KIND.DEFAULT)[1]
        operands = [t.to(common) if t is not condition and t.dtype != common else t for t in operands]
    return fast_setup_strides(node, operands, value) or \
        tuple(compute_elementwise_output_strides(*(t.expand(value.shape) for t in operands)))


def fast_setup_strides(node, operands, value):
    """TensorIterator's layout where its fast setup applies: operands all of the output's shape, all contiguous
    (then so is the output, whatever the strides of size-1 dims), all channels-last (4-D), or all laid out
    alike and dense (then the output is laid out so too); None elsewhere. The meta kernels keep an operand's
    strides of size-1 dims (6, 1, 2, 1) where eager's output is contiguous (6, 6, 2, 1), and a stack of that then
    took it for channels-last (fuzz seed 303563). A number among the op's arguments (x * 2, where(c, x, 0.))
    is a 0-dim operand of another shape to TensorIterator, which then takes its general path; so do ops whose
    kernels take the number as a scalar (pow(x, 2.5)), which are left to that path too. The checks are false
    where a symbolic size leaves them open."""
    numbers = [a for a in node.args if isinstance(a, (int, float, complex)) or isinstance(a, torch.fx.Node) and
               isinstance(a.meta.get("example_value"), (torch.SymInt, torch.SymFloat, torch.SymBool))]
    if numbers or not operands or not all(known_equal(t.shape, value.shape) for t in operands):
        return None
    if all(is_contiguous_or_false(t) for t in operands):
        return tuple(make_contiguous_strides_for(value.shape))
    if value.ndim == 4 and all(is_channels_last_contiguous_or_false_2d(t) for t in operands):
        return torch.empty(value.shape, device="meta", memory_format=torch.channels_last).stride()
    first = operands[0].stride()
    if all(is_non_overlapping_and_dense_or_false(t) and known_equal(t.stride(), first) for t in operands):
        return tuple(first)
    return None


# what rerun_strides may run again: torch's own functions and Tensor methods, never user code in the graph
RERUNNABLE_MODULES = ("torch", "_operator", "operator")


def rerun_strides(node, laid_out, fake_mode):
    """The strides of node's op run again on fake tensors (laid_out: {operand node: fake tensor}; other tensors
    it reads, such as those in a list, get fresh copies, so that an in-place op changes none of the trace's),
    with guards suppressed; None where it cannot be (user code, a data-dependent size, an op that fails so)."""
    from torch.fx.experimental.symbolic_shapes import free_unbacked_symbols
    torch_op = node.op == "call_method" or node.op == "call_function" and (
        isinstance(node.target, (torch._ops.OpOverload, torch._ops.OpOverloadPacket)) or
        (getattr(node.target, "__module__", None) or "").split(".")[0] in RERUNNABLE_MODULES)
    if not torch_op or free_unbacked_symbols(node.meta["example_value"]):
        return None

    def fake(a):
        v = a.meta.get("example_value")
        if a in laid_out or not isinstance(v, torch.Tensor):
            return laid_out.get(a, v)
        return torch.empty_strided(v.shape, v.stride(), dtype=v.dtype, device=v.device)

    shape_env = fake_mode.shape_env
    try:
        with shape_env.suppress_guards() if shape_env is not None else contextlib.nullcontext():
            args, kwargs = torch.fx.node.map_arg((node.args, node.kwargs), fake)
            result = getattr(args[0], node.target)(*args[1:], **kwargs) if node.op == "call_method" else \
                node.target(*args, **kwargs)
    except Exception:   # the traced layout stands
        return None
    if not isinstance(result, torch.Tensor) or result.layout != torch.strided:
        return None
    return None if lost_a_symbol(result, node.meta["example_value"]) else result.stride()


def lost_a_symbol(result, traced):
    """Whether a layout found by running an op again holds for this trace's sizes only: a meta kernel read a
    symbolic size as its int (constant_pad_nd of an empty input gave strides (6, 6, 1) to rows of s + 3: at the
    next sizes rows of 7 overlapped, fuzz seed 222699). Then a size, or a stride past a dim of symbolic size, is
    an int where the traced one has a symbol."""
    if any(is_concrete_int(r) and not is_concrete_int(t) for r, t in zip(result.shape, traced.shape)):
        return True
    inner = [st for n, st in zip(result.shape, result.stride()) if not is_concrete_int(n) and is_concrete_int(st)]
    return any(is_concrete_int(r) and not is_concrete_int(t) and any(st < r for st in inner)
               for r, t in zip(result.stride(), traced.stride()))


def elementwise(operands, value):
    """Whether value is the operands' elementwise result (the same packet names reductions: torch.max(x))."""
    try:
        return torch.broadcast_shapes(*(a.meta["example_value"].shape for a in operands)) == value.shape
    except RuntimeError:
        return False


# Python's operators by the ATen op they call, and ATen's elementwise ops that torch does not tag pointwise
ATEN_NAMES = {"floordiv": "floor_divide", "mod": "remainder", "and_": "bitwise_and", "or_": "bitwise_or",
              "xor": "bitwise_xor", "lshift": "bitwise_left_shift", "rshift": "bitwise_right_shift"}
UNTAGGED_POINTWISE = {"floor_divide"}


def is_pointwise(node):
    """An out-of-place ATen pointwise op (by its torch name: torch.copysign, Tensor.copysign, operator.add)."""
    name = ATEN_NAMES.get(kind(node), kind(node))
    if name in UNTAGGED_POINTWISE:
        return True
    packet = getattr(torch.ops.aten, name, None) if name and not name.endswith("_") else None
    return isinstance(packet, torch._ops.OpOverloadPacket) and any(
        torch.Tag.pointwise in getattr(packet, o).tags for o in packet.overloads())


def user_output_strides(context, user_strides, outputs):
    """{forward graph output index: eager's strides} for the user's outputs that AOTAutograd returns as the
    graph computes them (not views it regenerates; a view of an intermediate it returns as computed, too), and
    for the intermediate bases it regenerates views from (intermediate_base_strides); mutated inputs it
    updates come first. outputs: the forward graph's output nodes."""
    metadata = getattr(context, "fw_metadata", None)
    if metadata is None or user_strides is None or len(metadata.output_info) != len(user_strides):
        return {}
    from torch._functorch._aot_autograd.schemas import OutputType
    first = len(metadata.mutated_inp_runtime_indices)
    strides = {first + i: st for i, (info, st) in enumerate(zip(metadata.output_info, user_strides))
               if info.output_type in (OutputType.non_alias, OutputType.unsafe_view_alias) and st is not None}
    return strides | intermediate_base_strides(metadata, user_strides, outputs, first)


SEARCHED_DIMS = 6   # intermediate_base_strides tries each order of a base's dims: 720 at most


def intermediate_base_strides(metadata, user_strides, outputs, first):
    """{forward graph output index: strides} for each intermediate base that AOTAutograd returns so as to
    regenerate the user's outputs viewing it, laid out so that replaying each view on it gives eager's strides.
    The traced base is the functional graph's: y = x.clone(); y[1:] = -1 of a transposed x is a row-major
    slice_scatter in the trace, where eager's y keeps x's layout, and y.unsqueeze(0).expand(...) returned
    under grad came back row-major (fuzz seed 284259). The base's dense dim orders are tried, the traced one
    first. Only for static shapes and views AOTAutograd replays (view_replay_for_aliased_outputs, a view meta
    sequence without symbols); AOTAutograd's other ways (as_strided over the base, by the metadata of the
    view kiln returns) need that view to be a view of the base as laid out, which GraphLowering.view_of_output
    makes it where it can replay the view ops, and which static shapes let it."""
    from torch._C import _functionalization
    from torch._functorch._aot_autograd.schemas import OutputType

    from kiln.lowering import same_strides
    replay = getattr(_functionalization, "apply_view_meta_sequence", None)
    if not getattr(functorch_config, "view_replay_for_aliased_outputs", False) or replay is None:
        return {}
    views = collections.defaultdict(list)   # base output index -> [(view meta sequence, eager's strides)]
    for info, st in zip(metadata.output_info, user_strides):
        if info.output_type in (OutputType.alias_of_intermediate, OutputType.alias_of_intermediate_save_as_output):
            sequence = getattr(info, "view_meta_sequence", None)
            views[first + len(metadata.output_info) + info.base_idx].append((sequence, st))
    found = {}
    for index, seen in views.items():
        base = outputs[index].meta.get("val") if index < len(outputs) and isinstance(outputs[index], torch.fx.Node) \
            else None
        if not isinstance(base, torch.Tensor) or base.ndim > SEARCHED_DIMS or \
                not all(is_concrete_int(n) for n in base.shape) or any(
                seq is None or st is None or any(vm.has_symbolic_inputs for vm in seq.sequence) for seq, st in seen):
            continue
        traced = tuple(sorted(range(base.ndim), key=lambda d: -base.stride()[d]))
        for order in dict.fromkeys([traced, *itertools.permutations(range(base.ndim))]):
            laid_out = torch.empty_permuted(base.shape, order, dtype=base.dtype, device="meta")
            try:
                replayed = [replay(laid_out, seq.sequence) for seq, _ in seen]
            except Exception:   # noqa: BLE001 (a view that cannot be replayed so: the traced layout stands)
                break
            if all(same_strides(r.stride(), st, r.shape) for r, (_, st) in zip(replayed, seen)):
                if not same_strides(laid_out.stride(), base.stride(), base.shape):
                    found[index] = laid_out.stride()
                break
    return found
