/* topo.c: the topology front end. Splits a SPEC into kind and size, hands it
 * to the kind's builder (a static name table; grid.c builds ring, mesh, torus
 * and hypercube; bsn.c, otis.c, pyramid.c, circulant.c, graphfile.c and anynet.c the
 * fabrics of fabrics.h), and wraps the builder's reason into a message that quotes
 * the SPEC. Also the helpers every builder shares (port arrays) and the
 * queries that work on any topology: owner of a port, labels and label
 * lookup, hops along the routing function, BFS distance. */
#include "topologies/topo_internal.h"
#include "util/suggest.h"
#include "topologies/fabrics.h"
#include <assert.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int build_fn(noc_topo_t *t, const char *kind, const char *arg, unsigned flags,
                     char *why, size_t whylen);

static const struct {
    const char *kind;
    build_fn *build;
} builders[] = {
    {"ring", noc_topo_build_grid},
    {"mesh", noc_topo_build_grid},
    {"torus", noc_topo_build_grid},
    {"hypercube", noc_topo_build_grid},
    {"bsn", noc_topo_build_bsn},
    {"otis", noc_topo_build_otis},
    {"pyramid", noc_topo_build_pyramid},
    {"multilevel", noc_topo_build_pyramid},
    {"circulant", noc_topo_build_circulant},
    {"complete", noc_topo_build_circulant},
    {"graph", noc_topo_build_graph},
    {"anynet", noc_topo_build_anynet},
    {"cmesh", noc_topo_build_cmesh},
    {"fly", noc_topo_build_fly},
    {"dragonfly", noc_topo_build_dragonfly},
    {"fattree", noc_topo_build_fattree},
    {"flatfly", noc_topo_build_flatfly},
    {"qtree", noc_topo_build_qtree},
    {"tree4", noc_topo_build_tree4},
};

#define N_BUILDERS (sizeof builders / sizeof builders[0])

static const char spec_help[] =
    "ring:N (N >= 3), mesh:AxBx... (sizes >= 2, any number of dimensions), "
    "torus:AxBx... (sizes >= 3), hypercube:D (1 <= D <= 20), bsn:BASIS, otis:BASIS (BASIS "
    "another SPEC, e.g. bsn:ring:8), pyramid:N, multilevel:N:m1,m2,..., circulant:N:s1,s2,..., "
    "complete:N, graph:FILE, anynet:FILE, cmesh:AxB[:CXxCY], fly:K:N, dragonfly:P, fattree:K:N, "
    "flatfly:K:N[:CXxCY[:X]], qtree:K:N, tree4";

const char *noc_topo_spec_help(void) { return spec_help; }

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        noc_oom("a topology", n);
    }
    return p;
}

static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    if (!err || !errlen)
        return;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

void noc_topo_alloc_nodes(noc_topo_t *t, int n_nodes)
{
    assert(n_nodes >= 1);
    t->n_nodes = n_nodes;
    t->port_base = xmalloc(((size_t)n_nodes + 1) * sizeof *t->port_base);
    t->port_base[0] = 0;
}

void noc_topo_set_terminals(noc_topo_t *t, int n_terms, const int *locals, const int *list)
{
    noc_topo_set_terminals_ways(t, n_terms, locals, list, NULL);
}

