"""options={"freezing": True}: an inference graph's parameters and buffers become constants.

What depends only on them is computed once, at compile time, instead of at every call: casts of the weights
(autocast's bf16 copies), transposes, a batch norm after a convolution (folded into its weight and bias), and, in
lowering, the layouts kiln gives library calls (a convolution's channels-last weight). The user's module keeps its
own tensors, unchanged. A compiled graph given other parameters and buffers than it was compiled with (the next
block of a model whose blocks are frames of their own, another module, a parameter replaced) computes its constants
again from them, once for each set it is given (`per_parameter_set`), rather than compiling again. A frozen tensor
written in place after compiling (load_state_dict, an optimizer's step) is seen by its version counter at the next
call, which computes again what was computed from it, into the same memory (`Constants.refresh`). Eager's batch norm
writes its running statistics in training without moving their version counter, but nn.BatchNorm moves its
num_batches_tracked's: so a buffer is frozen only where its module's buffers can be found, and is watched with all
of them; a batch norm's running statistic only where its module has that counter. Writes that move no version
counter (through `.data`, fused optimizers, a storage swapped by `set_`, a batch norm in training on buffers of a
module that also has a num_batches_tracked it does not move) are not seen.
"""
import copy
import gc
import logging
import operator
import re
import threading
import weakref

import torch
from torch._subclasses.fake_tensor import unset_fake_temporarily

from kiln import ir
from kiln.patterns import mutated_inputs

FROZEN_PREFIX = "_kiln_frozen_"
# a parameter or a buffer of a module, as Dynamo names the source of a graph input (nn modules inlined)
MODULE_PARAMETER = re.compile(r"\._parameters\[")
MODULE_BUFFER = re.compile(r"\._buffers\[")
# A batch norm in training writes its running statistics without moving their version counters; nn.BatchNorm moves
# this buffer's then. A buffer a batch norm reads as a running statistic is frozen only where its module has it.
BATCH_NORM_COUNTER = "num_batches_tracked"
BATCH_NORMS = (torch.nn.functional.batch_norm, torch.batch_norm)   # (as Dynamo's graph calls them)
VERSION = operator.attrgetter("_version")
aten = torch.ops.aten
log = logging.getLogger("kiln")


def frozen_inputs(dynamo_gm, example_inputs):
    """{index of a Dynamo graph input: (its tensor, the tensors to watch with it, whether a batch norm reads it as
    a running statistic, or None for a parameter)} for the inputs that are parameters or buffers of a module.
    Dynamo passes inlined modules' tensors as unguarded inputs, where another module's may come: the compiled graph
    tells one set from another itself (per_parameter_set). A buffer is watched with the other buffers of its
    module, found now in the frame (another set's, by buffers_beside: kiln freezes the collector's objects while it
    compiles, which hides them from gc.get_referrers); it is not frozen where they cannot be found, nor where a
    batch norm reads it as a running statistic and its module has no num_batches_tracked (BATCH_NORM_COUNTER). {}
    outside a Dynamo trace. Not one-element tensors (a learned scale: kernels would read its value inlined, where a
    write could not reach it) nor tensors without a version counter (made under inference_mode: a write to them
    could not be seen)."""
    if torch._guards.TracingContext.try_get() is None:
        return {}
    placeholders = dynamo_gm.graph.find_nodes(op="placeholder")
    found = {}
    for i, (node, value) in enumerate(zip(placeholders, example_inputs)):
        source = getattr(node.meta.get("grapharg"), "source", None)
        if not isinstance(value, torch.Tensor) or source is None or value.numel() == 1 or value.is_inference():
            continue
        if MODULE_PARAMETER.search(source.name):
            found[i] = (value, (), None)
        elif MODULE_BUFFER.search(source.name):
            statistic = read_as_running_statistic(node)
            holders = module_buffers(source, value)
            companions = watchable(None if holders is None else [holders], statistic)
            if companions is not None:
                found[i] = (value, companions, statistic)
    return found


def watchable(holders, statistic):
    """The tensors to watch with a buffer: the other buffers of the dicts that hold it (holders, [{name: tensor}]: its
    module's, and any other module's it is shared with); None where it cannot be watched: none is known, or a batch
    norm reads it as a running statistic and none of them has the counter that moves when it trains."""
    if not holders or statistic and not any(BATCH_NORM_COUNTER in h for h in holders):
        return None
    return tuple({id(t): t for h in holders for t in h.values()}.values())


