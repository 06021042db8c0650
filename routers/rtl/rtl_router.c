/* rtl_router.c: the rtl router family (--router rtl): the Verilated router
 * core rtl/noc_vc_router.sv is the datapath of every router; the C side keeps
 * the ports, links, NIs and statistics (docs/rtl.md, "The RTL datapath").
 *
 * Which flit crosses when, to which output port and on which VC, is the
 * core's decision, and the flits' data travel through its buffers. The C side
 * feeds each core its inputs, clocks it once a cycle, puts what comes out on
 * the links, and keeps a mirror of each input buffer (the flit records, in
 * arrival order) so that the kernel's checker, the stuck-packet report and
 * the waves see the buffers as they see those of routers/vc; a flit leaving
 * the core must be the one at the front of the mirror of the VC it left
 * (checked every time, with its data).
 *
 * Timing (the core's ports: docs/rtl.md). The core takes as its inputs of
 * cycle t what the C model has arrive in cycle t+1, and gives as the
 * crossings of cycle t (in_credit_o) a function of its registers alone. So
 * in kernel cycle K:
 *   eval(n):   the flits and credits of slot K enter the mirror and the
 *              credit counts (as routers/vc's input stage); the crossings of
 *              cycle K, known since the core was clocked in K-1, leave the
 *              mirror, return their credits upstream (slot K + credit_delay,
 *              as routers/vc) and are counted in the link statistics;
 *   commit(n): after every node's eval, so the credits of slot K+1 are all
 *              written: the core's inputs of cycle K are the flits and
 *              credits of slot K+1; clocked, its output registers hold the
 *              crossings of K, which go into their links (slot K +
 *              sw_alloc_delay + st_final_delay + the link's delay).
 * A node with no work is skipped, as in every family; its core then has
 * nothing buffered and its cycles would change nothing, except for a credit
 * written for it in the cycle it was skipped: that cycle is clocked when the
 * node is next evaluated (catch_up).
 *
 * Only the configuration whose timing the core has is accepted: the default
 * pipeline (routing, VA, SA, ST one cycle each, no lookahead), separable
 * input-first allocators, round-robin or matrix arbiters, links as wide as a
 * flit. A node with fewer ports than the core has them tied off (they never
 * request, so the arbiters' choices are those of a core of its own size). */
#include "model/channel.h"
#include "util/xalloc.h"
#include "routers/families.h"
#include "routers/rtl/rtl_model.h"
#include "routers/rtl/rtl_router.h"
#include <inttypes.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct rtl_node {
    void *core;
    uint64_t clocked;     /* 1 + the last cycle the core was clocked for (0: never) */
    int base, Pt, P;      /* first global port; network + local ports; with lane ports */
    int buffered;         /* flits in the core (= in the mirror) */
    uint64_t pend;        /* output ports with a crossing of this cycle, sent at commit */
    noc_rtl_taps_t taps;  /* of the core's next cycle */
    uint64_t toggles;     /* rtl_toggles=1: its flip-flops' bit toggles in the counted cycles */
} rtl_node_t;

typedef struct rtl_state {
    noc_rtl_model_t model;
    const noc_rtl_core_api_t *api;
    int V, depth, lane_ports, max_ports, out_delay, arb;
    int tracing;                 /* the cores' insides go to a trace file (trace_open) */
    uint64_t trace_from, trace_to, dumped; /* its window; the last cycle sampled + 1 */
    uint64_t settled;            /* 1 + the last cycle trace_settle ran for */
    int32_t *traced;             /* the nodes whose cores are in the trace */
    int n_traced;
    uint32_t qcap, qmask;
    rtl_node_t *nodes;
    int32_t *port_node;          /* per global port: its node */
    /* per node and port (n * max_ports + p) */
    int32_t *up_chan, *up_node;  /* channel feeding input port p, its writer */
    int8_t *up_bit;              /* p's bit in the writer's credit arrival masks */
    int32_t *occ, *peak;         /* flits buffered at input port p; most seen */
    noc_flit_t *pend_flit;       /* the crossing of this cycle through output port p */
    /* per node, port and VC ((n * max_ports + p) * V + v) */
    uint16_t *head, *tail;       /* the mirror: FIFO counters into buf */
    int16_t *credits;            /* credits for output VC v of port p */
    noc_flit_t *buf;             /* qcap slots per input VC */
    /* wait attribution of program runs (rtl_waits_on; NULL otherwise) */
    uint32_t *arrive;            /* per slot of buf: the cycle its flit arrived */
    uint32_t *front_at;          /* per input VC: the cycle its front head got there */
    uint8_t *bid_seen;           /* per input VC: its front head has bid for the switch */
    noc_rtl_in_t in;             /* scratch for one core's inputs */
    noc_rtl_out_t out;
} rtl_state_t;

static size_t ivc_index(const rtl_state_t *r, int n, int p, int v)
{
    return ((size_t)n * (size_t)r->max_ports + (size_t)p) * (size_t)r->V + (size_t)v;
}

static noc_flit_t *ivc_slot(const rtl_state_t *r, size_t i, uint16_t k)
{
    return &r->buf[i * r->qcap + (k & r->qmask)];
}