void noc_topo_set_terminals_ways(noc_topo_t *t, int n_terms, const int *locals, const int *list,
                                 const uint8_t *way)
{
    int n = t->n_nodes, entries = 0;
    for (int v = 0; v < n; v++)
        entries += locals[v];
    t->n_terms = n_terms;
    t->term_base = xmalloc(((size_t)n + 1) * sizeof *t->term_base);
    t->term_list = xmalloc((size_t)entries * sizeof *t->term_list);
    t->term_node = xmalloc((size_t)n_terms * sizeof *t->term_node);
    t->term_gport = xmalloc((size_t)n_terms * sizeof *t->term_gport);
    int split = 0;
    for (int k = 0; way && k < entries; k++)
        split |= way[k] != (NOC_TOPO_INJECT | NOC_TOPO_EJECT);
    int *enode = t->term_node, *egport = t->term_gport;
    if (split) {
        enode = t->term_enode = xmalloc((size_t)n_terms * sizeof *t->term_enode);
        egport = t->term_egport = xmalloc((size_t)n_terms * sizeof *t->term_egport);
    }
    for (int i = 0; i < n_terms; i++)
        t->term_node[i] = enode[i] = -1;
    t->term_base[0] = 0;
    t->max_locals = 0;
    for (int v = 0; v < n; v++) {
        t->term_base[v + 1] = t->term_base[v] + locals[v];
        if (locals[v] > t->max_locals)
            t->max_locals = locals[v];
        for (int i = 0; i < locals[v]; i++) {
            int k = t->term_base[v] + i, term = list[k], w = way ? way[k] : NOC_TOPO_INJECT | NOC_TOPO_EJECT;
            assert(term >= 0 && term < n_terms);
            t->term_list[k] = term;
            if (w & NOC_TOPO_INJECT) {
                assert(t->term_node[term] < 0);
                t->term_node[term] = v;
                t->term_gport[term] = t->port_base[v] + i;
            }
            if (split && (w & NOC_TOPO_EJECT)) {
                assert(enode[term] < 0);
                enode[term] = v;
                egport[term] = t->port_base[v] + i;
            }
        }
    }
    for (int i = 0; i < n_terms; i++)
        assert(t->term_node[i] >= 0 && enode[i] >= 0);
    t->max_degree = 0;
    for (int v = 0; v < n; v++)
        if (t->port_base[v + 1] - t->port_base[v] - locals[v] > t->max_degree)
            t->max_degree = t->port_base[v + 1] - t->port_base[v] - locals[v];
}

void noc_topo_alloc_ports(noc_topo_t *t)
{
    int n = t->n_nodes;
    t->n_ports = t->port_base[n];
    t->max_degree = 0;
    for (int i = 0; i < n; i++) {
        int deg = noc_topo_degree(t, i);
        assert(deg >= 0);
        if (deg > t->max_degree)
            t->max_degree = deg;
    }
    size_t np = (size_t)t->n_ports;
    t->peer = xmalloc(np * sizeof *t->peer);
    for (size_t g = 0; g < np; g++)
        t->peer[g] = -1;
    t->link_class = xmalloc(np * sizeof *t->link_class);
    memset(t->link_class, 0, np * sizeof *t->link_class);
}

#ifndef NDEBUG
/* The contract of topo.h, checked once per build in debug builds. */
static void check_topo(const noc_topo_t *t)
{
    assert(t->ops && t->ops->route && t->ops->kind);
    assert(t->n_vclasses >= 1 && t->n_classes <= NOC_TOPO_MAX_CLASSES);
    for (int n = 0; n < t->n_nodes; n++) {
        int b = t->port_base[n], L = t->term_base ? t->term_base[n + 1] - t->term_base[n] : 1;
        assert(t->port_base[n + 1] > b);
        for (int g = b; g < b + L; g++)
            assert(t->peer[g] == -1);
        for (int g = b + L; g < t->port_base[n + 1]; g++) {
            int p = t->peer[g];
            assert(p >= 0 && p < t->n_ports && t->peer[p] == g);
            assert(t->link_class[g] < t->n_classes);
        }
    }
}
#endif

int noc_topo_size(const char *spec, unsigned flags, noc_topo_shape_t *sh)
{
    static const char *const grids[] = {"ring", "mesh", "torus", "hypercube"};
    char s[160];
    if (!spec)
        return -1;
    while (isspace((unsigned char)*spec))
        spec++;
    size_t len = strlen(spec);
    while (len && isspace((unsigned char)spec[len - 1]))
        len--;
    if (len >= sizeof s) /* no grid SPEC that noctua builds is this long */
        return -1;
    memcpy(s, spec, len);
    s[len] = '\0';
    char *colon = strchr(s, ':');
    if (!colon)
        return -1;
    *colon = '\0';
    for (size_t i = 0; i < sizeof grids / sizeof grids[0]; i++)
        if (strcmp(s, grids[i]) == 0)
            return noc_topo_grid_shape(s, colon + 1, flags, sh);
    return -1;
}

