/* energy.c: a run's events from its counters, and their energy and power
 * with a table (energy.h; the file format and the default's sources in
 * docs/energy.md). Nothing here runs in the cycle loop: the counts are
 * read from the per-channel and per-step figures after the run. */
#include "model/energy.h"
#include "model/pe.h"
#include "model/sim_internal.h"
#include "util/xalloc.h"
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const ev_names[NOC_EV_COUNT] = {
    "buffer_write", "buffer_read", "route", "vc_alloc", "sw_alloc",
    "crossbar", "link", "credit", "inject", "eject",
};

const char *noc_event_name(int ev)
{
    return ev >= 0 && ev < NOC_EV_COUNT ? ev_names[ev] : ev == NOC_EV_LINK_PITCHES ? "link_pitches" : "?";
}

void noc_energy_default(noc_energy_table_t *t)
{
    /* `tools/energy_table.sh techfile.txt 64 5 16 1` on BookSim2's
     * src/power/techfile.txt (docs/energy.md shows the derivation).
     * BookSim2's model has no figure for route computation, VC and switch
     * allocation or credits: they stay 0 (left out, not guessed). */
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "%s", "booksim2-32nm-w64-p5-b16-l1");
    t->flit_bits = 64;
    t->pj[NOC_EV_BUF_WRITE] = 1.50447;
    t->pj[NOC_EV_BUF_READ] = 1.50447;
    t->pj[NOC_EV_XBAR] = 5.34377;
    t->pj[NOC_EV_INJECT] = 57.1457;
    t->pj[NOC_EV_EJECT] = 57.1457;
    t->leak_buffer_bit_uw = 0.288;
    t->clock_ghz = 9.71245;
    t->per_mm = 1;
    t->link_bit_mm_pj = 0.446451;
    t->static_link_bit_mm_uw = 40.7405;
    t->pitch_mm = 2;
    t->pj[NOC_EV_LINK] = t->link_bit_mm_pj * t->pitch_mm * t->flit_bits;
    t->by_size = 1;
    t->leak_crossbar_pw = 10213;
    t->clock_output_bit_uw = 29.5868;
    /* router_leakage=gates: the Nangate 45 nm Open Cell Library's typical
     * corner (1.1 V, 25 C), cell_leakage_power of NAND2_X1, INV_X1 and
     * DFFR_X1 (docs/energy.md, "Leakage from the gate count") */
    t->gate_keys = 1;
    t->leak_nand_nw = 17.393360;
    t->leak_not_nw = 14.353185;
    t->leak_ff_nw = 86.212780;
    /* rtl_toggles=1: BookSim2's flip-flop (powerWireDFF) charges a write
     * of random data 0.5 Cdin Vdd^2 a bit, half the bits toggling: Cdin
     * Vdd^2 a toggle, Cdin = 2 x 0.8 (Ci + Co) + 2 (2/3 x 0.8 Co) = 4.6992
     * fF with the techfile's Cg_pwr, Cd_pwr; Vdd 0.9 V (docs/energy.md,
     * "Activity from the RTL"; tools/energy_table.sh prints it) */
    t->toggle_key = 1;
    t->toggle_bit_pj = 0.00380635;
}

/* The keys after the events, in the order of their bits in `seen`. */
enum {
    K_NAME = NOC_EV_COUNT, K_FLIT_BITS, K_LEAK_BIT, K_ST_ROUTER, K_ST_LINK, K_CLOCK,
    K_LINK_MM, K_ST_LINK_MM, K_PITCH, K_LEAK_XBAR, K_CLK_OUT, K_LEAK_NAND, K_LEAK_NOT, K_LEAK_FF,
    K_TOGGLE
};
static const char *const extra_keys[] = { "name", "flit_bits", "leak_buffer_bit", "static_router", "static_link",
                                          "clock_ghz", "link_bit_mm", "static_link_bit_mm", "pitch_mm",
                                          "leak_crossbar", "clock_output_bit", "leak_nand", "leak_not",
                                          "leak_ff", "toggle_bit" };

static const char *key_name(int k)
{
    return k < NOC_EV_COUNT ? ev_names[k] : extra_keys[k - NOC_EV_COUNT];
}

