/* sim_threads.c: a synthetic run's evaluation on several threads
 * (threads > 1; docs/scale.md).
 *
 * The nodes (over MPI ranks: the rank's part, model/sim_ranks.c) are cut
 * into T contiguous blocks of node numbers (row bands on row-major grids;
 * METIS partitions are not used yet), part t evaluated by
 * thread t (thread 0 is the caller's). A cycle:
 *   serial   the packets generated (model/sim.c), the nodes woken since the
 *            last cycle handed to their parts' active lists, each part's
 *            view given the packet slots its NIs may start (the pool
 *            grown first if it must: never while a view points at it),
 *            then synced with the run (the struct copied but for its own
 *            fields);
 *   barrier  (start)
 *   parallel each thread evaluates its part's active nodes through its view
 *            (model/sim_eval.h, the one-thread cycle's own loop);
 *   barrier  (mid: every evaluation is done)
 *   serial   each part's statistics, flits in the network, last move,
 *            packet slots and woken nodes added back in part order, the
 *            parts' nodes committed and pruned, the clock advanced.
 * A channel slot written in cycle t is read in t + 1 or later, so the only
 * things a node writes of another's are its work count, listed flag and
 * arrival masks of a later slot (model/channel.h): a view writes these
 * into arrays of its own (its part's work counts and listed flags copied
 * in before the cycle and out after it, the other nodes' from zero, their
 * additions then added to the run's; the masks all from zero, ORed in).
 * Everything else a node writes is its own (its router, NI, random
 * stream, the link statistics of its outputs and inputs) or its view's,
 * reduced here. Integer sums, minima and maxima reduce to the same values
 * in any order, so the report is the same for every thread count. No lock,
 * no atomic, no allocation in the cycle: the workers start on the first
 * cycle and wait on the barriers until the run is destroyed. The serial
 * part costs O(nodes / threads) a cycle for the copies of the work counts:
 * it pays on large fabrics with traffic, not on small ones.
 *
 * Not in this step (refused by name in noc_sim_threads_setup, and for
 * programs and --waves by pe_build.c and the CLI): routers without a
 * thread_state (ideal, rtl), internal/output speedup, batch and
 * request/reply traffic. */
#include "model/sim_threads.h"
#include "model/sim_eval.h"
#include "model/sim_ranks.h"
#include "util/xalloc.h"
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_THREADS 64

typedef struct part {
    struct noc_sim v;    /* this thread's view of the run */
    struct noc_threads *thr;
    int t;               /* the part's number */
    int lo, hi;          /* its nodes [lo, hi) */
    int32_t *active;     /* its active list (hi - lo entries) */
    int n_active;
    int32_t *woken;      /* nodes it woke this cycle (any part's: n_nodes entries) */
    uint32_t *slots;     /* the view's packet free list: its batch, then the packets it delivers */
    uint32_t batch;      /* packet slots given a cycle: its NIs' injection lanes */
    uint32_t *log;       /* latency bins of the measured packets it delivered */
    noc_src_lat_t *src_log; /* node_stats: their sources and latencies (as log) */
    noc_class_stats_t *cst; /* classes > 1: the view's per-class figures (from 0 each cycle) */
    int32_t *work;       /* the view's work counts (its part's, then others' additions) */
    uint8_t *listed;     /* the view's listed flags (its part's, then others' from 0) */
    uint64_t *arr_flit, *arr_credit; /* the masks its sends set (from 0, ORed into the run's) */
    void *rstate;        /* its router state (the family's thread_state; part 0: the run's) */
    pthread_t tid;
} part_t;

struct noc_threads {
    int T;
    part_t *part;
    uint8_t *part_of;    /* per node */
    pthread_barrier_t start, mid;
    int started, quit;
};

int noc_sim_threads_count(long long cfg_threads, int n_nodes)
{
    long long t = cfg_threads;
    if (t == 0) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        t = c > 0 ? c : 1;
    }
    if (t > MAX_THREADS)
        t = MAX_THREADS;
    if (t > n_nodes)
        t = n_nodes;
    return t < 1 ? 1 : (int)t;
}

