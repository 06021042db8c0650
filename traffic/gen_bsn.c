/* gen_bsn.c: Wei and Xiao's basic communication algorithms on the
 * biswapped network Σ(Ω) (ICCS 2008, section 3): broadcast (Table 1, four
 * steps), prefix sum (Table 2, eight steps), data sum (Table 3, five steps),
 * made of the group steps of gen_group.c through the dataflow builder of
 * gen_flow.c.
 *
 * Node <g,p,c> is rank c·n² + g·n + p (n = |Ω|), group g of part c is the
 * ranks c·n² + g·n + q, its swap link goes to <p,g,1-c>. Combine ops cost
 * nothing (the paper counts moves only). docs/algorithms/bsn.md gives the
 * steps, how the extracted formulas read, and the measured cycles. */
#include "traffic/gen_flow_internal.h"
#include <stdio.h>
#include <string.h>

static int node(int n, int c, int g, int p) { return c * n * n + g * n + p; }

/* The swap partner of rank v: <g,p,c> - <p,g,1-c>. */
static int swap_of(int n, int v)
{
    int c = v / (n * n), g = (v % (n * n)) / n, p = v % n;
    return node(n, 1 - c, p, g);
}

static int check(const noc_topo_t *t, const noc_gen_args_t *a, const char *prog, char *err,
                 size_t errlen)
{
    if (!noc_gen_is(t, "bsn") || !noc_topo_basis(t)) {
        snprintf(err, errlen, "%s: this is the BSN algorithm of Wei and Xiao; %s is not a bsn:BASIS "
                              "fabric",
                 prog, noc_topo_spec(t));
        return -1;
    }
    if (a->words < 1) {
        snprintf(err, errlen, "%s: --words %d: a PE needs at least 1 word", prog, a->words);
        return -1;
    }
    return 0;
}

/* Every PE's words at 0 (from --seed), and the program with its steps. */
static noc_program_t *start(const noc_topo_t *t, const noc_gen_args_t *a, const char *name,
                            const char *const *steps)
{
    noc_program_t *p = noc_prog_new(noc_topo_nodes(t), name);
    for (int v = 0; v < noc_topo_nodes(t); v++)
        for (int k = 0; k < a->words; k++)
            noc_prog_init(p, v, (uint32_t)k, noc_gen_value(a->seed, v, k));
    for (; *steps; steps++)
        noc_prog_declare_step(p, *steps);
    return p;
}

/* A broadcast from the root u = <g0,p0,c0> (c1 = 1 - c0), and Ω's BFS
 * trees from p0 and from g0. */
typedef struct bcast {
    int n, c0, g0, p0, c1;
    noc_gen_tree_t tp, tg;
} bcast_t;

/* Steps 1 and 2: u to v = <p0,g0,c1>; u over its group, v over its own. */
static void bcast_in(noc_gen_flow_t *f, const bcast_t *b, const char *const *steps)
{
    int n = b->n, u = node(n, b->c0, b->g0, b->p0);
    noc_gen_flow_step(f, steps[0]);
    int32_t tag = noc_gen_flow_tags(f, 1);
    noc_gen_flow_send(f, u, swap_of(n, u), tag, 0);
    noc_gen_flow_recv(f, swap_of(n, u), u, tag, 0);
    noc_gen_flow_step(f, steps[1]);
    noc_gen_group_bcast(f, &b->tp, node(n, b->c0, b->g0, 0), 0);
    noc_gen_group_bcast(f, &b->tg, node(n, b->c1, b->p0, 0), 0);
}

/* Steps 3 and 4: those two groups out over their swap links (reaching
 * processor p0 of every group of part c0 and g0 of every group of part
 * c1), then over every other group from there. */
