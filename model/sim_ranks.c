/* sim_ranks.c: a synthetic run's fabric split over MPI ranks (mpirun -n R;
 * docs/scale.md, "MPI ranks for one fabric").
 *
 * Every rank builds the whole run (the same channels, routers and NIs) and
 * owns a part: the nodes [lo, hi), contiguous blocks of node numbers as the
 * threads' parts (model/sim_threads.c), bands of rows on row-major grids.
 * It evaluates only its part's nodes, and its calendar holds only its
 * part's sources (each source has its own random stream, so a part's
 * packets are the same whoever else runs). A cycle on rank r:
 *   begin     the run's summed figures noted (snap);
 *   the part  generated and evaluated as a one-process cycle would;
 *   exchange  what the part's nodes wrote toward other parts, sent to the
 *             rank that owns the reader: the flits on the cut channels it
 *             drives (all their ring slots, each with its packet's record,
 *             the sender's copy of the slot cleared), the credits on the
 *             cut channels it reads. The work those sends gave to other
 *             parts' nodes is dropped here (they are not evaluated here),
 *             and added there with the flits and credits, as the send
 *             would have: the ring slot, the arrival mask, the work unit.
 *             A channel slot written in cycle t is read in t + 1 or later,
 *             so swapping after the evaluation is in time;
 *   commit    the part's own;
 *   sync      every summed figure (statistics, flits in the network, the
 *             per-class figures) becomes the value before the cycle plus
 *             the sum over the ranks of their changes, the maxima and
 *             minima the extremes over the ranks: one MPI_Allreduce each.
 *             Integer sums, minima and maxima do not depend on the order,
 *             so every rank holds the same figures as a one-process run.
 * Packets: a packet's record (noc_packet_t) travels with its head flit
 * across a cut; the receiver copies it into a slot of its own pool and
 * notes the slot for the channel's VC, where the packet's body flits
 * follow the head (a VC of a channel carries one packet at a time); the
 * sender gives its slot back when the tail has crossed. A packet that
 * crosses back into a part holds a second slot there: every copy is the
 * record of its segment, and the destination's is the one delivered.
 * (Packet numbers, noc_packet_t.id, differ from a one-process run's, as
 * with threads; routings that draw from them are refused.)
 * The link statistics and the latency histogram are summed once, at the
 * end (noc_sim_ranks_finish): each link figure is written by one end of
 * the link only.
 *
 * Not in this step (refused by name): what threads refuse
 * (noc_sim_parts_refused), programs, --waves. Threads inside a rank cut
 * its part (model/sim_threads.c, which calls the exchange after its merge
 * of the parts). Every rank allocates the whole run's state, but the
 * routers set up only the part's nodes (the setup runs before them) and
 * the rest stays untouched zero pages: the resident memory of the
 * traffic's state divides, the graph and wiring do not. */
#include "model/sim_ranks.h"
#include "model/channel.h"
#include "model/sim_threads.h"
#include "util/ranks.h"
#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef NOCTUA_HAVE_MPI
#include <mpi.h>
#endif

#ifdef NOCTUA_HAVE_MPI

/* A rank this part shares cut channels with. */
typedef struct nb {
    int rank;
    int32_t *out;        /* cut channels this part writes flits on (the neighbour reads them) */
    int32_t *in;         /* cut channels the neighbour writes flits on (this part returns their credits) */
    int n_out, n_in;
    unsigned char *sbuf, *rbuf;
    size_t bytes;        /* the largest message either way */
} nb_t;

/* A flit crossing, with its packet's record (read by the receiver for a
 * head only). */
typedef struct xflit {
    int32_t c;
    uint32_t slot;
    noc_flit_t f;
    noc_packet_t p;
} xflit_t;

enum { MAX_LATS = 5 + 4 * 256 };

struct noc_ranks {
    int R, r;
    int lo, hi;          /* this part's nodes */
    int *lo_of;          /* per rank: its first node (R + 1 entries) */
    nb_t *nb;
    int n_nb;
    int32_t *in_idx;     /* per channel: its index among this part's cut inputs, -1 */
    uint32_t *pkt_map;   /* per cut input and VC: the local slot of the packet on it */
    size_t credit_rec;   /* bytes of a credit record: c, slot, V counters, padded to 8 */
    MPI_Request *req;
    /* the figures summed over the ranks, and their values before the cycle */
    uint64_t **sum;
    uint64_t *snap, *sbuf, *gbuf;
    int n_sum;
    noc_lat_sum_t *lat[MAX_LATS];
    int n_lat;
    MPI_Datatype rec_type; /* the cycle's record of figures, and its reduction (sum_max) */
    MPI_Op rec_op;
    int rec_made;
    int stop, busy;      /* after a sync: stopped on some rank, nodes active on some rank */
};

