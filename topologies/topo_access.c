/* topo_access.c: topo.h's functions that read what a topology is made of
 * (sizes, ports, links, link classes, grid shape, basis, pyramid levels,
 * drawing positions), so that no file outside topologies/ reads the struct:
 * the program generators, drawings, reports and tests call these, the
 * simulator reads the topology's graph. */
#include "topologies/topo_internal.h"

const char *noc_topo_kind(const noc_topo_t *t) { return t->ops->kind; }
const char *noc_topo_spec(const noc_topo_t *t) { return t->spec; }
int noc_topo_nodes(const noc_topo_t *t) { return t->n_nodes; }
int noc_topo_ports(const noc_topo_t *t) { return t->n_ports; }
/* (builders call these before the graph is filled: they read the fields) */
int noc_topo_locals(const noc_topo_t *t, int n) { return t->term_base ? t->term_base[n + 1] - t->term_base[n] : 1; }
int noc_topo_degree(const noc_topo_t *t, int n) { return t->port_base[n + 1] - t->port_base[n] - noc_topo_locals(t, n); }
int noc_topo_terminals(const noc_topo_t *t) { return t->term_base ? t->n_terms : t->n_nodes; }
int noc_topo_concentrated(const noc_topo_t *t) { return t->term_base != NULL; }
int noc_topo_max_degree(const noc_topo_t *t) { return t->max_degree; }
int noc_topo_gport(const noc_topo_t *t, int n, int port) { return t->port_base[n] + port; }
int noc_topo_peer(const noc_topo_t *t, int g) { return t->peer[g]; }
int noc_topo_link_class(const noc_topo_t *t, int g) { return t->link_class[g]; }
int noc_topo_classes(const noc_topo_t *t) { return t->n_classes; }
const char *noc_topo_class_name(const noc_topo_t *t, int c) { return t->class_name[c]; }
int noc_topo_vclasses(const noc_topo_t *t) { return t->n_vclasses; }

int noc_topo_dims(const noc_topo_t *t) { return t->dims; }
int noc_topo_k(const noc_topo_t *t, int d) { return t->k[d]; }
int noc_topo_stride(const noc_topo_t *t, int d) { return t->stride[d]; }
int noc_topo_wrap(const noc_topo_t *t) { return t->wrap; }
int noc_topo_coord(const noc_topo_t *t, int n, int d) { return (n / t->stride[d]) % t->k[d]; }

const noc_topo_t *noc_topo_basis(const noc_topo_t *t) { return t->basis; }
int noc_topo_levels(const noc_topo_t *t) { return t->levels; }
int noc_topo_level_side(const noc_topo_t *t, int i) { return t->level_side[i]; }
int noc_topo_level_first(const noc_topo_t *t, int i) { return t->level_first[i]; }

const float *noc_topo_pos(const noc_topo_t *t) { return t->pos; }

void noc_topo_route(const noc_topo_t *t, int cur, int src, int dst, noc_route_t *r)
{
    noc_graph_route(&t->graph, cur, src, dst, 0, 0, r); /* salt 0, hops 0: see topo.h */
}
