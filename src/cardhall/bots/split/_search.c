/* The split search's loop (``hands.Planner._expand``) in C: the same states, sums and ties.
 *
 * Why C: a two-pack hand of 34 cards is some 2,000-3,500 search states, and the
 * Python loop, tuned as far as it goes, costs 3-4 us a state: 7-15 ms for one
 * search of a dealt hand, and a 斗帝主 kitty choice or a 癞子 wild lead needs
 * several. A live table's budget is 5 ms a decision at the 99th percentile.
 * Here a state costs 150-300 nanoseconds (benchmarks/search_bench.py, dealt hands).
 *
 * The Python loop stays the reference (``hands.py`` explains the search) and
 * the fallback where this module is not built; tests compare the two value by
 * value and split by split. Everything the loop reads comes from the planner:
 * the step tables (``Planner._steps_at``, asked once per top rank and count),
 * the debt tests' adders (``Dead``) and the packing constants, which are checked
 * against the ones compiled in here. Worths are summed in the Python loop's
 * order, in IEEE doubles, so every value is the Python one to the last bit, and
 * ties go to the same play (the step's table index).
 *
 * The memo is one open-addressing table of (state, worth, path link); the
 * planner's ``_memo`` and ``_path`` are views of it (``Core.value``/``link``),
 * so the Python loop (capped decisions) and this one share their states.
 */
#include "_search.h"

/* -- the Python type -------------------------------------------------------------------- */

static int read_adders(PyObject *seq, u128 **out, int *n) {
    PyObject *fast = PySequence_Fast(seq, "adders are a sequence of ints");
    if (fast == NULL) return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    free(*out);  /* a set-up that failed part way may be tried again */
    *out = calloc(len > 0 ? (size_t)len : 1, sizeof(u128));
    if (*out == NULL) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return -1;
    }
    *n = (int)len;
    for (Py_ssize_t i = 0; i < len; i++) {
        if (to_u128(PySequence_Fast_GET_ITEM(fast, i), &(*out)[i]) < 0) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    return 0;
}

static int Core_init(Core *c, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"steps_at", "constants", "hand_mask", "guard", "deep_add",
                            "planes", "repay", "empty_slots", "per_rank", "limit", "plain",
                            "fields", "mirrored", NULL};
    PyObject *steps_at, *constants, *hand_mask, *guard, *deep_add, *planes, *repay;
    PyObject *plain = Py_None, *fields = NULL;
    long long empty_slots, per_rank;
    Py_ssize_t limit;
    int mirrored = 0;
    if (c->entries != NULL || c->steps_at != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "a search core is set up once");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOOOOOLLn|OOp", names, &steps_at,
                                     &constants, &hand_mask, &guard, &deep_add, &planes, &repay,
                                     &empty_slots, &per_rank, &limit, &plain, &fields,
                                     &mirrored))
        return -1;
    if (plain != Py_None && !PyObject_TypeCheck(plain, Py_TYPE(c))) {
        PyErr_SetString(PyExc_TypeError, "plain is the plain search's core, or None");
        return -1;
    }
    if (fields != NULL && to_u128(fields, &c->fields) < 0) return -1;
    c->mirrored = mirrored;
    int field, ranks, slot_bits, offset, max_slots, kinds;
    if (!PyArg_ParseTuple(constants, "iiiiiii", &field, &ranks, &slot_bits, &offset, &max_slots,
                          &kinds, &c->link_bits))
        return -1;
    if (field != FIELD || ranks != NUM_RANKS || slot_bits != SLOT_BITS || offset != OFFSET
            || max_slots != MAX_SLOTS || kinds != KINDS) {
        PyErr_SetString(PyExc_ValueError, "the planner packs hands otherwise than this core");
        return -1;
    }
    if (c->link_bits < 1 || c->link_bits > 128 - SLOT_SHIFT - KINDS * SLOT_BITS) {
        PyErr_SetString(PyExc_ValueError, "a path link's move number does not fit beside a state");
        return -1;
    }
    if (to_u128(hand_mask, &c->hand_mask) < 0 || to_u128(guard, &c->guard) < 0
            || to_u128(deep_add, &c->deep_add) < 0)
        return -1;
    PyObject *fast = PySequence_Fast(planes, "planes are a sequence of ints");
    if (fast == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != PLANES) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "one bit plane per count bit");
        return -1;
    }
    for (int b = 0; b < PLANES; b++) {
        if (to_u128(PySequence_Fast_GET_ITEM(fast, b), &c->planes[b]) < 0) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    fast = PySequence_Fast(repay, "repay is a sequence of adder sequences");
    if (fast == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != KINDS + 1) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "repay holds one adder list per kind, then all kinds");
        return -1;
    }
    for (int k = 0; k <= KINDS; k++) {
        if (read_adders(PySequence_Fast_GET_ITEM(fast, k), &c->repay[k], &c->repays[k]) < 0) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    c->cap = 1 << 12;
    c->entries = calloc(c->cap, sizeof(Entry));
    c->links = calloc(c->cap, sizeof(u128));
    if (c->entries == NULL || c->links == NULL) {
        free(c->entries);
        free(c->links);
        c->entries = NULL;
        c->links = NULL;
        PyErr_NoMemory();
        return -1;
    }
    Py_INCREF(steps_at);
    c->steps_at = steps_at;
    if (plain != Py_None) {
        Py_INCREF(plain);
        c->plain = (struct Core *)plain;
    }
    c->empty_slots = empty_slots;
    c->per_rank = per_rank;
    c->limit = (size_t)limit;
    return 0;
}

