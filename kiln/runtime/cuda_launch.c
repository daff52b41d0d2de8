// Launches a compiled Triton kernel on a CUDA stream: kiln's fast path for a launch whose arguments match a
// variant Triton built and loaded (kiln/runtime/triton_launch.py builds this file, as C++, at the first CUDA graph).
//
// Triton's own launcher is a Python function around a C one: per launch it allocates scratch space, binds
// hooks and metadata, and asks each tensor for its address through Python (7.4 us a launch on an H100 host,
// against 8.2 for one ATen add). A variant here holds what does not change between launches (the function, its
// block and shared memory, and what each argument was when Triton specialized the kernel), so that a launch
// checks each argument against it and calls the driver. launch() returns False, launching nothing, where an
// argument differs from the variant (another dtype, alignment, divisibility or constant, or another device's
// context): the caller then finds or builds the variant that fits.
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef void *CUfunction;
typedef void *CUstream;
typedef void *CUcontext;
static CUresult (*cuLaunchKernel_)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                   unsigned, CUstream, void **, void **);
static CUresult (*cuCtxGetCurrent_)(CUcontext *);

// cuda.h's CUlaunchAttribute and CUlaunchConfig, as cuLaunchKernelEx (driver 12.0 and later) takes them: for a kernel
// launched as a programmatic dependent of the kernel before it in the stream (Hopper's PDL), which may start while
// that one finishes. Such a kernel's first statement waits until the one before has completed (Triton's gdc_wait):
// kiln's codegen writes it, and gives the kernel this attribute only then.
typedef struct {
  int id;
  char pad[4];
  union {
    char pad[64];
    int allowed;
  } value;
} LaunchAttribute;
typedef struct {
  unsigned grid_x, grid_y, grid_z, block_x, block_y, block_z, shared;
  CUstream stream;
  LaunchAttribute *attributes;
  unsigned count;
} LaunchConfig;
enum { PROGRAMMATIC_STREAM_SERIALIZATION = 6 };  // (CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION)
static CUresult (*cuLaunchKernelEx_)(const LaunchConfig *, CUfunction, void **, void **);
static PyObject *dtype_name, *data_ptr_name, *is_cuda_name;

enum Kind {
  POINTER = 'p',  // a CUDA tensor, passed as its address: the same dtype, and 16-byte aligned as it was
  INT32 = 'i',    // an int passed as 32 bits: divisible by 16 as it was, never 1 (Triton makes 1 a constant)
  INT64 = 'l',    // an int passed as 64 bits: likewise
  CONSTANT = 'c', // an int Triton compiled into the kernel (a constexpr, or a 1): equal to it, not passed
  FLAG = 'b',     // a bool Triton compiled into the kernel (a constexpr: kiln's matmul's BIAS): the same, not passed
  FLOAT32 = 'f',  // a Python float (Triton compiles an int or a bool as another variant)
  FLOAT64 = 'd',
};

typedef struct {
  char kind;
  int aligned_or_divisible;
  PyObject *dtype;  // POINTER: a new reference
  long long value;  // CONSTANT
} Arg;

#define MAX_ARGS 512

typedef struct {
  PyObject_HEAD
  CUfunction function;
  CUcontext context;  // the context the function was loaded in (the device's, current when it was made)
  unsigned threads, shared;
  int dependent;      // launched as a programmatic dependent (the kernel waits for the one before it)
  int scratch;        // null pointers after the arguments (Triton's global and profile scratch, unused)
  PyObject *owner;
  Py_ssize_t count;
  Arg *args;
} Variant;

static void variant_dealloc(PyObject *self) {
  Variant *v = (Variant *)self;
  for (Py_ssize_t i = 0; i < v->count; i++) Py_XDECREF(v->args[i].dtype);
  PyMem_Free(v->args);
  Py_XDECREF(v->owner);
  Py_TYPE(self)->tp_free(self);
}

static PyTypeObject VariantType = {PyVarObject_HEAD_INIT(NULL, 0)};

static int load_driver(void) {
  if (cuLaunchKernel_) return 1;
  const char *driver = getenv("KILN_CUDA_DRIVER");  // (the tests' stand-in for the driver, recording launches)
  void *lib = dlopen(driver && *driver ? driver : "libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
  if (lib) {
    cuLaunchKernel_ = (CUresult(*)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                   unsigned, CUstream, void **, void **))dlsym(lib, "cuLaunchKernel");
    cuCtxGetCurrent_ = (CUresult(*)(CUcontext *))dlsym(lib, "cuCtxGetCurrent");
    cuLaunchKernelEx_ = (CUresult(*)(const LaunchConfig *, CUfunction, void **, void **))dlsym(lib, "cuLaunchKernelEx");
  }
  if (!cuLaunchKernel_ || !cuCtxGetCurrent_) {
    cuLaunchKernel_ = NULL;
    PyErr_SetString(PyExc_OSError, "kiln: the CUDA driver (libcuda.so.1) could not be loaded");
    return 0;
  }
  return 1;
}

