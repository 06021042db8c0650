/* waits.c: the wait attribution of program runs (model/sim.h,
 * noc_wait_kind_t): the per-step tables by resource, kept with the
 * simulator, and each message's own sums, kept by the PE engine for the
 * critical chain. Routers and the NI call noc_wait_add only while the
 * tables are kept (s->step_flits set), so synthetic runs pay nothing. */
#include "model/sim_internal.h"
#include "model/pe.h"

void noc_wait_add(struct noc_sim *s, int kind, int step, uint32_t msg, int c, uint32_t n)
{
    assert(kind >= 0 && kind < NOC_WAIT_KINDS && c >= 0 && c < s->n_chan);
    if (!s->step_wait[kind] || n == 0)
        return;
    s->step_wait[kind][(size_t)step * (size_t)s->n_chan + (size_t)c] += n;
    if (s->pe)
        noc_pe_msg_wait_add(s->pe, msg, kind, n);
}
