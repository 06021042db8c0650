/* facts.c: graph facts of a fabric (facts.h): counts and degrees from the
 * port arrays; diameter and average distance by BFS from every node (from an
 * evenly spaced sample of sources on large fabrics); bisection width exact by
 * branch and bound on small fabrics and bounded above by METIS (Debian's
 * libmetis) on larger ones. docs/facts.md describes the methods. */
#include "topologies/facts.h"
#include "topologies/topo_internal.h"
#include "util/xalloc.h"
#include <math.h>
#include <metis.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Work budget of a sampled distance computation: sources * (nodes + ports). */
#define SAMPLE_WORK 400000000.0
#define SAMPLE_MIN 16
#define SAMPLE_MAX 2000

/* The graph as neighbour lists of node numbers: one entry per network port,
 * so a node linked twice to one neighbour lists it twice. */
typedef struct adj {
    int n;
    int *off; /* n + 1 entries */
    int *nb;
} adj_t;

static void adj_build(const noc_topo_t *t, adj_t *a)
{
    int n = t->n_nodes;
    int *owner = noc_xcalloc((size_t)t->n_ports, sizeof *owner, "facts: port owners");
    for (int v = 0; v < n; v++)
        for (int g = t->port_base[v]; g < t->port_base[v + 1]; g++)
            owner[g] = v;
    a->n = n;
    a->off = noc_xcalloc((size_t)n + 1, sizeof *a->off, "facts: adjacency");
    a->nb = noc_xcalloc((size_t)t->n_ports, sizeof *a->nb, "facts: adjacency"); /* (routers may have no local port) */
    int k = 0;
    for (int v = 0; v < n; v++) {
        a->off[v] = k;
        for (int g = t->port_base[v]; g < t->port_base[v + 1]; g++) /* (local ports: peer -1) */
            if (t->peer[g] >= 0)
                a->nb[k++] = owner[t->peer[g]];
    }
    a->off[n] = k;
    free(owner);
}

static void adj_free(adj_t *a)
{
    free(a->off);
    free(a->nb);
}

/* ---- distances ----------------------------------------------------------- */

/* BFS from src: returns the eccentricity of src among the nodes it reaches,
 * adds the distances to *sum and the number of nodes reached (src excluded)
 * to *reached. dist and queue hold n entries each. */
static int bfs(const adj_t *a, int src, int *dist, int *queue, uint64_t *sum, long long *reached)
{
    int head = 0, tail = 0, ecc = 0;
    for (int v = 0; v < a->n; v++)
        dist[v] = -1;
    dist[src] = 0;
    queue[tail++] = src;
    while (head < tail) {
        int v = queue[head++];
        int dv = dist[v] + 1;
        for (int k = a->off[v]; k < a->off[v + 1]; k++) {
            int u = a->nb[k];
            if (dist[u] >= 0)
                continue;
            dist[u] = dv;
            *sum += (uint64_t)dv;
            ecc = dv;
            queue[tail++] = u;
        }
    }
    *reached += tail - 1;
    return ecc;
}

static void distances(const adj_t *a, int all_max, noc_facts_t *f)
{
    int n = a->n;
    int sources = n;
    if (n > all_max) {
        double s = SAMPLE_WORK / ((double)n + (double)a->off[n]);
        sources = s < SAMPLE_MIN ? SAMPLE_MIN : s > SAMPLE_MAX ? SAMPLE_MAX : (int)s;
        if (sources > n)
            sources = n;
    }
    int *dist = noc_xcalloc((size_t)n, sizeof *dist, "facts: BFS");
    int *queue = noc_xcalloc((size_t)n, sizeof *queue, "facts: BFS");
    uint64_t sum = 0;
    long long reached = 0;
    int diam = 0;
    for (int i = 0; i < sources; i++) {
        /* evenly spaced sources; all of them when sources == n */
        int src = (int)(((long long)i * n) / sources);
        int e = bfs(a, src, dist, queue, &sum, &reached);
        if (e > diam)
            diam = e;
    }
    free(dist);
    free(queue);
    f->distance_sources = sources;
    f->distance_exact = sources == n;
    f->connected = reached == (long long)sources * (n - 1);
    if (n < 2) {
        f->diameter = 0;
        f->avg_distance = 0.0;
    } else if (!f->connected) {
        f->diameter = -1;
        f->avg_distance = (double)NAN;
    } else {
        f->diameter = diam;
        f->avg_distance = (double)sum / (double)reached;
    }
}

