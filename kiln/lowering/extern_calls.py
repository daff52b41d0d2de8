"""Calls the wrapper makes at run time: a library call or an op without a lowering (a fallback) as an extern, its
tensor arguments laid out as traced and its outputs as eager's, and ops with side effects threaded by effect
tokens. Mixed into GraphLowering."""
import logging
import operator

import sympy
import torch

from kiln import ir
from kiln.ir import sym
from kiln.lowering.values import dense_meta_strides, Lazy, LoweringError, OpThen, same_strides, static_ints, \
    traced_meta_strides, View
from kiln.lowering.externs import aligned_layout, LIBRARY_CALLS, MATMULS, unaliased
from kiln.patterns import written_arguments

log = logging.getLogger("kiln.fallback")


# library calls whose outputs are row-major whatever their inputs' layouts
LAYOUT_AGNOSTIC = set(MATMULS)


def returns_alias(target):
    """Whether an ATen op returns a view of an argument, or the argument it writes."""
    return isinstance(target, torch._ops.OpOverload) and any(r.alias_info is not None for r in target._schema.returns)


def cpu_values_run_eagerly(gm):
    """The nodes of the CPU tensors that a graph holding GPU tensors returns, and of the CPU tensors they are
    computed from, but for the graph's inputs and views (which compute nothing): in a graph whose kernels are
    Triton kernels on a GPU, no kernel can compute a value in CPU memory, and a graph returning one
    (`torch.tensor(3.0) + 1`) ran eagerly as a whole (bench/NOTES.md 112). They run as eager's ops inside it, and
    a constant among them is a tensor the wrapper holds, not a number inlined into a kernel. So do the ops that
    write into a CPU tensor (AOTAutograd's copy_ back into a CPU input it mutates: an optimizer's step count kept
    on the CPU), and what they write, which no kernel could either. A CPU tensor that a GPU kernel also reads
    still makes the graph run eagerly (codegen.triton.one_device)."""
    def cpu_tensors(n):
        vals = torch.utils._pytree.tree_leaves(n.meta.get("val"))
        return any(isinstance(v, torch.Tensor) for v in vals) and \
            all(v.device.type == "cpu" for v in vals if isinstance(v, torch.Tensor))

    if not any(isinstance(v, torch.Tensor) and v.device.type == "cuda" for n in gm.graph.nodes
               for v in torch.utils._pytree.tree_leaves(n.meta.get("val"))):
        return set()
    writes = [n for n in gm.graph.nodes if any(cpu_tensors(a) for a in written_arguments(n))]
    found, todo = set(writes), [a for n in writes for a in n.all_input_nodes if cpu_tensors(a)]
    todo += [a for a in gm.graph.output_node().all_input_nodes if cpu_tensors(a)]
    while todo:
        n = todo.pop()
        if n in found or n.op == "placeholder":
            continue
        if not returns_alias(n.target) and n.target is not operator.getitem:
            found.add(n)
        todo += [a for a in n.all_input_nodes if cpu_tensors(a)]
    return found