static void Core_dealloc(Core *c) {
    PyObject_GC_UnTrack(c);
    Py_CLEAR(c->steps_at);
    for (int i = 0; i < TABLES; i++) Py_CLEAR(c->tables[i]);
    Py_CLEAR(c->plain);
    for (int k = 0; k <= KINDS; k++) free(c->repay[k]);
    free(c->entries);
    free(c->links);
    Py_TYPE(c)->tp_free((PyObject *)c);
}

static int Core_traverse(Core *c, visitproc visit, void *arg) {
    Py_VISIT(c->steps_at);
    Py_VISIT(c->plain);
    return 0;
}

static int Core_clear_refs(Core *c) {
    Py_CLEAR(c->steps_at);
    Py_CLEAR(c->plain);
    return 0;
}

int ready(Core *c) {
    if (c->entries == NULL || c->steps_at == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "the search core is not set up");
        return 0;
    }
    return 1;
}

static PyObject *Core_solve(Core *c, PyObject *arg) {
    u128 state;
    if (!ready(c) || to_state(arg, &state) < 0) return NULL;
    c->failed = 0;
    double value = search_solve(c, state);
    if (c->failed) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "the split search failed");
        return NULL;
    }
    return PyFloat_FromDouble(value);
}

int read_limits(PyObject *limits, int *bounds) {
    PyObject *fast = PySequence_Fast(limits, "limits are a sequence of ints");
    if (fast == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(fast) <= TWO) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "a limit per rank up to the 2s");
        return -1;
    }
    for (int r = 0; r <= TWO; r++) bounds[r] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, r));
    Py_DECREF(fast);
    return PyErr_Occurred() ? -1 : 0;
}

static PyObject *Core_worth_wild(Core *c, PyObject *args) {
    PyObject *key, *limits;
    int spare, wild, bounds[TWO + 1], exact = 1;
    u128 state, placed = 0;
    if (!ready(c) || !PyArg_ParseTuple(args, "OiiO", &key, &spare, &wild, &limits)
            || to_state(key, &state) < 0 || read_limits(limits, bounds) < 0)
        return NULL;
    if (c->mirrored) {
        PyErr_SetString(PyExc_ValueError, "wild cards are valued top-down only");
        return NULL;
    }
    if (wild < 0 || wild > TWO || spare < 0) {
        PyErr_SetString(PyExc_ValueError, "a wild rank up to 2, and no fewer than 0 of it");
        return NULL;
    }
    c->failed = 0;
    double value = worth_wild_two(c, NULL, state, 0, spare, wild, bounds, wild, wild, 0.0,
                                  &exact, &placed);
    if (c->failed) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "the split search failed");
        return NULL;
    }
    return PyFloat_FromDouble(value);
}

static PyObject *Core_worth_wild_two(Core *c, PyObject *args) {
    PyObject *key, *limits, *mirror, *up_key;
    int spare, wild, low, high, bounds[TWO + 1], exact = 1;
    double margin;
    u128 down, up, state = 0;
    if (!ready(c) || !PyArg_ParseTuple(args, "OiiOOOiid", &key, &spare, &wild, &limits, &mirror,
                                       &up_key, &low, &high, &margin)
            || to_state(key, &down) < 0 || to_state(up_key, &up) < 0 || read_limits(limits, bounds) < 0)
        return NULL;
    if (c->mirrored || !PyObject_TypeCheck(mirror, Py_TYPE(c)) || !((Core *)mirror)->mirrored
            || !ready((Core *)mirror)) {
        PyErr_SetString(PyExc_ValueError, "a top-down core and a mirrored one");
        return NULL;
    }
    if (wild < 0 || wild > TWO || spare < 0 || low < 0 || high >= NUM_RANKS || low > high) {
        PyErr_SetString(PyExc_ValueError, "a wild rank up to 2, and the play's lowest and highest ranks");
        return NULL;
    }
    Core *m = (Core *)mirror;
    c->failed = m->failed = 0;
    double value = worth_wild_two(c, m, down, up, spare, wild, bounds, low, high, margin, &exact,
                                  &state);
    if (c->failed || m->failed) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "the split search failed");
        return NULL;
    }
    PyObject *where = from_u128(state);
    if (where == NULL) return NULL;
    return Py_BuildValue("(dON)", value, exact ? Py_True : Py_False, where);
}

