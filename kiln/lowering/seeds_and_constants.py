"""What a graph holds besides its inputs and the buffers it computes: frozen parameters and what is made from them
(kiln.freezing), constants traced into the graph, and the random seeds drawn at each call. Mixed into
GraphLowering."""
import sympy
import torch
from torch._subclasses.fake_tensor import unset_fake_temporarily

from kiln import ir
from kiln.freezing import FROZEN_PREFIX
from kiln.ir import ops, sym
from kiln.lowering.values import Lazy, static_ints, View


class SeedsAndConstants:
    """GraphLowering's seeds, frozen values and the values made from them."""

    def new_seed(self, device):
        """A seed for one random op: one element of the seeds the wrapper draws once per call on the op's device
        (an extern, Seeds, placed before the graph's first random op). Drawn on the device, by torch's generator,
        a CUDA graph's replay draws them anew (mode="reduce-overhead")."""
        if device not in self.seeds:
            buf = ir.Buffer(self.new_name(), ir.Layout(torch.int64, device, [sympy.Integer(0)], [sympy.Integer(1)]))
            self.seeds[device] = (Seeds(device), buf)
            self.buffers.append(ir.ExternKernel(self.new_name("extern"), self.seeds[device][0], (), {}, [buf], False,
                                                False, origins=("random seeds",)))
        seeds, buf = self.seeds[device]
        seeds.count += 1
        buf.layout.sizes[0] = sympy.Integer(seeds.count)
        return View(buf, [sympy.Integer(1)], [sympy.Integer(1)], sympy.Integer(seeds.count - 1))

    def frozen_value(self, name, tensor):
        """A frozen parameter, or what was computed from parameters only (kiln.freezing): a buffer that the
        wrapper reads from its globals, as it reads an input, and never writes or reuses."""
        layout = ir.Layout(tensor.dtype, tensor.device, [sym(s) for s in tensor.shape],
                           [sym(s) for s in tensor.stride()])
        buf = ir.InputBuffer(name, layout, sym(tensor.storage_offset()))
        self.frozen[name] = (buf, tensor)
        return View(buf, buf.layout.sizes, buf.layout.strides)

    def frozen_view(self, value):
        """The real tensor that value, a view of a frozen constant with static sizes, reads; else None."""
        if not isinstance(value, View) or value.buffer.name not in self.frozen or \
                not all(isinstance(x, sympy.Integer) for x in (*value.sizes, *value.strides, value.offset)):
            return None
        tensor = self.frozen[value.buffer.name][1]
        with unset_fake_temporarily():
            return torch.as_strided(tensor, static_ints(value.sizes), static_ints(value.strides),
                                    tensor.storage_offset() + int(value.offset))

    def made_from_frozen(self, value, remake, kind):
        """The name of something made now from value (a view of a frozen constant), which remake(view) makes
        again where the constant is computed again (kiln.freezing.Constants.refresh)."""
        name = f"{FROZEN_PREFIX}{kind}_{len(self.frozen) + len(self.relaid)}"
        self.relaid[name] = (value.buffer.name, static_ints(value.sizes), static_ints(value.strides),
                             int(value.offset), remake)
        return name


class Seeds:
    """The extern drawing a graph's random seeds at each call, from torch's default generator of the device:
    torch.manual_seed makes runs repeatable."""

    def __init__(self, device):
        self.device, self.count = device, 0

    def __call__(self):
        return torch.randint(2 ** 31 - 1, (self.count,), dtype=torch.int64, device=self.device)

    def __repr__(self):
        return f"random seeds ({self.count})"


class Constant:
    """A graph constant (torch.tensor(...) in traced code), materialized by the wrapper: a fresh copy
    per call, since the wrapper may reuse a dead buffer's memory for later results."""

    def __init__(self, value):
        self.value = value

    def __call__(self):
        return self.value.clone()

    def __repr__(self):
        return f"constant({str(self.value.dtype).replace('torch.', '')}{list(self.value.shape)})"


def inlined_as_number(value):
    """Whether kernels read a constant the graph holds as a number written into their code (one element, not
    complex), rather than from a buffer."""
    return value.numel() <= 1 and not value.is_complex()


def constant_value(low, value, inlined=True, device=None):
    """A one-element constant is inlined into kernels (unless not inlined: an eager op reads it), an empty one (a
    language model's empty key cache, concatenated with the keys) has nothing to read; a larger one is an extern
    the wrapper runs. device: where an inlined one's readers compute (a CPU scalar that GPU ops read,
    patterns.scalars_on_their_readers_device), its own device by default."""
    sizes = [sym(s) for s in value.shape]
    with unset_fake_temporarily():   # lowering runs under AOTAutograd's fake mode; value is real
        if inlined and inlined_as_number(value):
            scalar = value.item() if value.numel() else 0
            return Lazy(sizes, value.dtype, device or value.device, lambda idx: ops.constant(scalar, value.dtype), 1)
        strides = value.clone().stride()
    layout = ir.Layout(value.dtype, value.device, sizes, [sym(s) for s in strides])
    buf = ir.Buffer(low.new_name(), layout)
    low.buffers.append(ir.ExternKernel(low.new_name("extern"), Constant(value), (), {}, [buf], False, False,
                                       origins=("constant",)))
    return View(buf, buf.layout.sizes, buf.layout.strides)
