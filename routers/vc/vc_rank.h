/* vc_rank.h: message priorities in the vc router (vc_rank.c): the rank of
 * an input VC, and the VC and switch allocations that rank by it. */
#ifndef NOC_VC_RANK_H
#define NOC_VC_RANK_H
#include "routers/vc/vc.h"

struct noc_sim;

/* The rank of local input VC l of node nd (not empty): its front flit's,
 * or with vc_priority_donation the highest of its flits'. */
int64_t noc_vc_rank(const struct noc_sim *s, const vc_state_t *r, const vc_node_t *nd, int l);

/* VC allocation on allocator a: entries who[0..n) (local input VCs, at
 * most 64) wanting mask[k], each ranked as its VC. */
void noc_vc_va_ranked(const struct noc_sim *s, const vc_state_t *r, const vc_node_t *nd, noc_alloc_t *a, int n,
                      const int16_t *who, const uint64_t *mask, int16_t *grant);

/* Switch allocation: entries who[0..m) are the switch inputs of in_ports
 * in increasing order, wanting the ports mask[k]; ready[0..nr) the ready
 * local input VCs (S: input_speedup). A request ranks as the
 * highest-ranked ready VC of its switch input wanting its port. */
void noc_vc_sa_ranked(const struct noc_sim *s, const vc_state_t *r, const vc_node_t *nd, int S, const int16_t *ready,
                      int nr, uint64_t in_ports, int m, const int16_t *who, const uint64_t *mask, int16_t *grant);

/* Of the VCs cand (a mask of VC numbers) of port p, those of the highest
 * rank. */
uint64_t noc_vc_top(const struct noc_sim *s, const vc_state_t *r, const vc_node_t *nd, int p, uint64_t cand);
#endif
