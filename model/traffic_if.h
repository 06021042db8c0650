/* traffic_if.h: how a traffic source plugs into the kernel without the kernel
 * knowing patterns or programs (those live in traffic/). A source tells, per
 * node, when the next packet is generated and what it is; the kernel keeps
 * the calendar and the source queues. */
#ifndef NOC_TRAFFIC_IF_H
#define NOC_TRAFFIC_IF_H
#include <stdint.h>
#include "model/rng.h"
#ifdef __cplusplus
extern "C" {
#endif

#define NOC_NEVER UINT64_MAX

typedef struct noc_traffic_ops {
    /* The first cycle >= from at which `node` generates a packet, or
     * NOC_NEVER. Draws from the node's own stream rng. */
    uint64_t (*next)(void *ctx, int node, uint64_t from, noc_rng_t *rng);
    /* Destination, length in flits and kind (enum noc_pkt_type, model/flit.h:
     * NOC_PKT_ANY, or a read or write request) of the packet node generates
     * now; a destination equal to node (or < 0) means no packet. */
    void (*make)(void *ctx, int node, noc_rng_t *rng, int *dst, int *size, int *type);
} noc_traffic_ops_t;

typedef struct noc_traffic {
    const noc_traffic_ops_t *ops;
    void *ctx;
} noc_traffic_t;

#ifdef __cplusplus
}
#endif
#endif
