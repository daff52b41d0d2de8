"""What kiln generates for a CUDA device, checked without one: graphs traced on fake CUDA tensors are lowered,
scheduled and turned into Triton kernels and their wrapper, which are read, not run. Launch shapes and layouts
that only the GPU path chooses (split reductions, channels-last buffers) are tested here; CI has no GPU."""
import importlib.util
import re

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch._functorch.aot_autograd import aot_module_simplified
from torch._dynamo.source import ConstantSource
from torch._subclasses.fake_tensor import FakeTensorMode
from torch.fx.experimental.symbolic_shapes import DimDynamic, ShapeEnv, StatelessSymbolicContext
from torch.fx.experimental.proxy_tensor import make_fx

from kiln import capture
from kiln.config import Options
from kiln.decompositions import kiln_decompositions
from kiln.tools.trace import GraphTrace


def cuda_wrapper(fn, *layouts, graph="inference", saved_from=1):
    return cuda_artifact(fn, *layouts, graph=graph, saved_from=saved_from).wrapper_source


def cuda_artifact(fn, *layouts, graph="inference", saved_from=1, dtype=torch.float32, decompositions=None, options=None):
    """What kiln generates for fn on CUDA inputs of these (sizes, strides) and dtype, as an inference graph, a
    training step's backward, or its forward, whose results from index saved_from on are saved for the backward
    (and whose output strides it reports). decompositions: the table AOTAutograd would trace with (by default
    the training one, which decomposes an eval batch norm). options: kiln's options beside the target."""
    mode = FakeTensorMode()
    with mode:
        args = [torch.empty_strided(sizes, strides, device="cuda", dtype=dtype) for sizes, strides in layouts]
        gm = make_fx(lambda *a: as_tuple(fn(*a)), decomposition_table=decompositions or kiln_decompositions())(*args)
        return generated(gm, args, graph, saved_from, options)


def generated(gm, args, graph, saved_from, options=None):
    """kiln's artifact for an ATen graph on fake CUDA args (in their fake mode), as cuda_artifact describes."""
    opts = Options.make(options={"target": "triton", "trace": None, **(options or {})})
    forward = graph == "forward"
    return capture.generate(gm, args, opts, f"g_{graph}", GraphTrace(None, "g"), saved_from if forward else None,
                            None, forward, {}, {})[0]


def cuda_training_artifacts(module, *shapes, symbolic_dims=()):
    """kiln's (forward, backward) for a module's training step on CUDA inputs of these shapes, as AOTAutograd
    partitions it for kiln. The step is traced on fake CPU tensors (autograd needs a device this build has), then
    each graph again on fake CUDA tensors. symbolic_dims: the inputs' dims traced as symbolic sizes (as
    dynamic=True traces them), these shapes their hints."""
    mode, graphs = FakeTensorMode(allow_non_fake_inputs=True, shape_env=ShapeEnv()), {}
    real = [torch.empty(shape) for shape in shapes]   # (made outside the mode: from_tensor makes them symbolic)

    def partition(joint, inputs, **kwargs):
        graphs["forward"], graphs["backward"] = capture.partition(joint, inputs, **kwargs)
        graphs["saved_from"] = kwargs["num_fwd_outputs"]   # (the forward's outputs after these are saved activations)
        return graphs["forward"], graphs["backward"]
    with mode:
        inputs = [mode.from_tensor(x, source=ConstantSource(f"input{i}"), symbolic_context=StatelessSymbolicContext(
            [DimDynamic.DYNAMIC if d in symbolic_dims else DimDynamic.STATIC for d in range(x.dim())]))
            .requires_grad_() for i, x in enumerate(real)]
        aot_module_simplified(module, inputs, fw_compiler=lambda g, _: g, bw_compiler=lambda g, _: g,
                              decompositions=kiln_decompositions(), partition_fn=partition)
    artifacts = []
    for kind in ("forward", "backward"):
        gm = graphs[kind]
        for node in gm.graph.nodes:
            if node.kwargs.get("device") == torch.device("cpu"):
                node.kwargs = {**node.kwargs, "device": torch.device("cuda")}
        gm.recompile()
        with mode:
            args = [torch.empty_strided(v.shape, v.stride(), dtype=v.dtype, device="cuda")
                    if isinstance(v, torch.Tensor) else v
                    for v in (n.meta["val"] for n in gm.graph.nodes if n.op == "placeholder")]
            artifacts.append(generated(make_fx(gm)(*args), args, kind, graphs["saved_from"]))
    return artifacts


def as_tuple(result):
    return result if isinstance(result, tuple) else (result,)


def launches(wrapper):
    """(kernel, number of programs) of each launch, in order."""
    found = re.findall(r"(kernel_\w+)\((.*?), \w+[,)]", wrapper)
    return [(name, eval(grid)) for name, grid in found]


def launched(wrapper):
    """The kernels a wrapper launches, in order (launches() without the grids, which may name size symbols)."""
    return re.findall(r"^ *(kernel_\w+)\(", wrapper, re.M)


def tile(wrapper, name):
    """(XBLOCK, RBLOCK) of kernel name's first launch in wrapper."""
    return tuple(int(v) for v in re.search(name + r"\(.*, (\d+), (\d+)\)\n", wrapper).groups())


def channels_last(n, c, h, w):
    return (n, c, h, w), (h * w * c, 1, w * c, c)


def test_channels_last_rows_of_a_computed_value_are_split():
    """A batch norm's backward sums an activation's gradient that eager lays out NCHW but kiln's kernels read
    channels-last: judged by eager's layout, the 25088 rows of 128 channels were not split, and ran on 2
    programs (ResNet's training step: 550 us each, where 196 programs take ~60). Their partial sums are combined
    by programs of 8 channels (16 programs): 2 of 64, each looping over every partial sum, took 3.9 us of a 28x28
    batch norm's backward where 16 take 1.7 (H200, bench/results/s69/c1)."""
    def relu_backward_sum(x, grad):
        contiguous = torch.contiguous_format
        return torch.where(x.clone(memory_format=contiguous) <= 0, 0, grad.clone(memory_format=contiguous)).sum([0, 2, 3])
    wrapper = cuda_wrapper(relu_backward_sum, channels_last(32, 128, 28, 28), channels_last(32, 128, 28, 28))
    (_, programs), (_, combining) = launches(wrapper)
    assert programs >= 128 and combining == 16, wrapper


def test_a_shared_value_read_channels_last_is_stored_so():
    """A backward graph's sum of two gradients that kiln's convolutions return channels-last, where eager's trace
    says NCHW: stored NCHW, every reader (a batch norm's backward sums over its rows) read it across them. (Its
    per-channel sums compute it in their own kernel; the maximum over channels reads it stored.)"""
    def summed_gradients(a, b, x):
        contiguous = torch.contiguous_format
        s = a.clone(memory_format=contiguous) + b.clone(memory_format=contiguous)
        for _ in range(6):   # enough work that its users read it stored
            s = s * 1.5 + 0.5
        return s.sum([0, 2, 3]) + (s * x).sum([0, 2, 3]), s.amax(1)
    layout = channels_last(32, 128, 28, 28)
    wrapper = cuda_wrapper(summed_gradients, layout, layout, layout)
    stored = re.findall(r"_empty_cuda\(\(32, 128, 28, 28, \), \((.*?)\)", wrapper)
    assert stored == ["100352, 1, 3584, 128, "], wrapper