def buffers_beside(buffers):
    """{id(buffer): [{name: tensor}]} for module buffers given to a compiled graph that Dynamo did not trace with them
    (the next block's): the other tensors of each dict of tensors that holds it, among the objects referring to it
    (its module's nn.Module._buffers; a module's it is shared with; a user's dict(model.named_buffers()), whose
    tensors are watched too: more refreshes, never a missed write)."""
    wanted = {id(b): b for b in buffers}
    holders = {i: [] for i in wanted}
    for d in gc.get_referrers(*buffers):
        if type(d) is dict and all(isinstance(k, str) and (v is None or isinstance(v, torch.Tensor))
                                   for k, v in d.items()):
            for i in {id(v) for v in d.values()} & holders.keys():
                holders[i].append(others_beside(d, wanted[i]))
    return holders


def others_beside(buffers, buffer):
    """{name: tensor} of the tensors in a dict of buffers but buffer, those with a version counter."""
    return {name: t for name, t in buffers.items()
            if isinstance(t, torch.Tensor) and t is not buffer and not t.is_inference()}


def module_buffers(source, buffer):
    """{name: tensor} of the other buffers in the dict that Dynamo's source of a buffer reads it from, found in the
    frame being compiled (as Dynamo's guards evaluate sources), those with a version counter; None where it cannot
    be found."""
    from torch._dynamo.symbolic_convert import InstructionTranslator
    try:
        tx = InstructionTranslator.current_tx()
        buffers = eval(source.base.name, {"L": tx.f_locals, "G": tx.f_globals})   # noqa: S307 (Dynamo's own names)
        if not isinstance(buffers, dict) or not any(t is buffer for t in buffers.values()):
            return None
        return others_beside(buffers, buffer)
    except Exception:   # (a source Dynamo names otherwise: the buffer stays an input)
        return None


def read_as_running_statistic(node):
    """Whether a Dynamo graph's input is a batch norm's running mean or variance."""
    return any(u.op == "call_function" and u.target in BATCH_NORMS and
               (node in u.args[1:3] or node in (u.kwargs.get("running_mean"), u.kwargs.get("running_var")))
               for u in node.users)


def is_frozen(name):
    return name.startswith(FROZEN_PREFIX)


def freeze(gm, frozen):
    """Replaces gm's placeholders at the indices of frozen (that gm does not write into) by constants, then runs
    each op whose operands are all constants and replaces it by its result. Returns the Constants."""
    with unset_fake_temporarily():   # (AOTAutograd compiles under its fake mode; the constants are real)
        return fold(gm, frozen)


def unfrozen(gm):
    """A module running gm's graph as it is now, before freezing changes it: where a frozen graph's compile fails,
    it runs eagerly (compile_graph) reading the parameters passed as inputs. Run frozen, its constants went stale
    after a write to the module's tensors, which nothing refreshed."""
    graph = torch.fx.Graph()
    graph.output(graph.graph_copy(gm.graph, {}))
    graph._codegen = copy.deepcopy(gm.graph._codegen)
    return torch.fx.GraphModule(gm, graph)


def release(gm):
    """Drops the constants gm holds once it is compiled (the wrapper and the Constants hold what is still read). A
    GraphModule and its graph refer to each other, so the collector alone frees it: until then it held every folded
    weight, a frozen ResNet-18's weights' size again."""
    for name in [n for n, _ in gm.named_buffers(recurse=False) if is_frozen(n)]:
        delattr(gm, name)


def fold(gm, frozen):
    placeholders = gm.graph.find_nodes(op="placeholder")
    written = set(mutated_inputs(gm))
    constants = Constants()
    nodes = {}   # get_attr node -> its constant's name
    for i, (tensor, watched, statistic) in frozen.items():
        node = placeholders[i] if i < len(placeholders) else None
        val = node.meta.get("val") if node is not None else None
        if i in written or not isinstance(val, torch.Tensor) or val.shape != tensor.shape or val.dtype != tensor.dtype:
            continue
        with gm.graph.inserting_after(placeholders[-1]):
            attr = replace_by_constant(gm, node, tensor.detach(), nodes)
        constants.add_input(nodes[attr], gm.get_buffer(nodes[attr]), watched)
        constants.keyed[i] = (nodes[attr], tensor)
        if statistic is not None:
            constants.statistics[nodes[attr]] = statistic
    fold_constants(gm, nodes, constants)
    if fold_batch_norms(gm, nodes):   # (a convolution's weight may be a folded cast: after the first pass)
        fold_constants(gm, nodes, constants)
    gm.graph.eliminate_dead_code()
    gm.recompile()
    live = {n.target for n in gm.graph.find_nodes(op="get_attr")}
    for name in set(nodes.values()) - live:   # (a folded chain's intermediate, a parameter only folded)
        delattr(gm, name)
    constants.let_go(live)
    return constants