/* ---- exact bisection: branch and bound ----------------------------------- */

static int popc(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_popcountll(x);
#else
    int c = 0;
    for (; x; x &= x - 1)
        c++;
    return c;
#endif
}

/* Nodes renumbered in BFS order from node 0, so that links are cut early in
 * the search and the bounds bite. Multiple links between two nodes stack in
 * layers: bit u of layer[l][v] is set when v and u share more than l links. */
typedef struct bb {
    int n, hi;            /* nodes; the larger part's size, ceil(n/2) */
    int layers;
    uint64_t *layer;      /* layers * n masks */
    int best;
} bb_t;

static int weight_to(const bb_t *b, int v, uint64_t mask)
{
    int w = 0;
    for (int l = 0; l < b->layers; l++)
        w += popc(b->layer[(size_t)l * (size_t)b->n + (size_t)v] & mask);
    return w;
}

/* Nodes 0 .. i-1 are placed: those in mask a on side A (na of them), those
 * in mb on side B, cutting `cut` links. */
static void bb_search(bb_t *b, int i, uint64_t a, uint64_t mb, int na, int nb, int cut)
{
    if (cut >= b->best)
        return;
    if (i == b->n) {
        b->best = cut;
        return;
    }
    /* Every unplaced node will cut at least its links to the side it does
     * not join (links among unplaced nodes are not counted: no overlap). */
    int lb = cut;
    for (int u = i; u < b->n && lb < b->best; u++) {
        int wa = weight_to(b, u, a), wb = weight_to(b, u, mb);
        lb += wa < wb ? wa : wb;
    }
    if (lb >= b->best)
        return;
    uint64_t bit = (uint64_t)1 << i;
    int to_a = weight_to(b, i, a), to_b = weight_to(b, i, mb);
    /* joining A cuts the links to B, and the other way round; cheaper first */
    if (to_b <= to_a) {
        if (na < b->hi)
            bb_search(b, i + 1, a | bit, mb, na + 1, nb, cut + to_b);
        if (nb < b->hi)
            bb_search(b, i + 1, a, mb | bit, na, nb + 1, cut + to_a);
    } else {
        if (nb < b->hi)
            bb_search(b, i + 1, a, mb | bit, na, nb + 1, cut + to_a);
        if (na < b->hi)
            bb_search(b, i + 1, a | bit, mb, na + 1, nb, cut + to_b);
    }
}

