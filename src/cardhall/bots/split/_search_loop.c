/* The split search itself and the wild-card greedy (see _search.h and hands.Planner). */
#include "_search.h"

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


/* Whether a wild card is tried at rank ``r`` (``hands._useful``): below the rank's count,
 * at a rank held or next to one (a chain's gap). */
static int worth_trying(u128 packed, int r, const int *limits) {
    int count = (int)((packed >> (FIELD * r)) & MASK);
    if (count >= limits[r]) return 0;
    return count || (r > 0 && ((packed >> (FIELD * (r - 1))) & MASK))
        || (r < ACE && ((packed >> (FIELD * (r + 1))) & MASK));
}

/* Cards of packed hand ``h`` at ranks ``lo`` to ``hi`` (top-down packing). */
static int cards_between(Core *c, u128 h, int lo, int hi) {
    u128 below = hi + 1 >= NUM_RANKS ? ~(u128)0 : (((u128)1 << (FIELD * (hi + 1))) - 1);
    u128 above = lo <= 0 ? ~(u128)0 : ~(((u128)1 << (FIELD * lo)) - 1);
    return card_count(c, h & below & above);
}

/* ``Planner.worth_wild`` with each try from the search that meets fewer new cards (``m``: the
 * mirrored one, ``up`` the same hand packed for it; NULL: every try top-down), the top-down one sharing the states below the
 * lowest rank the try's hand changes (the play's ``low``, the ranks placed, the try's), the
 * mirrored one those above the highest. The two sum the same worths in other orders, so
 * where a round's best tries come within ``margin``, those are valued top-down again: the
 * rank chosen is the top-down greedy's. ``*exact``: whether the worth is the top-down one to
 * the last bit; ``*state``: the top-down state of the placed hand (to value it again). */
double worth_wild_two(Core *c, Core *m, u128 down, u128 up, int spare, int wild,
                             const int *limits, int low, int high, double margin, int *exact,
                             u128 *state) {
    double values[TWO + 1], last = NAN;
    int tried[TWO + 1], flags[TWO + 1], last_exact = 1;
    u128 hand = down & c->hand_mask;
    for (int k = 0; k < spare; k++) {
        double top = -INFINITY;
        int n = 0;
        for (int r = 0; r <= TWO; r++) {
            if (!worth_trying(down, r, limits)) continue;
            int lo = r < low ? r : low, hi = r > high ? r : high;
            int mirrored = m != NULL
                && cards_between(c, hand, 0, hi) < cards_between(c, hand, lo, NUM_RANKS);
            double value = mirrored
                ? solve(m, up + ((u128)1 << (FIELD * (NUM_RANKS - 1 - r))))
                : solve(c, down + ((u128)1 << (FIELD * r)));
            if (c->failed || (m != NULL && m->failed)) return NAN;
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

double search_solve(Core *c, u128 state) {
    return solve(c, state);
}
