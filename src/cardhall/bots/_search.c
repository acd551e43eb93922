/* The split search's loop (``hands.Planner._expand``) in C: the same states, sums and ties.
 *
 * Why C: a two-pack hand of 34 cards is some 2,000-3,500 search states, and the
 * Python loop, tuned as far as it goes, costs 3-4 us a state: 7-15 ms for one
 * search of a dealt hand, and a 斗帝主 kitty choice or a 癞子 wild lead needs
 * several. A live table's budget is 5 ms a decision at the 99th percentile.
 * Here a state costs a few dozen nanoseconds.
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
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 u128;

/* The packing (bots/packed.py); the constructor refuses a planner packed otherwise. */
#define FIELD 6
#define NUM_RANKS 15
#define MASK 31
#define SLOT_SHIFT (FIELD * NUM_RANKS)
#define SLOT_BITS 6
#define SLOT_MASK 63
#define OFFSET 8
#define MAX_SLOTS 5
#define KINDS 3
#define PLANES 5
/* Step tables are kept per (top rank, count held): top < 16, count < 32. */
#define TABLES (1 << (FIELD + 4))

typedef struct {
    double worth, ride_worth;
    int64_t opens, unit;
    int32_t move, kicker, size, index;
} Step;

typedef struct {
    u128 delta;
    int32_t start, count; /* its steps */
} Group;

typedef struct {
    int32_t start, count; /* its groups */
} Family;

typedef struct {
    int ready;
    int32_t families;
    Family *fam;
    Group *groups;
    Step *steps;
} Table;

/* One top rank's steps, converted once per process and shared by every core (``Steps``). */
typedef struct {
    PyObject_HEAD
    Table table;
} Steps;

/* A memo entry: 24 bytes, so that the lookups the loop makes touch few cache lines. The key
 * is never 0 (a state holds its slot counters), 0 marks a free entry; a NaN worth, none yet.
 * Path links sit in an array of their own, at the same index (0: none). */
typedef struct {
    uint64_t lo, hi;
    double value;
} Entry;

#define USED(e) ((e)->lo | (e)->hi)
#define HOLDS(e, key) ((e)->lo == (uint64_t)(key) && (e)->hi == (uint64_t)((key) >> 64))

typedef struct Core {
    PyObject_HEAD
    Entry *entries;
    u128 *links;
    size_t cap, count, limit;
    Steps *tables[TABLES];
    PyObject *steps_at;
    /* ``relaxed``: states holding none of the ``fields`` bits are the plain search's. */
    struct Core *plain;
    u128 fields;
    int mirrored, link_bits;
    size_t linked; /* states with a path link */
    u128 hand_mask, guard, deep_add, planes[PLANES];
    u128 *repay[KINDS + 1]; /* the debt tests' adders per slot kind, then all kinds */
    int repays[KINDS + 1];
    int64_t empty_slots, per_rank;
    int failed;
} Core;

/* -- Python ints of up to 128 bits ------------------------------------------------------ */