// variant(function, threads, shared, scratch, args, dependent, owner): args is a tuple of (kind, aligned or divisible,
// dtype or None, constant value); dependent: whether the kernel launches as a programmatic dependent; the current
// context is the function's; owner (Triton's compiled kernel, which holds the loaded module) is kept alive while
// the variant is.
static PyObject *variant(PyObject *self, PyObject *const *argv, Py_ssize_t argc) {
  if (argc != 7 || !PyTuple_Check(argv[4]) || PyTuple_GET_SIZE(argv[4]) > MAX_ARGS) {
    PyErr_SetString(PyExc_TypeError, "variant(function, threads, shared, scratch, args: tuple, dependent, owner)");
    return NULL;
  }
  if (!load_driver()) return NULL;
  void *function = PyLong_AsVoidPtr(argv[0]);
  if (PyErr_Occurred()) return NULL;
  unsigned long threads = PyLong_AsUnsignedLong(argv[1]);
  if (PyErr_Occurred()) return NULL;
  unsigned long shared = PyLong_AsUnsignedLong(argv[2]);
  if (PyErr_Occurred()) return NULL;
  long scratch = PyLong_AsLong(argv[3]);
  if (PyErr_Occurred()) return NULL;
  if (scratch < 0 || scratch > 2) return PyErr_Format(PyExc_ValueError, "kiln: %ld scratch pointers", scratch);
  int dependent = PyObject_IsTrue(argv[5]);
  if (dependent < 0) return NULL;
  if (dependent && !cuLaunchKernelEx_)
    return PyErr_Format(PyExc_OSError, "kiln: the CUDA driver has no cuLaunchKernelEx (a dependent launch)");
  Variant *v = PyObject_New(Variant, &VariantType);
  if (!v) return NULL;
  v->function = function;
  v->threads = (unsigned)threads;
  v->shared = (unsigned)shared;
  v->scratch = (int)scratch;
  v->dependent = dependent;
  Py_INCREF(argv[6]);
  v->owner = argv[6];
  v->count = PyTuple_GET_SIZE(argv[4]);
  v->args = (Arg *)PyMem_Calloc(v->count ? v->count : 1, sizeof(Arg));
  if (!v->args) {
    v->count = 0;
    Py_DECREF(v);
    return PyErr_NoMemory();
  }
  if (cuCtxGetCurrent_(&v->context) != 0 || !v->context) {
    Py_DECREF(v);
    return PyErr_Format(PyExc_RuntimeError, "kiln: no current CUDA context for a kernel variant");
  }
  for (Py_ssize_t i = 0; i < v->count; i++) {
    PyObject *spec = PyTuple_GET_ITEM(argv[4], i);
    const char *kind;
    int flag;
    PyObject *dtype;
    long long value;
    if (!PyArg_ParseTuple(spec, "siOL", &kind, &flag, &dtype, &value) || strlen(kind) != 1) {
      v->count = i;
      Py_DECREF(v);
      if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "kiln: an argument's kind is one letter");
      return NULL;
    }
    v->args[i].kind = kind[0];
    v->args[i].aligned_or_divisible = flag;
    v->args[i].value = value;
    if (kind[0] == POINTER) {
      Py_INCREF(dtype);
      v->args[i].dtype = dtype;
    }
  }
  return (PyObject *)v;
}