static char *trim(char *a)
{
    while (isspace((unsigned char)*a))
        a++;
    size_t n = strlen(a);
    while (n > 0 && isspace((unsigned char)a[n - 1]))
        a[--n] = '\0';
    return a;
}

/* A number for key k into *v: 0, or -1 with the reason in err. */
static int number(const char *key, const char *val, double *v, char *err, size_t errlen)
{
    char *end;
    errno = 0;
    *v = strtod(val, &end);
    if (end == val || *end != '\0' || errno == ERANGE || !isfinite(*v)) {
        snprintf(err, errlen, "%s: '%s' is not a number", key, val);
        return -1;
    }
    if (*v < 0) {
        snprintf(err, errlen, "%s: %s is negative (energies and powers are >= 0)", key, val);
        return -1;
    }
    return 0;
}

/* Number v of key k (not the name) into t. */
static void set_number(noc_energy_table_t *t, int k, double v)
{
    switch (k) {
    case K_FLIT_BITS: t->flit_bits = (int)v; break;
    case K_LEAK_BIT: t->leak_buffer_bit_uw = v; break;
    case K_ST_ROUTER: t->static_router_mw = v; break;
    case K_ST_LINK: t->static_link_mw = v; break;
    case K_CLOCK: t->clock_ghz = v; break;
    case K_LINK_MM: t->link_bit_mm_pj = v; break;
    case K_ST_LINK_MM: t->static_link_bit_mm_uw = v; break;
    case K_PITCH: t->pitch_mm = v; break;
    case K_LEAK_XBAR: t->leak_crossbar_pw = v; break;
    case K_CLK_OUT: t->clock_output_bit_uw = v; break;
    case K_LEAK_NAND: t->leak_nand_nw = v; break;
    case K_LEAK_NOT: t->leak_not_nw = v; break;
    case K_LEAK_FF: t->leak_ff_nw = v; break;
    case K_TOGGLE: t->toggle_bit_pj = v; break;
    default: t->pj[k] = v; break; /* an event's */
    }
}

int noc_energy_line(noc_energy_table_t *t, const char *line, uint64_t *seen, char *err, size_t errlen)
{
    char buf[512];
    if (strlen(line) >= sizeof buf) {
        snprintf(err, errlen, "line longer than %zu characters", sizeof buf - 1);
        return -1;
    }
    snprintf(buf, sizeof buf, "%s", line);
    char *hash = strchr(buf, '#');
    if (hash)
        *hash = '\0';
    char *s = trim(buf);
    if (*s == '\0')
        return 0;
    char *eq = strchr(s, '=');
    if (!eq) {
        snprintf(err, errlen, "'%s' is not 'key = value'", s);
        return -1;
    }
    *eq = '\0';
    char *key = trim(s), *val = trim(eq + 1);
    int k = 0;
    while (k < NOC_ENERGY_KEYS && strcmp(key, key_name(k)) != 0)
        k++;
    if (k == NOC_ENERGY_KEYS) {
        snprintf(err, errlen, "unknown key '%s' (docs/energy.md lists the keys)", key);
        return -1;
    }
    if (*seen & (UINT64_C(1) << k)) {
        snprintf(err, errlen, "%s given twice", key);
        return -1;
    }
    if (*val == '\0') {
        snprintf(err, errlen, "%s has no value", key);
        return -1;
    }
    if (k == K_NAME) {
        if (strlen(val) >= sizeof t->name) {
            snprintf(err, errlen, "name longer than %zu characters", sizeof t->name - 1);
            return -1;
        }
        snprintf(t->name, sizeof t->name, "%s", val);
    } else {
        double v;
        if (number(key, val, &v, err, errlen) != 0)
            return -1;
        if (k == K_FLIT_BITS && (v < 1 || v > 65536 || v != floor(v))) {
            snprintf(err, errlen, "flit_bits: %s is not a whole number of bits from 1 to 65536", val);
            return -1;
        }
        if ((k == K_CLOCK || k == K_PITCH) && v == 0) {
            snprintf(err, errlen, "%s: must be > 0", key);
            return -1;
        }
        set_number(t, k, v);
    }
    *seen |= UINT64_C(1) << k;
    return 0;
}

