"""options={"freezing": True}: an inference graph's parameters become constants.

What depends only on them is computed once, at compile time, instead of at every call: casts of the weights
(autocast's bf16 copies), transposes, and, in lowering, the layouts kiln gives library calls (a convolution's
channels-last weight). The user's module keeps its own parameters, unchanged. Dynamo guards the identity of each
frozen parameter (another module, or a parameter replaced, compiles anew). A frozen parameter written in place
after compiling (load_state_dict, an optimizer's step) is seen by its version counter at the next call, which
computes again what was computed from it, into the same memory (`Constants.refresh`). Writes that do not move
the version counter (through `.data`, fused optimizers, a storage swapped by `set_`) are not seen.
"""
import operator
import re

import torch
from torch._subclasses.fake_tensor import unset_fake_temporarily

from kiln.patterns import mutated_inputs

FROZEN_PREFIX = "_kiln_frozen_"
# a parameter of a module, as Dynamo names the source of a graph input (nn modules inlined). Not buffers: eager's
# batch norm writes its running statistics in training without moving their version counter, so a frozen graph
# would keep computing with the statistics it was compiled with.
MODULE_PARAMETER = re.compile(r"\._parameters\[")
VERSION = operator.attrgetter("_version")


def frozen_inputs(dynamo_gm, example_inputs):
    """{index of a Dynamo graph input: its tensor} for the inputs that are parameters of a module, each guarded by
    identity: Dynamo passes inlined modules' tensors as unguarded inputs, so without the guard a frozen
    graph ran another module's weights, or a replaced parameter's old ones. {} where no guard can be added. Not
    one-element parameters (a learned scale: kernels would read its value inlined, where a write could not reach
    it) nor tensors without a version counter (made under inference_mode: a write to them could not be seen)."""
    from torch._dynamo.guards import GuardBuilder
    context = torch._guards.TracingContext.try_get()
    if context is None:
        return {}
    placeholders = dynamo_gm.graph.find_nodes(op="placeholder")
    found = {}
    for i, (node, value) in enumerate(zip(placeholders, example_inputs)):
        source = getattr(node.meta.get("grapharg"), "source", None)
        if isinstance(value, torch.Tensor) and source is not None and MODULE_PARAMETER.search(source.name) and \
                value.numel() != 1 and not value.is_inference():
            context.guards_context.dynamo_guards.add(source.make_guard(GuardBuilder.ID_MATCH))
            found[i] = value
    return found


def is_frozen(name):
    return name.startswith(FROZEN_PREFIX)


def freeze(gm, frozen):
    """Replaces gm's placeholders at the indices of frozen (that gm does not write into) by constants, then runs
    each op whose operands are all constants and replaces it by its result. Returns the Constants."""
    with unset_fake_temporarily():   # (AOTAutograd compiles under its fake mode; the constants are real)
        return fold(gm, frozen)


def fold(gm, frozen):
    placeholders = gm.graph.find_nodes(op="placeholder")
    written = set(mutated_inputs(gm))
    constants = Constants()
    nodes = {}   # get_attr node -> its constant's name
    for i, tensor in frozen.items():
        node = placeholders[i] if i < len(placeholders) else None
        val = node.meta.get("val") if node is not None else None
        if i in written or not isinstance(val, torch.Tensor) or val.shape != tensor.shape or val.dtype != tensor.dtype:
            continue
        with gm.graph.inserting_after(placeholders[-1]):
            attr = replace_by_constant(gm, node, tensor.detach(), nodes)
        constants.add_input(nodes[attr], gm.get_buffer(nodes[attr]))
    for node in list(gm.graph.nodes):
        if foldable(node, nodes, constants):
            args, kwargs = torch.fx.node.map_arg((node.args, node.kwargs), lambda n: Ref(nodes[n]))
            result = run(node.target, args, kwargs, constants.values)
            with gm.graph.inserting_before(node):
                attr = replace_by_constant(gm, node, result, nodes)
            constants.add_step(nodes[attr], node.target, args, kwargs, result)
    gm.graph.eliminate_dead_code()
    gm.recompile()
    live = {n.target for n in gm.graph.find_nodes(op="get_attr")}
    for name in set(nodes.values()) - live:   # (a folded chain's intermediate, a parameter only folded)
        delattr(gm, name)
    constants.let_go(live)
    return constants


def replace_by_constant(gm, node, tensor, nodes):
    """node's uses read tensor instead, which gm holds as a frozen attribute; returns the get_attr node."""
    name = f"{FROZEN_PREFIX}{len(nodes)}"
    gm.register_buffer(name, tensor, persistent=False)
    attr = gm.graph.get_attr(name)
    attr.meta.update(node.meta)
    node.replace_all_uses_with(attr)
    nodes[attr] = name
    return attr


