/* circulant.c: circulant graphs circulant:N:s1,s2,... and complete graphs
 * complete:N.
 *
 * Circulant C(N; s1, s2, ...) (the "optimal 2D circulants" of Tarkov and
 * Tsarenko are the two-jump ones): nodes 0 .. N-1, node i linked to
 * i + s_j and i - s_j (mod N) for every jump s_j. Jumps are 1 .. N-1; s and
 * N - s name the same links, so a SPEC giving both is rejected, and a jump
 * with 2s = N gives one link per node, not two. The graph is connected iff
 * gcd(N, s1, s2, ...) = 1; other SPECs are rejected. Ports: for each jump in
 * the SPEC's order, the + port (to i + s_j) then the - port (to i - s_j),
 * one port where 2 s_j = N. Link class j-1 ("s1", "s2", ...) holds the
 * links of jump s_j. Labels are node numbers. Routing: the shortest-path
 * tables of table_route.h (minimal, deadlock-free with up* / down* turn
 * classes; at most NOC_TABLE_ROUTE_MAX_NODES nodes).
 *
 * Complete K_N (2 <= N <= 256): every pair linked; port j+1 of node i leads
 * to the j-th other node in increasing order (node j for j < i, node j+1
 * otherwise). One link class, "link". Every route is the direct link: one
 * hop, one VC class, and the channel dependency graph has no edges at all.
 * Labels are node numbers.
 *
 * Both are drawn on a circle. */
#include "topologies/fabrics.h"
#include "topologies/table_route.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- complete ------------------------------------------------------------ */

static int port_to(int from, int to) { return to < from ? to + 1 : to; }

static void complete_route(const void *ctx, int cur, int src, int dst, noc_route_t *r)
{
    const noc_topo_t *t = ctx;
    (void)t;
    (void)src;
    r->vclass = 0;
    r->port = cur == dst ? 0 : (uint8_t)port_to(cur, dst);
}

static const noc_topo_ops_t complete_ops = {"complete", complete_route, NULL, NULL};

static int build_complete(noc_topo_t *t, const char *arg, char *why, size_t whylen)
{
    static const char form[] = "complete:N with 2 <= N <= 256, e.g. complete:8";
    const char *q;
    if (!arg || !*arg) {
        snprintf(why, whylen, "missing size; expected %s", form);
        return -1;
    }
    long n = noc_fab_read_num(arg, 1000000, &q);
    if (n < 0 || *q != '\0') {
        snprintf(why, whylen, "\"%s\" is not a whole number; expected %s", arg, form);
        return -1;
    }
    if (n < 2 || n > NOC_FAB_MAX_DEGREE + 1) {
        snprintf(why, whylen, "N = %ld is out of range; expected %s", n, form);
        return -1;
    }
    int nn = (int)n;
    t->ops = &complete_ops;
    t->n_vclasses = 1;
    t->n_classes = 1;
    snprintf(t->class_name[0], sizeof t->class_name[0], "link");
    noc_topo_alloc_nodes(t, nn);
    for (int i = 0; i < nn; i++)
        t->port_base[i + 1] = t->port_base[i] + nn;
    noc_topo_alloc_ports(t);
    for (int i = 0; i < nn; i++)
        for (int j = 0; j < nn; j++)
            if (i != j)
                t->peer[t->port_base[i] + port_to(i, j)] = t->port_base[j] + port_to(j, i);
    noc_fab_layout_circle(t);
    return 0;
}

/* ---- circulant ----------------------------------------------------------- */

static void circulant_route(const void *ctx, int cur, int src, int dst, noc_route_t *r)
{
    const noc_topo_t *t = ctx;
    noc_table_route_get(t->priv, cur, src, dst, r);
}

static void circulant_destroy(noc_topo_t *t)
{
    noc_table_route_free(t->priv);
    t->priv = NULL;
}

static const noc_topo_ops_t circulant_ops = {"circulant", circulant_route, NULL,
                                             circulant_destroy};

static long gcd(long a, long b)
{
    while (b) {
        long r = a % b;
        a = b;
        b = r;
    }
    return a;
}

