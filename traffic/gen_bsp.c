/* gen_bsp.c: BSP programs after Bisseling's "two-phase broadcasting"
 * (docs/algorithms/bsp.md): `broadcast-1phase` and `broadcast-2phase` of an
 * n-word vector from a root, and `hrelation`, one superstep that realises a
 * given or random h-relation. Every superstep is a step ("superstep1",
 * ...), so that --sync steps puts the BSP barrier between them.
 *
 * The three share one plan: the messages of every superstep (source,
 * destination, words, the sender's and the receiver's address). The plan
 * gives the program (every rank's sends and receives, superstep by
 * superstep, the sends of superstep k+1 waiting for the rank's receives of
 * superstep k) and the facts hook's h_s, h_r, h, V and balance, so that the
 * two never disagree. Messages combine the puts of one superstep from one
 * PE to another into one message, as BSP libraries do.
 *
 * Data: the broadcast vector x (x_k from --seed at the root's address k)
 * must end at address k of every PE; in an h-relation every PE's words
 * (its send buffer) must arrive at the receive addresses of their
 * destinations. Any fabric with at least two nodes; routing between
 * non-neighbours is the fabric's own. */
#include "traffic/gen_util.h"
#include "model/rng.h"
#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const noc_generator_t noc_gen_broadcast_1phase, noc_gen_broadcast_2phase, noc_gen_hrelation;

#define MAX_H (1 << 20)           /* largest h an hrelation accepts */
#define MAX_VOLUME (1LL << 24)    /* largest p*h (words of a whole h-relation) */

/* One message of a superstep. */
typedef struct bsp_msg {
    int32_t src, dst;
    uint32_t words;
    int32_t saddr, daddr;   /* first word at the sender, at the receiver */
    int32_t step;           /* 0-based superstep */
} bsp_msg_t;

typedef struct bsp_plan {
    int p, n_steps;
    bsp_msg_t *m;
    size_t n_m, cap;
} bsp_plan_t;

static void plan_init(bsp_plan_t *pl, int p, int n_steps, size_t cap)
{
    pl->p = p;
    pl->n_steps = n_steps;
    pl->n_m = 0;
    pl->cap = cap;
    pl->m = noc_xcalloc(cap, sizeof(bsp_msg_t), "bsp plan");
}

static void plan_free(bsp_plan_t *pl)
{
    free(pl->m);
    pl->m = NULL;
}

static void plan_add(bsp_plan_t *pl, int step, int src, int dst, uint32_t words, int32_t saddr,
                     int32_t daddr)
{
    if (words == 0)
        return;
    if (pl->n_m == pl->cap) { /* the planners size cap exactly; this cannot happen */
        fprintf(stderr, "noctua: bsp plan overflow\n");
        abort();
    }
    pl->m[pl->n_m++] = (bsp_msg_t){ src, dst, words, saddr, daddr, step };
}

/* ---- the facts of a plan: per superstep h_s, h_r, V ---- */

typedef struct bsp_step_facts {
    uint64_t hs, hr, v;
} bsp_step_facts_t;

static void step_facts(const bsp_plan_t *pl, int step, bsp_step_facts_t *f)
{
    uint64_t *sent = noc_xcalloc((size_t)pl->p, sizeof(uint64_t), "bsp facts");
    uint64_t *got = noc_xcalloc((size_t)pl->p, sizeof(uint64_t), "bsp facts");
    memset(f, 0, sizeof *f);
    for (size_t i = 0; i < pl->n_m; i++) {
        const bsp_msg_t *m = &pl->m[i];
        if (m->step != step)
            continue;
        sent[m->src] += m->words;
        got[m->dst] += m->words;
        f->v += m->words;
    }
    for (int s = 0; s < pl->p; s++) {
        f->hs = sent[s] > f->hs ? sent[s] : f->hs;
        f->hr = got[s] > f->hr ? got[s] : f->hr;
    }
    free(sent);
    free(got);
}

static uint64_t max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* "superstepK.h_s = ..." lines for every superstep; returns the sum of the
 * supersteps' h (the g coefficient of the BSP cost). */
