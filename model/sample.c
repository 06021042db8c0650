/* sample.c: the synthetic run (noc_sim_run). noctua's own: warm-up, one
 * measurement window of sample_cycles, drain. With max_samples >= 1,
 * BookSim2's latency run (TrafficManager::_SingleSim, read in
 * docs/booksim.md, Sampling): sample periods, warm-up ones then measured
 * ones until its stopping test holds, as the state machine of
 * model/sample.h decides. Either stops early as unstable once the average
 * latency passes latency_thres (>= 0); sim_type = throughput has neither
 * latency tests nor a drain of the measured packets. */
#include "model/sample.h"
#include "model/sim_internal.h"
#include "model/read_write.h"
#include "model/batch.h"
#include "model/sim_ranks.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

/* latency_thres is tested this often in noctua's window and in a drain. */
#define NOC_THRES_EVERY 1000

/* ---- the state machine ---- */

double noc_sampler_change(double cur, double prev)
{
    return fabs((cur - prev) / cur);
}

void noc_sampler_start(noc_sampler_t *sm)
{
    sm->state = NOC_SAMPLING_WARMUP;
    sm->periods = sm->warmed_at = sm->converged = sm->clear_next = 0;
    for (int c = 0; c < NOC_SAMPLER_CLASSES; c++)
        sm->prev_latency[c] = sm->prev_accepted[c] = 0.0;
    sm->latency_change = sm->accepted_change = 0.0;
    sm->stop = NOC_STOP_NONE;
}

int noc_sampler_more(const noc_sampler_t *sm)
{
    if (sm->state == NOC_SAMPLING_DONE || sm->periods >= sm->max_samples)
        return 0;
    return sm->state != NOC_SAMPLING_RUNNING || sm->converged < 3;
}

int noc_sampler_clear(noc_sampler_t *sm)
{
    if (sm->clear_next) {
        sm->clear_next = 0;
        return 1;
    }
    return sm->state == NOC_SAMPLING_WARMUP && sm->periods % 2 == 0;
}

/* A change past threshold t (< 0: not tested; NaN passes no test). */
static int exceeds(double change, double t)
{
    return t >= 0.0 && change > t;
}

void noc_sampler_period(noc_sampler_t *sm, double latency, double accepted, double thres_latency)
{
    noc_sampler_period_classes(sm, 1, &latency, &accepted, &thres_latency);
}

void noc_sampler_period_classes(noc_sampler_t *sm, int classes, const double *latency, const double *accepted,
                                const double *thres_latency)
{
    int warm = sm->state == NOC_SAMPLING_WARMUP, lat_bad = 0, acc_bad = 0, over = 0;
    for (int c = 0; c < classes; c++) {
        double lc = noc_sampler_change(latency[c], sm->prev_latency[c]);
        double ac = noc_sampler_change(accepted[c], sm->prev_accepted[c]);
        sm->prev_latency[c] = latency[c];
        sm->prev_accepted[c] = accepted[c];
        if (c == 0) {
            sm->latency_change = lc;
            sm->accepted_change = ac;
        }
        over |= !sm->throughput && sm->latency_thres >= 0.0 && thres_latency[c] > sm->latency_thres;
        lat_bad |= !sm->throughput && exceeds(lc, warm ? sm->warmup_thres : sm->stopping_thres);
        acc_bad |= exceeds(ac, warm ? sm->acc_warmup_thres : sm->acc_stopping_thres);
    }
    if (over) {
        sm->periods++;
        sm->state = NOC_SAMPLING_DONE;
        sm->stop = NOC_STOP_UNSTABLE;
        return;
    }
    if (warm) {
        if (sm->warmup_periods > 0 ? sm->periods + 1 >= sm->warmup_periods : !lat_bad && !acc_bad) {
            sm->clear_next = 1;
            sm->state = NOC_SAMPLING_RUNNING;
            sm->warmed_at = sm->periods + 1;
        }
    } else {
        sm->converged = !lat_bad && !acc_bad ? sm->converged + 1 : 0;
    }
    sm->periods++;
    if (!noc_sampler_more(sm)) {
        if (sm->state == NOC_SAMPLING_RUNNING)
            sm->stop = sm->converged >= 3 ? NOC_STOP_CONVERGED : NOC_STOP_MAX_SAMPLES;
        else
            sm->stop = NOC_STOP_WARMUP;
        sm->state = NOC_SAMPLING_DONE;
    }
}

/* ---- the figures of the tests ---- */

/* latency_thres's average: n packets delivered with latencies summing to
 * sum, and every flit on its way (BookSim2: every flit generated and not
 * yet retired) counted with its age (cycles since its packet was created).
 * A source with no packet in injection counts the head of its queue, which
 * BookSim2 would have generated. Scans the packet pool: once a period or
 * NOC_THRES_EVERY cycles, never in a cycle. */
