/* traffic_classes.c: the figures of each traffic class of a run with
 * classes > 1 (BookSim2 prints a block a class): measured packets,
 * latencies, hops, and the flits each class offered, injected and had
 * accepted in the window, per node and cycle. */
#include "report/report.h"
#include "report/json_internal.h"

/* Flits per node per cycle of the window. */
static double rate(const noc_sim_t *s, uint64_t flits)
{
    const noc_stats_t *st = noc_sim_stats(s);
    double d = (double)noc_graph_terms(noc_sim_graph(s)) * (double)st->sample;
    return d > 0.0 ? (double)flits / d : 0.0;
}

void noc_report_tclass_text(FILE *f, const noc_sim_t *s)
{
    int C;
    const noc_class_stats_t *cs = noc_sim_class_stats(s, &C);
    for (int c = 0; cs && c < C; c++, cs++) {
        fprintf(f, "  class %d       %llu packets (%llu flits); latency avg %.2f  min %llu  max %llu, network avg %.2f, "
                   "flit avg %.2f; hops avg %.2f\n",
                c, (unsigned long long)cs->packets, (unsigned long long)cs->flits, noc_lat_avg(&cs->latency),
                (unsigned long long)cs->latency.min, (unsigned long long)cs->latency.max,
                noc_lat_avg(&cs->net_latency), noc_lat_avg(&cs->flit_latency), noc_lat_avg(&cs->hops));
        fprintf(f, "                generated %.4f  injected %.4f  accepted %.4f flits/node/cycle\n",
                rate(s, cs->window_flits_offered), rate(s, cs->window_flits_in), rate(s, cs->window_flits_out));
    }
}

static json_t *lat(const noc_lat_sum_t *l)
{
    return json_pack("{s:f, s:I, s:I, s:I}", "avg", noc_lat_avg(l), "min", (json_int_t)l->min, "max",
                     (json_int_t)l->max, "n", (json_int_t)l->n);
}

json_t *noc_report_tclass_json(const noc_sim_t *s)
{
    int C;
    const noc_class_stats_t *cs = noc_sim_class_stats(s, &C);
    if (!cs)
        return NULL;
    json_t *a = json_array();
    for (int c = 0; c < C; c++, cs++) {
        json_t *l = lat(&cs->latency);
        json_object_set_new(l, "network", lat(&cs->net_latency));
        json_object_set_new(l, "flit", lat(&cs->flit_latency));
        json_array_append_new(
            a, json_pack("{s:i, s:I, s:I, s:o, s:o, s:f, s:f, s:f}", "class", c, "packets", (json_int_t)cs->packets,
                         "flits", (json_int_t)cs->flits, "latency", l, "hops", lat(&cs->hops), "generated",
                         rate(s, cs->window_flits_offered), "injected", rate(s, cs->window_flits_in), "accepted",
                         rate(s, cs->window_flits_out)));
    }
    return a;
}
