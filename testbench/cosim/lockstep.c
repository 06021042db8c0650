/* lockstep.c: the RTL datapath (routers/rtl: the Verilated core in every
 * router) against the C router (routers/vc), a whole fabric at a time, cycle
 * for cycle (docs/rtl.md, "Lockstep"; ctest lockstep.*; the long run is
 * tools/lockstep_all.sh).
 *
 * Two simulators of the same fabric, configuration and traffic (synthetic, or
 * a program carrying real data) run side by side in one process, one with
 * router=vc, one with router=rtl. After every cycle, every slot of every
 * channel is compared: each flit a router (or NI) sent, with its packet,
 * index, data word, VC, head/tail and hop count, and each credit a router
 * returned, per VC; and every router's buffered flits and credits per port and
 * VC. Since everything a router puts out lands in a channel slot, this checks
 * every output flit and credit on every port in every cycle. The first
 * difference stops the run with the cycle, the router's label, the port, the
 * VC and both values.
 *
 *   lockstep [--cycles N] [SPEC] [key=value ...] [--program NAME [options] | --program-file FILE]
 *
 * Synthetic traffic runs N cycles (default 2000); a program runs to its end
 * (at most N cycles, default unlimited), and both must finish with the right
 * result. Exit status: 0 identical, 1 a difference, 2 bad input. */
#include "cli/cli.h"
#include "model/pe.h"
#include "model/sim_internal.h"
#include "routers/registry.h"
#include "routers/rtl/rtl_core.h"
#include "routers/rtl/rtl_router.h"
#include "traffic/synthetic.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct side {
    noc_config_t cfg;
    noc_sim_t *s;
    noc_synthetic_t syn;
} side_t;

typedef struct tally {
    uint64_t flits, credits;
    uint64_t registers; /* core register values compared (credits and FIFO fills) */
} tally_t;

static void label(const noc_graph_t *g, int n, char *buf, size_t len)
{
    noc_graph_label(g, n, buf, len);
}

/* Who writes the flits of channel c (and reads its credits), and from which
 * port: a router's output port, or node n's NI. */
static void writer(const noc_sim_t *s, int c, char *buf, size_t len)
{
    const noc_graph_t *t = s->graph;
    char lab[64];
    int n = s->chan_from[c];
    label(t, n, lab, sizeof lab);
    if (c < s->n_ports)
        snprintf(buf, len, "router %s, output port %d", lab, c - t->port_base[n]);
    else
        snprintf(buf, len, "the NI of %s, injection lane %d", lab,
                 c < s->n_ports + s->n_nodes ? 0 : 1 + (c - s->n_ports - s->n_nodes) % (s->lanes - 1));
}

static void flit_str(const noc_sim_t *s, int valid, const noc_flit_t *f, char *buf, size_t len)
{
    if (!valid) {
        snprintf(buf, len, "no flit");
        return;
    }
    snprintf(buf, len, "flit %u of packet %" PRIu64 " (slot %u) to node %d, VC %u%s%s, data %" PRId64 ", hops %u",
             f->seq, f->pkt < s->pkt_fresh ? s->pkts[f->pkt].id : 0, f->pkt, f->dst, f->vc,
             (f->flags & NOC_FLIT_HEAD) ? ", head" : "", (f->flags & NOC_FLIT_TAIL) ? ", tail" : "", f->data,
             f->hops);
}

/* The same flit: the same packet (by its id: the pool slot it occupies is
 * the simulator's own business, and the order in which nodes free slots
 * follows the order of its active list), index, data, VC, flags, hops. */
static int same_flit(const noc_sim_t *a, const noc_flit_t *x, const noc_sim_t *b, const noc_flit_t *y)
{
    return a->pkts[x->pkt].id == b->pkts[y->pkt].id && x->seq == y->seq && x->dst == y->dst && x->data == y->data &&
           x->vc == y->vc && x->flags == y->flags && x->hops == y->hops && x->la_port == y->la_port &&
           x->la_class == y->la_class;
}

/* Compare a and b after cycle T; 0 if the same, else print the first
 * difference and return 1. */
