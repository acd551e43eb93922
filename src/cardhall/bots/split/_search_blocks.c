/* A wildcard lead's plays read from ``rules.wild.blocks`` without making most of them
 * (``bots.split.sift.sift_blocks``): what ``sift`` reads of ``wild.spelt_moves``' plays, to the
 * same objects' values. ``spelt_moves`` makes every (main part, kickers) way of every block a
 * play, thousands of them, and the policy reads a few per set of cards: the reading it keeps
 * (the first, or the first not a bomb), the last one, and the first of the whole hand with
 * the lowest tier. Here each way is read from the block's tuples and only those are made,
 * by the rules' own constructor (``new_play``) or as the natural play (``gen.play``). */
#include "_search.h"

#define CARD_FIELD 6

/* How a way is made (``spelt_moves``' three cases). */
enum { NATURAL, ALL_WILD, SUBSTITUTED };

/* A way: its block, main side and kicker side, how it is made, its tier. */
typedef struct {
    int32_t block;
    uint16_t main, kick;
    uint8_t how, tier;
} Ref;

typedef struct {
    u128 key;
    Ref chosen, last;
    uint8_t used, accepted;
} Slot;

/* A block's fields (``wild.Block``), borrowed from its tuple. */
typedef struct {
    PyObject *code, *kind, *rank, *length, *subkey, *main, *kicks, *mains, *kickers;
    Py_ssize_t spend, size;
    long tier;
    int by_wilds_alone, bomb;
    PyObject *natural; /* gen.play(code), once asked for (a new reference) */
} Block;

static int bad_block(void) {
    PyErr_SetString(PyExc_TypeError, "a block is rules.wild.Block's tuple");
    return -1;
}

static int read_block(PyObject *t, Block *b) {
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 15) return bad_block();
    b->code = PyTuple_GET_ITEM(t, 0), b->kind = PyTuple_GET_ITEM(t, 1);
    b->rank = PyTuple_GET_ITEM(t, 2), b->length = PyTuple_GET_ITEM(t, 3);
    b->subkey = PyTuple_GET_ITEM(t, 5), b->main = PyTuple_GET_ITEM(t, 6);
    b->kicks = PyTuple_GET_ITEM(t, 7), b->mains = PyTuple_GET_ITEM(t, 8);
    b->kickers = PyTuple_GET_ITEM(t, 9);
    b->tier = PyLong_AsLong(PyTuple_GET_ITEM(t, 4));
    b->spend = PyLong_AsSsize_t(PyTuple_GET_ITEM(t, 10));
    b->size = PyLong_AsSsize_t(PyTuple_GET_ITEM(t, 11));
    b->by_wilds_alone = PyObject_IsTrue(PyTuple_GET_ITEM(t, 12));
    b->bomb = PyObject_IsTrue(PyTuple_GET_ITEM(t, 13));
    b->natural = NULL;
    if (PyErr_Occurred()) return -1;
    if (!PyTuple_Check(b->main) || !PyTuple_Check(b->kicks) || !PyTuple_Check(b->mains)
            || !PyTuple_Check(b->kickers))
        return bad_block();
    return 0;
}

/* A tuple of ranks packed, and how many. */
static int read_ranks(PyObject *played, u128 *key, Py_ssize_t *cards) {
    *cards = PyTuple_GET_SIZE(played);
    *key = 0;
    for (Py_ssize_t i = 0; i < *cards; i++) {
        long r = PyLong_AsLong(PyTuple_GET_ITEM(played, i));
        if (r < 0 || r >= NUM_RANKS) {
            if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "no rank %ld", r);
            return -1;
        }
        *key += (u128)1 << (CARD_FIELD * r);
    }
    return 0;
}

/* A side (``wild.Side``): the wild cards it spends, its cards packed, how many. */
static int read_side(PyObject *side, long *wilds, u128 *key, Py_ssize_t *cards) {
    if (!PyTuple_Check(side) || PyTuple_GET_SIZE(side) != 3 || !PyTuple_Check(PyTuple_GET_ITEM(side, 1)))
        return bad_block();
    *wilds = PyLong_AsLong(PyTuple_GET_ITEM(side, 0));
    if (*wilds == -1 && PyErr_Occurred()) return -1;
    return read_ranks(PyTuple_GET_ITEM(side, 1), key, cards);
}