static double thres_average(const struct noc_sim *s, int cls, uint64_t n, uint64_t sum)
{
    double cnt = (double)n, tot = (double)sum;
    for (uint32_t i = 0; i < s->pkt_fresh; i++) { /* (the slots never used are empty) */
        const noc_packet_t *p = &s->pkts[i];
        if (p->size == 0 || (cls >= 0 && p->cls != cls))
            continue;
        double left = (double)(p->size - p->received);
        cnt += left;
        tot += left * (double)(s->now - p->created);
    }
    int v0 = cls < 0 ? 0 : cls * s->n_terms, v1 = cls < 0 ? s->n_srcs : v0 + s->n_terms;
    for (int v = v0; v < v1; v++) { /* (class cls's sources; cls < 0: all) */
        const noc_ni_t *ni = &s->ni[v];
        if (ni->lane0.pkt >= 0)
            continue;
        const noc_srcq_entry_t *e;
        if (v < s->n_terms && noc_rw_queued(s, v)) /* (a reply goes first) */
            e = noc_repq_at(&s->repq[v], s->repq[v].head);
        else if (ni->q_head != ni->q_tail)
            e = noc_srcq_at(s, v, ni->q_head);
        else
            continue;
        cnt += (double)e->size;
        tot += (double)e->size * (double)(s->now - e->created);
    }
    return tot / cnt;
}

/* Past latency_thres (>= 0), with the measured packets' figures? With
 * classes, any class with its own (BookSim2 tests each). */
static int unstable(const struct noc_sim *s)
{
    double t = s->cfg.latency_thres;
    if (t < 0.0)
        return 0;
    if (!s->cst)
        return thres_average(s, -1, s->st.latency.n, s->st.latency.sum) > t;
    for (int c = 0; c < s->classes; c++)
        if (thres_average(s, c, s->cst[c].latency.n, s->cst[c].latency.sum) > t)
            return 1;
    return 0;
}

static void mark_unstable(struct noc_sim *s)
{
    s->st.stopped = NOC_STOP_UNSTABLE;
    s->st.stopped_at = s->now;
    s->st.saturated = 1;
}

/* ---- the run ---- */

/* sim_type = throughput? */
static int throughput(const struct noc_sim *s)
{
    return strcmp(s->cfg.sim_type, "throughput") == 0;
}

/* The window opens now (win_start set): with measure_queued, the packets
 * waiting in the source queues will be measured too. */
static void open_window(struct noc_sim *s)
{
    s->phase = NOC_PHASE_SAMPLE;
    s->measuring = 1;
    noc_occ_window_open(s);
    if (s->cfg.measure_queued) {
        uint64_t q = 0;
        for (int v = 0; v < s->n_srcs; v++)
            q += s->ni[v].q_tail - s->ni[v].q_head;
        s->st.measured_outstanding += noc_sim_ranks_sum(s, q); /* (ranks: every part's queues) */
        noc_rw_window_open(s);
    }
}

/* Run until cycle `until`, testing latency_thres every NOC_THRES_EVERY
 * cycles from `from` when test is set: 1 when it passed, 0 at `until`, -1
 * when a cycle's checks stop the run (*status). */
static int run_until(struct noc_sim *s, uint64_t until, int test, uint64_t from, noc_run_status_t *status)
{
    while (s->now < until) {
        if (noc_sim_step_checked(s, status))
            return -1;
        if (test && (s->now - from) % NOC_THRES_EVERY == 0 && unstable(s)) {
            mark_unstable(s);
            return 1;
        }
    }
    return 0;
}

/* The period's figures for the sampler: since the warm-up's last clear
 * (at cycle reset) or since the measurement began; per class with
 * classes > 1 (lat, acc, thres: an entry per class). */
static void period_figures(const struct noc_sim *s, const noc_sampler_t *sm, uint64_t reset, double *lat,
                           double *acc, double *thres)
{
    const noc_stats_t *st = &s->st;
    int warm = sm->state == NOC_SAMPLING_WARMUP;
    uint64_t since = warm ? reset : s->win_start;
    for (int c = 0; c < s->classes; c++) {
        const noc_class_stats_t *cs = s->cst ? &s->cst[c] : NULL;
        uint64_t n = cs ? (warm ? cs->warm_lat_n : cs->latency.n) : (warm ? s->warm_lat_n : st->latency.n);
        uint64_t sum = cs ? (warm ? cs->warm_lat_sum : cs->latency.sum) : (warm ? s->warm_lat_sum : st->latency.sum);
        uint64_t flits = cs ? (warm ? cs->warm_flits_out : cs->window_flits_out)
                            : (warm ? s->warm_flits_out : st->window_flits_out);
        lat[c] = (double)sum / (double)n;
        acc[c] = (double)flits / (double)(s->now - since) / (double)s->n_terms;
        thres[c] = sm->latency_thres >= 0.0 ? thres_average(s, cs ? c : -1, n, sum) : 0.0;
    }
}

