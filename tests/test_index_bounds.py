"""Indices read from tensors are checked, by default, on both targets: an out-of-bounds index raises an
IndexError naming the index and the kernel's ops, and no kernel reads or writes through it (issue 24: kiln
returned garbage for w[[1, 12]], and an accumulating index_put_ with index 11 corrupted the heap)."""
import os

import pytest
import torch
import torch.nn.functional as F

import kiln

from conftest import kiln_compile

ROWS = 10

# name -> (function of (w, i), the bad index tensor, a good one); w is ROWS x 3
OPS = {
    "index": (lambda w, i: w[i] * 2, [1, 12], [1, -3, 9]),
    "embedding": (lambda w, i: F.embedding(i, w) + 1, [[1, 10]], [[0, 9]]),
    "index_select": (lambda w, i: w.index_select(0, i) * 2, [3, 10], [3, 9]),
    "gather": (lambda w, i: w.gather(0, i.view(-1, 1).expand(-1, 3)) * 2, [2, 10], [2, 9]),
    "index_put": (lambda w, i: w.index_put((i,), torch.ones(len(i), 3), accumulate=True), [1, 11], [1, -1]),
    "scatter_add": (lambda w, i: w.scatter_add(0, i.view(-1, 1).expand(-1, 3), torch.ones(len(i), 3)), [0, 10],
                    [0, 9]),
}


@pytest.mark.parametrize("name", sorted(OPS))
def test_out_of_bounds_index_raises(name):
    fn, bad, good = OPS[name]
    compiled = kiln_compile(fn)
    w = torch.randn(ROWS, 3)
    with pytest.raises(IndexError, match=r"index -?\d+ is out of bounds for size \d+"):
        compiled(w, torch.tensor(bad))
    # the error is not sticky: the next call with good indices is right
    torch.testing.assert_close(compiled(w, torch.tensor(good)), fn(w, torch.tensor(good)))


# name -> (function of (w, i), w's shape, an out-of-bounds index, an index in bounds): results with no elements
EMPTY_RESULTS = {
    "index": (lambda w, i: w[i] * 2, (ROWS, 0), [12], [1]),
    "embedding": (lambda w, i: F.embedding(i, w) + 1, (ROWS, 0), [[10]], [[9]]),
    "index_select": (lambda w, i: w.index_select(0, i) * 2, (ROWS, 0), [10], [9]),
    "index_put": (lambda w, i: w.index_put((i,), torch.ones(len(i), 3)), (0, 3), [0], []),
    "scatter_add": (lambda w, i: w.scatter_add(0, i.view(-1, 1).expand(-1, 3), torch.ones(len(i), 3)), (0, 3), [0],
                    []),
    # several scatters in one lowering: the first one's refusal failed the next one's compile
    "scatter_reduce_amax": (lambda w, i: w.scatter_reduce(0, i.view(-1, 1).expand(-1, 3), torch.ones(len(i), 3),
                                                          "amax", include_self=False), (0, 3), [0], []),
    "scatter_reduce_mean": (lambda w, i: w.scatter_reduce(0, i.view(-1, 1).expand(-1, 3), torch.ones(len(i), 3),
                                                          "mean"), (0, 3), [0], []),
    # a dim of size 0 read or written through an index (fuzz seed 9127): eager raises even where the result has no
    # elements, and where it has some, kiln's stand-in for a failed index read outside the tensor (the C++ kernel
    # crashed on a null pointer)
    "index_of_an_empty_dim": (lambda w, i: w[i] * 2, (0, 3), [2], []),
    "index_of_an_empty_dim_no_result": (lambda w, i: w[i] * 2, (0, 0), [2], []),
    "index_put_of_no_updates": (lambda w, i: w.index_put((i,), w[:1]), (0, 0), [2], []),
    "gather_from_an_empty_dim": (lambda w, i: w.gather(0, i.view(-1, 1).expand(-1, 3)) * 2, (0, 3), [2], []),
    "index_select_from_an_empty_dim": (lambda w, i: w.index_select(0, i) * 2, (0, 3), [2], []),
    "embedding_of_no_rows": (lambda w, i: F.embedding(i, w) + 1, (0, 3), [2], []),
    "index_reduce_of_no_updates": (lambda w, i: w.index_reduce(0, i, torch.ones(len(i), 0), "prod"), (3, 0), [5],
                                   [1]),
}


