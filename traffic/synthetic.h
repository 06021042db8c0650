/* synthetic.h: synthetic traffic for the kernel: a Bernoulli injection
 * process (every cycle, every node generates a packet with probability
 * injection_rate / packet_size, drawn as geometric gaps so idle nodes cost
 * nothing) and a destination pattern (pattern.h), kept apart. */
#ifndef NOC_SYNTHETIC_H
#define NOC_SYNTHETIC_H
#include <stddef.h>
#include <stdint.h>
#include "model/config.h"
#include "model/traffic_if.h"
#include "traffic/pattern.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef struct noc_synthetic {
    noc_pattern_t pattern;
    double p;   /* packets per node per cycle */
    double log_q; /* log1p(-p), for the geometric gaps (p < 1) */
    int size;   /* flits per packet (use_read_write: unused) */
    double flits; /* flits per packet on average (use_read_write: of a request and its reply) */
    /* use_read_write: requests, a write with probability write_fraction */
    int rw, read_size, write_size;
    double write_fraction;
    /* injection_process = on_off (BookSim2's injection.cpp): each cycle an
     * off node turns on with probability alpha, an on node off with beta,
     * and an on node makes a packet with probability r1; state[n]: 0 off,
     * 1 on, 2 not drawn yet (the first cycle draws it, even odds). NULL:
     * Bernoulli. */
    double alpha, beta, r1;
    uint8_t *state;
} noc_synthetic_t;

/* Set up from cfg (traffic, injection_rate, injection_rate_uses_flits,
 * packet_size, hotspot_node, hotspot_rate, injection_process and the
 * burst_ parameters) for topology t. Returns 0, or -1
 * with a message naming the parameter in err. */
int noc_synthetic_init(noc_synthetic_t *syn, const noc_config_t *cfg, const noc_topo_t *t,
                       char *err, size_t errlen);
/* The traffic source to hand to noc_sim_create; syn must outlive the sim. */
noc_traffic_t noc_synthetic_traffic(noc_synthetic_t *syn);
/* What init allocated (the on_off states); syn can be set up again after. */
void noc_synthetic_free(noc_synthetic_t *syn);

#ifdef __cplusplus
}
#endif
#endif
