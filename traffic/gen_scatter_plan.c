/* gen_scatter_plan.c: the `tarkov-planned` scatter's planning phases, the
 * messages of Tarkov and Tsarenko's sections 3-5 as program steps that run
 * on the network before the loading (docs/algorithms/scatter.md, "The
 * planning phases on the network"):
 *
 *   plan-sp  the root sends the mark d(SP) = 1 on all its arcs; every other
 *            node takes the first SP message that reaches it (a receive
 *            from any source), adds 1 and sends the mark on all its arcs.
 *            Every arc carries one SP message; every node receives one per
 *            in-arc (the later ones from any source too).
 *   plan-pp  on G(PP), G(SP) reversed: a node without out-arcs on G(SP)
 *            sends its pair (i, d) up; a node that has the sets of all its
 *            successors sends the union with its own pair to all its
 *            predecessors. A pair is one word: d * 2^32 + i, d the node's
 *            distance from the root (its SP mark), so a message is the goal
 *            set's size in words.
 *   plan-fp  the root, with every IN set, sends each out-arc its list OUT_p
 *            (the goals' pairs, farthest first); every other node, once the
 *            FP lists of all its in-arcs are in, sends its out-arcs theirs.
 *            An empty list is one word, -1.
 *
 * The words are real data: a node's mark and its own pair come from the
 * first SP mark it received, sets and lists are copied word by word from
 * the messages received (cost 0: the paper counts transmissions only).
 * Which word goes where, the part of the planning the ops cannot compute
 * (merging sets, balancing the lists), follows the offline plan; every
 * received word is expected to be the offline plan's, so the run's result
 * check says whether the messages delivered that plan. */
#include "traffic/scatter_plan.h"
#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PAIR_SHIFT 32     /* pair (j, d) = d * 2^32 + j */
#define EMPTY_LIST (-1)   /* the one word of an empty FP list */
#define MAX_SET_WORDS (INT64_C(1) << 26) /* all goal sets together, at most */

typedef struct builder {
    noc_program_t *p; /* NULL: only count */
    const noc_topo_t *t;
    const noc_scatter_plan_t *pl;
    int n, tag_sp, tag_pp, tag_fp;
    int *nb_start, *nb;       /* distinct neighbours of v in port order: nb[nb_start[v] .. nb_start[v + 1]) */
    int *in_sp;               /* per node: SP messages it receives */
    int *in_nb_start, *in_nb; /* the nodes that send them: in_nb[in_nb_start[v] .. in_nb_start[v + 1]) */
    int first_wins;           /* SP: the first mark from any source (else: from every predecessor) */
    int *arc_start, *head;    /* G(SP) arcs out of v: head[arc_start[v] .. arc_start[v + 1]) */
    int *tail;                /* per arc: the node it leaves */
    int *in_start, *in_arc;   /* G(SP) arcs into v: in_arc[in_start[v] .. in_start[v + 1]) */
    int64_t *set_off;         /* R_v: set[set_off[v] .. + set_len[v]), by decreasing distance, ties by number */
    int *set_len, *set;
    int *list_start, *list;   /* per arc: OUT list, list[list_start[a] .. list_start[a + 1]) */
    int *stamp, *arc_of, *pos_of; /* scratch per node */
    int32_t *next;            /* per node: next free word */
    int32_t *sp_addr, *d_addr, *mark_addr, *r_addr, *in_addr, *fpin_addr, *out_addr;
    uint32_t *recv0;          /* per node: the op after which d_addr holds its distance (d * 2^32) */
    uint32_t *pp_recv, *fp_recv, *scratch, *gate;
    int bad;                  /* a PE's memory overflowed */
    noc_scatter_plan_cost_t cost;
} builder_t;

static int *ints(int64_t n) { return noc_xcalloc((size_t)n + 1, sizeof(int), "scatter planning"); }
static int32_t *addrs(int64_t n) { return noc_xcalloc((size_t)n + 1, sizeof(int32_t), "scatter planning"); }

static int64_t pair(const builder_t *b, int j) { return ((int64_t)b->pl->dist[j] << PAIR_SHIFT) + j; }
static int list_len(const builder_t *b, int a) { return b->list_start[a + 1] - b->list_start[a]; }
static int list_words(const builder_t *b, int a) { return list_len(b, a) ? list_len(b, a) : 1; }

