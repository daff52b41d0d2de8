"""options={"debug": True}: indirect indexing is bounds-checked (C++ aborts with a message naming the index;
Triton kernels get tl.device_assert, which fires on a GPU; the Triton interpreter compiles asserts away)."""
import os
import subprocess
import sys

import torch

import kiln

SCRIPT = """
import torch, kiln
kiln.compile(lambda w, i: w[i] * 2, options={"debug": True, "strict": True})(torch.randn(10, 4), torch.tensor([1, 12]))
"""


def test_out_of_bounds_index_stops_with_a_message():
    env = {k: v for k, v in os.environ.items() if k not in ("KILN_TARGET", "TRITON_INTERPRET")}
    result = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env, timeout=300)
    assert result.returncode != 0
    assert "index 12 is out of bounds for size 10" in result.stderr


def test_in_bounds_and_negative_indices_pass_the_check():
    w, i = torch.randn(10, 4), torch.tensor([1, -3, 9])
    out = kiln.compile(lambda w, i: w[i] * 2, options={"debug": True, "strict": True})(w, i)
    torch.testing.assert_close(out, w[i] * 2)