def fold_constants(gm, nodes, constants):
    """Each op of constants replaced by its result, in order."""
    for node in list(gm.graph.nodes):
        if foldable(node, nodes, constants):
            args, kwargs = torch.fx.node.map_arg((node.args, node.kwargs), lambda n: Ref(nodes[n]))
            result = run(node.target, args, kwargs, constants.values)
            with gm.graph.inserting_before(node):
                attr = replace_by_constant(gm, node, result, nodes)
            constants.add_step(nodes[attr], node.target, args, kwargs, result)


def fold_batch_norms(gm, nodes):
    """Each eval batch norm of a convolution's output, both with constant operands, becomes the convolution with
    the batch norm folded into its weight and bias: ops of constants, which fold then computes once. A convolution
    read by nothing else, not transposed. In float32 for 16-bit weights, rounded once at the end. Returns how
    many it folded."""
    folded_norms = 0
    for norm in gm.graph.find_nodes(op="call_function", target=aten._native_batch_norm_legit_no_training.default):
        if len(norm.args) != 7 or not isinstance(norm.args[0], torch.fx.Node):
            continue
        conv, weight, bias, mean, var, _, eps = norm.args
        if conv.op != "call_function" or conv.target is not aten.convolution.default or len(conv.users) != 1 or \
                conv.args[6] or not all(a is None or a in nodes for a in (conv.args[1], conv.args[2], weight, bias)) \
                or mean not in nodes or var not in nodes or any(u.target is not operator.getitem or u.args[1] != 0
                                                                for u in norm.users):
            continue
        graph, fake = gm.graph, conv.meta["val"].fake_mode
        kernel, conv_bias = conv.args[1], conv.args[2]
        dtype = kernel.meta["val"].dtype
        acc = torch.float32 if ir.dtype_is_low_precision(dtype) else dtype

        def op(target, *args, **kwargs):   # a node, with its fake value
            node = graph.call_function(target, args, kwargs)
            with fake:
                node.meta["val"] = target(*torch.fx.node.map_arg(args, lambda n: n.meta["val"]), **kwargs)
            return node

        def cast(n, dtype):
            return n if n.meta["val"].dtype == dtype else op(aten._to_copy.default, n, dtype=dtype)

        def wide(n):
            return cast(n, acc)
        with graph.inserting_before(norm):   # (after every operand: one folded in the first pass may follow conv)
            scale = op(aten.rsqrt.default, op(aten.add.Tensor, wide(var), eps))
            if weight is not None:
                scale = op(aten.mul.Tensor, scale, wide(weight))
            shift = op(aten.neg.default, wide(mean)) if conv_bias is None else \
                op(aten.sub.Tensor, wide(conv_bias), wide(mean))
            shift = op(aten.mul.Tensor, shift, scale)
            if bias is not None:
                shift = op(aten.add.Tensor, shift, wide(bias))
            sizes = [-1] + [1] * (kernel.meta["val"].dim() - 1)
            folded_kernel = cast(op(aten.mul.Tensor, wide(kernel), op(aten.view.default, scale, sizes)), dtype)
            folded_bias = cast(shift, dtype)
            folded = graph.call_function(aten.convolution.default, (conv.args[0], folded_kernel, folded_bias,
                                                                     *conv.args[3:]))
        folded.meta.update(conv.meta)
        for user in list(norm.users):
            user.replace_all_uses_with(folded)
            graph.erase_node(user)
        graph.erase_node(norm)
        graph.erase_node(conv)
        folded_norms += 1
    return folded_norms


