/* gen_scatter.c: `scatter` and `gather`: the root's array of N fragments,
 * fragment i for PE i, reaches its PEs (scatter), or every PE's fragment
 * reaches the root (gather). docs/algorithms/scatter.md has the paper's
 * algorithm, the formulas as read from it, and the measured counts.
 *
 * Variants (both generators):
 *   tarkov (the default): Tarkov and Tsarenko's data array input. A BFS
 *     from the root gives the shortest-path orgraph G(SP) (every arc u -> w
 *     with dist(w) = dist(u) + 1). Every node, in BFS order, splits the
 *     fragments that reach it over its out-arcs that lie on a shortest path
 *     to their goals, as evenly as those allowed sets permit, each arc's
 *     list OUT_p ordered by decreasing distance (the plan below). The root
 *     starts the sends of its arcs' lists at once, round by round (the
 *     r-th fragment of every arc, then the (r+1)-th), so its NI injects
 *     them in that order; every other PE stores a passing fragment and
 *     forwards it the moment it has arrived whole (store-and-forward
 *     through the PEs, as in the paper). The gather runs
 *     the same paths backwards: every PE sends its fragment at once, and
 *     every PE on the way forwards what it receives.
 *   naive: the root sends every fragment straight to its PE through the
 *     network (the fabric's own routing), in fragment order; the gather:
 *     every PE sends its fragment straight to the root.
 *   tarkov-planned, tarkov-planned-first (scatter only): tarkov, after
 *     the plan's construction has run on the network (SP, PP and FP
 *     messages: gen_scatter_plan.c).
 * Fragments are --words W words. Scatter: the root holds fragment i at
 * address i*W; every PE must end with its fragment at address 0. Gather:
 * every PE holds its fragment at address 0; the root must end with fragment
 * i at address i*W. Values from --seed (noc_gen_value(seed, i, k)). Any
 * connected fabric; one step ("scatter" or "gather"). */
#include "traffic/scatter_plan.h"
#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const variants[] = { "tarkov", "naive", NULL };
/* the scatter also runs the plan's construction on the network first */
static const char *const scatter_variants[] = { "tarkov", "naive", "tarkov-planned", "tarkov-planned-first",
                                                NULL };
extern const noc_generator_t noc_gen_scatter, noc_gen_gather;

/* ---- the plan: a path along G(SP) for every fragment ----
 *
 * Node by node in BFS order (every node after all its G(SP) predecessors,
 * as the paper's final plan runs), each node splits the fragments that
 * reach it over its out-arcs on G(SP). A fragment may take an out-arc whose
 * G(SP) descendants include its goal (the paper's primary plan). Taken in
 * order of decreasing distance, each goes to the allowed arc with the
 * fewest fragments so far (the paper's criterion l + s: l is the same on
 * every allowed arc), and where an allowed arc is fuller than some arc it
 * could reach by moving fragments already placed (an augmenting path, as
 * for optimal semi-matchings), the fragments move: the arcs end as even as
 * the allowed sets permit. */

#define MAX_ARCS NOC_SCATTER_MAX_ARCS

typedef noc_scatter_plan_t plan_t; /* scatter_plan.h */

static void plan_free(plan_t *pl)
{
    int *arrays[] = { pl->dist, pl->order, pl->rank, pl->frag, pl->path_start, pl->hop, pl->load,
                      pl->head, pl->link, pl->touched, pl->queue, pl->list, pl->arc };
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        free(arrays[i]);
    free(pl->mask);
}

static int *ints(int n) { return noc_xcalloc((size_t)n + 1, sizeof(int), "scatter plan"); }

/* Is port p of v the first of v's ports to its neighbour w? (Two ports to
 * one node are one arc for a program: the router picks the port.) */
static int first_port_to(const noc_topo_t *t, int v, int p, int w)
{
    for (int q = 1; q < p; q++)
        if (noc_gen_neighbour(t, v, q) == w)
            return 0;
    return 1;
}

