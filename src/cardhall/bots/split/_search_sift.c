/* A decision's plays read in one pass (``bots/split/sift.py``, whose Python ``_sift`` is the
 * reference this follows step for step): which card multisets a view's plays index accepts,
 * and, per accepted multiset, what the policy reads of it. A wildcard lead has thousands of
 * plays and some fifteen hundred multisets; in Python each play costs a few passes over its
 * cards. */
#include "_search.h"

/* Bits per rank of a packed multiset (``sift.FIELD``, as ``view.play_cards`` packs). */
#define CARD_FIELD 6
#define CARD_MASK 63

typedef struct {
    u128 key;
    Py_ssize_t chosen, last; /* indices of the candidate reading and of the last reading */
    long chosen_tier;
    int used, accepted;
} Bucket;

static PyObject *s_main, *s_kickers, *s_tier, *s_kind, *s_key, *s_length, *s_as_main;

static int malformed(void) {
    PyErr_SetString(PyExc_ValueError, "the plays index is malformed");
    return -1;
}

/* Whether the index accepts multiset ``key``: 1, 0, or -1 with an error set. */
int accepts(const Walk *w, u128 key) {
    Py_ssize_t node = (key & ~w->allowed) ? 0 : w->root;
    Py_ssize_t count = PyList_GET_SIZE(w->nodes);
    for (int level = 0; level < w->levels && node; level++) {
        if (node < 0 || node >= count) return malformed();
        Py_ssize_t k = (Py_ssize_t)((key >> w->shifts[level]) & CARD_MASK);
        if (node == 1) {
            node = 0;
            break;
        }
        PyObject *kids = PyList_GET_ITEM(w->nodes, node);
        if (!PyList_Check(kids)) return malformed();
        if (k >= PyList_GET_SIZE(kids)) {
            node = 0;
            break;
        }
        node = PyLong_AsSsize_t(PyList_GET_ITEM(kids, k));
        if (node == -1 && PyErr_Occurred()) return -1;
    }
    return node == 1;
}