def replace_by_constant(gm, node, tensor, nodes):
    """node's uses read tensor instead, which gm holds as a frozen attribute; returns the get_attr node."""
    name = f"{FROZEN_PREFIX}{len(nodes)}"
    gm.register_buffer(name, tensor, persistent=False)
    attr = gm.graph.get_attr(name)
    attr.meta.update(node.meta)
    node.replace_all_uses_with(attr)
    nodes[attr] = name
    return attr


def foldable(node, nodes, constants):
    """An op of constants that is deterministic, writes nothing, returns one tensor of more than one element (a
    one-element result would be inlined into kernels, where a refresh could not reach it), and is no larger than
    its largest operand (an expand of a bias, folded, would be materialized whole)."""
    target = node.target
    if node.op != "call_function" or not isinstance(target, torch._ops.OpOverload) or not node.all_input_nodes:
        return False
    if any(a not in nodes for a in node.all_input_nodes):
        return False
    if torch.Tag.nondeterministic_seeded in target.tags or target._schema.is_mutable:
        return False
    val = node.meta.get("val")
    if not isinstance(val, torch.Tensor) or any(not isinstance(n, int) for n in val.shape) or val.numel() == 1:
        return False
    return val.numel() <= max(constants.values[nodes[a]].numel() for a in node.all_input_nodes)


class Ref(str):
    """A constant's name among a folded op's operands (an op's own string arguments are plain str)."""


def run(op, args, kwargs, values):
    """op on its operands, each Ref read from values."""
    args, kwargs = torch.fx.node.map_aggregate((args, kwargs), lambda a: values[a] if isinstance(a, Ref) else a)
    return op(*args, **kwargs)


