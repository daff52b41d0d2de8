"""The tile of a Triton kernel: how many of its (N, R) elements a program owns (XBLOCK x RBLOCK), whether its rows
stay whole in registers, and how many warps run it, chosen from the kernel's kind and sizes before any code is
written (codegen/triton.py writes the code for the tile; max-autotune times the candidates; the scheduler asks
which reductions keep their rows in registers)."""
import functools
import math

from kiln import ir

PERSISTENT_MAX = 16384          # widest row kept in registers
POINTWISE_TILE = 2048           # elements per pointwise program
# Column sums with fewer programs than this (about an H100's or H200's SMs) narrow their tiles to reach it: a split
# sum's combine over 32-392 partials 1.9-7.9 -> 1.5-2.5 us on an H200 (bench/results/s69/c1)
SPREAD_PROGRAMS = 128
# Elements of a column sum's tile (outputs x reduced rows): 64 x 64, or more outputs over fewer rows. T5's position
# bias gradient, [8, 8, 512, 512] summed over the batch, took 89 us in 64 x 8 tiles (0.8 TB/s; bench/NOTES.md 96)
INTERLEAVED_TILE = 4096


def row_block(R, widest, narrowest=32):
    """The widest block of a pointwise kernel's row, down to `narrowest`, that pads the row by at most a 16th (a row
    of 3072 in blocks of 1024, not 2048), else the one that pads it least: 72 channels in blocks of 32, not 128,
    where 44% of the lanes idled (MobileNetV3's depthwise kernels, bench/NOTES.md 62)."""
    if not R:
        return widest
    blocks = [widest >> k for k in range(widest.bit_length()) if widest >> k >= min(narrowest, widest)]
    return next((b for b in blocks if -R % b * 16 <= R), min(blocks, key=lambda b: -R % b))


def next_pow2(n):
    return 1 << max(0, math.ceil(math.log2(max(n, 1))))