const char *noc_sim_parts_refused(const struct noc_sim *s, char *why, size_t len)
{
    const noc_config_t *c = &s->cfg;
    if (c->internal_speedup != 1.0 || c->output_speedup != 1)
        return "internal_speedup / output_speedup other than 1 (the vc router's output queues)";
    if (strcmp(c->sim_type, "batch") == 0)
        return "sim_type = batch (each terminal's count of unanswered requests, kept across the parts)";
    if (c->use_read_write)
        return "use_read_write (a reply is queued where its request arrives, in the queues of the whole run)";
    if (!s->rops->thread_state || s->rops->pre_eval || s->rops->commit) {
        snprintf(why, len, "the %s router", s->rops->name);
        return why;
    }
    return NULL;
}

int noc_sim_threads_setup(struct noc_sim *s, char *err, size_t errlen)
{
    if (s->cfg.threads < 0) {
        snprintf(err, errlen, "parameter 'threads': %lld is not a thread count (0: one per core, or >= 1)",
                 (long long)s->cfg.threads);
        return -1;
    }
    int base, end; /* the nodes to cut: the run's, or over MPI ranks this rank's part */
    noc_sim_ranks_part(s, &base, &end);
    int T = noc_sim_threads_count(s->cfg.threads, end - base);
    if (T == 1)
        return 0;
    char why[NOC_CONFIG_STR_MAX + 100];
    const char *no = noc_sim_parts_refused(s, why, sizeof why);
    if (no) {
        snprintf(err, errlen, "parameter 'threads': %s runs on one thread only for now; use threads=1", no);
        return -1;
    }
    struct noc_threads *thr = noc_xcalloc(1, sizeof *thr, "threads");
    thr->T = T;
    thr->part = noc_xcalloc((size_t)T, sizeof(part_t), "threads");
    thr->part_of = noc_xcalloc((size_t)s->n_nodes, 1, "threads");
    for (int t = 0; t < T; t++) {
        part_t *p = &thr->part[t];
        p->thr = thr;
        p->t = t;
        p->lo = base + (int)((int64_t)(end - base) * t / T);
        p->hi = base + (int)((int64_t)(end - base) * (t + 1) / T);
        uint32_t terms = 0;
        for (int n = p->lo; n < p->hi; n++) {
            thr->part_of[n] = (uint8_t)t;
            terms += (uint32_t)noc_node_terms(s, n);
        }
        p->batch = terms * (uint32_t)s->lanes;
        p->active = noc_xcalloc((size_t)(p->hi - p->lo) + 1, sizeof(int32_t), "threads");
        p->woken = noc_xcalloc((size_t)s->n_nodes, sizeof(int32_t), "threads");
        /* its batch, and at most a packet a cycle delivered at each ejection channel */
        p->slots = noc_xcalloc((size_t)p->batch + (size_t)s->n_terms + 16, sizeof(uint32_t), "threads");
        p->log = noc_xcalloc((size_t)s->n_terms + 16, sizeof(uint32_t), "threads");
        p->src_log = s->nst ? noc_xcalloc((size_t)s->n_terms + 16, sizeof(noc_src_lat_t), "threads") : NULL;
        p->cst = s->cst ? noc_xcalloc((size_t)s->classes, sizeof(noc_class_stats_t), "threads") : NULL;
        p->work = noc_xcalloc((size_t)s->n_nodes, sizeof(int32_t), "threads");
        p->listed = noc_xcalloc((size_t)s->n_nodes, 1, "threads");
        p->arr_flit = noc_xcalloc((size_t)s->n_nodes * s->cap, sizeof(uint64_t), "threads");
        p->arr_credit = noc_xcalloc((size_t)s->n_nodes * s->cap, sizeof(uint64_t), "threads");
        p->rstate = t == 0 ? s->rstate : s->rops->thread_state(s);
        p->v.cfg = s->cfg; /* (the rest of the view is synced every cycle) */
    }
    /* the nodes already woken (generation before the first cycle) stay in
     * the run's woken list, handed out at the first cycle */
    for (int i = 0; i < s->n_active; i++) {
        int n = s->active[i];
        part_t *p = &thr->part[thr->part_of[n]];
        p->active[p->n_active++] = n;
    }
    s->n_active = 0;
    pthread_barrier_init(&thr->start, NULL, (unsigned)T);
    pthread_barrier_init(&thr->mid, NULL, (unsigned)T);
    s->thr = thr;
    return 0;
}