static int rank_of(const struct noc_ranks *rk, int n)
{
    int a = 0, b = rk->R - 1;
    while (a < b) { /* the last rank whose first node is <= n */
        int m = (a + b + 1) / 2;
        if (rk->lo_of[m] <= n)
            a = m;
        else
            b = m - 1;
    }
    return a;
}

static nb_t *nb_for(struct noc_ranks *rk, int rank)
{
    for (int i = 0; i < rk->n_nb; i++)
        if (rk->nb[i].rank == rank)
            return &rk->nb[i];
    return NULL;
}

/* The neighbours and their cut channels, in rank order, and the buffers. */
static void find_cut(struct noc_sim *s, struct noc_ranks *rk)
{
    int *cnt_out = noc_xcalloc((size_t)rk->R, sizeof(int), "ranks");
    int *cnt_in = noc_xcalloc((size_t)rk->R, sizeof(int), "ranks");
    for (int c = 0; c < s->n_chan; c++) {
        int a = s->chan_from[c], b = s->chan_to[c];
        int ra = rank_of(rk, a), rb = rank_of(rk, b);
        if (ra == rb)
            continue;
        if (ra == rk->r)
            cnt_out[rb]++;
        else if (rb == rk->r)
            cnt_in[ra]++;
    }
    rk->nb = noc_xcalloc((size_t)rk->R, sizeof(nb_t), "ranks");
    for (int q = 0; q < rk->R; q++) {
        if (!cnt_out[q] && !cnt_in[q])
            continue;
        nb_t *nb = &rk->nb[rk->n_nb++];
        nb->rank = q;
        nb->out = noc_xcalloc((size_t)cnt_out[q] + 1, sizeof(int32_t), "ranks");
        nb->in = noc_xcalloc((size_t)cnt_in[q] + 1, sizeof(int32_t), "ranks");
    }
    rk->in_idx = noc_xmalloc((size_t)s->n_chan * sizeof(int32_t), "ranks");
    int n_in = 0;
    for (int c = 0; c < s->n_chan; c++) {
        rk->in_idx[c] = -1;
        int ra = rank_of(rk, s->chan_from[c]), rb = rank_of(rk, s->chan_to[c]);
        if (ra == rb)
            continue;
        if (ra == rk->r) {
            nb_t *nb = nb_for(rk, rb);
            nb->out[nb->n_out++] = c;
        } else if (rb == rk->r) {
            nb_t *nb = nb_for(rk, ra);
            nb->in[nb->n_in++] = c;
            rk->in_idx[c] = n_in++;
        }
    }
    rk->pkt_map = noc_xcalloc((size_t)n_in * (size_t)s->V + 1, sizeof(uint32_t), "ranks");
    rk->credit_rec = (8 + (size_t)s->V + 7) / 8 * 8;
    for (int i = 0; i < rk->n_nb; i++) {
        nb_t *nb = &rk->nb[i];
        /* either way: its flits and our credits, or its credits and our flits */
        size_t a = (size_t)nb->n_out * s->cap * sizeof(xflit_t) + (size_t)nb->n_in * s->cap * rk->credit_rec;
        size_t b = (size_t)nb->n_in * s->cap * sizeof(xflit_t) + (size_t)nb->n_out * s->cap * rk->credit_rec;
        nb->bytes = 8 + (a > b ? a : b);
        nb->sbuf = noc_xmalloc(nb->bytes, "ranks");
        nb->rbuf = noc_xmalloc(nb->bytes, "ranks");
    }
    rk->req = noc_xcalloc((size_t)rk->n_nb * 2 + 1, sizeof(MPI_Request), "ranks");
    free(cnt_out);
    free(cnt_in);
}

static void sum_max(void *in, void *inout, int *len, MPI_Datatype *type);

static void add_lat(struct noc_ranks *rk, uint64_t **p, int *n, noc_lat_sum_t *l)
{
    p[(*n)++] = &l->n;
    p[(*n)++] = &l->sum;
    rk->lat[rk->n_lat++] = l;
}

