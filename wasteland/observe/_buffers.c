/* The two buffers the env hands out every turn, filled in C.

   An observation is a list of some 200 Python numbers that must become float32; struct's
   pack_into took about 9 ns a number (an argument tuple, a format code per item) and was
   a third of the encoder's time. The action mask is a 0/1 byte per action id.

   floats32(values, n) -> bytearray of n float32: values (a list of numbers - floats, bools
       or ints - tuples of numbers, and bytes holding float32 already packed in native
       order, read in order as one flat run of at most n numbers) in native byte order,
       zeros after them; the same bytes as struct.pack_into on a
       zeroed buffer (a C cast rounds to nearest, as PyFloat_Pack4 does, and none of the
       values are out of float range). The encoder hands over the tuples it keeps with
       the map and the combatants as they are, rather than copying them into the list.
   flags8(ids, n) -> bytearray of n bytes: 1 at each id of the list, 0 elsewhere.
   ego_flags(ids, order, target_of, retarget, n) -> the same for the egocentric ids of
       table ids (encoding.ego_ids): target_of holds each id's target slot as a signed
       byte (-1: none), retarget the id aimed at each of 10 blocks as uint16, id-major;
       order lists the slot of each observation block.

   wasteland/observe/encoding.py falls back to the same functions in Python when this module
   is not built (no C compiler, WASTELAND_PURE=1, or a stale build). */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

/* one number as a double; -1.0 with an exception set when it is not one */
static inline double
number(PyObject *v)
{
    if (PyFloat_CheckExact(v))
        return PyFloat_AS_DOUBLE(v);
    if (v == Py_True || v == Py_False)  /* the encoder's 0/1 features */
        return v == Py_True ? 1.0 : 0.0;
    return PyFloat_AsDouble(v);
}

/* item i of a list as an index: an int, or anything with __index__ (a numpy integer),
   held while its __index__ runs */
static Py_ssize_t
item_index(PyObject *list, Py_ssize_t i)
{
    PyObject *v = PyList_GET_ITEM(list, i);
    if (PyLong_CheckExact(v))
        return PyLong_AsSsize_t(v);
    Py_INCREF(v);
    Py_ssize_t k = PyNumber_AsSsize_t(v, PyExc_OverflowError);
    Py_DECREF(v);
    return k;
}

/* the arguments every function here starts with: a list, then a size n >= 0 (at
   args[at]); 0 with an exception set when they are not that */
static int
list_and_size(PyObject *const *args, Py_ssize_t nargs, Py_ssize_t want, Py_ssize_t at,
              const char *usage, Py_ssize_t *n)
{
    if (nargs != want || !PyList_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, usage);
        return 0;
    }
    *n = PyLong_AsSsize_t(args[at]);
    if (*n == -1 && PyErr_Occurred())
        return 0;
    if (*n < 0) {
        PyErr_Format(PyExc_ValueError, "%s: n must not be negative", usage);
        return 0;
    }
    return 1;
}

static PyObject *
floats32(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t n;
    if (!list_and_size(args, nargs, 2, 1, "floats32(values: list, n: int)", &n))
        return NULL;
    PyObject *values = args[0];
    PyObject *out = PyByteArray_FromStringAndSize(NULL, n * (Py_ssize_t)sizeof(float));
    if (out == NULL)
        return NULL;
    float *f = (float *)PyByteArray_AS_STRING(out);
    Py_ssize_t at = 0;
    /* the list's size is read again each time round and each item held while it is
       read: a number that is not a float runs its own __float__, which could change
       the list */
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(values); i++) {
        PyObject *v = PyList_GET_ITEM(values, i);
        Py_INCREF(v);
        if (PyBytes_CheckExact(v)) {  /* a row the encoder keeps packed: copied as it is */
            Py_ssize_t size = PyBytes_GET_SIZE(v);
            if (size % (Py_ssize_t)sizeof(float)) {
                PyErr_Format(PyExc_ValueError, "floats32: a packed row of %zd bytes is not "
                             "whole float32s", size);
                Py_DECREF(v);
                Py_DECREF(out);
                return NULL;
            }
            Py_ssize_t k = size / (Py_ssize_t)sizeof(float);
            if (at + k > n) {
                Py_DECREF(v);
                goto too_many;
            }
            memcpy(f + at, PyBytes_AS_STRING(v), (size_t)k * sizeof(float));
            at += k;
            Py_DECREF(v);
            continue;
        }
        PyObject *const *run = &v;
        Py_ssize_t k = 1;
        if (PyTuple_CheckExact(v)) {
            run = &PyTuple_GET_ITEM(v, 0);
            k = PyTuple_GET_SIZE(v);
        }
        if (at + k > n) {
            Py_DECREF(v);
            goto too_many;
        }
        for (Py_ssize_t j = 0; j < k; j++) {
            double d = number(run[j]);
            if (d == -1.0 && PyErr_Occurred()) {
                Py_DECREF(v);
                Py_DECREF(out);
                return NULL;
            }
            f[at++] = (float)d;
        }
        Py_DECREF(v);
    }
    if (n > at)
        memset(f + at, 0, (size_t)(n - at) * sizeof(float));
    return out;