def test_a_training_step_runs_its_stem_channels_last_both_ways():
    """An inference graph convolves the user's NCHW image as it is where the output is smaller (a patch embedding:
    a copy would raise its peak memory) and copies it to channels-last where the output is larger (a stem: cuDNN
    relaid the image and its 5x larger output itself, and the pooling read NCHW); a training forward copies it
    too, so that the stem's output, its batch norm and pooling are channels-last, and the backward copies the
    saved image again for the weight's gradient, instead of cuDNN relaying it and the gradient itself (timm
    ResNet-18: 1.8 ms of NCHW stem kernels a step, and 4 relayouts of cuDNN's)."""
    image, weight = ((32, 3, 224, 224), (150528, 50176, 224, 1)), ((64, 3, 7, 7), (147, 49, 7, 1))

    def stem(x, w):
        return torch.nn.functional.conv2d(x, w, stride=2, padding=3)
    inference = cuda_wrapper(stem, image, weight)
    assert "(channels-last)" in inference and not re.search(r"_c\d\(arg0_1", inference), inference

    def patches(x, w):
        return torch.nn.functional.conv2d(x, w, stride=16)
    embedding = cuda_wrapper(patches, image, ((192, 3, 16, 16), (768, 256, 16, 1)))
    assert "arg0_1, " in re.search(r"= _c\d\((.*)", embedding).group(1), embedding
    forward = cuda_wrapper(stem, image, weight, graph="forward")
    assert "(channels-last)" in forward and not re.search(r"_c\d\(arg0_1", forward), forward
    assert re.findall(r"_empty_cuda\(\(32, 3, 224, 224, \), \((.*?)\)", forward) == ["150528, 1, 672, 3, "], forward

    def weight_gradient(grad, x, w):
        return torch.ops.aten.convolution_backward(grad, x, w, [0], [2, 2], [3, 3], [1, 1], False, [0, 0], 1,
                                                   [False, True, False])[1]
    backward = cuda_wrapper(weight_gradient, channels_last(32, 64, 112, 112), image, weight, graph="backward")
    assert "(channels-last)" in backward, backward
    assert re.findall(r"_empty_cuda\(\(32, 3, 224, 224, \), \((.*?)\)", backward) == ["150528, 1, 672, 3, "], \
        backward


