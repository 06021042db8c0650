/* waits.c: the wait attribution of program runs (model/sim.h,
 * noc_wait_kind_t): the per-step tables by resource, kept with the
 * simulator, and each message's own sums, kept by the PE engine for the
 * critical chain. Routers and the NI call noc_wait_add only while the
 * tables are kept (s->step_flits set), so synthetic runs pay nothing. A
 * packet's waits (noc_wait_pkt) gather in its pool slot (s->pkt_wait) and
 * reach its message at its delivery, or at the end of the run. */
#include "model/sim_internal.h"
#include "model/pe.h"

void noc_wait_add(struct noc_sim *s, int kind, int step, uint32_t msg, int c, uint32_t n)
{
    if (n > 0 && noc_wait_table_add(s, kind, step, c, n))
        noc_wait_add_msg(s, kind, msg, n);
}

void noc_wait_add_msg(struct noc_sim *s, int kind, uint32_t msg, uint32_t n)
{
    if (s->pe)
        noc_pe_msg_wait_add(s->pe, msg, kind, n);
}

void noc_wait_flush_pkt(struct noc_sim *s, uint32_t pkt)
{
    uint32_t *w = &s->pkt_wait[(size_t)pkt * NOC_WAIT_KINDS];
    for (int kind = 0; kind < NOC_WAIT_KINDS; kind++)
        if (w[kind]) {
            noc_wait_add_msg(s, kind, s->pkts[pkt].msg, w[kind]);
            w[kind] = 0;
        }
}

void noc_wait_flush_all(struct noc_sim *s)
{
    if (!s->pkt_wait)
        return;
    for (uint32_t i = 0; i < s->pkt_fresh; i++) /* (the slots never used are empty) */
        if (s->pkts[i].size)
            noc_wait_flush_pkt(s, i);
}
