/* gen_otis.c: broadcast and data sum on the OTIS (swapped) network OTIS(Ω),
 * the fabric Wei and Xiao compare the BSN with (ICCS 2008, Table 4, after
 * Wang and Sahni's OTIS-Mesh algorithms): each works within the groups,
 * across the transpose (optical) links, and within the groups again.
 *
 * Node (g,p) is rank g·n + p (n = |Ω|); its transpose link goes to (p,g),
 * and (g,g) has none. Built from the group steps of gen_group.c
 * (gen_fabric.h); combine ops cost nothing. docs/algorithms/bsn.md has the
 * steps and the measured cycles. */
#include "traffic/gen_fabric.h"
#include <stdio.h>

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
