"""options={"freezing": True}: an inference graph's parameters and buffers become constants.

What depends only on them is computed once, at compile time, instead of at every call: casts of the weights
(autocast's bf16 copies), transposes, batch norm's scale from its running variance, and, in lowering, the
layouts kiln gives library calls (a convolution's channels-last weight). The user's module keeps its own
parameters, unchanged; the compiled graph reads them, or what was computed from them, as they were at compile
time (as torch.compile's freezing does, changing them afterwards is not seen).
"""
import logging
import re

import torch
from torch._subclasses.fake_tensor import unset_fake_temporarily

from kiln.patterns import mutated_inputs

log = logging.getLogger("kiln")

FROZEN_PREFIX = "_kiln_frozen_"
# a parameter or buffer of a module, as Dynamo names the source of a graph input (nn modules inlined)
MODULE_STATE = re.compile(r"\._(parameters|buffers)\[")


def frozen_inputs(dynamo_gm, example_inputs):
    """{index of a Dynamo graph input: its tensor} for the inputs that are parameters or buffers of a module."""
    placeholders = dynamo_gm.graph.find_nodes(op="placeholder")
    found = {}
    for i, (node, value) in enumerate(zip(placeholders, example_inputs)):
        source = getattr(node.meta.get("grapharg"), "source", None)
        if isinstance(value, torch.Tensor) and source is not None and MODULE_STATE.search(source.name):
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