/* BookSim2's periods: warm-up, then measurement until the sampler stops;
 * the window is [its first measured period, the end of its last). 0, or
 * -1 with *status. */
static int run_periods(struct noc_sim *s, noc_run_status_t *status)
{
    const noc_config_t *c = &s->cfg;
    uint64_t P = (uint64_t)c->sample_cycles, reset = s->now;
    noc_sampler_t sm = {
        .warmup_periods = (int)((c->warmup_cycles + c->sample_cycles - 1) / c->sample_cycles), .max_samples = (int)c->max_samples,
        .warmup_thres = c->warmup_thres, .acc_warmup_thres = c->acc_warmup_thres,
        .stopping_thres = c->stopping_thres, .acc_stopping_thres = c->acc_stopping_thres,
        .latency_thres = c->latency_thres, .throughput = throughput(s)};
    noc_sampler_start(&sm);
    s->phase = NOC_PHASE_WARMUP;
    s->win_start = s->win_end = NOC_NEVER;
    s->warm_track = 1;
    int rc = 0;
    while (noc_sampler_more(&sm)) {
        if (noc_sampler_clear(&sm)) {
            if (sm.state == NOC_SAMPLING_RUNNING) { /* the measurement begins */
                s->warm_track = 0;
                s->win_start = s->now;
                open_window(s);
            } else {
                s->warm_lat_n = s->warm_lat_sum = s->warm_flits_out = 0;
                for (int k = 0; s->cst && k < s->classes; k++)
                    s->cst[k].warm_lat_n = s->cst[k].warm_lat_sum = s->cst[k].warm_flits_out = 0;
                reset = s->now;
            }
        }
        if ((rc = run_until(s, s->now + P, 0, 0, status)) != 0)
            break;
        double lat[NOC_SAMPLER_CLASSES], acc[NOC_SAMPLER_CLASSES], thres[NOC_SAMPLER_CLASSES];
        period_figures(s, &sm, reset, lat, acc, thres);
        noc_sampler_period_classes(&sm, s->classes, lat, acc, thres);
    }
    s->warm_track = 0;
    if (s->win_start == NOC_NEVER) /* never measured: an empty window */
        s->win_start = s->now;
    s->win_end = s->now;
    s->st.periods = (uint32_t)sm.periods;
    s->st.warmup_periods = (uint32_t)(sm.warmed_at ? sm.warmed_at : sm.periods);
    if (rc < 0)
        return -1;
    s->st.stopped = sm.stop;
    if (sm.stop == NOC_STOP_UNSTABLE)
        mark_unstable(s);
    return 0;
}

/* Flits waiting in the source queues (packets their NI has not started). */
static uint64_t queued_flits(const struct noc_sim *s)
{
    uint64_t f = 0;
    for (int n = 0; n < s->n_srcs; n++)
        for (uint32_t q = s->ni[n].q_head; q != s->ni[n].q_tail; q++)
            f += noc_srcq_at(s, n, q)->size;
    return noc_sim_ranks_sum(s, f + noc_rw_queued_flits(s)); /* (ranks: every part's queues) */
}

/* noctua's window: warm-up, then sample_cycles measured; 0, or -1 with
 * *status. */
static int run_window(struct noc_sim *s, noc_run_status_t *status)
{
    uint64_t warm = (uint64_t)s->cfg.warmup_cycles, sample = (uint64_t)s->cfg.sample_cycles;
    s->phase = NOC_PHASE_WARMUP;
    s->win_start = s->now + warm;
    s->win_end = s->win_start + sample;
    if (run_until(s, s->win_start, 0, 0, status))
        return -1;
    open_window(s);
    uint64_t lost_before = s->st.packets_offered_lost, queued = queued_flits(s);
    int rc = run_until(s, s->win_end, s->cfg.latency_thres >= 0.0 && !throughput(s), s->win_start, status);
    if (rc < 0)
        return -1;
    if (rc > 0)
        s->win_end = s->now;
    s->st.queue_growth = (int64_t)queued_flits(s) - (int64_t)queued;
    if (s->st.packets_offered_lost > lost_before)
        s->st.saturated = 1;
    return 0;
}

/* Stop the sources and let every flit that entered arrive, so that nothing
 * is left behind. 0, or -1 with *status. */
static int empty_network(struct noc_sim *s, noc_run_status_t *status)
{
    noc_sim_stop_injection(s);
    for (uint64_t quiet = 0; s->in_network > 0 || (s->rk ? noc_sim_ranks_busy(s) : s->n_active > 0);) {
        if (noc_sim_step_checked(s, status))
            return -1;
        /* with no flit left, only credits can still be on their way */
        if (s->in_network == 0 && ++quiet > s->cap + 2) {
            fprintf(stderr, "noctua: internal error: nodes stay active in an empty network\n");
            *status = NOC_RUN_INVARIANT;
            return -1;
        }
    }
    return 0;
}

