/* fabric_area.c: a fabric's routers' gate count (cli/fabric_area.h), by
 * port count, from routers/rtl/area.c's synthesis and cache. */
#include "cli/fabric_area.h"
#include "cli/cli.h"
#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>

/* The parameters for fabric t: those given, V and N_CLASS from the
 * fabric's VC classes when not given. */
void noc_cli_area_params(const noc_topo_t *t, const noc_area_params_t *given, int v_set, int c_set,
                         noc_area_params_t *p)
{
    *p = *given;
    if (!v_set)
        p->V = noc_topo_vclasses(t) > 2 ? noc_topo_vclasses(t) : 2;
    if (!c_set)
        p->n_class = noc_topo_vclasses(t) < p->V ? noc_topo_vclasses(t) : p->V;
}

/* Group t's nodes by port count and get each group's core. Returns an exit
 * status; a message in err when not OK. */
int noc_cli_area_compute(const noc_topo_t *t, noc_fabric_area_t *fa, const char *who, char *err, size_t errlen)
{
    int maxp = noc_topo_max_degree(t) + 1;
    int *count = noc_xcalloc((size_t)maxp + 1, sizeof *count, "fabric area");
    for (int v = 0; v < noc_topo_nodes(t); v++)
        count[noc_topo_degree(t, v) + 1]++;
    for (int P = 1; P <= maxp; P++)
        fa->n_groups += count[P] > 0;
    fa->g = noc_xcalloc((size_t)fa->n_groups, sizeof *fa->g, "fabric area");
    fa->classes_needed = noc_topo_vclasses(t);
    int k = 0, rc = NOC_EXIT_OK;
    for (int P = 1; P <= maxp && rc == NOC_EXIT_OK; P++) {
        if (!count[P])
            continue;
        noc_area_group_t *g = &fa->g[k++];
        g->ports = P;
        g->routers = count[P];
        noc_area_params_t p = fa->p;
        p.P = P;
        int r = noc_area_get(&p, &g->a, err, errlen);
        if (r != NOC_AREA_OK) {
            rc = r == NOC_AREA_EUSAGE ? NOC_EXIT_USAGE : NOC_EXIT_INTERNAL;
            break;
        }
        if (g->a.other)
            fprintf(stderr, "%s: warning: %ld cells of the %d-port core are neither NAND, NOT nor "
                    "flip-flops and are not weighed\n", who, g->a.other, P);
        fa->cells += g->a.cells * g->routers;
        fa->nand2 += g->a.nand2 * g->routers;
    }
    free(count);
    return rc;
}