static void builder_free(builder_t *b)
{
    void *arrays[] = { b->nb_start, b->nb, b->in_sp, b->arc_start, b->head, b->in_start, b->in_arc, b->set_off,
                       b->set_len, b->set, b->list_start, b->list, b->stamp, b->arc_of, b->pos_of, b->next,
                       b->in_nb_start, b->in_nb, b->d_addr, b->sp_addr, b->mark_addr, b->r_addr, b->in_addr, b->fpin_addr, b->out_addr, b->recv0,
                       b->pp_recv, b->fp_recv, b->scratch, b->tail };
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        free(arrays[i]);
}

/* Distinct neighbours (SP's arcs) and the G(SP) arcs, out and in. */
static void build_arcs(builder_t *b)
{
    const noc_topo_t *t = b->t;
    int n = b->n, total = 0;
    for (int v = 0; v < n; v++)
        total += noc_topo_degree(t, v);
    b->nb_start = ints(n), b->nb = ints(total), b->in_sp = ints(n);
    b->arc_start = ints(n), b->head = ints(total), b->tail = ints(total), b->in_start = ints(n), b->in_arc = ints(total);
    int k = 0, m = 0;
    for (int v = 0; v < n; v++) {
        b->nb_start[v] = k, b->arc_start[v] = m;
        for (int p = 1; p <= noc_topo_degree(t, v); p++) {
            int w = noc_gen_neighbour(t, v, p);
            if (w < 0 || w == v || !noc_scatter_first_port(t, v, p, w))
                continue;
            b->nb[k++] = w;
            b->in_sp[w]++;
            if (b->pl->dist[w] == b->pl->dist[v] + 1) {
                b->tail[m] = v;
                b->head[m++] = w;
                b->in_start[w + 1]++;
            }
        }
    }
    b->nb_start[n] = k, b->arc_start[n] = m;
    b->in_nb_start = ints(n), b->in_nb = ints(k);
    for (int v = 0; v < n; v++)
        b->in_nb_start[v + 1] = b->in_nb_start[v] + b->in_sp[v];
    int *at = ints(n);
    for (int v = 0; v < n; v++)
        for (int i = b->nb_start[v]; i < b->nb_start[v + 1]; i++)
            b->in_nb[b->in_nb_start[b->nb[i]] + at[b->nb[i]]++] = v;
    free(at);
    for (int v = 0; v < n; v++)
        b->in_start[v + 1] += b->in_start[v];
    int *fill = ints(n);
    for (int v = 0; v < n; v++)
        for (int a = b->arc_start[v]; a < b->arc_start[v + 1]; a++)
            b->in_arc[b->in_start[b->head[a]] + fill[b->head[a]]++] = a;
    free(fill);
}

/* Decreasing distance, ties by number: the plan's fragment order. */
static int goal_cmp(const noc_scatter_plan_t *pl, int x, int y)
{
    if (pl->dist[x] != pl->dist[y])
        return pl->dist[x] > pl->dist[y] ? -1 : 1;
    return (x > y) - (x < y);
}
static int by_int(const void *x, const void *y)
{
    int a = *(const int *)x, b = *(const int *)y;
    return (a > b) - (a < b);
}

/* Sort goals s[0 .. len) in the plan's fragment order (by their rank). */
static void sort_goals(const noc_scatter_plan_t *pl, int *s, int len)
{
    for (int i = 0; i < len; i++)
        s[i] = pl->rank[s[i]];
    qsort(s, (size_t)len, sizeof(int), by_int);
    for (int i = 0; i < len; i++)
        s[i] = pl->frag[s[i]];
}

/* R_v = {v} and the sets of v's successors on G(SP), nodes farthest from
 * the root first (none for the root, which sends no PP). -1 if they grow
 * beyond MAX_SET_WORDS. */
static int build_sets(builder_t *b)
{
    int n = b->n;
    int64_t cap = n, used = 0;
    b->set_off = noc_xcalloc((size_t)n + 1, sizeof(int64_t), "scatter planning");
    b->set_len = ints(n), b->set = ints(cap), b->stamp = ints(n);
    for (int v = 0; v < n; v++)
        b->stamp[v] = -1;
    for (int i = n - 1; i >= 1; i--) { /* order[0] is the root */
        int v = b->pl->order[i];
        int64_t room = 1;
        for (int a = b->arc_start[v]; a < b->arc_start[v + 1]; a++)
            room += b->set_len[b->head[a]];
        if (used + room > MAX_SET_WORDS)
            return -1;
        if (used + room > cap) {
            cap = 2 * (used + room);
            b->set = noc_xrealloc(b->set, (size_t)cap * sizeof(int), "scatter planning");
        }
        int *s = &b->set[used], len = 0;
        s[len++] = v;
        b->stamp[v] = v;
        for (int a = b->arc_start[v]; a < b->arc_start[v + 1]; a++) {
            const int *r = &b->set[b->set_off[b->head[a]]];
            for (int k = 0; k < b->set_len[b->head[a]]; k++)
                if (b->stamp[r[k]] != v) {
                    b->stamp[r[k]] = v;
                    s[len++] = r[k];
                }
        }
        sort_goals(b->pl, s, len);
        b->set_off[v] = used, b->set_len[v] = len;
        used += len;
    }
    return 0;
}

