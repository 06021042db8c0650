/* gen_otis.c: broadcast, data sum and prefix sum on the OTIS (swapped)
 * network OTIS(Ω),
 * the fabric Wei and Xiao compare the BSN with (ICCS 2008, Table 4, after
 * Wang and Sahni's OTIS-Mesh algorithms): each works within the groups,
 * across the transpose (optical) links, and within the groups again.
 *
 * Node (g,p) is rank g·n + p (n = |Ω|); its transpose link goes to (p,g),
 * and (g,g) has none. The prefix sum is Wei and Xiao's BSN prefix sum
 * (Table 2) on OTIS's one part: its steps 4 and 5, which join the BSN's two
 * parts, fall away. Built from the group steps of gen_group.c
 * (gen_fabric.h); combine ops cost nothing. docs/algorithms/bsn.md has the
 * steps and the measured cycles. */
#include "traffic/gen_fabric.h"
#include <stdio.h>
#include <stdlib.h>

static int check(const noc_topo_t *t, const noc_gen_args_t *a, const char *prog, char *err,
                 size_t errlen)
{
    if (!noc_gen_is(t, "otis") || !noc_topo_basis(t)) {
        snprintf(err, errlen, "%s: this is the OTIS algorithm; %s is not an otis:BASIS fabric",
                 prog, noc_topo_spec(t));
        return -1;
    }
    if (a->words < 1) {
        snprintf(err, errlen, "%s: --words %d: a PE needs at least 1 word", prog, a->words);
        return -1;
    }
    return 0;
}

/* Broadcast from (g0,p0): 1, over group g0 from p0; 2, group g0 over its
 * transpose links, so processor g0 of every other group has the words; 3,
 * over every other group from processor g0. */
noc_program_t *noc_gen_otis_broadcast(const noc_topo_t *t, const noc_gen_args_t *a, char *err,
                                      size_t errlen)
{
    static const char *const steps[] = { "1:group-bcast", "2:transpose", "3:group-bcast", NULL };
    if (check(t, a, "broadcast", err, errlen) != 0)
        return NULL;
    if (a->root < 0 || a->root >= noc_topo_nodes(t)) {
        snprintf(err, errlen, "broadcast: root %d is not a node of %s (0 .. %d)", a->root,
                 noc_topo_spec(t), noc_topo_nodes(t) - 1);
        return NULL;
    }
    const noc_topo_t *o = noc_topo_basis(t);
    int n = noc_topo_nodes(o), g0 = a->root / n, p0 = a->root % n;
    noc_program_t *p = noc_prog_new(noc_topo_nodes(t), "otis-broadcast");
    for (int k = 0; k < a->words; k++) {
        int64_t x = noc_gen_value(a->seed, a->root, k);
        noc_prog_init(p, a->root, (uint32_t)k, x);
        for (int v = 0; v < noc_topo_nodes(t); v++)
            noc_prog_expect(p, v, (uint32_t)k, x);
    }
    for (int i = 0; steps[i]; i++)
        noc_prog_declare_step(p, steps[i]);
    noc_gen_flow_t *f = noc_gen_flow_new(p, (uint32_t)a->words, o);
    noc_gen_tree_t tr;

    noc_gen_flow_step(f, steps[0]);
    noc_gen_tree_bfs(o, p0, &tr);
    noc_gen_group_bcast(f, &tr, g0 * n, 0);
    noc_gen_tree_free(&tr);

    noc_gen_flow_step(f, steps[1]);
    int32_t tag = noc_gen_flow_tags(f, 1);
    for (int q = 0; q < n; q++)
        if (q != g0) {
            noc_gen_flow_send(f, g0 * n + q, q * n + g0, tag, 0);
            noc_gen_flow_recv(f, q * n + g0, g0 * n + q, tag, 0);
        }

    noc_gen_flow_step(f, steps[2]);
    noc_gen_tree_bfs(o, g0, &tr);
    for (int g = 0; g < n; g++)
        if (g != g0)
            noc_gen_group_bcast(f, &tr, g * n, 0);
    noc_gen_tree_free(&tr);
    noc_gen_flow_done(f);
    return noc_gen_finish(p, err, errlen);
}

/* Data sum: 1, every group sums its words (every processor gets the group
 * sum); 2, (g,p) sends it to (p,g), and (g,g) keeps its own, so processor
 * g of group p holds group g's sum; 3, every group sums those. */
noc_program_t *noc_gen_otis_data_sum(const noc_topo_t *t, const noc_gen_args_t *a, char *err,
                                     size_t errlen)
{
    static const char *const steps[] = { "1:group-sum", "2:transpose", "3:group-sum", NULL };
    if (check(t, a, "data-sum", err, errlen) != 0)
        return NULL;
    const noc_topo_t *o = noc_topo_basis(t);
    int n = noc_topo_nodes(o);
    noc_program_t *p = noc_prog_new(noc_topo_nodes(t), "otis-data-sum");
    for (int k = 0; k < a->words; k++) {
        int64_t sum = 0;
        for (int v = 0; v < noc_topo_nodes(t); v++) {
            noc_prog_init(p, v, (uint32_t)k, noc_gen_value(a->seed, v, k));
            sum += noc_gen_value(a->seed, v, k);
        }
        for (int v = 0; v < noc_topo_nodes(t); v++)
            noc_prog_expect(p, v, (uint32_t)k, sum);
    }
    for (int i = 0; steps[i]; i++)
        noc_prog_declare_step(p, steps[i]);
    noc_gen_flow_t *f = noc_gen_flow_new(p, (uint32_t)a->words, o);
    int s1 = noc_gen_flow_slot(f), r = noc_gen_flow_slot(f);
    noc_gen_flow_step(f, steps[0]);
    for (int g = 0; g < n; g++)
        noc_gen_group_allreduce(f, o, g * n, 0, s1);

    noc_gen_flow_step(f, steps[1]);
    int32_t tag = noc_gen_flow_tags(f, 1);
    for (int g = 0; g < n; g++)
        for (int q = 0; q < n; q++) {
            int v = g * n + q;
            if (g == q) {
                noc_gen_flow_op(f, v, NOC_OP_COPY, r, s1);
            } else {
                noc_gen_flow_send(f, v, q * n + g, tag, s1);
                noc_gen_flow_recv(f, v, q * n + g, tag, r);
            }
        }

    noc_gen_flow_step(f, steps[2]);
    for (int g = 0; g < n; g++)
        noc_gen_group_allreduce(f, o, g * n, r, 0);
    noc_gen_flow_done(f);
    return noc_gen_finish(p, err, errlen);
}

