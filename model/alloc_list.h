/* alloc_list.h: an allocation over a list of requests, each with a
 * priority, where requesters and resources are numbered in wider ranges than
 * one word of a mask (alloc.h's allocators take 64 resources): the VC
 * allocation of adaptive routing, where an input VC asks for output VCs of
 * several output ports at once and the resources are all of a router's
 * output VCs (BookSim2's VC allocator, one allocator over inputs x VCs and
 * outputs x VCs).
 *
 * Round-robin arbiters, BookSim2's (RoundRobinArbiter): an arbiter picks the
 * request of the highest priority, among equals the first at or after its
 * pointer (cyclically over its side), and after a final grant its pointer
 * goes to the one after the winner. The kinds are alloc.h's separable ones:
 *
 * - input-first: every requester's arbiter picks among its requests (by
 *   their priority); every resource's arbiter picks among the requesters
 *   that picked it (all of equal priority); both move on a grant.
 * - output-first: every resource's arbiter picks among the requesters that
 *   ask for it; every requester's arbiter among the resources that picked
 *   it, by the requests' priority; both move on a grant.
 * - islip: output-first grant and accept over the requesters and resources
 *   still unmatched, `iters` times, priorities ignored (BookSim2's iSLIP
 *   ranks none); pointers move for the matches of the first iteration. */
#ifndef NOC_ALLOC_LIST_H
#define NOC_ALLOC_LIST_H
#include <stdint.h>
#include "model/alloc.h"

typedef struct noc_alloc_req {
    int16_t in, out; /* requester (< n_in), resource (< n_out) */
    int16_t pri;     /* higher first */
} noc_alloc_req_t;

/* Allocate among req[0 .. n): on return grant[k] is 1 for the requests
 * granted, else 0 (at most one per requester and per resource). in_ptr
 * (n_in entries) and out_ptr (n_out entries) are the arbiters' pointers,
 * moved as above. A requester or resource may appear in any number of
 * requests; a pair at most once. scratch: 2 * (n_in + n_out) int16_t's. */
void noc_alloc_list(noc_alloc_kind_t kind, int iters, int n, const noc_alloc_req_t *req, uint8_t *grant,
                    uint16_t *in_ptr, int n_in, uint16_t *out_ptr, int n_out, int16_t *scratch);

#endif