/* Which of the two forms of a group of keys `seen` gives: 1 the new one
 * (keys nw[0..nn)), 0 the old one (od[0..no)), -1 with err when mixed or
 * incomplete. what: the group, for the message. */
static int form(uint64_t seen, const int *nw, int nn, const int *od, int no, const char *what, char *err,
                size_t errlen)
{
    int has_new = -1, has_old = -1;
    for (int i = 0; i < nn && has_new < 0; i++)
        if (seen & (UINT64_C(1) << nw[i]))
            has_new = nw[i];
    for (int i = 0; i < no && has_old < 0; i++)
        if (seen & (UINT64_C(1) << od[i]))
            has_old = od[i];
    if (has_new >= 0 && has_old >= 0) {
        snprintf(err, errlen, "%s and %s: a table gives the %s in one form, not both (docs/energy.md, "
                 "\"The table file\")", key_name(has_new), key_name(has_old), what);
        return -1;
    }
    int use_new = has_old < 0;
    const int *keys = use_new ? nw : od;
    for (int i = 0; i < (use_new ? nn : no); i++)
        if (!(seen & (UINT64_C(1) << keys[i]))) {
            if (has_new < 0 && has_old < 0)
                snprintf(err, errlen, "no value for %s (the %s: docs/energy.md)", key_name(keys[i]), what);
            else
                snprintf(err, errlen, "no value for %s (with %s: the %s, docs/energy.md)", key_name(keys[i]),
                         key_name(use_new ? has_new : has_old), what);
            return -1;
        }
    return use_new;
}

int noc_energy_complete(noc_energy_table_t *t, uint64_t seen, char *err, size_t errlen)
{
    static const int link_new[] = { K_LINK_MM, K_ST_LINK_MM, K_PITCH }, link_old[] = { NOC_EV_LINK, K_ST_LINK };
    static const int router_new[] = { K_LEAK_XBAR, K_CLK_OUT }, router_old[] = { K_ST_ROUTER };
    uint64_t grouped = 0;
    for (int i = 0; i < 3; i++)
        grouped |= UINT64_C(1) << link_new[i];
    for (int i = 0; i < 2; i++)
        grouped |= (UINT64_C(1) << link_old[i]) | (UINT64_C(1) << router_new[i]);
    grouped |= UINT64_C(1) << K_ST_ROUTER;
    static const int gate_keys[] = { K_LEAK_NAND, K_LEAK_NOT, K_LEAK_FF };
    int n_gate = 0;
    for (int i = 0; i < 3; i++) {
        grouped |= UINT64_C(1) << gate_keys[i];
        n_gate += (seen & (UINT64_C(1) << gate_keys[i])) != 0;
    }
    for (int i = 0; i < 3 && n_gate > 0 && n_gate < 3; i++)
        if (!(seen & (UINT64_C(1) << gate_keys[i]))) {
            snprintf(err, errlen, "no value for %s (the gates' leakage, leak_nand, leak_not, leak_ff: all three "
                     "or none, docs/energy.md)", key_name(gate_keys[i]));
            return -1;
        }
    t->gate_keys = n_gate == 3;
    grouped |= UINT64_C(1) << K_TOGGLE; /* optional, for rtl_toggles=1 */
    t->toggle_key = (seen & (UINT64_C(1) << K_TOGGLE)) != 0;
    for (int k = 0; k < NOC_ENERGY_KEYS; k++)
        if (!(grouped & (UINT64_C(1) << k)) && !(seen & (UINT64_C(1) << k))) {
            snprintf(err, errlen, "no value for %s (a table gives every key: docs/energy.md)", key_name(k));
            return -1;
        }
    int links = form(seen, link_new, 3, link_old, 2, "link figures (link_bit_mm, static_link_bit_mm, pitch_mm; "
                     "or, the old form, link and static_link)", err, errlen);
    if (links < 0)
        return -1;
    int routers = form(seen, router_new, 2, router_old, 1, "router figures (leak_crossbar, clock_output_bit; "
                       "or, the old form, static_router)", err, errlen);
    if (routers < 0)
        return -1;
    t->per_mm = links;
    t->by_size = routers;
    if (t->per_mm)
        t->pj[NOC_EV_LINK] = t->link_bit_mm_pj * t->pitch_mm * t->flit_bits;
    return 0;
}

