"""A Triton kernel's rows (codegen/triton.py writes the values in them): a reduction's rows held whole in
registers (persistent) or walked in blocks of RBLOCK with an accumulator tile, each reduced across its lanes at the
end; a scan's rows walked in blocks, each block's scan combined with the carry of the blocks before it."""
import torch

from kiln.codegen.common import Value
from kiln.codegen.triton_ops import TL_DTYPES, compute_dtype

REDUCE_INIT = {"sum": "0", "prod": "1", "max": "float('-inf')", "min": "float('inf')", "any": "0", "all": "1",
               "logaddexp": "float('-inf')"}


def reduction_fill(rt, dtype):
    """The value that leaves a reduction unchanged, for padding lanes past the end of a row."""
    fill = REDUCE_INIT.get(rt, "float('-inf')" if rt == "argmax" else "float('inf')")
    if not dtype.is_floating_point and fill.startswith("float"):
        if dtype == torch.bool:
            return "0" if "-inf" in fill else "1"
        info = torch.iinfo(dtype)
        return str(info.min if "-inf" in fill else info.max)
    return fill


class TritonRows:
    """TritonKernel's reductions and scans: a mixin over its KernelWriter state (scope, tile, persistent)."""

    def reduction_segment(self, members, R):
        reductions = [p for p in members if p.node.is_reduction]
        if self.persistent:
            for p in members:
                value = self.run_body(p)
                if p.node.is_reduction:
                    self.finish_value(p, self.reduction_result(p, self.reduce_tile(p, value)), full=False)
                else:
                    self.finish_value(p, value, full=True)
            return
        accs = {p.node.name: self.looped_accumulator(p) for p in reductions}
        self.open_row_loop()
        for p in members:
            value = self.run_body(p)
            if p.node.is_reduction:
                self.update_looped(p, accs[p.node.name], value)
            else:
                self.finish_value(p, value, full=True)
        self.close()
        for p in reductions:
            self.finish_value(p, self.reduction_result(p, self.reduce_tile(p, accs[p.node.name], looped=True)),
                              full=False)

    def open_row_loop(self):
        """A loop over the row in blocks of RBLOCK; its body is the new scope."""
        self.scope.line("for roff in range(0, R, RBLOCK):")
        self.push()
        self.scope.line("r0 = roff + rbase")
        self.scope.line("rmask = r0 < R")

    def scan_segment(self, p):
        """Each program walks its rows in blocks: a block's scan, combined with the carry of the blocks before."""
        combine, dtype = p.node.scan.combine, p.node.buf.dtype
        fill, tl_type, fn = reduction_fill(combine, dtype), TL_DTYPES[compute_dtype(dtype)], f"kiln_{combine}"
        carry = Value(self.fresh("carry"), dtype)
        self.scope.line(f"{carry} = tl.full([XBLOCK, 1], {fill}, {tl_type})")
        self.open_row_loop()
        value = self.emit(f"tl.where(xmask & rmask, {self.run_body(p)}, {fill}).to({tl_type})", dtype)
        self.finish_value(p, self.emit(f"{fn}({carry}, tl.associative_scan({value}, 1, {fn}))", dtype), full=True)
        self.scope.line(f"{carry} = {fn}({carry}, tl.reduce({value}, 1, {fn})[:, None])")
        self.close()

    def masked_for_reduction(self, rt, value, dtype):
        return f"tl.where(xmask & rmask, {value}, {reduction_fill(rt, dtype)})"

    def reduce_tile(self, p, value, looped=False):
        """The row reduction of a [XBLOCK, RBLOCK] tile, as an [XBLOCK, 1] value."""
        red = p.node.buf.node
        rt, dtype = red.reduction_type, red.src_dtype
        if rt.startswith("arg"):
            if looped:
                vals, idxs = value
            else:
                vals = self.emit(self.masked_for_reduction(rt, value, dtype), dtype)
                idxs = self.emit("(r0 + tl.zeros_like(x0)).to(tl.int64)", torch.int64)
            name = self.fresh("arg")
            self.scope.line(f"_, {name} = tl.reduce(({vals}, {idxs}), 1, kiln_{rt})")
            return self.emit(f"{name}[:, None]", torch.int64)
        if not looped:
            value = self.emit(self.masked_for_reduction(rt, value, dtype), dtype)
        if rt in ("any", "all"):
            value = self.emit(f"{value}.to(tl.int32)", torch.int32)
            combine = "kiln_max" if rt == "any" else "kiln_min"
        elif rt == "sum" and dtype in (torch.float32, torch.float64):
            # a tree on the GPU, as tl.reduce is; the interpreter runs tl.reduce as one chain of adds, 4x
            # further from fp64 than eager over a row of 2048 lanes (and one Python call per element)
            return self.emit(f"tl.sum({value}, 1)[:, None]", dtype)
        else:
            combine = f"kiln_{rt}"
        out = self.emit(f"tl.reduce({value}, 1, {combine})[:, None]", dtype)
        return self.emit(f"{out}.to(tl.int1)", torch.bool) if rt in ("any", "all") else out

    def looped_accumulator(self, p):
        red = p.node.buf.node
        rt, dtype = red.reduction_type, red.src_dtype
        tl_type = TL_DTYPES[compute_dtype(dtype)] if rt not in ("any", "all") else "tl.int32"
        init = reduction_fill(rt, dtype)
        acc = Value(self.fresh("acc"), dtype if rt not in ("any", "all") else torch.int32)
        self.scope.line(f"{acc.name} = tl.full([XBLOCK, RBLOCK], {init}, {tl_type})")
        if rt.startswith("arg"):
            idx = Value(self.fresh("accidx"), torch.int64)
            self.scope.line(f"{idx.name} = tl.full([XBLOCK, RBLOCK], 2**62, tl.int64)")
            return acc, idx
        return acc

    def update_looped(self, p, acc, value):
        rt = p.node.buf.node.reduction_type
        dtype = p.node.buf.node.src_dtype
        masked = self.masked_for_reduction(rt, value, dtype)
        if rt.startswith("arg"):
            vals, idxs = acc
            self.scope.line(f"{vals.name}, {idxs.name} = kiln_{rt}({vals.name}, {idxs.name}, {masked}, "
                            f"(r0 + tl.zeros_like(x0)).to(tl.int64))")
            return
        combine = {"any": "kiln_max", "all": "kiln_min"}.get(rt, f"kiln_{rt}")
        if rt in ("any", "all"):
            masked = f"({masked}).to(tl.int32)"
        self.scope.line(f"{acc.name} = {combine}({acc.name}, {masked})")