static Slot *slot(Slot *table, size_t cap, u128 key) {
    size_t i = slot_of(key, cap);
    while (table[i].used && table[i].key != key) i = (i + 1) & (cap - 1);
    return &table[i];
}

/* The block's natural play (``gen.play(code)``), asked for once. */
static PyObject *natural(Block *b, PyObject *gen_play) {
    if (b->natural == NULL) b->natural = PyObject_CallOneArg(gen_play, b->code);
    return b->natural;
}

/* The play a way is, made as ``spelt_moves`` makes it (a new reference). */
static PyObject *make(Block *blocks, const Ref *ref, PyObject *gen_play, PyObject *new_play,
                      PyObject *empty) {
    Block *b = &blocks[ref->block];
    if (ref->how == NATURAL) return Py_XNewRef(natural(b, gen_play));
    PyObject *tier = PyLong_FromLong(ref->tier), *one = PyLong_FromLong(1);
    PyObject *none = PyLong_FromLong(-1), *out = NULL;
    if (tier && one && none) {
        if (ref->how == ALL_WILD) {
            PyObject *args[] = {b->kind, b->rank, one, b->main, empty, tier, none, b->main, empty};
            out = PyObject_Vectorcall(new_play, args, 9, NULL);
        } else {
            PyObject *m = PyTuple_GET_ITEM(PyTuple_GET_ITEM(b->mains, ref->main), 1);
            PyObject *k = PyTuple_GET_ITEM(PyTuple_GET_ITEM(b->kickers, ref->kick), 1);
            PyObject *args[] = {b->kind, b->rank, b->length, m, k, tier, b->subkey, b->main,
                                b->kicks};
            out = PyObject_Vectorcall(new_play, args, 9, NULL);
        }
    }
    Py_XDECREF(tier);
    Py_XDECREF(one);
    Py_XDECREF(none);
    return out;
}

/* A way's reference as one int (``sift.BlockLasts``): block, main side, kicker side, how, tier. */
#define REF_BLOCK_BITS 24
#define REF_SIDE_BITS 12
#define REF_TIER_BITS 3

static uint64_t ref_bits(const Ref *r) {
    uint64_t v = (uint64_t)r->block;
    v = (v << REF_SIDE_BITS | r->main) << REF_SIDE_BITS | r->kick;
    return (v << 2 | r->how) << REF_TIER_BITS | r->tier;
}

/* A set of cards packed 4 bits a rank (``sift.BlockLasts``' keys: one pack, so at most 4 of
 * a rank), from the 6-bit packing. */
static uint64_t narrow(u128 key) {
    uint64_t out = 0;
    for (int r = 0; r < NUM_RANKS; r++) out |= (uint64_t)((key >> (CARD_FIELD * r)) & 15) << (4 * r);
    return out;
}

typedef struct {
    uint64_t key, ref;
} Last;


/* The kickers a way plays (its kicker side's cards; none for wild cards alone). */
static PyObject *way_kickers(const Block *blocks, const Ref *r) {
    if (r->how == ALL_WILD) return NULL;
    return PyTuple_GET_ITEM(PyTuple_GET_ITEM(blocks[r->block].kickers, r->kick), 1);
}

/* ``sift._grouped`` of the chosen ways, by reading (kind, key, length, tier, the main part
 * it stands for): each group's ``variants`` lowest kicker choices, made, in order. */
