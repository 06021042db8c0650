/* rtl_router.h: what the rtl router family (rtl_router.c) shows of its cores
 * beyond the router interface, for the lockstep bench
 * (testbench/cosim/lockstep.c), which compares the cores' own registers
 * with routers/vc's state rather than the C side's mirror of them. */
#ifndef NOC_RTL_ROUTER_H
#define NOC_RTL_ROUTER_H
#include <stdint.h>
#include "model/sim.h"
#ifdef __cplusplus
extern "C" {
#endif

/* Ports of the cores of an rtl run (the fabric's largest router, with lane
 * ports), or -1 when s does not run the rtl family. */
int noc_rtl_core_ports(const noc_sim_t *s);

/* The registers of node n's core as its last clock edge left them: the
 * credit count of each output VC (credits[o*V + v]) and the fill of each
 * input VC's FIFO (usage[p*V + v]), noc_rtl_core_ports(s) * V entries each.
 * The core takes the flits and credits that arrive in a cycle one cycle
 * early (rtl_router.c): so, after the kernel's cycle K, a core clocked for
 * it holds what routers/vc holds plus what arrives in K+1. Returns 1 if the
 * core was clocked for the cycle just simulated, 0 if its clock was skipped
 * (the node was idle: it then holds just what routers/vc holds), -1 if s
 * is not an rtl run. */
int noc_rtl_core_registers(const noc_sim_t *s, int n, uint16_t *credits, uint16_t *usage);

#ifdef __cplusplus
}
#endif
#endif