static int check_config(const struct noc_sim *s, char *err, size_t errlen)
{
    const noc_config_t *c = &s->cfg;
    const noc_graph_t *gr = s->graph;
    const char *bad = NULL;
    char what[160];
    if (c->routing_delay != 1 || c->vc_alloc_delay != 1 || c->sw_alloc_delay != 1 || c->st_final_delay != 1)
        bad = "its pipeline: routing_delay, vc_alloc_delay, sw_alloc_delay and st_final_delay 1";
    else if (c->lookahead)
        bad = "lookahead=0 (its route stage takes the route carried with the head flit)";
    else if (strcmp(c->vc_allocator, "separable_input_first") != 0 ||
             strcmp(c->sw_allocator, "separable_input_first") != 0)
        bad = "vc_allocator and sw_allocator separable_input_first";
    else if (strcmp(c->arb_type, "round_robin") != 0 && strcmp(c->arb_type, "matrix") != 0)
        bad = "arb_type round_robin or matrix";
    else if (s->serialise)
        bad = "links as wide as a flit (no link_width or class_width below flit_width)";
    else if (s->inject_credit_delay != s->credit_delay || c->link_credits)
        bad = "one credit delay (inject_credit_delay 0 or equal to credit_delay, link_credits = 0)";
    if (bad) {
        snprintf(err, errlen, "--router rtl: the RTL core has one microarchitecture; it needs %s "
                 "(--router vc models the others)", bad);
        return -1;
    }
    if (c->num_vcs < gr->n_vclasses) {
        snprintf(err, errlen, "parameter 'num_vcs': %s needs at least %d virtual channels for deadlock-free routing, %lld given",
                 gr->name, gr->n_vclasses, (long long)c->num_vcs);
        return -1;
    }
    if (gr->route_set) {
        snprintf(err, errlen, "parameter 'routing_function': %s is adaptive, and the rtl router's core takes one "
                 "route per head (its route stage has no candidates to choose among); only the vc router runs it",
                 c->routing_function);
        return -1;
    }
    if (c->wait_for_tail_credit) {
        snprintf(err, errlen, "parameter 'wait_for_tail_credit': the rtl router's core frees an output VC when the "
                 "tail leaves; only the vc router honours 1");
        return -1;
    }
    if (strcmp(c->priority, "none") != 0) {
        snprintf(err, errlen, "parameter 'priority': the rtl router's core ranks no requests (its arbiters are "
                 "round-robin); only the vc router honours %s", c->priority);
        return -1;
    }
    if (c->vc_prioritize_empty) {
        snprintf(err, errlen, "parameter 'vc_prioritize_empty': the rtl router's core takes the free output VCs in "
                 "round-robin order, empty or not; only the vc router honours 1");
        return -1;
    }
    if (c->vc_busy_when_full) {
        snprintf(err, errlen, "parameter 'vc_busy_when_full': the rtl router's core asks for the free output VCs "
                 "whatever their credits; only the vc router honours 1");
        return -1;
    }
    if (c->vc_shuffle_requests) {
        snprintf(err, errlen, "parameter 'vc_shuffle_requests': the rtl router's core numbers its VC allocator's "
                 "requesters port-major; only the vc router honours 1");
        return -1;
    }
    if (c->hold_switch_for_packet) {
        snprintf(err, errlen, "parameter 'hold_switch_for_packet': the rtl router's core allocates the switch "
                 "flit by flit; only the vc router honours 1");
        return -1;
    }
    if (c->input_speedup != 1) {
        snprintf(err, errlen, "parameter 'input_speedup': the rtl router's core has one switch input per input "
                 "port; only the vc router honours %lld", (long long)c->input_speedup);
        return -1;
    }
    if (c->internal_speedup != 1.0 || c->output_speedup != 1 || c->output_buffer_size != -1) {
        snprintf(err, errlen, "parameter '%s': the rtl router's core runs its crossbar once a cycle, one flit an "
                 "output port, without output queues; only the vc router honours it",
                 c->internal_speedup != 1.0 ? "internal_speedup" : c->output_speedup != 1 ? "output_speedup"
                 : "output_buffer_size");
        return -1;
    }
    if (c->speculative) {
        snprintf(err, errlen, "parameter 'speculative': the rtl router's core allocates the switch only to VCs "
                 "that hold an output VC (no speculative switch allocation); only the vc router honours 1");
        return -1;
    }
    if (strcmp(c->va_in_pointer, "port") != 0) {
        snprintf(err, errlen, "parameter 'va_in_pointer': the rtl router's core keeps its VC allocation pointers "
                 "per output port (port); only the vc router honours '%s' (BookSim2 files set router: give "
                 "va_in_pointer=port to run one on the core with that difference)", c->va_in_pointer);
        return -1;
    }
    if (gr->max_degree > NOC_PORT_SPILL) { /* ports from the spill bit on share one bit */
        snprintf(err, errlen, "%s: the rtl router supports at most %d network ports per node", gr->name,
                 NOC_PORT_SPILL);
        return -1;
    }
    int lanes = s->lane_chans ? s->lanes - 1 : 0;
    int P = gr->max_degree + 1 + lanes;
    if (P > NOC_RTL_MAX_P || P * c->num_vcs > NOC_RTL_MAX_L || c->num_vcs > 255 || c->vc_buf_size > 1024) {
        snprintf(what, sizeof what, "%d ports x %lld VCs, depth %lld", P, (long long)c->num_vcs,
                 (long long)c->vc_buf_size);
        snprintf(err, errlen, "--router rtl: a core of %s is larger than the datapath takes (%d ports, %d input "
                 "VCs, depth 1024)", what, NOC_RTL_MAX_P, NOC_RTL_MAX_L);
        return -1;
    }
    return 0;
}