static uint64_t facts_lines(const bsp_plan_t *pl, char *buf, size_t len)
{
    uint64_t sum_h = 0;
    noc_gen_appendf(buf, len, "p = %d\nsupersteps = %d\n", pl->p, pl->n_steps);
    for (int k = 0; k < pl->n_steps; k++) {
        bsp_step_facts_t f;
        step_facts(pl, k, &f);
        uint64_t h = max_u64(f.hs, f.hr);
        double bal = h ? (double)f.v / ((double)pl->p * (double)h) : 1.0;
        noc_gen_appendf(buf, len, "superstep%d.h_s = %llu\n", k + 1, (unsigned long long)f.hs);
        noc_gen_appendf(buf, len, "superstep%d.h_r = %llu\n", k + 1, (unsigned long long)f.hr);
        noc_gen_appendf(buf, len, "superstep%d.h = %llu\n", k + 1, (unsigned long long)h);
        noc_gen_appendf(buf, len, "superstep%d.V = %llu\n", k + 1, (unsigned long long)f.v);
        noc_gen_appendf(buf, len, "superstep%d.balance = %.4f\n", k + 1, bal);
        sum_h += h;
    }
    return sum_h;
}

/* ---- from a plan to a program ---- */

/* Message indices of the plan bucketed by key (src or dst): idx[start[r] ..
 * start[r+1]) in plan order. */
static void bucket(const bsp_plan_t *pl, int by_dst, size_t *start, size_t *idx)
{
    memset(start, 0, ((size_t)pl->p + 1) * sizeof(size_t));
    for (size_t i = 0; i < pl->n_m; i++)
        start[(by_dst ? pl->m[i].dst : pl->m[i].src) + 1]++;
    for (int r = 0; r < pl->p; r++)
        start[r + 1] += start[r];
    size_t *fill = noc_xcalloc((size_t)pl->p, sizeof(size_t), "bsp program");
    for (size_t i = 0; i < pl->n_m; i++) {
        int r = by_dst ? pl->m[i].dst : pl->m[i].src;
        idx[start[r] + fill[r]++] = i;
    }
    free(fill);
}

/* Rank r's ops of superstep k: its sends (each waiting for the rank's
 * receives of the superstep before, prev[0 .. *n_prev)), then its receives,
 * which become the new prev. */
static void emit_step(noc_program_t *p, const bsp_plan_t *pl, int r, int k, const size_t *out,
                      size_t n_out, const size_t *in, size_t n_in, uint32_t *prev, size_t *n_prev)
{
    for (size_t i = 0; i < n_out; i++) {
        const bsp_msg_t *m = &pl->m[out[i]];
        if (m->step != k)
            continue;
        uint32_t sd = noc_prog_send(p, r, m->dst, k, m->words, m->saddr);
        for (size_t j = 0; j < *n_prev; j++)
            noc_prog_dep(p, sd, prev[j], 0);
    }
    size_t got = 0;
    for (size_t i = 0; i < n_in; i++) {
        const bsp_msg_t *m = &pl->m[in[i]];
        if (m->step == k)
            prev[got++] = noc_prog_recv(p, r, m->src, k, m->words, m->daddr);
    }
    *n_prev = got;
}

static const char *step_name(int k, char *buf, size_t len)
{
    snprintf(buf, len, "superstep%d", k + 1);
    return buf;
}

/* Every rank's sends and receives, superstep by superstep. */
static void emit(noc_program_t *p, const bsp_plan_t *pl)
{
    char name[32];
    for (int k = 0; k < pl->n_steps; k++)
        noc_prog_declare_step(p, step_name(k, name, sizeof name));
    size_t *os = noc_xcalloc((size_t)pl->p + 1, sizeof(size_t), "bsp program");
    size_t *is = noc_xcalloc((size_t)pl->p + 1, sizeof(size_t), "bsp program");
    size_t *oi = noc_xcalloc(pl->n_m, sizeof(size_t), "bsp program");
    size_t *ii = noc_xcalloc(pl->n_m, sizeof(size_t), "bsp program");
    uint32_t *prev = noc_xcalloc((size_t)pl->p, sizeof(uint32_t), "bsp program");
    bucket(pl, 0, os, oi);
    bucket(pl, 1, is, ii);
    for (int r = 0; r < pl->p; r++) {
        size_t n_prev = 0;
        for (int k = 0; k < pl->n_steps; k++) {
            noc_prog_step(p, r, step_name(k, name, sizeof name));
            emit_step(p, pl, r, k, oi + os[r], os[r + 1] - os[r], ii + is[r], is[r + 1] - is[r],
                      prev, &n_prev);
        }
    }
    free(os);
    free(is);
    free(oi);
    free(ii);
    free(prev);
}