int noc_facts_bisection_exact(const noc_topo_t *t)
{
    int n = t->n_nodes;
    if (n > NOC_FACTS_EXACT_LIMIT)
        return -1;
    if (n < 2)
        return 0;
    adj_t a;
    adj_build(t, &a);

    /* BFS order (over every component) */
    int order[NOC_FACTS_EXACT_LIMIT], rank[NOC_FACTS_EXACT_LIMIT], k = 0;
    for (int v = 0; v < n; v++)
        rank[v] = -1;
    for (int s = 0; s < n; s++) {
        if (rank[s] >= 0)
            continue;
        int head = k;
        rank[s] = k;
        order[k++] = s;
        while (head < k) {
            int v = order[head++];
            for (int j = a.off[v]; j < a.off[v + 1]; j++)
                if (rank[a.nb[j]] < 0) {
                    rank[a.nb[j]] = k;
                    order[k++] = a.nb[j];
                }
        }
    }

    /* multiplicities, in the new numbering */
    unsigned char mult[NOC_FACTS_EXACT_LIMIT][NOC_FACTS_EXACT_LIMIT];
    memset(mult, 0, sizeof mult);
    int layers = 1;
    for (int v = 0; v < n; v++)
        for (int j = a.off[v]; j < a.off[v + 1]; j++) {
            int x = rank[v], y = rank[a.nb[j]];
            if (x == y || mult[x][y] == 255)
                continue;
            if (++mult[x][y] > layers)
                layers = mult[x][y];
        }
    bb_t b = {n, (n + 1) / 2, layers, NULL, 0};
    b.layer = noc_xcalloc((size_t)layers * (size_t)n, sizeof *b.layer, "facts: bisection");
    for (int x = 0; x < n; x++)
        for (int y = 0; y < n; y++)
            for (int l = 0; l < mult[x][y]; l++)
                b.layer[(size_t)l * (size_t)n + (size_t)x] |= (uint64_t)1 << y;

    /* A first bound: the first half of the BFS order against the rest. */
    uint64_t first = 0;
    for (int i = 0; i < b.hi; i++)
        first |= (uint64_t)1 << i;
    int cut0 = 0;
    for (int i = 0; i < b.hi; i++)
        cut0 += weight_to(&b, i, ~first & (n == 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1)));
    /* METIS usually finds the optimum: the search then only has to prove it */
    char ignored[8];
    int metis = noc_facts_bisection_metis(t, 4, NULL, ignored, sizeof ignored);
    if (metis >= 0 && metis < cut0)
        cut0 = metis;
    b.best = cut0 + 1;
    /* node 0 on side A: the sides are interchangeable */
    bb_search(&b, 1, 1, 0, 1, 0, 0);
    free(b.layer);
    adj_free(&a);
    return b.best;
}

/* ---- METIS bound ---------------------------------------------------------- */

/* Cut of a partition, counting every link once. */
static int cut_of(const adj_t *a, const unsigned char *side)
{
    long long c = 0;
    for (int v = 0; v < a->n; v++)
        for (int k = a->off[v]; k < a->off[v + 1]; k++)
            c += side[v] != side[a->nb[k]];
    return (int)(c / 2);
}

/* Move nodes from the larger side to the smaller until the sizes are
 * floor(n/2) and ceil(n/2), each time the node whose move adds the fewest
 * cut links. */
static void rebalance(const adj_t *a, unsigned char *side)
{
    int n = a->n, size[2] = {0, 0};
    for (int v = 0; v < n; v++)
        size[side[v]]++;
    if (abs(size[0] - size[1]) <= 1)
        return;
    int *gain = noc_xcalloc((size_t)n, sizeof *gain, "facts: rebalance");
    /* gain[v]: links to the own side minus links across (the cut grows by
     * this much when v changes sides) */
    for (int v = 0; v < n; v++)
        for (int k = a->off[v]; k < a->off[v + 1]; k++)
            gain[v] += side[a->nb[k]] == side[v] ? 1 : -1;
    while (abs(size[0] - size[1]) > 1) {
        unsigned char big = size[1] > size[0];
        int best = -1;
        for (int v = 0; v < n; v++)
            if (side[v] == big && (best < 0 || gain[v] < gain[best]))
                best = v;
        side[best] = (unsigned char)!big;
        size[big]--;
        size[!big]++;
        gain[best] = -gain[best];
        for (int k = a->off[best]; k < a->off[best + 1]; k++) {
            int u = a->nb[k];
            /* u's link to best changed from same side to across, or back */
            gain[u] += side[u] == side[best] ? 2 : -2;
        }
    }
    free(gain);
}