/* Distances from the root; -1 if the fabric is not connected. */
static int plan_distances(const noc_topo_t *t, plan_t *pl)
{
    noc_gen_tree_t tr;
    noc_gen_tree_bfs(t, pl->root, &tr);
    int ok = 1;
    for (int v = 0; v < pl->n; v++) {
        pl->dist[v] = tr.depth[v];
        pl->order[v] = tr.order[v];
        ok &= tr.depth[v] >= 0;
    }
    noc_gen_tree_free(&tr);
    return ok ? 0 : -1;
}

/* Fragments by decreasing distance, ties in node order (a counting sort). */
static void plan_order(plan_t *pl)
{
    int k = 0;
    for (int d = pl->dist[pl->order[pl->n - 1]]; d >= 1; d--)
        for (int v = 0; v < pl->n; v++)
            if (pl->dist[v] == d) {
                pl->rank[v] = k;
                pl->frag[k++] = v;
            }
}

/* The out-arcs of v on G(SP), one per neighbour; -1 if more than MAX_ARCS. */
static int find_arcs(const noc_topo_t *t, plan_t *pl, int v)
{
    pl->m = 0;
    for (int p = 1; p <= noc_topo_degree(t, v); p++) {
        int w = noc_gen_neighbour(t, v, p);
        if (w < 0 || pl->dist[w] != pl->dist[v] + 1 || !first_port_to(t, v, p, w))
            continue;
        if (pl->m == MAX_ARCS)
            return -1;
        pl->arc_node[pl->m] = w;
        pl->arc_port[pl->m] = noc_topo_gport(t, v, p);
        pl->arc_load[pl->m++] = 0;
    }
    return 0;
}

/* Set bit q of mask[x] for every G(SP) descendant x of arc q's head. */
static void mark_descendants(const noc_topo_t *t, plan_t *pl)
{
    for (int q = 0; q < pl->m; q++) {
        uint64_t bit = UINT64_C(1) << q;
        int head = 0, tail = 0;
        pl->queue[tail++] = pl->arc_node[q];
        if (!pl->mask[pl->arc_node[q]])
            pl->touched[pl->n_touched++] = pl->arc_node[q];
        pl->mask[pl->arc_node[q]] |= bit;
        while (head < tail) {
            int x = pl->queue[head++];
            for (int p = 1; p <= noc_topo_degree(t, x); p++) {
                int y = noc_gen_neighbour(t, x, p);
                if (y < 0 || pl->dist[y] != pl->dist[x] + 1 || (pl->mask[y] & bit))
                    continue;
                if (!pl->mask[y])
                    pl->touched[pl->n_touched++] = y;
                pl->mask[y] |= bit;
                pl->queue[tail++] = y;
            }
        }
    }
}

static void clear_marks(plan_t *pl)
{
    for (int i = 0; i < pl->n_touched; i++)
        pl->mask[pl->touched[i]] = 0;
    pl->n_touched = 0;
}

static int by_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The fragments waiting at v, into list[] in planning order; their count. */
static int waiting(plan_t *pl, int v)
{
    int k = 0;
    for (int j = pl->head[v]; j >= 0; j = pl->link[j])
        pl->list[k++] = pl->rank[j];
    qsort(pl->list, (size_t)k, sizeof(int), by_int);
    for (int i = 0; i < k; i++)
        pl->list[i] = pl->frag[pl->list[i]];
    pl->head[v] = -1;
    return k;
}

/* Fragment j (placed or not) counts on arc a, or no longer (sign -1). */
static void count(plan_t *pl, int j, int a, int sign)
{
    for (int b = 0; b < pl->m; b++)
        if ((pl->mask[j] >> b) & 1)
            pl->cnt[a * pl->m + b] += sign;
    pl->arc_load[a] += sign;
}

/* Move one of the k fragments placed (the latest, the nearest) from arc a
 * to arc b, which it may take. */
static void move_one(plan_t *pl, int k, int a, int b)
{
    for (int i = k - 1; i >= 0; i--) {
        int j = pl->list[i];
        if (pl->arc[j] == a && ((pl->mask[j] >> b) & 1)) {
            count(pl, j, a, -1);
            count(pl, j, b, +1);
            pl->arc[j] = b;
            return;
        }
    }
}

