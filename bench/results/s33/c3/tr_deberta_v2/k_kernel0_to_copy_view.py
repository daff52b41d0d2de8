@triton.jit
def kernel_to_copy_view_abda750cbb(in_ptr0, out_ptr1, N, R, XBLOCK: tl.constexpr, RBLOCK: tl.constexpr):
    # _to_copy, view
    rblocks = tl.cdiv(R, RBLOCK)
    pid = tl.program_id(0)
    x0 = ((pid // rblocks) * XBLOCK + tl.arange(0, XBLOCK))[:, None]
    r0 = ((pid % rblocks) * RBLOCK + tl.arange(0, RBLOCK))[None, :]
    xmask = tl.full([XBLOCK, 1], 1, tl.int1)
    rmask = r0 < R
    tmp1 = tl.load(in_ptr0 + (0) + tl.zeros_like(x0), mask=xmask, other=0)
    tmp2 = tmp1.to(tl.float32).to(tl.bfloat16).to(tl.float32)
    tl.store(out_ptr1 + (r0 + 128104*x0), tmp2.to(tl.float32).to(tl.bfloat16), mask=xmask & rmask)
