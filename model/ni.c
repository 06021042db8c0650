/* ni.c: network interface: injection (packet -> flits) and ejection
 * (flits -> packet, statistics). */
#include "model/ni.h"
#include "model/pe.h"
#include "model/read_write.h"
#include "model/batch.h"
#include "model/rng.h"

static void deliver(struct noc_sim *s, const noc_flit_t *f)
{
    noc_packet_t *p = &s->pkts[f->pkt];
    noc_stats_t *st = &s->st;
    assert(p->size > 0 && p->received < p->size);
    assert(f->seq == p->received); /* a VC keeps the flits of a packet in order */
    if (s->pe)
        noc_pe_flit_arrived(s->pe, p->msg, p->off + f->seq, f->data);
    if (s->warm_track)
        noc_warm_count(s, p);
    p->received++;
    if (f->flags & NOC_FLIT_HEAD)
        p->hops = f->hops;
    noc_class_stats_t *cs = s->cst ? &s->cst[p->cls] : NULL;
    if (noc_measuring(s)) {
        st->window_flits_out++;
        if (s->nst)
            s->nst[p->dst].flits_out++;
        if (cs)
            cs->window_flits_out++;
    }
    if (p->measured && !s->pe) {
        noc_lat_add(&st->flit_latency, s->now - (uint64_t)f->data);
        if (cs)
            noc_lat_add(&cs->flit_latency, s->now - (uint64_t)f->data);
    }
    if (p->received < p->size)
        return;
    if (p->measured) {
        uint64_t lat = s->now - p->created;
        noc_lat_add(&st->latency, lat);
        noc_lat_add(&st->net_latency, s->now - p->injected);
        noc_lat_add(&st->queue_latency, p->injected - p->created);
        noc_lat_add(&st->hops, p->hops);
        if (s->hist_log) /* a thread's view (model/sim_threads.c) */
            s->hist_log[s->hist_log_n++] = (uint32_t)(lat < NOC_LAT_HIST ? lat : NOC_LAT_HIST);
        else
            st->lat_hist[lat < NOC_LAT_HIST ? lat : NOC_LAT_HIST]++;
        if (s->src_log) { /* node_stats in a thread's view: the source's figures after the cycle, beside
                             the hist_log entry just made */
            noc_node_lat_dst(s->nst, p->dst, lat);
            s->src_log[s->hist_log_n - 1] = (noc_src_lat_t){ lat, p->src };
        } else if (s->nst) {
            noc_node_lat_add(s->nst, p->src, p->dst, lat);
        }
        st->packets++;
        st->flits += p->size;
        st->measured_outstanding--;
        if (cs) {
            noc_lat_add(&cs->latency, lat);
            noc_lat_add(&cs->net_latency, s->now - p->injected);
            noc_lat_add(&cs->hops, p->hops);
            cs->packets++;
            cs->flits += p->size;
        }
    }
    if (p->type == NOC_PKT_READ_REQ || p->type == NOC_PKT_WRITE_REQ) /* use_read_write: its reply is owed */
        noc_rw_reply(s, p);
    if (s->batch)
        noc_batch_arrived(s, p);
    if (s->pe)
        noc_pe_packet_arrived(s, p->dst, p->msg, p->off, p->size, p->hops);
    if (s->pkt_wait)
        noc_wait_flush_pkt(s, f->pkt);
    p->size = 0; /* marks the slot free for the invariant checker */
    noc_pkt_give(s, f->pkt);
}

void noc_ni_deliver(struct noc_sim *s, int n, const noc_flit_t *f)
{
    noc_work_sub(s, n, 1);
    s->in_network--;
    s->last_move = s->now;
    deliver(s, f);
}

/* Deliver the flit arriving on the ejection channel of terminal t, on
 * node n (the channel leaves t's local port), read in place. */
static inline __attribute__((always_inline)) void eject(struct noc_sim *s, int n, int t, int conc)
{
    int g = conc ? noc_graph_term_egport(s->graph, t) : s->graph->port_base[n];
    const noc_flit_t *f = noc_chan_pop_flit(s, g, noc_chan_slot(s, s->now));
    if (!f)
        return;
    if (s->cfg.eject_credit_delay) /* its credit back to the router's ejection port (BookSim2's NI) */
        noc_chan_send_credit_to(s, g, f->vc, noc_chan_slot(s, s->now + (uint64_t)s->cfg.eject_credit_delay), n,
                                s->chan_out_port[g]);
    noc_ni_deliver(s, n, f);
}

