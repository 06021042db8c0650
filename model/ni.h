/* ni.h: the network interface of a PE: splits the packets of its source
 * queue into flits on the injection channel (credit-based, one flit a cycle,
 * a VC chosen round-robin per packet) and reassembles the flits arriving on
 * the ejection channel into packets, recording their statistics. */
#ifndef NOC_NI_H
#define NOC_NI_H
#include "model/sim_internal.h"
#ifdef __cplusplus
extern "C" {
#endif

/* Evaluate node n's NI for the current cycle. */
void noc_ni_eval(struct noc_sim *s, int n);

#ifdef __cplusplus
}
#endif
#endif
