/* basis.c: building the basis network Ω of BSN and OTIS from a sub-SPEC
 * (basis.h), its labels inside the swapped fabrics' labels, and its
 * all-pairs distances. */
#include "topologies/basis.h"
#include "topologies/fabrics.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

noc_topo_t *noc_basis_create(const char *arg, const char *outer, unsigned flags, char *why,
                             size_t whylen)
{
    char err[512], prefix[160];
    if (!arg || !*arg) {
        snprintf(why, whylen,
                 "missing basis; expected %s:BASIS with BASIS a SPEC such as ring:8, mesh:4x4, "
                 "torus:4x4, hypercube:3, complete:5 or graph:FILE",
                 outer);
        return NULL;
    }
    noc_topo_t *b = noc_topo_create(arg, flags, err, sizeof err);
    if (!b) {
        /* drop noc_topo_create's own 'topology "SPEC": ' prefix */
        const char *reason = err;
        snprintf(prefix, sizeof prefix, "topology \"%s\": ", arg);
        if (strncmp(err, prefix, strlen(prefix)) == 0)
            reason = err + strlen(prefix);
        snprintf(why, whylen, "basis \"%s\": %s", arg, reason);
        return NULL;
    }
    if (strcmp(b->ops->kind, "anynet") == 0) { /* the swapped fabrics promise deadlock freedom */
        snprintf(why, whylen, "basis \"%s\": anynet routes as BookSim2's min_anynet, without "
                 "deadlock avoidance; as a basis give the graph as graph:FILE", arg);
        noc_topo_destroy(b);
        return NULL;
    }
    if (b->term_base) { /* a swapped fabric's node is one processor on one router */
        snprintf(why, whylen, "basis \"%s\": its routers carry several terminals or none (%s); a BSN's or "
                 "OTIS's basis has one processor on each node", arg, b->ops->kind);
        noc_topo_destroy(b);
        return NULL;
    }
    if (b->n_nodes < 2) {
        snprintf(why, whylen, "basis \"%s\": needs at least 2 nodes", arg);
        noc_topo_destroy(b);
        return NULL;
    }
    if (b->max_degree + 1 > NOC_FAB_MAX_DEGREE) {
        snprintf(why, whylen,
                 "basis \"%s\": nodes with more than %d ports leave no port for the swap link",
                 arg, NOC_FAB_MAX_DEGREE - 1);
        noc_topo_destroy(b);
        return NULL;
    }
    return b;
}

void noc_basis_label(const noc_topo_t *b, int v, char *buf, size_t len)
{
    if (strcmp(b->ops->kind, "ring") == 0)
        snprintf(buf, len, "%d", v);
    else
        noc_topo_label(b, v, buf, len);
}

uint16_t *noc_basis_distances(const noc_topo_t *b)
{
    int n = b->n_nodes;
    int *pn = noc_fab_peer_nodes(b);
    int *dist = noc_xcalloc((size_t)n, sizeof *dist, "topology");
    int *queue = noc_xcalloc((size_t)n, sizeof *queue, "topology");
    uint16_t *d = noc_xcalloc((size_t)n * (size_t)n, sizeof *d, "topology");
    for (int a = 0; a < n; a++) {
        noc_fab_bfs(b, pn, a, dist, queue);
        for (int c = 0; c < n; c++)
            d[(size_t)a * (size_t)n + (size_t)c] = (uint16_t)(dist[c] < 0 ? UINT16_MAX : dist[c]);
    }
    free(pn);
    free(dist);
    free(queue);
    return d;
}

void noc_basis_wire_groups(noc_topo_t *t, const noc_topo_t *b, int first, int copies,
                           uint8_t cls)
{
    int n = b->n_nodes;
    int *pn = noc_fab_peer_nodes(b);
    for (int g = 0; g < copies; g++)
        for (int p = 0; p < n; p++) {
            int id = first + g * n + p;
            for (int i = 1; i <= noc_topo_degree(b, p); i++) {
                int gb = b->port_base[p] + i, q = pn[gb];
                int j = b->peer[gb] - b->port_base[q];
                t->peer[t->port_base[id] + i] = t->port_base[first + g * n + q] + j;
                t->link_class[t->port_base[id] + i] = cls;
            }
        }
    free(pn);
}

void noc_basis_group_step(const noc_topo_t *b, int cp, int entry, int target, int phase,
                          noc_route_t *r)
{
    if (cp == target) {
        r->port = (uint8_t)(noc_topo_degree(b, cp) + 1);
        r->vclass = (uint8_t)(phase * b->n_vclasses);
        return;
    }
    noc_route_t br;
    b->ops->route(b, cp, entry, target, &br);
    r->port = br.port;
    r->vclass = (uint8_t)(phase * b->n_vclasses + br.vclass);
}