/* Place list[k]: on its allowed arc with the fewest fragments, or, if an
 * arc reachable by moving placed fragments has fewer still, on an allowed
 * arc while the fragments along the way move over. */
static void place(plan_t *pl, int k)
{
    int j = pl->list[k], prev[MAX_ARCS], bfs[MAX_ARCS], head = 0, tail = 0;
    for (int q = 0; q < pl->m; q++) {
        prev[q] = -2;
        if ((pl->mask[j] >> q) & 1) {
            prev[q] = -1;
            bfs[tail++] = q;
        }
    }
    int best = -1;
    while (head < tail) {
        int a = bfs[head++];
        if (best < 0 || pl->arc_load[a] < pl->arc_load[best])
            best = a;
        for (int b = 0; b < pl->m; b++)
            if (prev[b] == -2 && pl->cnt[a * pl->m + b] > 0) {
                prev[b] = a;
                bfs[tail++] = b;
            }
    }
    for (int b = best; prev[b] >= 0; b = prev[b])
        move_one(pl, k, prev[b], b);
    int a = best;
    while (prev[a] >= 0)
        a = prev[a];
    pl->arc[j] = a;
    count(pl, j, a, +1);
}

/* Plan the next hop of every fragment waiting at v. */
static int plan_node(const noc_topo_t *t, plan_t *pl, int v)
{
    if (pl->head[v] < 0)
        return 0;
    if (find_arcs(t, pl, v) != 0)
        return -1;
    int k = waiting(pl, v);
    mark_descendants(t, pl);
    memset(pl->cnt, 0, (size_t)(pl->m * pl->m) * sizeof(int));
    for (int i = 0; i < k; i++)
        place(pl, i);
    for (int i = 0; i < k; i++) {
        int j = pl->list[i], w = pl->arc_node[pl->arc[j]];
        pl->hop[pl->path_start[j] + pl->dist[w]] = w;
        pl->load[pl->arc_port[pl->arc[j]]]++;
        if (w != j) {
            pl->link[j] = pl->head[w];
            pl->head[w] = j;
        }
    }
    clear_marks(pl);
    return 0;
}

/* The plan for t from root: 0, -1 if the fabric is not connected, -2 if
 * a node has more than MAX_ARCS out-arcs. */
static int plan_build(const noc_topo_t *t, int root, plan_t *pl)
{
    int n = noc_topo_nodes(t);
    memset(pl, 0, sizeof *pl);
    pl->n = n;
    pl->root = root;
    pl->dist = ints(n), pl->order = ints(n), pl->rank = ints(n), pl->frag = ints(n);
    pl->path_start = ints(n), pl->load = ints(noc_topo_ports(t)), pl->head = ints(n), pl->link = ints(n);
    pl->touched = ints(n), pl->queue = ints(n), pl->list = ints(n), pl->arc = ints(n);
    pl->mask = noc_xcalloc((size_t)n, sizeof(uint64_t), "scatter plan");
    if (plan_distances(t, pl) != 0)
        return -1;
    plan_order(pl);
    for (int v = 0; v < n; v++)
        pl->path_start[v + 1] = pl->path_start[v] + (v == root ? 0 : pl->dist[v] + 1);
    pl->hop = ints(pl->path_start[n]);
    for (int v = 0; v < n; v++)
        pl->head[v] = -1;
    for (int i = n - 2; i >= 0; i--) {
        int j = pl->frag[i];
        pl->hop[pl->path_start[j]] = root;
        pl->link[j] = pl->head[root];
        pl->head[root] = j;
    }
    for (int i = 0; i < n; i++)
        if (plan_node(t, pl, pl->order[i]) != 0)
            return -2;
    return 0;
}

static const int *path_of(const plan_t *pl, int j) { return &pl->hop[pl->path_start[j]]; }

int noc_scatter_plan_build(const noc_topo_t *t, int root, noc_scatter_plan_t *pl) { return plan_build(t, root, pl); }
void noc_scatter_plan_free(noc_scatter_plan_t *pl) { plan_free(pl); }
int noc_scatter_first_port(const noc_topo_t *t, int v, int p, int w) { return first_port_to(t, v, p, w); }