class ExternCalls:
    """GraphLowering's externs: library calls and fallbacks."""

    def extern(self, target, args, kwargs, fallback, out_strides=None, arg_nodes=None, metas=None):
        """`target(*args, **kwargs)` run by the wrapper; tensor outputs get eager's layouts, or out_strides.

        Tensor arguments get the layouts they had when the graph was traced: an op's output layout may
        follow its inputs' (attention, convolution), and the outputs' layouts are taken from the trace.
        With out_strides, the caller has chosen the layouts of the arguments and of the outputs. arg_nodes: the
        fx nodes of args, where they are not the current node's args (a call in place of the traced op). metas:
        the outputs' fake tensors, where they are not the current node's (a product computing part of it)."""
        node = self.current_node
        relaid = []   # whether kiln passes an argument laid out otherwise than when the graph was traced

        def to_ref(a, fx=None, matrix=False):
            if isinstance(a, (Lazy, View)):
                meta = fx.meta.get("val") if isinstance(fx, torch.fx.Node) and out_strides is None else None
                ref = self.share(fx, a, self.realize_as_traced(a, meta, target, matrix)).ref(meta)
                relaid.append(not isinstance(meta, torch.Tensor) or not same_strides(
                    ref.strides, [sym(s) for s in meta.stride()], ref.sizes))
                return ref
            if isinstance(a, (list, tuple)):
                fxs = fx if isinstance(fx, (list, tuple)) and len(fx) == len(a) else [None] * len(a)
                return type(a)(to_ref(x, f) for x, f in zip(a, fxs))
            if isinstance(a, float) and (a != a or abs(a) == float("inf")):
                return SpelledFloat(a)   # the wrapper spells floats with repr(): inf is no Python name
            return a
        fx_args = tuple(arg_nodes) if arg_nodes is not None else \
            tuple(node.args) if node is not None and len(node.args) == len(args) else [None] * len(args)
        fx_kwargs = node.kwargs if node is not None else {}
        args = tuple(to_ref(a, fx, k in MATMULS.get(target, ())) for k, (a, fx) in enumerate(zip(args, fx_args)))
        kwargs = {k: to_ref(v, fx_kwargs.get(k)) for k, v in kwargs.items()}
        meta = self.current_node.meta.get("val") if metas is None else metas
        returns_tuple = isinstance(meta, (list, tuple))
        metas = list(meta) if returns_tuple else [meta]
        strides = out_strides or (any(relaid) and propagated_strides(meta, target, args, kwargs)) or \
            [[sym(s) for s in m.stride()] if isinstance(m, torch.Tensor) else None for m in metas]
        outputs = [ir.Buffer(self.new_name(), ir.Layout(m.dtype, m.device, [sym(s) for s in m.shape], st))
                   if isinstance(m, torch.Tensor) else None for m, st in zip(metas, strides)]
        # a library call's output layout may follow its arguments', which kiln may have laid out otherwise than
        # the trace did: unless kiln fixed the layouts itself, the wrapper checks what the call returned
        kernel = ir.ExternKernel(self.new_name("extern"), target, args, kwargs, outputs, returns_tuple, fallback,
                                 origins=(str(target),),
                                 check_strides=out_strides is None and target not in LAYOUT_AGNOSTIC)
        self.buffers.append(kernel)
        views = [View(o, o.layout.sizes, o.layout.strides) if o is not None else None for o in outputs]
        return views if returns_tuple else views[0]

    def share(self, fx, value, realized):
        """realized, which now also stands for fx's value in the rest of the graph: later users of a
        value computed for a library call load it instead of computing it again."""
        if isinstance(value, Lazy) and isinstance(fx, torch.fx.Node) and self.env.get(fx) is value:
            self.env[fx] = realized
        return realized

    def realize_as_traced(self, value, meta, target, matrix=False):
        """value as a buffer laid out as the traced argument `meta` was (row-major where unknown), gaps and
        broadcasts included: a library call may need them. Memory-efficient attention reads a bias whose rows
        the graph padded to 16 bytes and expanded over the batch (Swin's training step failed "attn_bias is not
        correctly aligned" on a densely packed copy)."""
        strides = dense_meta_strides(meta, value.sizes) or traced_meta_strides(meta, value.sizes)
        if isinstance(value, View) and (strides is None or target in LAYOUT_AGNOSTIC):
            return value
        strides = strides or ir.contiguous_strides(value.sizes)
        broadcast = [d for d, (st, n) in enumerate(zip(strides, value.sizes)) if st == 0 and n != 1]
        if isinstance(value, Lazy) and matrix:   # (a matrix computed for this matmul alone)
            rank = len(value.sizes)
            strides = aligned_layout(strides, value.sizes, value.dtype, value.device, (rank - 2, rank - 1)) or strides
        if not broadcast:
            return self.realize_strided(value, strides)
        if isinstance(value, View) and same_strides(value.strides, strides, value.sizes):
            return value

        def one_copy(idx):   # the value at index 0 of each broadcast dim
            return value.load([sympy.Integer(0) if d in broadcast else i for d, i in enumerate(idx)])
        sizes = [1 if d in broadcast else n for d, n in enumerate(value.sizes)]
        copy = self.realize(Lazy(sizes, value.dtype, value.device, one_copy, value.opcount, value.origins), strides)
        return View(copy.buffer, list(value.sizes), strides, copy.offset)

    def fallback(self, target, args, kwargs, why="no lowering for"):
        if not isinstance(target, torch._ops.OpOverload):
            raise LoweringError(f"cannot lower {target}")
        self.fallback_ops.append(str(target))
        log.info("kiln: %s %s; it runs eagerly inside the compiled graph", why, target)
        result = self.extern(target, args, kwargs, fallback=True)
        if returns_alias(target):
            self.buffers[-1].target = unaliased(target)
        return result


