/* ni.h: the network interface of a PE: splits the packets of its source
 * queue into flits on the injection channel (credit-based, one flit a cycle,
 * a VC chosen round-robin per packet) and reassembles the flits arriving on
 * the ejection channel into packets, recording their statistics. */
#ifndef NOC_NI_H
#define NOC_NI_H
#include "model/channel.h"
#ifdef __cplusplus
extern "C" {
#endif

/* Evaluate node n's NI for the current cycle: receive, then send. */
void noc_ni_eval(struct noc_sim *s, int n);
/* The same for the NIs of all terminals of router n, in a fabric with
 * concentration (synthetic traffic only). */
void noc_ni_eval_terms(struct noc_sim *s, int n);
/* The two halves, for program runs (sim.c evaluates every node's receive
 * before any node's send, so a step barrier passed by a delivery counts
 * from the same cycle everywhere): the flit and credits arriving now; then
 * the PE's evaluation and injection. */
void noc_ni_receive(struct noc_sim *s, int n);
void noc_ni_send(struct noc_sim *s, int n);
/* noc_ni_send without the PE's evaluation (the cycle in parts,
 * noc_sim_cycle_*: the PEs have had their turn). */
void noc_ni_send_flits(struct noc_sim *s, int n);
/* Hand flit f, which arrived at node n this cycle, to n's NI (for routers
 * that eject straight from their links, as the ideal router does). */
void noc_ni_deliver(struct noc_sim *s, int n, const noc_flit_t *f);

#ifdef __cplusplus
}
#endif
#endif
