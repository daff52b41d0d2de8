"""Activations that a library call applies as it writes its output (oneDNN's post-ops), found in the ATen graph.

A frozen product whose output is read by a GELU alone (a conv net's or a transformer's MLP) is one oneDNN call that
writes the GELU's values: kiln would otherwise store the product and read it back in a GELU kernel of its own. Only
activations whose post-op computes what eager's op computes, NaN and infinities included, are taken: oneDNN's ReLU
and hardtanh make a NaN 0 where eager's keep it (packed_convolution's note), so those stay kiln's kernels.

The activation's nodes are those of torch's decomposition (kiln.decompositions decomposes gelu): each is lowered as
passing on the value of one of its arguments (GraphLowering.passes_on), so that the last one's value is the call's.
"""
import torch

from kiln.runtime.prepacked import GELU

aten = torch.ops.aten

M_SQRT1_2 = 0.7071067811865476
VIEWS = (aten.view.default, aten._unsafe_view.default, aten.reshape.default)


class PostOp:
    """An activation (prepacked.Activation) that the call applies, and for each fx node that computed it in the
    graph, the argument whose value that node passes on."""

    def __init__(self, activation, passes_on):
        self.activation, self.passes_on = activation, passes_on


def only_user(n):
    users = list(n.users)
    return users[0] if len(users) == 1 else None


def is_call(n, target, *args):
    """Whether fx node n is target(*args), no keyword arguments; a float in args matches an equal int or float."""
    return n.op == "call_function" and n.target is target and not n.kwargs and len(n.args) == len(args) and \
        all(a is b if isinstance(b, torch.fx.Node) else
            not isinstance(a, (torch.fx.Node, bool)) and isinstance(a, (int, float)) and a == b
            for a, b in zip(n.args, args))


def erf_gelu(x):
    """The PostOp of x * 0.5 * (1 + erf(x * M_SQRT1_2)), the GELU as torch's decomposition spells it, where those
    nodes are x's only users and each but the last has one user, within the GELU; else None."""
    users = list(x.users)
    halves = [u for u in users if is_call(u, aten.mul.Tensor, x, 0.5)]
    scaled = [u for u in users if is_call(u, aten.mul.Tensor, x, M_SQRT1_2)]
    if len(users) != 2 or len(halves) != 1 or len(scaled) != 1:
        return None
    half, scaled = halves[0], scaled[0]
    erf = only_user(scaled)
    one_plus = erf and only_user(erf)
    last = one_plus and only_user(one_plus)
    if erf is None or not is_call(erf, aten.erf.default, scaled) or one_plus is None or \
            not (is_call(one_plus, aten.add.Tensor, erf, 1) or is_call(one_plus, aten.add.Tensor, 1, erf)) or \
            last is None or only_user(half) is not last or \
            not (is_call(last, aten.mul.Tensor, half, one_plus) or is_call(last, aten.mul.Tensor, one_plus, half)):
        return None
    return PostOp(GELU, {half: x, scaled: x, erf: scaled, one_plus: erf, last: half})


def post_op(node):
    """The PostOp of the activation that alone reads fx node node's value (itself or through views), or None."""
    x = node
    while only_user(x) is not None and only_user(x).target in VIEWS:
        x = only_user(x)
    return erf_gelu(x)


def apply(g, post_op):
    """Graph g's remaining nodes of post_op compute nothing: the call wrote their value."""
    if post_op is not None:
        g.passes_on.update(post_op.passes_on)
