/* occupancy.h: the time integrals behind each router's average buffer and
 * VC occupancy (node_stats = 1). A router family calls noc_occ_add whenever
 * the flits in its input buffers, or the input VCs holding at least one
 * flit, change (or noc_occ_set with the counts after each evaluation: the
 * changes of one evaluation all happen in its cycle); the integral of each over cycles is kept exactly (flit-
 * cycles and VC-cycles), snapshot when the measurement window opens and
 * closes, and divided by the window's length for the report. Off (NULL)
 * without node_stats: the routers test one pointer. */
#ifndef NOC_OCCUPANCY_H
#define NOC_OCCUPANCY_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

/* One router's integrals: area[0] flit-cycles, area[1] VC-cycles up to
 * cycle `last`, cur[] the counts since then; open[] and shut[] the areas at
 * the window's ends. */
typedef struct noc_occ {
    uint64_t area[2], open[2], shut[2];
    uint64_t last;
    int32_t cur[2];
} noc_occ_t;

/* Router n's input buffers gain `flits` flits (negative: lose) and `vcs`
 * input VCs start (negative: stop) holding flits, in cycle now. */
static inline void noc_occ_add(noc_occ_t *occ, int n, uint64_t now, int flits, int vcs)
{
    noc_occ_t *o = &occ[n];
    uint64_t dt = now - o->last;
    o->area[0] += (uint64_t)o->cur[0] * dt;
    o->area[1] += (uint64_t)o->cur[1] * dt;
    o->last = now;
    o->cur[0] += flits;
    o->cur[1] += vcs;
}

/* Router n holds `flits` flits and `vcs` input VCs holding flits from
 * cycle now on (for a router that counts them after each evaluation). */
static inline void noc_occ_set(noc_occ_t *occ, int n, uint64_t now, int flits, int vcs)
{
    noc_occ_t *o = &occ[n];
    noc_occ_add(occ, n, now, flits - o->cur[0], vcs - o->cur[1]);
}

/* The measurement window opens or closes now (model/sample.c, and
 * noc_sim_measure_all): snapshot every router's areas. No-ops without
 * node_stats; a second close keeps the first. */
struct noc_sim;
void noc_occ_window_open(struct noc_sim *s);
void noc_occ_window_close(struct noc_sim *s);

#ifdef __cplusplus
}
#endif
#endif