class Tiles:
    """A kernel's tile choices, from the kernel's analyses and the graph's size hints alone."""

    def __init__(self, kernel, graph):
        self.kernel, self.graph = kernel, graph

    def config(self):
        """(XBLOCK, RBLOCK, persistent, num_warps) from the kernel's kind and sizes (symbolic ones by their hints:
        tiles sized by a hint stay correct for other sizes; only persistent rows need the exact length)."""
        k = self.kernel
        N, R = self.graph.size_hint(k.numel) or 1 << 20, self.graph.size_hint(k.rnumel)
        static_r = ir.static_numel([k.rnumel], None) is not None
        if k.scan:   # rows in blocks of up to 1024, carried from block to block
            rblock = min(next_pow2(R or 1024), 1024)
            return min(next_pow2(N), max(1, 1024 // rblock)), rblock, False, 4
        if not k.is_reduction:
            if self.transposing:   # square tiles; 32x32 on small ones (a conv weight), to spread over the SMs
                side = 64 if N * (R or 64) >= 1 << 20 else 32
                return min(next_pow2(N), side), min(next_pow2(R or side), side), False, 8 if side == 64 else 4
            if N == 1:   # one long contiguous run: 512 elements over 2 warps, 8 per thread in two vectors
                return 1, min(next_pow2(R or 512), 512), False, 2
            rblock = row_block(R, min(next_pow2(R or POINTWISE_TILE), POINTWISE_TILE))
            xblock = min(next_pow2(N), max(1, POINTWISE_TILE // rblock))
            return xblock, rblock, False, 4   # 16 elements per thread (8 warps: gelu 4% slower)
        if self.rows_interleaved():
            # lanes along the contiguous outputs, a short stretch of the reduced dim each; a short reduced dim (a
            # bias's gradient summed over a batch of 8) takes more outputs, so that a program moves a whole tile;
            # few outputs (a split sum's combine, a narrow column sum) in narrower tiles, down to one 32-byte
            # sector of fp32, so that their programs spread over the SMs rather than each looping over every row
            rblock = min(next_pow2(R or 64), 64)
            xblock = min(next_pow2(N), max(64, min(INTERLEAVED_TILE // rblock, 1024)))
            while xblock > 8 and -(-N // xblock) < SPREAD_PROGRAMS:
                xblock //= 2
            return xblock, rblock, static_r and R <= 64, 8
        if R is not None and R <= PERSISTENT_MAX and static_r:
            rblock = next_pow2(R)
            xblock = min(next_pow2(N), max(1, 4096 // rblock))   # short rows: several per program
            warps = 16 if rblock >= 8192 else 8 if xblock * rblock >= 2048 else 4
            return xblock, rblock, True, warps
        if R is not None and R < 2048:   # a symbolic row, looped (right for any length) in tiles fit to its hint
            rblock = next_pow2(R)
            xblock = min(next_pow2(N), max(1, 2048 // rblock))
            return xblock, rblock, False, 8 if xblock * rblock >= 2048 else 4
        return 1, 2048, False, 8

    def candidates(self):
        """The launch configurations max-autotune times for this kernel, the heuristic's first. Each keeps the
        code's shape that scheduling assumed (persistent rows stay persistent, looped rows stay looped) and is
        correct for any size: only the tile sizes and warps move."""
        default = self.config()
        k = self.kernel
        N, R = self.graph.size_hint(k.numel), self.graph.size_hint(k.rnumel)
        if k.scan or N is None or R is None:
            return [default]
        n, r = next_pow2(N), next_pow2(R)
        if not k.is_reduction:
            if self.transposing:
                tiles = [(min(n, side), min(r, side)) for side in (32, 64)]
            elif N == 1:
                tiles = [(1, min(r, block)) for block in (512, 1024, 2048, 4096)]
            else:   # a tile of rows: as wide as the row, up to the tile's elements
                tiles = [(min(n, max(1, total // min(r, total))), min(r, total)) for total in (1024, 2048, 4096)]
            configs = [(x, rb, False, w) for x, rb in tiles for w in (2, 4, 8)]
        elif default[2]:   # the row stays whole in registers: more or fewer rows per program
            configs = [(x, default[1], True, w) for x in (1, 2, 4, 8, 16, 32) if x <= n for w in (4, 8, 16)]
        elif self.rows_interleaved():   # lanes along the adjacent rows, a stretch of the reduced dim each
            configs = [(min(n, x), min(r, rb), False, w) for x in (32, 64, 128) for rb in (16, 32, 64) for w in (4, 8)]
        else:   # looped rows: rows per program and the stretch of a row each step loads
            configs = [(min(n, x), min(r, rb), False, w) for x, rb in ((1, 1024), (1, 2048), (1, 4096), (2, 1024),
                                                                       (4, 512), (8, 256)) for w in (4, 8, 16)]
        # from 1 to 64 elements per thread: fewer leaves lanes idle, more spills registers
        fit = [c for c in configs if 32 * c[3] <= c[0] * c[1] <= min(2048 * c[3], 16384)]
        return list(dict.fromkeys([default, *fit]))

    def unit_stride(self, expr, var, other):
        """Whether expr steps by one along var (probed at a few points: divisions hide it symbolically), symbolic
        sizes at their hints (a transposing copy of [1024, s0] read each row's elements s0 apart otherwise)."""
        expr = ir.at_hints(expr, self.kernel.size_hints)
        if not expr.has(var) or expr.free_symbols - {var, other}:
            return False
        return all(ir.step_at(expr, {var: i, other: 0}, var) == 1 for i in range(3))

    @functools.cached_property
    def transposing(self):
        """A pointwise kernel that reads some buffer contiguously along x0 and writes along r0: square
        tiles let Triton transpose through shared memory instead of striding through DRAM."""
        x, r = self.kernel.x, self.kernel.r
        for p in self.kernel.placements:
            remap = p.remap()
            for _, e in p.node.buf.analysis.loads:
                if self.unit_stride(remap(e), x, r) and not self.unit_stride(remap(e), r, x):
                    return True
        return False

    def rows_interleaved(self):
        """Whether the reduced dim is strided in memory while neighbouring rows are adjacent (channels-last)."""
        steps = self.kernel.row_steps()
        return steps is not None and steps[0] != 1 and steps[1] == 1