static void bcast_out(noc_gen_flow_t *f, const bcast_t *b, const char *const *steps)
{
    int n = b->n;
    noc_gen_flow_step(f, steps[2]);
    int32_t tag = noc_gen_flow_tags(f, 1);
    for (int q = 0; q < n; q++) {
        int from[2] = { q != b->p0 ? node(n, b->c0, b->g0, q) : -1,
                        q != b->g0 ? node(n, b->c1, b->p0, q) : -1 };
        for (int i = 0; i < 2; i++)
            if (from[i] >= 0) {
                noc_gen_flow_send(f, from[i], swap_of(n, from[i]), tag, 0);
                noc_gen_flow_recv(f, swap_of(n, from[i]), from[i], tag, 0);
            }
    }
    noc_gen_flow_step(f, steps[3]);
    for (int g = 0; g < n; g++) {
        if (g != b->g0)
            noc_gen_group_bcast(f, &b->tp, node(n, b->c0, g, 0), 0);
        if (g != b->p0)
            noc_gen_group_bcast(f, &b->tg, node(n, b->c1, g, 0), 0);
    }
}

noc_program_t *noc_gen_bsn_broadcast(const noc_topo_t *t, const noc_gen_args_t *a, char *err,
                                     size_t errlen)
{
    static const char *const steps[] = { "1:swap", "2:group-bcast", "3:swap", "4:group-bcast",
                                         NULL };
    if (check(t, a, "broadcast", err, errlen) != 0)
        return NULL;
    if (a->root < 0 || a->root >= noc_topo_nodes(t)) {
        snprintf(err, errlen, "broadcast: root %d is not a node of %s (0 .. %d)", a->root,
                 noc_topo_spec(t), noc_topo_nodes(t) - 1);
        return NULL;
    }
    const noc_topo_t *o = noc_topo_basis(t);
    bcast_t b;
    b.n = noc_topo_nodes(o);
    b.c0 = a->root / (b.n * b.n);
    b.g0 = (a->root % (b.n * b.n)) / b.n;
    b.p0 = a->root % b.n;
    b.c1 = 1 - b.c0;
    noc_program_t *p = noc_prog_new(noc_topo_nodes(t), "bsn-broadcast");
    for (int k = 0; k < a->words; k++) {
        int64_t x = noc_gen_value(a->seed, a->root, k);
        noc_prog_init(p, a->root, (uint32_t)k, x);
        for (int v = 0; v < noc_topo_nodes(t); v++)
            noc_prog_expect(p, v, (uint32_t)k, x);
    }
    for (int i = 0; steps[i]; i++)
        noc_prog_declare_step(p, steps[i]);
    noc_gen_flow_t *f = noc_gen_flow_new(p, (uint32_t)a->words, o);
    noc_gen_tree_bfs(o, b.p0, &b.tp);
    noc_gen_tree_bfs(o, b.g0, &b.tg);
    bcast_in(f, &b, steps);
    bcast_out(f, &b, steps);
    noc_gen_tree_free(&b.tp);
    noc_gen_tree_free(&b.tg);
    noc_gen_flow_done(f);
    return noc_gen_finish(p, err, errlen);
}

/* Every PE sends slot s to its swap partner, which receives it into d. */
static void swap_all(noc_gen_flow_t *f, int n, int s, int d)
{
    int32_t tag = noc_gen_flow_tags(f, 1);
    for (int v = 0; v < f->n_nodes; v++) {
        noc_gen_flow_send(f, v, swap_of(n, v), tag, s);
        noc_gen_flow_recv(f, v, swap_of(n, v), tag, d);
    }
}