/* Each link class's width in wires (the run's link_width, class_width). */
static void class_wires(const struct noc_sim *s, int *wires)
{
    char err[200];
    int rc = noc_sim_class_widths(&s->cfg, s->graph, wires, err, sizeof err);
    assert(rc == 0); /* checked when the run was built */
    (void)rc;
}

/* Channel c's length in pitches and width in wires, the class widths given. */
static void chan_size(const struct noc_sim *s, const int *wires, int c, int *pitches, int *w)
{
    if (c < s->n_ports && !s->chan_local[c]) {
        *pitches = s->chan_delay[c];
        *w = wires[s->graph->link_class[c]];
    } else {
        *pitches = 1;
        *w = (int)s->cfg.flit_width;
    }
}

void noc_energy_channel_size(const noc_sim_t *s, int c, int *pitches, int *wires)
{
    int w[NOC_GRAPH_MAX_CLASSES];
    class_wires(s, w);
    chan_size(s, w, c, pitches, wires);
}

/* The events of channel c's f flits (h of them heads), the link `pitches`
 * long, into the rows of its upstream end (up) and its downstream end
 * (down), NOC_EV_SLOTS each. */
static void channel_events(const struct noc_sim *s, int c, uint64_t f, uint64_t h, uint64_t pitches, uint64_t *up,
                           uint64_t *down)
{
    if (c < s->n_ports) { /* leaves an output port of router up */
        up[NOC_EV_BUF_READ] += f;
        up[NOC_EV_SW_ALLOC] += f;
        up[NOC_EV_XBAR] += f;
        up[NOC_EV_CREDIT] += f;
        up[NOC_EV_ROUTE] += h;
        up[NOC_EV_VC_ALLOC] += h;
        if (s->chan_local[c]) {
            up[NOC_EV_EJECT] += f;
        } else {
            up[NOC_EV_LINK] += f;
            up[NOC_EV_LINK_PITCHES] += f * pitches;
        }
    } else { /* an NI's injection channel, counted at its router */
        down[NOC_EV_INJECT] += f;
    }
    if (s->chan_in_gport[c] >= 0)
        down[NOC_EV_BUF_WRITE] += f;
}

/* A network link's length in pitches (its latency), 0 for other channels. */
static uint64_t link_pitches(const struct noc_sim *s, int c)
{
    return c < s->n_ports && !s->chan_local[c] ? s->chan_delay[c] : 0;
}

void noc_events_nodes(const noc_sim_t *s, uint64_t *ev)
{
    memset(ev, 0, (size_t)s->n_nodes * NOC_EV_SLOTS * sizeof *ev);
    for (int c = 0; c < s->n_chan; c++)
        channel_events(s, c, s->lst[c].flits, s->lst[c].heads, link_pitches(s, c),
                       &ev[(size_t)s->chan_from[c] * NOC_EV_SLOTS], &ev[(size_t)s->chan_to[c] * NOC_EV_SLOTS]);
}

void noc_events_total(const noc_sim_t *s, uint64_t ev[NOC_EV_SLOTS])
{
    memset(ev, 0, NOC_EV_SLOTS * sizeof *ev);
    for (int c = 0; c < s->n_chan; c++)
        channel_events(s, c, s->lst[c].flits, s->lst[c].heads, link_pitches(s, c), ev, ev);
}

int noc_events_step(const noc_sim_t *s, int k, uint64_t ev[NOC_EV_SLOTS])
{
    memset(ev, 0, NOC_EV_SLOTS * sizeof *ev);
    if (!s->step_flits || !s->pe || k < 0 || k >= s->n_step_rows)
        return -1;
    for (int c = 0; c < s->n_ports; c++)
        channel_events(s, c, s->step_flits[(size_t)k * (size_t)s->n_chan + (size_t)c], 0, link_pitches(s, c), ev,
                       ev);
    /* heads are not kept per step and channel: the routers its packets
     * passed are (one route computation and VC allocation at each); nor
     * are the injection channels' flits (each into a router's buffer) */
    const noc_pe_stats_t *ps = noc_pe_stats(s->pe);
    if (k <= ps->n_steps) {
        ev[NOC_EV_ROUTE] = ev[NOC_EV_VC_ALLOC] = ps->steps[k].routes;
        ev[NOC_EV_INJECT] = ps->steps[k].injected;
        ev[NOC_EV_BUF_WRITE] += ps->steps[k].injected;
    }
    return 0;
}

