/* graph.c: the queries on the kernel's view of a fabric (graph.h) that are
 * off the hot path: the owner of a port, labels, groups, hops along the
 * routing function. */
#include "model/graph.h"
#include <stdio.h>

int noc_port_owner(const int *port_base, int n_nodes, int gport)
{
    int lo = 0, hi = n_nodes - 1;
    if (gport < 0 || gport >= port_base[n_nodes])
        return -1;
    /* Last node whose port_base is <= gport (every node has its local port,
     * so port_base is strictly increasing). */
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (port_base[mid] <= gport)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

int noc_graph_port_node(const noc_graph_t *g, int gport)
{
    return noc_port_owner(g->port_base, g->n_nodes, gport);
}

void noc_graph_label(const noc_graph_t *g, int n, char *buf, size_t len)
{
    if (!buf || !len)
        return;
    if (n < 0 || n >= g->n_nodes)
        snprintf(buf, len, "?%d", n);
    else if (g->label)
        g->label(g->ctx, n, buf, len);
    else
        snprintf(buf, len, "%d", n);
}

void noc_graph_term_label(const noc_graph_t *g, int t, char *buf, size_t len)
{
    if (!g->term_base)
        noc_graph_label(g, t, buf, len);
    else if (buf && len)
        snprintf(buf, len, t >= 0 && t < g->n_terms ? "t%d" : "?t%d", t);
}

int noc_graph_groups(const noc_graph_t *g, int n, char names[2][32], size_t len)
{
    return g->groups && n >= 0 && n < g->n_nodes ? g->groups(g->ctx, n, names, len) : 0;
}

int noc_graph_route_hops(const noc_graph_t *g, int a, int b)
{
    int T = noc_graph_terms(g), hops = 0;
    if (a < 0 || a >= T || b < 0 || b >= T)
        return -1;
    if (g->hops)
        return g->hops(g->ctx, a, b);
    for (int cur = noc_graph_term_node(g, a);;) {
        noc_route_t r;
        noc_graph_route(g, cur, a, b, 0, hops, &r); /* draws: salt 0's route */
        int L = noc_graph_locals(g, cur);
        if (r.port < L) /* ejected: at b's port, or lost */
            return g->port_base[cur] + r.port == noc_graph_term_egport(g, b) ? hops : -1;
        if (r.port >= L + noc_graph_degree(g, cur))
            return -1;
        int p = g->peer[g->port_base[cur] + r.port];
        if (p < 0 || ++hops > g->n_nodes)
            return -1;
        cur = noc_graph_port_node(g, p);
    }
}
