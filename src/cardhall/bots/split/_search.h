/* The split search's C loop (``_search.c``): its types, packing constants and shared parts.
 *
 * Split for size: ``_search_tables.c`` holds the memo, the Python ints it converts and
 * the step tables; ``_search_loop.c`` the search itself and the wild-card greedy;
 * ``_search.c`` the Python type and the module; ``_search_sift.c`` the one pass over a
 * decision's plays (``bots/split/sift.py``), ``_search_blocks.c`` the same over a wildcard lead's
 * plays before they are made (``rules.wild.blocks``). The memo's look-up is here, inline, because the
 * loop makes it at every step.
 */
#ifndef CARDHALL_SEARCH_H
#define CARDHALL_SEARCH_H
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 u128;

/* The packing (bots/split/packed.py); the constructor refuses a planner packed otherwise. */
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

#define ACE 11
#define TWO 12

static inline int popcount(u128 x) {
    return __builtin_popcountll((unsigned long long)x)
        + __builtin_popcountll((unsigned long long)(x >> 64));
}

static inline int bit_length(u128 x) {
    unsigned long long hi = (unsigned long long)(x >> 64);
    if (hi) return 128 - __builtin_clzll(hi);
    unsigned long long lo = (unsigned long long)x;
    return lo ? 64 - __builtin_clzll(lo) : 0;
}

/* -- the memo's look-up ----------------------------------------------------------------- */

static inline size_t slot_of(u128 key, size_t cap) {
    uint64_t z = (uint64_t)key ^ ((uint64_t)(key >> 64) * 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return (size_t)(z ^ (z >> 31)) & (cap - 1);
}

static inline Entry *find(Core *c, u128 key) {
    size_t i = slot_of(key, c->cap);
    while (USED(&c->entries[i])) {
        if (HOLDS(&c->entries[i], key)) return &c->entries[i];
        i = (i + 1) & (c->cap - 1);
    }
    return NULL;
}

/* -- shared between the three files ----------------------------------------------------- */

int to_u128(PyObject *obj, u128 *out);
int to_state(PyObject *obj, u128 *out);
PyObject *from_u128(u128 x);
Entry *entry(Core *c, u128 key);
void clear(Core *c);
void set_link(Core *c, Entry *e, u128 link);
int store(Core *c, u128 state, double value, int linked, u128 link);
extern PyTypeObject StepsType;
const Table *table_at(Core *c, int top, int have);
double search_solve(Core *c, u128 state);
double worth_wild_two(Core *c, Core *m, u128 down, u128 up, int spare, int wild,
                      const int *limits, int low, int high, double margin, int *exact,
                      u128 *state);
/* A plays index as ``bots.split.sift.Walk`` gives it (``_search_sift.c``). */
typedef struct {
    PyObject *nodes; /* borrowed: a list of lists of ints */
    Py_ssize_t root;
    int levels, shifts[NUM_RANKS];
    u128 allowed;
} Walk;

int read_walk(PyObject *spec, Walk *w, int *have);
int accepts(const Walk *w, u128 key);
PyObject *grouped(PyObject *chosen, Py_ssize_t variants);
PyObject *sift_plays(PyObject *self, PyObject *args);
PyObject *sift_blocks(PyObject *self, PyObject *args);
PyObject *block_play(PyObject *self, PyObject *args);
int ranks_down(PyObject *ranks, long **out, Py_ssize_t *n);
int before(const long *a, Py_ssize_t na, const long *b, Py_ssize_t nb);
PyObject *core_wild_worths(Core *c, PyObject *args);
int ready(Core *c);
int read_limits(PyObject *limits, int *bounds);
int sift_init(void);

#endif
