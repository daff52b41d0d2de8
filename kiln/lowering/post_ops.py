"""Activations that a library call applies as it writes its output (oneDNN's post-ops), found in the ATen graph.

A frozen product whose output is read by an activation alone (a conv net's or a transformer's MLP: a GELU, a SiLU)
is one oneDNN call that writes the activation's values: kiln would otherwise store the product and read it back in
a kernel of its own. Only activations whose post-op computes what eager's op computes, NaN and infinities included,
are taken (prepacked.agrees_with_eager): oneDNN's ReLU and hardtanh make a NaN 0 where eager's keep it.

An activation is found as kiln's decompositions spell it, the graph kiln lowers being traced with them: each
activation's pattern is its eager function traced with the same table, matched node for node from its input. Each
matched node is then lowered as passing on the value of its first argument (GraphLowering.passes_on), so that the
last one's value is the call's.
"""
import functools

import torch
from torch._subclasses.fake_tensor import unset_fake_temporarily

from kiln.runtime.prepacked import ACTIVATIONS, agrees_with_eager

aten = torch.ops.aten

VIEWS = (aten.view.default, aten._unsafe_view.default, aten.reshape.default)


class PostOp:
    """An activation (prepacked.Activation) that the call applies, and for each fx node that computed it in the
    graph, the argument whose value that node passes on."""

    def __init__(self, activation, passes_on):
        self.activation, self.passes_on = activation, passes_on


@functools.cache
def pattern(activation):
    """The nodes of activation.eager's ATen graph, as kiln's decompositions spell it, in program order: its input
    (a placeholder) first. (Traced on a real tensor: lowering runs within the trace's fake tensor mode.)"""
    from torch.fx.experimental.proxy_tensor import make_fx
    from kiln.decompositions import kiln_decompositions
    with unset_fake_temporarily():
        graph = make_fx(lambda x: activation.eager(x), decomposition_table=kiln_decompositions(inference=True))(
            torch.randn(4)).graph
    return [n for n in graph.nodes if n.op != "output"]


def same_argument(a, p, matched):
    """Whether a graph node's argument a is the pattern's argument p: the matched node, or an equal literal."""
    if isinstance(p, torch.fx.Node):
        return matched.get(p) is a
    if isinstance(p, (list, tuple)):
        return isinstance(a, (list, tuple)) and len(a) == len(p) and all(map(same_argument, a, p, [matched] * len(p)))
    return not isinstance(a, torch.fx.Node) and isinstance(a, bool) == isinstance(p, bool) and a == p


def match(activation, x):
    """The PostOp of activation applied to fx node x, where x's users are exactly its pattern's nodes and each of
    those but the last is read within the pattern alone; else None."""
    nodes = pattern(activation)
    matched = {nodes[0]: x}
    for p in nodes[1:]:
        first = next(a for a in p.args if isinstance(a, torch.fx.Node))
        found = [u for u in matched[first].users if u.op == "call_function" and u.target is p.target and
                 u not in matched.values() and len(u.args) == len(p.args) and u.kwargs.keys() == p.kwargs.keys() and
                 all(same_argument(a, b, matched) for a, b in zip(u.args, p.args)) and
                 all(same_argument(u.kwargs[k], v, matched) for k, v in p.kwargs.items())]
        if not found:
            return None
        matched[p] = found[0]
    inside, last = set(matched.values()), matched[nodes[-1]]
    if any(u not in inside for n in inside if n is not last for u in n.users):
        return None
    return PostOp(activation, {n: next(a for a in n.args if isinstance(a, torch.fx.Node))
                               for p, n in matched.items() if p is not nodes[0]})


def post_op(node):
    """The PostOp of the activation that alone reads fx node node's value (itself or through views), or None."""
    x = node
    while len(x.users) == 1 and next(iter(x.users)).target in VIEWS:
        x = next(iter(x.users))
    for activation in ACTIVATIONS:
        found = match(activation, x)
        if found is not None and agrees_with_eager(activation):
            return found
    return None


def apply(g, post_op):
    """Graph g's remaining nodes of post_op compute nothing: the call wrote their value."""
    if post_op is not None:
        g.passes_on.update(post_op.passes_on)
