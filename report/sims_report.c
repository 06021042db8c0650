/* sims_report.c: several simulations of one configuration (sim_count,
 * BookSim2's total_sims): each run's figures kept, and their means, which
 * BookSim2 prints as its overall figures ("(N samples)"), in the text
 * report and as the JSON "sims" object (report.h). */
#include "report/report.h"
#include "report/json_internal.h"
#include <string.h>

void noc_sims_add(noc_sims_t *m, const noc_sim_t *s, const noc_run_result_t *res, long long seed)
{
    const noc_stats_t *st = noc_sim_stats(s);
    if (m->count >= NOC_SIMS_MAX)
        return;
    noc_sims_run_t *r = &m->run[m->count++];
    r->seed = seed;
    r->status = res->status;
    r->unstable = st->stopped == NOC_STOP_UNSTABLE;
    const noc_lat_sum_t *l[3] = { &st->latency, &st->net_latency, &st->flit_latency };
    for (int k = 0; k < 3; k++) {
        r->lat[k][0] = noc_lat_avg(l[k]);
        r->lat[k][1] = (double)l[k]->min;
        r->lat[k][2] = (double)l[k]->max;
    }
    r->hops = noc_lat_avg(&st->hops);
    r->offered = res->offered;
    r->accepted = res->accepted;
    r->cycles = st->cycles;
}

/* The mean over the runs of figure f (a function of one run). */
static double mean(const noc_sims_t *m, double (*f)(const noc_sims_run_t *, int), int i)
{
    double sum = 0.0;
    for (int k = 0; k < m->count; k++)
        sum += f(&m->run[k], i);
    return m->count ? sum / (double)m->count : 0.0;
}

static double lat_of(const noc_sims_run_t *r, int i) { return r->lat[i / 3][i % 3]; }
static double hops_of(const noc_sims_run_t *r, int i) { (void)i; return r->hops; }
static double offered_of(const noc_sims_run_t *r, int i) { (void)i; return r->offered; }
static double accepted_of(const noc_sims_run_t *r, int i) { (void)i; return r->accepted; }

void noc_report_sims_text(FILE *f, const noc_sims_t *m, long long asked)
{
    static const char *const name[3] = { "latency", "  network", "  flit" };
    fprintf(f, "  over %d of %lld simulations (seeds %lld..%lld; each figure the mean of the runs')%s\n", m->count,
            asked, m->run[0].seed, m->run[m->count - 1].seed,
            m->count < asked ? ": the last one stopped the series" : "");
    for (int k = 0; k < 3; k++)
        fprintf(f, "    %-11s avg %.2f  min %.2f  max %.2f\n", name[k], mean(m, lat_of, 3 * k),
                mean(m, lat_of, 3 * k + 1), mean(m, lat_of, 3 * k + 2));
    fprintf(f, "    hops        avg %.2f\n", mean(m, hops_of, 0));
    fprintf(f, "    throughput  offered %.4f  accepted %.4f flits/node/cycle\n", mean(m, offered_of, 0),
            mean(m, accepted_of, 0));
}

json_t *noc_report_sims_json(const noc_sims_t *m)
{
    static const char *const name[3] = { "latency", "network", "flit" };
    json_t *j = json_object(), *runs = json_array();
    json_object_set_new(j, "count", json_integer(m->count));
    for (int k = 0; k < 3; k++)
        json_object_set_new(j, name[k], json_pack("{s:f, s:f, s:f}", "avg", mean(m, lat_of, 3 * k), "min",
                                                  mean(m, lat_of, 3 * k + 1), "max", mean(m, lat_of, 3 * k + 2)));
    json_object_set_new(j, "hops", json_real(mean(m, hops_of, 0)));
    json_object_set_new(j, "offered", json_real(mean(m, offered_of, 0)));
    json_object_set_new(j, "accepted", json_real(mean(m, accepted_of, 0)));
    for (int k = 0; k < m->count; k++) {
        const noc_sims_run_t *r = &m->run[k];
        json_array_append_new(runs, json_pack("{s:I, s:I, s:f, s:f, s:f, s:f, s:b}", "seed", (json_int_t)r->seed,
                                              "cycles", (json_int_t)r->cycles, "latency", r->lat[0][0], "network",
                                              r->lat[1][0], "flit", r->lat[2][0], "accepted", r->accepted,
                                              "unstable", r->unstable));
    }
    json_object_set_new(j, "runs", runs);
    return j;
}
