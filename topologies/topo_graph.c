/* topo_graph.c: a topology's view for the kernel (model/graph.h): the flat
 * arrays and the routing function the simulator and the routers read, the
 * node labels, and the groups the wave hierarchy follows (a BSN's parts and
 * groups, an OTIS group, a mesh or torus row, a pyramid level). Filled once
 * by noc_topo_create, when the builder is done. */
#include "topologies/topo_internal.h"
#include <stdio.h>
#include <string.h>

const noc_graph_t *noc_topo_graph(const noc_topo_t *t) { return &t->graph; }

static void graph_label(const void *ctx, int n, char *buf, size_t len)
{
    noc_topo_label(ctx, n, buf, len);
}

static int graph_groups(const void *ctx, int n, char names[2][32], size_t len)
{
    return noc_topo_node_groups(ctx, n, names, len);
}

int noc_topo_node_groups(const noc_topo_t *t, int n, char names[2][32], size_t len)
{
    const char *kind = t->ops ? t->ops->kind : "";
    if (strcmp(kind, "bsn") == 0 && t->basis) {
        int b = t->basis->n_nodes, bb = b * b;
        snprintf(names[0], len, "part%d", n / bb);
        snprintf(names[1], len, "group%d", (n % bb) / b);
        return 2;
    }
    if (strcmp(kind, "otis") == 0 && t->basis) {
        snprintf(names[0], len, "group%d", n / t->basis->n_nodes);
        return 1;
    }
    if ((strcmp(kind, "mesh") == 0 || strcmp(kind, "torus") == 0) && t->dims >= 2) {
        int row = (n / t->stride[1]) % t->k[1];
        if (t->dims == 2) {
            snprintf(names[0], len, "row%d", row);
            return 1;
        }
        snprintf(names[0], len, "plane%d", n / t->stride[2]);
        snprintf(names[1], len, "row%d", row);
        return 2;
    }
    if (t->levels > 0) {
        int i = 0;
        while (i + 1 < t->levels && n >= t->level_first[i + 1])
            i++;
        snprintf(names[0], len, "level%d", i);
        snprintf(names[1], len, "row%d", (n - t->level_first[i]) / t->level_side[i]);
        return 2;
    }
    return 0;
}

static int grid_hops(const void *ctx, int a, int b)
{
    return noc_topo_grid_hops(ctx, a, b);
}

void noc_topo_fill_graph(noc_topo_t *t)
{
    noc_graph_t *g = &t->graph;
    memset(g, 0, sizeof *g);
    g->name = t->spec;
    g->n_nodes = t->n_nodes;
    g->n_ports = t->n_ports;
    g->port_base = t->port_base;
    if (t->term_base) {
        g->n_terms = t->n_terms;
        g->term_base = t->term_base;
        g->term_list = t->term_list;
        g->term_node = t->term_node;
        g->term_gport = t->term_gport;
        g->term_enode = t->term_enode;
        g->term_egport = t->term_egport;
        g->max_locals = t->max_locals;
    }
    g->peer = t->peer;
    g->link_class = t->link_class;
    g->link_latency = t->link_latency;
    g->n_classes = t->n_classes;
    g->class_name = (const char(*)[NOC_GRAPH_CLASS_NAME])t->class_name;
    g->n_vclasses = t->n_vclasses;
    g->max_degree = t->max_degree;
    g->route_needs_src = t->route_needs_src;
    g->eject_vclass = t->eject_vclass;
    /* grids: along every dimension the longer way of a mesh, half the ring
     * of a torus (dimension order takes the shorter way) */
    for (int i = 0; i < t->dims; i++)
        g->diameter += t->wrap ? t->k[i] / 2 : t->k[i] - 1;
    g->route_cache = t->route_cache;
    g->route_stride = noc_graph_terms(g);
    g->route = t->ops->route;
    g->route_rand = t->route_rand;
    g->route_set = t->route_set;
    g->hops = t->dims > 0 ? grid_hops : NULL;
    g->label = graph_label;
    g->groups = graph_groups;
    g->ctx = t;
}

void noc_topo_shape_graph(const noc_topo_shape_t *sh, const char *spec, noc_graph_t *g)
{
    memset(g, 0, sizeof *g);
    g->name = spec;
    g->n_nodes = sh->n_nodes;
    g->n_ports = sh->n_ports;
    g->max_degree = sh->max_degree;
    g->n_classes = sh->n_classes;
    g->class_name = (const char(*)[NOC_GRAPH_CLASS_NAME])sh->class_name;
    g->n_vclasses = sh->n_vclasses;
}

