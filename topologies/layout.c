/* layout.c: helpers shared by the fabric builders of fabrics.h: zeroed
 * allocation that aborts on out of memory, the node at the far end of every
 * port, BFS distances, the circle layout and bounding boxes of drawing
 * positions, number reading for SPEC parsers, and the destroy of fabrics
 * whose state is one block. */
#include "topologies/fabrics.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int *noc_fab_peer_nodes(const noc_topo_t *t)
{
    int *pn = noc_xcalloc((size_t)t->n_ports, sizeof *pn, "topology");
    for (int n = 0; n < t->n_nodes; n++)
        for (int g = t->port_base[n]; g < t->port_base[n + 1]; g++)
            pn[g] = -1;
    /* A port's peer is a global port; its owner follows from port_base. */
    for (int n = 0; n < t->n_nodes; n++)
        for (int g = t->port_base[n]; g < t->port_base[n + 1]; g++) /* (local ports: peer -1) */
            if (t->peer[g] >= 0)
                pn[t->peer[g]] = n;
    return pn;
}

int noc_fab_bfs(const noc_topo_t *t, const int *peer_node, int src, int *dist, int *queue)
{
    int head = 0, tail = 0;
    for (int n = 0; n < t->n_nodes; n++)
        dist[n] = -1;
    dist[src] = 0;
    queue[tail++] = src;
    while (head < tail) {
        int n = queue[head++];
        for (int g = t->port_base[n]; g < t->port_base[n + 1]; g++) { /* (local ports: peer -1) */
            int m = peer_node[g];
            if (m >= 0 && dist[m] < 0) {
                dist[m] = dist[n] + 1;
                queue[tail++] = m;
            }
        }
    }
    return tail;
}

void noc_fab_layout_circle(noc_topo_t *t)
{
    int n = t->n_nodes;
    const double pi = 3.14159265358979323846;
    /* radius with neighbours on the circle one unit apart */
    double r = n > 2 ? 0.5 / sin(pi / n) : 0.5 * (n - 1);
    t->pos = noc_xcalloc((size_t)n * 2, sizeof *t->pos, "topology");
    for (int i = 0; i < n; i++) {
        /* node 0 at the top, then clockwise on screen (y down) */
        double a = 2.0 * pi * i / n;
        t->pos[2 * i] = (float)(r + r * sin(a));
        t->pos[2 * i + 1] = (float)(r - r * cos(a));
    }
}

void noc_fab_bbox(const noc_topo_t *t, float box[4])
{
    box[0] = box[1] = box[2] = box[3] = 0.0f;
    if (!t->pos)
        return;
    for (int i = 0; i < t->n_nodes; i++) {
        float x = t->pos[2 * i], y = t->pos[2 * i + 1];
        if (i == 0 || x < box[0])
            box[0] = x;
        if (i == 0 || y < box[1])
            box[1] = y;
        if (i == 0 || x > box[2])
            box[2] = x;
        if (i == 0 || y > box[3])
            box[3] = y;
    }
}

long noc_fab_read_num(const char *s, long limit, const char **next)
{
    long v = 0;
    const char *p = s;
    int over = 0;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (!over)
            v = v * 10 + (*p - '0');
        if (v > limit)
            over = 1;
    }
    *next = p;
    if (p == s || over)
        return -1;
    return v;
}

int noc_fab_read_kn(const char *arg, long kmax, long nmax, int *k, int *n)
{
    const char *p = arg ? arg : "";
    long kv = noc_fab_read_num(p, kmax, &p), nv = -1;
    if (kv >= 0 && *p == ':')
        nv = noc_fab_read_num(p + 1, nmax, &p);
    if (kv < 0 || nv < 0 || *p)
        return -1;
    if (kv < 2 || nv < 1)
        return -2;
    long long terms = 1;
    for (long i = 0; i < nv && terms <= NOC_TOPO_MAX_NODES; i++)
        terms *= kv;
    if (terms > NOC_TOPO_MAX_NODES || terms / kv * nv > NOC_TOPO_MAX_NODES)
        return -3;
    *k = (int)kv;
    *n = (int)nv;
    return 0;
}

void noc_fab_free_priv(noc_topo_t *t)
{
    free(t->priv);
    t->priv = NULL;
}