static int to_u128(PyObject *obj, u128 *out) {
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
static int to_state(PyObject *obj, u128 *out) {
    if (to_u128(obj, out) < 0) return -1;
    if (!*out) {
        PyErr_SetString(PyExc_ValueError, "a search state holds its slot counters: never 0");
        return -1;
    }
    return 0;
}

static PyObject *from_u128(u128 x) {
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

static int popcount(u128 x) {
    return __builtin_popcountll((unsigned long long)x)
        + __builtin_popcountll((unsigned long long)(x >> 64));
}

static int bit_length(u128 x) {
    unsigned long long hi = (unsigned long long)(x >> 64);
    if (hi) return 128 - __builtin_clzll(hi);
    unsigned long long lo = (unsigned long long)x;
    return lo ? 64 - __builtin_clzll(lo) : 0;
}

/* -- the memo --------------------------------------------------------------------------- */

static size_t slot_of(u128 key, size_t cap) {
    uint64_t z = (uint64_t)key ^ ((uint64_t)(key >> 64) * 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return (size_t)(z ^ (z >> 31)) & (cap - 1);
}

static Entry *find(Core *c, u128 key) {
    size_t i = slot_of(key, c->cap);
    while (USED(&c->entries[i])) {
        if (HOLDS(&c->entries[i], key)) return &c->entries[i];
        i = (i + 1) & (c->cap - 1);
    }
    return NULL;
}

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
static Entry *entry(Core *c, u128 key) {
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

static void clear(Core *c) {
    memset(c->entries, 0, c->cap * sizeof(Entry));
    memset(c->links, 0, c->cap * sizeof(u128));
    c->count = 0;
    c->linked = 0;
}

static void set_link(Core *c, Entry *e, u128 link) {
    u128 *at = &c->links[e - c->entries];
    c->linked += !*at;
    *at = link;
}

static int store(Core *c, u128 state, double value, int linked, u128 link) {
    Entry *e = entry(c, state);
    if (e == NULL) return -1;
    e->value = value;
    if (linked) set_link(c, e, link);
    return 0;
}

/* -- the slot counters and the debt tests (packed.py, dead.py) --------------------------- */

typedef struct {
    int in_range;
    int64_t debt, supply;
} SlotInfo;

static SlotInfo slot_info(int64_t slots) {
    SlotInfo info = {1, 0, 0};
    int64_t size = 1;
    for (int64_t rest = slots; rest; rest >>= SLOT_BITS, size++) {
        int64_t field = rest & SLOT_MASK;
        if (field < OFFSET - MAX_SLOTS || field > OFFSET + MAX_SLOTS) info.in_range = 0;
        if (field < OFFSET) info.debt += OFFSET - field;
        else info.supply += (field - OFFSET) * size;
    }
    return info;
}

static int settled(int64_t slots) {
    for (; slots; slots >>= SLOT_BITS)
        if ((slots & SLOT_MASK) != OFFSET) return 0;
    return 1;
}

static int repaid(Core *c, u128 hand, int which, int64_t owed) {
    int64_t can = 0;
    for (int i = 0; i < c->repays[which]; i++) can += popcount((hand + c->repay[which][i]) & c->guard);
    return owed <= can;
}

static int hopeless(Core *c, u128 hand, int64_t slots) {
    int64_t total = 0;
    int tests = 0;
    for (int k = 0; k < KINDS; k++) {
        int64_t owed = OFFSET - ((slots >> (SLOT_BITS * k)) & SLOT_MASK);
        if (owed > 0) {
            tests++;
            total += owed;
            if (!repaid(c, hand, k, owed)) return 1;
        }
    }
    return tests > 1 && !repaid(c, hand, KINDS, total);
}

static int card_count(Core *c, u128 h) {
    int n = 0;
    for (int b = 0; b < PLANES; b++) n += popcount(h & c->planes[b]) << b;
    return n;
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

static PyTypeObject StepsType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "cardhall.bots._search.Steps",
    .tp_doc = "One top rank's search steps (Planner._steps_at), converted for the C loop.",
    .tp_basicsize = sizeof(Steps),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Steps_init,
    .tp_dealloc = (destructor)Steps_dealloc,
};

/* The core's table at (top, have), asked of the planner once; NULL with an exception set. */
static const Table *table_at(Core *c, int top, int have) {
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

/* -- the search ------------------------------------------------------------------------- */

static double expand(Core *c, u128 state);

static inline double solve(Core *c, u128 state) {
    Entry *e = find(c, state);
    if (e != NULL && !isnan(e->value)) return e->value;
    return expand(c, state);
}

/* hands.Planner._expand, uncapped: see there for what each test is for. */
static double expand(Core *c, u128 state) {
    if (c->plain != NULL && !(state & c->fields)) {
        c->plain->failed = 0;
        double value = solve(c->plain, state);
        if (c->plain->failed) c->failed = 1;
        return value;
    }
    u128 h = state & c->hand_mask;
    int64_t slots = (int64_t)(state >> SLOT_SHIFT);
    if (slots != c->empty_slots && hopeless(c, h, slots)) {
        if (store(c, state, -INFINITY, 0, 0) < 0) c->failed = 1;
        return -INFINITY;
    }
    if (!h) {
        double value = settled(slots) ? 0.0 : -INFINITY;
        if (store(c, state, value, 0, 0) < 0) c->failed = 1;
        return value;
    }
    int top = (bit_length(h) - 1) / FIELD;
    int have = (int)((h >> (FIELD * top)) & MASK);
    const Table *t = table_at(c, top, have);
    if (t == NULL) {
        c->failed = 1;
        return NAN;
    }
    double best = -INFINITY;
    int32_t choice = -1, first = -1;
    u128 follow = 0, held = h | c->guard, guard = c->guard;
    u128 shifted = (u128)slots << SLOT_SHIFT;
    int cards = -1;
    for (int32_t f = 0; f < t->families; f++) {
        const Family *fam = &t->fam[f];
        for (int32_t g = fam->start; g < fam->start + fam->count; g++) {
            const Group *group = &t->groups[g];
            if (((held - group->delta) & guard) != guard) break;
            u128 rest = h - group->delta;
            for (int32_t i = group->start; i < group->start + group->count; i++) {
                const Step *s = &t->steps[i];
                int open = 1;
                u128 opened = shifted;
                if (s->opens) {
                    SlotInfo info = slot_info(slots + s->opens);
                    if (info.in_range) {
                        opened = (u128)(slots + s->opens) << SLOT_SHIFT;
                        if (info.supply) {
                            if (cards < 0) cards = card_count(c, h);
                            if (info.supply > cards - s->size) open = 0;
                        }
                        if (info.debt && open
                                && info.debt > popcount((rest + c->deep_add) & guard) * c->per_rank)
                            open = 0;
                    }
                }
                if (open) {
                    u128 next = rest | opened;
                    double value = s->worth + solve(c, next);
                    if (c->failed) return NAN;
                    if (value > best || (value == best && s->index < first)) {
                        best = value, choice = s->move, follow = next, first = s->index;
                    }
                }
                if (s->kicker < 0) continue;
                int64_t left = slots - s->unit;
                SlotInfo info = slot_info(left);
                if (!info.in_range) continue;
                if (info.supply) {
                    if (cards < 0) cards = card_count(c, h);
                    if (info.supply > cards - s->size) continue;
                }
                if (info.debt && info.debt > popcount((rest + c->deep_add) & guard) * c->per_rank)
                    continue;
                u128 next = rest | ((u128)left << SLOT_SHIFT);
                double value = s->ride_worth + solve(c, next);
                if (c->failed) return NAN;
                if (value > best || (value == best && s->index + 1 < first)) {
                    best = value, choice = s->kicker, follow = next, first = s->index + 1;
                }
            }
        }
    }
    if (c->count > c->limit) clear(c);
    if (store(c, state, best, choice >= 0, follow << c->link_bits | (u128)choice) < 0) {
        c->failed = 1;
        return NAN;
    }
    return best;
}

/* Planner.worth_wild, uncapped: each wild card in turn where the hand is then worth most. */
#define ACE 11
#define TWO 12

static double worth_wild(Core *c, u128 packed, int spare, int wild, const int *limits) {
    for (int k = 0; k < spare; k++) {
        double best = -INFINITY;
        int chosen = wild;
        for (int r = 0; r <= TWO; r++) {
            int count = (int)((packed >> (FIELD * r)) & MASK);
            if (count >= limits[r]) continue;
            int useful = count || (r > 0 && ((packed >> (FIELD * (r - 1))) & MASK))
                || (r < ACE && ((packed >> (FIELD * (r + 1))) & MASK));
            if (!useful) continue;
            double value = solve(c, packed + ((u128)1 << (FIELD * r)));
            if (c->failed) return NAN;
            if (value > best) best = value, chosen = r;
        }
        packed += (u128)1 << (FIELD * chosen);
    }
    double value = solve(c, packed);
    return value + 0.5 * spare;
}

/* Cards of packed hand ``h`` at ranks ``lo`` to ``hi`` (top-down packing). */
static int cards_between(Core *c, u128 h, int lo, int hi) {
    u128 below = hi + 1 >= NUM_RANKS ? ~(u128)0 : (((u128)1 << (FIELD * (hi + 1))) - 1);
    u128 above = lo <= 0 ? ~(u128)0 : ~(((u128)1 << (FIELD * lo)) - 1);
    return card_count(c, h & below & above);
}

/* ``worth_wild`` with each try from the search that meets fewer new cards (``m``: the mirrored
 * one, ``up`` the same hand packed for it), the top-down one sharing the states below the
 * lowest rank the try's hand changes (the play's ``low``, the ranks placed, the try's), the
 * mirrored one those above the highest. The two sum the same worths in other orders, so
 * where a round's best tries come within ``margin``, those are valued top-down again: the
 * rank chosen is the top-down greedy's. ``*exact``: whether the worth is the top-down one to
 * the last bit; ``*state``: the top-down state of the placed hand (to value it again). */
static double worth_wild_two(Core *c, Core *m, u128 down, u128 up, int spare, int wild,
                             const int *limits, int low, int high, double margin, int *exact,
                             u128 *state) {
    double values[TWO + 1], last = NAN;
    int tried[TWO + 1], flags[TWO + 1], last_exact = 1;
    u128 hand = down & c->hand_mask;
    for (int k = 0; k < spare; k++) {
        double top = -INFINITY;
        int n = 0;
        for (int r = 0; r <= TWO; r++) {
            int count = (int)((down >> (FIELD * r)) & MASK);
            if (count >= limits[r]) continue;
            int useful = count || (r > 0 && ((down >> (FIELD * (r - 1))) & MASK))
                || (r < ACE && ((down >> (FIELD * (r + 1))) & MASK));
            if (!useful) continue;
            int lo = r < low ? r : low, hi = r > high ? r : high;
            int mirrored = cards_between(c, hand, 0, hi) < cards_between(c, hand, lo, NUM_RANKS);
            double value = mirrored
                ? solve(m, up + ((u128)1 << (FIELD * (NUM_RANKS - 1 - r))))
                : solve(c, down + ((u128)1 << (FIELD * r)));
            if (c->failed || m->failed) return NAN;
            tried[n] = r, values[n] = value, flags[n] = !mirrored, n++;
            if (value > top) top = value;
        }
        int close = 0, loose = 0;
        for (int i = 0; i < n; i++) {
            if (values[i] >= top - margin) close++, loose += !flags[i];
        }
        if (close > 1 && loose) {
            for (int i = 0; i < n; i++) {
                if (values[i] >= top - margin && !flags[i]) {
                    values[i] = solve(c, down + ((u128)1 << (FIELD * tried[i])));
                    if (c->failed) return NAN;
                    flags[i] = 1;
                }
            }
        }
        double best = -INFINITY;
        int chosen = wild, pick = -1;
        for (int i = 0; i < n; i++) {
            if (values[i] > best) best = values[i], chosen = tried[i], pick = i;
        }
        down += (u128)1 << (FIELD * chosen);
        up += (u128)1 << (FIELD * (NUM_RANKS - 1 - chosen));
        hand = down & c->hand_mask;
        if (chosen < low) low = chosen;
        if (chosen > high) high = chosen;
        if (pick >= 0) last = values[pick], last_exact = flags[pick];
        else last = NAN;
    }
    if (isnan(last)) { /* no rank was tried for the last card: it stays at its own */
        last = solve(c, down);
        last_exact = 1;
    }
    *exact = last_exact;
    *state = down;
    return last + 0.5 * spare;
}

/* -- the Python type -------------------------------------------------------------------- */

static int read_adders(PyObject *seq, u128 **out, int *n) {
    PyObject *fast = PySequence_Fast(seq, "adders are a sequence of ints");
    if (fast == NULL) return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
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
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOOOOOLLn|OOp", names, &steps_at,
                                     &constants, &hand_mask, &guard, &deep_add, &planes, &repay,
                                     &empty_slots, &per_rank, &limit, &plain, &fields,
                                     &c->mirrored))
        return -1;
    if (plain != Py_None && !PyObject_TypeCheck(plain, Py_TYPE(c))) {
        PyErr_SetString(PyExc_TypeError, "plain is the plain search's core, or None");
        return -1;
    }
    if (fields != NULL && to_u128(fields, &c->fields) < 0) return -1;
    if (c->entries != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "a search core is set up once");
        return -1;
    }
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

static int ready(Core *c) {
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
    double value = solve(c, state);
    if (c->failed) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "the split search failed");
        return NULL;
    }
    return PyFloat_FromDouble(value);
}

static PyObject *Core_worth_wild(Core *c, PyObject *args) {
    PyObject *key, *limits;
    int spare, wild, bounds[TWO + 1];
    u128 state;
    if (!ready(c) || !PyArg_ParseTuple(args, "OiiO", &key, &spare, &wild, &limits)
            || to_state(key, &state) < 0)
        return NULL;
    if (c->mirrored) {
        PyErr_SetString(PyExc_ValueError, "wild cards are valued top-down only");
        return NULL;
    }
    PyObject *fast = PySequence_Fast(limits, "limits are a sequence of ints");
    if (fast == NULL) return NULL;
    if (PySequence_Fast_GET_SIZE(fast) <= TWO || wild < 0 || wild > TWO || spare < 0) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "a limit per rank up to the 2s; a wild rank up to 2");
        return NULL;
    }
    for (int r = 0; r <= TWO; r++) bounds[r] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, r));
    Py_DECREF(fast);
    if (PyErr_Occurred()) return NULL;
    c->failed = 0;
    double value = worth_wild(c, state, spare, wild, bounds);
    if (c->failed) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "the split search failed");
        return NULL;
    }
    return PyFloat_FromDouble(value);
}

static int read_limits(PyObject *limits, int *bounds) {
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
    .tp_name = "cardhall.bots._search.Core",
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

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "cardhall.bots._search",
    "The split search's loop in C (see hands.Planner; optional, the Python loop is the same).",
    -1, NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__search(void) {
    if (PyType_Ready(&CoreType) < 0 || PyType_Ready(&StepsType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    if (PyModule_AddObjectRef(m, "Core", (PyObject *)&CoreType) < 0
            || PyModule_AddObjectRef(m, "Steps", (PyObject *)&StepsType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
