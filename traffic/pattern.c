/* pattern.c: synthetic destination patterns (uniform, permutations, hotspot,
 * and the rest of BookSim2's traffic.cpp). noc_pattern_setup checks the
 * pattern and its arguments against the topology once and makes the tables
 * (randperm's permutation, hotspot's list, background's nodes), so
 * noc_pattern_dest is a plain computation on the hot path. Of the topology it
 * reads only the node count, its kind and the grid shape (dims, k, stride),
 * which it keeps in the pattern. */
#include "traffic/pattern.h"
#include "util/xalloc.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
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
    [NOC_PAT_NEIGHBOR_ALL] = "neighbor_all",
    [NOC_PAT_RANDPERM] = "randperm",
    [NOC_PAT_DIAGONAL] = "diagonal",
    [NOC_PAT_ASYMMETRIC] = "asymmetric",
    [NOC_PAT_TAPER64] = "taper64",
    [NOC_PAT_BADPERM_YARC] = "badperm_yarc",
    [NOC_PAT_BACKGROUND] = "background",
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
    return "uniform transpose bitcomp bitrev shuffle tornado neighbor hotspot neighbor_all randperm "
           "diagonal asymmetric taper64 badperm_yarc background";
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

/* The checks of the patterns BookSim2 adds (asymmetric, taper64,
 * badperm_yarc, background): 0 or -1 with err. */
static int check_more(const noc_pattern_t *p, char *err, size_t errlen)
{
    int square = p->dims >= 2;
    switch (p->kind) {
    case NOC_PAT_TAPER64:
        if (p->n != 64) {
            snprintf(err, errlen, "pattern taper64 needs exactly 64 nodes, but there are %d", p->n);
            return -1;
        }
        return 0;
    case NOC_PAT_BADPERM_YARC:
        for (int i = 1; i < p->dims; i++)
            square &= p->k[i] == p->k[0];
        if (!square) {
            snprintf(err, errlen, "pattern badperm_yarc needs a mesh or torus of 2 or more dimensions, all "
                     "of one size k (BookSim2's k-ary n-cube, n >= 2), but %s is none",
                     noc_topo_spec(p->topo)[0] ? noc_topo_spec(p->topo) : "the topology");
            return -1;
        }
        return 0;
    case NOC_PAT_BACKGROUND:
        snprintf(err, errlen, "pattern background needs the nodes it leaves out: background({3,5}) or background(3)");
        return -1;
    default:
        return 0;
    }
}

int noc_pattern_init(noc_pattern_t *p, noc_pattern_kind_t kind, const noc_topo_t *t,
                     int hotspot, double hotspot_rate, char *err, size_t errlen)
{
    noc_pattern_opts_t o = { hotspot, hotspot_rate, 0, NULL };
    return noc_pattern_setup(p, kind, t, &o, err, errlen);
}

/* noc_pattern_setup without arguments: the checks, no table. */
static int init_plain(noc_pattern_t *p, noc_pattern_kind_t kind, const noc_topo_t *t,
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
    p->n = noc_topo_terminals(t);
    p->bits = log2_exact(noc_topo_terminals(t));
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
        return check_more(p, err, errlen);
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

/* hotspot(..): node i of the list with probability (cum[i] - cum[i-1]) /
 * cum[last] (BookSim2 draws nothing for a single node, nor does this).
 * (This and more_dest are kept out of noc_pattern_dest: inlined, they cost
 * the classic patterns a larger stack frame on every packet.) */
static __attribute__((noinline)) int weighted_dest(const noc_pattern_t *p, noc_rng_t *rng)
{
    if (p->n_list == 1)
        return p->list[0];
    uint32_t x = noc_rng_below(rng, p->cum[p->n_list - 1]);
    int lo = 0, hi = p->n_list - 1; /* the first i with x < cum[i] */
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (x < p->cum[mid])
            hi = mid;
        else
            lo = mid + 1;
    }
    return p->list[lo];
}

/* background: uniform over the list (the source too with self; without,
 * every listed node but the source, the source itself when it is all the
 * list holds: nothing is sent). */
