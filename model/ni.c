/* ni.c: network interface: injection (packet -> flits) and ejection
 * (flits -> packet, statistics). */
#include "model/ni.h"

static void deliver(struct noc_sim *s, const noc_flit_t *f)
{
    noc_packet_t *p = &s->pkts[f->pkt];
    noc_stats_t *st = &s->st;
    assert(p->size > 0 && p->received < p->size);
    assert(f->seq == p->received); /* a VC keeps the flits of a packet in order */
    p->received++;
    if (f->flags & NOC_FLIT_HEAD)
        p->hops = f->hops;
    if (noc_measuring(s))
        st->window_flits_out++;
    if (p->received < p->size)
        return;
    if (p->measured) {
        uint64_t lat = s->now - p->created;
        noc_lat_add(&st->latency, lat);
        noc_lat_add(&st->net_latency, s->now - p->injected);
        noc_lat_add(&st->queue_latency, p->injected - p->created);
        noc_lat_add(&st->hops, p->hops);
        st->lat_hist[lat < NOC_LAT_HIST ? lat : NOC_LAT_HIST]++;
        st->packets++;
        st->flits += p->size;
        st->measured_outstanding--;
    }
    p->size = 0; /* marks the slot free for the invariant checker */
    s->pkt_free[s->pkt_free_n++] = f->pkt;
}

void noc_ni_deliver(struct noc_sim *s, int n, const noc_flit_t *f)
{
    noc_work_sub(s, n, 1);
    s->in_network--;
    s->last_move = s->now;
    deliver(s, f);
}

/* Deliver the flit arriving on the ejection channel (it leaves port 0),
 * read in place. */
static void eject(struct noc_sim *s, int n)
{
    uint32_t i = (uint32_t)s->topo->port_base[n] * s->cap + (uint32_t)(s->now & s->mask);
    if (!s->ring_valid[i])
        return;
    s->ring_valid[i] = 0;
    noc_ni_deliver(s, n, &s->ring_flit[i]);
}

/* Start the packet at the head of the source queue, if a VC has a credit
 * (round-robin from the VC after the last one used). */
static void start_packet(struct noc_sim *s, int n, noc_ni_t *ni)
{
    int V = s->V;
    const int16_t *cr = &s->ni_credits[n * V];
    int vc = -1;
    for (int i = 1, v = ni->last_vc; i <= V; i++) {
        if (++v == V)
            v = 0;
        if (cr[v] > 0) {
            vc = v;
            break;
        }
    }
    if (vc < 0)
        return;
    const noc_srcq_entry_t *e = &s->srcq[(uint32_t)n * s->srcq_cap + (ni->q_head & (s->srcq_cap - 1))];
    assert(s->pkt_free_n > 0);
    uint32_t slot = s->pkt_free[--s->pkt_free_n];
    noc_packet_t *p = &s->pkts[slot];
    p->created = e->created;
    p->injected = s->now;
    p->id = s->next_pkt_id++;
    p->src = n;
    p->dst = e->dst;
    p->size = e->size;
    p->received = 0;
    p->hops = 0;
    p->measured = e->created >= s->win_start && e->created < s->win_end;
    ni->q_head++;
    ni->cur_pkt = (int32_t)slot;
    ni->cur_seq = 0;
    ni->cur_vc = (uint8_t)vc;
    ni->last_vc = (uint8_t)vc;
}

static void inject(struct noc_sim *s, int n)
{
    noc_ni_t *ni = &s->ni[n];
    if (ni->cur_pkt < 0) {
        if (ni->q_head == ni->q_tail)
            return;
        start_packet(s, n, ni);
        if (ni->cur_pkt < 0)
            return;
    }
    int16_t *cr = &s->ni_credits[n * s->V + ni->cur_vc];
    if (*cr <= 0)
        return;
    const noc_packet_t *p = &s->pkts[ni->cur_pkt];
    noc_flit_t f;
    f.data = (int64_t)p->id;
    f.pkt = (uint32_t)ni->cur_pkt;
    f.seq = ni->cur_seq;
    f.flags = (uint8_t)((ni->cur_seq == 0 ? NOC_FLIT_HEAD : 0) |
                        (ni->cur_seq + 1 == p->size ? NOC_FLIT_TAIL : 0));
    f.vc = ni->cur_vc;
    f.la_port = 0;
    f.la_class = 0;
    f.dst = p->dst;
    f.hops = 0;
    if (s->cfg.lookahead && ni->cur_seq == 0) {
        noc_route_t r;
        noc_topo_route(s->topo, n, n, p->dst, &r);
        f.la_port = r.port;
        f.la_class = r.vclass;
    }
    (*cr)--;
    noc_chan_put_flit(s, s->n_ports + n, s->chan_delay[s->n_ports + n], &f);
    s->in_network++;
    s->last_move = s->now;
    if (noc_measuring(s))
        s->st.window_flits_in++;
    if (++ni->cur_seq == p->size) {
        ni->cur_pkt = -1;
        noc_work_sub(s, n, 1); /* the packet has left the NI */
    }
}

void noc_ni_eval(struct noc_sim *s, int n)
{
    uint32_t at = (uint32_t)n * s->cap + (uint32_t)(s->now & s->mask);
    uint64_t fl = s->arr_flit[at], cr = s->arr_credit[at];
    if (fl & NOC_NI_MASK) {
        s->arr_flit[at] = fl & ~NOC_NI_MASK;
        eject(s, n);
    }
    if (cr & NOC_NI_MASK) {
        s->arr_credit[at] = cr & ~NOC_NI_MASK;
        noc_chan_take_credits(s, s->n_ports + n, &s->ni_credits[n * s->V]);
    }
    if (!noc_ni_idle(&s->ni[n]))
        inject(s, n);
}
