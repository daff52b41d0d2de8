# session 77: the stem's ReLU + max-pool kernel alone, through ctypes, on a channels-last 2 x 64 x 32 x 32 input,
# against eager's ReLU + max-pool. Build a library from kiln.codegen.cpp.PRELUDE + stem_kernel_before.cpp with
# kiln's flags (kiln.runtime.cpp_build.FLAGS), with or without the attribute, then:
#   python3 kernel_time.py LIB.so [LIB2.so ...]
import ctypes, torch, time, sys
x = torch.randn(2, 64, 32, 32).contiguous(memory_format=torch.channels_last)
for name in sys.argv[1:]:
    lib = ctypes.CDLL(name); fn = lib.kernel_relu_max_pool2d_with_indices_b40605689f
    out = torch.empty(2, 64, 16, 16).contiguous(memory_format=torch.channels_last)
    for _ in range(10): fn(ctypes.c_void_p(x.data_ptr()), ctypes.c_void_p(out.data_ptr()))
    t = time.perf_counter()
    for _ in range(1000): fn(ctypes.c_void_p(x.data_ptr()), ctypes.c_void_p(out.data_ptr()))
    print(name, "us", (time.perf_counter() - t) * 1e3)
t = time.perf_counter()
for _ in range(1000): torch.nn.functional.max_pool2d(x.relu(), 3, 2, 1)
print("torch us", (time.perf_counter() - t) * 1e3)