static int background_dest(const noc_pattern_t *p, int s, noc_rng_t *rng)
{
    if (p->self)
        return p->list[noc_rng_below(rng, (uint32_t)p->n_list)];
    int at = -1; /* the source's place in the (ascending) list */
    for (int lo = 0, hi = p->n_list - 1; lo <= hi && at < 0;) {
        int mid = (lo + hi) / 2;
        if (p->list[mid] == s)
            at = mid;
        else if (p->list[mid] < s)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    if (at < 0)
        return p->list[noc_rng_below(rng, (uint32_t)p->n_list)];
    if (p->n_list == 1)
        return s;
    int i = (int)noc_rng_below(rng, (uint32_t)(p->n_list - 1));
    return p->list[i >= at ? i + 1 : i];
}

/* The patterns BookSim2 adds to the classic ones. */
static __attribute__((noinline)) int more_dest(const noc_pattern_t *p, int s, noc_rng_t *rng)
{
    int n = p->n;
    switch (p->kind) {
    case NOC_PAT_NEIGHBOR_ALL:
        if (p->dims)
            return grid_shift(p, s, p->dims, 0);
        return (s + 1) % n;
    case NOC_PAT_RANDPERM:
        return p->list ? p->list[s] : s;
    case NOC_PAT_DIAGONAL: /* BookSim2: RandomInt(2) == 0, one in three */
        return noc_rng_below(rng, 3) == 0 ? (s + 1) % n : s;
    case NOC_PAT_ASYMMETRIC:
        return s % (n / 2) + (noc_rng_below(rng, 2) ? n / 2 : 0);
    case NOC_PAT_TAPER64:
        if (noc_rng_below(rng, 2)) {
            int a = (int)noc_rng_below(rng, 3) - 1, b = (int)noc_rng_below(rng, 3) - 1;
            return (64 + s + 8 * a + b) % 64;
        }
        return uniform_dest(p, s, rng);
    case NOC_PAT_BADPERM_YARC: {
        int k = p->k[0];
        return (int)noc_rng_below(rng, (uint32_t)k) * k + s / k;
    }
    case NOC_PAT_BACKGROUND:
        return p->list ? background_dest(p, s, rng) : s;
    default:
        return s;
    }
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
    case NOC_PAT_HOTSPOT: /* (a list has hotspot_rate 2: always the list) */
        if (noc_rng_unit(rng) < p->hotspot_rate)
            return p->list ? weighted_dest(p, rng) : p->hotspot;
        return uniform_dest(p, s, rng);
    default:
        return more_dest(p, s, rng);
    }
}

/* ---- arguments: NAME(ARGS) ---- */

noc_pattern_kind_t noc_pattern_split(const char *value, char *args, size_t argslen, int *has_args)
{
    char name[64];
    const char *open = strchr(value, '(');
    size_t len = open ? (size_t)(open - value) : strlen(value);
    *has_args = open != NULL;
    if (argslen)
        args[0] = '\0';
    if (len >= sizeof name)
        return NOC_PAT_COUNT;
    memcpy(name, value, len);
    name[len] = '\0';
    if (open) {
        size_t rest = strlen(open + 1);
        if (rest == 0 || open[1 + rest - 1] != ')' || rest > argslen)
            return NOC_PAT_COUNT;
        memcpy(args, open + 1, rest - 1);
        args[rest - 1] = '\0';
    }
    return noc_pattern_parse(name);
}