/* The channel a wait of lane `lane` of node n's NI is counted at: the
 * lane's injection channel (lanes without channels of their own, wired
 * straight to the router: the NI's first one). */
static int wait_chan(const struct noc_sim *s, int n, int lane)
{
    return noc_lane_chan(s, n, s->lane_chans ? lane : 0);
}

/* The VC a packet of kind `kind` would take on lane `lane` of terminal n's
 * NI ni, or -1 (see start_packet). Pure. */
static int find_vc(const struct noc_sim *s, int n, const noc_ni_t *ni, int lane, int kind)
{
    const int16_t *cr = noc_lane_credits(s, n, lane);
    int lo = 0, hi = s->V, v = ni->last_vc;
    if (s->repq) { /* use_read_write: the kind's range */
        lo = s->rw_lo[kind];
        hi = s->rw_hi[kind];
    }
    uint64_t held = 0; /* the VCs the other classes' packets hold */
    for (int c = 0; s->classes > 1 && c < s->classes; c++) {
        const noc_ni_t *o = &s->ni[c * s->n_terms + n];
        if (o != ni && o->lane0.pkt >= 0)
            held |= UINT64_C(1) << o->lane0.vc;
    }
    if (v < lo || v >= hi)
        return cr[lo] >= s->ni_free_at && !(held >> lo & 1) ? lo : -1;
    for (int i = hi - lo; i > 0; i--) {
        if (++v == hi)
            v = lo;
        if (cr[v] >= s->ni_free_at && !(held >> v & 1))
            return v;
    }
    return -1;
}

/* Start the next packet on lane ln of terminal n's NI ni (with classes >
 * 1, the source of one class of terminal n): a reply it owes
 * (use_read_write), else the head of the source queue, or the PE's next
 * packet in a program run, if a VC of the packet's kind has a credit
 * (with wait_for_tail_credit: all its credits, its last packet's tail
 * credit back, as BookSim2's sources' BufferState) (round-robin from the VC after the last one used; when that one is not of
 * the kind's range, only the range's first VC is tried, as BookSim2's
 * sources do) and, with classes, no other class's packet holds it
 * (BookSim2's BufferState::IsAvailableFor). (Programs run without
 * concentration: there terminal n is node n.) */
