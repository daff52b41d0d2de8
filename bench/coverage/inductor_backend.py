"""Inductor as the coverage sweep's reference backend (`kiln coverage --backend inductor`).

Kept out of the kiln package, which never imports torch._inductor; kiln.tools.coverage loads this file
by path. It counts the graphs Inductor compiles and the FallbackKernels it creates: an aten op that
Inductor runs eagerly inside its compiled graph, the counterpart of kiln's fallback externs.
"""
import torch
import torch._inductor.config
from torch._inductor import ir
from torch._inductor.compile_fx import compile_fx

# a cached graph skips lowering, and so would hide its fallbacks: always lower (kernel builds stay cached)
torch._inductor.config.fx_graph_cache = False
torch._functorch.config.enable_autograd_cache = False


class InductorProbe:
    def __init__(self, fallbacks):
        self.graphs = 0
        self.fallbacks = fallbacks          # the harness's list: names of ops run as FallbackKernels
        original = ir.FallbackKernel.create.__func__
        probe = self

        def create(cls, kernel, *args, **kwargs):
            probe.fallbacks.append(str(kernel))
            return original(cls, kernel, *args, **kwargs)

        ir.FallbackKernel.create = classmethod(create)

    def backend(self, gm, example_inputs):
        self.graphs += 1
        return compile_fx(gm, example_inputs)