/* Adds a tuple of ranks to packed ``*key`` and its length to ``*size``. */
static int add_ranks(PyObject *ranks, u128 *key, Py_ssize_t *size) {
    if (!PyTuple_Check(ranks)) {
        PyErr_SetString(PyExc_TypeError, "a play's main part and kickers are tuples of ranks");
        return -1;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(ranks);
    for (Py_ssize_t i = 0; i < n; i++) {
        long r = PyLong_AsLong(PyTuple_GET_ITEM(ranks, i));
        if (r == -1 && PyErr_Occurred()) return -1;
        if (r < 0 || r >= NUM_RANKS) {
            PyErr_Format(PyExc_ValueError, "no rank %ld", r);
            return -1;
        }
        *key += (u128)1 << (CARD_FIELD * r);
    }
    *size += n;
    return 0;
}

/* A play's cards packed, its card count and its tier. */
static int read_play(PyObject *p, u128 *key, Py_ssize_t *size, long *tier) {
    PyObject *main = PyObject_GetAttr(p, s_main);
    if (main == NULL) return -1;
    *key = 0;
    *size = 0;
    int bad = add_ranks(main, key, size);
    Py_DECREF(main);
    if (bad) return -1;
    PyObject *kickers = PyObject_GetAttr(p, s_kickers);
    if (kickers == NULL) return -1;
    bad = add_ranks(kickers, key, size);
    Py_DECREF(kickers);
    if (bad) return -1;
    PyObject *t = PyObject_GetAttr(p, s_tier);
    if (t == NULL) return -1;
    *tier = PyLong_AsLong(t);
    Py_DECREF(t);
    return (*tier == -1 && PyErr_Occurred()) ? -1 : 0;
}

static Bucket *bucket(Bucket *table, size_t cap, u128 key) {
    size_t i = slot_of(key, cap);
    while (table[i].used && table[i].key != key) i = (i + 1) & (cap - 1);
    return &table[i];
}

/* A tuple of ranks (none for NULL), highest first (``sift._kickers_down``), into a new
 * array ``out`` of ``n``. */
int ranks_down(PyObject *ranks, long **out, Py_ssize_t *n) {
    if (ranks != NULL && !PyTuple_Check(ranks)) {
        PyErr_SetString(PyExc_TypeError, "a play's kickers are a tuple of ranks");
        return -1;
    }
    *n = ranks != NULL ? PyTuple_GET_SIZE(ranks) : 0;
    long *a = *out = PyMem_Malloc(sizeof(long) * (size_t)(*n ? *n : 1));
    if (a == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < *n; i++) {
        long r = PyLong_AsLong(PyTuple_GET_ITEM(ranks, i));
        if (r == -1 && PyErr_Occurred()) return -1;
        Py_ssize_t j = i;
        for (; j > 0 && a[j - 1] < r; j--) a[j] = a[j - 1];
        a[j] = r;
    }
    return 0;
}

/* A play's kickers, highest first, as ``ranks_down`` gives them. */
static int kickers_down(PyObject *p, long **out, Py_ssize_t *n) {
    PyObject *kickers = PyObject_GetAttr(p, s_kickers);
    if (kickers == NULL) return -1;
    int status = ranks_down(kickers, out, n);
    Py_DECREF(kickers);
    return status;
}

/* ``sorted(a, reverse=True) < sorted(b, reverse=True)`` as Python compares the lists. */
int before(const long *a, Py_ssize_t na, const long *b, Py_ssize_t nb) {
    for (Py_ssize_t i = 0; i < na && i < nb; i++)
        if (a[i] != b[i]) return a[i] < b[i];
    return na < nb;
}

/* A group's plays in ``list.sort``'s stable order by kickers highest first. */
static int sort_group(PyObject *group) {
    Py_ssize_t n = PyList_GET_SIZE(group);
    long **keys = PyMem_Calloc((size_t)n, sizeof(long *));
    Py_ssize_t *lens = PyMem_Calloc((size_t)n, sizeof(Py_ssize_t));
    PyObject **items = PyMem_Calloc((size_t)n, sizeof(PyObject *));
    int status = -1;
    if (keys == NULL || lens == NULL || items == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (kickers_down(PyList_GET_ITEM(group, i), &keys[i], &lens[i]) < 0) goto done;
        items[i] = PyList_GET_ITEM(group, i);
    }
    for (Py_ssize_t i = 1; i < n; i++) { /* insertion sort: stable, and groups are short */
        long *k = keys[i];
        Py_ssize_t len = lens[i], j = i;
        PyObject *item = items[i];
        for (; j > 0 && before(k, len, keys[j - 1], lens[j - 1]); j--) {
            keys[j] = keys[j - 1], lens[j] = lens[j - 1], items[j] = items[j - 1];
        }
        keys[j] = k, lens[j] = len, items[j] = item;
    }
    for (Py_ssize_t i = 0; i < n; i++) { /* the same objects, reordered: no reference moves */
        PyList_SET_ITEM(group, i, items[i]);
    }
    status = 0;
done:
    if (keys != NULL)
        for (Py_ssize_t i = 0; i < n; i++) PyMem_Free(keys[i]);
    PyMem_Free(keys);
    PyMem_Free(lens);
    PyMem_Free(items);
    return status;
}

/* The candidates (``sift._grouped``): ``chosen`` (one reading per set of cards, in order of
 * first appearance) grouped by reading and main part as it stands, in that order, at most
 * ``variants`` kicker choices each. */
PyObject *grouped(PyObject *chosen, Py_ssize_t variants) {
    PyObject *groups = PyDict_New(), *out = NULL;
    if (groups == NULL) return NULL;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(chosen); i++) {
        PyObject *p = PyList_GET_ITEM(chosen, i);
        PyObject *kind = PyObject_GetAttr(p, s_kind), *key = PyObject_GetAttr(p, s_key);
        PyObject *length = PyObject_GetAttr(p, s_length), *tier = PyObject_GetAttr(p, s_tier);
        PyObject *main = PyObject_GetAttr(p, s_as_main), *gkey = NULL, *group;
        if (main == Py_None) {
            Py_DECREF(main);
            main = PyObject_GetAttr(p, s_main);
        }
        if (kind && key && length && tier && main) gkey = PyTuple_Pack(5, kind, key, length, tier, main);
        Py_XDECREF(kind);
        Py_XDECREF(key);
        Py_XDECREF(length);
        Py_XDECREF(tier);
        Py_XDECREF(main);
        if (gkey == NULL) goto fail;
        group = PyDict_GetItemWithError(groups, gkey);
        if (group == NULL) {
            if (PyErr_Occurred() || (group = PyList_New(0)) == NULL) {
                Py_DECREF(gkey);
                goto fail;
            }
            int bad = PyDict_SetItem(groups, gkey, group);
            Py_DECREF(group);
            if (bad) {
                Py_DECREF(gkey);
                goto fail;
            }
        }
        Py_DECREF(gkey);
        if (PyList_Append(group, p) < 0) goto fail;
    }
    out = PyList_New(0);
    if (out == NULL) goto fail;
    Py_ssize_t pos = 0;
    PyObject *gkey, *group;
    while (PyDict_Next(groups, &pos, &gkey, &group)) {
        Py_ssize_t n = PyList_GET_SIZE(group);
        if (n > 1 && sort_group(group) < 0) goto fail;
        for (Py_ssize_t i = 0; i < n && i < variants; i++)
            if (PyList_Append(out, PyList_GET_ITEM(group, i)) < 0) goto fail;
    }
    Py_DECREF(groups);
    return out;
fail:
    Py_DECREF(groups);
    Py_XDECREF(out);
    return NULL;
}