static inline __attribute__((always_inline)) void start_packet(struct noc_sim *s, int n, noc_ni_t *ni,
                                                                noc_ni_lane_t *ln, int lane, int port)
{
    const noc_srcq_entry_t *e = NULL;
    int kind = NOC_PKT_ANY, reply = 0, src = (int)(ni - s->ni);
    if (!s->pe) {
        /* (sim_type = batch: a reply once the batch's offers issued it) */
        if (s->repq && (e = noc_rw_ready(s, n)) != NULL && (!s->batch || s->batch->reply_taken[n]))
            reply = 1;
        else if (ni->q_head != ni->q_tail)
            e = noc_srcq_at(s, src, ni->q_head);
        else
            return;
        kind = e->type;
    }
    int vc = find_vc(s, n, ni, lane, kind);
    if (vc < 0) {
        uint32_t msg, off;
        if (s->step_flits && s->pe && noc_pe_peek_send(s, n, port, &msg, &off) && off > 0)
            /* a later packet of a message under way: the injection buffer is full (its
               first packet's wait is the NI's, counted when it starts) */
            noc_wait_add(s, NOC_WAIT_CREDIT, noc_pe_msg_step(s->pe, msg), msg, wait_chan(s, n, lane), 1);
        return;
    }
    int32_t dst;
    uint16_t size;
    uint32_t msg = 0, off = 0;
    uint64_t created = s->now;
    if (s->pe) {
        /* a program's packet: made now, from the PE's send queue */
        if (!noc_pe_next_packet(s, n, port, &dst, &size, &msg, &off))
            return;
        if (off == 0 && s->step_flits) /* the cycles its send waited for the NI */
            noc_wait_add(s, NOC_WAIT_NI, noc_pe_msg_step(s->pe, msg), msg, wait_chan(s, n, lane),
                         (uint32_t)(s->now - noc_pe_stats(s->pe)->op_start[msg]));
        noc_work_add(s, n, 1); /* the packet in the NI (taken off when it has left) */
    } else {
        created = e->created;
        dst = e->dst;
        size = e->size;
    }
    uint32_t slot = noc_pkt_take(s);
    noc_packet_t *p = &s->pkts[slot];
    p->created = created;
    p->injected = s->now;
    p->id = s->next_pkt_id++;
    uint32_t nth = ++ni->started; /* (the packets this source started, this one included) */
    /* the header's random word, where the routing draws: a fixed function
     * of the seed, the source and its count of packets, so the same for any
     * cut of the fabric into threads' or ranks' parts (which number the
     * run's packets in other orders) */
    if (s->graph->route_rand || s->graph->route_set)
        p->salt = (uint32_t)(noc_rng_mix((uint64_t)s->cfg.seed * 0xd1342543de82ef95ull ^
                                         noc_rng_mix(((uint64_t)(uint32_t)src << 32) | nth)) >> 32);
    else
        p->salt = 0;
    p->src = n;
    p->dst = dst;
    p->size = size;
    p->received = 0;
    p->hops = 0;
    p->measured = (s->cfg.measure_queued ? s->now >= s->win_start : created >= s->win_start) && created < s->win_end;
    p->type = (uint8_t)kind;
    p->cls = (uint8_t)(src / s->n_terms);
    if (reply) {
        p->measured = e->measured; /* (counted when it was queued, or when the window opened) */
        noc_rw_pop(s, n);
        if (s->batch)
            s->batch->reply_taken[n] = 0;
    } else if (e) {
        noc_srcq_pop(ni);
    }
    p->msg = msg;
    p->off = off;
    if (!s->pe) /* (one class: the order its packets were made in, BookSim2's _packet_seq_no) */
        p->src_seq = nth;
    p->step = s->pe ? (uint16_t)noc_pe_msg_step(s->pe, msg) : 0;
    ln->pkt = (int32_t)slot;
    ln->seq = 0;
    ln->vc = (uint8_t)vc;
    ni->last_vc = (uint8_t)vc;
    if (ln != &ni->lane0)
        ni->xbusy++;
}

/* One flit of lane ln (number `lane`)'s packet of terminal n's NI, if its
 * VC has a credit:
 * into the lane's injection channel, or (direct: an all-port NI of a
 * router wired to its PE) straight into the router. */
static inline __attribute__((always_inline)) void inject(struct noc_sim *s, int n, noc_ni_t *ni,
                                                          noc_ni_lane_t *ln, int lane, int direct, int port,
                                                          int conc)
{
    if (ln->pkt < 0) {
        start_packet(s, n, ni, ln, lane, port);
        if (ln->pkt < 0)
            return;
    }
    int16_t *cr = noc_lane_credits(s, n, lane) + ln->vc;
    if (*cr <= 0) {
        if (s->step_flits) /* the router's injection buffer is full */
            noc_wait_pkt(s, NOC_WAIT_CREDIT, (uint32_t)ln->pkt, wait_chan(s, n, lane), 1);
        return;
    }
    const noc_packet_t *p = &s->pkts[ln->pkt];
    noc_flit_t f;
    /* (synthetic traffic carries no payload: the word is the cycle the flit
     * left, its flit latency's start) */
    f.data = s->pe ? noc_pe_word(s->pe, p->msg, p->off + ln->seq) : (int64_t)s->now;
    f.pkt = (uint32_t)ln->pkt;
    f.seq = ln->seq;
    f.flags = (uint8_t)((ln->seq == 0 ? NOC_FLIT_HEAD : 0) | (ln->seq + 1 == p->size ? NOC_FLIT_TAIL : 0));
    f.vc = ln->vc;
    f.la_port = 0;
    f.la_class = 0;
    f.dst = p->dst;
    f.hops = 0;
    if (s->cfg.lookahead && ln->seq == 0) {
        noc_route_t r;
        noc_graph_route(s->graph, conc ? s->graph->term_node[n] : n, n, p->dst, p->salt, 0, &r);
        f.la_port = r.port;
        f.la_class = r.vclass;
    }
    (*cr)--;
    if (direct) {
        s->rops->inject(s, n, &f);
    } else {
        int c = noc_lane_chan(s, n, lane);
        noc_chan_send_flit(s, c, s->chan_delay[c], &f);
        if (noc_measuring(s)) { /* the injection channel's load, as a router counts its outputs' */
            s->lst[c].flits++;
            s->lst[c].busy += s->chan_ser[c];
        }
    }
    s->in_network++;
    s->last_move = s->now;
    if (noc_measuring(s)) {
        s->st.window_flits_in++;
        if (s->nst)
            s->nst[n].flits_in++;
        if (s->cst)
            s->cst[p->cls].window_flits_in++;
    }
    if (++ln->seq == p->size) {
        ln->pkt = -1;
        if (ln != &ni->lane0)
            ni->xbusy--;
        noc_work_sub(s, conc ? s->graph->term_node[n] : n, 1); /* the packet has left the NI */
        if (s->pe)
            noc_pe_packet_sent(s, n, p->msg, p->off, p->size);
    }
}