static PyObject *grouped_ways(Block *blocks, Slot *table, const size_t *order, size_t distinct,
                              Py_ssize_t variants, PyObject *gen_play, PyObject *new_play,
                              PyObject *empty, PyObject **made) {
    PyObject *ids = PyDict_New(), *out = PyList_New(0), *one = PyLong_FromLong(1);
    size_t *group = PyMem_Calloc(distinct + 1, sizeof(size_t)), groups = 0;
    size_t *members = PyMem_Calloc(distinct + 1, sizeof(size_t));
    long **keys = PyMem_Calloc(distinct + 1, sizeof(long *));
    Py_ssize_t *lens = PyMem_Calloc(distinct + 1, sizeof(Py_ssize_t));
    int ok = 0;
    Ref seen = {-1, 0, 0, 0, 0};
    size_t seen_group = 0;
    if (!ids || !out || !one || !group || !members || !keys || !lens) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto done;
    }
    for (size_t i = 0; i < distinct; i++) {
        Slot *s = &table[order[i]];
        if (!s->accepted) continue;
        Block *b = &blocks[s->chosen.block];
        if (ranks_down(way_kickers(blocks, &s->chosen), &keys[i], &lens[i]) < 0) goto done;
        /* The same block, made alike, at the same tier: the same reading (its group). */
        if (seen.block == s->chosen.block && (seen.how == ALL_WILD) == (s->chosen.how == ALL_WILD)
                && seen.tier == s->chosen.tier) {
            group[i] = seen_group;
            continue;
        }
        PyObject *tier = PyLong_FromLong(s->chosen.tier);
        PyObject *gkey = tier ? PyTuple_Pack(5, b->kind, b->rank,
                                             s->chosen.how == ALL_WILD ? one : b->length, tier,
                                             b->main) : NULL;
        Py_XDECREF(tier);
        if (gkey == NULL) goto done;
        PyObject *id = PyDict_GetItemWithError(ids, gkey);
        if (id == NULL && !PyErr_Occurred()) {
            id = PyLong_FromSize_t(groups++);
            if (id == NULL || PyDict_SetItem(ids, gkey, id) < 0) {
                Py_XDECREF(id);
                Py_DECREF(gkey);
                goto done;
            }
            Py_DECREF(id);
        }
        Py_DECREF(gkey);
        if (id == NULL) goto done;
        group[i] = seen_group = PyLong_AsSize_t(id);
        seen = s->chosen;
    }
    /* Each group's members in order (a counting sort by group: the sets come in order). */
    size_t *starts = PyMem_Calloc(groups + 1, sizeof(size_t)), *fill = NULL;
    if (starts == NULL || (fill = PyMem_Calloc(groups + 1, sizeof(size_t))) == NULL) {
        PyMem_Free(starts);
        PyErr_NoMemory();
        goto done;
    }
    for (size_t i = 0; i < distinct; i++)
        if (table[order[i]].accepted) starts[group[i] + 1]++;
    for (size_t g = 0; g < groups; g++) starts[g + 1] += starts[g];
    for (size_t i = 0; i < distinct; i++)
        if (table[order[i]].accepted) members[starts[group[i]] + fill[group[i]]++] = i;
    PyMem_Free(fill);
    for (size_t g = 0; g < groups; g++) {
        size_t *in = members + starts[g], count = starts[g + 1] - starts[g];
        for (size_t i = 1; i < count; i++) { /* insertion sort: stable */
            size_t m = in[i], j = i;
            for (; j > 0 && before(keys[m], lens[m], keys[in[j - 1]], lens[in[j - 1]]); j--)
                in[j] = in[j - 1];
            in[j] = m;
        }
        for (size_t i = 0; i < count && (Py_ssize_t)i < variants; i++) {
            Slot *s = &table[order[in[i]]];
            made[in[i]] = make(blocks, &s->chosen, gen_play, new_play, empty);
            if (made[in[i]] == NULL || PyList_Append(out, made[in[i]]) < 0) {
                PyMem_Free(starts);
                goto done;
            }
        }
    }
    PyMem_Free(starts);
    ok = 1;
done:
    if (keys != NULL)
        for (size_t i = 0; i < distinct; i++) PyMem_Free(keys[i]);
    PyMem_Free(keys);
    PyMem_Free(lens);
    PyMem_Free(group);
    PyMem_Free(members);
    Py_XDECREF(ids);
    Py_XDECREF(one);
    if (!ok) Py_CLEAR(out);
    return out;
}

/* sift_blocks(blocks, gen_play, new_play, walk, total, variants, (soft, hard, pure)) ->
 * (candidates, lasts, whole): see bots.split.sift.sift_blocks (``lasts``: bytes of (set of cards
 * packed 4 bits a rank, its last way as ``ref_bits``) pairs of native 64-bit ints; ``block_play``
 * makes a way's play). */