static int build_circulant(noc_topo_t *t, const char *arg, char *why, size_t whylen)
{
    static const char form[] =
        "circulant:N:s1,s2,... with N >= 3 nodes and jumps 1 <= s < N, e.g. circulant:16:1,4";
    long s[NOC_TOPO_MAX_CLASSES];
    int k = 0, degree = 0;
    const char *q;
    if (!arg || !*arg) {
        snprintf(why, whylen, "missing size; expected %s", form);
        return -1;
    }
    long n = noc_fab_read_num(arg, 1000000000, &q);
    if (n < 0 || (*q != ':' && *q != '\0')) {
        snprintf(why, whylen, "\"%.*s\" is not a whole number; expected %s",
                 (int)strcspn(arg, ":"), arg, form);
        return -1;
    }
    if (*q == '\0') {
        snprintf(why, whylen, "missing the jumps s1,s2,...; expected %s", form);
        return -1;
    }
    if (n < 3 || n > NOC_TABLE_ROUTE_MAX_NODES) {
        snprintf(why, whylen, "N = %ld is out of range (3 .. %d: circulants use table routing); "
                 "expected %s", n, NOC_TABLE_ROUTE_MAX_NODES, form);
        return -1;
    }
    long common = n;
    for (q++;;) {
        const char *start = q;
        long v = noc_fab_read_num(q, 1000000000, &q);
        if (v < 0 || (*q != ',' && *q != '\0')) {
            snprintf(why, whylen, "jump \"%.*s\" is not a whole number; expected %s",
                     (int)strcspn(start, ","), start, form);
            return -1;
        }
        if (v < 1 || v >= n) {
            snprintf(why, whylen, "jump %ld is out of range (1 .. %ld); expected %s", v, n - 1,
                     form);
            return -1;
        }
        if (k == NOC_TOPO_MAX_CLASSES) {
            snprintf(why, whylen, "more than %d jumps", NOC_TOPO_MAX_CLASSES);
            return -1;
        }
        for (int j = 0; j < k; j++)
            if (s[j] == v || s[j] == n - v) {
                snprintf(why, whylen, "jump %ld repeats jump %ld (s and N-s give the same links)",
                         v, s[j]);
                return -1;
            }
        s[k++] = v;
        degree += 2 * v == n ? 1 : 2;
        common = gcd(common, v);
        if (*q == '\0')
            break;
        q++;
    }
    if (common != 1) {
        snprintf(why, whylen,
                 "not connected: gcd(N, jumps) = %ld, so the nodes fall into %ld separate "
                 "circulants; expected %s",
                 common, common, form);
        return -1;
    }
    if (degree > NOC_FAB_MAX_DEGREE) {
        snprintf(why, whylen, "degree %d is more than %d", degree, NOC_FAB_MAX_DEGREE);
        return -1;
    }
    int nn = (int)n;
    t->ops = &circulant_ops;
    t->n_classes = k;
    for (int j = 0; j < k; j++)
        snprintf(t->class_name[j], sizeof t->class_name[j], "s%d", j + 1);
    noc_topo_alloc_nodes(t, nn);
    for (int i = 0; i < nn; i++)
        t->port_base[i + 1] = t->port_base[i] + 1 + degree;
    noc_topo_alloc_ports(t);
    /* Every node has the same port layout, so the - port of i + s is the
     * peer of the + port of i. */
    for (int i = 0; i < nn; i++) {
        int port = 1;
        for (int j = 0; j < k; j++) {
            int single = 2 * s[j] == n;
            int up = (int)((i + s[j]) % n);
            int g = t->port_base[i] + port;
            t->peer[g] = t->port_base[up] + port + !single;
            t->peer[t->port_base[up] + port + !single] = g;
            t->link_class[g] = t->link_class[t->port_base[up] + port + !single] = (uint8_t)j;
            port += single ? 1 : 2;
        }
    }
    noc_fab_layout_circle(t);
    noc_table_route_t *tr = noc_table_route_build(t, why, whylen);
    if (!tr)
        return -1;
    t->priv = tr;
    t->n_vclasses = noc_table_route_vclasses(tr);
    return 0;
}

int noc_topo_build_circulant(noc_topo_t *t, const char *kind, const char *arg, unsigned flags,
                             char *why, size_t whylen)
{
    (void)flags;
    if (strcmp(kind, "complete") == 0)
        return build_complete(t, arg, why, whylen);
    return build_circulant(t, arg, why, whylen);
}