/* Reads ``sift.Walk``'s fields (nodes, root, shifts, allowed), or none for None. */
int read_walk(PyObject *spec, Walk *w, int *have) {
    *have = 0;
    if (spec == Py_None) return 0;
    PyObject *shifts;
    PyObject *allowed;
    if (!PyArg_ParseTuple(spec, "O!nO!O:Walk", &PyList_Type, &w->nodes, &w->root, &PyTuple_Type,
                          &shifts, &allowed))
        return -1;
    if (PyTuple_GET_SIZE(shifts) > NUM_RANKS) return malformed();
    w->levels = (int)PyTuple_GET_SIZE(shifts);
    for (int i = 0; i < w->levels; i++) {
        long s = PyLong_AsLong(PyTuple_GET_ITEM(shifts, i));
        if (s == -1 && PyErr_Occurred()) return -1;
        if (s < 0 || s > CARD_FIELD * (NUM_RANKS - 1)) return malformed();
        w->shifts[i] = (int)s;
    }
    if (to_u128(allowed, &w->allowed) < 0) return -1;
    *have = 1;
    return 0;
}

/* sift(plays, walk, total, variants) -> (kept, candidates, lasts, whole): see sift._sift. */
PyObject *sift_plays(PyObject *self, PyObject *args) {
    PyObject *plays, *spec, *kept = NULL, *lasts = NULL, *candidates = NULL, *whole = Py_None;
    PyObject *chosen = NULL;
    Py_ssize_t total, variants;
    Walk walk;
    int have_walk;
    (void)self;
    if (!PyArg_ParseTuple(args, "O!Onn:sift", &PyList_Type, &plays, &spec, &total, &variants)
            || read_walk(spec, &walk, &have_walk) < 0)
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(plays);
    size_t cap = 16;
    while (cap < 2 * (size_t)n) cap *= 2;
    Bucket *table = PyMem_Calloc(cap, sizeof(Bucket));
    size_t *order = PyMem_Calloc((size_t)n + 1, sizeof(size_t)), distinct = 0;
    long whole_tier = 0;
    if (table == NULL || order == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    kept = have_walk ? PyList_New(0) : Py_NewRef(plays);
    if (kept == NULL) goto fail;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *p = PyList_GET_ITEM(plays, i);
        u128 key;
        Py_ssize_t size;
        long tier;
        if (read_play(p, &key, &size, &tier) < 0) goto fail;
        Bucket *b = bucket(table, cap, key);
        if (!b->used) {
            int ok = have_walk ? accepts(&walk, key) : 1;
            if (ok < 0) goto fail;
            b->used = 1, b->key = key, b->accepted = ok;
            b->chosen = i, b->chosen_tier = tier;
            order[distinct++] = (size_t)(b - table);
        } else if (b->accepted && b->chosen_tier && !tier) {
            b->chosen = i, b->chosen_tier = 0; /* the same cards not read as a bomb */
        }
        if (!b->accepted) continue;
        b->last = i;
        if (have_walk && PyList_Append(kept, p) < 0) goto fail;
        if (size == total && (whole == Py_None || tier < whole_tier)) whole = p, whole_tier = tier;
    }
    lasts = PyDict_New();
    chosen = PyList_New(0);
    if (lasts == NULL || chosen == NULL) goto fail;
    for (size_t i = 0; i < distinct; i++) {
        const Bucket *b = &table[order[i]];
        if (!b->accepted) continue;
        PyObject *key = from_u128(b->key);
        if (key == NULL) goto fail;
        int bad = PyDict_SetItem(lasts, key, PyList_GET_ITEM(plays, b->last))
            || PyList_Append(chosen, PyList_GET_ITEM(plays, b->chosen));
        Py_DECREF(key);
        if (bad) goto fail;
    }
    candidates = grouped(chosen, variants);
    Py_CLEAR(chosen);
    if (candidates == NULL) goto fail;
    PyMem_Free(table);
    PyMem_Free(order);
    return Py_BuildValue("(NNNO)", kept, candidates, lasts, whole);
fail:
    PyMem_Free(table);
    PyMem_Free(order);
    Py_XDECREF(kept);
    Py_XDECREF(lasts);
    Py_XDECREF(chosen);
    Py_XDECREF(candidates);
    return NULL;
}

/* -- what each candidate leaves, valued (wild_worth.fast_scores) --------------------------- */

static int card_total(Core *c, u128 h) {
    int n = 0;
    for (int b = 0; b < PLANES; b++) n += popcount(h & c->planes[b]) << b;
    return n;
}