/* After the window: the measured packets' drain (not after an unstable
 * stop), then the empty network. 0, or -1 with *status. */
static int drain(struct noc_sim *s, noc_run_status_t *status)
{
    noc_stats_t *st = &s->st;
    s->phase = NOC_PHASE_DRAIN;
    s->measuring = 0;
    noc_occ_window_close(s);
    if (st->stopped != NOC_STOP_UNSTABLE && !throughput(s)) {
        uint64_t drain_max = (uint64_t)s->cfg.max_drain_cycles;
        int test = s->cfg.latency_thres >= 0.0;
        while (st->measured_outstanding > 0 && s->now - s->win_end < drain_max) {
            if (noc_sim_step_checked(s, status))
                return -1;
            if (test && (s->now - s->win_end) % NOC_THRES_EVERY == 0 && unstable(s)) {
                mark_unstable(s);
                break;
            }
        }
    }
    st->drained = st->measured_outstanding == 0;
    int rc = empty_network(s, status);
    if (throughput(s)) /* no drain: the packets still waiting were dropped, not measured */
        st->drained = st->measured_outstanding == 0;
    return rc;
}

/* sim_type = batch (BatchTrafficManager::_SingleSim): batch_count
 * batches, each until every terminal has issued batch_size packets and
 * then until every packet made has arrived; every packet is measured,
 * the window is the batches. Then the network empties (the replies still
 * owed are dropped, as BookSim2's final drain makes none). */
static void run_batches(struct noc_sim *s, noc_run_status_t *status)
{
    noc_stats_t *st = &s->st;
    s->win_start = s->now;
    s->win_end = NOC_NEVER;
    open_window(s);
    for (long long k = 0; k < s->cfg.batch_count; k++) {
        noc_batch_begin(s);
        uint64_t moved = s->now, made = s->batch->issued;
        while (!noc_batch_issued(s)) {
            if (noc_sim_step_checked(s, status))
                return;
            if (s->batch->issued != made || s->in_network > 0) {
                made = s->batch->issued;
                moved = s->now;
            } else if (s->now - moved > (uint64_t)s->cfg.deadlock_cycles) {
                /* (nothing issued, nothing on its way: no offer can succeed) */
                fprintf(stderr, "noctua: internal error: the batch stopped making packets at cycle %llu\n",
                        (unsigned long long)s->now);
                *status = NOC_RUN_INVARIANT;
                return;
            }
        }
        while (s->batch->in_flight > 0)
            if (noc_sim_step_checked(s, status))
                return;
        uint64_t d = s->now - s->batch->start;
        st->batch_min = st->batches == 0 || d < st->batch_min ? d : st->batch_min;
        st->batch_max = d > st->batch_max ? d : st->batch_max;
        st->batch_sum += d;
        st->batches++;
    }
    s->win_end = s->now;
    s->phase = NOC_PHASE_DRAIN;
    s->measuring = 0;
    noc_occ_window_close(s);
    (void)empty_network(s, status);
    st->drained = st->measured_outstanding == 0;
}

noc_run_status_t noc_sim_run(noc_sim_t *s)
{
    noc_run_status_t status = NOC_RUN_OK;
    noc_stats_t *st = &s->st;
    if (s->batch)
        run_batches(s, &status);
    else if ((s->cfg.max_samples > 0 ? run_periods(s, &status) : run_window(s, &status)) == 0)
        (void)drain(s, &status);
    st->warmup = s->now < s->win_start ? s->now : s->win_start;
    st->sample = s->now <= s->win_start ? 0 : (s->now < s->win_end ? s->now : s->win_end) - s->win_start;
    st->drain = s->now > s->win_end ? s->now - s->win_end : 0;
    noc_sim_ranks_finish(s); /* (ranks: the links' figures and the histogram summed) */
    st->flit_hops = noc_stats_link_flits(s);
    if (status == NOC_RUN_INTERRUPTED || s->batch)
        return status; /* cut short, or a batch: no verdict on saturation */
    if (!st->drained)
        st->saturated = 1;
    if (st->window_flits_out * 100 < st->window_flits_offered * 95) {
        /* Fewer flits arrived than were offered in the window. Past saturation
         * the source queues grow by the difference; when they did not (by
         * less than 5% of the offered flits, noctua's window only) and every
         * measured packet arrived, the window closed with flits on their
         * way: the network carried the load, later. */
        if (s->cfg.max_samples <= 0 && st->drained && !st->saturated &&
            st->queue_growth * 20 < (int64_t)st->window_flits_offered)
            st->window_filling = 1;
        else
            st->saturated = 1;
    }
    return status;
}