/* ---- arguments, data and the result check ---- */

static int check_args(const noc_generator_t *g, const noc_topo_t *t, const noc_gen_args_t *a, char *err,
                      size_t errlen)
{
    if (a->words < 1) {
        snprintf(err, errlen, "%s: --words must be at least 1 (got %d)", g->name, a->words);
        return -1;
    }
    if (a->root < 0 || a->root >= noc_topo_nodes(t)) {
        snprintf(err, errlen, "%s: root %d is not a node of %s (0 .. %d)", g->name, a->root, noc_topo_spec(t),
                 noc_topo_nodes(t) - 1);
        return -1;
    }
    if (noc_topo_nodes(t) < 2) {
        snprintf(err, errlen, "%s: %s has one node, nothing to move", g->name, noc_topo_spec(t));
        return -1;
    }
    if ((int64_t)noc_topo_nodes(t) * a->words > NOC_PROG_MAX_MEM) {
        snprintf(err, errlen, "%s: %d fragments of %d words do not fit the root's memory (%d words at most)",
                 g->name, noc_topo_nodes(t), a->words, NOC_PROG_MAX_MEM);
        return -1;
    }
    return 0;
}

static int32_t at(const noc_gen_args_t *a, int i) { return (int32_t)i * a->words; }

/* Scatter: the root holds every fragment; PE i must end with its own at 0. */
static noc_program_t *scatter_start(const noc_topo_t *t, const noc_gen_args_t *a, int planned)
{
    noc_program_t *p = noc_prog_new(noc_topo_nodes(t), "scatter");
    for (int i = 0; i < noc_topo_nodes(t); i++)
        for (int k = 0; k < a->words; k++) {
            int64_t v = noc_gen_value(a->seed, i, k);
            noc_prog_init(p, a->root, (uint32_t)(at(a, i) + k), v);
            noc_prog_expect(p, i, (uint32_t)k, v);
        }
    if (planned) { /* the planning phases come first (gen_scatter_plan.c) */
        noc_prog_declare_step(p, "plan-sp");
        noc_prog_declare_step(p, "plan-pp");
        noc_prog_declare_step(p, "plan-fp");
    }
    noc_prog_declare_step(p, "scatter");
    for (int r = 0; r < noc_topo_nodes(t); r++)
        noc_prog_step(p, r, "scatter");
    return p;
}

/* Gather: PE i holds its fragment at 0; the root must end with all. */
static noc_program_t *gather_start(const noc_topo_t *t, const noc_gen_args_t *a)
{
    noc_program_t *p = noc_prog_new(noc_topo_nodes(t), "gather");
    for (int i = 0; i < noc_topo_nodes(t); i++)
        for (int k = 0; k < a->words; k++) {
            int64_t v = noc_gen_value(a->seed, i, k);
            noc_prog_init(p, i, (uint32_t)k, v);
            noc_prog_expect(p, a->root, (uint32_t)(at(a, i) + k), v);
        }
    noc_prog_declare_step(p, "gather");
    for (int r = 0; r < noc_topo_nodes(t); r++)
        noc_prog_step(p, r, "gather");
    return p;
}

/* A root other than 0 moves its own fragment between address 0 and
 * root*W: after the send of fragment 0 has copied it out (scatter), or
 * before fragment 0 lands there (gather). Returns the copy, or NOC_GEN_NONE. */
static uint32_t root_copy(noc_program_t *p, const noc_gen_args_t *a, int scatter, uint32_t send0)
{
    if (a->root == 0)
        return NOC_GEN_NONE;
    uint32_t w = (uint32_t)a->words;
    if (!scatter)
        return noc_prog_combine(p, a->root, NOC_OP_COPY, w, at(a, a->root), 0);
    uint32_t cp = noc_prog_combine(p, a->root, NOC_OP_COPY, w, 0, at(a, a->root));
    noc_prog_dep(p, cp, send0, 1);
    return cp;
}

/* ---- naive: straight through the network ---- */