/* Where x sits in R_v (it must be there). */
static int set_pos(const builder_t *b, int v, int x)
{
    const int *s = &b->set[b->set_off[v]];
    int lo = 0, hi = b->set_len[v] - 1;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (goal_cmp(b->pl, s[mid], x) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The arc from v to w on G(SP). */
static int arc_to(const builder_t *b, int v, int w)
{
    for (int a = b->arc_start[v]; a < b->arc_start[v + 1]; a++)
        if (b->head[a] == w)
            return a;
    return -1;
}

/* OUT lists of every arc: the fragments the plan sends over it, in the
 * plan's order (decreasing distance, ties by number). */
static void build_lists(builder_t *b)
{
    const noc_scatter_plan_t *pl = b->pl;
    int arcs = b->arc_start[b->n];
    b->list_start = ints(arcs + 1);
    for (int pass = 0; pass < 2; pass++) {
        int *fill = ints(arcs);
        for (int i = 0; i < pl->n - 1; i++) {
            int j = pl->frag[i];
            const int *h = &pl->hop[pl->path_start[j]];
            for (int k = 0; k < pl->dist[j]; k++) {
                int a = arc_to(b, h[k], h[k + 1]);
                if (pass)
                    b->list[b->list_start[a] + fill[a]] = j;
                fill[a]++;
            }
        }
        if (!pass) {
            for (int a = 0; a < arcs; a++)
                b->list_start[a + 1] = b->list_start[a] + fill[a];
            b->list = ints(b->list_start[arcs]);
        }
        free(fill);
    }
}

static int prepare(builder_t *b)
{
    b->n = b->pl->n;
    b->tag_sp = b->n, b->tag_pp = b->n + 1, b->tag_fp = b->n + 2;
    build_arcs(b);
    if (build_sets(b) != 0)
        return -1;
    build_lists(b);
    for (int v = 0; v < b->n; v++) {
        b->cost.messages[0] += b->in_sp[v];
        for (int a = b->arc_start[v]; a < b->arc_start[v + 1]; a++) {
            b->cost.messages[1]++;
            b->cost.words[1] += b->set_len[b->head[a]];
            b->cost.messages[2]++;
            b->cost.words[2] += list_words(b, a);
        }
    }
    b->cost.words[0] = b->cost.messages[0];
    return 0;
}

int noc_scatter_plan_count(const noc_topo_t *t, const noc_scatter_plan_t *pl, noc_scatter_plan_cost_t *cost)
{
    builder_t b;
    memset(&b, 0, sizeof b);
    b.t = t, b.pl = pl;
    int rc = prepare(&b);
    *cost = b.cost;
    builder_free(&b);
    return rc;
}

/* ---- the program ---- */

typedef struct run {
    int32_t dst, src;
    uint32_t len, dep;
} run_t;

/* v's next `words` words of memory (b->bad if they do not fit). */
static int32_t alloc_words(builder_t *b, int v, int64_t words)
{
    int32_t at = b->next[v];
    if ((int64_t)at + words > NOC_PROG_MAX_MEM) {
        b->bad = 1;
        return 0;
    }
    b->next[v] = at + (int32_t)words;
    return at;
}

/* A node's plan lies after what its loading uses: the root's array, or a
 * PE's own fragment and the ones it forwards (gen_scatter.c's slots). */
static void memory_bases(builder_t *b, const noc_gen_args_t *a)
{
    const noc_scatter_plan_t *pl = b->pl;
    b->next = addrs(b->n);
    for (int v = 0; v < b->n; v++)
        b->next[v] = a->words;
    b->next[pl->root] = b->n * a->words;
    for (int i = 0; i < pl->n - 1; i++) {
        int j = pl->frag[i];
        for (int k = 1; k < pl->dist[j]; k++)
            b->next[pl->hop[pl->path_start[j] + k]] += a->words;
    }
}

/* A local op of the planning: free (the paper counts transmissions). */
static uint32_t combine0(noc_program_t *p, int r, noc_op_kind_t kind, uint32_t words, int32_t dst, int32_t src)
{
    return noc_prog_combine_cost(p, r, kind, words, dst, src, 0);
}

/* Close run r: one copy at v, after r->dep, recorded in scratch[*k]. */
static void flush(builder_t *b, int v, run_t *r, int *k)
{
    if (!r->len)
        return;
    uint32_t op = combine0(b->p, v, NOC_OP_COPY, r->len, r->dst, r->src);
    noc_prog_dep(b->p, op, r->dep, 0);
    b->scratch[(*k)++] = op;
    r->len = 0;
}

/* Copy word src to dst at v once op dep has completed: the run goes on
 * if it continues it, else a new one starts. */
static void copy_word(builder_t *b, int v, run_t *r, int32_t dst, int32_t src, uint32_t dep, int *k)
{
    if (r->len && r->dst + (int32_t)r->len == dst && r->src + (int32_t)r->len == src && r->dep == dep) {
        r->len++;
        return;
    }
    flush(b, v, r, k);
    *r = (run_t){ dst, src, 1, dep };
}

/* The result check: v ends with the pairs of goals[0 .. count) at addr
 * (count 0: the empty list's word). */
static void expect_pairs(builder_t *b, int v, int32_t addr, const int *goals, int count)
{
    if (!count)
        noc_prog_expect(b->p, v, (uint32_t)addr, EMPTY_LIST);
    for (int k = 0; k < count; k++)
        noc_prog_expect(b->p, v, (uint32_t)(addr + k), pair(b, goals[k]));
}

static void deps_on(noc_program_t *p, uint32_t op, const uint32_t *on, int count)
{
    for (int k = 0; k < count; k++)
        noc_prog_dep(p, op, on[k], 0);
}

/* SP receives at v. First wins: any source, the first mark is v's
 * distance. Else one receive per sender, and v's distance is the least
 * mark of its predecessors on G(SP) (all equal), copied to d_addr. */
static void sp_receives(builder_t *b, int v)
{
    noc_program_t *p = b->p;
    uint32_t last = NOC_GEN_NONE;
    int dv = b->pl->dist[v];
    for (int k = 0; k < b->in_sp[v]; k++) {
        int u = b->in_nb[b->in_nb_start[v] + k];
        int32_t slot = b->sp_addr[v] + k;
        uint32_t rv = noc_prog_recv(p, v, b->first_wins ? NOC_PROG_ANY : u, b->tag_sp, 1, slot);
        if (b->first_wins) {
            if (k == 0)
                last = rv;
            continue;
        }
        noc_prog_expect(p, v, (uint32_t)slot, (int64_t)(b->pl->dist[u] + 1) << PAIR_SHIFT);
        if (b->pl->dist[u] != dv - 1)
            continue;
        uint32_t op = combine0(p, v, last == NOC_GEN_NONE ? NOC_OP_COPY : NOC_OP_MIN, 1, b->d_addr[v], slot);
        noc_prog_dep(p, op, rv, 0);
        if (last != NOC_GEN_NONE)
            noc_prog_dep(p, op, last, 0);
        last = op;
    }
    b->recv0[v] = last;
    if (v != b->pl->root) /* the first mark, or the least: the distance */
        noc_prog_expect(p, v, (uint32_t)b->d_addr[v], (int64_t)dv << PAIR_SHIFT);
}

/* SP: the mark d * 2^32, d from 1 at the root; every node sends its own
 * (its distance's mark plus one) on all its arcs. */
static void phase_sp(builder_t *b)
{
    noc_program_t *p = b->p;
    int root = b->pl->root;
    for (int v = 0; v < b->n; v++)
        noc_prog_step(p, v, "plan-sp");
    for (int v = 0; v < b->n; v++) {
        b->sp_addr[v] = alloc_words(b, v, b->in_sp[v]);
        b->d_addr[v] = b->first_wins ? b->sp_addr[v] : alloc_words(b, v, 1);
        b->mark_addr[v] = alloc_words(b, v, 1);
        b->r_addr[v] = v == root ? 0 : alloc_words(b, v, b->set_len[v]);
        noc_prog_init(p, v, (uint32_t)b->mark_addr[v], INT64_C(1) << PAIR_SHIFT);
        noc_prog_expect(p, v, (uint32_t)b->mark_addr[v], (int64_t)(b->pl->dist[v] + 1) << PAIR_SHIFT);
        sp_receives(b, v);
        uint32_t add = NOC_GEN_NONE;
        if (v != root) {
            add = combine0(p, v, NOC_OP_ADD, 1, b->mark_addr[v], b->d_addr[v]);
            noc_prog_dep(p, add, b->recv0[v], 0);
        }
        for (int k = b->nb_start[v]; k < b->nb_start[v + 1]; k++) {
            uint32_t sd = noc_prog_send(p, v, b->nb[k], b->tag_sp, 1, b->mark_addr[v]);
            if (add != NOC_GEN_NONE)
                noc_prog_dep(p, sd, add, 0);
        }
    }
}

/* PP at a node other than the root: its own pair (its SP mark plus its
 * number) after the union of its successors' sets, sent to every
 * predecessor once every set is in. */
static void pp_send(builder_t *b, int v)
{
    noc_program_t *p = b->p;
    const int *s = &b->set[b->set_off[v]];
    int len = b->set_len[v], k = 0;
    int32_t own = b->r_addr[v] + len - 1;
    noc_prog_init(p, v, (uint32_t)own, v);
    uint32_t add = combine0(p, v, NOC_OP_ADD, 1, own, b->d_addr[v]);
    noc_prog_dep(p, add, b->recv0[v], 0);
    run_t r = { 0, 0, 0, 0 };
    for (int m = 0; m < len - 1; m++) /* s[len - 1] is v, the nearest */
        for (int a = b->arc_start[v]; a < b->arc_start[v + 1]; a++) {
            int w = b->head[a], pos = set_pos(b, w, s[m]);
            if (pos < b->set_len[w] && b->set[b->set_off[w] + pos] == s[m]) {
                copy_word(b, v, &r, b->r_addr[v] + m, b->in_addr[a] + pos, b->pp_recv[a], &k);
                break;
            }
        }
    flush(b, v, &r, &k);
    expect_pairs(b, v, b->r_addr[v], s, len);
    for (int i = b->in_start[v]; i < b->in_start[v + 1]; i++) {
        uint32_t sd = noc_prog_send(p, v, b->tail[b->in_arc[i]], b->tag_pp, (uint32_t)len, b->r_addr[v]);
        noc_prog_dep(p, sd, add, 0);
        deps_on(p, sd, b->scratch, k);
    }
}

/* PP: every node receives the set of each successor on G(SP). */
static void phase_pp(builder_t *b)
{
    noc_program_t *p = b->p;
    for (int v = 0; v < b->n; v++)
        noc_prog_step(p, v, "plan-pp");
    for (int v = 0; v < b->n; v++) {
        for (int a = b->arc_start[v]; a < b->arc_start[v + 1]; a++) {
            int w = b->head[a];
            b->in_addr[a] = alloc_words(b, v, b->set_len[w]);
            b->pp_recv[a] = noc_prog_recv(p, v, w, b->tag_pp, (uint32_t)b->set_len[w], b->in_addr[a]);
            expect_pairs(b, v, b->in_addr[a], &b->set[b->set_off[w]], b->set_len[w]);
        }
        if (v != b->pl->root)
            pp_send(b, v);
    }
}

/* FP at v: the list of every out-arc, copied from the IN sets (the root)
 * or from the FP lists that came in, sent once `ready` (every PP set at
 * the root, every FP list elsewhere) is in. */
static void fp_sends(builder_t *b, int v, const uint32_t *ready, int n_ready)
{
    noc_program_t *p = b->p;
    for (int a = b->arc_start[v]; a < b->arc_start[v + 1]; a++) {
        int w = b->head[a], len = list_len(b, a), k = 0;
        const int *l = &b->list[b->list_start[a]];
        b->out_addr[a] = alloc_words(b, v, list_words(b, a));
        if (!len)
            noc_prog_init(p, v, (uint32_t)b->out_addr[a], EMPTY_LIST);
        run_t r = { 0, 0, 0, 0 };
        for (int i = 0; i < len; i++) {
            int x = l[i];
            if (v == b->pl->root)
                copy_word(b, v, &r, b->out_addr[a] + i, b->in_addr[a] + set_pos(b, w, x), b->pp_recv[a], &k);
            else
                copy_word(b, v, &r, b->out_addr[a] + i, b->fpin_addr[b->arc_of[x]] + b->pos_of[x],
                          b->fp_recv[b->arc_of[x]], &k);
        }
        flush(b, v, &r, &k);
        expect_pairs(b, v, b->out_addr[a], l, len);
        uint32_t sd = noc_prog_send(p, v, w, b->tag_fp, (uint32_t)list_words(b, a), b->out_addr[a]);
        deps_on(p, sd, b->scratch, k);
        deps_on(p, sd, ready, n_ready);
        b->gate[v] = sd;
    }
}

/* FP: the lists travel down G(SP), node after node. */
static void phase_fp(builder_t *b)
{
    noc_program_t *p = b->p;
    int root = b->pl->root;
    for (int v = 0; v < b->n; v++)
        noc_prog_step(p, v, "plan-fp");
    for (int v = 0; v < b->n; v++) {
        if (v == root) {
            int first = b->arc_start[v];
            fp_sends(b, v, &b->pp_recv[first], b->arc_start[v + 1] - first);
            continue;
        }
        uint32_t *ready = noc_xcalloc((size_t)(b->in_start[v + 1] - b->in_start[v]) + 1, sizeof(uint32_t), "plan");
        int n_ready = 0;
        for (int i = b->in_start[v]; i < b->in_start[v + 1]; i++) {
            int a = b->in_arc[i], len = list_len(b, a);
            const int *l = &b->list[b->list_start[a]];
            b->fpin_addr[a] = alloc_words(b, v, list_words(b, a));
            b->fp_recv[a] = noc_prog_recv(p, v, b->tail[a], b->tag_fp, (uint32_t)list_words(b, a), b->fpin_addr[a]);
            ready[n_ready++] = b->fp_recv[a];
            expect_pairs(b, v, b->fpin_addr[a], l, len);
            for (int k = 0; k < len; k++)
                b->arc_of[l[k]] = a, b->pos_of[l[k]] = k;
        }
        fp_sends(b, v, ready, n_ready);
        free(ready);
    }
}

int noc_scatter_plan_phases(noc_program_t *p, const noc_topo_t *t, const noc_scatter_plan_t *pl,
                            const noc_gen_args_t *a, int first_wins, noc_scatter_gates_t *gates,
                            noc_scatter_plan_cost_t *cost, char *err, size_t errlen)
{
    builder_t b;
    memset(&b, 0, sizeof b);
    b.p = p, b.t = t, b.pl = pl, b.first_wins = first_wins;
    gates->op = NULL;
    if (prepare(&b) != 0) {
        snprintf(err, errlen, "scatter: the goal sets of variant tarkov-planned on %s need more than %lld words",
                 noc_topo_spec(t), (long long)MAX_SET_WORDS);
        builder_free(&b);
        return -1;
    }
    int n = b.n, arcs = b.arc_start[n];
    b.sp_addr = addrs(n), b.d_addr = addrs(n), b.mark_addr = addrs(n), b.r_addr = addrs(n);
    b.in_addr = addrs(arcs), b.fpin_addr = addrs(arcs), b.out_addr = addrs(arcs);
    b.recv0 = noc_xcalloc((size_t)n + 1, sizeof(uint32_t), "plan");
    b.pp_recv = noc_xcalloc((size_t)arcs + 1, sizeof(uint32_t), "plan");
    b.fp_recv = noc_xcalloc((size_t)arcs + 1, sizeof(uint32_t), "plan");
    b.scratch = noc_xcalloc((size_t)n + 1, sizeof(uint32_t), "plan");
    b.gate = noc_xcalloc((size_t)n + 1, sizeof(uint32_t), "plan");
    b.arc_of = ints(n), b.pos_of = ints(n);
    for (int v = 0; v < n; v++)
        b.gate[v] = NOC_GEN_NONE;
    memory_bases(&b, a);
    phase_sp(&b);
    phase_pp(&b);
    phase_fp(&b);
    for (int v = 0; v < n; v++)
        noc_prog_step(p, v, "scatter");
    int bad = b.bad;
    if (bad)
        snprintf(err, errlen, "scatter: the plan of variant tarkov-planned does not fit a PE's memory on %s "
                 "(%d words at most)", noc_topo_spec(t), NOC_PROG_MAX_MEM);
    if (cost)
        *cost = b.cost;
    gates->op = b.gate;
    builder_free(&b);
    return bad ? -1 : 0;
}