/* ---- arguments ---- */

static int check_common(const noc_generator_t *g, const noc_topo_t *t, const noc_gen_args_t *a,
                        char *err, size_t errlen)
{
    if (noc_topo_nodes(t) < 2) {
        snprintf(err, errlen, "%s: %s has %d node; a BSP program needs at least 2 PEs", g->name,
                 noc_topo_spec(t), noc_topo_nodes(t));
        return -1;
    }
    if (a->root < 0 || a->root >= noc_topo_nodes(t)) {
        snprintf(err, errlen, "%s: root %d is not a node of %s (0 .. %d)", g->name, a->root,
                 noc_topo_spec(t), noc_topo_nodes(t) - 1);
        return -1;
    }
    return 0;
}

/* The vector length n: --words, or p when it is 0 (not given). */
static int vector_length(const noc_generator_t *g, const noc_topo_t *t, const noc_gen_args_t *a,
                         char *err, size_t errlen)
{
    if (check_common(g, t, a, err, errlen))
        return -1;
    int n = a->words > 0 ? a->words : noc_topo_nodes(t);
    if (a->words < 0 || n > NOC_PROG_MAX_MEM) {
        snprintf(err, errlen, "%s: --words %d: the vector length must be 1 .. %d words", g->name,
                 a->words, NOC_PROG_MAX_MEM);
        return -1;
    }
    return n;
}

/* ---- broadcast-1phase: the root puts the whole vector into every PE ---- */

static void plan_1phase(bsp_plan_t *pl, int p, int root, int n)
{
    plan_init(pl, p, 1, (size_t)p);
    for (int t = 1; t < p; t++)
        plan_add(pl, 0, root, (root + t) % p, (uint32_t)n, 0, 0);
}

/* ---- broadcast-2phase: scatter blocks of b = ceil(n/p), then every PE
 * broadcasts its block. Block j (words j*b .. min((j+1)b, n) - 1) belongs to
 * PE (root + j) mod p: the paper's P(j) with the root renumbered to 0. ---- */

static uint32_t block_len(int n, int b, int j)
{
    long lo = (long)j * b, hi = lo + b < n ? lo + b : n;
    return hi > lo ? (uint32_t)(hi - lo) : 0;
}

static void plan_2phase(bsp_plan_t *pl, int p, int root, int n)
{
    int b = (n + p - 1) / p;
    plan_init(pl, p, 2, (size_t)p * (size_t)p);
    for (int j = 1; j < p; j++)
        plan_add(pl, 0, root, (root + j) % p, block_len(n, b, j), j * b, j * b);
    for (int j = 0; j < p; j++) {
        int owner = (root + j) % p;
        for (int t = 1; t < p; t++)
            plan_add(pl, 1, owner, (owner + t) % p, block_len(n, b, j), j * b, j * b);
    }
}

/* Start a broadcast program: x at the root, x expected everywhere. */
static noc_program_t *broadcast_program(const bsp_plan_t *pl, const noc_gen_args_t *a, int n,
                                        const char *name)
{
    noc_program_t *p = noc_prog_new(pl->p, name);
    for (int k = 0; k < n; k++) {
        int64_t v = noc_gen_value(a->seed, a->root, k);
        noc_prog_init(p, a->root, (uint32_t)k, v);
        for (int r = 0; r < pl->p; r++)
            noc_prog_expect(p, r, (uint32_t)k, v);
    }
    emit(p, pl);
    return p;
}

