"""options={"freezing": True}: an inference graph's parameters become constants.

What depends only on them is computed once, at compile time, instead of at every call: casts of the weights
(autocast's bf16 copies), transposes, and, in lowering, the layouts kiln gives library calls (a convolution's
channels-last weight). The user's module keeps its own parameters, unchanged. Dynamo guards the identity of
each frozen parameter (another module, or a parameter replaced, compiles anew); changing a parameter's values in
place after compiling is not supported, as with torch.compile's freezing: what was folded keeps the old values.
"""
import re

import torch
from torch._subclasses.fake_tensor import unset_fake_temporarily

from kiln.patterns import mutated_inputs

FROZEN_PREFIX = "_kiln_frozen_"
# a parameter of a module, as Dynamo names the source of a graph input (nn modules inlined). Not buffers: a
# buffer that another graph of the same forward writes (a counter before a graph break) would be frozen stale.
MODULE_PARAMETER = re.compile(r"\._parameters\[")


def frozen_inputs(dynamo_gm, example_inputs):
    """{index of a Dynamo graph input: its tensor} for the inputs that are parameters of a module, each guarded
    by identity: Dynamo passes inlined modules' parameters as unguarded inputs, so without the guard a frozen
    graph ran another module's weights, or a replaced parameter's old ones. {} where no guard can be added."""
    from torch._dynamo.guards import GuardBuilder
    context = torch._guards.TracingContext.try_get()
    if context is None:
        return {}
    placeholders = dynamo_gm.graph.find_nodes(op="placeholder")
    found = {}
    for i, (node, value) in enumerate(zip(placeholders, example_inputs)):
        source = getattr(node.meta.get("grapharg"), "source", None)
        if isinstance(value, torch.Tensor) and source is not None and MODULE_PARAMETER.search(source.name):
            context.guards_context.dynamo_guards.add(source.make_guard(GuardBuilder.ID_MATCH))
            found[i] = value
    return found


def is_frozen(name):
    return name.startswith(FROZEN_PREFIX)


def freeze(gm, frozen):
    """Replaces gm's placeholders at the indices of frozen (that gm does not write into) by constants, then runs
    each op whose operands are all constants and replaces it by its result. Returns how many ops were folded."""
    with unset_fake_temporarily():   # (AOTAutograd compiles under its fake mode; the constants are real)
        return fold(gm, frozen)


def fold(gm, frozen):
    placeholders = gm.graph.find_nodes(op="placeholder")
    written = set(mutated_inputs(gm))
    constants = {}   # get_attr node -> its tensor
    for i, tensor in frozen.items():
        node = placeholders[i] if i < len(placeholders) else None
        val = node.meta.get("val") if node is not None else None
        if i in written or not isinstance(val, torch.Tensor) or val.shape != tensor.shape or val.dtype != tensor.dtype:
            continue
        with gm.graph.inserting_after(placeholders[-1]):
            replace_by_constant(gm, node, tensor.detach(), constants)
    folded = 0
    for node in list(gm.graph.nodes):
        if foldable(node, constants):
            args, kwargs = torch.fx.node.map_arg((node.args, node.kwargs), constants.get)
            result = node.target(*args, **kwargs)
            with gm.graph.inserting_before(node):
                replace_by_constant(gm, node, result, constants)
            folded += 1
    gm.graph.eliminate_dead_code()
    gm.recompile()
    return folded


def replace_by_constant(gm, node, tensor, constants):
    """node's uses read tensor instead, which gm holds as a frozen attribute."""
    name = f"{FROZEN_PREFIX}{len(constants)}"
    gm.register_buffer(name, tensor, persistent=False)
    attr = gm.graph.get_attr(name)
    attr.meta.update(node.meta)
    node.replace_all_uses_with(attr)
    constants[attr] = tensor


def foldable(node, constants):
    """An op of constants that is deterministic, writes nothing, returns one tensor, and is no larger than its
    largest operand (an expand of a bias, folded, would be materialized whole)."""
    target = node.target
    if node.op != "call_function" or not isinstance(target, torch._ops.OpOverload) or not node.all_input_nodes:
        return False
    if any(a not in constants for a in node.all_input_nodes):
        return False
    if torch.Tag.nondeterministic_seeded in target.tags or target._schema.is_mutable:
        return False
    val = node.meta.get("val")
    if not isinstance(val, torch.Tensor) or any(not isinstance(n, int) for n in val.shape):
        return False
    return val.numel() <= max(constants[a].numel() for a in node.all_input_nodes)