too_many:
    Py_DECREF(out);
    {
        Py_ssize_t total = 0;  /* for the message: how many numbers there were */
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(values); i++) {
            PyObject *v = PyList_GET_ITEM(values, i);
            total += PyTuple_CheckExact(v) ? PyTuple_GET_SIZE(v)
                     : PyBytes_CheckExact(v) ? PyBytes_GET_SIZE(v) / (Py_ssize_t)sizeof(float)
                     : 1;
        }
        PyErr_Format(PyExc_ValueError, "floats32: %zd values do not fit in %zd floats",
                     total, n);
    }
    return NULL;
}

#define BLOCKS 10

/* n bytes, 1 at each id of the list: the id itself, or with target_of given, the id aimed
   at the block that block[] holds for the id's target (ego_flags) */
static PyObject *
fill_flags(PyObject *ids, Py_ssize_t n, const char *name, const signed char *target_of,
           const unsigned char *retarget, const int *block)
{
    PyObject *out = PyByteArray_FromStringAndSize(NULL, n);
    if (out == NULL)
        return NULL;
    char *m = PyByteArray_AS_STRING(out);
    memset(m, 0, (size_t)n);
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(ids); i++) {
        Py_ssize_t k = item_index(ids, i);
        if (k == -1 && PyErr_Occurred())
            goto fail;
        if (k < 0 || k >= n) {
            PyErr_Format(PyExc_IndexError, "%s: id %zd is outside 0..%zd", name, k, n - 1);
            goto fail;
        }
        if (target_of != NULL && target_of[k] >= 0) {
            int t = target_of[k];
            if (t >= BLOCKS) {
                PyErr_Format(PyExc_IndexError, "%s: id %zd aims at slot %d, past %d", name,
                             k, t, BLOCKS - 1);
                goto fail;
            }
            const unsigned char *r = retarget + 2 * (k * BLOCKS + block[t]);
            k = (Py_ssize_t)(r[0] | (r[1] << 8));
            if (k >= n) {
                PyErr_Format(PyExc_IndexError, "%s: the table aims past id %zd", name, n - 1);
                goto fail;
            }
        }
        m[k] = 1;
    }
    return out;

fail:
    Py_DECREF(out);
    return NULL;
}

static PyObject *
flags8(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t n;
    if (!list_and_size(args, nargs, 2, 1, "flags8(ids: list, n: int)", &n))
        return NULL;
    return fill_flags(args[0], n, "flags8", NULL, NULL, NULL);
}

static PyObject *
ego_flags(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    static const char *usage = ("ego_flags(ids: list, order: list, target_of: bytes, "
                                "retarget: bytes, n: int)");
    Py_ssize_t n;
    if (!list_and_size(args, nargs, 5, 4, usage, &n))
        return NULL;
    if (!PyList_Check(args[1]) || !PyBytes_Check(args[2]) || !PyBytes_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError, usage);
        return NULL;
    }
    PyObject *ids = args[0], *order = args[1];
    if (PyBytes_GET_SIZE(args[2]) < n
            || PyBytes_GET_SIZE(args[3]) < n * BLOCKS * 2) {
        PyErr_SetString(PyExc_ValueError, "ego_flags: tables shorter than n ids");
        return NULL;
    }
    const signed char *target_of = (const signed char *)PyBytes_AS_STRING(args[2]);
    const unsigned char *retarget = (const unsigned char *)PyBytes_AS_STRING(args[3]);
    int block[BLOCKS];
    for (int k = 0; k < BLOCKS; k++)
        block[k] = 0;  /* as encoding.ego_ids: a slot in no block reads as block 0 */
    if (PyList_GET_SIZE(order) > BLOCKS) {
        PyErr_Format(PyExc_ValueError, "ego_flags: %zd blocks, at most %d",
                     PyList_GET_SIZE(order), BLOCKS);
        return NULL;
    }
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(order) && k < BLOCKS; k++) {
        Py_ssize_t slot = item_index(order, k);
        if (slot == -1 && PyErr_Occurred())
            return NULL;
        if (slot < 0 || slot >= BLOCKS) {
            PyErr_Format(PyExc_IndexError, "ego_flags: slot %zd is outside 0..%d", slot,
                         BLOCKS - 1);
            return NULL;
        }
        block[slot] = (int)k;
    }
    return fill_flags(ids, n, "ego_flags", target_of, retarget, block);
}

static PyMethodDef methods[] = {
    {"floats32", (PyCFunction)(void (*)(void))floats32, METH_FASTCALL,
     "floats32(values, n): a bytearray of n float32, values first, zeros after."},
    {"flags8", (PyCFunction)(void (*)(void))flags8, METH_FASTCALL,
     "flags8(ids, n): a bytearray of n bytes, 1 at each id."},
    {"ego_flags", (PyCFunction)(void (*)(void))ego_flags, METH_FASTCALL,
     "ego_flags(ids, order, target_of, retarget, n): flags8 of the egocentric ids."},
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