static noc_program_t *make_broadcast(const noc_generator_t *g, int two, const noc_topo_t *t,
                                     const noc_gen_args_t *a, char *err, size_t errlen)
{
    if (!noc_gen_variant(g, a, err, errlen))
        return NULL;
    int n = vector_length(g, t, a, err, errlen);
    if (n < 0)
        return NULL;
    bsp_plan_t pl;
    if (two)
        plan_2phase(&pl, noc_topo_nodes(t), a->root, n);
    else
        plan_1phase(&pl, noc_topo_nodes(t), a->root, n);
    noc_program_t *p = broadcast_program(&pl, a, n, g->name);
    plan_free(&pl);
    return noc_gen_finish(p, err, errlen);
}

static noc_program_t *make_1phase(const noc_topo_t *t, const noc_gen_args_t *a, char *err,
                                  size_t errlen)
{
    return make_broadcast(&noc_gen_broadcast_1phase, 0, t, a, err, errlen);
}

static noc_program_t *make_2phase(const noc_topo_t *t, const noc_gen_args_t *a, char *err,
                                  size_t errlen)
{
    return make_broadcast(&noc_gen_broadcast_2phase, 1, t, a, err, errlen);
}

static void facts_1phase(const noc_topo_t *t, const noc_gen_args_t *a, char *buf, size_t len)
{
    int p = noc_topo_nodes(t), n = a->words > 0 ? a->words : p;
    bsp_plan_t pl;
    plan_1phase(&pl, p, a->root, n);
    if (len == 0)
        return;
    buf[0] = '\0';
    noc_gen_appendf(buf, len, "n = %d\n", n);
    uint64_t gh = facts_lines(&pl, buf, len);
    noc_gen_appendf(buf, len, "bsp_cost = (p-1)n g + l = %llu g + l\n", (unsigned long long)gh);
    plan_free(&pl);
}

static void facts_2phase(const noc_topo_t *t, const noc_gen_args_t *a, char *buf, size_t len)
{
    int p = noc_topo_nodes(t), n = a->words > 0 ? a->words : p, b = (n + p - 1) / p;
    bsp_plan_t pl;
    plan_2phase(&pl, p, a->root, n);
    if (len == 0)
        return;
    buf[0] = '\0';
    noc_gen_appendf(buf, len, "n = %d\nb = %d\n", n, b);
    facts_lines(&pl, buf, len); /* h1 + h2 is the paper's count for every n, p (docs) */
    long long paper = (long long)n + (long long)(p - 2) * b;
    noc_gen_appendf(buf, len, "bsp_cost = (n + (p-2)ceil(n/p)) g + 2l = %lld g + 2 l\n", paper);
    noc_gen_appendf(buf, len, "bsp_cost_1phase = (p-1)n g + l = %lld g + l\n", (long long)(p - 1) * n);
    plan_free(&pl);
}

/* ---- hrelation ---- */

static const char *const hrel_variants[] = { "random", "balanced", "total-exchange", "shift", NULL };

/* Words PE s sends to each PE in the variant's h-relation, into cnt[0 .. p)
 * (zeroed by the caller). perm: the balanced variant's h derangements. */
static void hrel_counts(const char *v, int p, int h, int s, uint64_t seed, const int *perm,
                        uint32_t *cnt)
{
    if (strcmp(v, "shift") == 0) {
        cnt[(s + 1) % p] = (uint32_t)h;
    } else if (strcmp(v, "total-exchange") == 0) {
        for (int i = 0; i < h && i < p - 1; i++) /* word i to s + 1 + (i mod (p-1)) */
            cnt[(s + 1 + i) % p] = (uint32_t)(h / (p - 1) + (i < h % (p - 1)));
    } else if (strcmp(v, "balanced") == 0) {
        for (int k = 0; k < h; k++)
            cnt[perm[(size_t)k * (size_t)p + (size_t)s]]++;
    } else { /* random: every word to a uniform destination other than s */
        noc_rng_t rng;
        noc_rng_seed(&rng, seed, (uint64_t)s);
        for (int k = 0; k < h; k++)
            cnt[(s + 1 + (int)noc_rng_below(&rng, (uint32_t)(p - 1))) % p]++;
    }
}

