"""A layer norm backward's weight and bias gradients as partial column sums (the first of the two kernels a split
column sum takes), written by hand in kiln's form and varied: rows per piece, tile, warps, whether the piece's
length is a constant of the kernel and loads carry eviction hints. Timed as the GPU runs them: 50 launches recorded
in a CUDA graph, replayed (inputs warm in L2, as in a training step). PYTHONPATH=. python3 column_sums.py
Prints us per launch for each variant, fastest first, and the partial sums' error against torch's. With --combine,
the second kernel instead: each column's sum of many partial sums, over tiles (not run in session 67)."""
import itertools, json, os, sys
import torch
import triton
import triton.language as tl

ROWS, C = 6304, 192   # timm DeiT-tiny's layer norms at batch 32: 32 x 197 tokens, 192 channels


@triton.jit
def partial_sums(g, x, mean, rstd, out1, out2, N, R, ROWS: tl.constexpr, C: tl.constexpr, PIECE: tl.constexpr,
                 R_CONST: tl.constexpr, EVICT: tl.constexpr, XBLOCK: tl.constexpr, RBLOCK: tl.constexpr):
    if R_CONST:
        R = PIECE
    x0 = (tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK))[:, None]
    xmask = x0 < N
    rbase = tl.arange(0, RBLOCK)[None, :]
    acc1 = tl.full([XBLOCK, RBLOCK], 0, tl.float32)
    acc2 = tl.full([XBLOCK, RBLOCK], 0, tl.float32)
    for roff in range(0, R, RBLOCK):
        r0 = roff + rbase
        row = r0 + PIECE * (x0 // C)
        m = xmask & (r0 < R) & (row < ROWS)
        off = C * row + x0 % C
        if EVICT:
            gv = tl.load(g + off, mask=m, other=0, eviction_policy="evict_first").to(tl.float32)
            xv = tl.load(x + off, mask=m, other=0, eviction_policy="evict_first")
            mu = tl.load(mean + row, mask=m, other=0, eviction_policy="evict_last")
            rs = tl.load(rstd + row, mask=m, other=0, eviction_policy="evict_last")
        else:
            gv = tl.load(g + off, mask=m, other=0).to(tl.float32)
            xv = tl.load(x + off, mask=m, other=0)
            mu = tl.load(mean + row, mask=m, other=0)
            rs = tl.load(rstd + row, mask=m, other=0)
        acc1 = acc1 + tl.where(m, gv * ((xv - mu) * rs), 0)
        acc2 = acc2 + tl.where(m, gv, 0)
    tl.store(out1 + x0, tl.sum(acc1, 1)[:, None], mask=xmask)
    tl.store(out2 + x0, tl.sum(acc2, 1)[:, None], mask=xmask)


@triton.jit
def combine(partials, out, N, R, XBLOCK: tl.constexpr, RBLOCK: tl.constexpr):
    """Each column's sum of its R partial sums (partials: [R, N], piece-major), as kiln's combining kernel loops."""
    x0 = (tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK))[:, None]
    xmask = x0 < N
    rbase = tl.arange(0, RBLOCK)[None, :]
    acc = tl.full([XBLOCK, RBLOCK], 0, tl.float32)
    for roff in range(0, R, RBLOCK):
        r0 = roff + rbase
        m = xmask & (r0 < R)
        acc = acc + tl.load(partials + (N * r0 + x0), mask=m, other=0)
    tl.store(out + x0, tl.sum(acc, 1)[:, None], mask=xmask)


def graph_time(launch, inner=50, replays=20):
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        launch()
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(inner):
            launch()
    times = []
    for _ in range(5):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(replays):
            graph.replay()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end) * 1000 / (inner * replays))
    return sorted(times)[2]


def combines():
    """The combining kernel over many partial sums (a ResNet batch norm's 392 pieces of 64 channels; DeiT-tiny's
    32 of 192): kiln's tile (64 columns, 64 partials a step, 8 warps) against narrower, deeper ones."""
    rows = []
    for pieces, n in ((392, 64), (196, 128), (98, 256), (32, 192), (16, 768), (784, 64)):
        partials, out = torch.randn(pieces, n, device="cuda"), torch.empty(n, device="cuda")
        want = partials.sum(0)
        for xblock, rblock, warps in itertools.product((8, 16, 32, 64), (64, 128, 256, 512), (4, 8)):
            if xblock * rblock > 16384 or xblock * rblock < 32 * warps:
                continue
            grid = (triton.cdiv(n, xblock),)

            def launch():
                combine[grid](partials, out, n, pieces, xblock, rblock, num_warps=warps)
            us = graph_time(launch)
            err = ((out - want).abs().max() / want.abs().max()).item()
            rows.append({"pieces": pieces, "n": n, "xblock": xblock, "rblock": rblock, "warps": warps,
                         "programs": grid[0], "us": round(us, 2), "err": err})
    for shape in sorted({(r["pieces"], r["n"]) for r in rows}):
        mine = sorted((r for r in rows if (r["pieces"], r["n"]) == shape), key=lambda r: r["us"])
        kiln = [r["us"] for r in mine if (r["xblock"], r["rblock"], r["warps"]) == (min(64, shape[1]), 64, 8)]
        print(shape, "kiln's tile", kiln, "fastest", [(r["xblock"], r["rblock"], r["warps"], r["us"]) for r in mine[:4]],
              flush=True)
    return rows


def main():
    if "--combine" in sys.argv:
        rows = combines()
        if os.environ.get("OUT"):
            json.dump(rows, open(os.path.join(os.environ["OUT"], "combines.json"), "w"), indent=1)
        return
    g = torch.randn(ROWS, C, device="cuda").to(torch.bfloat16)
    x = torch.randn(ROWS, C, device="cuda")
    mean, rstd = torch.randn(ROWS, device="cuda"), torch.rand(ROWS, device="cuda") + 0.5
    want1 = (g.float() * ((x - mean[:, None]) * rstd[:, None])).sum(0)
    want2 = g.float().sum(0)
    rows = []
    for piece, xblock, rblock, warps, (r_const, evict) in itertools.product(
            (394, 197, 127, 65), (64, 128), (8, 16, 64), (4, 8), ((0, 0), (1, 1))):
        pieces = -(-ROWS // piece)
        n = pieces * C
        out1, out2 = torch.empty(pieces, C, device="cuda"), torch.empty(pieces, C, device="cuda")
        grid = (triton.cdiv(n, xblock),)

        def launch():
            partial_sums[grid](g, x, mean, rstd, out1, out2, n, piece, ROWS, C, piece, r_const, evict, xblock, rblock,
                               num_warps=warps)
        try:
            us = graph_time(launch)
        except Exception as e:
            print(piece, xblock, rblock, warps, r_const, evict, "failed", type(e).__name__, str(e)[:100], flush=True)
            continue
        err = max(((out1.sum(0) - want1).abs().max() / want1.abs().max()).item(),
                  ((out2.sum(0) - want2).abs().max() / want2.abs().max()).item())
        rows.append({"piece": piece, "pieces": pieces, "programs": grid[0], "xblock": xblock, "rblock": rblock,
                     "warps": warps, "r_const": r_const, "evict": evict, "us": round(us, 2), "err": err})
    rows.sort(key=lambda r: r["us"])
    for r in rows:
        print(r, flush=True)
    if os.environ.get("OUT"):
        json.dump(rows, open(os.path.join(os.environ["OUT"], "column_sums.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