static int compare(const noc_sim_t *a, const noc_sim_t *b, uint64_t T)
{
    const noc_graph_t *t = a->graph;
    uint32_t cap = a->cap, V = (uint32_t)a->V;
    char who[160], x[200], y[200];
    for (int c = 0; c < a->n_chan; c++) {
        for (uint32_t k = 0; k < cap; k++) {
            uint32_t i = (uint32_t)c * cap + k;
            uint64_t when = a->now + ((k - a->now) & a->mask); /* the cycle this slot arrives */
            int va = a->ring_valid[i], vb = b->ring_valid[i];
            if (va != vb || (va && !same_flit(a, &a->ring_flit[i], b, &b->ring_flit[i]))) {
                writer(a, c, who, sizeof who);
                flit_str(a, va, &a->ring_flit[i], x, sizeof x);
                flit_str(b, vb, &b->ring_flit[i], y, sizeof y);
                printf("lockstep: cycle %" PRIu64 ": %s, the flit that arrives in cycle %" PRIu64
                       ":\n  vc:  %s\n  rtl: %s\n", T, who, when, x, y);
                return 1;
            }
            for (uint32_t v = 0; v < V; v++) {
                uint8_t ka = a->ring_credit[(size_t)i * V + v], kb = b->ring_credit[(size_t)i * V + v];
                if (ka != kb) {
                    int r = a->chan_to[c];
                    label(t, r, x, sizeof x);
                    printf("lockstep: cycle %" PRIu64 ": router %s, credits returned from input port %d, VC %u, "
                           "arriving in cycle %" PRIu64 ": vc %u, rtl %u\n",
                           T, x, a->chan_in_gport[c] >= 0 ? a->chan_in_gport[c] - t->port_base[r] : -1, v, when,
                           ka, kb);
                    return 1;
                }
            }
        }
    }
    for (int g = 0; g < t->n_ports; g++) {
        int n = 0;
        while (t->port_base[n + 1] <= g)
            n++;
        for (int v = 0; v < a->V; v++) {
            int oa = a->rops->occupancy(a, g, v), ob = b->rops->occupancy(b, g, v);
            int ca = a->rops->credits(a, g, v), cb = b->rops->credits(b, g, v);
            if (oa != ob || ca != cb) {
                label(t, n, x, sizeof x);
                printf("lockstep: cycle %" PRIu64 ": router %s, port %d, VC %d: vc holds %d flits and %d credits, "
                       "rtl %d and %d\n", T, x, g - t->port_base[n], v, oa, ca, ob, cb);
                return 1;
            }
        }
    }
    if (a->in_network != b->in_network || a->last_move != b->last_move) {
        printf("lockstep: cycle %" PRIu64 ": flits in the network vc %" PRIu64 ", rtl %" PRIu64
               "; last move vc %" PRIu64 ", rtl %" PRIu64 "\n",
               T, a->in_network, b->in_network, a->last_move, b->last_move);
        return 1;
    }
    return 0;
}

/* The cores' own registers (routers/rtl/rtl_router.h) against routers/vc
 * after cycle T: each input VC's FIFO fill and each output VC's credit
 * count. A core clocked for T has taken what arrives in T+1 already: its
 * fill is vc's occupancy plus a flit arriving now on that VC, its credits
 * vc's plus the credits arriving now; a core whose clock was skipped holds
 * just vc's. (The ejection port keeps no credit count.) 0 if the same, else
 * print the first difference and return 1. */
