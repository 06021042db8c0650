/* basis.h: the basis network Ω of the swapped fabrics (BSN, OTIS), built
 * from the SPEC text after "bsn:" or "otis:" by noc_topo_create itself, so
 * any fabric noctua builds can serve as a basis (ring, mesh, torus,
 * hypercube, complete, circulant, graph:FILE, even a pyramid or a BSN), with
 * its own ports, routing, VC classes, labels and drawing positions. */
#ifndef NOC_BASIS_H
#define NOC_BASIS_H
#include "topologies/topo.h"
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif

/* Build Ω from arg for the fabric `outer` ("bsn", "otis"). Returns NULL with
 * the reason in why (naming the basis SPEC) when arg is missing or bad, or Ω
 * has too many ports per node for one more (the swap port) to fit. The
 * caller owns the result (noc_topo_destroy). */
noc_topo_t *noc_basis_create(const char *arg, const char *outer, unsigned flags, char *why,
                             size_t whylen);
/* Node v of Ω in the notation of a BSN or OTIS label: Ω's own label, except
 * that a ring's "(x)" is written x (the papers number ring nodes). */
void noc_basis_label(const noc_topo_t *b, int v, char *buf, size_t len);
/* One step of a group-level route (BSN, OTIS): at processor cp of a group
 * in phase `phase` (swaps taken so far), toward processor `target` of the
 * group, having entered it at `entry`: the basis's own route inside the
 * group, or, at the target, the swap port (the one after the basis's
 * ports). VC class: phase * B + the basis's class (B = b's classes). */
void noc_basis_group_step(const noc_topo_t *b, int cp, int entry, int target, int phase,
                          noc_route_t *r);
/* Hop distances of Ω between all pairs, [a * n + b], n = b->n_nodes; the
 * caller frees it. */
uint16_t *noc_basis_distances(const noc_topo_t *b);
/* Wire `copies` copies of Ω into t: node first + g * n + p (copy g, basis
 * node p) gets at its ports 1 .. deg(p) the links of p's ports in Ω, to the
 * same copy, with link class cls. t's port_base and peer must be allocated,
 * and node first + g * n + p must have at least deg(p) network ports. */
void noc_basis_wire_groups(noc_topo_t *t, const noc_topo_t *b, int first, int copies,
                           uint8_t cls);

#ifdef __cplusplus
}
#endif
#endif