static PyObject *Core_value(Core *c, PyObject *arg) {
    u128 state;
    if (!ready(c) || to_state(arg, &state) < 0) return NULL;
    Entry *e = find(c, state);
    if (e == NULL || isnan(e->value)) Py_RETURN_NONE;
    return PyFloat_FromDouble(e->value);
}

static PyObject *Core_link(Core *c, PyObject *arg) {
    u128 state;
    if (!ready(c) || to_state(arg, &state) < 0) return NULL;
    Entry *e = find(c, state);
    if (e == NULL || !c->links[e - c->entries]) Py_RETURN_NONE;
    return from_u128(c->links[e - c->entries]);
}

static PyObject *Core_set_value(Core *c, PyObject *args) {
    PyObject *key;
    double value;
    u128 state;
    if (!ready(c) || !PyArg_ParseTuple(args, "Od", &key, &value) || to_state(key, &state) < 0)
        return NULL;
    if (isnan(value)) {
        PyErr_SetString(PyExc_ValueError, "a worth is a number (NaN marks none in the memo)");
        return NULL;
    }
    if (store(c, state, value, 0, 0) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyObject *Core_set_link(Core *c, PyObject *args) {
    PyObject *key, *link;
    u128 state, packed;
    if (!ready(c) || !PyArg_ParseTuple(args, "OO", &key, &link) || to_state(key, &state) < 0
            || to_u128(link, &packed) < 0)
        return NULL;
    if (!packed) {
        PyErr_SetString(PyExc_ValueError, "a path link names the state it leads to");
        return NULL;
    }
    Entry *e = entry(c, state);
    if (e == NULL) return NULL;
    set_link(c, e, packed);
    Py_RETURN_NONE;
}

static PyObject *Core_clear(Core *c, PyObject *unused) {
    (void)unused;
    if (!ready(c)) return NULL;
    clear(c);
    Py_RETURN_NONE;
}

static PyObject *Core_size(Core *c, PyObject *unused) {
    (void)unused;
    return PyLong_FromSize_t(c->count);
}

static PyObject *Core_links(Core *c, PyObject *unused) {
    (void)unused;
    return PyLong_FromSize_t(c->linked);
}

static PyMethodDef Core_methods[] = {
    {"solve", (PyCFunction)Core_solve, METH_O, "The worth of a packed state (searched if new)."},
    {"worth_wild", (PyCFunction)Core_worth_wild, METH_VARARGS,
     "Planner.worth_wild of a packed state without its wild cards: (state, spare, wild, limits)."},
    {"worth_wild_two", (PyCFunction)Core_worth_wild_two, METH_VARARGS,
     "worth_wild with each try from the cheaper search: (state, spare, wild, limits, mirror, "
     "mirror's state, the play's lowest rank, highest, tie margin) -> (worth, exact, state)."},
    {"wild_worths", (PyCFunction)core_wild_worths, METH_VARARGS,
     "worth_wild_two of what each play leaves (see wild_worth.fast_scores): (plays, the hand "
     "packed top-down, mirrored, wild cards held, wild, limits, mirror, tie margin) -> "
     "[(worth, exact, state, bonus)]."},
    {"value", (PyCFunction)Core_value, METH_O, "The memo's worth of a state, or None."},
    {"link", (PyCFunction)Core_link, METH_O, "The memo's path link of a state, or None."},
    {"set_value", (PyCFunction)Core_set_value, METH_VARARGS, "Put a worth in the memo."},
    {"set_link", (PyCFunction)Core_set_link, METH_VARARGS, "Put a path link in the memo."},
    {"clear", (PyCFunction)Core_clear, METH_NOARGS, "Empty the memo (the step tables stay)."},
    {"size", (PyCFunction)Core_size, METH_NOARGS, "States in the memo."},
    {"links", (PyCFunction)Core_links, METH_NOARGS, "States in the memo with a path link."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "cardhall.bots.split._search.Core",
    .tp_doc = "One planner's split search and memo (see hands.Planner).",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Core_init,
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_traverse = (traverseproc)Core_traverse,
    .tp_clear = (inquiry)Core_clear_refs,
    .tp_methods = Core_methods,
};

static PyMethodDef module_methods[] = {
    {"sift", (PyCFunction)sift_plays, METH_VARARGS,
     "A decision's plays read in one pass (see bots.split.sift)."},
    {"sift_blocks", (PyCFunction)sift_blocks, METH_VARARGS,
     "A wildcard lead's plays read from rules.wild.blocks, few of them made (see bots.split.sift)."},
    {"block_play", (PyCFunction)block_play, METH_VARARGS,
     "The play of a way sift_blocks named (see bots.split.sift.BlockLasts)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "cardhall.bots.split._search",
    "The split search's loop in C (see hands.Planner; optional, the Python loop is the same).",
    -1, module_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__search(void) {
    if (PyType_Ready(&CoreType) < 0 || PyType_Ready(&StepsType) < 0 || sift_init() < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    if (PyModule_AddObjectRef(m, "Core", (PyObject *)&CoreType) < 0
            || PyModule_AddObjectRef(m, "Steps", (PyObject *)&StepsType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}

