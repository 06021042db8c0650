/* fabrics.h: the builders of the fabrics beyond grids (BSN, OTIS, pyramid and
 * multilevel, circulant, complete, graph files, anynet files) for topo.c's registry, and
 * the small helpers they share (zeroed allocation, peers as nodes, BFS
 * distances, circle layouts).
 *
 * Every builder has the signature of noc_topo_build_grid (topo.h): it gets a
 * zeroed topology with spec set, the kind and the SPEC text after the first
 * colon (NULL when there is none), and returns 0, or -1 with the reason in
 * why (noc_topo_create prefixes the quoted SPEC). On failure the builder
 * leaves ops->destroy able to free whatever priv it set.
 *
 * Drawing positions (topo.h's pos) of every fabric use one unit per node
 * spacing, x growing to the right and y growing downward (as in SVG). */
#ifndef NOC_FABRICS_H
#define NOC_FABRICS_H
#include "util/xalloc.h"
#include "topologies/topo_internal.h"
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

/* Largest number of network ports a node may have: ports are uint8_t. */
#define NOC_FAB_MAX_DEGREE 255

/* bsn.c: bsn:BASIS (biswapped network Σ(Ω)); otis.c: otis:BASIS. */
int noc_topo_build_bsn(noc_topo_t *t, const char *kind, const char *arg, unsigned flags,
                       char *why, size_t whylen);
int noc_topo_build_otis(noc_topo_t *t, const char *kind, const char *arg, unsigned flags,
                        char *why, size_t whylen);
/* pyramid.c: pyramid:N and multilevel:N:m1,m2,... */
int noc_topo_build_pyramid(noc_topo_t *t, const char *kind, const char *arg, unsigned flags,
                           char *why, size_t whylen);
/* circulant.c: circulant:N:s1,s2,... and complete:N */
int noc_topo_build_circulant(noc_topo_t *t, const char *kind, const char *arg, unsigned flags,
                             char *why, size_t whylen);
/* graphfile.c: graph:FILE */
int noc_topo_build_graph(noc_topo_t *t, const char *kind, const char *arg, unsigned flags,
                         char *why, size_t whylen);
/* cmesh.c: cmesh:AxB[:CXxCY] (BookSim2's concentrated mesh) */
int noc_topo_build_cmesh(noc_topo_t *t, const char *kind, const char *arg, unsigned flags,
                         char *why, size_t whylen);
/* fly.c: fly:K:N (BookSim2's k-ary n-fly) */
int noc_topo_build_fly(noc_topo_t *t, const char *kind, const char *arg, unsigned flags,
                       char *why, size_t whylen);
/* dragonfly.c: dragonfly:P (BookSim2's dragonflynew, n = 1) */
int noc_topo_build_dragonfly(noc_topo_t *t, const char *kind, const char *arg, unsigned flags,
                             char *why, size_t whylen);
/* fattree.c: fattree:K:N (BookSim2's k-ary n-tree, nca routing) */
int noc_topo_build_fattree(noc_topo_t *t, const char *kind, const char *arg, unsigned flags,
                           char *why, size_t whylen);
/* flatfly.c: flatfly:K:N[:CXxCY[:X]] (BookSim2's flattened butterfly) */
int noc_topo_build_flatfly(noc_topo_t *t, const char *kind, const char *arg, unsigned flags,
                           char *why, size_t whylen);
/* qtree.c: qtree:K:N (BookSim2's qtree, a K-ary tree, nca routing) */
int noc_topo_build_qtree(noc_topo_t *t, const char *kind, const char *arg, unsigned flags,
                         char *why, size_t whylen);
/* tree4.c: tree4 (BookSim2's tree4, nca routing) */
int noc_topo_build_tree4(noc_topo_t *t, const char *kind, const char *arg, unsigned flags,
                         char *why, size_t whylen);
/* anynet.c: anynet:FILE (BookSim2's anynet network files) */
int noc_topo_build_anynet(noc_topo_t *t, const char *kind, const char *arg, unsigned flags,
                          char *why, size_t whylen);


/* ---- helpers (layout.c) --------------------------------------------------- */

/* Per global port, the node at the other end of its link (-1 for local
 * ports). The caller frees the array. */
int *noc_fab_peer_nodes(const noc_topo_t *t);
/* BFS hop distances from src over t into dist (n_nodes entries, -1 where
 * unreachable); queue is scratch of n_nodes entries; peer_node from
 * noc_fab_peer_nodes. Returns the number of nodes reached. */
int noc_fab_bfs(const noc_topo_t *t, const int *peer_node, int src, int *dist, int *queue);
/* Place the nodes of t evenly on a circle, adjacent ones one unit apart
 * (allocates t->pos). */
void noc_fab_layout_circle(noc_topo_t *t);
/* Bounding box of t->pos: min x, min y, max x, max y into box[4]. */
void noc_fab_bbox(const noc_topo_t *t, float box[4]);
/* Read the decimal digits at s: returns their value, or -1 when there are
 * none or the value exceeds limit; *next gets the first character after the
 * digits (s itself when there are none). */
long noc_fab_read_num(const char *s, long limit, const char **next);
/* "K:N" (all of arg) into *k and *n, K from 2 to kmax, N from 1 to nmax,
 * with N levels of K^(N-1) routers and K^N terminals each within
 * NOC_TOPO_MAX_NODES (fly, fattree): 0; -1 when arg is not K:N or a
 * number is past its limit, -2 when K < 2 or N < 1, -3 when the fabric is
 * too large. */
int noc_fab_read_kn(const char *arg, long kmax, long nmax, int *k, int *n);
/* A builder's destroy for a fabric whose priv is one malloc'd block. */
void noc_fab_free_priv(noc_topo_t *t);

#ifdef __cplusplus
}
#endif
#endif