int noc_facts_bisection_metis(const noc_topo_t *t, int runs, unsigned char *side_out,
                              char *err, size_t errlen)
{
    int n = t->n_nodes;
    if (runs < 1)
        runs = 1;
    if (n < 2) {
        if (side_out && n == 1)
            side_out[0] = 0;
        return 0;
    }
    adj_t a;
    adj_build(t, &a);

    /* METIS wants each neighbour once, with multiple links as a weight, and
     * no self-loops. */
    idx_t *xadj = noc_xcalloc((size_t)n + 1, sizeof *xadj, "facts: METIS graph");
    idx_t *adjncy = noc_xcalloc((size_t)a.off[n] + 1, sizeof *adjncy, "facts: METIS graph");
    idx_t *adjwgt = noc_xcalloc((size_t)a.off[n] + 1, sizeof *adjwgt, "facts: METIS graph");
    int *last = noc_xcalloc((size_t)n, sizeof *last, "facts: METIS graph");
    for (int v = 0; v < n; v++)
        last[v] = -1;
    idx_t m = 0;
    for (int v = 0; v < n; v++) {
        xadj[v] = m;
        for (int k = a.off[v]; k < a.off[v + 1]; k++) {
            int u = a.nb[k];
            if (u == v)
                continue;
            if (last[u] >= xadj[v]) { /* seen from v already: the slot of u */
                adjwgt[last[u]]++;
                continue;
            }
            last[u] = (int)m;
            adjncy[m] = u;
            adjwgt[m] = 1;
            m++;
        }
    }
    xadj[n] = m;
    free(last);

    idx_t *part = noc_xcalloc((size_t)n, sizeof *part, "facts: METIS partition");
    unsigned char *side = noc_xcalloc((size_t)n, 1, "facts: METIS partition");
    int best = -1;
    for (int s = 0; s < runs; s++) {
        idx_t nvtxs = n, ncon = 1, nparts = 2, objval = 0;
        idx_t options[METIS_NOPTIONS];
        METIS_SetDefaultOptions(options);
        options[METIS_OPTION_SEED] = s / 2;
        options[METIS_OPTION_NUMBERING] = 0;
        options[METIS_OPTION_UFACTOR] = 1;
        /* recursive bisection on even seeds, k-way on odd ones: each wins
         * on some fabrics */
        int kway = s & 1;
        int rc = kway ? METIS_PartGraphKway(&nvtxs, &ncon, xadj, adjncy, NULL, NULL, adjwgt,
                                            &nparts, NULL, NULL, options, &objval, part)
                      : METIS_PartGraphRecursive(&nvtxs, &ncon, xadj, adjncy, NULL, NULL, adjwgt,
                                                 &nparts, NULL, NULL, options, &objval, part);
        if (rc != METIS_OK) {
            snprintf(err, errlen, "METIS_PartGraph%s failed (status %d) on %d nodes",
                     kway ? "Kway" : "Recursive", rc, n);
            best = -1;
            break;
        }
        for (int v = 0; v < n; v++)
            side[v] = part[v] != 0;
        rebalance(&a, side);
        int c = cut_of(&a, side);
        if (best < 0 || c < best) {
            best = c;
            if (side_out)
                memcpy(side_out, side, (size_t)n);
        }
    }
    free(part);
    free(side);
    free(xadj);
    free(adjncy);
    free(adjwgt);
    adj_free(&a);
    return best;
}

/* ---- straight splits ------------------------------------------------------ */

typedef struct keyed {
    float k1, k2;
    int v;
} keyed_t;

static int keyed_cmp(const void *pa, const void *pb)
{
    const keyed_t *a = pa, *b = pb;
    if (a->k1 != b->k1)
        return a->k1 < b->k1 ? -1 : 1;
    if (a->k2 != b->k2)
        return a->k2 < b->k2 ? -1 : 1;
    return (a->v > b->v) - (a->v < b->v);
}

/* Cut of the split: the first floor(n/2) nodes of the sorted keys against
 * the rest. */
static int split_cut(const adj_t *a, keyed_t *keys, unsigned char *side)
{
    qsort(keys, (size_t)a->n, sizeof *keys, keyed_cmp);
    for (int i = 0; i < a->n; i++)
        side[keys[i].v] = i >= a->n / 2;
    return cut_of(a, side);
}