/* The figures every rank changes for its part and the run sums. */
static void list_figures(struct noc_sim *s, struct noc_ranks *rk)
{
    int cap = 32 + s->classes * 16;
    uint64_t **p = noc_xcalloc((size_t)cap, sizeof *p, "ranks");
    int n = 0;
    noc_stats_t *st = &s->st;
    uint64_t *plain[] = { &st->packets_created, &st->packets_offered_lost, &st->packets, &st->flits,
                          &st->window_flits_offered, &st->window_flits_in, &st->window_flits_out,
                          &st->measured_outstanding, &s->in_network, &s->warm_flits_out, &s->warm_lat_n,
                          &s->warm_lat_sum };
    for (size_t i = 0; i < sizeof plain / sizeof *plain; i++)
        p[n++] = plain[i];
    add_lat(rk, p, &n, &st->latency);
    add_lat(rk, p, &n, &st->net_latency);
    add_lat(rk, p, &n, &st->flit_latency);
    add_lat(rk, p, &n, &st->queue_latency);
    add_lat(rk, p, &n, &st->hops);
    for (int c = 0; s->cst && c < s->classes; c++) {
        noc_class_stats_t *k = &s->cst[c];
        uint64_t *cp[] = { &k->packets, &k->flits, &k->window_flits_offered, &k->window_flits_in,
                           &k->window_flits_out, &k->warm_flits_out, &k->warm_lat_n, &k->warm_lat_sum };
        for (size_t i = 0; i < sizeof cp / sizeof *cp; i++)
            p[n++] = cp[i];
        add_lat(rk, p, &n, &k->latency);
        add_lat(rk, p, &n, &k->net_latency);
        add_lat(rk, p, &n, &k->flit_latency);
        add_lat(rk, p, &n, &k->hops);
    }
    rk->sum = p;
    rk->n_sum = n;
    rk->snap = noc_xcalloc((size_t)n, sizeof(uint64_t), "ranks");
    /* the cycle's record: the sums, busy, stop; then the extremes */
    int words = n + 2 + rk->n_lat * 2 + 2;
    rk->sbuf = noc_xcalloc((size_t)words, sizeof(uint64_t), "ranks");
    rk->gbuf = noc_xcalloc((size_t)words, sizeof(uint64_t), "ranks");
    MPI_Type_contiguous(words, MPI_UINT64_T, &rk->rec_type);
    MPI_Type_commit(&rk->rec_type);
    MPI_Op_create(sum_max, 1, &rk->rec_op);
    rk->rec_made = 1;
}

int noc_sim_ranks_setup(struct noc_sim *s, char *err, size_t errlen)
{
    if (!noc_ranks_split()) /* (one rank, or a sweep's points: each rank runs fabrics whole) */
        return 0;
    int R = noc_ranks_size();
    char why[NOC_CONFIG_STR_MAX + 100];
    const char *no = noc_sim_parts_refused(s, why, sizeof why);
    if (!no && s->cfg.check) /* (the checker reads every node's router, set up on its rank only) */
        no = "check=1";
    if (!no && R > s->n_nodes)
        no = "more ranks than the fabric has nodes";
    if (!no && s->classes > 256)
        no = "more than 256 traffic classes";
    if (no) {
        snprintf(err, errlen, "mpirun -n %d: %s runs in one process only for now; run it without mpirun", R, no);
        return -1;
    }
    struct noc_ranks *rk = noc_xcalloc(1, sizeof *rk, "ranks");
    rk->R = R;
    rk->r = noc_ranks_rank();
    rk->lo_of = noc_xcalloc((size_t)R + 1, sizeof(int), "ranks");
    for (int q = 0; q <= R; q++)
        rk->lo_of[q] = (int)((int64_t)s->n_nodes * q / R);
    rk->lo = rk->lo_of[rk->r];
    rk->hi = rk->lo_of[rk->r + 1];
    find_cut(s, rk);
    s->rk = rk;
    return 0;
}

/* The figures summed over the ranks are set once the NIs are built (the
 * per-class ones with them): at the first cycle. */
static void ready(struct noc_sim *s)
{
    if (!s->rk->sum)
        list_figures(s, s->rk);
}

int noc_sim_ranks_owns(const struct noc_sim *s, int n)
{
    return !s->rk || (n >= s->rk->lo && n < s->rk->hi);
}