def foldable(node, nodes, constants):
    """An op of constants that is deterministic, writes nothing, returns one tensor of more than one element (a
    one-element result would be inlined into kernels, where a refresh could not reach it), and is no larger than
    its largest operand (an expand of a bias, folded, would be materialized whole)."""
    target = node.target
    if node.op != "call_function" or not isinstance(target, torch._ops.OpOverload) or not node.all_input_nodes:
        return False
    if any(a not in nodes for a in node.all_input_nodes):
        return False
    if torch.Tag.nondeterministic_seeded in target.tags or target._schema.is_mutable:
        return False
    val = node.meta.get("val")
    if not isinstance(val, torch.Tensor) or any(not isinstance(n, int) for n in val.shape) or val.numel() == 1:
        return False
    return val.numel() <= max(constants.values[nodes[a]].numel() for a in node.all_input_nodes)


class Ref(str):
    """A constant's name among a folded op's operands (an op's own string arguments are plain str)."""


def run(op, args, kwargs, values):
    """op on its operands, each Ref read from values."""
    args, kwargs = torch.fx.node.map_aggregate((args, kwargs), lambda a: values[a] if isinstance(a, Ref) else a)
    return op(*args, **kwargs)


class Constants:
    """A frozen graph's constants by name, and how each was computed from the module's tensors, so that they can
    be computed again where one of those was written in place. A constant that is a module's tensor, or a view
    of one, follows it by itself; the others are computed again into their own memory, which the wrapper (and a
    CUDA graph's replay) reads by address, and their views follow them."""

    def __init__(self):
        self.values = {}     # name -> tensor
        self.steps = []      # (name, op, args, kwargs) of each folded op, in order, its operands as Refs
        self.views = set()   # constants that view the memory of an operand
        self.derived = set()  # constants computed from the module's tensors, rather than viewing them
        self.sources = {}    # name -> the names of the module's tensors it was computed from
        self.relaid = []     # (name, source name, sizes, strides, offset): lowering's copies in another layout

    @property
    def folded(self):
        return len(self.steps)

    def add_input(self, name, tensor):
        self.values[name] = tensor
        self.sources[name] = {name}

    def add_step(self, name, op, args, kwargs, result):
        operands = refs_in((args, kwargs))
        self.values[name] = result
        self.steps.append((name, op, args, kwargs))
        if any(result.untyped_storage().data_ptr() == self.values[a].untyped_storage().data_ptr() for a in operands):
            self.views.add(name)
        if name not in self.views or any(a in self.derived for a in operands):
            self.derived.add(name)
        self.sources[name] = set().union(*(self.sources[a] for a in operands))

    def let_go(self, live):
        """Forgets the memory of computed constants the graph no longer reads (a folded chain's intermediates),
        but for those whose memory a kept view reads; a refresh computes them again, into no memory of theirs."""
        kept = set(live)
        for name, _, args, kwargs in reversed(self.steps):
            if name in kept and name in self.views:
                kept.update(refs_in((args, kwargs)))
        for name, *_ in self.steps:
            if name not in kept:
                del self.values[name]

    def add_relaid(self, name, tensor, source, sizes, strides, offset):
        self.values[name] = tensor
        self.relaid.append((name, source, sizes, strides, offset))
        self.derived.add(name)
        self.sources[name] = self.sources.get(source, set())

    def watched(self, used):
        """The module's tensors (detached: they share its version counter) that the constants named in used were
        computed from."""
        names = set().union(*(self.sources[n] for n in used if n in self.derived))
        return [self.values[n] for n in sorted(names)]

    def refresh(self):
        """Every computed constant computed again from the module's tensors as they are now, into its memory."""
        with torch.no_grad():
            now = dict(self.values)
            for name, op, args, kwargs in self.steps:
                now[name] = run(op, args, kwargs, now)
                if name in self.values and name not in self.views:
                    self.values[name].copy_(now[name])
            for name, source, sizes, strides, offset in self.relaid:
                base = self.values[source]
                self.values[name].copy_(torch.as_strided(base, sizes, strides, base.storage_offset() + offset))


def refs_in(args):
    found = []
    torch.fx.node.map_aggregate(args, lambda a: found.append(a) if isinstance(a, Ref) else None)
    return found


def refreshing(call, constants, artifact):
    """call, the compiled graph of artifact, which first computes its constants again where a module's tensor
    they came from was written since."""
    for relaid, (source, sizes, strides, offset) in artifact.relaid.items():
        constants.add_relaid(relaid, artifact.consts[relaid], source, sizes, strides, offset)
    watched = constants.watched([n for n in artifact.consts if is_frozen(n)])
    if not watched:
        return call
    versions = list(map(VERSION, watched))

    def checked(args):
        now = list(map(VERSION, watched))
        if now != versions:
            constants.refresh()
            versions[:] = now
        return call(args)
    checked._boxed_call = True   # (as call: it takes the argument list itself)
    return checked
