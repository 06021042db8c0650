/* sim_view.c: what the layers above the kernel read of a running
 * simulator (sim.h), for the wave recorder, the SystemC wrapper, benches
 * and embedders (and the run's stop flag and progress hook): the flit a
 * channel delivers in a cycle, packets, the
 * channels' far ends, the routers' buffers and credits through the
 * family's interface, whether a node has work, and the family's own wave
 * recording; and the figures and wiring every report reads (statistics,
 * per-channel ends and timing, per-step link tables). Reads only; none of
 * them is on the cycle loop's path. */
#include "model/channel.h"
#include "model/sim_internal.h"
#include <stdio.h>

int noc_sim_channel_flit(const noc_sim_t *s, int c, uint64_t t, noc_flit_t *f)
{
    const noc_flit_t *x = noc_chan_flit_at(s, c, noc_chan_slot(s, t));
    if (!x)
        return 0;
    *f = *x;
    return 1;
}

const noc_packet_t *noc_sim_packet(const noc_sim_t *s, uint32_t pkt)
{
    return pkt < s->pkt_fresh ? &s->pkts[pkt] : NULL;
}

int noc_sim_vcs(const noc_sim_t *s)
{
    return (int)s->V;
}

int noc_sim_channel_in_port(const noc_sim_t *s, int c)
{
    return s->chan_in_gport[c];
}

int noc_sim_port_in_channel(const noc_sim_t *s, int gport)
{
    return s->in_chan[gport];
}

int noc_sim_node_busy(const noc_sim_t *s, int n)
{
    return noc_work_of(s, n) > 0;
}

int noc_sim_gen_due(const noc_sim_t *s, int n)
{
    for (int k = n; !s->pe && k < s->n_srcs; k += s->n_terms) /* (every class's source) */
        if (s->ni[k].next_gen <= s->now)
            return 1;
    return 0;
}

int noc_sim_router_occupancy(const noc_sim_t *s, int gport, int vc)
{
    return s->rops->occupancy(s, gport, vc);
}

int noc_sim_router_credits(const noc_sim_t *s, int gport, int vc)
{
    return s->rops->credits(s, gport, vc);
}

int noc_sim_lane_ports(const noc_sim_t *s)
{
    return s->rops->lane_ports && s->rops->lane_occupancy ? s->lanes : 1;
}

int noc_sim_lane_occupancy(const noc_sim_t *s, int n, int lane, int vc)
{
    return s->rops->lane_occupancy(s, n, lane, vc);
}

int noc_sim_has_trace(const noc_sim_t *s)
{
    return s->rops->trace_open != NULL;
}

int noc_sim_trace_open(noc_sim_t *s, const char *path, const uint8_t *in_scope, uint64_t from, uint64_t to,
                       char *err, size_t errlen)
{
    if (!s->rops->trace_open) {
        snprintf(err, errlen, "router %s records no signals of its own", s->cfg.router);
        return -1;
    }
    return s->rops->trace_open(s, path, in_scope, from, to, err, errlen);
}

int noc_sim_trace_close(noc_sim_t *s)
{
    return s->rops->trace_close ? s->rops->trace_close(s) : 0;
}

/* ---- the simulator's figures and wiring ---- */

uint64_t noc_sim_now(const noc_sim_t *s) { return s->now; }

void noc_sim_where(const noc_sim_t *s, noc_sim_where_t *w)
{
    w->now = s->now;
    w->phase = s->phase == NOC_PHASE_WARMUP ? 0 : s->phase == NOC_PHASE_DRAIN ? 2 : 1;
    w->window_start = s->win_start;
    w->window_end = s->win_end;
    w->drain_max = (uint64_t)s->cfg.max_drain_cycles;
    w->flits_in_network = s->in_network;
}
struct noc_pe *noc_sim_pe(const noc_sim_t *s) { return s->pe; }

void noc_sim_set_observer(noc_sim_t *s, noc_sim_observer_fn fn, void *ctx)
{
    s->observer = fn;
    s->observer_ctx = ctx;
}
int noc_sim_has_step_tables(const noc_sim_t *s) { return s->step_flits != NULL; }

uint32_t noc_sim_step_flits(const noc_sim_t *s, int k, int c)
{
    return s->step_flits && k < s->n_step_rows ? s->step_flits[(size_t)k * (size_t)s->n_chan + (size_t)c] : 0;
}

uint32_t noc_sim_step_wait(const noc_sim_t *s, int k, int c, int kind)
{
    const uint32_t *t = kind >= 0 && kind < NOC_WAIT_KINDS ? s->step_wait[kind] : NULL;
    return t && k < s->n_step_rows ? t[(size_t)k * (size_t)s->n_chan + (size_t)c] : 0;
}

uint32_t noc_sim_step_waits_all(const noc_sim_t *s, int k, int c)
{
    uint32_t w = 0;
    for (int kind = 0; kind < NOC_WAIT_KINDS; kind++)
        w += noc_sim_step_wait(s, k, c, kind);
    return w;
}

const char *noc_wait_kind_name(int kind)
{
    static const char *const names[NOC_WAIT_KINDS] = { "ni", "buffer", "vc", "switch", "link", "credit" };
    return kind >= 0 && kind < NOC_WAIT_KINDS ? names[kind] : "?";
}

const noc_stats_t *noc_sim_stats(const noc_sim_t *s) { return &s->st; }
const noc_class_stats_t *noc_sim_class_stats(const noc_sim_t *s, int *classes)
{
    *classes = s->classes;
    return s->cst;
}
const noc_graph_t *noc_sim_graph(const noc_sim_t *s) { return s->graph; }
const noc_config_t *noc_sim_config(const noc_sim_t *s) { return &s->cfg; }
uint64_t noc_sim_flits_in_network(const noc_sim_t *s) { return s->in_network; }
int noc_sim_n_channels(const noc_sim_t *s) { return s->n_chan; }
const noc_link_stats_t *noc_sim_link_stats(const noc_sim_t *s, int c) { return &s->lst[c]; }
const noc_node_stats_t *noc_sim_node_stats(const noc_sim_t *s, int n) { return s->nst ? &s->nst[n] : NULL; }

void noc_sim_channel_ends(const noc_sim_t *s, int c, int *from, int *to, int *is_local, int *link_class)
{
    if (from)
        *from = s->chan_from[c];
    if (to)
        *to = s->chan_to[c];
    if (is_local)
        *is_local = s->chan_local[c];
    if (link_class)
        *link_class = (c < s->n_ports && !s->chan_local[c]) ? s->graph->link_class[c] : -1;
}

void noc_sim_channel_timing(const noc_sim_t *s, int c, int *latency, int *cycles_per_flit)
{
    if (latency)
        *latency = s->chan_delay[c];
    if (cycles_per_flit)
        *cycles_per_flit = s->chan_ser[c];
}

/* The stop flag and the progress hook (sim.h), read after every cycle by sim.c's checks(). */
void noc_sim_set_stop(noc_sim_t *s, const volatile sig_atomic_t *flag)
{
    s->stop = flag;
}

void noc_sim_set_progress(noc_sim_t *s, noc_progress_fn fn, void *ctx, uint64_t every)
{
    s->progress = every ? fn : NULL;
    s->progress_ctx = ctx;
    s->progress_every = every;
    s->progress_next = s->now + every;
}
