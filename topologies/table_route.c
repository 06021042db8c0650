/* table_route.c: the shortest-path tables of table_route.h: a centre as the
 * up* / down* root, then per destination a BFS and a pass in BFS order that
 * picks each node's next hop with the fewest down->up turns left. */
#include "topologies/table_route.h"
#include "topologies/topo_internal.h"
#include "topologies/fabrics.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

struct noc_table_route {
    int n;
    int n_vclasses;
    int root;
    uint8_t *port;  /* [cur * n + dst]: output port at cur (0 at dst) */
    uint8_t *turns; /* [cur * n + dst]: down->up turns left from cur */
};

/* up* / down* key: smaller level first, then smaller number. */
static int goes_up(const int *level, int x, int y)
{
    return level[y] < level[x] || (level[y] == level[x] && y < x);
}

/* The root: a centre (least eccentricity), lowest number first; -1 when the
 * graph is disconnected. */
static int find_root(const noc_topo_t *t, const int *pn, int *dist, int *queue)
{
    int root = -1, best = INT_MAX;
    for (int s = 0; s < t->n_nodes; s++) {
        int reached = noc_fab_bfs(t, pn, s, dist, queue);
        if (reached < t->n_nodes)
            return -1;
        int ecc = dist[queue[reached - 1]];
        if (ecc < best) {
            best = ecc;
            root = s;
        }
    }
    return root;
}

noc_table_route_t *noc_table_route_build(const noc_topo_t *t, char *why, size_t whylen)
{
    int n = t->n_nodes, max_turns = 0, ok = 0;
    if (n > NOC_TABLE_ROUTE_MAX_NODES) {
        snprintf(why, whylen,
                 "%d nodes: table routing (used for this fabric) handles at most %d", n,
                 NOC_TABLE_ROUTE_MAX_NODES);
        return NULL;
    }
    noc_table_route_t *tr = noc_xcalloc(1, sizeof *tr, "topology");
    int *pn = noc_fab_peer_nodes(t);
    int *dist = noc_xcalloc((size_t)n, sizeof *dist, "topology");
    int *queue = noc_xcalloc((size_t)n, sizeof *queue, "topology");
    int *level = noc_xcalloc((size_t)n, sizeof *level, "topology");
    int *h = noc_xcalloc((size_t)n, sizeof *h, "topology");
    uint8_t *up1 = noc_xcalloc((size_t)n, 1, "topology");

    tr->n = n;
    tr->port = noc_xcalloc((size_t)n * (size_t)n, 1, "topology");
    tr->turns = noc_xcalloc((size_t)n * (size_t)n, 1, "topology");
    tr->root = find_root(t, pn, dist, queue);
    if (tr->root < 0) {
        snprintf(why, whylen, "the graph is not connected");
        goto out;
    }
    noc_fab_bfs(t, pn, tr->root, level, queue);

    for (int dst = 0; dst < n; dst++) {
        int reached = noc_fab_bfs(t, pn, dst, dist, queue);
        h[dst] = 0;
        up1[dst] = 0;
        for (int i = 1; i < reached; i++) {
            int x = queue[i], base = t->port_base[x];
            int best_h = INT_MAX, best_up = 2, count = 0, pick, port = 0;
            /* lexicographic least (turns left, first hop goes up) */
            for (int g = base + 1; g < t->port_base[x + 1]; g++) {
                int y = pn[g];
                if (dist[y] != dist[x] - 1)
                    continue;
                int up = goes_up(level, x, y);
                int hh = h[y] + (!up && up1[y]);
                if (hh < best_h || (hh == best_h && up < best_up)) {
                    best_h = hh;
                    best_up = up;
                    count = 1;
                } else if (hh == best_h && up == best_up) {
                    count++;
                }
            }
            pick = (x + dst) % count;
            for (int g = base + 1; g < t->port_base[x + 1]; g++) {
                int y = pn[g];
                if (dist[y] != dist[x] - 1)
                    continue;
                int up = goes_up(level, x, y);
                if (h[y] + (!up && up1[y]) == best_h && up == best_up && pick-- == 0) {
                    port = g - base;
                    break;
                }
            }
            h[x] = best_h;
            up1[x] = (uint8_t)best_up;
            if (best_h > max_turns)
                max_turns = best_h;
            if (max_turns >= NOC_TOPO_MAX_CLASSES) {
                snprintf(why, whylen,
                         "table routing would need more than %d VC classes (up* / down* turns)",
                         NOC_TOPO_MAX_CLASSES);
                goto out;
            }
            size_t at = (size_t)x * (size_t)n + (size_t)dst;
            tr->port[at] = (uint8_t)port;
            tr->turns[at] = (uint8_t)best_h;
        }
    }
    tr->n_vclasses = 1 + max_turns;
    ok = 1;
out:
    free(pn);
    free(dist);
    free(queue);
    free(level);
    free(h);
    free(up1);
    if (!ok) {
        noc_table_route_free(tr);
        tr = NULL;
    }
    return tr;
}

void noc_table_route_free(noc_table_route_t *tr)
{
    if (!tr)
        return;
    free(tr->port);
    free(tr->turns);
    free(tr);
}

void noc_table_route_get(const noc_table_route_t *tr, int cur, int src, int dst, noc_route_t *r)
{
    size_t n = (size_t)tr->n;
    if (cur == dst) {
        r->port = 0;
        r->vclass = 0;
        return;
    }
    int before = tr->turns[(size_t)src * n + (size_t)dst];
    int left = tr->turns[(size_t)cur * n + (size_t)dst];
    r->port = tr->port[(size_t)cur * n + (size_t)dst];
    r->vclass = (uint8_t)(before > left ? before - left : 0);
}

int noc_table_route_vclasses(const noc_table_route_t *tr) { return tr->n_vclasses; }

int noc_table_route_root(const noc_table_route_t *tr) { return tr->root; }