/* A uniform random derangement of 0 .. p-1 (p >= 2) into d: shuffle until
 * no PE maps to itself (about e tries). */
static void derangement(noc_rng_t *rng, int p, int *d)
{
    for (;;) {
        for (int i = 0; i < p; i++)
            d[i] = i;
        for (int i = p - 1; i > 0; i--) {
            int j = (int)noc_rng_below(rng, (uint32_t)i + 1), x = d[i];
            d[i] = d[j];
            d[j] = x;
        }
        int fixed = 0;
        for (int i = 0; i < p && !fixed; i++)
            fixed = d[i] == i;
        if (!fixed)
            return;
    }
}

static int *balanced_perms(int p, int h, uint64_t seed)
{
    int *perm = noc_xcalloc((size_t)h * (size_t)p, sizeof(int), "hrelation");
    for (int k = 0; k < h; k++) {
        noc_rng_t rng;
        noc_rng_seed(&rng, seed, UINT64_C(0x100000000) + (uint64_t)k);
        derangement(&rng, p, perm + (size_t)k * (size_t)p);
    }
    return perm;
}

/* The plan of the h-relation: PE s's send buffer holds its words at
 * 0 .. h_s(s)-1, grouped by destination in the order s+1, s+2, ... (mod p);
 * received words land from address h on, in order of the source rank. */
static void plan_hrel(bsp_plan_t *pl, const char *v, int p, int h, uint64_t seed)
{
    int *perm = strcmp(v, "balanced") == 0 ? balanced_perms(p, h, seed) : NULL;
    size_t per = (size_t)(h < p - 1 ? h : p - 1);
    plan_init(pl, p, 1, (size_t)p * per);
    uint32_t *cnt = noc_xcalloc((size_t)p, sizeof(uint32_t), "hrelation");
    uint32_t *in = noc_xcalloc((size_t)p, sizeof(uint32_t), "hrelation"); /* filled so far */
    /* receive offsets in order of the source: plan sources in rank order */
    for (int s = 0; s < p; s++) {
        memset(cnt, 0, (size_t)p * sizeof(uint32_t));
        hrel_counts(v, p, h, s, seed, perm, cnt);
        int32_t off = 0;
        for (int t = 1; t < p; t++) {
            int d = (s + t) % p;
            plan_add(pl, 0, s, d, cnt[d], off, h + (int32_t)in[d]);
            off += (int32_t)cnt[d];
            in[d] += cnt[d];
        }
    }
    free(cnt);
    free(in);
    free(perm);
}

/* Every PE's send buffer (values from the seed), and at every destination
 * the words it must receive. */
static noc_program_t *hrel_program(const bsp_plan_t *pl, int h, uint64_t seed)
{
    noc_program_t *p = noc_prog_new(pl->p, "hrelation");
    for (size_t i = 0; i < pl->n_m; i++) {
        const bsp_msg_t *m = &pl->m[i];
        for (uint32_t w = 0; w < m->words; w++) {
            int64_t x = noc_gen_value(seed, m->src, m->saddr + (int)w);
            noc_prog_init(p, m->src, (uint32_t)m->saddr + w, x);
            noc_prog_expect(p, m->dst, (uint32_t)m->daddr + w, x);
        }
    }
    for (int r = 0; r < pl->p; r++)
        noc_prog_mem(p, r, (uint32_t)h);
    emit(p, pl);
    return p;
}

static int hrel_h(const noc_topo_t *t, const noc_gen_args_t *a)
{
    return a->h > 0 ? a->h : noc_topo_nodes(t) - 1;
}