def propagated_strides(meta, target, args, kwargs):
    """The strides of target's outputs for the arguments as kiln lays them out, found by running it on fake
    tensors of those layouts; None where the sizes are symbolic or the op cannot run on fake tensors (the
    wrapper then checks the layout the call returns). Only a torch op (or an OpThen of one) runs there: kiln's
    runtime functions may launch kernels of its own (its Triton matmul, the aligned-rows blocks' transposed
    copy), which would write through a fake tensor's null pointer."""
    first = meta[0] if isinstance(meta, (list, tuple)) and meta else meta
    fake_mode = getattr(first, "fake_mode", None)
    refs = list(ir.tensor_refs((args, kwargs)))
    op = target.op if isinstance(target, OpThen) else target
    if fake_mode is None or not isinstance(op, torch._ops.OpOverload) or \
            not all(static_ints(r.sizes) is not None and static_ints(r.strides) is not None for r in refs):
        return None

    def fake(a):
        if isinstance(a, ir.TensorRef):
            lay = a.buffer.layout   # (the offset does not change an output's layout)
            return torch.empty_strided(static_ints(a.sizes), static_ints(a.strides), dtype=lay.dtype,
                                       device=lay.device)
        if isinstance(a, (list, tuple)):
            return type(a)(fake(x) for x in a)
        return int(a) if isinstance(a, sympy.Integer) else a
    try:
        with fake_mode:
            result = target(*fake(args), **{k: fake(v) for k, v in kwargs.items()})
    except Exception:
        return None
    results = list(result) if isinstance(result, (list, tuple)) else [result]
    return [[sym(s) for s in r.stride()] if isinstance(r, torch.Tensor) else None for r in results]


# The first effect token of a graph and the sink of its last ones, where AOTAutograd makes them inside the graph
# (capture's unlift_effect_tokens): the tokens only order the effectful ops, as lower_with_effects passes them on
EFFECT_TOKEN_ENDS = (torch.ops.prims._make_token.default, torch.ops.prims._sink_tokens.default)


def lower_with_effects(low, token, op, *args, **kwargs):
    """An op with side effects (linalg's error checks, prints), threaded by a token: an eager call in
    program order, a fallback unless it is a library call. Only ops that return nothing; for the others
    the graph falls back."""
    meta = low.current_node.meta.get("val")
    if not isinstance(op, torch._ops.OpOverload) or not isinstance(meta, (list, tuple)) or \
            any(m is not None for m in meta[1:]):
        raise LoweringError(f"cannot lower with_effects of {op}")

    def ref(a):
        if isinstance(a, (Lazy, View)):
            return low.realize(a).ref()
        return type(a)(ref(x) for x in a) if isinstance(a, (list, tuple)) else a
    fallback = op not in LIBRARY_CALLS
    if fallback:
        low.fallback_ops.append(str(op))
        log.info("kiln: no lowering for %s; it runs eagerly inside the compiled graph", op)
    low.buffers.append(ir.ExternKernel(low.new_name("extern"), op, ref(tuple(args)),
                                       {k: ref(v) for k, v in kwargs.items()}, [None], False, fallback,
                                       origins=(str(op),)))
    return (token,) + (None,) * (len(meta) - 1)


class SpelledFloat(float):
    """A non-finite float whose repr() is valid Python, for extern arguments (cdist's p=inf)."""

    def __repr__(self):
        return f"float('{float(self)}')"