static const char *skip_blanks(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* One integer at *s (blanks around it skipped); 0, or -1. */
static int parse_int(const char **s, long *v)
{
    const char *a = skip_blanks(*s);
    char *end;
    errno = 0;
    *v = strtol(a, &end, 10);
    if (end == a || errno != 0 || *v < INT32_MIN || *v > INT32_MAX)
        return -1;
    *s = skip_blanks(end);
    return 0;
}

/* N or {N,N,...} at *s into out (at most max); the count, or -1. */
static int parse_list(const char **s, long *out, int max)
{
    const char *a = skip_blanks(*s);
    int n = 0;
    if (*a != '{') {
        if (max < 1 || parse_int(&a, &out[0]) != 0)
            return -1;
        *s = a;
        return 1;
    }
    a++;
    for (;;) {
        if (n == max || parse_int(&a, &out[n]) != 0)
            return -1;
        n++;
        if (*a == '}')
            break;
        if (*a != ',')
            return -1;
        a++;
    }
    *s = skip_blanks(a + 1);
    return n;
}

static int args_error(const char *name, const char *args, const char *what, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s(%s): %s", name, args, what);
    return -1;
}

/* hotspot(NODES) or hotspot(NODES,WEIGHTS) into p->list and p->cum. */
static int hotspot_args(noc_pattern_t *p, const char *args, long *buf, int max, char *err, size_t errlen)
{
    const char *s = args;
    char what[160];
    int nh = parse_list(&s, buf, max), nw = 0;
    if (nh > 0 && *s == ',') {
        s++;
        nw = parse_list(&s, buf + nh, max - nh);
    }
    if (nh < 1 || nw < 0 || *s != '\0')
        return args_error("hotspot", args, "expected hotspot(N), hotspot({N,N,...}) or hotspot({N,...},{W,...}): "
                          "hot nodes by number, then optionally their integer weights", err, errlen);
    if (nw && nw != nh) {
        snprintf(what, sizeof what, "%d hot nodes but %d weights: give one weight per node", nh, nw);
        return args_error("hotspot", args, what, err, errlen);
    }
    uint64_t sum = 0;
    for (int i = 0; i < nh; i++) {
        long w = nw ? buf[nh + i] : 1;
        if (buf[i] < 0 || buf[i] >= p->n) {
            snprintf(what, sizeof what, "node %ld is out of range: there are %d nodes (0..%d)", buf[i], p->n,
                     p->n - 1);
            return args_error("hotspot", args, what, err, errlen);
        }
        if (w < 1) {
            snprintf(what, sizeof what, "weight %ld: weights are integers >= 1", w);
            return args_error("hotspot", args, what, err, errlen);
        }
        sum += (uint64_t)w;
    }
    if (sum > INT32_MAX)
        return args_error("hotspot", args, "the weights add up to more than 2^31 - 1", err, errlen);
    p->list = noc_xmalloc((size_t)nh * sizeof *p->list, "hotspot nodes");
    p->cum = noc_xmalloc((size_t)nh * sizeof *p->cum, "hotspot weights");
    p->n_list = nh;
    p->hotspot_rate = 2.0;
    uint32_t c = 0;
    for (int i = 0; i < nh; i++) {
        c += (uint32_t)(nw ? buf[nh + i] : 1);
        p->list[i] = (int)buf[i];
        p->cum[i] = c;
    }
    return 0;
}

/* background(EXCLUDED) into p->list: the other nodes, ascending. */
static int background_args(noc_pattern_t *p, const char *args, long *buf, int max, char *err, size_t errlen)
{
    const char *s = args;
    char what[160];
    int nx = parse_list(&s, buf, max);
    if (nx < 1 || *s != '\0')
        return args_error("background", args, "expected background(N) or background({N,N,...}): the nodes "
                          "left out, by number", err, errlen);
    uint8_t *out = noc_xcalloc((size_t)p->n, 1, "background nodes");
    int left = p->n;
    for (int i = 0; i < nx; i++) {
        if (buf[i] < 0 || buf[i] >= p->n) {
            free(out);
            snprintf(what, sizeof what, "node %ld is out of range: there are %d nodes (0..%d)", buf[i], p->n,
                     p->n - 1);
            return args_error("background", args, what, err, errlen);
        }
        left -= !out[buf[i]];
        out[buf[i]] = 1;
    }
    if (left == 0) {
        free(out);
        return args_error("background", args, "every node is left out: none to send to", err, errlen);
    }
    p->list = noc_xmalloc((size_t)left * sizeof *p->list, "background nodes");
    for (int v = 0; v < p->n; v++)
        if (!out[v])
            p->list[p->n_list++] = v;
    free(out);
    return 0;
}

/* randperm: a uniformly random permutation (Fisher-Yates) from stream
 * "perm" of generator perm_seed, so the run's seed does not change it. */
static void randperm_table(noc_pattern_t *p, int64_t seed)
{
    noc_rng_t r;
    noc_rng_seed(&r, (uint64_t)seed, 0x7065726dULL);
    p->list = noc_xmalloc((size_t)p->n * sizeof *p->list, "randperm");
    p->n_list = p->n;
    for (int i = 0; i < p->n; i++)
        p->list[i] = i;
    for (int i = p->n - 1; i > 0; i--) {
        int j = (int)noc_rng_below(&r, (uint32_t)i + 1);
        int x = p->list[i];
        p->list[i] = p->list[j];
        p->list[j] = x;
    }
}

static int setup_args(noc_pattern_t *p, const char *args, int64_t *seed, char *err, size_t errlen)
{
    size_t max = 2;
    for (const char *c = args; *c; c++)
        max += *c == ',';
    long *buf = noc_xmalloc(max * sizeof *buf, "pattern arguments");
    int rc = -1;
    const char *s = args;
    long v;
    if (p->kind == NOC_PAT_HOTSPOT)
        rc = hotspot_args(p, args, buf, (int)max, err, errlen);
    else if (p->kind == NOC_PAT_BACKGROUND)
        rc = background_args(p, args, buf, (int)max, err, errlen);
    else if (p->kind == NOC_PAT_RANDPERM && parse_int(&s, &v) == 0 && *s == '\0')
        *seed = v, rc = 0;
    else if (p->kind == NOC_PAT_RANDPERM)
        args_error("randperm", args, "expected randperm(SEED), SEED an integer (or randperm, seeded by perm_seed)",
                   err, errlen);
    else
        snprintf(err, errlen, "%s(%s): pattern %s takes no arguments", pattern_names[p->kind], args,
                 pattern_names[p->kind]);
    free(buf);
    return rc;
}

int noc_pattern_setup(noc_pattern_t *p, noc_pattern_kind_t kind, const noc_topo_t *t,
                      const noc_pattern_opts_t *o, char *err, size_t errlen)
{
    int background = kind == NOC_PAT_BACKGROUND && o->args;
    if (init_plain(p, background ? NOC_PAT_UNIFORM : kind, t, o->hotspot, o->hotspot_rate, err, errlen) != 0)
        return -1;
    p->kind = kind;
    int64_t seed = o->perm_seed;
    if (o->args && setup_args(p, o->args, &seed, err, errlen) != 0) {
        noc_pattern_free(p);
        return -1;
    }
    if (kind == NOC_PAT_RANDPERM)
        randperm_table(p, seed);
    return 0;
}

void noc_pattern_free(noc_pattern_t *p)
{
    free(p->list);
    free(p->cum);
    p->list = NULL;
    p->cum = NULL;
    p->n_list = 0;
}