@pytest.mark.parametrize("name", sorted(EMPTY_RESULTS))
def test_an_out_of_bounds_index_raises_where_the_result_has_no_elements_as_in_eager(name):
    """An op whose result has no elements computes nothing, so its indices' bounds were never checked: kiln
    returned an empty tensor where eager raises (an index_put into an empty tensor: fuzz seed 8730). Eager's
    x[i] checks nothing there either, but for a dim of size 0, where it raises whatever the result (seed 9127),
    and where kiln's kernel read outside the tensor."""
    fn, shape, bad, good = EMPTY_RESULTS[name]
    w = torch.randn(shape)
    compiled = kiln_compile(fn)
    try:
        expected = fn(w, torch.tensor(bad))
    except (IndexError, RuntimeError) as e:
        with pytest.raises(type(e)) as raised:
            compiled(w, torch.tensor(bad))
        assert type(raised.value) is type(e), raised.value   # (not a failed compile, a RuntimeError too)
    else:
        assert name == "index"
        torch.testing.assert_close(compiled(w, torch.tensor(bad)), expected)
    expected = fn(w, torch.tensor(good, dtype=torch.long))
    torch.testing.assert_close(compiled(w, torch.tensor(good, dtype=torch.long)), expected)


@pytest.mark.parametrize("op", ["gather", "index_select"])
def test_an_index_into_a_0d_tensor_is_checked(op):
    """A 0-d x has one element, at index 0, which eager checks every index against: kiln returned x for any
    index (a fresh reader's review of the empty-dim change)."""
    fn = (lambda w, i: w.gather(0, i) * 2) if op == "gather" else (lambda w, i: w.index_select(0, i) * 2)
    compiled = kiln_compile(fn)
    w = torch.tensor(3.0)
    with pytest.raises(IndexError, match="index 5 is out of bounds for size 1"):
        compiled(w, torch.tensor([5]))
    torch.testing.assert_close(compiled(w, torch.tensor([0])), fn(w, torch.tensor([0])))


def test_no_kernel_reads_through_an_index_into_a_dim_of_size_0(monkeypatch):
    """Under lowering's refusal (indexing.indexes_an_empty_dim), code generation refuses too: a failed index's
    stand-in (0) is out of bounds in a dim of size 0, so a kernel reading through one would read outside the
    tensor (it crashed). With lowering's check taken away, the compile fails (strict mode raises) instead."""
    from kiln.lowering import indexing
    monkeypatch.setattr(indexing, "indexes_an_empty_dim", lambda sizes: False)
    compiled = kiln_compile(lambda w, i: w[i] * 2)
    with pytest.raises(Exception, match="index into a dim of size 0"):
        compiled(torch.randn(0, 3), torch.tensor([2]))


INDEX_ARG_OPS = {   # op -> (function of (w, i); whether eager counts a negative index from the end)
    "index_add": (lambda w, i: w.index_add(0, i, torch.ones(len(i), 3), alpha=2), False),
    "index_copy": (lambda w, i: w.index_copy(0, i, torch.ones(len(i), 3)), False),
    "index_fill": (lambda w, i: w.index_fill(0, i, 5.0), True),
}


@pytest.mark.parametrize("name", sorted(INDEX_ARG_OPS))
def test_a_negative_index_of_index_add_copy_fill_is_eagers(name):
    """index_add and index_copy raise on a negative index, index_fill counts it from the end: kiln's index_add
    and index_copy took theirs from the end (a fresh reader's review: a value where eager raises)."""
    fn, wraps = INDEX_ARG_OPS[name]
    w, i = torch.randn(ROWS, 3), torch.tensor([2, -1])
    compiled = kiln_compile(fn)
    if wraps:
        torch.testing.assert_close(compiled(w, i), fn(w, i))
    else:
        with pytest.raises(IndexError):
            fn(w, i)
        with pytest.raises(IndexError, match="index -1 is out of bounds"):
            compiled(w, i)
    torch.testing.assert_close(compiled(w, torch.tensor([2, 9])), fn(w, torch.tensor([2, 9])))
    with pytest.raises(IndexError):
        compiled(w, torch.tensor([2, ROWS]))


@pytest.mark.parametrize("name", ["embedding", "gather", "index_select"])
def test_negative_index_raises_where_eager_raises(name):
    fn, _, good = OPS[name]
    w = torch.randn(ROWS, 3)
    with pytest.raises((IndexError, RuntimeError)):
        fn(w, torch.tensor([-1]))
    with pytest.raises(IndexError):
        kiln_compile(fn)(w, torch.tensor([-1]))


def test_out_of_bounds_scatter_writes_nothing_outside_its_tensor():
    """The target is a view into a larger buffer: a write through index 11 of 10 rows would land in the
    rows after it, which belong to the caller."""
    base = torch.zeros(3 * ROWS, 3)
    target = base[ROWS:2 * ROWS]

    def fn(w, i):
        w.index_put_((i,), torch.ones(len(i), 3), accumulate=True)
    with pytest.raises(IndexError):
        kiln_compile(fn)(target, torch.tensor([ROWS + 1, -ROWS - 2, 2 * ROWS]))
    assert not base[:ROWS].any() and not base[2 * ROWS:].any()