static void naive_scatter(noc_program_t *p, const noc_topo_t *t, const noc_gen_args_t *a)
{
    uint32_t w = (uint32_t)a->words, send0 = NOC_GEN_NONE;
    for (int j = 0; j < noc_topo_nodes(t); j++) {
        if (j == a->root)
            continue;
        uint32_t sd = noc_prog_send(p, a->root, j, j, w, at(a, j));
        if (j == 0)
            send0 = sd;
        noc_prog_recv(p, j, a->root, j, w, 0);
    }
    root_copy(p, a, 1, send0);
}

static void naive_gather(noc_program_t *p, const noc_topo_t *t, const noc_gen_args_t *a)
{
    uint32_t w = (uint32_t)a->words;
    uint32_t cp = root_copy(p, a, 0, NOC_GEN_NONE);
    for (int j = 0; j < noc_topo_nodes(t); j++) {
        if (j == a->root)
            continue;
        noc_prog_send(p, j, a->root, j, w, 0);
        uint32_t rv = noc_prog_recv(p, a->root, j, j, w, at(a, j));
        if (j == 0 && cp != NOC_GEN_NONE)
            noc_prog_dep(p, rv, cp, 0);
    }
}

/* ---- tarkov: store-and-forward along the plan ---- */

/* Where v keeps a fragment passing through it: after its own, in order. */
static int32_t transit_slot(const noc_gen_args_t *a, int *slots, int v)
{
    return at(a, 1 + slots[v]++);
}

/* Send sd of node v waits until v has its plan: gate[v] has started
 * (tarkov-planned; gate NULL: the plan is there from the start). */
static void gated(noc_program_t *p, const uint32_t *gate, int v, uint32_t sd)
{
    if (gate && gate[v] != NOC_GEN_NONE)
        noc_prog_dep(p, sd, gate[v], 1);
}

/* The root's sends: its arcs' lists round by round (round r: the r-th
 * fragment of every arc, arcs in port order), each list by decreasing
 * distance. Returns the send of fragment 0. */
static uint32_t root_sends(noc_program_t *p, const noc_topo_t *t, const plan_t *pl, const noc_gen_args_t *a,
                           const uint32_t *gate)
{
    uint32_t send0 = NOC_GEN_NONE;
    int deg = noc_topo_degree(t, pl->root), *next = noc_xcalloc((size_t)deg + 1, sizeof(int), "scatter");
    for (int sent = 0; sent < pl->n - 1;) {
        for (int q = 1; q <= deg; q++) {
            int w = noc_gen_neighbour(t, pl->root, q);
            while (next[q] < pl->n - 1 && path_of(pl, pl->frag[next[q]])[1] != w)
                next[q]++;
            if (next[q] == pl->n - 1 || !first_port_to(t, pl->root, q, w))
                continue;
            int j = pl->frag[next[q]++];
            uint32_t sd = noc_prog_send(p, pl->root, w, j, (uint32_t)a->words, at(a, j));
            gated(p, gate, pl->root, sd);
            if (j == 0)
                send0 = sd;
            sent++;
        }
    }
    free(next);
    return send0;
}

static void tarkov_scatter(noc_program_t *p, const noc_topo_t *t, const plan_t *pl, const noc_gen_args_t *a,
                           const uint32_t *gate)
{
    uint32_t w = (uint32_t)a->words;
    int *slots = noc_xcalloc((size_t)pl->n, sizeof(int), "scatter");
    root_copy(p, a, 1, root_sends(p, t, pl, a, gate));
    for (int i = 0; i < pl->n - 1; i++) {
        int j = pl->frag[i], d = pl->dist[j];
        const int *h = path_of(pl, j);
        for (int k = 1; k < d; k++) {
            int32_t addr = transit_slot(a, slots, h[k]);
            uint32_t rv = noc_prog_recv(p, h[k], h[k - 1], j, w, addr);
            uint32_t sd = noc_prog_send(p, h[k], h[k + 1], j, w, addr);
            noc_prog_dep(p, sd, rv, 0);
            gated(p, gate, h[k], sd);
        }
        noc_prog_recv(p, j, h[d - 1], j, w, 0);
    }
    free(slots);
}