/* ---- the cycle ---- */

/* Node list w[0 .. k): to their parts' active lists (they are listed). */
static void hand_out(struct noc_threads *thr, const int32_t *w, int k)
{
    for (int i = 0; i < k; i++) {
        part_t *p = &thr->part[thr->part_of[w[i]]];
        p->active[p->n_active++] = w[i];
    }
}

/* The slots part p's NIs may start packets in this cycle, from the top of
 * the run's free list, its top on top (as the run would take them). Taken
 * for every part before any view is synced: the pool grows here if it must
 * (noc_pkt_grow), between cycles, never while a view points at it. */
static void deal_slots(struct noc_sim *s, part_t *p)
{
    assert(noc_pkt_free_count(s) >= p->batch);
    for (uint32_t i = 0; i < p->batch; i++)
        p->slots[p->batch - 1 - i] = noc_pkt_take(s);
}

/* Part p's view for this cycle: the run as it stands, with the part's own
 * lists, packet slots, router state, and statistics from zero. */
static void sync_view(struct noc_sim *s, part_t *p, uint64_t id_base)
{
    struct noc_sim *v = &p->v;
    size_t off = offsetof(struct noc_sim, graph);
    memcpy((char *)v + off, (const char *)s + off, sizeof *s - off);
    v->thr = NULL;
    size_t k = (size_t)(p->hi - p->lo);
    memcpy(p->work + p->lo, s->work + p->lo, k * sizeof *p->work);
    memcpy(p->listed + p->lo, s->listed + p->lo, k);
    v->work = p->work;
    v->listed = p->listed;
    v->arr_flit_to = p->arr_flit;
    v->arr_credit_to = p->arr_credit;
    v->credit_bytes = 0; /* (channel.h: a row at a time) */
    v->rstate = p->rstate;
    v->active = p->active;
    v->n_active = p->n_active;
    v->woken = p->woken;
    v->n_woken = 0;
    /* the slots its NIs may start packets in (deal_slots): no slot it has
     * not been given (pkt_cap at pkt_fresh: noc_pkt_take asserts it) */
    v->pkt_free = p->slots;
    v->pkt_free_n = p->batch;
    v->pkt_cap = v->pkt_fresh;
    v->next_pkt_id = id_base; /* (numbers of its own: at most batch of them) */
    memset(&v->st, 0, sizeof v->st);
    v->cst = p->cst;
    if (p->cst)
        memset(p->cst, 0, (size_t)s->classes * sizeof *p->cst);
    v->hist_log = p->log;
    v->hist_log_n = 0;
    v->src_log = p->src_log;
    v->in_network = 0;
    v->warm_flits_out = v->warm_lat_n = v->warm_lat_sum = 0;
    v->observer = NULL;
    v->progress = NULL;
    v->shuffle = 0;
}

static void lat_merge(noc_lat_sum_t *d, const noc_lat_sum_t *a)
{
    if (!a->n)
        return;
    if (d->n == 0 || a->min < d->min)
        d->min = a->min;
    if (a->max > d->max)
        d->max = a->max;
    d->n += a->n;
    d->sum += a->sum;
}

