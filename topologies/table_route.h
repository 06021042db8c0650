/* table_route.h: generic shortest-path routing for any connected graph,
 * from tables built once, made deadlock-free with VC classes counted at the
 * down->up turns of an up* / down* orientation.
 *
 * Orientation. A BFS from a root (a centre of the graph: least eccentricity,
 * lowest number among those) gives every node a level; the key of node v is
 * (level, v), and a hop x -> y goes "up" when key(y) < key(x), else "down".
 *
 * Paths. For every destination the table holds, per node, the output port of
 * one shortest path, chosen among all shortest ones to have the fewest
 * down->up turns from every node (ties broken toward a first hop that goes
 * down, then spread over the candidates by (node + destination)). Routes are
 * therefore minimal.
 *
 * Classes. A packet's VC class is the number of down->up turns its path has
 * made so far (the turn's up hop already in the new class): turns(src, dst)
 * - turns(cur, dst), with turns(x, dst) the turns left on the path from x.
 * Within one class a path is up* down*, so its channel dependencies run up
 * -> up (toward smaller keys), up -> down, down -> down (toward larger keys):
 * ordered by (up before down, key), acyclic; dependencies between classes
 * only go from class c to c + 1. The whole channel dependency graph is
 * therefore acyclic, and n_vclasses = 1 + the most turns on any path.
 *
 * Cost: two n x n byte tables; route lookups are two loads, no allocation. */
#ifndef NOC_TABLE_ROUTE_H
#define NOC_TABLE_ROUTE_H
#include "topologies/topo.h"
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif

/* Largest graph routed by tables (2 * n^2 bytes: 32 MiB at the limit). */
#ifndef NOC_TABLE_ROUTE_MAX_NODES /* (the fuzzers build with a smaller one: testbench/fuzz) */
#define NOC_TABLE_ROUTE_MAX_NODES 4096
#endif

typedef struct noc_table_route noc_table_route_t;

/* Build the tables for t (ports and peers filled, at most 255 network ports
 * per node). Returns NULL with the reason in why when t has too many nodes,
 * is disconnected, or would need more than NOC_TOPO_MAX_CLASSES classes. The
 * caller owns the result. */
noc_table_route_t *noc_table_route_build(const noc_topo_t *t, char *why, size_t whylen);
void noc_table_route_free(noc_table_route_t *tr);
/* The route at cur of a packet from src to dst (cur on its path). */
void noc_table_route_get(const noc_table_route_t *tr, int cur, int src, int dst, noc_route_t *r);
/* VC classes the tables use (1 + most down->up turns on a path). */
int noc_table_route_vclasses(const noc_table_route_t *tr);
/* The root of the up* / down* orientation. */
int noc_table_route_root(const noc_table_route_t *tr);

#ifdef __cplusplus
}
#endif
#endif
