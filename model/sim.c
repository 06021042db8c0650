/* sim.c: building the simulator from a configuration and a topology, the
 * two-phase cycle loop with idle nodes skipped (the synthetic run, warm-up,
 * measurement and drain, is model/sample.c). */
#include "util/meminfo.h"
#include "util/xalloc.h"
#include "model/channel.h"
#include "model/ni.h"
#include "model/pe.h"
#include "model/sim_eval.h"
#include "model/sim_threads.h"
#include "model/sim_ranks.h"
#include "model/read_write.h"
#include "model/batch.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t pow2_above(uint32_t x)
{
    uint32_t c = 1;
    while (c <= x)
        c <<= 1;
    return c;
}

/* ---- generation calendar (binary min-heap on (time, node)) ---- */

static int heap_less(const struct noc_sim *s, int a, int b)
{
    if (s->heap_t[a] != s->heap_t[b])
        return s->heap_t[a] < s->heap_t[b];
    return s->heap_n[a] < s->heap_n[b];
}

static void heap_swap(struct noc_sim *s, int a, int b)
{
    uint64_t t = s->heap_t[a];
    int32_t n = s->heap_n[a];
    s->heap_t[a] = s->heap_t[b];
    s->heap_n[a] = s->heap_n[b];
    s->heap_t[b] = t;
    s->heap_n[b] = n;
}