static noc_program_t *make_hrel(const noc_topo_t *t, const noc_gen_args_t *a, char *err,
                                size_t errlen)
{
    const noc_generator_t *g = &noc_gen_hrelation;
    const char *v = noc_gen_variant(g, a, err, errlen);
    if (!v || check_common(g, t, a, err, errlen))
        return NULL;
    int p = noc_topo_nodes(t), h = hrel_h(t, a);
    if (a->h < 0 || h > MAX_H || (long long)h * p > MAX_VOLUME) {
        snprintf(err, errlen, "%s: --h %d: h must be 1 .. %d and p*h at most %lld words (p = %d)",
                 g->name, a->h, MAX_H, MAX_VOLUME, p);
        return NULL;
    }
    bsp_plan_t pl;
    plan_hrel(&pl, v, p, h, a->seed);
    bsp_step_facts_t f;
    step_facts(&pl, 0, &f);
    if ((uint64_t)h + f.hr > NOC_PROG_MAX_MEM) {
        snprintf(err, errlen, "%s: a PE would receive %llu words, more than its memory holds",
                 g->name, (unsigned long long)f.hr);
        plan_free(&pl);
        return NULL;
    }
    noc_program_t *prog = hrel_program(&pl, h, a->seed);
    plan_free(&pl);
    return noc_gen_finish(prog, err, errlen);
}

static void facts_hrel(const noc_topo_t *t, const noc_gen_args_t *a, char *buf, size_t len)
{
    const char *v = a->variant ? a->variant : hrel_variants[0];
    int h = hrel_h(t, a);
    bsp_plan_t pl;
    plan_hrel(&pl, v, noc_topo_nodes(t), h, a->seed);
    if (len == 0)
        return;
    buf[0] = '\0';
    noc_gen_appendf(buf, len, "variant = %s\nh_given = %d\n", v, h);
    uint64_t gh = facts_lines(&pl, buf, len);
    noc_gen_appendf(buf, len, "bsp_cost = h g + l = %llu g + l\n", (unsigned long long)gh);
    plan_free(&pl);
}

/* The BSP broadcasts: every PE expects the n-word vector, p n values (0
 * for a length vector_length refuses). */
static uint64_t volume_vector(const noc_topo_t *t, const noc_gen_args_t *a)
{
    uint64_t n = a->words > 0 ? (uint64_t)a->words : (uint64_t)noc_topo_nodes(t);
    return a->words >= 0 && n <= NOC_PROG_MAX_MEM ? (uint64_t)noc_topo_nodes(t) * n : 0;
}

const noc_generator_t noc_gen_broadcast_1phase = {
    .name = "broadcast-1phase",
    .summary = "BSP one-phase broadcast: the root puts the n-word vector into every PE",
    .args_help = "  --words N      the vector length n (default: p, the number of PEs)\n"
                 "  --root LABEL   the root (default node 0)\n"
                 "  --seed S       the vector's values\n"
                 "  one superstep, a (p-1)n-relation; BSP cost (p-1)n g + l. Any fabric.\n",
    .variants = NULL,
    .make = make_1phase,
    .facts = facts_1phase,
    .volume = volume_vector,
};

const noc_generator_t noc_gen_broadcast_2phase = {
    .name = "broadcast-2phase",
    .summary = "BSP two-phase broadcast: scatter n/p-word blocks, then all-to-all",
    .args_help = "  --words N      the vector length n (default: p, the number of PEs)\n"
                 "  --root LABEL   the root (default node 0)\n"
                 "  --seed S       the vector's values\n"
                 "  superstep1: the root sends block j (b = ceil(n/p) words) to PE root+j;\n"
                 "  superstep2: every PE puts its block into every other PE.\n"
                 "  BSP cost (n + (p-2)ceil(n/p)) g + 2l. Any fabric.\n",
    .variants = NULL,
    .make = make_2phase,
    .facts = facts_2phase,
    .volume = volume_vector,
};

const noc_generator_t noc_gen_hrelation = {
    .name = "hrelation",
    .summary = "one BSP superstep realising an h-relation (random, balanced, total exchange, shift)",
    .args_help = "  --h H          words every PE sends (default p-1)\n"
                 "  --seed S       the random relation and the data values\n"
                 "  variants: random (each word to a uniform other PE: h_s = h, h_r as it\n"
                 "            falls), balanced (h random derangements: h_s = h_r = h),\n"
                 "            total-exchange (word i of PE s to s+1+(i mod (p-1)): h_s = h_r = h),\n"
                 "            shift (all h words to PE s+1 mod p). Any fabric.\n",
    .variants = hrel_variants,
    .make = make_hrel,
    .facts = facts_hrel,
};
