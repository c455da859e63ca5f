/* The two buffers the env hands out every turn, filled in C.

   An observation is a list of some 200 Python numbers that must become float32; struct's
   pack_into took about 9 ns a number (an argument tuple, a format code per item) and was
   a third of the encoder's time. The action mask is a 0/1 byte per action id.

   floats32(values, n) -> bytearray of n float32: values (a list of floats, bools or ints,
       at most n of them) in native byte order, zeros after them; the same bytes as
       struct.pack_into("=<len>f", ...) on a zeroed buffer (a C cast rounds to nearest, as
       PyFloat_Pack4 does, and none of the values are out of float range).
   flags8(ids, n) -> bytearray of n bytes: 1 at each id of the list, 0 elsewhere.

   wasteland/envs/encoding.py falls back to the same functions in Python when this module
   is not built (no C compiler, WASTELAND_PURE=1, or a stale build). */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

static PyObject *
floats32(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !PyList_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "floats32(values: list, n: int)");
        return NULL;
    }
    PyObject *values = args[0];
    Py_ssize_t n = PyLong_AsSsize_t(args[1]);
    if (n == -1 && PyErr_Occurred())
        return NULL;
    Py_ssize_t len = PyList_GET_SIZE(values);
    if (n < 0 || len > n) {
        PyErr_Format(PyExc_ValueError, "floats32: %zd values do not fit in %zd floats",
                     len, n);
        return NULL;
    }
    PyObject *out = PyByteArray_FromStringAndSize(NULL, n * (Py_ssize_t)sizeof(float));
    if (out == NULL)
        return NULL;
    float *f = (float *)PyByteArray_AS_STRING(out);
    for (Py_ssize_t i = 0; i < len; i++) {
        PyObject *v = PyList_GET_ITEM(values, i);
        double d;
        if (PyFloat_CheckExact(v)) {
            d = PyFloat_AS_DOUBLE(v);
        }
        else if (v == Py_True || v == Py_False) {  /* the encoder's 0/1 features */
            d = v == Py_True ? 1.0 : 0.0;
        }
        else {
            d = PyFloat_AsDouble(v);
            if (d == -1.0 && PyErr_Occurred()) {
                Py_DECREF(out);
                return NULL;
            }
        }
        f[i] = (float)d;
    }
    if (n > len)
        memset(f + len, 0, (size_t)(n - len) * sizeof(float));
    return out;
}

static PyObject *
flags8(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !PyList_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "flags8(ids: list, n: int)");
        return NULL;
    }
    PyObject *ids = args[0];
    Py_ssize_t n = PyLong_AsSsize_t(args[1]);
    if (n == -1 && PyErr_Occurred())
        return NULL;
    if (n < 0) {
        PyErr_SetString(PyExc_ValueError, "flags8: n must not be negative");
        return NULL;
    }
    PyObject *out = PyByteArray_FromStringAndSize(NULL, n);
    if (out == NULL)
        return NULL;
    char *m = PyByteArray_AS_STRING(out);
    memset(m, 0, (size_t)n);
    Py_ssize_t len = PyList_GET_SIZE(ids);
    for (Py_ssize_t i = 0; i < len; i++) {
        Py_ssize_t k = PyLong_AsSsize_t(PyList_GET_ITEM(ids, i));
        if (k == -1 && PyErr_Occurred()) {
            Py_DECREF(out);
            return NULL;
        }
        if (k < 0 || k >= n) {
            Py_DECREF(out);
            PyErr_Format(PyExc_IndexError, "flags8: id %zd is outside 0..%zd", k, n - 1);
            return NULL;
        }
        m[k] = 1;
    }
    return out;
}

static PyMethodDef methods[] = {
    {"floats32", (PyCFunction)(void (*)(void))floats32, METH_FASTCALL,
     "floats32(values, n): a bytearray of n float32, values first, zeros after."},
    {"flags8", (PyCFunction)(void (*)(void))flags8, METH_FASTCALL,
     "flags8(ids, n): a bytearray of n bytes, 1 at each id."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_buffers",
    "The env's observation and mask buffers, filled in C (see _buffers.c).", -1, methods,
};

PyMODINIT_FUNC
PyInit__buffers(void)
{
    return PyModule_Create(&module);
}