double noc_energy_event_pj(const noc_energy_table_t *t, const uint64_t ev[NOC_EV_SLOTS], int e)
{
    uint64_t n = e == NOC_EV_LINK && t->per_mm ? ev[NOC_EV_LINK_PITCHES] : ev[e];
    return (double)n * t->pj[e];
}

double noc_energy_dynamic_pj(const noc_energy_table_t *t, const uint64_t ev[NOC_EV_SLOTS])
{
    double e = 0;
    for (int k = 0; k < NOC_EV_COUNT; k++)
        e += noc_energy_event_pj(t, ev, k);
    return e;
}

/* Static power of a channel `pitches` long and `wires` wide, mW. */
static double chan_static_mw(const noc_energy_table_t *t, int pitches, int wires)
{
    if (!t->per_mm)
        return t->static_link_mw;
    return t->static_link_bit_mm_uw * 1e-3 * (double)wires * ((double)pitches * t->pitch_mm);
}

double noc_energy_channel_static_mw(const noc_sim_t *s, const noc_energy_table_t *t, int c)
{
    int pitches, wires;
    noc_energy_channel_size(s, c, &pitches, &wires);
    return chan_static_mw(t, pitches, wires);
}

double noc_energy_gates_mw(const noc_energy_table_t *t, const noc_gate_count_t *g)
{
    double mux_nw = 3 * t->leak_nand_nw + t->leak_not_nw; /* an enable's 2:1 multiplexer */
    return 1e-6 * ((double)g->nand * t->leak_nand_nw + (double)g->inv * t->leak_not_nw +
                   (double)g->ff * t->leak_ff_nw + (double)g->ff_enable * mux_nw);
}

/* A router's output registers' clock, mW (by-size tables). */
static double clock_mw(const noc_energy_table_t *t, int out)
{
    return t->clock_output_bit_uw * 1e-3 * (double)out * t->flit_bits;
}

/* Router n's static power from its inputs and outputs, mW: with gates its
 * core's leakage and its output clock. */
static double router_static_mw(const noc_energy_table_t *t, int n, int in, int out)
{
    if (t->gates)
        return noc_energy_gates_mw(t, &t->gates[n]) + clock_mw(t, out);
    if (!t->by_size)
        return t->static_router_mw;
    double w = t->flit_bits, i = in, o = out;
    return t->leak_crossbar_pw * 1e-9 * w * w * (i * i * o + i * o + o * o) + t->clock_output_bit_uw * 1e-3 * o * w;
}

/* Inputs (channels into a buffer of router n) and outputs (channels out of
 * it) of every router into in[] and out[] (n_nodes each). */
static void router_ports(const struct noc_sim *s, int *in, int *out)
{
    memset(in, 0, (size_t)s->n_nodes * sizeof *in);
    memset(out, 0, (size_t)s->n_nodes * sizeof *out);
    for (int c = 0; c < s->n_chan; c++) {
        if (c < s->n_ports)
            out[s->chan_from[c]]++;
        if (s->chan_in_gport[c] >= 0)
            in[s->chan_to[c]]++;
    }
}

double noc_energy_router_static_mw(const noc_sim_t *s, const noc_energy_table_t *t, int n, int *in, int *out)
{
    int i = 0, o = 0;
    for (int c = 0; c < s->n_chan; c++) {
        o += c < s->n_ports && s->chan_from[c] == n;
        i += s->chan_in_gport[c] >= 0 && s->chan_to[c] == n;
    }
    if (in)
        *in = i;
    if (out)
        *out = o;
    return router_static_mw(t, n, i, o);
}