static void heap_push(struct noc_sim *s, uint64_t t, int n)
{
    int i = s->heap_size++;
    s->heap_t[i] = t;
    s->heap_n[i] = n;
    while (i > 0 && heap_less(s, i, (i - 1) / 2)) {
        heap_swap(s, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
}

static void heap_pop(struct noc_sim *s)
{
    int i = 0;
    s->heap_size--;
    s->heap_t[0] = s->heap_t[s->heap_size];
    s->heap_n[0] = s->heap_n[s->heap_size];
    for (;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        if (l < s->heap_size && heap_less(s, l, m))
            m = l;
        if (r < s->heap_size && heap_less(s, r, m))
            m = r;
        if (m == i)
            break;
        heap_swap(s, i, m);
        i = m;
    }
}

/* Node n is due in cycle t (> now, or >= now while the calendar is built). */
static void calendar_add(struct noc_sim *s, uint64_t t, int n)
{
    if (t - s->now < NOC_WHEEL)
        s->wheel[(t & (NOC_WHEEL - 1)) * (uint64_t)s->wheel_words + (uint64_t)(n >> 6)] |=
            UINT64_C(1) << (n & 63);
    else
        heap_push(s, t, n);
}

/* ---- building ---- */


/* The sizes noc_sim_create decides before it allocates anything: VCs,
 * injection lanes, channels, the depth of the channel rings, the source
 * queues, the packet pool. Set on s (its cfg, topo, rops already); 0, or -1
 * with a message in err. */
static int plan(struct noc_sim *s, const noc_config_t *cfg, const noc_graph_t *gr, const noc_router_ops_t *rops,
                int *lat, int *ser, char *err, size_t errlen)
{
    s->cfg = *cfg;
    if (s->cfg.num_vcs == 0) /* auto: what the routing needs, at least 2 */
        s->cfg.num_vcs = gr->n_vclasses > 2 ? gr->n_vclasses : 2;
    s->n_nodes = gr->n_nodes;
    s->n_ports = gr->n_ports;
    s->n_terms = noc_graph_terms(gr);
    s->classes = cfg->classes > 1 ? (int)cfg->classes : 1;
    s->n_srcs = s->n_terms * s->classes;
    if (noc_priority_parse(cfg, &s->prio, s->cls_pri, err, errlen) != 0)
        return -1;
    s->conc = gr->term_base != NULL;
    s->V = (int)s->cfg.num_vcs;
    if (s->conc && !rops->terminals) {
        snprintf(err, errlen, "%s: routers with several terminals or none (concentration) are not modelled by "
                 "the %s router yet; use router=vc", gr->name, rops->name);
        return -1;
    }
    /* injection lanes: ni_ports (0: one per network link of the busiest
     * node). The ideal router takes extra lanes' flits directly; a router
     * with lane ports gets an injection channel per extra lane. */
    s->lanes = cfg->ni_ports == 0 ? (gr->max_degree > 1 ? gr->max_degree : 1) : (int)cfg->ni_ports;
    if (cfg->eject_credit_delay && !rops->eject_credits) {
        snprintf(err, errlen, "parameter 'eject_credit_delay': the %s router's ejection ports take no credits; "
                 "use router=vc", rops->name);
        return -1;
    }
    if (s->conc && cfg->node_stats) {
        snprintf(err, errlen, "parameter 'node_stats': per-node figures of %s, whose routers have several "
                 "terminals or none (concentration), are not built yet", gr->name);
        return -1;
    }
    if (s->lanes > 1 && s->conc) {
        snprintf(err, errlen, "parameter 'ni_ports': %s has routers with several terminals or none "
                 "(concentration), whose NIs take one injection channel each", gr->name);
        return -1;
    }
    if (s->lanes > 1 && !rops->inject && !rops->lane_ports) {
        snprintf(err, errlen, "parameter 'ni_ports': the %s router takes one injection channel", rops->name);
        return -1;
    }
    if (s->lanes > 1 && rops->lane_ports && gr->max_degree + s->lanes > NOC_NI_BIT) {
        snprintf(err, errlen, "parameter 'ni_ports': %d lanes and %d network ports exceed a router's 62 ports",
                 s->lanes, gr->max_degree);
        return -1;
    }
    s->lane_chans = s->lanes > 1 && rops->lane_ports ? gr->n_nodes * (s->lanes - 1) : 0;
    s->n_chan = gr->n_ports + s->n_terms + s->lane_chans;
    s->credit_delay = (uint32_t)cfg->credit_delay;
    s->inject_credit_delay = cfg->inject_credit_delay ? (uint32_t)cfg->inject_credit_delay : s->credit_delay;
    s->win_start = s->win_end = NOC_NEVER;

    int max_lat = (int)cfg->local_latency;
    if (cfg->inject_latency > max_lat)
        max_lat = (int)cfg->inject_latency;
    for (int c = 0; c < gr->n_classes; c++)
        if (lat[c] > max_lat)
            max_lat = lat[c];
    if (gr->link_latency)
        for (int g = 0; g < gr->n_ports; g++)
            if (gr->link_latency[g] > max_lat)
                max_lat = gr->link_latency[g];
    int max_ser = 1;
    for (int c = 0; c < gr->n_classes; c++)
        if (ser[c] > max_ser)
            max_ser = ser[c];
    s->serialise = max_ser > 1;
    uint32_t longest = (uint32_t)(max_lat + max_ser - 1 + cfg->sw_alloc_delay + cfg->st_final_delay);
    uint32_t longest_credit = (uint32_t)cfg->credit_delay + (cfg->link_credits ? (uint32_t)max_lat : 0);
    if (longest_credit > longest)
        longest = longest_credit;
    if (s->inject_credit_delay > longest)
        longest = s->inject_credit_delay;
    if ((uint32_t)cfg->eject_credit_delay > longest)
        longest = (uint32_t)cfg->eject_credit_delay;
    s->cap = pow2_above(longest);
    s->mask = s->cap - 1;
    /* source queues: rings that start at NOC_SRCQ_START entries and double
     * when one fills (srcq_grow), up to source_queue's (unbounded: 2^31) */
    s->srcq_limit = cfg->source_queue ? (uint32_t)cfg->source_queue : UINT32_MAX;
    s->srcq_max = cfg->source_queue ? pow2_above(s->srcq_limit - 1) : UINT32_C(1) << 31;
    s->srcq_cap = s->srcq_max < NOC_SRCQ_START ? s->srcq_max : NOC_SRCQ_START;
    /* the pool holds every packet that can be in the network at once (a
     * flit in every buffer slot and channel slot) and one per NI lane */
    uint64_t pool = (uint64_t)gr->n_ports * (uint64_t)s->V * (uint64_t)cfg->vc_buf_size +
                    (uint64_t)s->n_chan * s->cap + (uint64_t)s->n_terms * (uint64_t)(s->lanes + s->classes - 1) + 16;
    if (cfg->threads != 1) /* each thread's slots for the packets its NIs may start in a cycle (sim_threads.c) */
        pool += (uint64_t)s->n_terms * (uint64_t)s->lanes;
    if (pool >= UINT32_MAX) { /* packets are named by 32-bit pool slots */
        snprintf(err, errlen, "%d ports with %d VCs of %lld flits hold %llu packets, more than the %u a run "
                 "may have in flight; use fewer VCs (num_vcs) or shallower buffers (vc_buf_size)", gr->n_ports,
                 s->V, (long long)cfg->vc_buf_size, (unsigned long long)pool, UINT32_MAX - 1);
        return -1;
    }
    s->pkt_cap = (uint32_t)pool;
    /* allocated by use (noc_pkt_grow); a run on threads hands its parts
     * their NIs' slots every cycle: it starts with them */
    uint64_t start = NOC_PKT_START + (cfg->threads != 1 ? (uint64_t)s->n_terms * (uint64_t)s->lanes : 0);
    s->pkt_alloc = start < pool ? (uint32_t)start : (uint32_t)pool;
    return 0;
}

/* The bytes noc_sim_create allocates for the plan on s, its router family's
 * included (rops->bytes), by the same counts as the allocations below. */
static uint64_t planned_bytes(const struct noc_sim *s)
{
    const noc_graph_t *gr = s->graph;
    uint64_t N = (uint64_t)gr->n_nodes, T = (uint64_t)s->n_terms, nc = (uint64_t)s->n_chan, slots = nc * s->cap;
    uint64_t V = (uint64_t)s->V;
    uint64_t credit_lanes = s->lane_chans ? (uint64_t)s->lanes : 1;
    uint64_t b = sizeof(struct noc_sim);
    b += nc * (5 * 1 + sizeof(uint16_t) + 3 * sizeof(int32_t) + sizeof(uint64_t)) + (uint64_t)gr->n_ports * sizeof(int32_t);
    b += slots * (sizeof(noc_flit_t) + 1 + V) + 8 + 2 * N * s->cap * sizeof(uint64_t);
    uint64_t S = (uint64_t)s->n_srcs;
    b += S * sizeof(noc_ni_t) + T * (uint64_t)(s->lanes - 1) * sizeof(noc_ni_lane_t);
    b += S * s->srcq_cap * sizeof(noc_srcq_entry_t) + T * credit_lanes * V * sizeof(int16_t);
    b += s->classes > 1 ? T + (uint64_t)s->classes * sizeof(noc_class_stats_t) : 0;
    b += (uint64_t)s->pkt_alloc * (sizeof(noc_packet_t) + sizeof(uint32_t)); /* (at the start: it grows by use) */
    b += N * (3 * sizeof(int32_t) + 1) + S * (sizeof(uint64_t) + sizeof(int32_t));
    b += (uint64_t)NOC_WHEEL * ((S + 63) / 64) * sizeof(uint64_t);
    b += (NOC_LAT_HIST + 1) * sizeof(uint32_t) + nc * sizeof(noc_link_stats_t);
    b += s->cfg.node_stats ? T * sizeof(noc_node_stats_t) + N * sizeof(noc_occ_t) : 0;
    return b + (s->rops->bytes ? s->rops->bytes(s) : 0);
}

/* Does the plan on s fit in memory, with `extra` bytes besides? 0, or -1
 * with the estimate and the limit in err. */
static int check_fits(const struct noc_sim *s, uint64_t extra, char *err, size_t errlen)
{
    const noc_graph_t *gr = s->graph;
    char what[NOC_GRAPH_NAME_MAX + 160];
    snprintf(what, sizeof what, "a simulation of %s (%d nodes, %d ports, %d VCs of %lld flits, %s router)",
             gr->name, gr->n_nodes, gr->n_ports, s->V, (long long)s->cfg.vc_buf_size, s->rops->name);
    return noc_mem_check(planned_bytes(s) + extra, what, "use a smaller fabric, fewer VCs (num_vcs), shallower "
                         "buffers (vc_buf_size) or source queues (source_queue), or memory_check=0 to try anyway",
                         err, errlen);
}

/* Packets count their hops in 16 bits (noc_flit_t, noc_packet_t; the ideal
 * router's distances too): a grid whose diameter is longer is refused
 * (the other fabrics noctua builds have diameters far below it). */
static int check_hops(const noc_graph_t *gr, char *err, size_t errlen)
{
    if (gr->diameter <= UINT16_MAX)
        return 0;
    snprintf(err, errlen, "%s: a diameter of %lld hops, more than the %d a packet counts (16 bits); use a "
             "smaller fabric", gr->name, (long long)gr->diameter, UINT16_MAX);
    return -1;
}

int noc_sim_check_shape_family(const noc_config_t *cfg, const noc_router_ops_t *rops, const noc_graph_t *shape,
                               uint64_t topo_bytes, char *err, size_t errlen)
{
    int lat[NOC_GRAPH_MAX_CLASSES], ser[NOC_GRAPH_MAX_CLASSES], rc = 0;
    char why[8];
    if (!cfg->memory_check || !rops)
        return 0;
    struct noc_sim *s = noc_xcalloc(1, sizeof *s, "simulator");
    s->graph = shape;
    s->rops = rops;
    /* a lower bound: the matrix arbiters' per-node heaps need the ports of
     * every node, which the shape does not list */
    noc_config_t c = *cfg;
    snprintf(c.arb_type, sizeof c.arb_type, "round_robin");
    if (noc_sim_check_config(&c, why, sizeof why) == 0 &&
        noc_sim_class_timing(&c, shape, lat, ser, why, sizeof why) == 0 &&
        plan(s, &c, shape, rops, lat, ser, why, sizeof why) == 0)
        rc = check_fits(s, topo_bytes, err, errlen);
    free(s);
    return rc;
}

int noc_sim_check_memory_family(const noc_config_t *cfg, const noc_router_ops_t *rops, const noc_graph_t *gr,
                                char *err, size_t errlen)
{
    int lat[NOC_GRAPH_MAX_CLASSES], ser[NOC_GRAPH_MAX_CLASSES], rc = 0;
    char why[8];
    if (!cfg->memory_check || !rops || noc_sim_check_config(cfg, why, sizeof why) ||
        noc_sim_class_timing(cfg, gr, lat, ser, why, sizeof why))
        return 0;
    struct noc_sim *s = noc_xcalloc(1, sizeof *s, "simulator");
    s->graph = gr;
    s->rops = rops;
    if (plan(s, cfg, gr, rops, lat, ser, why, sizeof why) == 0)
        rc = check_fits(s, 0, err, errlen);
    free(s);
    return rc;
}

uint64_t noc_sim_estimate_bytes_family(const noc_config_t *cfg, const noc_router_ops_t *rops, const noc_graph_t *gr)
{
    int lat[NOC_GRAPH_MAX_CLASSES], ser[NOC_GRAPH_MAX_CLASSES];
    char err[8];
    struct noc_sim *s = noc_xcalloc(1, sizeof *s, "simulator");
    s->graph = gr;
    s->rops = rops;
    uint64_t b = rops && noc_sim_class_timing(cfg, gr, lat, ser, err, sizeof err) == 0 &&
                 plan(s, cfg, gr, rops, lat, ser, err, sizeof err) == 0 ? planned_bytes(s) : 0;
    free(s);
    return b;
}

/* The channels' wiring from the topology: ends, ports, delays, flit
 * cycles; the ejection, injection and extra lanes' channels of every node. */
static void wire_channels(struct noc_sim *s, const noc_config_t *cfg, const noc_graph_t *gr, const int *lat,
                          const int *ser)
{
    int nc = s->n_chan;
    s->chan_delay = noc_xcalloc((size_t)nc, 1, "simulator");
    s->chan_cdelay = noc_xcalloc((size_t)nc, sizeof(uint16_t), "simulator");
    s->chan_from = noc_xcalloc((size_t)nc, sizeof(int32_t), "simulator");
    s->chan_to = noc_xcalloc((size_t)nc, sizeof(int32_t), "simulator");
    s->chan_in_gport = noc_xcalloc((size_t)nc, sizeof(int32_t), "simulator");
    s->chan_local = noc_xcalloc((size_t)nc, 1, "simulator");
    s->chan_in_port = noc_xcalloc((size_t)nc, 1, "simulator");
    s->chan_out_port = noc_xcalloc((size_t)nc, 1, "simulator");
    s->in_chan = noc_xcalloc((size_t)gr->n_ports, sizeof(int32_t), "simulator");
    s->chan_ser = noc_xcalloc((size_t)nc, 1, "simulator");
    s->chan_free_at = noc_xcalloc((size_t)nc, sizeof(uint64_t), "simulator");
    memset(s->chan_ser, 1, (size_t)nc);
    int64_t inject_lat = cfg->inject_latency ? cfg->inject_latency : cfg->local_latency;
    for (int n = 0; n < gr->n_nodes; n++) {
        int L = noc_graph_locals(gr, n);
        for (int g = gr->port_base[n]; g < gr->port_base[n + 1]; g++) {
            s->chan_from[g] = n;
            if (g - gr->port_base[n] < L) { /* an ejection channel, to the terminal on port i */
                int i = g - gr->port_base[n];
                s->chan_to[g] = n;
                s->chan_in_gport[g] = -1;
                s->chan_in_port[g] = NOC_NI_BIT;
                s->chan_out_port[g] = (int8_t)i;
                s->chan_local[g] = 1;
                s->chan_delay[g] = (uint8_t)cfg->local_latency;
                s->in_chan[g] = gr->n_ports + noc_graph_term_at(gr, n, i); /* (nominal where it only ejects) */
            } else {
                int pg = gr->peer[g];
                s->chan_to[g] = noc_graph_port_node(gr, pg);
                s->chan_in_gport[g] = pg;
                int ip = pg - gr->port_base[s->chan_to[g]], op = g - gr->port_base[n];
                s->chan_in_port[g] = (int8_t)(ip < NOC_PORT_SPILL ? ip : NOC_PORT_SPILL);
                s->chan_out_port[g] = (int8_t)(op < NOC_PORT_SPILL ? op : NOC_PORT_SPILL);
                s->chan_delay[g] = (uint8_t)(gr->link_latency && gr->link_latency[g]
                                                 ? gr->link_latency[g] : lat[gr->link_class[g]]);
                s->chan_ser[g] = (uint8_t)ser[gr->link_class[g]];
                s->in_chan[pg] = g;
            }
        }
        for (int i = 0; i < L; i++) { /* its terminals' injection channels, into their local ports */
            int term = noc_graph_term_at(gr, n, i), ic = gr->n_ports + term;
            if (noc_graph_term_gport(gr, term) != gr->port_base[n] + i)
                continue; /* (a butterfly's last stage: the terminal only ejects here) */
            s->chan_from[ic] = n;
            s->chan_to[ic] = n;
            s->chan_in_gport[ic] = gr->port_base[n] + i;
            s->chan_in_port[ic] = (int8_t)i;
            s->chan_out_port[ic] = NOC_NI_BIT;
            s->chan_local[ic] = 1;
            s->chan_delay[ic] = s->rops->direct_ni ? 0 : (uint8_t)inject_lat;
        }
        /* the extra lanes' injection channels: into router input ports
         * after the node's own (the router's lane ports) */
        for (int k = 1; s->lane_chans && k < s->lanes; k++) {
            int lc = noc_lane_chan(s, n, k);
            s->chan_from[lc] = n;
            s->chan_to[lc] = n;
            s->chan_in_gport[lc] = -1;
            s->chan_in_port[lc] = (int8_t)(gr->port_base[n + 1] - gr->port_base[n] + k - 1);
            s->chan_out_port[lc] = NOC_NI_BIT;
            s->chan_local[lc] = 1;
            s->chan_delay[lc] = (uint8_t)inject_lat;
        }
    }
    for (int c = 0; c < nc; c++)
        s->chan_cdelay[c] = (uint16_t)(s->chan_local[c] ? s->inject_credit_delay
                                                        : s->credit_delay + (cfg->link_credits ? s->chan_delay[c] : 0u));
    size_t slots = (size_t)nc * s->cap;
    s->ring_flit = noc_xcalloc(slots, sizeof(noc_flit_t), "simulator");
    s->ring_valid = noc_xcalloc(slots, 1, "simulator");
    /* 8 spare bytes: a reader may load a slot's counters as one word */
    s->ring_credit = noc_xcalloc(slots * (size_t)s->V + 8, 1, "simulator");
    s->credit_bytes = s->V > 8 ? 0 : s->V == 8 ? ~UINT64_C(0) : (UINT64_C(1) << (8 * s->V)) - 1;
    s->arr_flit = noc_xcalloc((size_t)gr->n_nodes * s->cap, sizeof(uint64_t), "simulator");
    s->arr_credit = noc_xcalloc((size_t)gr->n_nodes * s->cap, sizeof(uint64_t), "simulator");
    s->arr_flit_to = s->arr_flit;
    s->arr_credit_to = s->arr_credit;
}

/* The NIs (their lanes, source queues, credits for the router's local
 * input, whose depth the family gives), the packet pool, the active lists,
 * the synthetic generation calendar, the statistics. */
static void build_nodes(struct noc_sim *s, const noc_config_t *cfg, const noc_graph_t *gr, noc_traffic_t traffic,
                        int depth)
{
    int T = s->n_terms, S = s->n_srcs;
    s->ni = noc_xcalloc((size_t)S, sizeof(noc_ni_t), "simulator");
    if (s->classes > 1) {
        s->last_class = noc_xcalloc((size_t)T, 1, "simulator");
        s->cst = noc_xcalloc((size_t)s->classes, sizeof(noc_class_stats_t), "simulator");
        for (int t = 0; t < T; t++) /* (the first flit's turn starts from class 0, as BookSim2's) */
            s->last_class[t] = (uint8_t)(s->classes - 1);
    }
    s->xlane = noc_xcalloc((size_t)T * (size_t)(s->lanes - 1) + 1, sizeof(noc_ni_lane_t), "simulator");
    for (size_t i = 0; i < (size_t)T * (size_t)(s->lanes - 1); i++)
        s->xlane[i].pkt = -1;
    s->srcq = noc_xcalloc((size_t)S * s->srcq_cap, sizeof(noc_srcq_entry_t), "simulator");
    /* per node, lane and VC (lanes with channels of their own; else one set) */
    int credit_lanes = s->lane_chans ? s->lanes : 1;
    s->ni_credits = noc_xcalloc((size_t)T * (size_t)credit_lanes * (size_t)s->V, sizeof(int16_t), "simulator");
    for (int i = 0; i < T * credit_lanes * s->V; i++)
        s->ni_credits[i] = (int16_t)depth;
    s->ni_free_at = (int16_t)(cfg->wait_for_tail_credit ? depth : 1);

    s->pkts = noc_xcalloc(s->pkt_alloc, sizeof(noc_packet_t), "simulator");
    s->pkt_free = noc_xcalloc(s->pkt_alloc, sizeof(uint32_t), "simulator");
    s->pkt_fresh = s->pkt_free_n = 0; /* (every slot free, slot 0 on top) */

    s->work = noc_xcalloc((size_t)gr->n_nodes, sizeof(int32_t), "simulator");
    s->listed = noc_xcalloc((size_t)gr->n_nodes, 1, "simulator");
    s->active = noc_xcalloc((size_t)gr->n_nodes, sizeof(int32_t), "simulator");
    s->woken = noc_xcalloc((size_t)gr->n_nodes, sizeof(int32_t), "simulator");

    s->wheel_words = (S + 63) / 64;
    s->wheel = noc_xcalloc((size_t)NOC_WHEEL * (size_t)s->wheel_words, sizeof(uint64_t), "simulator");
    s->heap_t = noc_xcalloc((size_t)S, sizeof(uint64_t), "simulator");
    s->heap_n = noc_xcalloc((size_t)S, sizeof(int32_t), "simulator");
    s->injecting = traffic.ops != NULL;
    for (int n = 0; n < S; n++) { /* (source n: its stream is the n-th) */
        noc_ni_t *ni = &s->ni[n];
        noc_rng_seed(&ni->rng, (uint64_t)cfg->seed, (uint64_t)n);
        ni->lane0.pkt = -1;
        ni->last_vc = (uint8_t)(s->V - 1);
        ni->next_gen = traffic.ops ? traffic.ops->next(traffic.ctx, n, 0, &ni->rng) : NOC_NEVER;
        /* (over MPI ranks: only the part's sources, model/sim_ranks.c) */
        if (ni->next_gen != NOC_NEVER && noc_sim_ranks_owns(s, noc_term_node(s, noc_src_term(s, n))))
            calendar_add(s, ni->next_gen, n);
    }

    s->st.lat_hist = noc_xcalloc(NOC_LAT_HIST + 1, sizeof(uint32_t), "simulator");
    s->lst = noc_xcalloc((size_t)s->n_chan, sizeof(noc_link_stats_t), "simulator");
    s->nst = cfg->node_stats ? noc_xcalloc((size_t)T, sizeof(noc_node_stats_t), "simulator") : NULL;
    s->occ = cfg->node_stats ? noc_xcalloc((size_t)gr->n_nodes, sizeof(noc_occ_t), "simulator") : NULL;
    s->occ_open = 0;
    s->occ_shut = NOC_NEVER;
}

noc_sim_t *noc_sim_create_family(const noc_config_t *cfg, const noc_router_ops_t *rops, const noc_graph_t *gr,
                                 noc_traffic_t traffic, char *err, size_t errlen)
{
    if (noc_sim_check_config(cfg, err, errlen) || check_hops(gr, err, errlen))
        return NULL;
    if (!rops) { /* (routers/registry.c adds the names it knows) */
        snprintf(err, errlen, "parameter 'router': unknown router '%s'", cfg->router);
        return NULL;
    }
    int lat[NOC_GRAPH_MAX_CLASSES], ser[NOC_GRAPH_MAX_CLASSES];
    if (noc_sim_class_timing(cfg, gr, lat, ser, err, errlen))
        return NULL;

    struct noc_sim *s = noc_xcalloc(1, sizeof *s, "simulator");
    s->graph = gr;
    s->rops = rops;
    s->traffic = traffic;
    if (plan(s, cfg, gr, rops, lat, ser, err, errlen) != 0 || noc_rw_plan(s, err, errlen) != 0) {
        free(s);
        return NULL;
    }
    if (s->cfg.memory_check && check_fits(s, 0, err, errlen) != 0) {
        free(s);
        return NULL;
    }
    wire_channels(s, cfg, gr, lat, ser);
    /* over MPI ranks, this rank's part, before the routers and NIs that
     * set up only its nodes (model/sim_ranks.c) */
    if (noc_sim_ranks_setup(s, err, errlen) != 0) {
        s->rops = NULL;
        noc_sim_destroy(s);
        return NULL;
    }
    if (rops->create(s, err, errlen) != 0) {
        s->rops = NULL;
        noc_sim_destroy(s);
        return NULL;
    }
    build_nodes(s, cfg, gr, traffic, rops->depth(s));
    noc_rw_build(s);
    noc_batch_build(s);
    if (noc_sim_threads_setup(s, err, errlen) != 0) {
        noc_sim_destroy(s);
        return NULL;
    }
    return s;
}

void noc_sim_destroy(noc_sim_t *s)
{
    if (!s)
        return;
    noc_sim_threads_destroy(s); /* (before the state its threads share) */
    noc_rw_destroy(s);
    noc_batch_destroy(s);
    if (s->rops && s->rops->destroy)
        s->rops->destroy(s);
    noc_sim_ranks_destroy(s); /* (after the routers, which free only the part's nodes) */
    noc_pe_destroy(s->pe);
    free(s->step_flits);
    for (int k = 0; k < NOC_WAIT_KINDS; k++)
        free(s->step_wait[k]);
    free(s->pkt_wait);
    free(s->chan_delay);
    free(s->chan_cdelay);
    free(s->chan_ser);
    free(s->chan_free_at);
    free(s->chan_from);
    free(s->chan_to);
    free(s->chan_in_gport);
    free(s->chan_local);
    free(s->chan_in_port);
    free(s->chan_out_port);
    free(s->arr_flit);
    free(s->arr_credit);
    free(s->in_chan);
    free(s->ring_flit);
    free(s->ring_valid);
    free(s->ring_credit);
    free(s->ni);
    free(s->last_class);
    free(s->cst);
    free(s->xlane);
    free(s->srcq);
    free(s->ni_credits);
    free(s->pkts);
    free(s->pkt_free);
    free(s->work);
    free(s->listed);
    free(s->active);
    free(s->woken);
    free(s->wheel);
    free(s->heap_t);
    free(s->heap_n);
    free(s->st.lat_hist);
    free(s->lst);
    free(s->energy);
    free(s->nst);
    free(s->occ);
    free(s);
}

/* ---- the cycle ---- */

/* A source queue is full below srcq_max: every terminal's ring doubles
 * (they share one array, slot-major), each keeping its entries at their
 * counters' places. Amortised over the packets that filled it; never in a
 * run whose queues stay short. */
static void srcq_grow(struct noc_sim *s)
{
    uint32_t cap = s->srcq_cap, ncap = cap * 2;
    noc_srcq_entry_t *q = noc_xcalloc((size_t)s->n_srcs * ncap, sizeof *q, "source queues");
    for (int n = 0; n < s->n_srcs; n++) {
        const noc_ni_t *ni = &s->ni[n];
        for (uint32_t i = ni->q_head; i != ni->q_tail; i++)
            q[(size_t)(i & (ncap - 1)) * (size_t)s->n_srcs + (size_t)n] = *noc_srcq_at(s, n, i);
    }
    free(s->srcq);
    s->srcq = q;
    s->srcq_cap = ncap;
}

/* The pool's arrays at n slots (pkt_fresh <= n <= pkt_cap), the slots in
 * use copied: fresh memory (calloc) past them, which a lightly loaded run
 * never writes. */
static void pool_resize(struct noc_sim *s, uint32_t n)
{
    assert(n >= s->pkt_fresh && n <= s->pkt_cap);
    noc_packet_t *p = noc_xcalloc(n, sizeof *p, "packet pool");
    memcpy(p, s->pkts, (size_t)s->pkt_fresh * sizeof *p);
    free(s->pkts);
    s->pkts = p;
    uint32_t *f = noc_xcalloc(n, sizeof *f, "packet pool");
    memcpy(f, s->pkt_free, (size_t)s->pkt_free_n * sizeof *f);
    free(s->pkt_free);
    s->pkt_free = f;
    if (s->pkt_wait) { /* program runs: each slot's waits */
        uint32_t *w = noc_xcalloc((size_t)n * NOC_WAIT_KINDS, sizeof *w, "per-step link tables");
        memcpy(w, s->pkt_wait, (size_t)s->pkt_fresh * NOC_WAIT_KINDS * sizeof *w);
        free(s->pkt_wait);
        s->pkt_wait = w;
    }
    s->pkt_alloc = n;
}

/* In the cycle loop (noc_pkt_take), the one allocation there with
 * srcq_grow's: amortised, a doubling per power of two of packets in flight
 * at once, never in a run that stays within its start. */
void noc_pkt_grow(struct noc_sim *s)
{
    uint64_t n = s->pkt_alloc ? (uint64_t)s->pkt_alloc * 2 : 1;
    pool_resize(s, n > s->pkt_cap ? s->pkt_cap : (uint32_t)n);
}

int noc_sim_offer(struct noc_sim *s, int n, uint64_t created)
{
    const noc_traffic_t *tr = &s->traffic;
    noc_ni_t *ni = &s->ni[n];
    int dst = -1, size = 0, type = NOC_PKT_ANY;
    tr->ops->make(tr->ctx, n, &ni->rng, &dst, &size, &type);
    if (dst < 0 || (dst == noc_src_term(s, n) && !s->cfg.self_traffic) || size <= 0)
        return 0;
    s->st.packets_created++;
    if (s->now >= s->win_start && s->now < s->win_end) {
        s->st.window_flits_offered += (uint64_t)size;
        if (s->cst)
            s->cst[n / s->n_terms].window_flits_offered += (uint64_t)size;
    }
    uint32_t depth = ni->q_tail - ni->q_head;
    if (depth == s->srcq_cap && depth < s->srcq_max)
        srcq_grow(s);
    if (depth >= s->srcq_limit || depth == s->srcq_cap) {
        s->st.packets_offered_lost++;
        return 0;
    }
    noc_srcq_entry_t *e = noc_srcq_at(s, n, ni->q_tail);
    e->created = created;
    e->dst = dst;
    e->size = (uint16_t)size;
    e->type = (uint8_t)type;
    ni->q_tail++;
    depth++;
    if (depth > s->st.source_queue_peak)
        s->st.source_queue_peak = depth;
    if (s->now >= s->win_start && s->now < s->win_end)
        s->st.measured_outstanding++;
    noc_work_add(s, noc_term_node(s, noc_src_term(s, n)), 1);
    return 1;
}

/* Terminal n's packet of this cycle (if its source makes one), and its next. */
static void generate_one(struct noc_sim *s, int n)
{
    noc_ni_t *ni = &s->ni[n];
    (void)noc_sim_offer(s, n, s->now);
    ni->next_gen = s->traffic.ops->next(s->traffic.ctx, n, s->now + 1, &ni->rng);
    if (ni->next_gen != NOC_NEVER)
        calendar_add(s, ni->next_gen, n);
}

/* The terminals due this cycle, in terminal order. */
static void generate(struct noc_sim *s)
{
    while (s->heap_size > 0 && s->heap_t[0] - s->now < NOC_WHEEL) {
        uint64_t t = s->heap_t[0];
        int n = s->heap_n[0];
        heap_pop(s);
        calendar_add(s, t, n);
    }
    /* (what generate_one adds is due later: another slot) */
    uint64_t *slot = &s->wheel[(s->now & (NOC_WHEEL - 1)) * (uint64_t)s->wheel_words];
    for (int w = 0; w < s->wheel_words; w++) {
        uint64_t bits = slot[w];
        if (!bits)
            continue;
        slot[w] = 0;
        for (; bits; bits &= bits - 1)
            generate_one(s, 64 * w + __builtin_ctzll(bits));
    }
}

/* Tests: a new random order of the active nodes. */
static void shuffle_active(struct noc_sim *s)
{
    for (int i = s->n_active - 1; i > 0; i--) {
        int j = (int)noc_rng_below(&s->shuffle_rng, (uint32_t)i + 1);
        int32_t x = s->active[i];
        s->active[i] = s->active[j];
        s->active[j] = x;
    }
}

/* Phase 2 of a cycle for the n_act nodes evaluated: commit; then drop the
 * nodes that ran out of work from the active list, and advance the clock. */
static inline __attribute__((always_inline)) void end_cycle(struct noc_sim *s, int n_act)
{
    if (s->rops->commit)
        for (int i = 0; i < n_act; i++)
            s->rops->commit(s, s->active[i]);
    noc_work_prune(s, n_act);
    s->now++;
    s->st.cycles = s->now;
}

/* The first part of a program run's cycle: every active node's arrivals
 * (the router's direct ejection, the NI's ejection and credits). */
static inline __attribute__((always_inline)) void program_arrivals(struct noc_sim *s)
{
    noc_work_merge(s);
    if (s->shuffle)
        shuffle_active(s);
    void (*pre_eval)(struct noc_sim *, int) = s->rops->pre_eval;
    for (int i = 0; i < s->n_active; i++) {
        int n = s->active[i];
        if (pre_eval)
            pre_eval(s, n);
        noc_ni_receive(s, n);
    }
}

/* A cycle of a program run: every active node's arrivals first (the
 * router's direct ejection, the NI's ejection and credits), then the step
 * barrier, then every node's PE, injection and router. Both passes read
 * only this cycle's channel slots and node-local state, so the order of
 * nodes still cannot change a result. */
static void step_program(struct noc_sim *s)
{
    program_arrivals(s);
    noc_pe_barrier(s);
    noc_work_merge(s);
    if (s->shuffle)
        shuffle_active(s);
    int n_act = s->n_active;
    for (int i = 0; i < n_act; i++) {
        int n = s->active[i];
        noc_ni_send(s, n);
        s->rops->eval(s, n);
    }
    end_cycle(s, n_act);
}

void noc_sim_step(noc_sim_t *s)
{
    if (s->observer)
        s->observer(s, s->observer_ctx);
    if (s->pe) {
        step_program(s);
        return;
    }
    if (s->rk) /* over MPI ranks (model/sim_ranks.c) */
        noc_sim_ranks_begin(s);
    if (s->injecting) {
        if (s->batch)
            noc_batch_generate(s);
        else
            generate(s);
    }
    if (s->thr) { /* threads > 1: the evaluation in parts (model/sim_threads.c) */
        noc_sim_threads_cycle(s);
        if (s->rk)
            noc_sim_ranks_sync(s);
        return;
    }
    noc_work_merge(s);

    /* phase 1: evaluate */
    int n_act = s->n_active;
    if (s->shuffle)
        shuffle_active(s);
    noc_sim_eval_nodes(s, s->active, n_act);
    if (s->rk)
        noc_sim_ranks_exchange(s);
    end_cycle(s, n_act);
    if (s->rk)
        noc_sim_ranks_sync(s);
}

void noc_sim_stop_injection(noc_sim_t *s)
{
    if (s->rk) /* (each rank drops its part's queues: the counts summed) */
        noc_sim_ranks_begin(s);
    s->injecting = 0;
    s->heap_size = 0;
    memset(s->wheel, 0, (size_t)NOC_WHEEL * (size_t)s->wheel_words * sizeof *s->wheel);
    /* Packets still waiting in source queues are dropped; their NIs lose the
     * work they stood for. */
    for (int n = 0; n < s->n_srcs; n++) {
        noc_ni_t *ni = &s->ni[n];
        while (ni->q_head != ni->q_tail) {
            const noc_srcq_entry_t *e = noc_srcq_at(s, n, ni->q_head);
            /* (the rule of start_packet, model/ni.c: with measure_queued
             * a packet waiting when the window opened was counted then) */
            if ((s->cfg.measure_queued ? s->now >= s->win_start : e->created >= s->win_start) &&
                e->created < s->win_end)
                s->st.measured_outstanding--;
            noc_srcq_pop(ni);
            noc_work_sub(s, noc_term_node(s, noc_src_term(s, n)), 1);
        }
    }
    noc_rw_drop(s);
    if (s->rk)
        noc_sim_ranks_sync(s);
}

/* No flit moved for deadlock_cycles, or for as long as the longest channel
 * delay if that is longer (a slow link is not a deadlock). */
static int deadlocked(const struct noc_sim *s)
{
    uint64_t quiet = (uint64_t)s->cfg.deadlock_cycles;
    if (quiet < s->cap)
        quiet = s->cap;
    return s->in_network > 0 && s->now - s->last_move > quiet;
}

/* After a cycle: the stop flag, the invariant checker (check=1), the
 * deadlock detector. */
static int checks(struct noc_sim *s, noc_run_status_t *status)
{
    if (s->rk ? noc_sim_ranks_stopped(s) : s->stop && *s->stop) { /* (ranks: on any of them) */
        *status = NOC_RUN_INTERRUPTED;
        return -1;
    }
    if (s->progress && s->now >= s->progress_next) {
        s->progress_next = s->now + s->progress_every;
        s->progress(s, s->progress_ctx);
    }
    if (s->cfg.check) {
        char err[512];
        if (noc_sim_check(s, err, sizeof err) != 0) {
            fprintf(stderr, "noctua: invariant violated at cycle %llu: %s\n",
                    (unsigned long long)s->now, err);
            *status = NOC_RUN_INVARIANT;
            return -1;
        }
    }
    if (deadlocked(s)) {
        s->st.deadlock = 1;
        *status = NOC_RUN_DEADLOCK;
        return -1;
    }
    return 0;
}

int noc_sim_step_checked(struct noc_sim *s, noc_run_status_t *status)
{
    noc_sim_step(s);
    return checks(s, status);
}

/* ---- a program run's cycle in parts (sim.h: a SystemC platform adds ops
 * between them). Together they do what step_program does, but every PE
 * before every NI's injection and router. ---- */

void noc_sim_cycle_arrivals(noc_sim_t *s)
{
    if (s->observer)
        s->observer(s, s->observer_ctx);
    program_arrivals(s);
}

void noc_sim_cycle_pes(noc_sim_t *s, int barrier)
{
    if (barrier)
        noc_pe_barrier(s);
    noc_work_merge(s);
    for (int i = 0; i < s->n_active; i++)
        noc_pe_eval(s, s->active[i]);
}

int noc_sim_cycle_finish(noc_sim_t *s, noc_run_status_t *status)
{
    noc_work_merge(s);
    int n_act = s->n_active;
    for (int i = 0; i < n_act; i++) {
        int n = s->active[i];
        noc_ni_send_flits(s, n);
        s->rops->eval(s, n);
    }
    end_cycle(s, n_act);
    return checks(s, status);
}

void noc_sim_measure_all(noc_sim_t *s)
{
    s->phase = NOC_PHASE_SAMPLE;
    s->measuring = 1;
    s->win_start = s->now;
    s->win_end = NOC_NEVER;
    noc_occ_window_open(s);
}

void noc_sim_debug_shuffle(struct noc_sim *s, uint64_t seed)
{
    s->shuffle = 1;
    noc_rng_seed(&s->shuffle_rng, seed, 0x5eedULL);
}

void noc_sim_debug_pool(struct noc_sim *s, uint32_t slots)
{
    if (slots < s->pkt_fresh)
        slots = s->pkt_fresh;
    pool_resize(s, slots < s->pkt_cap ? slots : s->pkt_cap);
}
