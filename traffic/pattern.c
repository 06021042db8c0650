/* pattern.c: synthetic destination patterns (uniform, permutations, hotspot).
 * noc_pattern_init checks the pattern against the topology once, so
 * noc_pattern_dest is a plain computation on the hot path. Of the topology it
 * reads only the node count, its kind and the grid shape (dims, k, stride),
 * which it keeps in the pattern. */
#include "traffic/pattern.h"
#include <stdio.h>
#include <string.h>

static const char *const pattern_names[NOC_PAT_COUNT] = {
    [NOC_PAT_UNIFORM] = "uniform",
    [NOC_PAT_TRANSPOSE] = "transpose",
    [NOC_PAT_BITCOMP] = "bitcomp",
    [NOC_PAT_BITREV] = "bitrev",
    [NOC_PAT_SHUFFLE] = "shuffle",
    [NOC_PAT_TORNADO] = "tornado",
    [NOC_PAT_NEIGHBOR] = "neighbor",
    [NOC_PAT_HOTSPOT] = "hotspot",
};

const char *noc_pattern_name(noc_pattern_kind_t k)
{
    if ((int)k < 0 || k >= NOC_PAT_COUNT)
        return "?";
    return pattern_names[k];
}

noc_pattern_kind_t noc_pattern_parse(const char *name)
{
    for (int k = 0; k < NOC_PAT_COUNT; k++)
        if (name && strcmp(name, pattern_names[k]) == 0)
            return (noc_pattern_kind_t)k;
    return NOC_PAT_COUNT;
}

const char *noc_pattern_list(void)
{
    return "uniform transpose bitcomp bitrev shuffle tornado neighbor hotspot";
}

/* A grid: meshes, tori and rings, whose coordinates the patterns may use. */
static int is_grid(const noc_topo_t *t)
{
    if (noc_topo_dims(t) < 1)
        return 0;
    const char *kind = noc_topo_kind(t);
    return strcmp(kind, "mesh") == 0 || strcmp(kind, "torus") == 0 ||
           strcmp(kind, "ring") == 0;
}

static int log2_exact(int n)
{
    if (n < 1 || (n & (n - 1)) != 0)
        return -1;
    int b = 0;
    while ((1 << b) < n)
        b++;
    return b;
}

int noc_pattern_init(noc_pattern_t *p, noc_pattern_kind_t kind, const noc_topo_t *t,
                     int hotspot, double hotspot_rate, char *err, size_t errlen)
{
    if (errlen)
        err[0] = '\0';
    memset(p, 0, sizeof *p);
    if ((int)kind < 0 || kind >= NOC_PAT_COUNT) {
        snprintf(err, errlen, "unknown traffic pattern (known: %s)", noc_pattern_list());
        return -1;
    }
    p->kind = kind;
    p->topo = t;
    p->n = noc_topo_nodes(t);
    p->bits = log2_exact(noc_topo_nodes(t));
    p->hotspot = hotspot;
    p->hotspot_rate = hotspot_rate;
    const char *name = pattern_names[kind];
    if (is_grid(t)) {
        p->dims = noc_topo_dims(t);
        for (int i = 0; i < p->dims; i++) {
            p->k[i] = noc_topo_k(t, i);
            p->stride[i] = noc_topo_stride(t, i);
        }
    }
    int grid2d = p->dims == 2;

    switch (kind) {
    case NOC_PAT_TRANSPOSE:
        if (grid2d) {
            if (p->k[0] != p->k[1]) {
                snprintf(err, errlen,
                         "pattern transpose needs a square grid, but %s is %dx%d",
                         noc_topo_spec(t)[0] ? noc_topo_spec(t) : "the topology", p->k[0], p->k[1]);
                return -1;
            }
            break;
        }
        if (p->bits < 0 || p->bits % 2 != 0) {
            snprintf(err, errlen,
                     "pattern transpose needs a 2D square grid or a node count that "
                     "is an even power of two (4, 16, 64, ...), but there are %d nodes",
                     p->n);
            return -1;
        }
        break;
    case NOC_PAT_BITCOMP:
    case NOC_PAT_BITREV:
    case NOC_PAT_SHUFFLE:
        if (p->bits < 0) {
            snprintf(err, errlen,
                     "pattern %s needs a power-of-two node count, but there are %d nodes",
                     name, p->n);
            return -1;
        }
        break;
    case NOC_PAT_HOTSPOT:
        if (hotspot < 0 || hotspot >= p->n) {
            snprintf(err, errlen, "hotspot node %d out of range: there are %d nodes (0..%d)",
                     hotspot, p->n, p->n - 1);
            return -1;
        }
        if (!(hotspot_rate >= 0.0 && hotspot_rate <= 1.0)) {
            snprintf(err, errlen, "hotspot rate %g out of range: must be in [0, 1]",
                     hotspot_rate);
            return -1;
        }
        break;
    default:
        break;
    }
    return 0;
}

static int uniform_dest(const noc_pattern_t *p, int s, noc_rng_t *rng)
{
    if (p->self)
        return (int)noc_rng_below(rng, (uint32_t)p->n);
    int d = (int)noc_rng_below(rng, (uint32_t)(p->n - 1));
    return d >= s ? d + 1 : d;
}

/* Move the first dims_moved grid coordinates of s ahead (mod k[i]): by
 * ceil(k/2) - 1 for tornado, by one otherwise. */
static int grid_shift(const noc_pattern_t *p, int s, int dims_moved, int tornado)
{
    int d = s;
    for (int i = 0; i < p->dims && i < dims_moved; i++) {
        int k = p->k[i];
        int c = (s / p->stride[i]) % k;
        int step = tornado ? (k + 1) / 2 - 1 : 1;
        int nc = (c + step) % k;
        d += (nc - c) * p->stride[i];
    }
    return d;
}

int noc_pattern_dest(const noc_pattern_t *p, int s, noc_rng_t *rng)
{
    int n = p->n, b = p->bits;
    if (n <= 1)
        return s;
    switch (p->kind) {
    case NOC_PAT_UNIFORM:
        return uniform_dest(p, s, rng);
    case NOC_PAT_TRANSPOSE:
        if (p->dims == 2) {
            int x = (s / p->stride[0]) % p->k[0];
            int y = (s / p->stride[1]) % p->k[1];
            return y * p->stride[0] + x * p->stride[1];
        } else {
            int h = b / 2;
            int lo = s & ((1 << h) - 1);
            int hi = s >> h;
            return (lo << h) | hi;
        }
    case NOC_PAT_BITCOMP:
        return ~s & (n - 1);
    case NOC_PAT_BITREV: {
        int d = 0;
        for (int i = 0; i < b; i++)
            if ((s >> i) & 1)
                d |= 1 << (b - 1 - i);
        return d;
    }
    case NOC_PAT_SHUFFLE:
        return ((s << 1) | (s >> (b - 1))) & (n - 1);
    case NOC_PAT_TORNADO:
        if (p->dims)
            return grid_shift(p, s, p->dims, 1);
        return (s + (n + 1) / 2 - 1) % n;
    case NOC_PAT_NEIGHBOR:
        if (p->dims)
            return grid_shift(p, s, 1, 0);
        return (s + 1) % n;
    case NOC_PAT_HOTSPOT:
        if (noc_rng_unit(rng) < p->hotspot_rate)
            return p->hotspot;
        return uniform_dest(p, s, rng);
    default:
        return s;
    }
}