static void tarkov_gather(noc_program_t *p, const plan_t *pl, const noc_gen_args_t *a)
{
    uint32_t w = (uint32_t)a->words;
    int *slots = noc_xcalloc((size_t)pl->n, sizeof(int), "gather");
    uint32_t cp = root_copy(p, a, 0, NOC_GEN_NONE);
    for (int i = 0; i < pl->n - 1; i++) {
        int j = pl->frag[i], d = pl->dist[j];
        const int *h = path_of(pl, j);
        noc_prog_send(p, j, h[d - 1], j, w, 0);
        for (int k = d - 1; k >= 1; k--) {
            int32_t addr = transit_slot(a, slots, h[k]);
            uint32_t rv = noc_prog_recv(p, h[k], h[k + 1], j, w, addr);
            uint32_t sd = noc_prog_send(p, h[k], h[k - 1], j, w, addr);
            noc_prog_dep(p, sd, rv, 0);
        }
        uint32_t rv = noc_prog_recv(p, pl->root, h[1], j, w, at(a, j));
        if (j == 0 && cp != NOC_GEN_NONE)
            noc_prog_dep(p, rv, cp, 0);
    }
    free(slots);
}

/* ---- the generators ---- */

/* The tarkov variant: plan, then the program along the plan; planned
 * (1: tarkov-planned, 2: tarkov-planned-first): the plan's construction
 * runs on the network first. */
static noc_program_t *tarkov(const noc_generator_t *g, noc_program_t *p, const noc_topo_t *t,
                             const noc_gen_args_t *a, int planned, char *err, size_t errlen)
{
    plan_t pl;
    noc_scatter_gates_t gates = { NULL };
    int bad = plan_build(t, a->root, &pl);
    if (bad == -1)
        snprintf(err, errlen, "%s: %s is not connected", g->name, noc_topo_spec(t));
    else if (bad)
        snprintf(err, errlen,
                 "%s: variant %s plans at most %d out-arcs per node on the shortest-path orgraph, and %s "
                 "has a node with more (use --variant naive)", g->name, planned ? a->variant : "tarkov",
                 MAX_ARCS, noc_topo_spec(t));
    else if (planned && noc_scatter_plan_phases(p, t, &pl, a, planned == 2, &gates, NULL, err, errlen) != 0)
        bad = 1;
    else if (g == &noc_gen_scatter)
        tarkov_scatter(p, t, &pl, a, gates.op);
    else
        tarkov_gather(p, &pl, a);
    free(gates.op);
    plan_free(&pl);
    if (bad) {
        noc_prog_free(p);
        return NULL;
    }
    return noc_gen_finish(p, err, errlen);
}

static noc_program_t *make(const noc_generator_t *g, const noc_topo_t *t, const noc_gen_args_t *a, char *err,
                           size_t errlen)
{
    const char *v = noc_gen_variant(g, a, err, errlen);
    if (!v || check_args(g, t, a, err, errlen) != 0)
        return NULL;
    int scatter = g == &noc_gen_scatter;
    int planned = strcmp(v, "tarkov-planned") == 0 ? 1 : strcmp(v, "tarkov-planned-first") == 0 ? 2 : 0;
    noc_program_t *p = scatter ? scatter_start(t, a, planned) : gather_start(t, a);
    if (strcmp(v, "tarkov") == 0 || planned)
        return tarkov(g, p, t, a, planned, err, errlen);
    if (scatter)
        naive_scatter(p, t, a);
    else
        naive_gather(p, t, a);
    return noc_gen_finish(p, err, errlen);
}

static noc_program_t *make_scatter(const noc_topo_t *t, const noc_gen_args_t *a, char *err, size_t errlen)
{
    return make(&noc_gen_scatter, t, a, err, errlen);
}

static noc_program_t *make_gather(const noc_topo_t *t, const noc_gen_args_t *a, char *err, size_t errlen)
{
    return make(&noc_gen_gather, t, a, err, errlen);
}

/* The paper's count and the bounds, and the tarkov plan's arc loads at the
 * root (the report's hot links). */