// launch(variant, programs, stream, args) -> whether it launched (False: an argument does not fit the variant)
static PyObject *launch(PyObject *self, PyObject *const *argv, Py_ssize_t argc) {
  if (argc != 4 || Py_TYPE(argv[0]) != &VariantType || !PyTuple_Check(argv[3])) {
    PyErr_SetString(PyExc_TypeError, "launch(variant, programs, stream, args: tuple)");
    return NULL;
  }
  Variant *v = (Variant *)argv[0];
  PyObject *args = argv[3];
  if (PyTuple_GET_SIZE(args) != v->count) Py_RETURN_FALSE;
  unsigned long long programs = PyLong_AsUnsignedLongLong(argv[1]);
  if (PyErr_Occurred()) return NULL;
  if (programs > INT32_MAX) Py_RETURN_FALSE;  // (more than the grid's x dimension takes: Triton's launcher raises)
  void *stream = PyLong_AsVoidPtr(argv[2]);
  if (PyErr_Occurred()) return NULL;
  CUcontext context;
  if (cuCtxGetCurrent_(&context) != 0 || context != v->context) Py_RETURN_FALSE;
  uint64_t values[MAX_ARGS + 2];
  void *params[MAX_ARGS + 2];
  int n = 0;
  for (Py_ssize_t i = 0; i < v->count; i++) {
    PyObject *a = PyTuple_GET_ITEM(args, i);
    Arg *spec = &v->args[i];
    if (spec->kind == POINTER) {
      PyObject *dtype = PyObject_GetAttr(a, dtype_name);
      if (!dtype) {
        if (!PyErr_ExceptionMatches(PyExc_AttributeError)) return NULL;
        PyErr_Clear();
        Py_RETURN_FALSE;
      }
      Py_DECREF(dtype);  // (compared by identity: dtypes are singletons, and the variant holds this one)
      if (dtype != spec->dtype) Py_RETURN_FALSE;
      PyObject *is_cuda = PyObject_GetAttr(a, is_cuda_name);  // (a CPU tensor's address means nothing to the GPU)
      if (!is_cuda) return NULL;
      Py_DECREF(is_cuda);
      if (is_cuda != Py_True) Py_RETURN_FALSE;
      PyObject *address = PyObject_CallMethodNoArgs(a, data_ptr_name);
      if (!address) return NULL;
      uint64_t pointer = PyLong_AsUnsignedLongLong(address);
      Py_DECREF(address);
      if (PyErr_Occurred()) return NULL;
      if ((pointer % 16 == 0) != spec->aligned_or_divisible) Py_RETURN_FALSE;
      values[n] = pointer;
    } else if (spec->kind == FLAG) {
      if (!PyBool_Check(a) || (a == Py_True) != (spec->value != 0)) Py_RETURN_FALSE;
      continue;  // compiled into the kernel
    } else if (spec->kind == FLOAT32 || spec->kind == FLOAT64) {
      if (!PyFloat_Check(a)) Py_RETURN_FALSE;
      double d = PyFloat_AsDouble(a);
      if (PyErr_Occurred()) return NULL;
      values[n] = 0;
      if (spec->kind == FLOAT32) {
        float f = (float)d;
        memcpy(&values[n], &f, sizeof f);
      } else {
        memcpy(&values[n], &d, sizeof d);
      }
    } else {
      if (!PyLong_Check(a) || PyBool_Check(a)) Py_RETURN_FALSE;
      int overflow;
      long long x = PyLong_AsLongLongAndOverflow(a, &overflow);
      if (overflow) Py_RETURN_FALSE;
      if (x == -1 && PyErr_Occurred()) return NULL;
      if (spec->kind == CONSTANT) {
        if (x != spec->value) Py_RETURN_FALSE;
        continue;  // compiled into the kernel
      }
      if (x == 1 || (x % 16 == 0) != spec->aligned_or_divisible) Py_RETURN_FALSE;
      if (spec->kind == INT32) {
        if (x < INT32_MIN || x > INT32_MAX) Py_RETURN_FALSE;
        int32_t y = (int32_t)x;
        values[n] = 0;
        memcpy(&values[n], &y, sizeof y);
      } else if (spec->kind == INT64) {
        if (x >= INT32_MIN && x <= INT32_MAX) Py_RETURN_FALSE;  // Triton passes such an int as 32 bits
        values[n] = (uint64_t)x;
      } else {
        Py_RETURN_FALSE;
      }
    }
    params[n] = &values[n];
    n++;
  }
  for (int k = 0; k < v->scratch; k++) {
    values[n] = 0;
    params[n] = &values[n];
    n++;
  }
  if (programs == 0) Py_RETURN_TRUE;  // (as Triton's launcher: an empty grid launches nothing)
  CUresult result;
  Py_BEGIN_ALLOW_THREADS  // (a full launch queue blocks here: other threads run meanwhile)
  if (v->dependent) {
    LaunchAttribute attribute = {PROGRAMMATIC_STREAM_SERIALIZATION};
    attribute.value.allowed = 1;
    LaunchConfig config = {(unsigned)programs, 1, 1, v->threads, 1, 1, v->shared, stream, &attribute, 1};
    result = cuLaunchKernelEx_(&config, v->function, params, NULL);
  } else {
    result = cuLaunchKernel_(v->function, (unsigned)programs, 1, 1, v->threads, 1, 1, v->shared, stream, params, NULL);
  }
  Py_END_ALLOW_THREADS
  if (result != 0)
    return PyErr_Format(PyExc_RuntimeError, "kiln: %s failed: CUDA error %d",
                        v->dependent ? "cuLaunchKernelEx" : "cuLaunchKernel", result);
  Py_RETURN_TRUE;
}

static PyMethodDef methods[] = {
    {"variant", (PyCFunction)(void (*)(void))variant, METH_FASTCALL, "A kernel's launch, fixed but for its arguments."},
    {"launch", (PyCFunction)(void (*)(void))launch, METH_FASTCALL, "Launches a variant; False if args do not fit."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "kiln_cuda_launch", NULL, -1, methods};

PyMODINIT_FUNC PyInit_kiln_cuda_launch(void) {
  VariantType.tp_name = "kiln_cuda_launch.Variant";
  VariantType.tp_basicsize = sizeof(Variant);
  VariantType.tp_dealloc = variant_dealloc;
  VariantType.tp_flags = Py_TPFLAGS_DEFAULT;
  if (PyType_Ready(&VariantType) < 0) return NULL;
  dtype_name = PyUnicode_InternFromString("dtype");
  data_ptr_name = PyUnicode_InternFromString("data_ptr");
  is_cuda_name = PyUnicode_InternFromString("is_cuda");
  if (!dtype_name || !data_ptr_name || !is_cuda_name) return NULL;
  return PyModule_Create(&module);
}
