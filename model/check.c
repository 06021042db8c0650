/* check.c: the invariant checker that tests run after every cycle, and the
 * report of stuck packets when the network deadlocks.
 *
 * Invariants: every flit in the network (channels plus router buffers) is
 * counted by in_network and belongs to a live packet; no (packet, flit) pair
 * is in two places; on every channel and VC, credits upstream + flits in
 * flight + flits buffered downstream + credits in flight = buffer depth; no
 * buffer holds more than its depth; every node's work count matches what it
 * holds. */
#include "model/channel.h"
#include "model/read_write.h"
#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct flit_ref {
    uint32_t pkt;
    uint16_t seq;
    int32_t node;
} flit_ref_t;

typedef struct collect {
    const struct noc_sim *s;
    flit_ref_t *refs;
    size_t n, cap;
    int32_t *expect_work;
    int node;
} collect_t;

static void add_ref(collect_t *c, const noc_flit_t *f, int node)
{
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 1024;
        c->refs = realloc(c->refs, c->cap * sizeof *c->refs);
        if (!c->refs) {
            noc_oom("the invariant checker", c->cap * sizeof *c->refs);
        }
    }
    c->refs[c->n].pkt = f->pkt;
    c->refs[c->n].seq = f->seq;
    c->refs[c->n].node = node;
    c->n++;
}

static void visit_buffered(void *ctx, const noc_flit_t *f, int gport, int vc)
{
    collect_t *c = ctx;
    (void)gport;
    (void)vc;
    add_ref(c, f, c->node);
    c->expect_work[c->node]++;
}