PyObject *sift_blocks(PyObject *self, PyObject *args) {
    PyObject *list, *gen_play, *new_play, *spec, *lasts = NULL;
    PyObject *candidates = NULL, *whole = NULL, *out = NULL, *empty = PyTuple_New(0);
    Py_ssize_t total, variants;
    long soft, hard, pure;
    Walk walk;
    int have_walk;
    (void)self;
    if (empty == NULL) return NULL;
    if (!PyArg_ParseTuple(args, "O!OOOnn(lll):sift_blocks", &PyList_Type, &list, &gen_play,
                          &new_play, &spec, &total, &variants, &soft, &hard, &pure)
            || read_walk(spec, &walk, &have_walk) < 0) {
        Py_DECREF(empty);
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(list);
    Block *blocks = PyMem_Calloc((size_t)n + 1, sizeof(Block));
    Slot *table = NULL;
    size_t *order = NULL, distinct = 0, ways = 0, cap = 16;
    long *mw = NULL, *kw = NULL;
    u128 *mk = NULL, *kk = NULL;
    Py_ssize_t *mc = NULL, *kc = NULL, widest = 1;
    Ref whole_ref = {0, 0, 0, 0, 0};
    int have_whole = 0;
    long whole_tier = 0;
    PyObject **made = NULL;
    Last *last = NULL;
    if (blocks == NULL) goto nomem;
    if (n >= (Py_ssize_t)1 << REF_BLOCK_BITS) goto too_many;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (read_block(PyList_GET_ITEM(list, i), &blocks[i]) < 0) goto fail;
        Py_ssize_t nm = PyTuple_GET_SIZE(blocks[i].mains), nk = PyTuple_GET_SIZE(blocks[i].kickers);
        if (nm >= 1 << REF_SIDE_BITS || nk >= 1 << REF_SIDE_BITS) goto too_many;
        ways += (size_t)(nm * nk);
        if (nm > widest) widest = nm;
        if (nk > widest) widest = nk;
    }
    while (cap < 2 * ways) cap *= 2;
    table = PyMem_Calloc(cap, sizeof(Slot));
    order = PyMem_Calloc(ways + 1, sizeof(size_t));
    mw = PyMem_Calloc((size_t)widest, sizeof(long)), kw = PyMem_Calloc((size_t)widest, sizeof(long));
    mk = PyMem_Calloc((size_t)widest, sizeof(u128)), kk = PyMem_Calloc((size_t)widest, sizeof(u128));
    mc = PyMem_Calloc((size_t)widest, sizeof(Py_ssize_t));
    kc = PyMem_Calloc((size_t)widest, sizeof(Py_ssize_t));
    if (!table || !order || !mw || !kw || !mk || !kk || !mc || !kc) goto nomem;
    PyObject *read_mains = NULL; /* the codes of one main part come in a row: read it once */
    for (Py_ssize_t bi = 0; bi < n; bi++) {
        Block *b = &blocks[bi];
        Py_ssize_t nm = PyTuple_GET_SIZE(b->mains), nk = PyTuple_GET_SIZE(b->kickers);
        for (Py_ssize_t i = 0; i < nm && b->mains != read_mains; i++)
            if (read_side(PyTuple_GET_ITEM(b->mains, i), &mw[i], &mk[i], &mc[i]) < 0) goto fail;
        read_mains = b->mains;
        u128 main_key;
        Py_ssize_t main_cards;
        if (read_ranks(b->main, &main_key, &main_cards) < 0) goto fail;
        for (Py_ssize_t i = 0; i < nk; i++)
            if (read_side(PyTuple_GET_ITEM(b->kickers, i), &kw[i], &kk[i], &kc[i]) < 0) goto fail;
        for (Py_ssize_t mi = 0; mi < nm; mi++) {
            for (Py_ssize_t ki = 0; ki < nk; ki++) {
                long wilds = mw[mi] + kw[ki], tier = b->tier;
                Ref ref = {(int32_t)bi, (uint16_t)mi, (uint16_t)ki, SUBSTITUTED, 0};
                if (wilds > b->spend) continue;
                if (!wilds) { /* the natural play: its reading is the block's */
                    ref.how = NATURAL;
                } else if (wilds == b->size) {
                    if (!b->by_wilds_alone) continue;
                    if (b->bomb) ref.how = ALL_WILD, tier = pure;
                } else if (b->bomb) {
                    tier = mw[mi] ? soft : hard;
                }
                if (tier < 0 || tier >= 1 << REF_TIER_BITS) {
                    PyErr_SetString(PyExc_ValueError, "a bomb tier of 0 to 7");
                    goto fail;
                }
                ref.tier = (uint8_t)tier;
                /* Wild cards alone are played as the main part they stand for (W3). */
                u128 key = ref.how == ALL_WILD ? main_key : mk[mi] + kk[ki];
                Py_ssize_t cards = ref.how == ALL_WILD ? main_cards : mc[mi] + kc[ki];
                Slot *s = slot(table, cap, key);
                if (!s->used) {
                    int ok = have_walk ? accepts(&walk, key) : 1;
                    if (ok < 0) goto fail;
                    s->used = 1, s->key = key, s->accepted = ok, s->chosen = ref;
                    order[distinct++] = (size_t)(s - table);
                } else if (s->accepted && s->chosen.tier && !ref.tier) {
                    s->chosen = ref; /* the same cards not read as a bomb */
                }
                if (!s->accepted) continue;
                s->last = ref;
                if (cards == total && (!have_whole || ref.tier < whole_tier))
                    whole_ref = ref, whole_tier = ref.tier, have_whole = 1;
            }
        }
    }
    last = PyMem_Calloc(distinct + 1, sizeof(Last));
    made = PyMem_Calloc(distinct + 1, sizeof(PyObject *));
    if (last == NULL || made == NULL) goto nomem;
    size_t kept = 0;
    for (size_t i = 0; i < distinct; i++) {
        Slot *s = &table[order[i]];
        if (s->accepted) last[kept].key = narrow(s->key), last[kept++].ref = ref_bits(&s->last);
    }
    lasts = PyBytes_FromStringAndSize((const char *)last, (Py_ssize_t)(kept * sizeof(Last)));
    if (lasts == NULL) goto fail;
    candidates = grouped_ways(blocks, table, order, distinct, variants, gen_play, new_play,
                              empty, made);
    if (candidates == NULL) goto fail;
    whole = have_whole ? make(blocks, &whole_ref, gen_play, new_play, empty) : Py_NewRef(Py_None);
    if (whole == NULL) goto fail;
    out = Py_BuildValue("(NNN)", candidates, lasts, whole);
    candidates = lasts = whole = NULL;
    goto done;
too_many:
    PyErr_SetString(PyExc_ValueError, "too many blocks or ways to read");
    goto fail;
nomem:
    PyErr_NoMemory();
fail:
    out = NULL;
done:
    if (made != NULL)
        for (size_t i = 0; i < distinct; i++) Py_XDECREF(made[i]);
    PyMem_Free(made);
    PyMem_Free(last);
    if (blocks != NULL)
        for (Py_ssize_t i = 0; i < n; i++) Py_XDECREF(blocks[i].natural);
    Py_XDECREF(lasts);
    Py_XDECREF(candidates);
    Py_XDECREF(whole);
    Py_DECREF(empty);
    PyMem_Free(blocks);
    PyMem_Free(table);
    PyMem_Free(order);
    PyMem_Free(mw);
    PyMem_Free(kw);
    PyMem_Free(mk);
    PyMem_Free(kk);
    PyMem_Free(mc);
    PyMem_Free(kc);
    return out;
}