noc_topo_t *noc_topo_create(const char *spec, unsigned flags, char *err, size_t errlen)
{
    char *s = NULL;
    char why[512];
    noc_topo_t *t = NULL;
    const char *kind_end, *arg;
    size_t len, klen, i;

    set_err(err, errlen, "%s", "");
    if (!spec) {
        set_err(err, errlen, "topology: no SPEC given; expected one of %s", spec_help);
        return NULL;
    }
    while (isspace((unsigned char)*spec))
        spec++;
    len = strlen(spec);
    while (len && isspace((unsigned char)spec[len - 1]))
        len--;
    if (len == 0) {
        set_err(err, errlen, "topology \"\": empty SPEC; expected one of %s", spec_help);
        return NULL;
    }
    if (len > NOC_TOPO_SPEC_MAX) {
        set_err(err, errlen, "topology \"%.40s...\": SPEC longer than %d characters",
                spec, NOC_TOPO_SPEC_MAX);
        return NULL;
    }
    s = xmalloc(len + 1);
    memcpy(s, spec, len);
    s[len] = '\0';

    kind_end = strchr(s, ':');
    klen = kind_end ? (size_t)(kind_end - s) : len;
    arg = kind_end ? kind_end + 1 : NULL;
    for (i = 0; i < N_BUILDERS; i++)
        if (strlen(builders[i].kind) == klen && strncmp(builders[i].kind, s, klen) == 0)
            break;
    if (i == N_BUILDERS) {
        const char *kinds[N_BUILDERS];
        for (size_t k = 0; k < N_BUILDERS; k++)
            kinds[k] = builders[k].kind;
        char word[32], dym[64] = "";
        snprintf(word, sizeof word, "%.*s", (int)(klen < sizeof word ? klen : sizeof word - 1), s);
        const char *near = noc_suggest(word, kinds, N_BUILDERS);
        if (near)
            snprintf(dym, sizeof dym, " (did you mean \"%s\"?)", near);
        snprintf(why, sizeof why, "unknown kind \"%.*s\"%s; expected one of %s",
                 (int)klen, s, dym, spec_help);
        goto fail;
    }

    t = xmalloc(sizeof *t);
    memset(t, 0, sizeof *t);
    t->route_needs_src = 1; /* unless the builder knows better */
    t->spec = s; /* the builder reads arg, inside s */
    why[0] = '\0';
    if (builders[i].build(t, builders[i].kind, arg, flags, why, sizeof why) != 0)
        goto fail;
#ifndef NDEBUG
    check_topo(t);
#endif
    assert(!t->route_rand || t->route_needs_src);
    int terms = t->term_base ? t->n_terms : t->n_nodes;
    if (!t->route_needs_src && t->n_nodes <= NOC_TOPO_ROUTE_CACHE_NODES && terms <= NOC_TOPO_ROUTE_CACHE_NODES) {
        size_t n = (size_t)t->n_nodes, T = (size_t)terms;
        t->route_cache = xmalloc(n * T * sizeof *t->route_cache);
        for (int cur = 0; cur < t->n_nodes; cur++)
            for (int dst = 0; dst < terms; dst++)
                t->ops->route(t, cur, -1, dst, &t->route_cache[(size_t)cur * T + (size_t)dst]);
    }
    noc_topo_fill_graph(t);
    return t;

fail:
    set_err(err, errlen, "topology \"%s\": %s", s, why[0] ? why : "invalid SPEC");
    if (t)
        t->spec = NULL; /* s is freed here */
    noc_topo_destroy(t);
    free(s);
    return NULL;
}

void noc_topo_destroy(noc_topo_t *t)
{
    if (!t)
        return;
    if (t->ops && t->ops->destroy)
        t->ops->destroy(t);
    free(t->port_base);
    free(t->term_base);
    free(t->term_list);
    free(t->term_node);
    free(t->term_gport);
    free(t->term_enode);
    free(t->term_egport);
    free(t->peer);
    free(t->link_class);
    free(t->pos);
    free(t->link_latency);
    free(t->route_cache);
    free(t->spec);
    free(t);
}

int noc_topo_port_node(const noc_topo_t *t, int g)
{
    return g < 0 || g >= t->n_ports ? -1 : noc_port_owner(t->port_base, t->n_nodes, g);
}

void noc_topo_label(const noc_topo_t *t, int n, char *buf, size_t len)
{
    if (!buf || !len)
        return;
    if (n < 0 || n >= t->n_nodes)
        snprintf(buf, len, "?%d", n);
    else if (t->ops && t->ops->label)
        t->ops->label(t, n, buf, len);
    else
        snprintf(buf, len, "%d", n);
}

