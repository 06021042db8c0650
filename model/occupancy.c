/* occupancy.c: the measurement window's ends for the routers' occupancy
 * integrals (model/occupancy.h), and the averages the report reads. */
#include "model/occupancy.h"
#include "model/sim_internal.h"

/* Router n's areas as of cycle t (t >= its last change). */
static void area_at(const noc_occ_t *o, uint64_t t, uint64_t a[2])
{
    for (int k = 0; k < 2; k++)
        a[k] = o->area[k] + (uint64_t)o->cur[k] * (t - o->last);
}

void noc_occ_window_open(struct noc_sim *s)
{
    if (!s->occ)
        return;
    for (int n = 0; n < s->n_nodes; n++)
        area_at(&s->occ[n], s->now, s->occ[n].open);
    s->occ_open = s->now;
    s->occ_shut = NOC_NEVER;
}

void noc_occ_window_close(struct noc_sim *s)
{
    if (!s->occ || s->occ_shut != NOC_NEVER)
        return;
    for (int n = 0; n < s->n_nodes; n++)
        area_at(&s->occ[n], s->now, s->occ[n].shut);
    s->occ_shut = s->now;
}

int noc_sim_router_load_avg(const noc_sim_t *s, int n, double *flits, double *vcs)
{
    *flits = *vcs = 0.0;
    if (!s->occ)
        return -1;
    const noc_occ_t *o = &s->occ[n];
    uint64_t a[2], end = s->occ_shut != NOC_NEVER ? s->occ_shut : s->now;
    if (s->occ_shut != NOC_NEVER) {
        a[0] = o->shut[0];
        a[1] = o->shut[1];
    } else {
        area_at(o, s->now, a);
    }
    if (end <= s->occ_open)
        return 0;
    double len = (double)(end - s->occ_open);
    *flits = (double)(a[0] - o->open[0]) / len;
    *vcs = (double)(a[1] - o->open[1]) / len;
    return 0;
}
