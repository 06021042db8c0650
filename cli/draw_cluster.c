/* draw_cluster.c: the cluster view of `noctua draw` for large BSN and OTIS
 * fabrics: one box per group (a BSN's part and group, an OTIS group, from
 * noc_topo_node_groups), drawn where the group's nodes would be, and one
 * edge per pair of groups joined by links, as wide as there are such links;
 * with --load coloured by the busiest of them. Links inside a group are
 * counted in its box. --detail draws every node instead (cli/draw.h). */
#include "cli/draw.h"
#include "util/xalloc.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Is t a fabric drawn as clusters at this size? */
int noc_draw_wants_clusters(const noc_topo_t *t, int n)
{
    const char *spec = noc_topo_spec(t);
    if (n < CLUSTER_MIN || (strncmp(spec, "bsn:", 4) != 0 && strncmp(spec, "otis:", 5) != 0))
        return 0;
    char names[2][32];
    return noc_topo_node_groups(t, 0, names, sizeof names[0]) > 0;
}

/* The group key of node n: its group names joined ("part0/group3"). */
static void group_key(const noc_topo_t *t, int n, char *buf, size_t len)
{
    char names[2][32];
    int k = noc_topo_node_groups(t, n, names, sizeof names[0]);
    snprintf(buf, len, "%s%s%s", k > 0 ? names[0] : "", k > 1 ? "/" : "", k > 1 ? names[1] : "");
}

/* The edge of groups a < b in the table (open addressing on a * G + b). */
static cluster_edge_t *edge_of(clusters_t *c, int a, int b)
{
    uint64_t key = (uint64_t)a * (uint64_t)c->n + (uint64_t)b;
    size_t i = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 20) & (c->cap - 1);
    for (;; i = (i + 1) & (c->cap - 1)) {
        cluster_edge_t *e = &c->slot[i];
        if (e->count == 0) {
            e->a = a;
            e->b = b;
            return e;
        }
        if (e->a == a && e->b == b)
            return e;
    }
}

void noc_draw_make_clusters(drawing_t *dw)
{
    clusters_t *c = noc_xcalloc(1, sizeof *c, "draw: clusters");
    c->of = noc_xcalloc((size_t)dw->n, sizeof *c->of, "draw: clusters");
    char (*keys)[72] = noc_xcalloc((size_t)dw->n, sizeof *keys, "draw: clusters");
    /* nodes of one group are numbered together: a new key starts a group */
    for (int v = 0; v < dw->n; v++) {
        char key[72];
        group_key(dw->t, v, key, sizeof key);
        int g = c->n > 0 && strcmp(keys[c->n - 1], key) == 0 ? c->n - 1 : -1;
        for (int j = 0; g < 0 && j < c->n; j++)
            if (strcmp(keys[j], key) == 0)
                g = j;
        if (g < 0) {
            g = c->n++;
            snprintf(keys[g], sizeof keys[g], "%s", key);
        }
        c->of[v] = g;
    }
    c->names = noc_xrealloc(keys, (size_t)c->n * sizeof *keys, "draw: clusters");
    c->pos = noc_xcalloc((size_t)c->n, sizeof *c->pos, "draw: clusters");
    c->size = noc_xcalloc((size_t)c->n, sizeof *c->size, "draw: clusters");
    c->intra = noc_xcalloc((size_t)c->n, sizeof *c->intra, "draw: clusters");
    for (int v = 0; v < dw->n; v++) {
        c->pos[c->of[v]].x += dw->p[v].x;
        c->pos[c->of[v]].y += dw->p[v].y;
        c->size[c->of[v]]++;
    }
    for (int g = 0; g < c->n; g++) {
        c->pos[g].x /= c->size[g];
        c->pos[g].y /= c->size[g];
    }
    for (c->cap = 64; c->cap < 2 * (size_t)dw->n_links + 2; c->cap *= 2)
        ;
    c->slot = noc_xcalloc(c->cap, sizeof *c->slot, "draw: clusters");
    for (int i = 0; i < dw->n_links; i++) {
        const link_t *l = &dw->links[i];
        int a = c->of[l->u], b = c->of[l->v];
        if (a == b) {
            c->intra[a]++;
            continue;
        }
        int flip = a > b;
        cluster_edge_t *e = edge_of(c, flip ? b : a, flip ? a : b);
        if (e->count++ == 0)
            c->n_edges++;
        e->cls = l->cls;
        for (int d = 0; d < 2; d++) {
            double u = l->util[flip ? 1 - d : d];
            if (u > e->util_max)
                e->util_max = u;
            e->util_sum += u > 0 ? u : 0;
        }
    }
    dw->clusters = c;
}

void noc_draw_free_clusters(drawing_t *dw)
{
    clusters_t *c = dw->clusters;
    if (!c)
        return;
    free(c->of);
    free(c->names);
    free(c->pos);
    free(c->size);
    free(c->intra);
    free(c->slot);
    free(c);
    dw->clusters = NULL;
}