/* Copy src to dst without blanks; returns 0, or -1 if it does not fit. */
static int squeeze(const char *src, char *dst, size_t len)
{
    size_t j = 0;
    for (; *src; src++) {
        if (isspace((unsigned char)*src))
            continue;
        if (j + 1 >= len)
            return -1;
        dst[j++] = *src;
    }
    dst[j] = '\0';
    return 0;
}

static int label_is(const noc_topo_t *t, int n, const char *squeezed)
{
    char buf[256], sq[256];
    noc_topo_label(t, n, buf, sizeof buf);
    return squeeze(buf, sq, sizeof sq) == 0 && strcmp(sq, squeezed) == 0;
}

/* Read a decimal number at *p (digits only), advancing p; -1 if none or
 * above NOC_TOPO_MAX_NODES. */
static int read_uint(const char **p)
{
    const char *s = *p;
    long v = 0;
    if (!isdigit((unsigned char)*s))
        return -1;
    for (; isdigit((unsigned char)*s); s++) {
        v = v * 10 + (*s - '0');
        if (v > NOC_TOPO_MAX_NODES)
            return -1;
    }
    *p = s;
    return (int)v;
}

/* The node a grid-shaped label names, read as coordinates "(c0,c1,...)" or
 * as a bit string with bit dims-1 first; -1 if it is neither. The caller
 * checks the guess against the real label. */
static int grid_guess(const noc_topo_t *t, const char *q)
{
    int n = 0;
    if (t->dims <= 0)
        return -1;
    if (q[0] == '(') {
        const char *p = q + 1;
        for (int d = 0; d < t->dims; d++) {
            if (d && *p++ != ',')
                return -1;
            int c = read_uint(&p);
            if (c < 0 || c >= t->k[d])
                return -1;
            n += c * t->stride[d];
        }
        return p[0] == ')' && p[1] == '\0' ? n : -1;
    }
    if (strlen(q) == (size_t)t->dims) {
        for (int d = 0; d < t->dims; d++) {
            char ch = q[t->dims - 1 - d];
            if ((ch != '0' && ch != '1') || t->k[d] != 2)
                return -1;
            n += (ch - '0') * t->stride[d];
        }
        return n;
    }
    return -1;
}

int noc_topo_find_label(const noc_topo_t *t, const char *label)
{
    char q[256];
    const char *p;
    int n;

    if (!label || squeeze(label, q, sizeof q) != 0 || !q[0])
        return -1;
    n = grid_guess(t, q);
    if (n >= 0 && n < t->n_nodes && label_is(t, n, q))
        return n;
    p = q;
    n = read_uint(&p);
    if (n >= 0 && *p == '\0')
        return n < t->n_nodes ? n : -1;
    for (n = 0; n < t->n_nodes; n++)
        if (label_is(t, n, q))
            return n;
    return -1;
}

int noc_topo_find_terminal(const noc_topo_t *t, const char *label)
{
    if (!t->term_base)
        return noc_topo_find_label(t, label);
    char q[256];
    if (!label || squeeze(label, q, sizeof q) != 0 || !q[0])
        return -1;
    const char *p = q + (q[0] == 't'); /* "t5" as the reports write it, or "5" */
    int n = read_uint(&p);
    return n >= 0 && *p == '\0' && n < t->n_terms ? n : -1;
}

int noc_topo_route_hops(const noc_topo_t *t, int a, int b)
{
    return noc_graph_route_hops(&t->graph, a, b);
}

int noc_topo_distance(const noc_topo_t *t, int a, int b)
{
    int *dist, *queue, head = 0, tail = 0, result = -1;
    if (a < 0 || a >= t->n_nodes || b < 0 || b >= t->n_nodes)
        return -1;
    if (a == b)
        return 0;
    dist = xmalloc((size_t)t->n_nodes * sizeof *dist);
    queue = xmalloc((size_t)t->n_nodes * sizeof *queue);
    for (int n = 0; n < t->n_nodes; n++)
        dist[n] = -1;
    dist[a] = 0;
    queue[tail++] = a;
    while (head < tail && result < 0) {
        int n = queue[head++];
        for (int g = t->port_base[n] + 1; g < t->port_base[n + 1]; g++) {
            int m = noc_topo_port_node(t, t->peer[g]);
            if (m < 0 || dist[m] >= 0)
                continue;
            dist[m] = dist[n] + 1;
            if (m == b) {
                result = dist[m];
                break;
            }
            queue[tail++] = m;
        }
    }
    free(dist);
    free(queue);
    return result;
}