/* Takes a play's ranks out of the packed hand, both ways, counting its wild cards and
 * finding its lowest and highest other rank (the wild rank if none). */
static int take_play(PyObject *p, int wild, u128 *down, u128 *up, int *spare, int *low,
                     int *high) {
    int first_real = 1;
    for (int side = 0; side < 2; side++) {
        PyObject *ranks = PyObject_GetAttr(p, side ? s_kickers : s_main);
        if (ranks == NULL) return -1;
        if (!PyTuple_Check(ranks)) {
            Py_DECREF(ranks);
            PyErr_SetString(PyExc_TypeError, "a play's main part and kickers are tuples of ranks");
            return -1;
        }
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(ranks); i++) {
            long r = PyLong_AsLong(PyTuple_GET_ITEM(ranks, i));
            if (r < 0 || r >= NUM_RANKS) {
                Py_DECREF(ranks);
                if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "no rank %ld", r);
                return -1;
            }
            if (r == wild) {
                (*spare)--;
                continue;
            }
            *down -= (u128)1 << (FIELD * r);
            *up -= (u128)1 << (FIELD * (NUM_RANKS - 1 - r));
            if (first_real) *low = *high = (int)r, first_real = 0;
            else if (r < *low) *low = (int)r;
            else if (r > *high) *high = (int)r;
        }
        Py_DECREF(ranks);
    }
    return 0;
}

PyObject *core_wild_worths(Core *c, PyObject *args) {
    PyObject *plays, *limits, *mirror, *down_key, *up_key, *out = NULL;
    int held, wild, bounds[TWO + 1];
    double margin;
    u128 whole_down, whole_up;
    if (!ready(c) || !PyArg_ParseTuple(args, "O!OOiiOOd", &PyList_Type, &plays, &down_key,
                                       &up_key, &held, &wild, &limits, &mirror, &margin)
            || to_state(down_key, &whole_down) < 0 || to_state(up_key, &whole_up) < 0
            || read_limits(limits, bounds) < 0)
        return NULL;
    if (c->mirrored || !PyObject_TypeCheck(mirror, Py_TYPE(c)) || !((Core *)mirror)->mirrored
            || !ready((Core *)mirror)) {
        PyErr_SetString(PyExc_ValueError, "a top-down core and a mirrored one");
        return NULL;
    }
    if (wild < 0 || wild > TWO || held < 0) {
        PyErr_SetString(PyExc_ValueError, "a wild rank up to 2, and no fewer than 0 of it");
        return NULL;
    }
    Core *m = (Core *)mirror;
    Py_ssize_t n = PyList_GET_SIZE(plays);
    out = PyList_New(n);
    if (out == NULL) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        u128 down = whole_down, up = whole_up, state = down;
        int spare = held, low = wild, high = wild, exact = 1;
        double worth, bonus = 0.0;
        if (take_play(PyList_GET_ITEM(plays, i), wild, &down, &up, &spare, &low, &high) < 0)
            goto fail;
        if (spare < 0) {
            PyErr_SetString(PyExc_ValueError, "a play holds more wild cards than the hand");
            goto fail;
        }
        c->failed = m->failed = 0;
        if (spare) {
            bonus = 0.5 * spare;
            worth = worth_wild_two(c, m, down, up, spare, wild, bounds, low, high, margin,
                                   &exact, &state);
        } else {
            u128 hand = down & c->hand_mask, below = ((u128)1 << (FIELD * (high + 1))) - 1;
            u128 above = low > 0 ? ~(((u128)1 << (FIELD * low)) - 1) : ~(u128)0;
            exact = !(card_total(c, hand & below) < card_total(c, hand & above));
            worth = exact ? search_solve(c, down) : search_solve(m, up);
            state = down;
        }
        if (c->failed || m->failed) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "the split search failed");
            goto fail;
        }
        PyObject *where = from_u128(state);
        if (where == NULL) goto fail;
        PyObject *item = Py_BuildValue("(dONd)", worth, exact ? Py_True : Py_False, where, bonus);
        if (item == NULL) goto fail;
        PyList_SET_ITEM(out, i, item);
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

int sift_init(void) {
    s_main = PyUnicode_InternFromString("main");
    s_kickers = PyUnicode_InternFromString("kickers");
    s_tier = PyUnicode_InternFromString("tier");
    s_kind = PyUnicode_InternFromString("kind");
    s_key = PyUnicode_InternFromString("key");
    s_length = PyUnicode_InternFromString("length");
    s_as_main = PyUnicode_InternFromString("as_main");
    return (s_main && s_kickers && s_tier && s_kind && s_key && s_length && s_as_main) ? 0 : -1;
}