/* classes > 1: terminal t's NI holds no packet of any class. */
static int classes_idle(const struct noc_sim *s, int t)
{
    for (int n = t; n < s->n_srcs; n += s->n_terms)
        if (!noc_ni_idle(&s->ni[n]))
            return 0;
    return 1;
}

/* The rank of the next flit of class source ni (number src) at the NI
 * (BookSim2 stamps class and age priorities when it makes a packet; the
 * others rank 0 until the flit is sent). */
static int64_t ni_rank(const struct noc_sim *s, const noc_ni_t *ni, int src)
{
    if (s->prio == NOC_PRI_CLASS)
        return s->cls_pri[src / s->n_terms];
    if (s->prio != NOC_PRI_AGE)
        return 0;
    uint64_t created = ni->lane0.pkt >= 0 ? s->pkts[ni->lane0.pkt].created : noc_srcq_at(s, src, ni->q_head)->created;
    return -(int64_t)created;
}

/* classes > 1: one flit of terminal t's classes (BookSim2's
 * TrafficManager::_Step): the classes in turn from the one after the class
 * of the last flit sent, each with a packet under way that has a credit for
 * its VC, or whose next packet would get a VC, taking over from the one
 * found so far only with a higher rank (BookSim2's `f->pri >= cf->pri`
 * test; without a priority every rank is 0: the first such class sends).
 * With hold_switch_for_packet the last class's packet under way is found
 * first while its VC has a credit, and the others are looked at after
 * it. */
static void inject_classes(struct noc_sim *s, int t, int conc)
{
    int C = s->classes, T = s->n_terms, last = s->last_class[t], best = -1, to = C;
    const int16_t *cr = noc_lane_credits(s, t, 0);
    int64_t rank = 0;
    noc_ni_t *ni = &s->ni[last * T + t];
    if (s->cfg.hold_switch_for_packet && ni->lane0.pkt >= 0 && ni->lane0.seq > 0 && cr[ni->lane0.vc] > 0) {
        best = last;
        rank = ni_rank(s, ni, last * T + t);
        to = C - 1;
    }
    for (int i = 1; i <= to; i++) {
        int c = (last + i) % C;
        ni = &s->ni[c * T + t];
        if (ni->lane0.pkt < 0 && ni->q_head == ni->q_tail)
            continue;
        int64_t k = ni_rank(s, ni, c * T + t);
        if (best >= 0 && rank >= k)
            continue;
        if (ni->lane0.pkt < 0 ? find_vc(s, t, ni, 0, noc_srcq_at(s, c * T + t, ni->q_head)->type) < 0
                              : cr[ni->lane0.vc] <= 0)
            continue;
        best = c;
        rank = k;
    }
    if (best < 0)
        return;
    ni = &s->ni[best * T + t];
    inject(s, t, ni, &ni->lane0, 0, 0, 0, conc); /* (starts its packet, on find_vc's VC, if it has none) */
    s->last_class[t] = (uint8_t)best;
}