void noc_sim_ranks_part(const struct noc_sim *s, int *lo, int *hi)
{
    *lo = s->rk ? s->rk->lo : 0;
    *hi = s->rk ? s->rk->hi : s->n_nodes;
}

void noc_sim_ranks_begin(struct noc_sim *s)
{
    struct noc_ranks *rk = s->rk;
    ready(s);
    for (int i = 0; i < rk->n_sum; i++)
        rk->snap[i] = *rk->sum[i];
}

/* ---- exchange ---- */

/* The work this cycle's sends gave to other parts' nodes: not ours to run
 * (their owners add it with the flits and credits). */
static void drop_foreign(struct noc_sim *s, const struct noc_ranks *rk)
{
    int k = 0;
    for (int i = 0; i < s->n_woken; i++) {
        int n = s->woken[i];
        if (n >= rk->lo && n < rk->hi) {
            s->woken[k++] = n;
            continue;
        }
        s->work[n] = 0;
        s->listed[n] = 0;
    }
    s->n_woken = k;
}

/* Neighbour nb's message: the flits on the channels we drive toward it,
 * the credits on the channels it drives toward us; our copies cleared. */
static size_t pack(struct noc_sim *s, struct noc_ranks *rk, nb_t *nb)
{
    unsigned char *b = nb->sbuf + 8;
    uint32_t nf = 0, nc = 0;
    for (int i = 0; i < nb->n_out; i++) {
        int c = nb->out[i];
        for (uint32_t k = 0; k < s->cap; k++) {
            uint32_t at = (uint32_t)c * s->cap + k;
            if (!s->ring_valid[at])
                continue;
            xflit_t x;
            memset(&x, 0, sizeof x);
            x.c = c;
            x.slot = k;
            x.f = s->ring_flit[at];
            if (x.f.flags & NOC_FLIT_HEAD)
                x.p = s->pkts[x.f.pkt];
            memcpy(b, &x, sizeof x);
            b += sizeof x;
            nf++;
            s->ring_valid[at] = 0;
            if (x.f.flags & NOC_FLIT_TAIL) /* the packet has left this part */
                noc_pkt_give(s, x.f.pkt);
        }
    }
    size_t V = (size_t)s->V;
    for (int i = 0; i < nb->n_in; i++) {
        int c = nb->in[i];
        for (uint32_t k = 0; k < s->cap; k++) {
            uint8_t *row = &s->ring_credit[((size_t)c * s->cap + k) * V];
            size_t v = 0;
            while (v < V && !row[v])
                v++;
            if (v == V)
                continue;
            int32_t hdr[2] = { c, (int32_t)k };
            memcpy(b, hdr, sizeof hdr);
            memcpy(b + 8, row, V);
            memset(row, 0, V);
            b += rk->credit_rec;
            nc++;
        }
    }
    uint32_t h[2] = { nf, nc };
    memcpy(nb->sbuf, h, sizeof h);
    return (size_t)(b - nb->sbuf);
}

/* A neighbour's message into this part, as its sends would have written
 * it: the ring slots, the arrival masks, a unit of work a flit or credit. */
static void apply(struct noc_sim *s, struct noc_ranks *rk, const nb_t *nb)
{
    const unsigned char *b = nb->rbuf + 8;
    uint32_t h[2];
    memcpy(h, nb->rbuf, sizeof h);
    for (uint32_t i = 0; i < h[0]; i++, b += sizeof(xflit_t)) {
        xflit_t x;
        memcpy(&x, b, sizeof x);
        uint32_t *map = &rk->pkt_map[(size_t)rk->in_idx[x.c] * (size_t)s->V + x.f.vc];
        if (x.f.flags & NOC_FLIT_HEAD) {
            uint32_t slot = noc_pkt_take(s);
            s->pkts[slot] = x.p;
            *map = slot;
        }
        x.f.pkt = *map;
        int to = s->chan_to[x.c];
        int ok = noc_chan_place_flit(s, x.c, x.slot, to, s->chan_in_port[x.c], &x.f);
        assert(ok);
        (void)ok;
        noc_work_add(s, to, 1);
    }
    size_t V = (size_t)s->V;
    for (uint32_t i = 0; i < h[1]; i++, b += rk->credit_rec) {
        int32_t hdr[2];
        memcpy(hdr, b, sizeof hdr);
        int c = hdr[0];
        uint32_t k = (uint32_t)hdr[1];
        uint8_t *row = &s->ring_credit[((size_t)c * s->cap + k) * V];
        int total = 0;
        for (size_t v = 0; v < V; v++) {
            row[v] = (uint8_t)(row[v] + b[8 + v]);
            total += b[8 + v];
        }
        int from = s->chan_from[c];
        s->arr_credit_to[(uint32_t)from * s->cap + k] |= UINT64_C(1) << s->chan_out_port[c];
        noc_work_add(s, from, total);
    }
}

