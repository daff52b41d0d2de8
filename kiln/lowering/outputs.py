"""The graph's outputs: each laid out as eager returns it, as the view of an input or of an earlier output it is
in the trace, or, for an activation saved for the backward, in kiln's own layout. Mixed into GraphLowering."""
import operator

import torch
from torch.multiprocessing.reductions import StorageWeakRef

from kiln import ir
from kiln.ir import sym
from kiln.lowering.values import (as_lazy, channels_last_strides, dense_meta_strides, Lazy, same_strides, static_ints,
                                  View)


class GraphOutputs:
    """GraphLowering's fx.Interpreter output hook and the layouts of what it returns."""

    def output(self, target, args, kwargs):
        vals = self.current_node.args[0]
        saved_from = self.returned_count(vals)
        self.graph_outputs = [None] * len(vals)
        position = {n: k for k, n in enumerate(self.module.graph.nodes)}
        placeholders = [n for n in self.module.graph.nodes if n.op == "placeholder"]
        input_storages = {}   # the first input of each storage
        for inp, p in zip(self.graph_inputs, placeholders):
            if isinstance(inp, ir.InputBuffer) and isinstance(p.meta.get("val"), torch.Tensor):
                input_storages.setdefault(StorageWeakRef(p.meta["val"].untyped_storage()), (inp, p.meta["val"]))
        placeholder_storages = {StorageWeakRef(p.meta["val"].untyped_storage()) for p in placeholders
                                 if isinstance(p.meta.get("val"), torch.Tensor) and p.meta["val"].layout == torch.strided}
        # bases before their views, so that a view of another output is that output's buffer seen so
        for i in sorted(range(len(vals)), key=lambda i: position.get(vals[i], -1)):
            eager_strides = self.eager_output_strides.get(i)
            value = args[0][i]
            if self.reads_input_unchanged(value, vals[i], placeholder_storages):
                value = as_lazy(value)   # (stored anew by output_value)
            self.graph_outputs[i] = self.view_of_input(vals[i], input_storages) or \
                self.view_of_output(vals[i], vals, eager_strides) or \
                self.output_value(value, vals[i], i >= saved_from, eager_strides)
        return self.graph_outputs

    def returned_count(self, vals):
        """How many of the graph's outputs (vals) its caller gets: the rest are activations saved for the backward."""
        return len(vals) if self.saved_from is None else self.saved_from

    def bases_stored_whole(self):
        """{node: eager's strides} for each value computed in the graph whose storage eager's semantics expose through
        a view of it, stored whole as eager lays it out (only values laid out densely at offset 0, which eager stores
        whole too; GraphLowering.eager_images records them):
        - viewed by a returned output at a storage offset (not 0): the output is seen at eager's offset in it.
          Stored as the view's elements alone, it sat at offset 0, and eager code reading its storage offset past a
          graph break read other elements ((w * 2)[3:].storage_offset() read 0);
        - viewed by an as_strided's argument (y[3:] of it): the as_strided reads eager's storage around its
          argument, which a buffer made for the argument alone does not hold (views.lower_as_strided)."""
        vals = self.module.graph.output_node().args[0]
        viewers = [n for n in vals[:self.returned_count(vals)] if isinstance(n, torch.fx.Node) and
                   isinstance(n.meta.get("val"), torch.Tensor) and n.meta["val"].layout == torch.strided and
                   n.meta["val"].storage_offset() != 0]
        viewers += [n.args[0] for n in self.module.graph.nodes if n.op == "call_function" and n.target in AS_STRIDED]
        bases = {}
        for node in viewers:
            meta, base = node.meta.get("val"), view_chain(node)[0]
            base_meta = base.meta.get("val") if base.op == "call_function" else None
            if base is node or not isinstance(base_meta, torch.Tensor) or base_meta.storage_offset() != 0 or \
                    not isinstance(meta, torch.Tensor) or \
                    StorageWeakRef(meta.untyped_storage()) != StorageWeakRef(base_meta.untyped_storage()):
                continue
            strides = dense_meta_strides(base_meta, [sym(n) for n in base_meta.shape])
            if strides is not None:
                bases[base] = strides
        return bases

    def reads_input_unchanged(self, value, node, placeholder_storages):
        """Whether value is a graph input's memory as it is, where eager returns a tensor of its own: a lowering that
        computes nothing (sign of a bool) must not hand out the input, which a write to the output would change."""
        meta = node.meta.get("val") if isinstance(node, torch.fx.Node) and node.op != "placeholder" else None
        return isinstance(value, View) and value.buffer.name in self.input_names and \
            isinstance(meta, torch.Tensor) and meta.layout == torch.strided and \
            StorageWeakRef(meta.untyped_storage()) not in placeholder_storages

    @staticmethod
    def view_of_input(node, input_storages):
        """node as the view of a graph input it is in the trace (sharing the input's storage: input_storages maps
        each input's storage to it and its traced tensor), with its traced sizes, strides and offset. AOTAutograd
        regenerates such an output from the input with the sizes, strides and storage offset of the tensor kiln
        returns: a copy laid out otherwise named other elements, and x[:, 3::3].flatten(0) of a [1, 5] x came
        back as x[0, 0] (fuzz seed 271295). None where the input is given laid out otherwise than traced (a
        backward's saved activation, restrided by AOTAutograd to the layout the forward reported): the traced
        strides would name other elements of it (a custom backward returning a view of a channels-last saved
        activation); computed, the output reads the input as given."""
        meta = node.meta.get("val") if isinstance(node, torch.fx.Node) and node.op != "placeholder" else None
        if not isinstance(meta, torch.Tensor) or meta.layout != torch.strided:
            return None
        inp, traced = input_storages.get(StorageWeakRef(meta.untyped_storage()), (None, None))
        if inp is None or list(inp.layout.strides) != [sym(st) for st in traced.stride()] or \
                inp.storage_offset != sym(traced.storage_offset()):
            return None
        return View(inp, [sym(n) for n in meta.shape], [sym(st) for st in meta.stride()],
                    sym(meta.storage_offset()) - sym(traced.storage_offset()))

    def view_of_output(self, node, vals, eager_strides=None):
        """node as a view of the buffer of an earlier output it is a view of (through view ops), as eager returns
        y and y.t(): sharing storage, not as a copy; None where it is not one, where that output is laid out
        otherwise than traced and the view ops cannot be replayed on its layout (the view's traced strides would
        read it wrongly; a base AOTAutograd regenerates views from is laid out as eager's,
        eager_strides.intermediate_base_strides), or where the view's strides are not eager's (the base is a
        saved activation laid out as traced, where eager's differs: x.clone() of a transposed x, then
        y[..., ::2] = 5, is traced row-major; y.t() must come back as eager's)."""
        base, views = view_chain(node, vals)
        done = [self.graph_outputs[k] for k, v in enumerate(vals) if v is base]
        if base is node or not done or not isinstance(done[0], View) or not isinstance(node.meta.get("val"), torch.Tensor):
            return None
        base_view, base_meta, meta = done[0], base.meta["val"], node.meta["val"]
        if base_view.offset != 0 or base_meta.storage_offset() != 0 or \
                StorageWeakRef(meta.untyped_storage()) != StorageWeakRef(base_meta.untyped_storage()):
            return None
        if base_view.strides != [sym(st) for st in base_meta.stride()]:
            meta = replay_views(views, base_view, base_meta)
            if meta is None:
                return None
        strides = [sym(st) for st in meta.stride()]
        if eager_strides is not None and not same_strides([sym(st) for st in eager_strides], strides, meta.shape):
            return None
        return View(base_view.buffer, [sym(n) for n in meta.shape], strides, sym(meta.storage_offset()))

    def output_value(self, value, node, saved, eager_strides=None):
        """The output laid out as eager's; a saved activation may keep kiln's layout (static, at offset 0)."""
        if not isinstance(value, (Lazy, View)):
            return value
        meta = node.meta["val"]
        strides = [sym(s) for s in meta.stride()]
        if eager_strides is not None and len(eager_strides) == len(strides):
            strides = [sym(s) for s in eager_strides]
        if isinstance(value, View) and (value.strides == strides or ir.static_numel(value.sizes) == 0 or (
                saved and value.offset == 0 and meta.storage_offset() == 0 and static_ints(value.strides))):
            return value
        if saved and isinstance(value, Lazy) and static_ints(value.sizes) and self.stored_as_read(node, value):
            strides = channels_last_strides(value.sizes)   # (a ReLU that its backward reads)
        return self.realize_strided(value, strides)

    def output_strides(self):
        """The strides of each graph output, for AOTAutograd (None where not a tensor)."""
        return [static_ints(o.strides) if isinstance(o, View) else None for o in self.graph_outputs]