/* classes > 1: a view's per-class figures added into the run's. */
static void class_merge(struct noc_sim *s, const noc_class_stats_t *v)
{
    for (int c = 0; c < s->classes; c++) {
        noc_class_stats_t *d = &s->cst[c];
        const noc_class_stats_t *a = &v[c];
        d->packets += a->packets;
        d->flits += a->flits;
        d->window_flits_offered += a->window_flits_offered;
        d->window_flits_in += a->window_flits_in;
        d->window_flits_out += a->window_flits_out;
        lat_merge(&d->latency, &a->latency);
        lat_merge(&d->net_latency, &a->net_latency);
        lat_merge(&d->flit_latency, &a->flit_latency);
        lat_merge(&d->hops, &a->hops);
        d->warm_flits_out += a->warm_flits_out;
        d->warm_lat_n += a->warm_lat_n;
        d->warm_lat_sum += a->warm_lat_sum;
    }
}

/* After the evaluation: part p's view added back into the run. */
static void reduce(struct noc_sim *s, part_t *p)
{
    const struct noc_sim *v = &p->v;
    noc_stats_t *st = &s->st;
    st->window_flits_in += v->st.window_flits_in;
    st->window_flits_out += v->st.window_flits_out;
    st->packets += v->st.packets;
    st->flits += v->st.flits;
    st->measured_outstanding += v->st.measured_outstanding; /* (a count down: modulo 2^64) */
    lat_merge(&st->latency, &v->st.latency);
    lat_merge(&st->net_latency, &v->st.net_latency);
    lat_merge(&st->flit_latency, &v->st.flit_latency);
    lat_merge(&st->queue_latency, &v->st.queue_latency);
    lat_merge(&st->hops, &v->st.hops);
    for (uint32_t i = 0; i < v->hist_log_n; i++)
        st->lat_hist[p->log[i]]++;
    if (p->src_log) /* (sums, maxima and bins: the same in any order) */
        for (uint32_t i = 0; i < v->hist_log_n; i++)
            noc_node_lat_src(s->nst, p->src_log[i].src, p->src_log[i].lat);
    s->in_network += v->in_network;
    if (v->last_move > s->last_move)
        s->last_move = v->last_move;
    s->warm_flits_out += v->warm_flits_out;
    s->warm_lat_n += v->warm_lat_n;
    s->warm_lat_sum += v->warm_lat_sum;
    if (p->cst)
        class_merge(s, p->cst);
    for (uint32_t i = 0; i < v->pkt_free_n; i++) /* (bottom first: its top on top) */
        noc_pkt_give(s, v->pkt_free[i]);
}

/* The masks a view's sends set for node n, ORed into the run's. */
static void merge_masks(struct noc_sim *s, part_t *p, int n)
{
    size_t at = (size_t)n * s->cap;
    for (uint32_t i = 0; i < s->cap; i++) {
        s->arr_flit[at + i] |= p->arr_flit[at + i];
        s->arr_credit[at + i] |= p->arr_credit[at + i];
        p->arr_flit[at + i] = p->arr_credit[at + i] = 0;
    }
}

/* Part p's work counts and listed flags back into the run's, and the
 * arrival masks of its active nodes (the others it touched are in its
 * woken list: merge_woken). */
static void merge_own(struct noc_sim *s, part_t *p)
{
    size_t k = (size_t)(p->hi - p->lo);
    memcpy(s->work + p->lo, p->work + p->lo, k * sizeof *s->work);
    memcpy(s->listed + p->lo, p->listed + p->lo, k);
    for (int i = 0; i < p->n_active; i++)
        merge_masks(s, p, p->active[i]);
}

/* The nodes part p woke: its own are listed already (merge_own); another
 * part's get the work p gave them, and join that part's list (after its
 * prune: into `later`, count *n_later) unless they are on it. */
static void merge_woken(struct noc_sim *s, part_t *p, int32_t *later, int *n_later)
{
    for (int i = 0; i < p->v.n_woken; i++) {
        int n = p->woken[i];
        merge_masks(s, p, n);
        if (n >= p->lo && n < p->hi) {
            later[(*n_later)++] = n;
            continue;
        }
        s->work[n] += p->work[n];
        p->work[n] = 0;
        p->listed[n] = 0;
        if (!s->listed[n]) {
            s->listed[n] = 1;
            later[(*n_later)++] = n;
        }
    }
}