void noc_sim_ranks_exchange(struct noc_sim *s)
{
    struct noc_ranks *rk = s->rk;
    drop_foreign(s, rk);
    int nr = 0;
    for (int i = 0; i < rk->n_nb; i++) {
        nb_t *nb = &rk->nb[i];
        MPI_Irecv(nb->rbuf, (int)nb->bytes, MPI_BYTE, nb->rank, 0, MPI_COMM_WORLD, &rk->req[nr++]);
    }
    for (int i = 0; i < rk->n_nb; i++) {
        nb_t *nb = &rk->nb[i];
        size_t len = pack(s, rk, nb);
        MPI_Isend(nb->sbuf, (int)len, MPI_BYTE, nb->rank, 0, MPI_COMM_WORLD, &rk->req[nr++]);
    }
    MPI_Waitall(nr, rk->req, MPI_STATUSES_IGNORE);
    for (int i = 0; i < rk->n_nb; i++)
        apply(s, rk, &rk->nb[i]);
}

/* ---- the run's figures ---- */

/* The one all-reduce of a cycle: a record of the figures, its first
 * `sum_words` words summed and the rest maxima (an MPI type of the whole
 * record, so that MPI never cuts it; one run splits a fabric at a time). */
static int sum_words;

static void sum_max(void *in, void *inout, int *len, MPI_Datatype *type)
{
    int words = 0;
    MPI_Type_size(*type, &words);
    words /= (int)sizeof(uint64_t);
    const uint64_t *a = in;
    uint64_t *b = inout;
    for (int e = 0; e < *len; e++, a += words, b += words) {
        for (int i = 0; i < sum_words; i++)
            b[i] += a[i];
        for (int i = sum_words; i < words; i++)
            b[i] = a[i] > b[i] ? a[i] : b[i];
    }
}

void noc_sim_ranks_sync(struct noc_sim *s)
{
    struct noc_ranks *rk = s->rk;
    int n = rk->n_sum;
    uint64_t *v = rk->sbuf, *g = rk->gbuf;
    for (int i = 0; i < n; i++)
        v[i] = *rk->sum[i] - rk->snap[i];
    v[n] = s->n_active > 0;
    v[n + 1] = s->stop && *s->stop;
    /* the extremes (before the counts change): a minimum as its distance
     * below UINT64_MAX, 0 where this rank has none */
    int m = n + 2;
    for (int i = 0; i < rk->n_lat; i++) {
        const noc_lat_sum_t *l = rk->lat[i];
        v[m++] = l->max;
        v[m++] = l->n ? UINT64_MAX - l->min : 0;
    }
    v[m++] = s->last_move;
    v[m++] = s->st.source_queue_peak;
    sum_words = n + 2;
    MPI_Allreduce(v, g, 1, rk->rec_type, rk->rec_op, MPI_COMM_WORLD);
    for (int i = 0; i < n; i++)
        *rk->sum[i] = rk->snap[i] + g[i];
    rk->busy = g[n] > 0;
    rk->stop = g[n + 1] > 0;
    m = n + 2;
    for (int i = 0; i < rk->n_lat; i++) {
        noc_lat_sum_t *l = rk->lat[i];
        l->max = g[m++];
        uint64_t d = g[m++];
        if (d)
            l->min = UINT64_MAX - d;
    }
    s->last_move = g[m++];
    s->st.source_queue_peak = (uint32_t)g[m++];
}