class DepthwiseBlocks(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.Sequential(nn.Conv2d(16, 16, 3, padding=1, groups=16), nn.ReLU(),
                                    nn.Conv2d(16, 16, 3, padding=1, groups=16), nn.ReLU(), nn.Conv2d(16, 32, 1))

    def forward(self, x):
        return (self.blocks(x).sum(),)


def test_a_backwards_convolutions_are_planned_once_each_inside_a_backward(monkeypatch):
    """cuDNN's plans are kept per thread, and a channels-last depthwise convolution's backward takes 140-260 ms to
    plan on an H100 (library_plans): a backward graph lists each distinct convolution_backward it calls once (two
    layers of one shape share a plan), its operands as the wrapper passes them (channels-last), and they are run
    inside a backward pass that a thread of kiln's runs, which on a GPU runs on the thread the graph's own backward
    runs on. The forward lists none (its convolutions plan in ~1 ms, on the thread that calls them). Not where a
    backward is running (the graph compiled at its first call: the plans would come after it); and a call whose
    operands and results would take more than its share of the device's spare memory is left to the first call
    (the planning runs beside the user's forward)."""
    import threading

    from kiln.runtime import library_plans
    forward, backward = cuda_training_artifacts(DepthwiseBlocks(), (2, 16, 8, 8))
    assert forward.planned == ()
    assert len(backward.planned) == 2, backward.planned   # (the depthwise shape, and the 1x1)
    for device, args in backward.planned:
        assert device in ("cuda", "cuda:0"), device
        (n, c, h, w), strides, offset, dtype = args[1]   # (the convolution's input)
        assert (tuple(strides), offset, dtype) == ((c * h * w, 1, w * c, c), 0, torch.float32), args
    ran = []

    def make_plans(calls, device):
        ran.append((len(calls), device, torch._C._current_graph_task_id(), threading.current_thread().name))
        for args in calls:
            library_plans.CONVOLUTION_BACKWARD(*library_plans.operands(args, device))
    cpu = [("cpu", args) for _, args in backward.planned]
    original_make_plans = library_plans.make_plans
    monkeypatch.setattr(library_plans, "make_plans", make_plans)
    monkeypatch.setattr(library_plans, "makes_plans", lambda: True)   # (this build has no cuDNN)
    monkeypatch.setattr(library_plans, "STARTED", set())

    class InBackward(torch.autograd.Function):
        forward = staticmethod(lambda ctx, x: x.clone())
        backward = staticmethod(lambda ctx, grad: library_plans.plan_ahead(cpu) or grad)
    InBackward.apply(torch.zeros((), requires_grad=True)).backward()
    assert library_plans.STARTED == set()
    library_plans.plan_ahead(cpu + cpu[:1])
    library_plans.plan_ahead(cpu)   # (planned already: nothing more)
    library_plans.wait()
    assert len(ran) == 1 and ran[0][:2] == (2, torch.device("cpu")) and ran[0][2] != -1, ran   # in a backward pass
    assert ran[0][3] == "kiln-plans", ran
    # kiln's recordings wait for the plans, but not on an autograd thread, where the planning node may be queued
    # behind the caller's (it would never run)
    import concurrent.futures
    unmade = concurrent.futures.Future()
    monkeypatch.setattr(library_plans, "PENDING", [unmade])

    class Waits(torch.autograd.Function):
        forward = staticmethod(lambda ctx, x: x.clone())
        backward = staticmethod(lambda ctx, grad: library_plans.wait() or grad)
    waiting = threading.Thread(target=lambda: Waits.apply(torch.zeros((), requires_grad=True)).backward())
    waiting.start()
    waiting.join(timeout=10)
    assert not waiting.is_alive() and library_plans.PENDING == [unmade]

    args = cpu[0][1]
    (n, c, h, w), _, _, _ = args[1]
    assert library_plans.operand_bytes(args) >= 2 * n * c * h * w * 4
    planned = library_plans.COUNTS["convolutions_planned_ahead"]
    for share, plans in ((library_plans.SPARE_SHARE * 1.03, 0), (library_plans.SPARE_SHARE * 0.97, 1)):   # of spare
        monkeypatch.setattr(library_plans, "spare_bytes", lambda device: library_plans.operand_bytes(args) / share)
        original_make_plans([args], torch.device("cpu"))
        assert library_plans.COUNTS["convolutions_planned_ahead"] == planned + plans, share


def test_a_saved_activation_read_channels_last_is_stored_so():
    """A ReLU of a channels-last convolution's output, saved for the backward: eager's trace says NCHW, but the
    forward reports the strides of what it saves, so it stores it as it reads it (the stem's pooling and the
    backward's ReLU mask read it channels-last)."""
    image, weight = ((32, 3, 224, 224), (150528, 50176, 224, 1)), ((64, 3, 7, 7), (147, 49, 7, 1))

    def stem(x, w):
        y = torch.relu(torch.nn.functional.conv2d(x, w, stride=2, padding=3) * 2)
        return y.sum(), y
    forward = cuda_artifact(stem, image, weight, graph="forward")
    assert list(forward.output_strides[1]) == [802816, 1, 7168, 64], forward.wrapper_source


def test_a_batch_norm_sums_its_split_statistics_in_one_launch():
    """A training batch norm over channels-last rows: the pieces of its split sums are summed by two reductions
    that share no data but walk their rows alike, so they share a launch (ResNet-18 had 20 more launches a step,
    on a step bound by the host's launches)."""
    def batch_norm(x, mean, var, weight, bias):
        return torch.ops.aten._native_batch_norm_legit_functional(x, weight, bias, mean, var, True, 0.1, 1e-5)
    vector = ((64,), (1,))
    wrapper = cuda_wrapper(batch_norm, channels_last(32, 64, 56, 56), vector, vector, vector, vector)
    assert len(launches(wrapper)) == 4, wrapper


def test_many_short_interleaved_rows_are_not_split():
    """3072 channels-last rows of 784 already make 48 programs, each with little to read: a split would only add a
    launch (squeeze-excite means)."""
    def squeeze(x):
        return x.mean([2, 3])
    assert len(launches(cuda_wrapper(squeeze, channels_last(32, 96, 28, 28)))) == 1


def test_many_long_interleaved_rows_are_split():
    """Llama's RMSNorm weight gradient sums 2048 columns over 4096 rows: kept whole, 32 programs read 8.4M elements
    (913 us for 7 launches, ~8x what the bytes need); split, every SM gets programs."""
    def column_sum(grad, x):
        return (grad * x).sum(0)
    (_, programs), (_, combining) = launches(cuda_wrapper(column_sum, ((4096, 2048), (2048, 1)), ((4096, 2048), (2048, 1))))
    assert programs >= 256 and combining >= 1, (programs, combining)


def test_a_sum_over_a_short_strided_dim_gives_each_program_a_whole_tile(tmp_path):
    """T5's position bias gradient sums [8, 8, 512, 512] over its batch: 2M adjacent outputs of 8 rows each. In
    tiles of 64 outputs a program moved 2 KB, and the kernel ran at 0.8 TB/s (89 us, H200); each program now takes
    a tile of 4096 elements, and the kernel builds for sm_90."""
    def bias_gradient(grad):
        return grad.sum(0, keepdim=True)
    artifact = cuda_artifact(bias_gradient, ((8, 8, 512, 512), (2097152, 262144, 512, 1)))
    [(name, programs)] = launches(artifact.wrapper_source)
    assert 8 * 2097152 // programs >= 4096, programs
    if importlib.util.find_spec("triton.backends.nvidia"):
        assert name in built_for_hopper(artifact, tmp_path)


def test_a_column_sum_reading_row_vectors_first_is_tiled_for_its_columns():
    """A layer norm's weight gradient: sum over 4096 rows of g * (x - mean) * rstd, where mean and rstd are one
    value a row. Its first load walking the rows is rstd, a vector, which took the sum for contiguous rows: a
    program per column, each reading [4096, 1024] matrices 4 bytes every 4 KB (143 us in BART-large's backward,
    H200). The matrices decide: the rows are split into pieces, each program summing a tile of adjacent columns."""
    def weight_gradient(rstd, x, mean, g):
        return (rstd * (x - mean) * g).sum(0)
    row, matrix = ((4096, 1), (1, 1)), ((4096, 1024), (1024, 1))
    artifact = cuda_artifact(weight_gradient, row, matrix, row, matrix)
    sums = launches(artifact.wrapper_source)
    assert len(sums) == 2, sums   # the pieces' partial sums, then their combine
    xblock, _ = tile(artifact.wrapper_source, sums[0][0])
    assert xblock >= 8, xblock


def test_a_column_sums_tile_does_not_depend_on_its_operands_order():
    """A sum over rows of a row vector, a matrix broadcast along a short inner dim (its step along the outputs
    differs from output to output) and a full block: lowering and codegen both shape it for the block, whichever
    operand comes first (a fresh reader's review found codegen tiling one order for the broadcast matrix)."""
    r, w, g = ((8192, 1, 1), (1, 1, 1)), ((8192, 256, 1), (256, 1, 1)), ((8192, 256, 2), (512, 2, 1))
    tiles = set()
    orders = ((lambda r, w, g: (r * w * g).sum(0), (r, w, g)), (lambda r, g, w: (r * g * w).sum(0), (r, g, w)))
    for fn, layouts in orders:
        wrapper = cuda_artifact(fn, *layouts).wrapper_source
        tiles.add(tile(wrapper, launches(wrapper)[0][0]))
    assert len(tiles) == 1, tiles


class PostNormLayer(nn.Module):
    """BART-large's layer without its attention: a residual add then a layer norm, twice."""
    def __init__(self, d=1024, ffn=4096):
        super().__init__()
        self.proj, self.fc1, self.fc2 = nn.Linear(d, d), nn.Linear(d, ffn), nn.Linear(ffn, d)
        self.norm1, self.norm2 = nn.LayerNorm(d), nn.LayerNorm(d)

    def forward(self, x):
        x = self.norm1(x + self.proj(x))
        return (self.norm2(x + self.fc2(F.gelu(self.fc1(x)))),)


def test_no_reduction_of_a_post_norm_layer_walks_a_column_a_program():
    """A post-norm layer's training step, as AOTAutograd partitions it: the first norm's output gradient is a sum
    of two, and its weight gradient read a row mean before its matrices; tiled for the mean, it was summed one
    column a program, every load striding 4 KB along the row (143 us a call in BART-large, 8x its bytes). No
    kernel of the step's forward or backward gives a program one output while striding along its row."""
    for artifact in cuda_training_artifacts(PostNormLayer(), (8, 512, 1024)):
        for name, _ in launches(artifact.wrapper_source):
            source, (xblock, _) = artifact.kernels[name][0], tile(artifact.wrapper_source, name)
            assert not (xblock == 1 and "rbase" in source and re.search(r"\b\d+\*r0\b", source)), source


def test_column_sums_over_symbolic_rows_are_split_and_tiled_as_at_their_hint():
    """Under dynamic shapes a transformer's rows (batch x tokens) are a symbolic size. The post-norm layer's
    weight and bias gradients, column sums over those rows, were neither split (symbolic sizes had no piece
    count) nor tiled for rows interleaved in memory (loads whose index held a size symbol were left out of that
    judgement): each program summed 8 columns over all 4096 rows. At their hints they take the static step's
    pieces and tiles, their pieces masked where the rows end."""
    def reduction_tiles(artifact):
        wrapper = artifact.wrapper_source
        return {tile(wrapper, name) for name in launched(wrapper) if "rbase" in artifact.kernels[name][0]}
    shape = (8, 512, 1024)
    _, static = cuda_training_artifacts(PostNormLayer(), shape)
    _, dynamic = cuda_training_artifacts(PostNormLayer(), shape, symbolic_dims=(0, 1))
    assert re.search(r"_empty_cuda\(\([^)]*\bs\d+", dynamic.wrapper_source)   # (its rows are symbolic)
    assert reduction_tiles(dynamic) == reduction_tiles(static), dynamic.wrapper_source


class TransposedCopy(nn.Module):
    def forward(self, x):
        return ((x.t() * 2).contiguous(),)


def test_a_transposing_copy_of_a_symbolic_size_takes_square_tiles():
    """A kernel that reads along one dim and writes along the other (a transpose made contiguous) takes square
    tiles, through which Triton transposes in shared memory. With the read rows' length symbolic, the read's index
    held the size symbol and was left out of that test: its tiles were rows of the output, each element loaded
    s0 elements from the last. At the size's hint it is seen."""
    for symbolic_dims in ((), (1,)):
        forward, _ = cuda_training_artifacts(TransposedCopy(), (1024, 3000), symbolic_dims=symbolic_dims)
        [name] = launched(forward.wrapper_source)
        assert tile(forward.wrapper_source, name) == (64, 64), (symbolic_dims, forward.wrapper_source)


def test_a_small_tables_gradient_is_summed_in_copies_of_it():
    """T5's relative position bias: 512 x 512 positions look up 32 buckets of 8 heads, and the gradient's 2M
    updates landed by atomics on 256 elements (2 ms a table, H200). They are summed into 1024 copies of the
    table, ~8 updates an element each, and the copies are then summed; a table with few updates an element
    (a vocabulary's embedding) is scattered into directly."""
    def embedding_backward(table, grad, buckets):   # (embedding_dense_backward's index_put, onto zeros passed in)
        return table.index_put((buckets.long(),), grad, accumulate=True)
    layouts = [((512, 512, 8), (4096, 8, 1)), ((512, 512), (512, 1))]
    wrapper = cuda_wrapper(embedding_backward, ((32, 8), (8, 1)), *layouts)
    assert "(1024, 32, 8, )" in wrapper, wrapper
    vocabulary = cuda_wrapper(embedding_backward, ((50257, 8), (8, 1)), *layouts)
    assert "(50257, 8, )" in vocabulary and "(1024, 50257" not in vocabulary, vocabulary


def test_a_scatter_over_more_updates_than_int32_counts_indexes_in_int64():
    """2**32 updates (two broadcast index vectors, one scalar value) onto a 32 x 32 table: every buffer is small,
    but the copies' index, the updates' flat position over a run, passed 2**31 and wrapped to a negative address
    in int32 (a fresh reader's review). The kernel's index math is int64 where its space has 2**31 elements."""
    def scatter_scalar(table, rows, columns, value):
        return torch.ops.aten.index_put(table, [rows.long(), columns.long()], value, True)
    artifact = cuda_artifact(scatter_scalar, ((32, 32), (32, 1)), ((65536, 1), (1, 1)), ((1, 65536), (65536, 1)),
                             ((), ()))
    [scatter] = [text for text, *_ in artifact.kernels.values() if "atomic_add" in text]
    assert "pid = tl.program_id(0).to(tl.int64)" in scatter, scatter


def test_a_reduction_over_more_than_int32_counts_walks_its_rows_in_int64():
    """A column sum and a cumulative sum over 40000 rows of 65536 (2.6e9 elements; fake tensors, no memory): the
    kernels' x0 was int64 but their r0 int32, and 65536*r0 wrapped to a negative offset from row 32768 on, where
    the scan stored its results (a fresh reader's review). Every index variable of such a kernel is int64."""
    layout = ((40000, 65536), (65536, 1))
    for fn in (lambda x: x.sum(0), lambda x: x.cumsum(0)):
        [(source, *_)] = cuda_artifact(fn, layout).kernels.values()
        assert "rbase = tl.arange(0, RBLOCK)[None, :].to(tl.int64)" in source, source
        assert "x0 = (tl.program_id(0).to(tl.int64) * XBLOCK" in source, source


def test_a_pointwise_kernel_over_few_long_rows_indexes_in_int64():
    """A sum of [4, 10**9] and a transposed [10**9, 4] (fake): every program on the 4 rows, x0 = 0..3 times the
    rows' stride 10**9 passed 2**31 in int32, where the program's own r0 was already int64."""
    artifact = cuda_artifact(lambda x, y: x + y.t(), ((4, 10**9), (10**9, 1)), ((10**9, 4), (4, 1)))
    [(source, *_)] = artifact.kernels.values()
    assert re.search(r"x0 = .*\.to\(tl\.int64\)", source), source


def test_a_value_averaged_over_its_spatial_dims_keeps_eager_layout():
    """A squeeze-excite block averages an activation over H x W: in eager's NCHW layout those are contiguous rows,
    summed in the kernel that computes the value; stored channels-last, EfficientNet took 3 launches for each."""
    def squeeze_excite(a, b):
        contiguous = torch.contiguous_format
        s = a.clone(memory_format=contiguous) + b.clone(memory_format=contiguous)
        for _ in range(6):   # enough work that its two users read it stored
            s = s * 1.5 + 0.5
        return s * torch.sigmoid(torch.nn.functional.silu(s).mean([2, 3], keepdim=True))
    layout = channels_last(32, 128, 28, 28)
    wrapper = cuda_wrapper(squeeze_excite, layout, layout)
    stored = re.findall(r"_empty_cuda\(\(32, 128, 28, 28, \), \((.*?)\)", wrapper)
    assert stored[0] == "100352, 784, 28, 1, ", wrapper


def test_a_max_pools_taps_read_per_channel_values_once():
    """Batch norm + ReLU inlined into a padded 3x3 max-pool (HF ResNet's stem), for inference: each tap's read of
    the input is masked by the tap's bounds, but the batch norm's per-channel vectors are in bounds for every
    lane, so they are read once for all nine taps, and their square root taken once (nine of each took the stem's
    kernel 1.9 s to build, item 55)."""
    def stem(x, mean, var, weight, bias):
        return F.max_pool2d(torch.relu(F.batch_norm(x, mean, var, weight, bias, False)), 3, 2, 1)
    nhwc = ((8, 64, 56, 56), (200704, 1, 3584, 64))
    source = cuda_artifact(stem, nhwc, *[((64,), (1,))] * 4).kernel_source
    [pool] = [k for k in source.split("@triton.jit") if "max_pool2d" in k]
    loads = re.findall(r"tl\.load\([^\n]*", pool)
    assert len(loads) == 9 + 4 and sum("+ (r0)," in line for line in loads) == 4, "\n".join(loads)
    assert pool.count("tl.sqrt") == 1, pool
    # inference reads the values alone: no tap selects an argmax position (a select a tap for the ReLU, one for the
    # tap's mask and one for the maximum; the argmax's nine more, and the window's first position, took a quarter
    # of the kernel's code)
    assert pool.count("tl.where(") <= 3 * 9, pool
    # a tap above or left of its window's center may fall before the image: it keeps its mask (the taps below and
    # right of it stay inside the image at these sizes, and so need none)
    above_or_left = [line for line in loads if re.search(r"\) - \d+\), mask=", line)]
    assert len(above_or_left) == 4 and all(re.search(r"mask=xmask & rmask & tmp\d+", line) for line in above_or_left)


def test_a_depthwise_convolution_averaged_over_its_spatial_dims_is_stored_channels_last():
    """A depthwise convolution's taps read its channels-last input at 9 places: stored NCHW for the squeeze-excite
    mean after it (as a cheap value is, above), each tap gathered across the rows, and EfficientNet-B0's first
    depthwise kernels took 340-530 us each, 10-20x their bytes. A stride-2 one reads its input 2 columns per
    output column, still channels-last."""
    for stride, (h, strides) in [(1, (56, "301056, 1, 5376, 96, ")), (2, (28, "75264, 1, 2688, 96, "))]:
        def squeeze_excite(x, weight):
            y = F.silu(F.conv2d(x, weight, stride=stride, padding=1, groups=96))
            return y * torch.sigmoid(y.mean([2, 3], keepdim=True))
        wrapper = cuda_wrapper(squeeze_excite, channels_last(32, 96, 56, 56), ((96, 1, 3, 3), (9, 9, 3, 1)))
        stored = re.findall(rf"_empty_cuda\(\(32, 96, {h}, {h}, \), \((.*?)\)", wrapper)
        assert stored[0] == strides, wrapper
        # its weights tap-major, channels innermost: each tap reads a contiguous run of channels, not a gather
        assert "_empty_cuda((96, 1, 3, 3, ), (1, 864, 288, 96, )" in wrapper, wrapper


def test_a_5x5_depthwise_window_is_a_loop_over_its_rows(tmp_path):
    """EfficientNet-B0's 5x5 stride-2 depthwise convolution with its batch norm and SiLU: the window's rows are a
    loop, each row's 5 taps unrolled (25 unrolled masked taps took 2.7x as long to build for sm_90, for 2% of GPU
    time; bench/NOTES.md 125). A tap's weights are in bounds at every row: read unmasked by the tap's bounds, once
    per channel of the tile, not once per pixel. A 3x3 window stays unrolled, and both build for sm_90."""
    def block(x, weight, mean, var):
        y = F.conv2d(x, weight, stride=2, padding=2, groups=144)
        return F.silu(F.batch_norm(y, mean, var, None, None, False))
    vector = ((144,), (1,))
    artifact = cuda_artifact(block, channels_last(32, 144, 56, 56), ((144, 1, 5, 5), (25, 25, 5, 1)), vector, vector,
                             dtype=torch.bfloat16)
    convolution = lambda artifact: [k for k in artifact.kernel_source.split("@triton.jit")   # noqa: E731
                                    if "convolution" in k and "in_ptr1" in k]   # (not its weights' relayout)
    [conv] = convolution(artifact)
    assert len(re.findall(r"^ +for row\d+ in range\(5\):$", conv, re.M)) == 1, conv
    inputs, weights = (re.findall(rf"tl\.load\(in_ptr{i} \+ [^\n]*", conv) for i in (0, 1))
    assert len(inputs) == len(weights) == 5 and all("row" in line for line in inputs + weights), conv
    assert all(re.search(r"mask=rmask,", line) for line in weights), "\n".join(weights)
    assert built_for_hopper(artifact, tmp_path)
    artifact = cuda_artifact(block, channels_last(32, 144, 56, 56), ((144, 1, 3, 3), (9, 9, 3, 1)), vector, vector,
                             dtype=torch.bfloat16)
    [conv] = convolution(artifact)
    assert "for row" not in conv and conv.count("tl.load(in_ptr0 + ") == 9, conv
    assert built_for_hopper(artifact, tmp_path)


def test_a_window_rows_loop_counts_in_int64_where_the_kernel_indexes_past_int32():
    """The loop over a 5x5 window's rows counts in Triton's int32: times the row stride of a channels-last input of
    more than 2**31 elements, a tap's address wrapped (a fresh reader's review), where the unrolled taps' offsets
    were int64 constants. The count is int64 where the kernel's indices are."""
    def conv(x, weight):
        return F.conv2d(x, weight, padding=2, groups=8)
    for width, wide in [(64, False), (2 ** 31 // (8 * 40) + 1, True)]:
        source = cuda_artifact(conv, channels_last(1, 8, 40, width), ((8, 1, 5, 5), (25, 25, 5, 1))).kernel_source
        assert len(re.findall(r"^ +(row\d+) = tl\.cast\(\1, tl\.int64\)$", source, re.M)) == wide, source[-3000:]


def test_a_pointwise_row_is_tiled_in_blocks_that_pad_it_little():
    """A channels-last pointwise kernel's row is a pixel's channels: 72 of them in one block of 128 left 44% of the
    lanes idle (MobileNetV3); in blocks of 32, a quarter at most. Rows that a wide block fits stay whole."""
    for channels, widest_padding in [(72, 0.25), (120, 0.0625), (96, 0), (768, 0)]:
        wrapper = cuda_wrapper(lambda x, scale: torch.relu(x * scale.view(-1, 1, 1)),
                               channels_last(8, channels, 28, 28), ((channels,), (1,)))
        [(n, r, xblock, rblock)] = [tuple(map(int, args.split(", ")[-4:]))
                                    for args in re.findall(r"kernel_\w+\((.*?)\)$", wrapper, re.M)]
        assert r == channels and (-r % rblock) / (r + -r % rblock) <= widest_padding, (channels, xblock, rblock)


def test_affine_index_bounds_are_those_of_interval_arithmetic():
    """A masked load is left unmasked where its index is proven inside the buffer: the quick bounds of a sum of
    multiples of the loop variables must be bound_sympy's exactly (too wide costs a mask; too narrow, a read
    outside the buffer)."""
    import random

    import sympy
    from torch.utils._sympy.value_ranges import ValueRanges, bound_sympy

    from kiln.codegen.common import index_bounds
    x, r = sympy.Symbol("x0", integer=True, nonnegative=True), sympy.Symbol("r0", integer=True, nonnegative=True)
    rng = random.Random(0)
    for _ in range(200):
        counts = {x: rng.randint(1, 5000), r: rng.randint(1, 300)}
        expr = rng.randint(-50, 50) * x + rng.randint(-9, 9) * r + rng.randint(-10000, 10000)
        found = bound_sympy(expr, {v: ValueRanges(0, n - 1) for v, n in counts.items()})
        assert index_bounds(expr, counts) == (found.lower, found.upper), (expr, counts)
    assert index_bounds(x + sympy.Symbol("s0"), {x: 9}) is None


def test_index_bounds_hold_every_value_of_the_index():
    """common.index_bounds (which spares within_buffer SymPy's interval arithmetic) bounds an index's values over its
    variables' ranges: checked against every point of small ranges, for sums, products, floor divisions and moduli
    (negative bases among them), Max and Min; exact where the index is affine; None for what it cannot bound."""
    import itertools

    import sympy

    from kiln import ir
    from kiln.codegen.common import index_bounds
    x, r = ir.index_vars("x", 1)[0], ir.index_vars("r", 1)[0]
    counts = {x: 12, r: 7}
    exprs = [3 * x - 2 * r + 5, ir.FloorDiv(x - 5, 4) * 64 + ir.ModularIndexing(x + 2 * r, 3, 7),
             ir.ModularIndexing(x, 4, 3), ir.ModularIndexing(r, 1, 8), ir.ModularIndexing(x + 3, 2, 4) * -5,
             sympy.Max(x - 3, 0) + sympy.Min(r, 5) * 2, x * r - 4, ir.FloorDiv(7 - 2 * x, 3),
             sympy.Min(sympy.Max(x - 1, 0), 9) * 9 + r]
    for e in exprs:
        values = [int(e.xreplace({x: i, r: j})) for i, j in itertools.product(range(12), range(7))]
        lo, hi = index_bounds(e, counts)
        assert lo <= min(values) and max(values) <= hi, (e, lo, hi, min(values), max(values))
        if e == exprs[0] or e == exprs[3]:
            assert (lo, hi) == (min(values), max(values))
    assert index_bounds(x / 2, counts) is None and index_bounds(sympy.Abs(x - r), counts) is None

def ptx_accesses(artifact, tmp_path):
    """{kernel: Counter of (ld|st, bits)} over the global loads and stores of an artifact's kernels, built by
    Triton for sm_90 on this machine (no GPU needed), at the sizes and dtypes of their first launch."""
    import collections
    return {name: collections.Counter((m[1], int(m[3]) * int(m[2] or 1)) for m in re.finditer(
                r"(ld|st)\.global(?:\.\w+)*?(?:\.v(\d))?\.[bfus](\d+)", kernel.asm["ptx"]))
            for name, kernel in built_for_hopper(artifact, tmp_path).items()}


def built_for_hopper(artifact, tmp_path):
    """{kernel: Triton's compiled kernel} for each of an artifact's kernels, built for sm_90 on this machine (no GPU
    needed) with the options its Launcher passes, at the sizes and dtypes of its first launch."""
    import importlib.util

    from kiln.runtime.triton_launch import jit_options, waits_for_prior

    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    names = {torch.float32: "fp32", torch.bfloat16: "bf16", torch.float16: "fp16"}
    path = tmp_path / "kernels.py"
    path.write_text(artifact.kernel_source)
    spec = importlib.util.spec_from_file_location("kiln_ptx_kernels", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    found = {}
    for name, (text, warps, [(_, args), *_], stages) in artifact.kernels.items():
        fn = getattr(module, name)
        signature, constants, attrs = {}, {}, {}
        for i, (param, value) in enumerate(zip(fn.arg_names, args)):
            if isinstance(value, torch.dtype):   # a pointer, aligned to 16 bytes as the launcher's variant says
                signature[param], attrs[(i,)] = "*" + names[value], [["tt.divisibility", 16]]
            elif re.fullmatch(r"[XR]BLOCK\d*", param) or value == 1:
                signature[param], constants[param] = "constexpr", value
            else:   # specialized as Triton's JIT and kiln's launcher do: divisible by 16 or not
                signature[param] = "i32"
                attrs.update({(i,): [["tt.divisibility", 16]]} if value % 16 == 0 else {})
        found[name] = triton.compile(ASTSource(fn, signature, constants, attrs), target=GPUTarget("cuda", 90, 32),
                                     options=jit_options(warps, False, stages, waits_for_prior(text)))
    return found


def test_kernels_on_a_hopper_gpu_launch_as_programmatic_dependents(tmp_path, monkeypatch):
    """Where the GPU takes programmatic dependent launch, each kernel may start while the one before it finishes:
    built for sm_90, every kernel of a chain of reductions (and a launch group's kernel, which runs independent
    ones) waits for the kernel before it (griddepcontrol.wait) before its first global load or store, lets the
    next start only as its programs exit (an early launch_dependents held SMs with waiting programs: a layer norm's
    backward 11.2 -> 14.0 us, H200), and is built to launch as a dependent (Triton's launch_pdl, which kiln's
    launcher reads from its metadata), which a kernel that does not wait never is. Asked off, or on a GPU before
    Hopper, no kernel is."""
    pytest.importorskip("triton.backends.nvidia")
    from kiln.runtime import triton_launch

    def chain(x, a, b):   # (two small independent pointwise kernels: one launch)
        for i in range(4):
            x = (x - x.mean(dim=i % 2, keepdim=True)) * 1.01
        return x, a * 2, b.exp()
    layouts = [((64, 64), (64, 1)), ((8, 8), (8, 1)), ((16,), (1,))]
    monkeypatch.setattr(triton_launch, "dependent_launch_supported", lambda device: True)
    artifact = cuda_artifact(chain, *layouts)
    assert len(artifact.kernels) >= 4 and any("one launch of independent kernels" in text for text, *_ in artifact.kernels.values())
    monkeypatch.setattr(triton_launch, "launch_variant", object())   # (kiln's C launcher, as if loaded)
    for name, kernel in built_for_hopper(artifact, tmp_path).items():
        ptx = kernel.asm["ptx"]
        first_access = re.search(r"(ld|st)\.global", ptx).start()
        assert ptx.index("griddepcontrol.wait") < first_access and "griddepcontrol.launch_dependents" not in ptx, name
        [(_, args)] = artifact.kernels[name][2]
        args = [torch.empty(1, dtype=a) if isinstance(a, torch.dtype) else a for a in args]
        assert kernel.metadata.launch_pdl and triton_launch.launch_spec(kernel, args)[-1] is True, name
    for off in (cuda_artifact(chain, *layouts, options={"dependent_launch": False}),
                (monkeypatch.setattr(triton_launch, "dependent_launch_supported", lambda device: False),
                 cuda_artifact(chain, *layouts))[1]):
        assert not any(triton_launch.waits_for_prior(text) for text, *_ in off.kernels.values())
        assert not any(k.metadata.launch_pdl for k in built_for_hopper(off, tmp_path).values())


def test_rows_of_a_size_not_divisible_by_16_load_in_vectors(tmp_path):
    """Triton knows a size passed at run time to be divisible by 16 or nothing: the mask r0 < R of 72 bf16 channels
    was constant, for Triton, over one element, so a depthwise convolution's 9 taps loaded 2 bytes at a time
    (72 16-bit loads a thread in MobileNetV3's 72-channel kernel). Said to be a multiple of 8, each tap is one
    16-byte load for each vector of the result."""
    pytest.importorskip("triton.backends.nvidia")
    def depthwise_then_project(x, w, project):
        return F.conv2d(torch.relu(F.conv2d(x, w, padding=1, groups=72)), project)
    artifact = cuda_artifact(depthwise_then_project, channels_last(8, 72, 28, 28), ((72, 1, 3, 3), (9, 9, 3, 1)),
                             ((24, 72, 1, 1), (72, 1, 1, 1)), dtype=torch.bfloat16)
    [convolution] = [n for n in artifact.kernels if "relu" in n]   # (the 1x1 convolution runs in cuDNN)
    assert "R = R // 8 * 8" in artifact.kernels[convolution][0]
    accesses = ptx_accesses(artifact, tmp_path)[convolution]
    # each tap one 16-byte load for each 16-byte vector of the result a thread stores
    assert set(accesses) == {("ld", 128), ("st", 128)} and accesses[("ld", 128)] == 9 * accesses[("st", 128)], \
        accesses


def test_an_inference_batch_norm_computes_its_channels_invstd_once():
    """An eval batch norm's 1 / sqrt(var + eps), inlined, was computed at every element in IEEE-rounded square root
    and division: MobileNetV2's batch norm kernels on an H200 were bound by those instructions, not their bytes
    (37 us for a 144-channel batch norm + hardtanh, 22 without). Stored per channel, by a kernel of C elements that
    reads only inputs, it joins the launch of an earlier kernel across the convolution between them: no launch
    more. Nor is the batch norm stored for its two users because it reads two computed buffers: the per-channel
    one keeps no memory alive (graph.computed_reads)."""
    aten = torch.ops.aten

    def block(x, w, mean, var, weight, bias):
        y = F.conv2d(x * 2, w)
        normalized = aten._native_batch_norm_legit_no_training(y, weight, bias, mean, var, 0.1, 1e-5)[0]
        return normalized.relu(), normalized.sigmoid()
    artifact = cuda_artifact(block, channels_last(32, 24, 56, 56), ((144, 24, 1, 1), (24, 1, 1, 1)),
                             *[((144,), (1,))] * 4, decompositions=kiln_decompositions(inference=True))
    wrapper = artifact.wrapper_source
    assert "_empty_cuda((144, ), (1, ), torch.float32)" in wrapper, wrapper
    [(group, _), (normalize, programs)] = launches(wrapper)
    assert programs >= 100352 // 128 and "sqrt" not in artifact.kernels[normalize][0], artifact.kernels[normalize][0]
    assert "sqrt_rn" in artifact.kernels[group][0] and wrapper.index(group) < wrapper.index("_c1("), wrapper


def test_a_bias_gradient_of_many_rows_is_summed_in_pieces_with_its_producer():
    """Swin's first stage: the GELU's gradient of 100352 rows x 384, stored for a product, and its column sum,
    split in pieces. The pieces divide the rows (98 of 1024, not 85 of 1181 with the last one masked), so each
    piece's partial sums run in the kernel that computes and stores the gradient: 2 launches, where there were 3
    (the gradient's kernel, then the partial sums reading it back, then their combination). The pieces are short
    enough that the fused kernel, heavy per program, fills more than a wave of an H200's slots (588 programs of 1024
    rows ran 7% slower than 1176 of 512: bench/NOTES.md 70)."""
    rows, columns = 100352, 384

    def linear_backward(g, w, x, w2):
        d = torch.ops.aten.gelu_backward(g @ w, x).view(rows, columns)
        return d @ w2, d.sum(0, keepdim=True)
    artifact = cuda_artifact(linear_backward, ((rows, 96), (96, 1)), ((96, columns), (columns, 1)),
                             ((rows, columns), (columns, 1)), ((columns, 96), (96, 1)))
    wrapper = artifact.wrapper_source
    [(fused, programs), (combine, _)] = launches(wrapper)
    pieces = re.search(r"_empty_cuda\(\((\d+), 1, 384, \)", wrapper)
    assert pieces and rows % int(pieces.group(1)) == 0, wrapper
    assert programs >= 1024, wrapper
    assert artifact.kernels[fused][0].count("tl.store(") == 2, artifact.kernels[fused][0]


@pytest.mark.parametrize("C, pieces", [(192, 32), (384, 32), (768, 16)])
def test_a_narrow_column_sum_is_split_into_short_pieces_combined_in_one_tile(C, pieces):
    """A layer norm's weight and bias gradients at timm DeiT-tiny's size (32 x 197 tokens, 192 channels, as an AMP
    step has them: the gradient a bf16 product's output): each program's time follows the length of its piece, so
    the 6304 rows are summed in 32 pieces of 197 (10.6 -> 6.9 us on an H200, bench/results/s67/c8), not 16 of 394,
    and the 32 partial sums of each column are combined as one tile. Not where the pieces' outputs are many
    already: ViT-base's 768 channels keep 16 pieces (32 took 45.5 us a layer norm against 38.6, s68/c4)."""
    B, T = 32, 197

    def layer_norm_backward(g, x, mean, rstd, w, b):
        dx, dw, db = torch.ops.aten.native_layer_norm_backward(g.view(B, T, C).float(), x, [C], mean, rstd, w, b,
                                                               [True, True, True])
        return dx, dw, db
    mode = FakeTensorMode()
    with mode:
        args = [torch.empty(B * T, C, device="cuda", dtype=torch.bfloat16), torch.empty(B, T, C, device="cuda"),
                torch.empty(B, T, 1, device="cuda"), torch.empty(B, T, 1, device="cuda"),
                torch.empty(C, device="cuda"), torch.empty(C, device="cuda")]
        gm = make_fx(layer_norm_backward, decomposition_table=kiln_decompositions())(*args)
        artifact, _ = capture.generate(gm, args, Options.make(options={"target": "triton", "trace": None}),
                                       "g_backward", GraphTrace(None, "g"), None, None, False, {}, {})
    wrapper = artifact.wrapper_source
    assert wrapper.count(f"_empty_cuda(({pieces}, {C}, )") == 2, wrapper   # the two gradients' partial sums
    combine = [k for k in artifact.kernels if k.startswith("kernel_sum")]
    assert combine and "for roff" not in artifact.kernels[combine[0]][0], wrapper


def stem_source_and_taps():
    """The Triton source of a stride-2 3x3 convolution (pad 1) of a 3-channel bf16 image, and its 27 taps' loads."""
    def stem(x, w):
        return F.conv2d(x, w, None, 2, 1)
    source = cuda_artifact(stem, ((32, 3, 224, 224), (150528, 50176, 224, 1)), ((16, 3, 3, 3), (27, 9, 3, 1)),
                           dtype=torch.bfloat16).kernel_source
    taps = [line for line in source.splitlines() if "tl.load(in_ptr0 + (150528*" in line]
    assert len(taps) == 27, source
    return source, taps


def test_an_image_stems_padded_taps_are_loaded_once_a_pixel():
    """A convolution of an image's 3 channels is a kernel of kiln's, stored channels-last: a tile of pixels by
    output channels. Each tap reads the image at the pixel's window under the pixel's bounds condition: one
    [XBLOCK, 1] load, whose mask names no output-channel lane (rmask). With rmask in its mask (every load inside a
    masked region had it) each tap was loaded, checked and converted once per output channel: 58.7 us of GPU time
    for timm MobileNetV3's stem (bench/NOTES.md 88)."""
    source, taps = stem_source_and_taps()
    assert not any(re.search(r"\b(rmask|r0)\b", line) for line in taps), "\n".join(taps)
    assert any("mask=xmask & tmp" in line for line in taps), "\n".join(taps)   # a border tap keeps its bounds


def test_bounds_tests_that_no_lane_can_fail_are_dropped():
    """A window's bounds test is decided where the index's bounds over the kernel's lanes decide it: a stride-2
    3x3 convolution (pad 1) reads 2*o - 1 + k, which passes the input's far edge for no output o, and its middle
    and last taps (k = 1, 2) never fall before its start either. Those 4 of the 9 taps in each of the 3
    channels are read with no test (no select of 0 where it fails) and no test of 224 is left; the first row's
    and column's taps keep theirs. Each test had its comparisons, ands and select computed on every pixel."""
    source, taps = stem_source_and_taps()
    kernel = source[source.index("def kernel_"):]
    assert kernel.count("tl.where(") == 27 - 12, kernel
    assert not re.search(r"tmp\d+ = \(tmp\d+ < ", kernel), kernel   # no test of the far edge


def scaled_by_cpu_scalars(x):
    """x scaled by 0-dim CPU tensors computed from numbers: AOTAutograd makes such a chain of x * (1 / math.sqrt(n))
    of a size n under dynamic=True, and a model makes one with torch.tensor(...) and no device. The last result
    is a CPU scalar the graph returns, which eager makes on the CPU."""
    root = torch.scalar_tensor(7, dtype=torch.float64).sqrt()
    return x * (1 / root), x.double() / root, torch.scalar_tensor(3.0) + 1


def scaled_and_returned(x):
    s = torch.scalar_tensor(3.0) + 1
    return x * s, s


def filled_from_row_1(x):
    """x[1:] = 5 on a clone of x, as Dynamo and AOTAutograd trace it: a copy from a CPU constant the graph holds."""
    v = x.clone()
    filled = torch.ops.aten.copy.default(torch.ops.aten.slice.Tensor(v, 0, 1), torch.tensor(5))
    return (torch.ops.aten.slice_scatter.default(v, filled, 0, 1),)


def test_cpu_scalars_that_gpu_ops_read_are_computed_on_the_gpu():
    """The chain is computed on the GPU, in the kernels that read it, which a Triton kernel can (it cannot read CPU
    memory: the graph ran eagerly); the scalar the graph returns stays on the CPU, computed by eager's ops inside
    the graph (no kernel could write it: the graph ran eagerly as a whole), unless a kernel reads it too. A CPU
    scalar the graph is given and only GPU ops read is copied there once. A scalar drawn at random or read by a
    custom op (which may read it on the host) stays on the CPU."""
    from kiln.patterns import scalars_on_their_readers_device
    with FakeTensorMode():
        x = torch.empty(64, 64, device="cuda")
        gm = make_fx(lambda x: scaled_by_cpu_scalars(x)[:2], decomposition_table=kiln_decompositions())(x)
        moved = scalars_on_their_readers_device(gm)
        assert moved >= 2, gm.code
        assert not [n for n in gm.graph.nodes if getattr(n.meta.get("val"), "device", None) == torch.device("cpu")]
        artifact = generated(gm, [x], "inference", 1)
        assert "cpu" not in artifact.wrapper_source, artifact.wrapper_source
        # a CPU constant the graph holds (torch.tensor(2.5), no device), read by two GPU ops: inlined into their
        # kernels as a number (a change that made it a CPU buffer broke this, bench/NOTES.md 112)
        gm = make_fx(lambda x: (x * torch.tensor(2.5), (x + torch.tensor(2.5)).sum()),
                     decomposition_table=kiln_decompositions())(x)
        scalars_on_their_readers_device(gm)
        assert "cpu" not in generated(gm, [x], "inference", 1).wrapper_source

        # one copied into a slice (random programs: x[1:] = 5 failed its compile, "touches CPU tensors")
        gm = make_fx(filled_from_row_1, decomposition_table=kiln_decompositions())(x)
        assert scalars_on_their_readers_device(gm) == 2, gm.code
        wrapper = generated(gm, [x], "inference", 1).wrapper_source
        assert "cpu" not in wrapper and wrapper.count("kernel_") == 1, wrapper

        gm = make_fx(scaled_by_cpu_scalars, decomposition_table=kiln_decompositions())(x)
        scalars_on_their_readers_device(gm)
        returned = gm.graph.output_node().args[0][2]
        assert returned.meta["val"].device == torch.device("cpu"), gm.code
        # the scalar it returns is computed by eager's ops in the wrapper (the graph ran eagerly as a whole); the
        # kernel reads and writes GPU memory only
        wrapper = generated(gm, [x], "inference", 1).wrapper_source
        assert re.search(r"(buf\d+) = _c\d+\(3\.0, device=.*# aten.scalar_tensor.default\n.*\n.*= _c\d+\(\1, 1\)  "
                         r"# aten.add.Tensor", wrapper), wrapper
        assert re.findall(r"kernel_\w+\(.*?, (x_1, buf\d+, buf\d+),", wrapper), wrapper
        # one that a GPU kernel reads too still makes the graph run eagerly
        gm = make_fx(scaled_and_returned, decomposition_table=kiln_decompositions())(x)
        scalars_on_their_readers_device(gm)
        with pytest.raises(NotImplementedError, match="touches CPU tensors"):
            generated(gm, [x], "inference", 1)

        given = torch.empty((), dtype=torch.float64)   # a CPU scalar the graph is given is copied to the GPU
        gm = make_fx(lambda x, s: (x * (s * 2).sqrt(),), decomposition_table=kiln_decompositions())(x, given)
        assert scalars_on_their_readers_device(gm) == 3, gm.code
        assert "cpu" not in generated(gm, [x, given], "inference", 1).wrapper_source.replace("arg1_1", "")
        gm = make_fx(lambda x, s: (x * s, s + 1), decomposition_table=kiln_decompositions())(x, given)
        assert scalars_on_their_readers_device(gm) == 0, gm.code   # (it is read on the CPU too)
        gm = make_fx(lambda: (torch.ones(4, device="cuda") * torch.scalar_tensor(2.5),),   # a graph of no inputs
                     decomposition_table=kiln_decompositions())()
        assert scalars_on_their_readers_device(gm) == 1, gm.code
        for stays in (lambda x: x * torch.rand(()),   # drawn from the CPU's generator
                      # a complex constant, which no kernel inlines (its readers run as eager's ops on its CPU
                      # tensor: marked on the GPU, a kernel was handed that CPU tensor)
                      lambda x: x * torch.tensor(3 + 4j).abs(),
                      lambda x: scaled_on_the_host(x, torch.scalar_tensor(2.0) * 3)):   # read by a custom op
            gm = make_fx(stays, decomposition_table=kiln_decompositions())(x)
            assert scalars_on_their_readers_device(gm) == 0, gm.code


def counted_steps(x, steps, seen):
    """A GPU step that counts itself on the CPU (an optimizer's step count, capturable=False) and notes the count
    it saw before, which its CPU output returns."""
    before = steps * 1
    steps.add_(1)
    seen.copy_(x.sum())   # (a GPU value written into a CPU tensor)
    return x * 2, before


def test_cpu_inputs_that_a_gpu_graph_writes_are_written_by_eager_ops():
    """A GPU graph that writes into CPU inputs (AOTAutograd's copy_ back into each, at the graph's end) compiles:
    the CPU values and the writes run as eager's ops inside it, in program order, the count's old value read
    before the write; the kernel touches GPU memory only (the graph ran eagerly as a whole: no Triton kernel can
    write CPU memory). The write really lands in the caller's tensor."""
    with FakeTensorMode(allow_non_fake_inputs=True):
        x, steps, seen = torch.empty(64, 64, device="cuda"), torch.zeros(()), torch.zeros(())
        gm = make_fx(torch.func.functionalize(counted_steps, remove="mutations_and_views"),
                     decomposition_table=kiln_decompositions())(x, steps, seen)
        artifact = generated(gm, [x, steps, seen], "inference", 2)
    wrapper = artifact.wrapper_source
    before = re.search(r"(buf\d+) = (_c\d+)\(steps_1, 1\)  # aten.mul.Tensor", wrapper)
    count = re.search(r"(buf\d+) = _c\d+\(steps_1, 1\)  # aten.add.Tensor", wrapper)
    write = re.search(rf"= (_c\d+)\(steps_1, {count.group(1)}\)  # aten.copy_.default", wrapper)
    assert before and write and before.start() < count.start() < write.start(), wrapper
    assert re.search(r"= _c\d+\(seen_1, buf\d+\)  # aten.copy_.default", wrapper), wrapper
    assert all("steps_1" not in line and "seen_1" not in line for line in wrapper.splitlines()
               if line.lstrip().startswith("kernel_")), wrapper
    steps = torch.tensor(4.0)
    artifact.consts[write.group(1)](steps, torch.tensor(5.0))
    assert steps.item() == 5.0


@torch.library.custom_op("kiln_tests::scaled_on_the_host", mutates_args=())
def scaled_on_the_host(x: torch.Tensor, s: torch.Tensor) -> torch.Tensor:
    """A custom op that reads its scalar on the host (as a C++ op reading s.data_ptr() would)."""
    return x * float(s.numpy())


@scaled_on_the_host.register_fake
def _(x, s):
    return torch.empty_like(x)


def test_a_literal_dividend_of_the_floor_division_helpers_is_a_tensor():
    """kiln_floordiv and kiln_remainder read their first operand's dtype, which a Python int has not: a literal
    dividend (-1 // (s0 // 8), in a dynamic DINOv2's position embeddings, whose kernel failed at its launch:
    "'int' object has no attribute 'dtype'") is spelled as a tensor."""
    import sympy
    from torch.utils._sympy.functions import FloorDiv, ModularIndexing
    from kiln.codegen.triton import TritonIndexPrinter
    s0 = sympy.Symbol("s0", integer=True, positive=True)
    printer = TritonIndexPrinter()
    div, mod = printer.doprint(FloorDiv(-1, FloorDiv(s0, 8))), printer.doprint(ModularIndexing(-1, 1, s0))
    assert div.startswith("kiln_floordiv(tl.full([], -1, tl.int64), ") and \
        mod.startswith("kiln_remainder(tl.full([], -1, tl.int64), "), (div, mod)
