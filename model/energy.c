/* energy.c: a run's events from its counters, and their energy and power
 * with a table (energy.h; the file format and the default's sources in
 * docs/energy.md). Nothing here runs in the cycle loop: the counts are
 * read from the per-channel and per-step figures after the run. */
#include "model/energy.h"
#include "model/pe.h"
#include "model/sim_internal.h"
#include "util/xalloc.h"
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
    return ev >= 0 && ev < NOC_EV_COUNT ? ev_names[ev] : "?";
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
    t->pj[NOC_EV_LINK] = 57.1457;
    t->pj[NOC_EV_INJECT] = 57.1457;
    t->pj[NOC_EV_EJECT] = 57.1457;
    t->leak_buffer_bit_uw = 0.288;
    t->static_router_mw = 16.7884;
    t->static_link_mw = 5.21479;
    t->clock_ghz = 9.71245;
}

/* The keys after the events, in the order of their bits in `seen`. */
enum { K_NAME = NOC_EV_COUNT, K_FLIT_BITS, K_LEAK_BIT, K_ST_ROUTER, K_ST_LINK, K_CLOCK };
static const char *const extra_keys[] = { "name", "flit_bits", "leak_buffer_bit", "static_router", "static_link",
                                          "clock_ghz" };

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
        if (k == K_CLOCK && v == 0) {
            snprintf(err, errlen, "clock_ghz: must be > 0");
            return -1;
        }
        if (k < NOC_EV_COUNT)
            t->pj[k] = v;
        else if (k == K_FLIT_BITS)
            t->flit_bits = (int)v;
        else if (k == K_LEAK_BIT)
            t->leak_buffer_bit_uw = v;
        else if (k == K_ST_ROUTER)
            t->static_router_mw = v;
        else if (k == K_ST_LINK)
            t->static_link_mw = v;
        else
            t->clock_ghz = v;
    }
    *seen |= UINT64_C(1) << k;
    return 0;
}

int noc_energy_complete(uint64_t seen, char *err, size_t errlen)
{
    for (int k = 0; k < NOC_ENERGY_KEYS; k++)
        if (!(seen & (UINT64_C(1) << k))) {
            snprintf(err, errlen, "no value for %s (a table gives every key: docs/energy.md)", key_name(k));
            return -1;
        }
    return 0;
}

/* The events of channel c's f flits (h of them heads) into the rows of its
 * upstream end (up) and its downstream end (down), NOC_EV_COUNT each. */
static void channel_events(const struct noc_sim *s, int c, uint64_t f, uint64_t h, uint64_t *up, uint64_t *down)
{
    if (c < s->n_ports) { /* leaves an output port of router up */
        up[NOC_EV_BUF_READ] += f;
        up[NOC_EV_SW_ALLOC] += f;
        up[NOC_EV_XBAR] += f;
        up[NOC_EV_CREDIT] += f;
        up[NOC_EV_ROUTE] += h;
        up[NOC_EV_VC_ALLOC] += h;
        up[s->chan_local[c] ? NOC_EV_EJECT : NOC_EV_LINK] += f;
    } else { /* an NI's injection channel, counted at its router */
        down[NOC_EV_INJECT] += f;
    }
    if (s->chan_in_gport[c] >= 0)
        down[NOC_EV_BUF_WRITE] += f;
}

void noc_events_nodes(const noc_sim_t *s, uint64_t *ev)
{
    memset(ev, 0, (size_t)s->n_nodes * NOC_EV_COUNT * sizeof *ev);
    for (int c = 0; c < s->n_chan; c++)
        channel_events(s, c, s->lst[c].flits, s->lst[c].heads, &ev[(size_t)s->chan_from[c] * NOC_EV_COUNT],
                       &ev[(size_t)s->chan_to[c] * NOC_EV_COUNT]);
}

void noc_events_total(const noc_sim_t *s, uint64_t ev[NOC_EV_COUNT])
{
    memset(ev, 0, NOC_EV_COUNT * sizeof *ev);
    for (int c = 0; c < s->n_chan; c++)
        channel_events(s, c, s->lst[c].flits, s->lst[c].heads, ev, ev);
}

int noc_events_step(const noc_sim_t *s, int k, uint64_t ev[NOC_EV_COUNT])
{
    memset(ev, 0, NOC_EV_COUNT * sizeof *ev);
    if (!s->step_flits || !s->pe || k < 0 || k >= s->n_step_rows)
        return -1;
    for (int c = 0; c < s->n_ports; c++)
        channel_events(s, c, s->step_flits[(size_t)k * (size_t)s->n_chan + (size_t)c], 0, ev, ev);
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

double noc_energy_dynamic_pj(const noc_energy_table_t *t, const uint64_t ev[NOC_EV_COUNT])
{
    double e = 0;
    for (int k = 0; k < NOC_EV_COUNT; k++)
        e += (double)ev[k] * t->pj[k];
    return e;
}

void noc_energy_run(const noc_sim_t *s, const noc_energy_table_t *t, noc_energy_sum_t *out)
{
    memset(out, 0, sizeof *out);
    noc_events_total(s, out->ev);
    for (int k = 0; k < NOC_EV_COUNT; k++) {
        out->ev_pj[k] = (double)out->ev[k] * t->pj[k];
        out->dynamic_pj += out->ev_pj[k];
    }
    int buffered = 0; /* router input ports with buffers: the channels that feed one */
    for (int c = 0; c < s->n_chan; c++)
        buffered += s->chan_in_gport[c] >= 0;
    out->buffer_bits = (uint64_t)buffered * (uint64_t)s->V * (uint64_t)s->rops->depth(s) * (uint64_t)t->flit_bits;
    out->routers = s->n_nodes;
    out->channels = s->n_chan;
    out->leak_buffer_mw = (double)out->buffer_bits * t->leak_buffer_bit_uw * 1e-3;
    out->static_mw = out->leak_buffer_mw + out->routers * t->static_router_mw + out->channels * t->static_link_mw;
    out->cycles = s->st.sample;
    out->ns = (double)out->cycles / t->clock_ghz;
    out->static_pj = out->static_mw * out->ns; /* mW * ns = pJ */
    out->total_pj = out->dynamic_pj + out->static_pj;
    out->avg_mw = out->ns > 0 ? out->total_pj / out->ns : 0;
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
    s->energy = noc_xmalloc(sizeof *t, "energy");
    *s->energy = *t;
    return 0;
}

const noc_energy_table_t *noc_sim_energy(const noc_sim_t *s)
{
    return s->energy;
}