/* Prefix sum in node order (rank g·n + p), Wei and Xiao's Table 2 on one
 * part: 1, every group's local prefix sums (processor n-1 ends with the
 * group total T_g); 2, (g,n-1) sends T_g over its transpose link to
 * (n-1,g), so group n-1 holds T_0 .. T_{n-1} in processor order ((n-1,n-1)
 * keeps its own); 3, group n-1's modified (exclusive) prefix sum of them,
 * E_g = T_0 + ... + T_{g-1} at (n-1,g); 4, back over the transpose links to
 * (g,n-1); 5, over group g from processor n-1; 6, each PE adds E_g to its
 * local prefix. Steps prefix(Ω) + 1 + prefix(Ω) + 1 + ecc_Ω(n-1):
 * 6m - 4 on an m x m mesh basis, within Table 4's 8m - 6. */
noc_program_t *noc_gen_otis_prefix_sum(const noc_topo_t *t, const noc_gen_args_t *a, char *err,
                                       size_t errlen)
{
    static const char *const steps[] = { "1:local-prefix", "2:totals", "3:group-prefix",
                                         "4:offsets", "5:group-bcast", "6:add", NULL };
    char why[256];
    if (check(t, a, "prefix-sum", err, errlen) != 0)
        return NULL;
    const noc_topo_t *o = noc_topo_basis(t);
    if (noc_gen_group_prefix_ok(o, why, sizeof why) != 0) {
        snprintf(err, errlen, "prefix-sum on %s: %s", noc_topo_spec(t), why);
        return NULL;
    }
    int n = noc_topo_nodes(o), last = n - 1;
    noc_program_t *p = noc_prog_new(noc_topo_nodes(t), "otis-prefix-sum");
    for (int k = 0; k < a->words; k++) {
        int64_t sum = 0;
        for (int v = 0; v < noc_topo_nodes(t); v++) {
            noc_prog_init(p, v, (uint32_t)k, noc_gen_value(a->seed, v, k));
            sum += noc_gen_value(a->seed, v, k);
            noc_prog_expect(p, v, (uint32_t)k, sum);
        }
    }
    for (int i = 0; steps[i]; i++)
        noc_prog_declare_step(p, steps[i]);
    noc_gen_flow_t *f = noc_gen_flow_new(p, (uint32_t)a->words, o);
    int ls = noc_gen_flow_slot(f), tot = noc_gen_flow_slot(f), e = noc_gen_flow_slot(f),
        sd = noc_gen_flow_slot(f);

    noc_gen_flow_step(f, steps[0]);
    for (int g = 0; g < n; g++)
        noc_gen_group_prefix(f, o, g * n, 0, ls, -1);
    noc_gen_flow_step(f, steps[1]); /* T_g from (g,n-1) to (n-1,g) */
    int32_t tag = noc_gen_flow_tags(f, 1);
    for (int g = 0; g < n; g++) {
        int v = g * n + last, u = last * n + g;
        if (g == last) {
            noc_gen_flow_op(f, v, NOC_OP_COPY, tot, ls);
        } else {
            noc_gen_flow_send(f, v, u, tag, ls);
            noc_gen_flow_recv(f, u, v, tag, tot);
        }
    }
    noc_gen_flow_step(f, steps[2]);
    noc_gen_group_prefix(f, o, last * n, tot, -1, e);
    noc_gen_flow_step(f, steps[3]); /* E_g from (n-1,g) back to (g,n-1) */
    tag = noc_gen_flow_tags(f, 1);
    for (int g = 0; g < n; g++) {
        int v = g * n + last, u = last * n + g;
        if (g == last) {
            noc_gen_flow_op(f, v, NOC_OP_COPY, sd, e);
        } else {
            noc_gen_flow_send(f, u, v, tag, e);
            noc_gen_flow_recv(f, v, u, tag, sd);
        }
    }
    noc_gen_flow_step(f, steps[4]);
    noc_gen_tree_t tr;
    noc_gen_tree_bfs(o, last, &tr);
    for (int g = 0; g < n; g++)
        noc_gen_group_bcast(f, &tr, g * n, sd);
    noc_gen_tree_free(&tr);
    noc_gen_flow_step(f, steps[5]); /* the local prefix plus E_g */
    for (int v = 0; v < noc_topo_nodes(t); v++) {
        noc_gen_flow_op(f, v, NOC_OP_COPY, 0, ls);
        noc_gen_flow_op(f, v, NOC_OP_ADD, 0, sd);
    }
    noc_gen_flow_done(f);
    return noc_gen_finish(p, err, errlen);
}