static void facts(const noc_topo_t *t, const noc_gen_args_t *a, char *buf, size_t len)
{
    plan_t pl;
    int bad = plan_build(t, a->root, &pl);
    if (bad == -1) {
        plan_free(&pl);
        snprintf(buf, len, "fabric = not connected\n");
        return;
    }
    int deg = noc_topo_degree(t, a->root), ecc = pl.dist[pl.frag[0]];
    int per_arc = (noc_topo_nodes(t) - 1 + deg - 1) / deg, bound = per_arc > ecc ? per_arc : ecc;
    size_t o = (size_t)snprintf(buf, len,
                                "fragments = %d of %d words\nroot degree = %d\nroot eccentricity = %d\n"
                                "paper count = ceil((N-1)/deg(root)) * W = %d cycles\n"
                                "lower bound = max(ceil((N-1)/deg(root)), eccentricity) * W = %d cycles\n",
                                noc_topo_nodes(t) - 1, a->words, deg, ecc, per_arc * a->words, bound * a->words);
    if (!bad && o < len)
        o += (size_t)snprintf(buf + o, len - o, "tarkov root arc loads =");
    for (int q = 1; !bad && q <= deg && o < len; q++) {
        int w = noc_gen_neighbour(t, a->root, q);
        if (w >= 0 && first_port_to(t, a->root, q, w))
            o += (size_t)snprintf(buf + o, len - o, " %d", pl.load[noc_topo_gport(t, a->root, q)]);
    }
    if (!bad && o < len)
        o += (size_t)snprintf(buf + o, len - o, " fragments\n");
    noc_scatter_plan_cost_t c;
    if (!bad && o < len && a->variant && strncmp(a->variant, "tarkov-planned", 14) == 0 &&
        noc_scatter_plan_count(t, &pl, &c) == 0)
        snprintf(buf + o, len - o,
                 "plan messages = SP %lld (%lld words), PP %lld (%lld words), FP %lld (%lld words)\n"
                 "plan cycles = steps plan-sp, plan-pp and plan-fp; the loading's: step scatter\n",
                 (long long)c.messages[0], (long long)c.words[0], (long long)c.messages[1], (long long)c.words[1],
                 (long long)c.messages[2], (long long)c.words[2]);
    plan_free(&pl);
}

const noc_generator_t noc_gen_scatter = {
    .name = "scatter",
    .summary = "the root's array of fragments, fragment i to PE i (Tarkov & Tsarenko)",
    .args_help = "  --root LABEL   the PE holding the array (default node 0)\n"
                 "  --words W      words per fragment (default 1); fragment i at the root's i*W\n"
                 "  --seed S       the data values\n"
                 "  variants: tarkov (fragments along a balanced shortest-path orgraph, each arc's\n"
                 "            fragments farthest first, forwarded PE by PE), naive (the root sends\n"
                 "            every fragment straight to its PE, in order), tarkov-planned (tarkov\n"
                 "            after the plan's construction runs on the network: steps plan-sp,\n"
                 "            plan-pp, plan-fp, then scatter; docs/algorithms/scatter.md; SP: a node\n"
                 "            takes its predecessors' marks), tarkov-planned-first (the same, SP as\n"
                 "            the paper says: the first mark from any source wins; right only if\n"
                 "            marks arrive in lockstep, as under --timing unit)\n",
    .variants = scatter_variants,
    .make = make_scatter,
    .facts = facts,
    .volume = noc_gen_volume_twice, /* p fragments of W words, at their PE and at the root */
};

const noc_generator_t noc_gen_gather = {
    .name = "gather",
    .summary = "every PE's fragment collected at the root, fragment i at i*W (Tarkov's scatter reversed)",
    .args_help = "  --root LABEL   the PE collecting the array (default node 0)\n"
                 "  --words W      words per fragment (default 1), at address 0 of every PE\n"
                 "  --seed S       the data values\n"
                 "  variants: tarkov (the scatter's paths backwards, forwarded PE by PE),\n"
                 "            naive (every PE sends straight to the root)\n",
    .variants = variants,
    .make = make_gather,
    .facts = facts,
    .volume = noc_gen_volume_twice, /* p fragments of W words, at their PE and at the root */
};