static int cmp_ref(const void *a, const void *b)
{
    const flit_ref_t *x = a, *y = b;
    if (x->pkt != y->pkt)
        return x->pkt < y->pkt ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Every flit in flight and buffered into *cp (with the work each node
 * must hold for them), then each flit's identity: a live packet's, in one
 * place only; and their count. 0, or -1 with err. */
static int check_flits(const noc_sim_t *s, collect_t *c, char *err, size_t errlen)
{
    /* flits and credits in flight; the slot read in cycle `now` has been
     * consumed, so every slot in the ring is a future arrival. */
    for (int ch = 0; ch < s->n_chan; ch++) {
        for (uint32_t k = 0; k < s->cap; k++) {
            const noc_flit_t *f = noc_chan_flit_at(s, ch, k);
            if (f) {
                add_ref(c, f, s->chan_to[ch]);
                c->expect_work[s->chan_to[ch]]++;
            }
            const uint8_t *back = noc_chan_credits_at(s, ch, k);
            for (int v = 0; v < s->V; v++)
                c->expect_work[s->chan_from[ch]] += back[v];
        }
    }
    for (int n = 0; n < s->n_nodes; n++) {
        c->node = n;
        s->rops->visit(s, n, visit_buffered, c);
    }
    if (c->n > 0) /* (c->refs is NULL in an empty network: qsort must not see it) */
        qsort(c->refs, c->n, sizeof *c->refs, cmp_ref);
    for (size_t i = 0; i < c->n; i++) {
        const noc_packet_t *p = c->refs[i].pkt < s->pkt_fresh ? &s->pkts[c->refs[i].pkt] : NULL;
        if (!p || p->size == 0 || c->refs[i].seq >= p->size) {
            snprintf(err, errlen, "flit %u of packet slot %u at node %d belongs to no live packet",
                     c->refs[i].seq, c->refs[i].pkt, c->refs[i].node);
            return -1;
        }
        if (i > 0 && cmp_ref(&c->refs[i - 1], &c->refs[i]) == 0) {
            snprintf(err, errlen, "flit %u of packet %llu is in two places (nodes %d and %d)",
                     c->refs[i].seq, (unsigned long long)p->id, c->refs[i - 1].node, c->refs[i].node);
            return -1;
        }
    }
    /* The count after the identity checks, so that a duplicated flit is
     * reported as one, not as one flit too many. (Ejection-channel flits
     * were counted at their node: both ends are n.) */
    if (c->n != s->in_network) {
        snprintf(err, errlen, "flit count: %zu flits found in the network, %llu expected", c->n,
                 (unsigned long long)s->in_network);
        return -1;
    }

    return 0;
}

/* Credit conservation per channel and VC: held + in flight + buffered +
 * returning = depth. 0, or -1 with err. */
static int check_credits(const noc_sim_t *s, char *err, size_t errlen)
{
    int depth = s->rops->depth(s);
    /* (not the ejection channels, whose sink, the NI, always accepts) */
    int first_lane = s->n_ports + s->n_terms;
    for (int ch = 0; ch < s->n_chan; ch++) {
        int in_g = s->chan_in_gport[ch];
        int lane = ch >= first_lane ? 1 + (ch - first_lane) % (s->lanes - 1) : 0;
        /* (an ejection channel: its credits with eject_credit_delay, no buffer) */
        int eject = in_g < 0 && !lane && ch < s->n_ports;
        if (in_g < 0 && !lane && (!eject || !s->cfg.eject_credit_delay))
            continue;
        for (int v = 0; v < s->V; v++) {
            /* (an injection channel's credits are its terminal's, a lane's its node's) */
            int held = ch < s->n_ports ? s->rops->credits(s, ch, v)
                                       : noc_lane_credits(s, lane ? s->chan_from[ch] : ch - s->n_ports, lane)[v];
            int fly = 0, back = 0;
            for (uint32_t k = 0; k < s->cap; k++) {
                const noc_flit_t *f = noc_chan_flit_at(s, ch, k);
                if (f && f->vc == v)
                    fly++;
                back += noc_chan_credits_at(s, ch, k)[v];
            }
            int occ = lane ? s->rops->lane_occupancy(s, s->chan_from[ch], lane, v)
                           : eject ? 0 : s->rops->occupancy(s, in_g, v);
            if (occ > depth) {
                snprintf(err, errlen, "input buffer of global port %d VC %d holds %d flits, depth %d",
                         in_g, v, occ, depth);
                return -1;
            }
            if (held + fly + occ + back != depth) {
                snprintf(err, errlen,
                         "credits on channel %d VC %d: %d held + %d flits in flight + %d buffered + "
                         "%d credits returning != depth %d", ch, v, held, fly, occ, back, depth);
                return -1;
            }
        }
    }

    return 0;
}

/* Work counts: each node's, against what it holds (expect_work, with the
 * source queues and NIs in the middle of a packet), and the active list.
 * 0, or -1 with err. */
static int check_work(const noc_sim_t *s, int32_t *expect_work, char *err, size_t errlen)
{
    for (int t = 0; t < s->n_terms; t++) {
        const noc_ni_t *ni = &s->ni[t];
        expect_work[noc_term_node(s, t)] +=
            (int32_t)(ni->q_tail - ni->q_head) + (int32_t)noc_rw_queued(s, t) + (ni->lane0.pkt >= 0) + ni->xbusy +
            ni->pe_busy;
    }
    for (int n = s->n_terms; n < s->n_srcs; n++) { /* the other classes' sources */
        const noc_ni_t *ni = &s->ni[n];
        expect_work[noc_term_node(s, noc_src_term(s, n))] += (int32_t)(ni->q_tail - ni->q_head) + (ni->lane0.pkt >= 0);
    }
    for (int n = 0; n < s->n_nodes; n++) {
        if (s->rops->held_work)
            expect_work[n] += s->rops->held_work(s, n);
        if (expect_work[n] != noc_work_of(s, n)) {
            snprintf(err, errlen, "node %d: work count %d, but it holds %d items", n, noc_work_of(s, n),
                     expect_work[n]);
            return -1;
        }
        if (noc_work_of(s, n) > 0 && !s->listed[n]) {
            snprintf(err, errlen, "node %d has work but is not on the active list", n);
            return -1;
        }
    }
    return 0;
}

int noc_sim_check(const noc_sim_t *s, char *err, size_t errlen)
{
    collect_t c = { .s = s };
    c.expect_work = calloc((size_t)s->n_nodes, sizeof(int32_t));
    if (!c.expect_work)
        noc_oom("the invariant checker", 0);
    int rc = check_flits(s, &c, err, errlen) != 0 || check_credits(s, err, errlen) != 0 ||
                     check_work(s, c.expect_work, err, errlen) != 0
                 ? -1 : 0;
    free(c.refs);
    free(c.expect_work);
    return rc;
}

typedef struct stuck_ctx {
    const struct noc_sim *s;
    FILE *f;
    int left, node, total;
} stuck_ctx_t;

static void print_stuck(void *ctx, const noc_flit_t *f, int gport, int vc)
{
    stuck_ctx_t *c = ctx;
    c->total++;
    if (!(f->flags & NOC_FLIT_HEAD) || c->left <= 0)
        return;
    c->left--;
    const struct noc_sim *s = c->s;
    const noc_packet_t *p = &s->pkts[f->pkt];
    char at[64], src[64], dst[64];
    noc_graph_label(s->graph, c->node, at, sizeof at);
    noc_graph_term_label(s->graph, p->src, src, sizeof src);
    noc_graph_term_label(s->graph, p->dst, dst, sizeof dst);
    fprintf(c->f, "  packet %llu %s -> %s: head at router %s input port %d VC %d, waiting since cycle %llu (injected %llu)\n",
            (unsigned long long)p->id, src, dst, at, gport - s->graph->port_base[c->node], vc,
            (unsigned long long)s->last_move, (unsigned long long)p->injected);
}

void noc_sim_report_stuck(const noc_sim_t *s, void *file, int max_lines)
{
    stuck_ctx_t c = { .s = s, .f = file, .left = max_lines };
    for (int n = 0; n < s->n_nodes; n++) {
        c.node = n;
        s->rops->visit(s, n, print_stuck, &c);
    }
    if (c.left <= 0)
        fprintf(c.f, "  ... (%d flits buffered in all; the list stops at %d packets)\n", c.total, max_lines);
}