class Constants:
    """A frozen graph's constants by name, and how each was computed from the module's tensors, so that they can
    be computed again where one of those was written in place. A constant that is a module's tensor, or a view
    of one, follows it by itself; the others are computed again into their own memory, which the wrapper (and a
    CUDA graph's replay) reads by address, and their views follow them."""

    def __init__(self):
        self.values = {}     # name -> tensor
        self.steps = []      # (name, op, args, kwargs) of each folded op, in order, its operands as Refs
        self.views = set()   # constants that view the memory of an operand
        self.derived = set()  # constants computed from the module's tensors, rather than viewing them
        self.sources = {}    # name -> the names of the module's tensors it was computed from
        self.companions = {}  # a module's tensor's name -> the tensors whose writes may write it too, unseen
        self.relaid = []     # (remake, source name, sizes, strides, offset): what lowering made of a constant's view
        self.keyed = {}      # graph input index -> (name, the module's tensor) of parameters and buffers
        self.statistics = {}  # a buffer's name -> whether a batch norm reads it as a running statistic

    @property
    def folded(self):
        return len(self.steps)

    def add_input(self, name, tensor, watched=()):
        self.values[name] = tensor
        self.sources[name] = {name}
        self.companions[name] = watched

    def add_step(self, name, op, args, kwargs, result):
        operands = refs_in((args, kwargs))
        self.values[name] = result
        self.steps.append((name, op, args, kwargs))
        if any(result.untyped_storage().data_ptr() == self.values[a].untyped_storage().data_ptr() for a in operands):
            self.views.add(name)
        if name not in self.views or any(a in self.derived for a in operands):
            self.derived.add(name)
        self.sources[name] = set().union(*(self.sources[a] for a in operands))

    def let_go(self, live):
        """Forgets the memory of computed constants the graph no longer reads (a folded chain's intermediates),
        but for those whose memory a kept view reads; a refresh computes them again, into no memory of theirs."""
        kept = set(live)
        for name, _, args, kwargs in reversed(self.steps):
            if name in kept and name in self.views:
                kept.update(refs_in((args, kwargs)))
        for name, *_ in self.steps:
            if name not in kept:
                self.values.pop(name, None)

    def add_relaid(self, name, remake, source, sizes, strides, offset):
        """What lowering made of a view of constant source (a copy laid out anew, a library's packed weight),
        which remake(view) makes again."""
        self.relaid.append((remake, source, sizes, strides, offset))
        self.derived.add(name)
        self.sources[name] = self.sources.get(source, set())

    def watched(self, used):
        """The module's tensors (detached: they share its version counter) that the constants named in used were
        computed from."""
        names = sorted(set().union(*(self.sources[n] for n in used if n in self.derived)))
        # each tensor once (a batch norm's buffers watch each other); by identity, not memory: tensors tied through
        # .data share memory, not their version counters
        found = [self.values[n] for n in names] + [t for n in names for t in self.companions[n]]
        return list({id(t): t for t in found}.values())

    def refresh(self):
        """Every computed constant computed again from the module's tensors as they are now, into its memory."""
        with torch.no_grad():
            now = self.computed(self.values)
            for name, *_ in self.steps:
                if name in self.values and name not in self.views:
                    self.values[name].copy_(now[name])
            for remake, source, sizes, strides, offset in self.relaid:
                remake(self.source_view(now, source, sizes, strides, offset))
            synchronized(self.values.values())

    def computed(self, values):
        """{name: tensor}: values, then every step computed from them in order, each into memory of its own (a
        view's into its operand's)."""
        now = dict(values)
        for name, op, args, kwargs in self.steps:
            now[name] = run(op, args, kwargs, now)
        return now

    @staticmethod
    def source_view(now, source, sizes, strides, offset):
        base = now[source]   # (computed just now: the source's own memory may have been let go)
        return torch.as_strided(base, sizes, strides, base.storage_offset() + offset)

    def rebound(self, tensors, watches):
        """These constants computed from other module tensors ({graph input index: tensor}, for keyed's; watches:
        {graph input index: the tensors to watch with that buffer}): a new Constants, whose computed constants and
        relaid objects are new ones, and {id(a constant or relaid object here): its counterpart there} for the
        wrapper's objects."""
        other = copy.copy(self)
        other.views, other.derived, other.sources = set(self.views), set(self.derived), dict(self.sources)
        other.companions = {**self.companions, **{self.keyed[i][0]: w for i, w in watches.items()}}
        inputs = {name: tensors[i].detach() for i, (name, _) in self.keyed.items()}
        other.keyed = {}   # (holds no tensor of the user's: the set is let go with them, per_parameter_set)
        with torch.no_grad():
            now = self.computed({**self.values, **inputs})
            other.values = {name: now[name] for name in self.values}
            other.relaid = []
            counterparts = {id(t): other.values[name] for name, t in self.values.items()}
            for remake, source, sizes, strides, offset in self.relaid:
                made = remake.__self__   # (a relaid copy's copy_, a packed call's pack)
                fresh = torch.empty_strided(made.shape, made.stride(), dtype=made.dtype, device=made.device) \
                    if isinstance(made, torch.Tensor) else copy.copy(made)
                remade = getattr(fresh, remake.__name__)
                remade(self.source_view(now, source, sizes, strides, offset))
                other.relaid.append((remade, source, sizes, strides, offset))
                counterparts[id(made)] = fresh
            synchronized(other.values.values())
        return other, counterparts


def synchronized(tensors):
    """Waits for the work queued to compute tensors: another thread's call may read them on another stream."""
    for device in {t.device for t in tensors if t.device.type == "cuda"}:
        torch.cuda.synchronize(device)


def refs_in(args):
    found = []
    torch.fx.node.map_aggregate(args, lambda a: found.append(a) if isinstance(a, Ref) else None)
    return found