static int compare_registers(const noc_sim_t *a, const noc_sim_t *b, uint64_t T, tally_t *tl)
{
    const noc_graph_t *t = a->graph;
    int P = noc_rtl_core_ports(b), V = a->V;
    uint16_t cred[NOC_RTL_MAX_L], use[NOC_RTL_MAX_L];
    uint32_t slot = (uint32_t)(a->now & a->mask);
    char x[64];
    for (int n = 0; n < t->n_nodes; n++) {
        int current = noc_rtl_core_registers(b, n, cred, use);
        int Pn = t->port_base[n + 1] - t->port_base[n];
        for (int p = 0; p < Pn; p++) {
            int g = t->port_base[n] + p;
            int cin = a->in_chan[g];
            size_t in = (size_t)cin * a->cap + slot, out = (size_t)g * a->cap + slot;
            for (int v = 0; v < V; v++) {
                int occ = a->rops->occupancy(a, g, v), cr = a->rops->credits(a, g, v);
                if (current) {
                    occ += cin >= 0 && a->ring_valid[in] && a->ring_flit[in].vc == v;
                    cr += a->ring_credit[out * (size_t)V + (size_t)v];
                }
                int l = p * V + v;
                if (use[l] != occ || (p > 0 && cred[l] != cr)) {
                    label(t, n, x, sizeof x);
                    printf("lockstep: cycle %" PRIu64 ": router %s, port %d, VC %d: the core's registers hold "
                           "%u flits and %u credits, routers/vc %d and %d (with what arrives in cycle %" PRIu64
                           "%s)\n", T, x, p, v, use[l], cred[l], occ, cr, a->now,
                           current ? "" : ": none, the core's clock was skipped");
                    return 1;
                }
                tl->registers += p > 0 ? 2u : 1u;
            }
        }
        (void)P;
    }
    return 0;
}

/* Flits and credits arriving in this cycle (each counted once, on arrival). */
static void count(const noc_sim_t *s, tally_t *tl)
{
    uint32_t slot = (uint32_t)(s->now & s->mask);
    for (int c = 0; c < s->n_chan; c++) {
        uint32_t i = (uint32_t)c * s->cap + slot;
        tl->flits += s->ring_valid[i];
        for (int v = 0; v < s->V; v++)
            tl->credits += s->ring_credit[(size_t)i * (size_t)s->V + (size_t)v];
    }
}

static int program_done(const noc_sim_t *s)
{
    const noc_pe_stats_t *st = noc_pe_stats(noc_sim_pe(s));
    return st->ops_done == st->ops && s->in_network == 0;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: lockstep [--cycles N] [SPEC] [key=value ...] [--program NAME [options] | --program-file FILE]\n"
               "Runs SPEC with router=vc and router=rtl side by side and compares every flit and credit\n"
               "on every channel after every cycle (docs/rtl.md).\n");
}

/* The command line into cfg, po and *cycles: 0 to go on, 1 after --help
 * (exit 0), -1 after a message (exit 2). */
static int parse_args(int argc, char **argv, noc_config_t *cfg, noc_prog_opts_t *po, uint64_t *cycles)
{
    char err[600];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 1;
        } else if (strcmp(a, "--cycles") == 0 && i + 1 < argc) {
            *cycles = strtoull(argv[++i], NULL, 0);
        } else if (a[0] == '-' && a[1] != '\0') {
            int got = noc_prog_opts_parse(po, argc, argv, &i, err, sizeof err);
            if (got <= 0) {
                fprintf(stderr, "lockstep: %s\n", got < 0 ? err : "unknown option");
                usage(stderr);
                return -1;
            }
        } else if (strchr(a, '=') ? noc_app_set_arg(cfg, a, err, sizeof err) != 0
                                  : noc_config_set(cfg, "topology_spec", a, err, sizeof err) != 0) {
            fprintf(stderr, "lockstep: %s\n", err);
            return -1;
        }
    }
    if (po->timing || po->emit) {
        fprintf(stderr, "lockstep: --timing and --emit do not apply (both sides run the router pipeline)\n");
        return -1;
    }
    if (po->sync)
        cfg->sync_steps = strcmp(po->sync, "steps") == 0;
    if (!noc_prog_opts_wanted(po) && *cycles == 0)
        *cycles = 2000;
    return 0;
}

/* Both sides cycle by cycle until `cycles` (0: the program's end), compared
 * after each; the cycles run into *T. 0 when they agreed throughout (and
 * a program finished right on both), 1 with a message. */