noc_program_t *noc_gen_bsn_data_sum(const noc_topo_t *t, const noc_gen_args_t *a, char *err,
                                    size_t errlen)
{
    static const char *const steps[] = { "1:group-sum", "2:swap", "3:group-sum", "4:swap",
                                         "5:add", NULL };
    if (check(t, a, "data-sum", err, errlen) != 0)
        return NULL;
    const noc_topo_t *o = noc_topo_basis(t);
    int n = noc_topo_nodes(o);
    noc_program_t *p = start(t, a, "bsn-data-sum", steps);
    for (int k = 0; k < a->words; k++) {
        int64_t sum = 0;
        for (int v = 0; v < noc_topo_nodes(t); v++)
            sum += noc_gen_value(a->seed, v, k);
        for (int v = 0; v < noc_topo_nodes(t); v++)
            noc_prog_expect(p, v, (uint32_t)k, sum);
    }
    noc_gen_flow_t *f = noc_gen_flow_new(p, (uint32_t)a->words, o);
    int s1 = noc_gen_flow_slot(f), s2 = noc_gen_flow_slot(f), s3 = noc_gen_flow_slot(f),
        s4 = noc_gen_flow_slot(f);

    noc_gen_flow_step(f, steps[0]); /* s1: the sum of my group */
    for (int grp = 0; grp < 2 * n; grp++)
        noc_gen_group_allreduce(f, o, grp * n, 0, s1);
    noc_gen_flow_step(f, steps[1]); /* s2: the sum of my swap partner's group */
    swap_all(f, n, s1, s2);
    noc_gen_flow_step(f, steps[2]); /* s3: the sum of the other part */
    for (int grp = 0; grp < 2 * n; grp++)
        noc_gen_group_allreduce(f, o, grp * n, s2, s3);
    noc_gen_flow_step(f, steps[3]); /* s4: the sum of my own part */
    swap_all(f, n, s3, s4);
    noc_gen_flow_step(f, steps[4]);
    /* the paper counts Step 5's sum as a third group data sum (Table 4:
     * 5 on a complete basis, 3n - 1 on an array of n, 6m - 4 on an m x m
     * mesh: 3 group sums + 2 swaps); variant paper charges the local
     * addition that long, the group sum's steps */
    int paper = a->variant && strcmp(a->variant, "paper") == 0 ? noc_gen_group_allreduce_steps(o) : 0;
    for (int v = 0; v < noc_topo_nodes(t); v++) {
        noc_gen_flow_op(f, v, NOC_OP_COPY, 0, s3);
        noc_gen_flow_op_cost(f, v, NOC_OP_ADD, 0, s4, paper);
    }
    noc_gen_flow_done(f);
    return noc_gen_finish(p, err, errlen);
}

/* The prefix sum's slots: local prefix, the group totals received (A),
 * the modified (exclusive) prefix of A (E), what step 4 brings, the part-0
 * total, SD for the part-1 groups, and SD received. */
typedef struct prefix_slots {
    int ls, a, e, r4, x, sdn, sd;
} prefix_slots_t;

/* Steps 2 to 4 (Table 2): the group totals to the groups n-1 (part 0)
 * and 2n-1 (part 1, g = n-1 there), their modified prefix sums, and the
 * swap between their processors n-1. */
static void prefix_totals(noc_gen_flow_t *f, const noc_topo_t *o, const prefix_slots_t *s,
                          const char *const *steps)
{
    int n = noc_topo_nodes(o), last = n - 1;
    noc_gen_flow_step(f, steps[1]); /* totals: part 0 to group 2n-1, part 1 to group n-1 */
    int32_t tag = noc_gen_flow_tags(f, 1);
    for (int g = 0; g < n; g++)
        for (int c = 0; c < 2; c++) {
            int v = node(n, c, g, last);
            if (c == 1 && g == last)
                continue;
            noc_gen_flow_send(f, v, swap_of(n, v), tag, s->ls);
            noc_gen_flow_recv(f, swap_of(n, v), v, tag, s->a);
        }
    noc_gen_flow_step(f, steps[2]); /* modified prefix sums of A */
    noc_gen_group_prefix(f, o, node(n, 0, last, 0), s->a, -1, s->e);
    noc_gen_group_prefix(f, o, node(n, 1, last, 0), s->a, -1, s->e);
    noc_gen_flow_step(f, steps[3]); /* processors n-1 of groups n-1 and 2n-1 swap them */
    int u = node(n, 0, last, last), w = node(n, 1, last, last);
    tag = noc_gen_flow_tags(f, 1);
    noc_gen_flow_send(f, u, w, tag, s->e);
    noc_gen_flow_send(f, w, u, tag, s->e);
    noc_gen_flow_recv(f, u, w, tag, s->r4);
    noc_gen_flow_recv(f, w, u, tag, s->r4);
}

/* Steps 5 and 6: the part-0 total over group n-1, plus E there: the SD of
 * every part-1 group; then SD to processor n-1 of every group. */
