/* sim_eval.h: phase 1 of a synthetic run's cycle for a list of nodes: each
 * node's NI(s) if they have something to do, then its router (one eval_all
 * call for the list, where the family has it). The one-thread cycle
 * (model/sim.c) runs it on the active list; each thread of a threaded run
 * (model/sim_threads.c) on its part's, through its view of the run. */
#ifndef NOC_SIM_EVAL_H
#define NOC_SIM_EVAL_H
#include "model/ni.h"
#ifdef __cplusplus
extern "C" {
#endif

static inline __attribute__((always_inline)) void noc_sim_eval_nodes(struct noc_sim *s, const int32_t *active,
                                                                     int n_act)
{
    void (*pre_eval)(struct noc_sim *, int) = s->rops->pre_eval;
    void (*eval)(struct noc_sim *, int) = s->rops->eval;
    const noc_ni_t *ni = s->ni;
    const uint64_t *arr_flit = s->arr_flit, *arr_credit = s->arr_credit;
    uint32_t cap = s->cap, slot = (uint32_t)(s->now & s->mask);
    void (*eval_all)(struct noc_sim *, const int32_t *, int) = s->rops->eval_all;
    int conc = s->conc;
    uint64_t classes = s->classes > 1; /* (the other classes' sources: not tested here) */
    for (int i = 0; i < n_act; i++) {
        int n = active[i];
        uint32_t at = (uint32_t)n * cap + slot;
        if (pre_eval)
            pre_eval(s, n);
        /* the NI has nothing to do without arrivals for it or a packet (one
         * test: which way it goes is hard to predict); with classes, an
         * active node's NI runs */
        if (conc) { /* its terminals' NIs, each if it has work */
            noc_ni_eval_terms(s, n);
        } else {
            uint64_t ni_work = ((arr_flit[at] | arr_credit[at]) >> NOC_NI_BIT) |
                               (uint64_t)(ni[n].lane0.pkt >= 0) | (uint64_t)(ni[n].q_head != ni[n].q_tail) |
                               ni[n].pe_busy | ni[n].xbusy | ni[n].rq_busy | classes;
            if (ni_work)
                noc_ni_eval(s, n);
        }
        if (!eval_all)
            eval(s, n);
    }
    if (eval_all) /* every NI has run: now the routers, in one call */
        eval_all(s, active, n_act);
}

#ifdef __cplusplus
}
#endif
#endif