uint64_t noc_sim_ranks_sum(const struct noc_sim *s, uint64_t v)
{
    if (!s->rk)
        return v;
    uint64_t g = 0;
    MPI_Allreduce(&v, &g, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    return g;
}

/* node_stats: each terminal's figures, written where its packets were
 * injected (flits_in) and delivered (the rest, for the source and the
 * destination: a source's latencies on several ranks), summed, their
 * extremes taken, a block of terminals at a time. */
static void finish_nodes(struct noc_sim *s)
{
    enum { BLOCK = 64, B = NOC_NODE_LAT_BINS, NS = 6 + 2 * B, NM = 4 };
    uint64_t *a = noc_xmalloc((size_t)BLOCK * (NS + NM) * sizeof *a, "ranks");
    uint64_t *g = noc_xmalloc((size_t)BLOCK * (NS + NM) * sizeof *g, "ranks");
    for (int t0 = 0; t0 < s->n_terms; t0 += BLOCK) {
        int k = s->n_terms - t0 < BLOCK ? s->n_terms - t0 : BLOCK;
        for (int i = 0; i < k; i++) {
            const noc_node_stats_t *ns = &s->nst[t0 + i];
            uint64_t *v = &a[(size_t)i * NS], *m = &a[(size_t)BLOCK * NS + (size_t)i * NM];
            v[0] = ns->flits_in;
            v[1] = ns->flits_out;
            v[2] = ns->lat_src.n;
            v[3] = ns->lat_src.sum;
            v[4] = ns->lat_dst.n;
            v[5] = ns->lat_dst.sum;
            for (int b = 0; b < B; b++) {
                v[6 + b] = ns->hist_src[b];
                v[6 + B + b] = ns->hist_dst[b];
            }
            m[0] = ns->lat_src.max;
            m[1] = ns->lat_dst.max;
            m[2] = ns->lat_src.n ? UINT64_MAX - ns->lat_src.min : 0;
            m[3] = ns->lat_dst.n ? UINT64_MAX - ns->lat_dst.min : 0;
        }
        MPI_Allreduce(a, g, k * NS, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
        MPI_Allreduce(a + (size_t)BLOCK * NS, g + (size_t)BLOCK * NS, k * NM, MPI_UINT64_T, MPI_MAX,
                      MPI_COMM_WORLD);
        for (int i = 0; i < k; i++) {
            noc_node_stats_t *ns = &s->nst[t0 + i];
            const uint64_t *v = &g[(size_t)i * NS], *m = &g[(size_t)BLOCK * NS + (size_t)i * NM];
            ns->flits_in = v[0];
            ns->flits_out = v[1];
            ns->lat_src.n = v[2];
            ns->lat_src.sum = v[3];
            ns->lat_dst.n = v[4];
            ns->lat_dst.sum = v[5];
            for (int b = 0; b < B; b++) {
                ns->hist_src[b] = (uint32_t)v[6 + b];
                ns->hist_dst[b] = (uint32_t)v[6 + B + b];
            }
            ns->lat_src.max = m[0];
            ns->lat_dst.max = m[1];
            ns->lat_src.min = m[2] ? UINT64_MAX - m[2] : 0;
            ns->lat_dst.min = m[3] ? UINT64_MAX - m[3] : 0;
        }
    }
    free(a);
    free(g);
}

/* node_stats: each router's occupancy integrals, kept by its own rank only
 * (the others' zero): summed. */
static void finish_occupancy(struct noc_sim *s)
{
    enum { BLOCK = 4096, F = 9 };
    uint64_t *a = noc_xmalloc((size_t)BLOCK * F * sizeof *a, "ranks");
    uint64_t *g = noc_xmalloc((size_t)BLOCK * F * sizeof *g, "ranks");
    for (int n0 = 0; n0 < s->n_nodes; n0 += BLOCK) {
        int k = s->n_nodes - n0 < BLOCK ? s->n_nodes - n0 : BLOCK;
        for (int i = 0; i < k; i++) {
            const noc_occ_t *o = &s->occ[n0 + i];
            uint64_t v[F] = { o->area[0], o->area[1], o->open[0], o->open[1], o->shut[0], o->shut[1], o->last,
                              (uint64_t)(int64_t)o->cur[0], (uint64_t)(int64_t)o->cur[1] };
            memcpy(&a[(size_t)i * F], v, sizeof v);
        }
        MPI_Allreduce(a, g, k * F, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
        for (int i = 0; i < k; i++) {
            noc_occ_t *o = &s->occ[n0 + i];
            const uint64_t *v = &g[(size_t)i * F];
            o->area[0] = v[0];
            o->area[1] = v[1];
            o->open[0] = v[2];
            o->open[1] = v[3];
            o->shut[0] = v[4];
            o->shut[1] = v[5];
            o->last = v[6];
            o->cur[0] = (int32_t)(int64_t)v[7];
            o->cur[1] = (int32_t)(int64_t)v[8];
        }
    }
    free(a);
    free(g);
}

void noc_sim_ranks_finish(struct noc_sim *s)
{
    if (!s->rk)
        return;
    enum { BLOCK = 4096, F = 6 };
    uint64_t *a = noc_xmalloc((size_t)BLOCK * F * sizeof *a, "ranks");
    uint64_t *g = noc_xmalloc((size_t)BLOCK * F * sizeof *g, "ranks");
    for (int c0 = 0; c0 < s->n_chan; c0 += BLOCK) {
        int k = s->n_chan - c0 < BLOCK ? s->n_chan - c0 : BLOCK;
        for (int i = 0; i < k; i++) {
            const noc_link_stats_t *l = &s->lst[c0 + i];
            uint64_t v[F] = { l->flits, l->heads, l->busy, l->contention, l->credit_stall, l->peak_queue };
            memcpy(&a[(size_t)i * F], v, sizeof v);
        }
        /* each figure is written at one end of its link only: a sum (the
         * peak at the reader's input: its maximum, the others' 0) */
        MPI_Allreduce(a, g, k * F, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
        for (int i = 0; i < k; i++) {
            noc_link_stats_t *l = &s->lst[c0 + i];
            const uint64_t *v = &g[(size_t)i * F];
            l->flits = v[0];
            l->heads = v[1];
            l->busy = v[2];
            l->contention = v[3];
            l->credit_stall = v[4];
            l->peak_queue = (uint32_t)v[5];
        }
    }
    free(a);
    free(g);
    MPI_Allreduce(MPI_IN_PLACE, s->st.lat_hist, NOC_LAT_HIST + 1, MPI_UINT32_T, MPI_SUM, MPI_COMM_WORLD);
    if (s->nst)
        finish_nodes(s);
    if (s->occ)
        finish_occupancy(s);
}

int noc_sim_ranks_stopped(const struct noc_sim *s) { return s->rk->stop; }
int noc_sim_ranks_busy(const struct noc_sim *s) { return s->rk->busy; }

void noc_sim_ranks_destroy(struct noc_sim *s)
{
    struct noc_ranks *rk = s->rk;
    if (!rk)
        return;
    for (int i = 0; i < rk->n_nb; i++) {
        free(rk->nb[i].out);
        free(rk->nb[i].in);
        free(rk->nb[i].sbuf);
        free(rk->nb[i].rbuf);
    }
    free(rk->nb);
    free(rk->lo_of);
    free(rk->in_idx);
    free(rk->pkt_map);
    free(rk->req);
    free(rk->sum);
    free(rk->snap);
    free(rk->sbuf);
    free(rk->gbuf);
    if (rk->rec_made) {
        MPI_Type_free(&rk->rec_type);
        MPI_Op_free(&rk->rec_op);
    }
    free(rk);
    s->rk = NULL;
}

#else /* built without MPI: one rank, s->rk never set */

int noc_sim_ranks_setup(struct noc_sim *s, char *err, size_t errlen)
{
    (void)s;
    (void)err;
    (void)errlen;
    return 0;
}
int noc_sim_ranks_owns(const struct noc_sim *s, int n)
{
    (void)s;
    (void)n;
    return 1;
}
void noc_sim_ranks_part(const struct noc_sim *s, int *lo, int *hi)
{
    *lo = 0;
    *hi = s->n_nodes;
}
void noc_sim_ranks_begin(struct noc_sim *s) { (void)s; }
void noc_sim_ranks_exchange(struct noc_sim *s) { (void)s; }
void noc_sim_ranks_sync(struct noc_sim *s) { (void)s; }
uint64_t noc_sim_ranks_sum(const struct noc_sim *s, uint64_t v)
{
    (void)s;
    return v;
}
void noc_sim_ranks_finish(struct noc_sim *s) { (void)s; }
int noc_sim_ranks_stopped(const struct noc_sim *s)
{
    (void)s;
    return 0;
}
int noc_sim_ranks_busy(const struct noc_sim *s)
{
    (void)s;
    return 0;
}
void noc_sim_ranks_destroy(struct noc_sim *s) { (void)s; }

#endif
