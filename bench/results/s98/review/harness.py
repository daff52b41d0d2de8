"""Shared setup: the patched tree's ReplayingRecorder (from $COMMIT/tests/test_modes.py, COMMIT=/tmp/review/commit
by default), installed into whichever kiln is on PYTHONPATH."""
import os, sys, logging, importlib.util, torch
import kiln
from kiln.runtime import cuda_graphs
COUNTS = cuda_graphs.COUNTS
spec = importlib.util.spec_from_file_location(
    "tm", os.path.join(os.environ.get("COMMIT", "/tmp/review/commit"), "tests", "test_modes.py"))
tm = importlib.util.module_from_spec(spec)
# the test module imports kiln's cuda_graphs: the one on PYTHONPATH
spec.loader.exec_module(tm)
R = tm.ReplayingRecorder

def setup(pool_bytes=1 << 26):
    cuda_graphs.RECORDERS["cpu"] = R
    R.recordings = 0
    R.free = []
    R.pool = (torch.empty(pool_bytes, dtype=torch.uint8), 0)
    torch._dynamo.reset()
    if "-v" in sys.argv:
        logging.basicConfig(); logging.getLogger("kiln.cudagraphs").setLevel(logging.INFO)
    else:
        logging.basicConfig(); logging.getLogger("kiln.cudagraphs").setLevel(logging.WARNING)

def compiled(fn, **kw):
    return kiln.compile(fn, mode="reduce-overhead", options={"graph_cache": False}, **kw)

def stats():
    return dict(recordings=R.recordings, replays=cuda_graphs.COUNTS["cuda_graph_replays"])

close = torch.testing.assert_close