/* The part's nodes that ran out of work leave its active list (after the
 * commit), as noc_work_prune does for the one-thread list. */
static void prune(struct noc_sim *s, part_t *p)
{
    int k = 0;
    for (int i = 0; i < p->n_active; i++) {
        int n = p->active[i];
        if (s->work[n] > 0)
            p->active[k++] = n;
        else
            s->listed[n] = 0;
    }
    p->n_active = k;
}

static void eval_part(part_t *p)
{
    noc_sim_eval_nodes(&p->v, p->active, p->n_active);
}

static void *worker(void *arg)
{
    part_t *p = arg;
    struct noc_threads *thr = p->thr;
    for (;;) {
        pthread_barrier_wait(&thr->start);
        if (thr->quit)
            return NULL;
        eval_part(p);
        pthread_barrier_wait(&thr->mid);
    }
}

void noc_sim_threads_cycle(struct noc_sim *s)
{
    struct noc_threads *thr = s->thr;
    int T = thr->T;
    if (!thr->started) {
        for (int t = 1; t < T; t++)
            if (pthread_create(&thr->part[t].tid, NULL, worker, &thr->part[t]) != 0)
                noc_oom("worker threads", 0);
        thr->started = 1;
    }
    hand_out(thr, s->woken, s->n_woken);
    s->n_woken = 0;
    uint64_t id = s->next_pkt_id;
    for (int t = 0; t < T; t++)
        deal_slots(s, &thr->part[t]);
    for (int t = 0; t < T; t++) {
        sync_view(s, &thr->part[t], id);
        id += thr->part[t].batch;
    }
    s->next_pkt_id = id;
    pthread_barrier_wait(&thr->start);
    eval_part(&thr->part[0]);
    pthread_barrier_wait(&thr->mid);
    for (int t = 0; t < T; t++) {
        reduce(s, &thr->part[t]);
        merge_own(s, &thr->part[t]);
    }
    /* (the nodes woken, in part order, wait in the run's woken list: the
     * next cycle's additions to the parts' lists, after their prune) */
    for (int t = 0; t < T; t++)
        merge_woken(s, &thr->part[t], s->woken, &s->n_woken);
    if (s->rk) /* over MPI ranks: what crossed this rank's cut (model/sim_ranks.c), the other ranks' nodes
                  dropped from the woken list */
        noc_sim_ranks_exchange(s);
    int n_active = 0;
    for (int t = 0; t < T; t++) {
        part_t *p = &thr->part[t];
        if (s->rops->commit)
            for (int i = 0; i < p->n_active; i++)
                s->rops->commit(s, p->active[i]);
        prune(s, p);
        n_active += p->n_active;
    }
    s->n_active = n_active; /* (as the one-thread list after its prune: the woken not counted) */
    s->now++;
    s->st.cycles = s->now;
}

void noc_sim_threads_destroy(struct noc_sim *s)
{
    struct noc_threads *thr = s->thr;
    if (!thr)
        return;
    if (thr->started) {
        thr->quit = 1;
        pthread_barrier_wait(&thr->start);
        for (int t = 1; t < thr->T; t++)
            pthread_join(thr->part[t].tid, NULL);
    }
    pthread_barrier_destroy(&thr->start);
    pthread_barrier_destroy(&thr->mid);
    for (int t = 0; t < thr->T; t++) {
        part_t *p = &thr->part[t];
        if (t > 0 && s->rops && s->rops->thread_state_free)
            s->rops->thread_state_free(p->rstate);
        free(p->active);
        free(p->woken);
        free(p->slots);
        free(p->log);
        free(p->src_log);
        free(p->cst);
        free(p->work);
        free(p->listed);
        free(p->arr_flit);
        free(p->arr_credit);
    }
    free(thr->part);
    free(thr->part_of);
    free(thr);
    s->thr = NULL;
}