static inline __attribute__((always_inline)) void ni_receive(struct noc_sim *s, int n, int conc)
{
    uint32_t at = noc_chan_at(s, n, noc_chan_slot(s, s->now));
    uint64_t fl = noc_chan_flits_in(s, at), cr = noc_chan_credits_in(s, at);
    if (conc) { /* every terminal of the router: its ejection and injection channels */
        noc_chan_flits_seen(s, at, fl & NOC_NI_MASK);
        noc_chan_credits_seen(s, at, cr & NOC_NI_MASK);
        for (int i = 0, e = noc_node_terms(s, n), b = s->graph->port_base[n]; i < e; i++) {
            int t = noc_node_term(s, n, i); /* (in a butterfly, each way at its own router) */
            if ((fl & NOC_NI_MASK) && noc_graph_term_egport(s->graph, t) == b + i)
                eject(s, n, t, 1);
            if ((cr & NOC_NI_MASK) && noc_graph_term_gport(s->graph, t) == b + i)
                noc_chan_recv_credits(s, s->n_ports + t, s->ni_credits + (size_t)t * (size_t)s->V);
        }
        return;
    }
    if (fl & NOC_NI_MASK) {
        noc_chan_flits_seen(s, at, NOC_NI_MASK);
        eject(s, n, n, 0);
    }
    if (cr & NOC_NI_MASK) {
        noc_chan_credits_seen(s, at, NOC_NI_MASK);
        noc_chan_recv_credits(s, s->n_ports + n, s->ni_credits + (size_t)n * (size_t)s->V *
                                                     (size_t)(s->lane_chans ? s->lanes : 1));
        for (int k = 1; s->lane_chans && k < s->lanes; k++) /* the other lanes' channels */
            noc_chan_recv_credits(s, noc_lane_chan(s, n, k), noc_lane_credits(s, n, k));
    }
    if (s->pe)
        noc_pe_arrivals(s, n);
}

/* Injection: the flits of node n's NI this cycle (after its PE's turn);
 * with concentration, of each of its terminals' NIs. */
static inline __attribute__((always_inline)) void ni_send_flits(struct noc_sim *s, int n, int conc)
{
    if (conc) {
        for (int i = 0, e = noc_node_terms(s, n), b = s->graph->port_base[n]; i < e; i++) {
            int t = noc_node_term(s, n, i); /* each terminal's NI injects (at its injection port) */
            if (noc_graph_term_gport(s->graph, t) != b + i)
                continue;
            if (s->classes > 1) {
                if (!classes_idle(s, t))
                    inject_classes(s, t, 1);
            } else if (!noc_ni_idle(&s->ni[t])) {
                inject(s, t, &s->ni[t], &s->ni[t].lane0, 0, 0, 0, 1);
            }
        }
        return;
    }
    noc_ni_t *ni = &s->ni[n];
    if (s->classes > 1) { /* (one lane: sim_check refuses ni_ports with classes) */
        if (!classes_idle(s, n))
            inject_classes(s, n, 0);
        return;
    }
    if (noc_ni_idle(ni))
        return;
    if (s->lanes == 1) {
        inject(s, n, ni, &ni->lane0, 0, 0, 0, 0);
        return;
    }
    /* all-port: a lane per network link, each may inject a flit this
     * cycle; a program's lane takes the messages that leave through its
     * link (synthetic packets go to any lane, in queue order) */
    int by_port = s->pe != NULL, direct = s->lane_chans == 0;
    inject(s, n, ni, &ni->lane0, 0, direct, by_port, 0);
    noc_ni_lane_t *x = &s->xlane[(size_t)n * (size_t)(s->lanes - 1)];
    int k_end = noc_graph_degree(s->graph, n) - 1; /* a lane per network link */
    if (k_end > s->lanes - 1)
        k_end = s->lanes - 1;
    for (int k = 0; k < k_end; k++)
        inject(s, n, ni, &x[k], k + 1, direct, by_port ? k + 2 : 0, 0);
}

static inline __attribute__((always_inline)) void ni_send(struct noc_sim *s, int n)
{
    if (s->pe)
        noc_pe_eval(s, n);
    ni_send_flits(s, n, 0);
}

/* (one terminal a router: programs and the cycle in parts never run with
 * concentration, pe_build.c refuses it) */
void noc_ni_receive(struct noc_sim *s, int n) { ni_receive(s, n, 0); }
void noc_ni_send(struct noc_sim *s, int n) { ni_send(s, n); }
void noc_ni_send_flits(struct noc_sim *s, int n) { ni_send_flits(s, n, 0); }

void noc_ni_eval(struct noc_sim *s, int n)
{
    ni_receive(s, n, 0);
    ni_send(s, n);
}

void noc_ni_eval_terms(struct noc_sim *s, int n)
{
    ni_receive(s, n, 1);
    ni_send_flits(s, n, 1);
}