int noc_energy_router_ports(const noc_sim_t *s, int n)
{
    int i = 0, o = 0;
    for (int c = 0; c < s->n_chan; c++) {
        o += c < s->n_ports && s->chan_from[c] == n;
        i += s->chan_in_gport[c] >= 0 && s->chan_to[c] == n;
    }
    return i > o ? i : o;
}

int noc_energy_buffer_depth(const noc_sim_t *s)
{
    return s->rops->depth ? s->rops->depth(s) : 0;
}

/* Input buffer bits of a router with `in` buffered inputs. */
static uint64_t buffer_bits(const struct noc_sim *s, const noc_energy_table_t *t, int in)
{
    return (uint64_t)in * (uint64_t)s->V * (uint64_t)s->rops->depth(s) * (uint64_t)t->flit_bits;
}

uint64_t noc_energy_router_buffer_bits(const noc_sim_t *s, const noc_energy_table_t *t, int n)
{
    int in;
    noc_energy_router_static_mw(s, t, n, &in, NULL);
    return buffer_bits(s, t, in);
}

double noc_energy_router_buffer_mw(const noc_sim_t *s, const noc_energy_table_t *t, int n)
{
    if (t->gates)
        return 0;
    return (double)noc_energy_router_buffer_bits(s, t, n) * t->leak_buffer_bit_uw * 1e-3;
}

/* The static powers of out's run: buffers, routers, channels. */
static void static_power(const struct noc_sim *s, const noc_energy_table_t *t, noc_energy_sum_t *out)
{
    int *in = noc_xcalloc((size_t)s->n_nodes * 2, sizeof *in, "energy");
    int *outs = in + s->n_nodes;
    router_ports(s, in, outs);
    for (int n = 0; n < s->n_nodes; n++) {
        out->buffer_bits += buffer_bits(s, t, in[n]);
        out->router_mw += router_static_mw(t, n, in[n], outs[n]);
        if (t->gates) {
            const noc_gate_count_t *g = &t->gates[n];
            out->gate_mw += noc_energy_gates_mw(t, g);
            out->clock_mw += clock_mw(t, outs[n]);
            out->gate_total.nand += g->nand;
            out->gate_total.inv += g->inv;
            out->gate_total.ff += g->ff;
            out->gate_total.ff_enable += g->ff_enable;
        }
    }
    free(in);
    out->gates = t->gates != NULL;
    if (!t->by_size) /* the old form's figures, as it computed them */
        out->router_mw = s->n_nodes * t->static_router_mw;
    int wires[NOC_GRAPH_MAX_CLASSES];
    class_wires(s, wires);
    for (int c = 0; c < s->n_chan; c++) {
        int p, w;
        chan_size(s, wires, c, &p, &w);
        out->channel_mw += chan_static_mw(t, p, w);
    }
    if (!t->per_mm)
        out->channel_mw = s->n_chan * t->static_link_mw;
    out->routers = s->n_nodes;
    out->channels = s->n_chan;
    out->leak_buffer_mw = t->gates ? 0 : (double)out->buffer_bits * t->leak_buffer_bit_uw * 1e-3;
    out->static_mw = out->leak_buffer_mw + out->router_mw + out->channel_mw;
}

int noc_energy_router_toggles(const noc_sim_t *s, int n, uint64_t *toggles)
{
    if (!s->cfg.rtl_toggles || !s->rops->toggles || n < 0 || n >= s->n_nodes)
        return -1;
    *toggles = s->rops->toggles(s, n);
    return 0;
}