static int lockstep(side_t *side, const char *const *routers, int program, uint64_t cycles, uint64_t *T,
                    tally_t *tl)
{
    noc_sim_t *a = side[0].s, *b = side[1].s;
    for (*T = 0; cycles == 0 || *T < cycles; (*T)++) {
        if (program && program_done(a) && program_done(b))
            break;
        count(a, tl);
        noc_sim_step(a);
        noc_sim_step(b);
        if (compare(a, b, *T) || compare_registers(a, b, *T, tl))
            return 1;
        if (program && (noc_pe_stalled(noc_sim_pe(a)) || noc_pe_stalled(noc_sim_pe(b)))) {
            printf("lockstep: cycle %" PRIu64 ": the program stalled (vc %d, rtl %d)\n", *T,
                   noc_pe_stalled(noc_sim_pe(a)), noc_pe_stalled(noc_sim_pe(b)));
            return 1;
        }
    }
    for (int k = 0; k < 2 && program; k++) {
        char err[600] = "";
        const noc_pe_t *pe = noc_sim_pe(side[k].s);
        if (!program_done(side[k].s) || noc_pe_finished(pe, err, sizeof err) != 0 ||
            noc_pe_check(side[k].s, err, sizeof err) != 0) {
            printf("lockstep: %s: the program did not finish right after %" PRIu64 " cycles%s%s\n", routers[k], *T,
                   program_done(side[k].s) ? ": " : "", program_done(side[k].s) ? err : "");
            return 1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    char err[600], spec[NOC_CONFIG_STR_MAX];
    noc_config_t cfg;
    noc_config_defaults(&cfg);
    noc_prog_opts_t po;
    noc_prog_opts_init(&po);
    uint64_t cycles = 0;
    int parsed = parse_args(argc, argv, &cfg, &po, &cycles);
    if (parsed)
        return parsed > 0 ? 0 : 2;
    int program = noc_prog_opts_wanted(&po);
    if (noc_app_spec(&cfg, spec, sizeof spec, err, sizeof err)) {
        fprintf(stderr, "lockstep: %s\n", err);
        return 2;
    }
    noc_topo_t *t = noc_topo_create(spec, 0, err, sizeof err);
    if (!t) {
        fprintf(stderr, "lockstep: %s\n", err);
        return 2;
    }
    static char facts[8192];
    noc_program_t *p = program ? noc_cli_prog_load(&po, t, 1, facts, sizeof facts, err, sizeof err) : NULL;
    if (program && !p) {
        fprintf(stderr, "lockstep: %s\n", err);
        noc_topo_destroy(t);
        return 2;
    }
    side_t side[2];
    memset(side, 0, sizeof side);
    static const char *const routers[2] = { "vc", "rtl" };
    int status = 0;
    for (int k = 0; k < 2 && status == 0; k++) {
        side_t *d = &side[k];
        d->cfg = cfg;
        noc_traffic_t traffic = { NULL, NULL };
        if (noc_config_set(&d->cfg, "router", routers[k], err, sizeof err) ||
            (!program && noc_synthetic_init(&d->syn, &d->cfg, t, err, sizeof err))) {
            status = 2;
            break;
        }
        if (!program)
            traffic = noc_synthetic_traffic(&d->syn);
        d->s = noc_sim_create(&d->cfg, noc_topo_graph(t), traffic, err, sizeof err);
        if (!d->s || (program && noc_pe_attach(d->s, p, err, sizeof err)))
            status = 2;
    }
    tally_t tl = { 0, 0, 0 };
    uint64_t T = 0;
    if (status)
        fprintf(stderr, "lockstep: %s\n", err);
    else if ((status = lockstep(side, routers, program, cycles, &T, &tl)) == 0)
        printf("lockstep: %s, %s%s, num_vcs %d, vc_buf_size %lld, %s arbiters: %d routers, %" PRIu64
               " cycles identical (%" PRIu64 " flit arrivals, %" PRIu64 " credits and %" PRIu64
               " core register values compared)%s\n",
               spec, program ? "program " : "synthetic traffic", program ? (po.file ? po.file : po.name) : "",
               side[0].s->V, (long long)cfg.vc_buf_size, cfg.arb_type, noc_topo_nodes(t), T, tl.flits, tl.credits,
               tl.registers, program ? ", result checked" : "");
    for (int k = 0; k < 2; k++) {
        if (side[k].s)
            noc_sim_destroy(side[k].s);
        noc_synthetic_free(&side[k].syn);
    }
    noc_prog_free(p);
    noc_topo_destroy(t);
    return status;
}
