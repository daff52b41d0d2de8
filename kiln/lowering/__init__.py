"""Lowering: each ATen op of an AOT graph becomes IR.

Values flow through the graph in two forms (values.py):
  Lazy     a pointwise body not yet stored anywhere; consumers inline it;
  View     a strided window on a Buffer (an input, a computed buffer or an extern output).
Views (view, permute, expand, slice, ...) are index transforms, so they never copy.
`LOWERINGS` maps an ATen op to a small function, registered in the module of its kind: pointwise, views,
indexing, reductions, sorting, pooling, externs (library calls), collectives (torch.distributed's). Ops missing from it become eager fallbacks.
graph.py walks the FX graph; its mixins decide which values are stored (realization.py) and how they are laid
out (layouts_for_users.py), lay out the graph's outputs (outputs.py), make externs (extern_calls.py) and hold seeds
and constants (seeds_and_constants.py).
"""
from kiln.lowering import collectives, indexing, pointwise, pooling, reductions, sorting, views  # noqa: F401 (they register)
from kiln.lowering.externs import EXTERNS, LIBRARY_CALLS
from kiln.lowering.graph import GraphLowering
from kiln.lowering.realization import EQUALITY
from kiln.lowering.values import LOWERINGS, same_strides

__all__ = ["EQUALITY", "EXTERNS", "GraphLowering", "LIBRARY_CALLS", "LOWERINGS", "same_strides"]