int noc_facts_bisection_split(const noc_topo_t *t)
{
    int n = t->n_nodes, best = -1;
    if (t->dims <= 0 && !t->pos)
        return -1;
    adj_t a;
    adj_build(t, &a);
    keyed_t *keys = noc_xcalloc((size_t)n, sizeof *keys, "facts: splits");
    unsigned char *side = noc_xcalloc((size_t)n, 1, "facts: splits");
    for (int d = 0; d < t->dims + (t->pos ? 2 : 0); d++) {
        for (int v = 0; v < n; v++) {
            keys[v].v = v;
            if (d < t->dims) {
                keys[v].k1 = (float)((v / t->stride[d]) % t->k[d]);
                keys[v].k2 = 0.0f;
            } else {
                int axis = d - t->dims;
                keys[v].k1 = t->pos[2 * v + axis];
                keys[v].k2 = t->pos[2 * v + 1 - axis];
            }
        }
        int c = split_cut(&a, keys, side);
        if (best < 0 || c < best)
            best = c;
    }
    free(keys);
    free(side);
    adj_free(&a);
    return best;
}

/* ---- all facts ------------------------------------------------------------ */

const char *noc_facts_method_name(noc_facts_method_t m)
{
    static const char *const names[NOC_FACTS_BISECT_COUNT] = {
        "none", "branch-and-bound", "metis", "split",
    };
    return m < NOC_FACTS_BISECT_COUNT ? names[m] : "?";
}

void noc_facts_defaults(noc_facts_opts_t *o)
{
    o->exact_max = NOC_FACTS_EXACT_DEFAULT;
    o->bfs_all_max = NOC_FACTS_BFS_ALL_DEFAULT;
    o->runs = NOC_FACTS_RUNS_DEFAULT;
    o->bisection = 1;
}

int noc_facts_compute(const noc_topo_t *t, const noc_facts_opts_t *opts, noc_facts_t *f,
                      char *err, size_t errlen)
{
    noc_facts_opts_t def;
    if (!opts) {
        noc_facts_defaults(&def);
        opts = &def;
    }
    if (opts->exact_max < 0 || opts->exact_max > NOC_FACTS_EXACT_LIMIT) {
        snprintf(err, errlen, "exact bisection limit %d out of range 0..%d", opts->exact_max,
                 NOC_FACTS_EXACT_LIMIT);
        return -1;
    }
    if (opts->runs < 1 || opts->bfs_all_max < 0) {
        snprintf(err, errlen, "METIS runs must be >= 1 and the BFS limit >= 0");
        return -1;
    }
    memset(f, 0, sizeof *f);
    int n = t->n_nodes;
    f->nodes = n;
    f->n_classes = t->n_classes;
    f->degree_min = n ? noc_topo_degree(t, 0) : 0;
    long long ports = 0;
    for (int v = 0; v < n; v++) {
        int d = noc_topo_degree(t, v);
        ports += d;
        if (d < f->degree_min)
            f->degree_min = d;
        if (d > f->degree_max)
            f->degree_max = d;
        for (int g = t->port_base[v]; g < t->port_base[v + 1]; g++) /* (local ports: peer -1) */
            if (t->peer[g] > g) { /* each link once, from its lower port */
                f->links++;
                if (t->link_class[g] < NOC_TOPO_MAX_CLASSES)
                    f->class_links[t->link_class[g]]++;
            }
    }
    f->degree_avg = n ? (double)ports / n : 0.0;
    f->links_per_node = n ? (double)f->links / n : 0.0;

    adj_t a;
    adj_build(t, &a);
    distances(&a, opts->bfs_all_max, f);
    adj_free(&a);
    f->degree_x_diameter = f->diameter < 0 ? -1 : f->degree_max * f->diameter;

    f->bisection = -1;
    if (!opts->bisection)
        return 0;
    if (n <= opts->exact_max) {
        f->bisection = noc_facts_bisection_exact(t);
        f->bisection_exact = 1;
        f->bisection_method = NOC_FACTS_BISECT_EXACT;
    } else {
        f->bisection = noc_facts_bisection_metis(t, opts->runs, NULL, err, errlen);
        if (f->bisection < 0)
            return -1;
        f->bisection_exact = 0;
        f->bisection_method = NOC_FACTS_BISECT_METIS;
        f->bisection_runs = opts->runs;
        int split = noc_facts_bisection_split(t);
        if (split >= 0 && split < f->bisection) {
            f->bisection = split;
            f->bisection_method = NOC_FACTS_BISECT_SPLIT;
        }
    }
    return 0;
}