void noc_energy_run(const noc_sim_t *s, const noc_energy_table_t *t, noc_energy_sum_t *out)
{
    memset(out, 0, sizeof *out);
    noc_events_total(s, out->ev);
    for (int k = 0; k < NOC_EV_COUNT; k++) {
        out->ev_pj[k] = noc_energy_event_pj(t, out->ev, k);
        out->dynamic_pj += out->ev_pj[k];
    }
    static_power(s, t, out);
    out->cycles = s->st.sample;
    out->ns = (double)out->cycles / t->clock_ghz;
    out->static_pj = out->static_mw * out->ns; /* mW * ns = pJ */
    out->total_pj = out->dynamic_pj + out->static_pj;
    out->avg_mw = out->ns > 0 ? out->total_pj / out->ns : 0;
    uint64_t tg;
    if (noc_energy_router_toggles(s, 0, &tg) == 0) {
        out->toggled = 1;
        for (int n = 0; n < s->n_nodes; n++)
            if (noc_energy_router_toggles(s, n, &tg) == 0)
                out->toggles += tg;
        out->toggle_pj = (double)out->toggles * t->toggle_bit_pj;
        static const int router_ev[] = { NOC_EV_BUF_WRITE, NOC_EV_BUF_READ, NOC_EV_ROUTE, NOC_EV_VC_ALLOC,
                                         NOC_EV_SW_ALLOC, NOC_EV_XBAR, NOC_EV_CREDIT };
        for (size_t i = 0; i < sizeof router_ev / sizeof router_ev[0]; i++)
            out->router_event_pj += out->ev_pj[router_ev[i]];
    }
    out->flits = s->st.window_flits_out;
    if (out->flits) {
        out->pj_per_flit = out->total_pj / (double)out->flits;
        out->pj_per_bit = out->pj_per_flit / t->flit_bits;
    }
}

int noc_sim_set_energy(noc_sim_t *s, const noc_energy_table_t *t, char *err, size_t errlen)
{
    free(s->energy);
    s->energy = NULL;
    if (!t)
        return 0;
    if (s->rops->direct_ni || !s->rops->depth) {
        snprintf(err, errlen, "parameter 'energy': router %s is the papers' unit-time model, with no buffers, "
                 "allocators or crossbar to count the events of (docs/energy.md); use router=vc or rtl",
                 s->rops->name);
        return -1;
    }
    if (s->cfg.flit_width != t->flit_bits) {
        snprintf(err, errlen, "parameter 'energy': table %s is for %d-bit flits and the run has flit_width=%lld "
                 "(tools/energy_table.sh makes a table for another width)", t->name, t->flit_bits,
                 (long long)s->cfg.flit_width);
        return -1;
    }
    if (s->cfg.rtl_toggles && !s->rops->toggles) {
        snprintf(err, errlen, "parameter 'rtl_toggles': router %s has no RTL core whose flip-flops could be "
                 "counted; use router=rtl (docs/energy.md)", s->rops->name);
        return -1;
    }
    if (s->cfg.rtl_toggles && !t->toggle_key) {
        snprintf(err, errlen, "parameter 'rtl_toggles': table %s gives no toggle_bit (pJ per flip-flop bit "
                 "toggle, docs/energy.md)", t->name);
        return -1;
    }
    s->energy = noc_xmalloc(sizeof *t, "energy");
    *s->energy = *t;
    s->energy->gates = NULL;
    return 0;
}

int noc_sim_set_energy_gates(noc_sim_t *s, const noc_energy_table_t *t, const noc_gate_count_t *gates, char *err,
                             size_t errlen)
{
    if (!t->gate_keys) {
        snprintf(err, errlen, "parameter 'router_leakage': gates needs the gates' leakage per cell in the energy "
                 "table: %s gives no leak_nand, leak_not, leak_ff (docs/energy.md)", t->name);
        return -1;
    }
    if (!t->by_size) {
        snprintf(err, errlen, "parameter 'router_leakage': gates replaces a router's crossbar leakage, and table %s "
                 "gives its routers in the old form (static_router): give leak_crossbar and clock_output_bit "
                 "(docs/energy.md)", t->name);
        return -1;
    }
    if (noc_sim_set_energy(s, t, err, errlen) != 0)
        return -1;
    /* the table and its routers' cells in one block, freed with s->energy */
    size_t n = (size_t)s->n_nodes;
    noc_energy_table_t *e = noc_xmalloc(sizeof *e + n * sizeof *gates, "energy");
    *e = *s->energy;
    noc_gate_count_t *g = (noc_gate_count_t *)(void *)(e + 1);
    memcpy(g, gates, n * sizeof *gates);
    e->gates = g;
    free(s->energy);
    s->energy = e;
    return 0;
}

const noc_energy_table_t *noc_sim_energy(const noc_sim_t *s)
{
    return s->energy;
}
