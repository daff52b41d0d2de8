"""kiln's C launcher (kiln/runtime/cuda_launch.c), run against a stand-in for the CUDA driver that records each
launch: the arguments reach the kernel as its parameters, in the types Triton compiled it for, with constants
left out and scratch pointers after; and a launch whose arguments do not fit the variant (dtype, alignment,
divisibility, a constant, the int's width, the device's context) launches nothing and says so, so that the
caller takes the path that builds the variant that fits. A launch with wrong parameters would write to the wrong
memory on a GPU, so every check is tested here, where CI has none."""
import ctypes
import struct
import subprocess

import pytest
import torch

from kiln.runtime import triton_launch

DRIVER = r'''
#include <stdint.h>
#include <string.h>
static void *context = (void *)0x1000;
extern "C" {
int expected_params;
uint64_t params_seen[32];
unsigned long long launches, grid_seen, threads_seen, shared_seen;
void *function_seen, *stream_seen;
int cuCtxGetCurrent(void **c) { *c = context; return 0; }
void set_context(void *c) { context = c; }
int cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                   unsigned shared, void *stream, void **params, void **extra) {
  launches++;
  grid_seen = gx * gy * gz;
  threads_seen = bx * by * bz;
  shared_seen = shared;
  function_seen = f;
  stream_seen = stream;
  for (int i = 0; i < expected_params; i++) memcpy(&params_seen[i], params[i], 8);
  return 0;
}
}
'''


@pytest.fixture(scope="module")
def driver(tmp_path_factory):
    folder = tmp_path_factory.mktemp("driver")
    (folder / "driver.cpp").write_text(DRIVER)
    subprocess.run(["g++", "-shared", "-fPIC", "driver.cpp", "-o", "libdriver.so"], cwd=folder, check=True)
    mp = pytest.MonkeyPatch()
    mp.setenv("KILN_CUDA_DRIVER", str(folder / "libdriver.so"))   # read at the first variant, once a process
    mp.setattr(triton_launch, "make_variant", None)
    mp.setattr(triton_launch, "launch_variant", None)
    triton_launch.load_c_launcher(str(tmp_path_factory.mktemp("cache")))
    assert triton_launch.launch_variant is not None, "the C launcher did not build"
    yield ctypes.CDLL(str(folder / "libdriver.so"))   # (the same library the launcher opened: its globals)
    mp.undo()


def test_arguments_reach_the_kernel_in_its_parameter_types(driver):
    t = torch.zeros(64)
    assert t.data_ptr() % 16 == 0
    specs = (("p", True, torch.float32, 0), ("i", False, None, 0), ("l", False, None, 0), ("c", 0, None, 128),
             ("f", 0, None, 0), ("d", 0, None, 0))
    variant = triton_launch.make_variant(0xABC, 128, 1024, 2, specs)
    ctypes.c_int.in_dll(driver, "expected_params").value = 7
    before = ctypes.c_ulonglong.in_dll(driver, "launches").value
    assert triton_launch.launch_variant(variant, 5, 0x77, (t, -7, 2 ** 40 + 3, 128, 0.5, 0.25)) is True
    assert ctypes.c_ulonglong.in_dll(driver, "launches").value == before + 1
    seen = list((ctypes.c_uint64 * 7).in_dll(driver, "params_seen"))
    assert seen[0] == t.data_ptr()
    assert struct.unpack("<i", struct.pack("<Q", seen[1])[:4])[0] == -7   # 32 bits
    assert seen[2] == 2 ** 40 + 3
    assert struct.unpack("<f", struct.pack("<Q", seen[3])[:4])[0] == 0.5   # the constant 128 is not passed
    assert struct.unpack("<d", struct.pack("<Q", seen[4]))[0] == 0.25
    assert seen[5:] == [0, 0]   # Triton's scratch pointers, unused
    assert [ctypes.c_ulonglong.in_dll(driver, n).value for n in ("grid_seen", "threads_seen", "shared_seen")] == \
        [5, 128, 1024]
    assert ctypes.c_void_p.in_dll(driver, "function_seen").value == 0xABC
    assert ctypes.c_void_p.in_dll(driver, "stream_seen").value == 0x77


def test_arguments_that_do_not_fit_the_variant_launch_nothing(driver):
    t = torch.zeros(64)
    specs = (("p", True, torch.float32, 0), ("i", False, None, 0), ("l", False, None, 0), ("c", 0, None, 128))
    variant = triton_launch.make_variant(0xABC, 128, 0, 0, specs)
    ctypes.c_int.in_dll(driver, "expected_params").value = 3
    launches = lambda: ctypes.c_ulonglong.in_dll(driver, "launches").value   # noqa: E731
    fits = (t, 7, 2 ** 40 + 3, 128)
    before = launches()
    assert triton_launch.launch_variant(variant, 3, 0, fits) is True
    assert launches() == before + 1
    unfit = {"another dtype": (t.double(), 7, 2 ** 40 + 3, 128),
             "misaligned": (t[1:], 7, 2 ** 40 + 3, 128),
             "divisible by 16": (t, 16, 2 ** 40 + 3, 128),
             "1 (a constant to Triton)": (t, 1, 2 ** 40 + 3, 128),
             "past 32 bits": (t, 2 ** 31 + 1, 2 ** 40 + 3, 128),
             "within 32 bits (an int32 to Triton)": (t, 7, 5, 128),
             "another constant": (t, 7, 2 ** 40 + 3, 64),
             "a float for an int": (t, 7.0, 2 ** 40 + 3, 128),
             "a tensor for an int": (t, t, 2 ** 40 + 3, 128),
             "one argument fewer": (t, 7, 2 ** 40 + 3)}
    for why, args in unfit.items():
        assert triton_launch.launch_variant(variant, 3, 0, args) is False, why
    assert launches() == before + 1
    driver.set_context.argtypes = [ctypes.c_void_p]
    driver.set_context(0x2000)   # another device current: its context does not hold the function
    try:
        assert triton_launch.launch_variant(variant, 3, 0, fits) is False
    finally:
        driver.set_context(0x1000)
    assert triton_launch.launch_variant(variant, 0, 0, fits) is True   # an empty grid: nothing to launch
    assert launches() == before + 1
