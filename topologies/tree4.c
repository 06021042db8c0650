/* tree4.c: BookSim2's tree4 (networks/tree4.cpp, k = 4 and n = 3 only),
 * the SPEC tree4, with its nca routing (routefunc.cpp, tree4_nca);
 * docs/fabrics/trees.md.
 *
 * 64 terminals on 16 leaves (level 2), 4 each; 8 middle routers (level 1)
 * in 4 groups of 2, group g serving leaves 4g .. 4g+3, each of those
 * leaves linked to both routers of its group; 4 roots (level 0), each
 * linked to all 8 middle routers. Router (h, pos) is number 0 + pos for
 * the roots, 4 + pos for the middle routers, 12 + pos for the leaves
 * (BookSim2's _Router); BookSim2's routing reads the id h * 16 + pos.
 * Ports, in the order BookSim2 adds the channels: a leaf's 4 terminals,
 * then up ports 4 and 5 to middle routers 2(p/4) and 2(p/4) + 1; a middle
 * router's down ports 0..3 to leaves 4(m/2) .. 4(m/2) + 3, then up ports
 * 4..7 to roots 0..3; a root's ports 0..7 to middle routers 0..7.
 * Every channel takes 1 cycle (tree4.cpp sets each latency to 1).
 *
 * Routing (BookSim2's tree4_nca): a leaf ejects a packet for one of its
 * terminals, else sends it up port 4 or 5, drawn; a middle router sends
 * it down to the destination's leaf when the leaf is in its group, else up
 * to a root drawn among the 4; a root sends it down to one of the two
 * middle routers of the destination's group, drawn. BookSim2 draws at
 * every routing step; here the draw is a fixed function of the packet's
 * random word and the router (graph.h's route_rand), as fattree.c's. Up
 * then down: one VC class.
 *
 * With NOC_TOPO_F_ANCA (routing_function = anca): BookSim2's tree4_anca as
 * BookSim2 runs it. It adds every up port to its route set at one
 * priority, and BookSim2's OutputSet, a std::set ordered by priority
 * alone, keeps the first: a leaf always goes up port 4, a middle router
 * up port 4 (root 0); a root still draws between the group's two. */
#include "topologies/fabrics.h"
#include "model/rng.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { T4_ROOTS = 4, T4_MIDDLE = 8, T4_LEAVES = 16, T4_ROUTERS = 28, T4_TERMS = 64 };
static const int t4_first[3] = { 0, T4_ROOTS, T4_ROOTS + T4_MIDDLE };

static int t4_level(int v)
{
    return v < T4_ROOTS ? 0 : v < T4_ROOTS + T4_MIDDLE ? 1 : 2;
}

/* A draw in [0, n) for the packet's word `salt` at router cur. */
static int draw(uint32_t salt, int cur, int n)
{
    return (int)(noc_rng_mix((uint64_t)salt << 32 | (uint32_t)cur) % (uint64_t)n);
}

static void t4_route_rand(const void *ctx, int cur, int src, int dst, uint32_t salt, int hops, noc_route_t *r)
{
    (void)ctx;
    (void)src;
    (void)hops;
    int h = t4_level(cur), pos = cur - t4_first[h], port;
    if (h == 0)
        port = 2 * (dst / 16) + draw(salt, cur, 2);
    else if (h == 1)
        port = dst / 4 / 4 == pos / 2 ? dst / 4 % 4 : 4 + draw(salt, cur, 4);
    else
        port = dst / 4 == pos ? dst % 4 : 4 + draw(salt, cur, 2);
    r->vclass = 0;
    r->port = (uint8_t)port;
}

static void t4_route_anca(const void *ctx, int cur, int src, int dst, uint32_t salt, int hops, noc_route_t *r)
{
    t4_route_rand(ctx, cur, src, dst, salt, hops, r);
    if (t4_level(cur) > 0 && r->port >= 4)
        r->port = 4;
}

static void t4_route(const void *ctx, int cur, int src, int dst, noc_route_t *r)
{
    const noc_topo_t *t = ctx;
    t->route_rand(ctx, cur, src, dst, 0, 0, r);
}

static void t4_label(const noc_topo_t *t, int v, char *buf, size_t len)
{
    (void)t;
    int h = t4_level(v);
    snprintf(buf, len, "(%d,%d)", h, v - t4_first[h]);
}

static const noc_topo_ops_t t4_ops = { "tree4", t4_route, t4_label, NULL };

/* Link port a of router u with port b of router v, both ways. */
static void link(noc_topo_t *t, int u, int a, int v, int b)
{
    int pu = t->port_base[u] + a, pv = t->port_base[v] + b;
    t->peer[pu] = pv;
    t->peer[pv] = pu;
}

int noc_topo_build_tree4(noc_topo_t *t, const char *kind, const char *arg, unsigned flags, char *why,
                         size_t whylen)
{
    (void)kind;
    if (arg) {
        snprintf(why, whylen, "expected tree4 (BookSim2's tree4: 64 terminals on 16 leaves, 8 middle routers, 4 "
                              "roots; it has no sizes)");
        return -1;
    }
    t->ops = &t4_ops;
    noc_topo_alloc_nodes(t, T4_ROUTERS);
    for (int v = 0; v < T4_ROUTERS; v++) /* leaves: 4 terminals + 2 up; the others 8 */
        t->port_base[v + 1] = t->port_base[v] + (t4_level(v) == 2 ? 6 : 8);
    noc_topo_alloc_ports(t);
    int locals[T4_ROUTERS] = {0}, list[T4_TERMS];
    for (int e = 0; e < T4_TERMS; e++)
        list[e] = e;
    for (int p = 0; p < T4_LEAVES; p++)
        locals[t4_first[2] + p] = 4;
    noc_topo_set_terminals(t, T4_TERMS, locals, list);
    for (int p = 0; p < T4_LEAVES; p++) /* leaf p's up ports 4, 5: its group's middle routers, at down port p % 4 */
        for (int i = 0; i < 2; i++)
            link(t, t4_first[2] + p, 4 + i, t4_first[1] + 2 * (p / 4) + i, p % 4);
    for (int m = 0; m < T4_MIDDLE; m++) /* middle router m's up port 4 + r: root r, at its port m */
        for (int r = 0; r < T4_ROOTS; r++)
            link(t, t4_first[1] + m, 4 + r, t4_first[0] + r, m);
    t->n_classes = 1;
    memcpy(t->class_name[0], "tree", 5);
    t->n_vclasses = 1;
    t->route_needs_src = 1; /* the salt */
    t->route_rand = flags & NOC_TOPO_F_ANCA ? t4_route_anca : t4_route_rand;
    /* drawing: leaves on the bottom row, a group's middle routers above its
     * leaves, the roots above all */
    t->pos = noc_xcalloc((size_t)T4_ROUTERS * 2, sizeof *t->pos, "topology");
    for (int v = 0; v < T4_ROUTERS; v++) {
        int h = t4_level(v), pos = v - t4_first[h];
        float x = h == 2 ? (float)(2 * pos) : h == 1 ? (float)(8 * (pos / 2) + 2 + 3 * (pos % 2)) : (float)(6 + 8 * pos);
        t->pos[2 * v] = x;
        t->pos[2 * v + 1] = (float)(3 * h);
    }
    return 0;
}
