/* The split search's memo, the Python ints of its states, and its step tables (see _search.h). */
#include "_search.h"

/* -- Python ints of up to 128 bits ------------------------------------------------------ */

int to_u128(PyObject *obj, u128 *out) {
    if (!PyLong_Check(obj)) {
        PyErr_SetString(PyExc_TypeError, "a packed state is an int");
        return -1;
    }
    unsigned long long lo = PyLong_AsUnsignedLongLongMask(obj);
    if (lo == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    PyObject *shift = PyLong_FromLong(64);
    if (shift == NULL) return -1;
    PyObject *high = PyNumber_Rshift(obj, shift);
    Py_DECREF(shift);
    if (high == NULL) return -1;
    /* Refuses a negative int and one of over 128 bits (OverflowError). */
    unsigned long long hi = PyLong_AsUnsignedLongLong(high);
    Py_DECREF(high);
    if (hi == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    *out = ((u128)hi << 64) | lo;
    return 0;
}

/* A search state: never 0, since it holds its slot counters (0 marks a free memo entry). */
int to_state(PyObject *obj, u128 *out) {
    if (to_u128(obj, out) < 0) return -1;
    if (!*out) {
        PyErr_SetString(PyExc_ValueError, "a search state holds its slot counters: never 0");
        return -1;
    }
    return 0;
}

PyObject *from_u128(u128 x) {
    unsigned long long hi = (unsigned long long)(x >> 64);
    if (!hi) return PyLong_FromUnsignedLongLong((unsigned long long)x);
    PyObject *high = PyLong_FromUnsignedLongLong(hi);
    PyObject *shift = PyLong_FromLong(64);
    PyObject *low = PyLong_FromUnsignedLongLong((unsigned long long)x);
    PyObject *moved = NULL, *out = NULL;
    if (high && shift && low) moved = PyNumber_Lshift(high, shift);
    if (moved) out = PyNumber_Or(moved, low);
    Py_XDECREF(high);
    Py_XDECREF(shift);
    Py_XDECREF(low);
    Py_XDECREF(moved);
    return out;
}



/* -- the memo --------------------------------------------------------------------------- */



static int grow(Core *c) {
    size_t cap = c->cap * 2;
    Entry *fresh = calloc(cap, sizeof(Entry));
    u128 *links = calloc(cap, sizeof(u128));
    if (fresh == NULL || links == NULL) {
        free(fresh);
        free(links);
        PyErr_NoMemory();
        return -1;
    }
    for (size_t i = 0; i < c->cap; i++) {
        if (!USED(&c->entries[i])) continue;
        size_t j = slot_of(((u128)c->entries[i].hi << 64) | c->entries[i].lo, cap);
        while (USED(&fresh[j])) j = (j + 1) & (cap - 1);
        fresh[j] = c->entries[i];
        links[j] = c->links[i];
    }
    free(c->entries);
    free(c->links);
    c->entries = fresh;
    c->links = links;
    c->cap = cap;
    return 0;
}

/* The entry of ``key``, made if new; NULL (an exception set) when out of memory. */
Entry *entry(Core *c, u128 key) {
    Entry *e = find(c, key);
    if (e != NULL) return e;
    if ((c->count + 1) * 2 > c->cap && grow(c) < 0) return NULL;
    size_t i = slot_of(key, c->cap);
    while (USED(&c->entries[i])) i = (i + 1) & (c->cap - 1);
    e = &c->entries[i];
    e->lo = (uint64_t)key;
    e->hi = (uint64_t)(key >> 64);
    e->value = NAN;
    c->links[i] = 0;
    c->count++;
    return e;
}

void clear(Core *c) {
    memset(c->entries, 0, c->cap * sizeof(Entry));
    memset(c->links, 0, c->cap * sizeof(u128));
    c->count = 0;
    c->linked = 0;
}

void set_link(Core *c, Entry *e, u128 link) {
    u128 *at = &c->links[e - c->entries];
    c->linked += !*at;
    *at = link;
}

int store(Core *c, u128 state, double value, int linked, u128 link) {
    Entry *e = entry(c, state);
    if (e == NULL) return -1;
    e->value = value;
    if (linked) set_link(c, e, link);
    return 0;
}

/* -- the step tables (Planner._steps_at) ------------------------------------------------ */

static int read_step(PyObject *t, Step *s) {
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 8) {
        PyErr_SetString(PyExc_TypeError, "a search step is a tuple of 8");
        return -1;
    }
    s->worth = PyFloat_AsDouble(PyTuple_GET_ITEM(t, 0));
    s->opens = PyLong_AsLongLong(PyTuple_GET_ITEM(t, 1));
    s->unit = PyLong_AsLongLong(PyTuple_GET_ITEM(t, 2));
    s->ride_worth = PyFloat_AsDouble(PyTuple_GET_ITEM(t, 3));
    s->move = (int32_t)PyLong_AsLong(PyTuple_GET_ITEM(t, 4));
    s->kicker = (int32_t)PyLong_AsLong(PyTuple_GET_ITEM(t, 5));
    s->size = (int32_t)PyLong_AsLong(PyTuple_GET_ITEM(t, 6));
    s->index = (int32_t)PyLong_AsLong(PyTuple_GET_ITEM(t, 7));
    return PyErr_Occurred() ? -1 : 0;
}

/* Fill ``t`` from a top rank's families (``Planner._steps_at``); -1 with an exception set. */
static int load_table(Table *t, PyObject *fams) {
    PyObject *seq = PySequence_Fast(fams, "the steps at a rank are a tuple of families");
    if (seq == NULL) return -1;
    Py_ssize_t nf = PySequence_Fast_GET_SIZE(seq), ng = 0, ns = 0;
    for (Py_ssize_t f = 0; f < nf; f++) {
        PyObject *fam = PySequence_Fast_GET_ITEM(seq, f);
        if (!PyTuple_Check(fam)) goto bad;
        for (Py_ssize_t g = 0; g < PyTuple_GET_SIZE(fam); g++) {
            PyObject *group = PyTuple_GET_ITEM(fam, g);
            if (!PyTuple_Check(group) || PyTuple_GET_SIZE(group) != 2
                    || !PyTuple_Check(PyTuple_GET_ITEM(group, 1))) goto bad;
            ng++;
            ns += PyTuple_GET_SIZE(PyTuple_GET_ITEM(group, 1));
        }
    }
    t->fam = calloc(nf > 0 ? (size_t)nf : 1, sizeof(Family));
    t->groups = calloc(ng > 0 ? (size_t)ng : 1, sizeof(Group));
    t->steps = calloc(ns > 0 ? (size_t)ns : 1, sizeof(Step));
    if (!t->fam || !t->groups || !t->steps) {
        PyErr_NoMemory();
        goto fail;
    }
    Py_ssize_t gi = 0, si = 0;
    for (Py_ssize_t f = 0; f < nf; f++) {
        PyObject *fam = PySequence_Fast_GET_ITEM(seq, f);
        t->fam[f].start = (int32_t)gi;
        t->fam[f].count = (int32_t)PyTuple_GET_SIZE(fam);
        for (Py_ssize_t g = 0; g < PyTuple_GET_SIZE(fam); g++, gi++) {
            PyObject *group = PyTuple_GET_ITEM(fam, g), *steps = PyTuple_GET_ITEM(group, 1);
            if (to_u128(PyTuple_GET_ITEM(group, 0), &t->groups[gi].delta) < 0) goto fail;
            t->groups[gi].start = (int32_t)si;
            t->groups[gi].count = (int32_t)PyTuple_GET_SIZE(steps);
            for (Py_ssize_t s = 0; s < PyTuple_GET_SIZE(steps); s++, si++)
                if (read_step(PyTuple_GET_ITEM(steps, s), &t->steps[si]) < 0) goto fail;
        }
    }
    t->families = (int32_t)nf;
    t->ready = 1;
    Py_DECREF(seq);
    return 0;
bad:
    PyErr_SetString(PyExc_TypeError, "a family is a tuple of (packed cards, steps)");
fail:
    free(t->fam);
    free(t->groups);
    free(t->steps);
    t->fam = NULL;
    t->groups = NULL;
    t->steps = NULL;
    Py_DECREF(seq);
    return -1;
}

static int Steps_init(Steps *self, PyObject *args, PyObject *kwargs) {
    PyObject *fams;
    if (kwargs != NULL && PyDict_GET_SIZE(kwargs)) {
        PyErr_SetString(PyExc_TypeError, "Steps(families) takes no keywords");
        return -1;
    }
    if (!PyArg_ParseTuple(args, "O", &fams)) return -1;
    if (self->table.ready) {
        PyErr_SetString(PyExc_RuntimeError, "a step table is set up once");
        return -1;
    }
    return load_table(&self->table, fams);
}

static void Steps_dealloc(Steps *self) {
    free(self->table.fam);
    free(self->table.groups);
    free(self->table.steps);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

PyTypeObject StepsType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "cardhall.bots.split._search.Steps",
    .tp_doc = "One top rank's search steps (Planner._steps_at), converted for the C loop.",
    .tp_basicsize = sizeof(Steps),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Steps_init,
    .tp_dealloc = (destructor)Steps_dealloc,
};

/* The core's table at (top, have), asked of the planner once; NULL with an exception set. */
const Table *table_at(Core *c, int top, int have) {
    int key = top << FIELD | have;
    Steps *found = c->tables[key];
    if (found != NULL) return &found->table;
    PyObject *got = PyObject_CallFunction(c->steps_at, "ii", top, have);
    if (got == NULL) return NULL;
    if (!PyObject_TypeCheck(got, &StepsType) || !((Steps *)got)->table.ready) {
        Py_DECREF(got);
        PyErr_SetString(PyExc_TypeError, "the core's steps_at gives a ready _search.Steps");
        return NULL;
    }
    c->tables[key] = (Steps *)got; /* the reference is the core's */
    return &((Steps *)got)->table;
}