static void rtl_destroy(struct noc_sim *s);

/* A core for every node, named (its scope in a trace) after the node's
 * label, e.g. router_1_2 for (1,2). */
static void make_cores(const struct noc_sim *s, rtl_state_t *r)
{
    for (int n = 0; n < s->graph->n_nodes; n++) {
        char label[64], name[80] = "router_";
        noc_graph_label(s->graph, n, label, sizeof label);
        size_t k = strlen(name);
        for (const char *c = label; *c && k + 1 < sizeof name; c++)
            if ((*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z'))
                name[k++] = *c;
            else if (k > 0 && name[k - 1] != '_')
                name[k++] = '_';
        while (k > 7 && name[k - 1] == '_')
            k--;
        name[k] = '\0';
        r->nodes[n].core = r->api->create(name);
        if (!r->nodes[n].core) {
            noc_oom("the RTL cores", 0);
        }
    }
}

static void free_cores(const struct noc_sim *s, rtl_state_t *r)
{
    if (r->nodes && r->api)
        for (int n = 0; n < s->graph->n_nodes; n++)
            if (r->nodes[n].core) {
                r->api->destroy(r->nodes[n].core);
                r->nodes[n].core = NULL;
            }
}

static uint64_t heap_in_use(void)
{
    struct mallinfo2 m = mallinfo2();
    return (uint64_t)m.uordblks + (uint64_t)m.hblkhd;
}

/* The bytes of n Verilated cores with P ports, V VCs and `depth` flits a
 * VC, as the C library counts them (mallinfo2): the model is loaded (built
 * first if need be: a run needs it anyway) and SAMPLE cores are made and
 * freed. The first ones also pay what the model needs once (Verilator's
 * context), and may reuse small blocks the C library keeps cached (which
 * mallinfo2 counts as in use already), so a core's bytes are those of the
 * last ones. Without a model or that count (a sanitizer's allocator), a
 * lower bound: the cores' flit slots. */
#define SAMPLE 10
static uint64_t cores_bytes(const struct noc_sim *s, uint64_t n, uint64_t P, uint64_t V, uint64_t depth)
{
    noc_rtl_model_t m;
    char err[8];
    void *core[SAMPLE] = { NULL };
    uint64_t slots = n * P * V * depth * 16, at[SAMPLE + 1];
    at[0] = heap_in_use();
    if (noc_rtl_model_load(&m, (int)P, (int)V, (int)depth, s->graph->n_vclasses,
                           strcmp(s->cfg.arb_type, "matrix") == 0, 0, err, sizeof err) != 0)
        return slots;
    int made = 0;
    char name[32];
    /* names of their own: the model registers a core's scopes by name */
    while (made < SAMPLE && snprintf(name, sizeof name, "router_12_34_%d", made) > 0 &&
           (core[made] = m.api->create(name)) != NULL)
        at[++made] = heap_in_use();
    while (made > 0)
        m.api->destroy(core[--made]);
    noc_rtl_model_unload(&m);
    if (!core[SAMPLE - 1] || at[SAMPLE] <= at[SAMPLE / 2])
        return slots;
    uint64_t per = (at[SAMPLE] - at[SAMPLE / 2]) / (SAMPLE - SAMPLE / 2);
    uint64_t first = at[SAMPLE / 2] - at[0], once = first > per * (SAMPLE / 2) ? first - per * (SAMPLE / 2) : 0;
    return once + n * per;
}

/* The C side's state (create's allocations), and the Verilated cores, one
 * per node, measured (cores_bytes), unless create will refuse the run. */
static uint64_t rtl_bytes(const struct noc_sim *s)
{
    const noc_graph_t *gr = s->graph;
    uint64_t V = (uint64_t)s->cfg.num_vcs, depth = (uint64_t)s->cfg.vc_buf_size;
    uint64_t lanes = s->lane_chans ? (uint64_t)s->lanes - 1 : 0, P = (uint64_t)gr->max_degree + 1 + lanes;
    uint64_t qcap = 1;
    while (qcap < depth)
        qcap <<= 1;
    uint64_t N = (uint64_t)gr->n_nodes, np = N * P, nv = np * V;
    uint64_t b = sizeof(rtl_state_t) + N * sizeof(rtl_node_t) + (uint64_t)gr->n_ports * sizeof(int32_t);
    b += np * (4 + 4 + 1 + 4 + 4 + sizeof(noc_flit_t)) + nv * (2 + 2 + 2) + nv * qcap * sizeof(noc_flit_t);
    char err[256];
    if (check_config(s, err, sizeof err) != 0)
        return b; /* create refuses it: no core to build for the estimate */
    return b + cores_bytes(s, N, P, V, depth);
}

static int rtl_create(struct noc_sim *s, char *err, size_t errlen)
{
    const noc_graph_t *gr = s->graph;
    const noc_config_t *c = &s->cfg;
    if (check_config(s, err, errlen) != 0)
        return -1;
    rtl_state_t *r = noc_xcalloc(1, sizeof *r, "rtl router");
    s->rstate = r;
    r->V = (int)c->num_vcs;
    r->depth = (int)c->vc_buf_size;
    r->lane_ports = s->lane_chans ? s->lanes - 1 : 0;
    r->max_ports = gr->max_degree + 1 + r->lane_ports;
    r->out_delay = (int)(c->sw_alloc_delay + c->st_final_delay);
    r->qcap = 1;
    while (r->qcap < (uint32_t)r->depth)
        r->qcap <<= 1;
    r->qmask = r->qcap - 1;
    r->arb = strcmp(c->arb_type, "matrix") == 0;
    if (noc_rtl_model_load(&r->model, r->max_ports, r->V, r->depth, gr->n_vclasses, r->arb, 0, err, errlen) != 0) {
        rtl_destroy(s);
        return -1;
    }
    r->api = r->model.api;

    size_t np = (size_t)gr->n_nodes * (size_t)r->max_ports, nv = np * (size_t)r->V;
    r->nodes = noc_xcalloc((size_t)gr->n_nodes, sizeof *r->nodes, "rtl router");
    r->port_node = noc_xcalloc((size_t)gr->n_ports, sizeof *r->port_node, "rtl router");
    r->up_chan = noc_xcalloc(np, sizeof *r->up_chan, "rtl router");
    r->up_node = noc_xcalloc(np, sizeof *r->up_node, "rtl router");
    r->up_bit = noc_xcalloc(np, sizeof *r->up_bit, "rtl router");
    r->occ = noc_xcalloc(np, sizeof *r->occ, "rtl router");
    r->peak = noc_xcalloc(np, sizeof *r->peak, "rtl router");
    r->pend_flit = noc_xcalloc(np, sizeof *r->pend_flit, "rtl router");
    r->head = noc_xcalloc(nv, sizeof *r->head, "rtl router");
    r->tail = noc_xcalloc(nv, sizeof *r->tail, "rtl router");
    r->credits = noc_xcalloc(nv, sizeof *r->credits, "rtl router");
    r->buf = noc_xcalloc(nv * r->qcap, sizeof *r->buf, "rtl router");
    for (int n = 0; n < gr->n_nodes; n++) {
        rtl_node_t *nd = &r->nodes[n];
        nd->base = gr->port_base[n];
        nd->Pt = gr->port_base[n + 1] - gr->port_base[n];
        nd->P = nd->Pt + r->lane_ports;
        for (int p = 0; p < nd->Pt; p++)
            r->port_node[nd->base + p] = n;
        for (int p = 0; p < nd->P; p++) {
            size_t i = (size_t)n * (size_t)r->max_ports + (size_t)p;
            if (p < nd->Pt) {
                int up = s->in_chan[nd->base + p];
                r->up_chan[i] = up;
                r->up_node[i] = s->chan_from[up];
                r->up_bit[i] = s->chan_out_port[up];
            } else { /* a lane port: in from the NI, no output */
                r->up_chan[i] = noc_lane_chan(s, n, p - nd->Pt + 1);
                r->up_node[i] = n;
                r->up_bit[i] = NOC_NI_BIT;
            }
            for (int v = 0; v < r->V; v++)
                r->credits[ivc_index(r, n, p, v)] = (int16_t)r->depth;
        }
    }
    make_cores(s, r);
    if (c->rtl_toggles) /* (the copy of each core's flip-flops: before the first cycle) */
        for (int n = 0; n < gr->n_nodes; n++)
            r->api->count_toggles(r->nodes[n].core, 1);
    return 0;
}

/* Programs keep their waits (model/waits.c): arrival cycles of the
 * mirror's flits, and when each input VC's front head got there. */
static void rtl_waits_on(struct noc_sim *s)
{
    rtl_state_t *r = s->rstate;
    size_t nv = (size_t)s->graph->n_nodes * (size_t)r->max_ports * (size_t)r->V;
    if (!r->arrive) {
        r->arrive = noc_xcalloc(nv * r->qcap, sizeof *r->arrive, "rtl router");
        r->front_at = noc_xcalloc(nv, sizeof *r->front_at, "rtl router");
        r->bid_seen = noc_xcalloc(nv, sizeof *r->bid_seen, "rtl router");
    }
}

static void rtl_destroy(struct noc_sim *s)
{
    rtl_state_t *r = s->rstate;
    if (!r)
        return;
    if (r->tracing)
        (void)r->api->trace_close(); /* a recording given up: its file is removed by waves/ */
    free_cores(s, r);
    noc_rtl_model_unload(&r->model);
    free(r->traced);
    free(r->nodes);
    free(r->port_node);
    free(r->up_chan);
    free(r->up_node);
    free(r->up_bit);
    free(r->occ);
    free(r->peak);
    free(r->pend_flit);
    free(r->head);
    free(r->tail);
    free(r->credits);
    free(r->buf);
    free(r->arrive);
    free(r->front_at);
    free(r->bid_seen);
    free(r);
    s->rstate = NULL;
}

static _Noreturn void diverged(const struct noc_sim *s, int n, int o, const char *what)
{
    char lab[64];
    noc_graph_label(s->graph, n, lab, sizeof lab);
    fprintf(stderr, "noctua: --router rtl: cycle %" PRIu64 ", router %s, output port %d: %s\n", s->now, lab, o, what);
    abort();
}

/* The core's inputs from slot `at` of node n's channels (read, left in
 * place: eval takes them in that cycle). Returns 0 if there are none. */
static int gather(struct noc_sim *s, rtl_state_t *r, int n, const rtl_node_t *nd, uint64_t at)
{
    noc_rtl_in_t *in = &r->in;
    const noc_graph_t *gr = s->graph;
    uint32_t slot = noc_chan_slot(s, at), a = noc_chan_at(s, n, slot);
    uint64_t fl = noc_chan_flits_in(s, a) & ~NOC_NI_MASK, cr = noc_chan_credits_in(s, a) & ~NOC_NI_MASK;
    in->valid = in->head = in->tail = 0;
    memset(in->credit, 0, sizeof in->credit);
    for (uint64_t b = fl; b; b &= b - 1) {
        int p = __builtin_ctzll(b);
        int c = r->up_chan[(size_t)n * (size_t)r->max_ports + (size_t)p];
        const noc_flit_t *f = noc_chan_flit_at(s, c, slot);
        assert(f != NULL);
        uint64_t pb = UINT64_C(1) << p;
        in->valid |= pb;
        in->vc[p] = f->vc;
        in->data[p].data = (uint64_t)f->data;
        in->data[p].tag = (uint64_t)f->pkt | (uint64_t)f->seq << 32 | (uint64_t)f->hops << 48;
        if (f->flags & NOC_FLIT_HEAD) {
            /* the route at this router travels with the head (the core
             * knows no topology) */
            noc_route_t rt;
            noc_graph_route_pkt(gr, s->pkts, f->pkt, n, f->dst, f->hops, &rt);
            in->head |= pb;
            in->port[p] = (uint8_t)rt.port;
            in->cls[p] = (uint8_t)(rt.port ? rt.vclass : 0);
        }
        if (f->flags & NOC_FLIT_TAIL)
            in->tail |= pb;
    }
    int V = r->V;
    for (uint64_t b = cr; b; b &= b - 1) {
        int o = __builtin_ctzll(b);
        const uint8_t *k = noc_chan_credits_at(s, nd->base + o, slot);
        for (int v = 0; v < V; v++)
            if (k[v]) {
                if (k[v] > 1)
                    diverged(s, n, o, "two credits for one VC in one cycle (the core takes one)");
                int bit = o * V + v;
                in->credit[bit / 64] |= UINT64_C(1) << (bit % 64);
            }
    }
    return (fl | cr) != 0;
}

/* Clock node n's core with r->in; the flits its output registers then hold
 * (the crossings of the cycle clocked) go into their links, arriving
 * `delay` cycles after the crossing. */
static void clock_core(struct noc_sim *s, rtl_state_t *r, int n, rtl_node_t *nd)
{
    noc_rtl_out_t *out = &r->out;
    r->api->cycle(nd->core, &r->in, out, &nd->taps);
    if (out->toggles && noc_measuring(s)) /* (0 unless rtl_toggles=1) */
        nd->toggles += out->toggles;
    if (out->valid != nd->pend)
        diverged(s, n, __builtin_ctzll(out->valid ^ nd->pend),
                 out->valid & ~nd->pend ? "a flit out of no input VC" : "a crossing without a flit out");
    nd->pend = 0;
    for (uint64_t b = out->valid; b; b &= b - 1) {
        int o = __builtin_ctzll(b), og = nd->base + o;
        noc_flit_t *f = &r->pend_flit[(size_t)n * (size_t)r->max_ports + (size_t)o];
        const noc_rtl_payload_t *d = &out->data[o];
        uint8_t flags = (uint8_t)(((out->head >> o) & 1) * NOC_FLIT_HEAD | ((out->tail >> o) & 1) * NOC_FLIT_TAIL);
        if (d->data != (uint64_t)f->data || (uint32_t)d->tag != f->pkt || (uint16_t)(d->tag >> 32) != f->seq ||
            (uint16_t)(d->tag >> 48) != f->hops || flags != f->flags)
            diverged(s, n, o, "the flit out is not the one at the front of the input VC that crossed");
        int ov = out->vc[o], hop = o != 0;
        f->vc = (uint8_t)ov;
        f->hops = (uint16_t)(f->hops + hop);
        /* the ejection port's sink always accepts: no credits there */
        r->credits[ivc_index(r, n, o, ov)] = (int16_t)(r->credits[ivc_index(r, n, o, ov)] - hop);
        uint32_t fslot = noc_chan_slot(s, s->now + (uint64_t)r->out_delay + s->chan_delay[og]);
        /* (the flit became work of `to` at the crossing) */
        if (!noc_chan_place_flit(s, og, fslot, s->chan_to[og], s->chan_in_port[og], f))
            diverged(s, n, o, "two flits on one link in one cycle");
    }
}

/* The flits and credits arriving at node n this cycle: into the mirror and
 * the credit counts (the core took them when it was clocked last cycle). */
static void arrivals(struct noc_sim *s, rtl_state_t *r, int n, rtl_node_t *nd)
{
    uint32_t slot = noc_chan_slot(s, s->now), a = noc_chan_at(s, n, slot);
    uint64_t fl = noc_chan_flits_in(s, a) & ~NOC_NI_MASK, cr = noc_chan_credits_in(s, a) & ~NOC_NI_MASK;
    if (!(fl | cr))
        return;
    /* the NI bits are the NI's, which evaluated first */
    noc_chan_flits_seen(s, a, ~NOC_NI_MASK);
    noc_chan_credits_seen(s, a, ~NOC_NI_MASK);
    int total = noc_chan_pop_port_credits(s, nd->base, cr, slot, &r->credits[ivc_index(r, n, 0, 0)]);
    if (total)
        noc_work_sub(s, n, total);
    for (uint64_t b = fl; b; b &= b - 1) {
        int p = __builtin_ctzll(b);
        size_t pi = (size_t)n * (size_t)r->max_ports + (size_t)p;
        int c = r->up_chan[pi];
        const noc_flit_t *f = noc_chan_pop_flit(s, c, slot);
        assert(f != NULL);
        size_t i = ivc_index(r, n, p, f->vc);
        if (s->occ)
            noc_occ_add(s->occ, n, s->now, 1, r->head[i] == r->tail[i]);
        if (r->arrive) {
            r->arrive[(size_t)(ivc_slot(r, i, r->tail[i]) - r->buf)] = (uint32_t)s->now;
            if (r->head[i] == r->tail[i]) { /* a head at the front of an empty VC */
                r->front_at[i] = (uint32_t)s->now;
                r->bid_seen[i] = 0;
            }
        }
        *ivc_slot(r, i, r->tail[i]) = *f;
        r->tail[i]++;
        nd->buffered++;
        int occ = ++r->occ[pi];
        if (s->measuring && occ > r->peak[pi]) {
            r->peak[pi] = occ;
            s->lst[c].peak_queue = (uint32_t)occ;
        }
    }
}

static const noc_flit_t *front(const rtl_state_t *r, int n, int l)
{
    size_t i = (size_t)n * (size_t)r->max_ports * (size_t)r->V + (size_t)l;
    return ivc_slot(r, i, r->head[i]);
}

/* Programs: the head behind the tail that just left input VC i is at the
 * front from the next cycle; it waited behind that packet since it
 * arrived (at the buffer of channel c). */
static void next_head(struct noc_sim *s, rtl_state_t *r, size_t i, int c)
{
    const noc_flit_t *nf = ivc_slot(r, i, r->head[i]);
    uint32_t next = (uint32_t)s->now + 1;
    noc_wait_pkt(s, NOC_WAIT_BUFFER, nf->pkt, c, next - r->arrive[(size_t)(nf - r->buf)]);
    r->front_at[i] = next;
    r->bid_seen[i] = 0;
}

/* Programs: the VA stage is inside the core, so its waits are read off
 * the first cycle a front head bids for the switch: routed in its first
 * cycle at the front, granted a VC the next at the earliest, it bids a
 * cycle later (the one pipeline the wrapper accepts); every cycle past
 * that it waited for an output VC. */
static void first_bids(struct noc_sim *s, rtl_state_t *r, int n, int base, const noc_rtl_taps_t *tp, int W)
{
    for (int w = 0; w < W; w++)
        for (uint64_t b = tp->bid[w]; b; b &= b - 1) {
            int l = 64 * w + __builtin_ctzll(b);
            size_t i = ivc_index(r, n, l / r->V, l % r->V);
            const noc_flit_t *f = ivc_slot(r, i, r->head[i]);
            if (r->bid_seen[i] || !(f->flags & NOC_FLIT_HEAD))
                continue;
            r->bid_seen[i] = 1;
            noc_wait_pkt(s, NOC_WAIT_VC, f->pkt, base + tp->port[l], (uint32_t)s->now - r->front_at[i] - 2);
        }
}

/* The switch stage of this cycle, as the core's taps tell it: the crossings
 * leave the mirror and send their credits upstream; the link statistics
 * count them, the credit stalls, the contention and (programs) the waits. */
static void crossings(struct noc_sim *s, rtl_state_t *r, int n, rtl_node_t *nd)
{
    const noc_rtl_taps_t *tp = &nd->taps;
    int W = (nd->P * r->V + 63) / 64, V = r->V, base = nd->base;
    uint64_t any = 0;
    for (int w = 0; w < W; w++)
        any |= tp->bid[w];
    if (!any)
        return;
    uint64_t used = 0, stalled = 0, wanted = 0, wanted2 = 0;
    int n_cross = 0;
    uint32_t cslot = noc_chan_slot(s, s->now + s->credit_delay);
    size_t rows = (size_t)s->n_chan;
    if (r->arrive)
        first_bids(s, r, n, base, tp, W);
    for (int w = 0; w < W; w++) {
        for (uint64_t b = tp->bid[w]; b; b &= b - 1) {
            int l = 64 * w + __builtin_ctzll(b), o = tp->port[l];
            uint64_t ob = UINT64_C(1) << o;
            wanted2 |= wanted & ob;
            wanted |= ob;
            if (!((tp->ready[w] >> (l % 64)) & 1)) {
                stalled |= ob;
                if (s->step_flits)
                    noc_wait_pkt(s, NOC_WAIT_CREDIT, front(r, n, l)->pkt, base + o, 1);
            }
        }
        for (uint64_t b = tp->cross[w]; b; b &= b - 1) {
            int l = 64 * w + __builtin_ctzll(b), p = l / V, v = l % V, o = tp->port[l];
            size_t pi = (size_t)n * (size_t)r->max_ports + (size_t)p;
            size_t i = ivc_index(r, n, p, v);
            if (r->head[i] == r->tail[i])
                diverged(s, n, o, "a crossing from an empty input VC");
            noc_flit_t *f = &r->pend_flit[(size_t)n * (size_t)r->max_ports + (size_t)o];
            *f = *ivc_slot(r, i, r->head[i]);
            r->head[i]++;
            if (r->arrive && (f->flags & NOC_FLIT_TAIL) && r->head[i] != r->tail[i])
                next_head(s, r, i, r->up_chan[pi]);
            r->occ[pi]--;
            nd->buffered--;
            if (s->occ)
                noc_occ_add(s->occ, n, s->now, -1, -(r->head[i] == r->tail[i]));
            used |= UINT64_C(1) << o;
            n_cross++;
            /* the flit is work of the node it goes to from now (the order in
             * which nodes get work is that of routers/vc, so the kernel's
             * active list, and all that follows its order, is the same) */
            noc_work_add(s, s->chan_to[base + o], 1);
            /* the credit goes back up the channel that feeds p */
            noc_chan_send_credit_to(s, r->up_chan[pi], v, cslot, r->up_node[pi], r->up_bit[pi]);
            if (s->measuring) {
                noc_link_stats_t *ls = &s->lst[base + o];
                ls->flits++;
                ls->heads += f->flags & NOC_FLIT_HEAD;
                ls->busy++;
                if (s->step_flits)
                    s->step_flits[(size_t)s->pkts[f->pkt].step * rows + (size_t)(base + o)]++;
            }
        }
    }
    if (s->step_flits) /* a VC ready to cross that did not: its link went to another, or it lost at its input */
        for (int w = 0; w < W; w++)
            for (uint64_t b = tp->ready[w] & ~tp->cross[w]; b; b &= b - 1) {
                int l = 64 * w + __builtin_ctzll(b), o = tp->port[l];
                noc_wait_pkt(s, (used >> o) & 1 ? NOC_WAIT_LINK : NOC_WAIT_SWITCH, front(r, n, l)->pkt, base + o, 1);
            }
    if (s->measuring) {
        for (uint64_t b = wanted2 & ~UINT64_C(1); b; b &= b - 1)
            s->lst[base + __builtin_ctzll(b)].contention++;
        for (uint64_t b = stalled; b; b &= b - 1)
            s->lst[base + __builtin_ctzll(b)].credit_stall++;
    }
    if (n_cross) {
        nd->pend = used;
        noc_work_sub(s, n, n_cross);
        s->last_move = s->now;
    }
}

/* Tracing: a core is shown as hardware would be, clocked every cycle; those
 * whose clock was skipped last cycle (nothing in them) are clocked now for
 * it, with its inputs (at most credits: see rtl_eval), before any other
 * evaluation of this cycle, so that their output registers fall back to
 * idle in the trace. */
static void trace_settle(struct noc_sim *s, rtl_state_t *r)
{
    r->settled = s->now + 1;
    if (s->now == 0)
        return;
    for (int i = 0; i < r->n_traced; i++) {
        int n = r->traced[i];
        rtl_node_t *nd = &r->nodes[n];
        if (nd->clocked < s->now) {
            gather(s, r, n, nd, s->now);
            clock_core(s, r, n, nd);
            nd->clocked = s->now;
        }
    }
}

static void rtl_eval(struct noc_sim *s, int n)
{
    rtl_state_t *r = s->rstate;
    rtl_node_t *nd = &r->nodes[n];
    if (r->tracing && r->settled <= s->now)
        trace_settle(s, r);
    if (nd->clocked < s->now && gather(s, r, n, nd, s->now)) {
        /* skipped last cycle, when a credit was written for it: clock that
         * cycle now (the core held nothing, so nothing leaves it) */
        clock_core(s, r, n, nd);
        nd->clocked = s->now;
    }
    arrivals(s, r, n, nd);
    crossings(s, r, n, nd);
}

static void rtl_commit(struct noc_sim *s, int n)
{
    rtl_state_t *r = s->rstate;
    rtl_node_t *nd = &r->nodes[n];
    if (r->tracing && r->dumped <= s->now) {
        /* the first commit of the cycle, before any core is clocked: every
         * traced core's registers are those of this cycle (trace_settle) */
        if (s->now >= r->trace_from && s->now <= r->trace_to)
            r->api->trace_dump(s->now);
        r->dumped = s->now + 1;
    }
    if (!gather(s, r, n, nd, s->now + 1) && nd->buffered == 0 && !nd->pend) {
        /* Nothing in the core, nothing coming in: the clock would change
         * nothing but its (unread) output registers, so it is skipped, as
         * for a node without work; what the taps would show is nothing. */
        memset(nd->taps.cross, 0, sizeof nd->taps.cross);
        memset(nd->taps.bid, 0, sizeof nd->taps.bid);
        memset(nd->taps.ready, 0, sizeof nd->taps.ready);
        return;
    }
    clock_core(s, r, n, nd);
    nd->clocked = s->now + 1;
}

static uint64_t rtl_toggles(const struct noc_sim *s, int n)
{
    const rtl_state_t *r = s->rstate;
    return r->nodes[n].toggles;
}

int noc_rtl_core_ports(const noc_sim_t *s)
{
    return s->rops == &noc_router_rtl ? ((const rtl_state_t *)s->rstate)->max_ports : -1;
}

int noc_rtl_core_registers(const noc_sim_t *s, int n, uint16_t *credits, uint16_t *usage)
{
    if (s->rops != &noc_router_rtl)
        return -1;
    const rtl_state_t *r = s->rstate;
    const rtl_node_t *nd = &r->nodes[n];
    r->api->observe(nd->core, credits, usage);
    return nd->clocked == s->now;
}

/* Mirror index of VC v of global port g. */
static size_t port_ivc(const struct noc_sim *s, int g, int v)
{
    const rtl_state_t *r = s->rstate;
    int n = r->port_node[g];
    return ivc_index(r, n, g - s->graph->port_base[n], v);
}

static int rtl_credits(const struct noc_sim *s, int g, int v)
{
    const rtl_state_t *r = s->rstate;
    return r->credits[port_ivc(s, g, v)];
}

static int rtl_occupancy(const struct noc_sim *s, int g, int v)
{
    const rtl_state_t *r = s->rstate;
    size_t i = port_ivc(s, g, v);
    return (uint16_t)(r->tail[i] - r->head[i]);
}

static int rtl_lane_occupancy(const struct noc_sim *s, int n, int lane, int v)
{
    const rtl_state_t *r = s->rstate;
    size_t i = ivc_index(r, n, r->nodes[n].Pt + lane - 1, v);
    return (uint16_t)(r->tail[i] - r->head[i]);
}

static int rtl_depth(const struct noc_sim *s)
{
    const rtl_state_t *r = s->rstate;
    return r->depth;
}

static void rtl_visit(const struct noc_sim *s, int n, noc_flit_visit_fn fn, void *ctx)
{
    const rtl_state_t *r = s->rstate;
    const rtl_node_t *nd = &r->nodes[n];
    for (int p = 0; p < nd->P; p++)
        for (int v = 0; v < r->V; v++) {
            size_t i = ivc_index(r, n, p, v);
            /* (a lane port's flits are named by the node's local port) */
            int g = nd->base + (p < nd->Pt ? p : 0);
            for (uint16_t k = r->head[i]; k != r->tail[i]; k++)
                fn(ctx, ivc_slot(r, i, k), g, v);
        }
}

/* --waves with --router rtl: the cores of the nodes in scope record their
 * insides (every register and wire, Verilator's tracing) into an FST file of
 * their own, sampled once a cycle at the time noctua's wave file gives that
 * cycle. That needs the traced build of the core: the cores (still at
 * reset: this is before the first cycle) are made again from it. */
static int rtl_trace_open(struct noc_sim *s, const char *path, const uint8_t *in_scope, uint64_t from, uint64_t to,
                          char *err, size_t errlen)
{
    rtl_state_t *r = s->rstate;
    if (s->now != 0) {
        snprintf(err, errlen, "--router rtl: the cores' trace must start before the first cycle");
        return -1;
    }
    if (!r->api->traced) {
        noc_rtl_model_t traced;
        if (noc_rtl_model_load(&traced, r->max_ports, r->V, r->depth, s->graph->n_vclasses, r->arb, 1, err,
                               errlen) != 0)
            return -1;
        free_cores(s, r);
        noc_rtl_model_unload(&r->model);
        r->model = traced;
        r->api = r->model.api;
        make_cores(s, r);
    }
    r->traced = noc_xcalloc((size_t)s->graph->n_nodes, sizeof *r->traced, "rtl router");
    r->n_traced = 0;
    for (int n = 0; n < s->graph->n_nodes; n++)
        if (in_scope[n]) {
            r->api->trace_add(r->nodes[n].core);
            r->traced[r->n_traced++] = n;
        }
    if (r->api->trace_open(path) != 0) {
        snprintf(err, errlen, "cannot write the cores' trace");
        return -1;
    }
    r->tracing = 1;
    r->trace_from = from;
    r->trace_to = to;
    r->dumped = 0;
    return 0;
}

static int rtl_trace_close(struct noc_sim *s)
{
    rtl_state_t *r = s->rstate;
    if (!r->tracing)
        return 0;
    if (r->settled <= s->now)
        trace_settle(s, r);
    if (r->dumped <= s->now && s->now >= r->trace_from && s->now <= r->trace_to)
        r->api->trace_dump(s->now); /* the state the run ended in */
    r->tracing = 0;
    return r->api->trace_close();
}

const noc_router_ops_t noc_router_rtl = {
    .name = "rtl",
    .help = "the Verilog router core rtl/noc_vc_router.sv, Verilated, as the datapath of every router "
            "(the default pipeline of vc; cycle for cycle the same)",
    .create = rtl_create,
    .bytes = rtl_bytes,
    .destroy = rtl_destroy,
    .eval = rtl_eval,
    .commit = rtl_commit,
    .credits = rtl_credits,
    .occupancy = rtl_occupancy,
    .depth = rtl_depth,
    .visit = rtl_visit,
    .lane_ports = 1,
    .lane_occupancy = rtl_lane_occupancy,
    .trace_open = rtl_trace_open,
    .trace_close = rtl_trace_close,
    .waits_on = rtl_waits_on,
    .toggles = rtl_toggles,
};