def per_parameter_set(call, constants, artifact, bound, eager, name):
    """The callable of a frozen graph: call, on the constants folded from the module tensors it was compiled with,
    where it is given those. Given other parameters and buffers (those of the next block of a model whose blocks are
    frames of their own, which Dynamo runs through this graph, no guard telling them apart), the same wrapper on
    constants computed from them, once for each set and let go with it (buffers watched with their own module's,
    found by what refers to them, ~70 ms in a process of 0.4M objects: buffers_beside): bound(counterparts) makes that
    wrapper's call (the objects its wrapper names, replaced by identity). Dynamo's guards on the graph's input
    tensors hold for parameters too (sizes, strides, dtype, device, inference tensors: another layout compiles
    anew), but for the storage offset, which an as_strided at an explicit offset reads (guarded only where the
    Dynamo graph shows it, capture.guard_storage_offsets): parameters at other offsets run eager (the graph
    unfrozen). Each set's call computes its constants again after a write to the module tensors they came from
    (refreshing)."""
    for made, (source, sizes, strides, offset, remake) in artifact.relaid.items():
        constants.add_relaid(made, remake, source, sizes, strides, offset)
    read = [n for n in artifact.consts if is_frozen(n)]
    # what only lowering read (a convolution's weight that its channels-last or packed copy was made from) is held
    # no more: a refresh computes it again, into no memory of its own
    constants.let_go(read)
    read += list(artifact.relaid)
    first = refreshing(call, constants, read)
    if not constants.keyed:
        return first
    indices = list(constants.keyed)
    offsets = [t.storage_offset() for _, t in constants.keyed.values()]
    statistics = {i: constants.statistics[name] for i, (name, _) in constants.keyed.items()
                  if name in constants.statistics}
    sets = ParameterSets()
    # (the first set is never dropped: constants.keyed holds its tensors, the graph's own)
    sets[ParameterSets.key([t for _, t in constants.keyed.values()])] = first
    lock = threading.Lock()

    def another_set(tensors):
        with lock:   # (one fold per set: a thread that finds it being made waits for it)
            key = ParameterSets.key(tensors)
            if key not in sets:
                given = dict(zip(indices, tensors))
                watches = buffer_watches(given, statistics)
                if watches is None and gc.get_freeze_count():
                    # (objects frozen from the collector, by a compile in another thread or by the user, are not
                    # found as referrers: this set is run eagerly now and looked for again at its next call)
                    log.info("kiln: %s runs eagerly for other buffers, whose module was not found", name)
                    return eager
                if [t.storage_offset() for t in tensors] == offsets and watches is not None:
                    other, counterparts = constants.rebound(given, watches)
                    sets.add(tensors, refreshing(bound(counterparts), other, read))
                    log.info("kiln: %s computed its frozen constants for other parameters (%d sets held)", name,
                             len(sets))
                else:
                    sets.add(tensors, eager)
                    log.info("kiln: %s runs eagerly for other parameters: %s", name,
                             "buffers that cannot be watched (see frozen_inputs)" if watches is None else
                             "at other storage offsets than it was compiled for")
            return sets[key]

    def dispatched(args):
        tensors = [args[i] for i in indices]
        return (sets.get(ParameterSets.key(tensors)) or another_set(tensors))(args)
    dispatched._boxed_call = True   # (as call: it takes the argument list itself)
    return dispatched


def buffer_watches(tensors, statistics):
    """{graph input index: the tensors to watch with that buffer} for the buffers among tensors ({graph input index:
    tensor}; statistics: {index: whether a batch norm reads it as a running statistic}); None where one of them
    cannot be watched (watchable)."""
    beside = buffers_beside([tensors[i] for i in statistics]) if statistics else {}
    watches = {i: watchable(beside[id(tensors[i])], statistic) for i, statistic in statistics.items()}
    return None if None in watches.values() else watches


class ParameterSets(dict):
    """A frozen graph's call for each set of parameters, by their ids. A set added is dropped with any of its
    tensors (then its constants are let go, and an id may be another tensor's), so it holds none of them; the
    watches on them end with the graph (a model outliving many compiles)."""

    def __init__(self):
        super().__init__()
        self.watches = []
        weakref.finalize(self, ParameterSets.unwatch, self.watches)

    @staticmethod
    def key(tensors):
        return tuple(map(id, tensors))

    def add(self, tensors, call):
        key = ParameterSets.key(tensors)
        self[key] = call
        self.watches += [weakref.finalize(t, ParameterSets.forget, weakref.ref(self), key) for t in tensors]

    @staticmethod
    def forget(ref, key):
        sets = ref()
        if sets is not None:
            sets.pop(key, None)

    @staticmethod
    def unwatch(watches):
        for watch in watches:
            watch.detach()


def refreshing(call, constants, read):
    """call, a compiled graph reading the constants named in read, which first computes them again where a
    module's tensor they came from was written since."""
    watched = constants.watched(read)
    if not watched:
        return call
    versions = list(map(VERSION, watched))
    lock = threading.Lock()

    def checked(args):
        if list(map(VERSION, watched)) != versions:
            # one refresh per write: a thread that sees the write while another refreshes waits for it, then runs on
            # the constants computed again (versions move only once they are)
            with lock:
                now = list(map(VERSION, watched))
                if now != versions:
                    constants.refresh()
                    versions[:] = now
        return call(args)
    checked._boxed_call = True   # (as call: it takes the argument list itself)
    return checked