/* block_play(blocks, ref, gen_play, new_play): the play of a way ``sift_blocks`` named. */
PyObject *block_play(PyObject *self, PyObject *args) {
    PyObject *list, *gen_play, *new_play, *empty;
    unsigned long long v;
    (void)self;
    if (!PyArg_ParseTuple(args, "O!KOO:block_play", &PyList_Type, &list, &v, &gen_play, &new_play))
        return NULL;
    Ref r;
    r.tier = (uint8_t)(v & ((1 << REF_TIER_BITS) - 1)), v >>= REF_TIER_BITS;
    r.how = (uint8_t)(v & 3), v >>= 2;
    r.kick = (uint16_t)(v & ((1 << REF_SIDE_BITS) - 1)), v >>= REF_SIDE_BITS;
    r.main = (uint16_t)(v & ((1 << REF_SIDE_BITS) - 1)), v >>= REF_SIDE_BITS;
    if (v >= (unsigned long long)PyList_GET_SIZE(list) || r.how > SUBSTITUTED) {
        PyErr_SetString(PyExc_ValueError, "no such way in these blocks");
        return NULL;
    }
    Block b;
    if (read_block(PyList_GET_ITEM(list, (Py_ssize_t)v), &b) < 0) return NULL;
    if (r.main >= PyTuple_GET_SIZE(b.mains) || r.kick >= PyTuple_GET_SIZE(b.kickers)) {
        PyErr_SetString(PyExc_ValueError, "no such way in these blocks");
        return NULL;
    }
    if ((empty = PyTuple_New(0)) == NULL) return NULL;
    r.block = 0;
    PyObject *out = make(&b, &r, gen_play, new_play, empty);
    Py_XDECREF(b.natural);
    Py_DECREF(empty);
    return out;
}