def test_index_check_with_symbolic_sizes():
    compiled = kiln_compile(lambda w, i: w[i] + 1, dynamic=True)
    for rows in (ROWS, ROWS + 3):
        w = torch.randn(rows, 3)
        torch.testing.assert_close(compiled(w, torch.tensor([0, rows - 1])), w[[0, rows - 1]] + 1)
        with pytest.raises(IndexError, match=f"index {rows} is out of bounds for size {rows}"):
            compiled(w, torch.tensor([0, rows]))


def test_the_smallest_int64_index_is_reported():
    """The C++ check keeps the largest bad index, starting from the smallest int64: that index itself must
    still be seen."""
    fn = OPS["gather"][0]
    with pytest.raises(IndexError):
        kiln_compile(fn)(torch.randn(ROWS, 3), torch.tensor([0, -2 ** 63]))


@pytest.mark.skipif(os.environ.get("KILN_TARGET") == "triton", reason="the C++ kernel's structure")
def test_row_index_is_computed_once_per_row(tmp_path):
    """An embedding's row index does not change along the row: the C++ kernel computes and checks it before
    the vectorized loop over the row, which then only copies (the check inside the loop kept g++ from
    vectorizing it)."""
    kiln.compile(OPS["embedding"][0], options={"strict": True, "trace": str(tmp_path)})(
        torch.randn(ROWS, 3), torch.tensor([[1, 2]]))
    source = next(tmp_path.glob("*/kernel*embedding*.cpp")).read_text()
    loop = source.split("#pragma omp simd")[1].split("}")[0]
    assert "idx" in source and "_ok" not in loop and "_bad" not in loop


def test_gpu_assert_message_fits_cuda():
    """torch._assert_async takes at most 254 characters on CUDA; a graph with many indexing ops had more."""
    from kiln.runtime.wrapper import index_assert_message
    sites = {i: (f"kernel{i}", (f"op_number_{i}", "embedding")) for i in range(1, 40)}
    message = index_assert_message("g0_inference", sites)
    assert len(message) < 255 and message.startswith("kiln: an index read by g0_inference is out of bounds")


def index_checks(modules):
    """The in-bounds tests in the kernels loaded (Triton's `idxN_ok = (...)`, C++'s `const bool idxN_ok`)."""
    import re
    return re.findall(r"\bidx\d+_ok = \(|const bool idx\d+_ok", "\n".join(m.kernel_source for m in modules))


def test_an_index_read_twice_is_checked_once(built):
    """Two gathers through one index tensor declare and check the index once, and a bad index still raises."""
    def fn(a, b, i):
        return a[i] * 2 + b[i]
    a, b = torch.randn(ROWS, 3), torch.randn(ROWS, 3)
    compiled = kiln_compile(fn)
    good = torch.tensor([1, -3, 9])
    torch.testing.assert_close(compiled(a, b, good), fn(a, b, good))
    assert len(index_checks(built)) == 1, index_checks(built)
    with pytest.raises(IndexError):
        compiled(a, b, torch.tensor([1, 12]))


@pytest.mark.parametrize("ceil_mode", [False, True])
def test_a_max_pool_backward_reads_its_windows_unchecked(built, ceil_mode):
    """A max-pool's backward gathers from the windows around each element, at indices it computes within the
    pooled sizes (clamped to the windows that exist): it needs no index checks, which were most of its kernel's
    code. Its gradient is eager's, with padding, overlapping windows and ceil_mode's partial windows."""
    x = torch.randn(2, 3, 11, 10, requires_grad=True)

    def fn(x):
        return F.max_pool2d(x, 3, 2, 1, ceil_mode=ceil_mode).sin().sum()
    kiln_compile(fn)(x).backward()
    got, x.grad = x.grad, None
    fn(x).backward()
    torch.testing.assert_close(got, x.grad)
    assert built and index_checks(built) == []


def test_an_as_strided_past_its_inputs_storage_raises_as_in_eager():
    """An as_strided at an explicit offset reads the caller's storage around its input: given an input whose storage
    does not hold the positions read (a slice that another compiled graph returned in a storage of its elements
    alone), the call raises as eager's as_strided does, rather than reading past the storage's end."""
    def f(x):
        return x.as_strided((6, 4), (4, 1), 0) * 3

    g = kiln_compile(f)
    traced = torch.randn(10, 4)[:4]
    torch.testing.assert_close(g(traced), f(traced))
    short = torch.randn(4, 4)   # (the same layout and offset: no recompile; 16 elements where 24 are read)
    with pytest.raises(RuntimeError, match="out of bounds for"):
        f(short)
    with pytest.raises(RuntimeError, match="out of bounds for"):
        g(short)
