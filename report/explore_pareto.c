/* explore_pareto.c: the Pareto front of noctua explore's table
 * (report/explore.h): per workload, the rows no other row dominates. */
#include "report/explore.h"
#include <stdio.h>
#include <string.h>

/* Does row i take part in its workload's front? */
static int eligible(const noc_explore_row_t *r)
{
    return r->status == 0 && (r->has_cycles || r->has_sat);
}

/* The objectives of the workload of row w: cycles and links, area and
 * energy when every eligible row of it has them. */
static unsigned workload_objectives(const noc_explore_row_t *rows, int n, const char *w)
{
    unsigned o = NOC_EXPLORE_OBJ_LINKS | NOC_EXPLORE_OBJ_AREA | NOC_EXPLORE_OBJ_ENERGY;
    for (int i = 0; i < n; i++) {
        if (!eligible(&rows[i]) || strcmp(rows[i].workload, w) != 0)
            continue;
        o |= rows[i].has_cycles ? (unsigned)NOC_EXPLORE_OBJ_CYCLES
                                : (unsigned)(NOC_EXPLORE_OBJ_SATURATION | NOC_EXPLORE_OBJ_LATENCY);
        if (!rows[i].has_area)
            o &= ~(unsigned)NOC_EXPLORE_OBJ_AREA;
        if (!rows[i].has_energy)
            o &= ~(unsigned)NOC_EXPLORE_OBJ_ENERGY;
    }
    return o;
}

/* Row a's objectives into v (minimised: saturation negated), in a fixed
 * order; returns how many. */
static int values(const noc_explore_row_t *a, unsigned o, double v[6])
{
    int k = 0;
    if (o & NOC_EXPLORE_OBJ_CYCLES)
        v[k++] = (double)a->cycles;
    if (o & NOC_EXPLORE_OBJ_SATURATION)
        v[k++] = -a->saturation;
    if (o & NOC_EXPLORE_OBJ_LATENCY)
        v[k++] = a->zero_load_latency;
    if (o & NOC_EXPLORE_OBJ_LINKS)
        v[k++] = (double)a->links;
    if (o & NOC_EXPLORE_OBJ_AREA)
        v[k++] = a->total_area;
    if (o & NOC_EXPLORE_OBJ_ENERGY)
        v[k++] = a->energy_pj;
    return k;
}

/* Does a dominate b: no worse in every objective, better in one? */
static int dominates(const noc_explore_row_t *a, const noc_explore_row_t *b, unsigned o)
{
    double va[6], vb[6];
    int k = values(a, o, va), better = 0;
    values(b, o, vb);
    for (int j = 0; j < k; j++) {
        if (va[j] > vb[j])
            return 0;
        if (va[j] < vb[j])
            better = 1;
    }
    return better;
}

int noc_explore_pareto(noc_explore_row_t *rows, int n, unsigned *objs)
{
    int marked = 0;
    for (int i = 0; i < n; i++) {
        unsigned o = workload_objectives(rows, n, rows[i].workload);
        if (objs)
            objs[i] = o;
        rows[i].pareto = 0;
        if (!eligible(&rows[i]))
            continue;
        int dominated = 0;
        for (int j = 0; j < n && !dominated; j++)
            dominated = j != i && eligible(&rows[j]) && strcmp(rows[j].workload, rows[i].workload) == 0 &&
                        dominates(&rows[j], &rows[i], o);
        rows[i].pareto = !dominated;
        marked += !dominated;
    }
    return marked;
}

void noc_explore_objectives_text(unsigned objs, char *buf, size_t len)
{
    static const char *const name[] = { "cycles", "links", "total_area", "energy_pj", "saturation (maximised)",
                                        "zero_load_latency" };
    size_t k = 0;
    buf[0] = '\0';
    for (int b = 0; b < 6; b++)
        if (objs & (1u << b) && k < len)
            k += (size_t)snprintf(buf + k, len - k, "%s%s", k ? ", " : "", name[b]);
}