static void prefix_offsets(noc_gen_flow_t *f, const noc_topo_t *o, const prefix_slots_t *s,
                           const char *const *steps)
{
    int n = noc_topo_nodes(o), last = n - 1, u = node(n, 0, last, last);
    noc_gen_flow_step(f, steps[4]);
    noc_gen_flow_op(f, u, NOC_OP_COPY, s->x, s->r4);
    noc_gen_flow_op(f, u, NOC_OP_ADD, s->x, s->ls);
    noc_gen_tree_t tr;
    noc_gen_tree_bfs(o, last, &tr);
    noc_gen_group_bcast(f, &tr, node(n, 0, last, 0), s->x);
    noc_gen_tree_free(&tr);
    for (int q = 0; q < n; q++) {
        noc_gen_flow_op(f, node(n, 0, last, q), NOC_OP_COPY, s->sdn, s->x);
        noc_gen_flow_op(f, node(n, 0, last, q), NOC_OP_ADD, s->sdn, s->e);
    }
    noc_gen_flow_step(f, steps[5]);
    int32_t tag = noc_gen_flow_tags(f, 1);
    for (int q = 0; q < n; q++) {
        int from[2] = { node(n, 0, last, q), node(n, 1, last, q) };
        int what[2] = { s->sdn, s->e };
        for (int i = 0; i < 2; i++) {
            noc_gen_flow_send(f, from[i], swap_of(n, from[i]), tag, what[i]);
            noc_gen_flow_recv(f, swap_of(n, from[i]), from[i], tag, s->sd);
        }
    }
}

noc_program_t *noc_gen_bsn_prefix_sum(const noc_topo_t *t, const noc_gen_args_t *a, char *err,
                                      size_t errlen)
{
    static const char *const steps[] = { "1:local-prefix", "2:totals", "3:group-prefix",
                                         "4:swap", "5:part0-total", "6:offsets",
                                         "7:group-bcast", "8:add", NULL };
    char why[256];
    if (check(t, a, "prefix-sum", err, errlen) != 0)
        return NULL;
    const noc_topo_t *o = noc_topo_basis(t);
    if (noc_gen_group_prefix_ok(o, why, sizeof why) != 0) {
        snprintf(err, errlen, "prefix-sum on %s: %s", noc_topo_spec(t), why);
        return NULL;
    }
    int n = noc_topo_nodes(o);
    noc_program_t *p = start(t, a, "bsn-prefix-sum", steps);
    for (int k = 0; k < a->words; k++) {
        int64_t sum = 0; /* in node order, which is the paper's */
        for (int v = 0; v < noc_topo_nodes(t); v++) {
            sum += noc_gen_value(a->seed, v, k);
            noc_prog_expect(p, v, (uint32_t)k, sum);
        }
    }
    noc_gen_flow_t *f = noc_gen_flow_new(p, (uint32_t)a->words, o);
    prefix_slots_t s;
    s.ls = noc_gen_flow_slot(f);
    s.a = noc_gen_flow_slot(f);
    s.e = noc_gen_flow_slot(f);
    s.r4 = noc_gen_flow_slot(f);
    s.x = noc_gen_flow_slot(f);
    s.sdn = noc_gen_flow_slot(f);
    s.sd = noc_gen_flow_slot(f);

    noc_gen_flow_step(f, steps[0]);
    for (int grp = 0; grp < 2 * n; grp++)
        noc_gen_group_prefix(f, o, grp * n, 0, s.ls, -1);
    prefix_totals(f, o, &s, steps);
    prefix_offsets(f, o, &s, steps);
    noc_gen_flow_step(f, steps[6]); /* SD from processor n-1 over each group */
    noc_gen_tree_t tr;
    noc_gen_tree_bfs(o, n - 1, &tr);
    for (int grp = 0; grp < 2 * n; grp++)
        noc_gen_group_bcast(f, &tr, grp * n, s.sd);
    noc_gen_tree_free(&tr);
    noc_gen_flow_step(f, steps[7]); /* PS = SD + LS */
    for (int v = 0; v < noc_topo_nodes(t); v++) {
        noc_gen_flow_op(f, v, NOC_OP_COPY, 0, s.ls);
        noc_gen_flow_op(f, v, NOC_OP_ADD, 0, s.sd);
    }
    noc_gen_flow_done(f);
    return noc_gen_finish(p, err, errlen);
}