AS_STRIDED = (torch.ops.aten.as_strided.default, torch.ops.aten.as_strided_copy.default)


def view_chain(node, stops=()):
    """The value node views through view ops, and those ops (outermost first), a piece of a split or chunk taken by
    its getitem; the walk ends at a node in stops."""
    base, views = node, []
    while is_view(base) or isinstance(base, torch.fx.Node) and base.op == "call_function" and \
            base.target is operator.getitem and is_view(base.args[0]):
        views.append(base)
        base = base.args[0]
        if base in stops:
            break
    return base, views


def is_view(node):
    return isinstance(node, torch.fx.Node) and node.op == "call_function" and \
        isinstance(node.target, torch._ops.OpOverload) and node.args and \
        any(r.alias_info is not None and not r.alias_info.is_write for r in node.target._schema.returns)


def replay_views(views, base_view, base_meta):
    """The meta tensor that the view ops in views (outermost first) give on base_meta's sizes laid out as
    base_view; None where a size is symbolic, an op reads another node (a size), or the views do not apply to
    that layout (a view the traced layout allowed)."""
    strides = static_ints(base_view.strides)
    if strides is None or static_ints(base_view.sizes) is None or any(v.all_input_nodes[1:] for v in views):
        return None
    t = torch.empty_strided(static_ints(base_view.sizes), strides, dtype=base_meta.dtype, device="meta")
    try:
        for v in reversed(views):
            t = v.target(t, *v.args[1:], **v.kwargs)
    except RuntimeError:
        return None
    return t
