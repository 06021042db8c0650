/* energy_report.c: the energy figures of a run with energy=... (docs/energy.md):
 * the text summary lines and the JSON "energy" object (the table used, the
 * events, dynamic and static energy, average power, energy per flit and per
 * delivered bit; per link, per router with node_stats = 1, per program step),
 * for the synthetic and the program reports alike. */
#include "report/report.h"
#include "report/json_internal.h"
#include "report/links_summary.h"
#include "model/energy.h"
#include "model/pe.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

/* Energy in pJ as text with a unit that fits (pJ, nJ, uJ, mJ, J). */
static void energy_text(double pj, char *buf, size_t len)
{
    static const char *const unit[] = { "pJ", "nJ", "uJ", "mJ", "J" };
    int u = 0;
    while (u < 4 && pj >= 1000.0) {
        pj /= 1000.0;
        u++;
    }
    snprintf(buf, len, "%.4g %s", pj, unit[u]);
}

/* Power in mW as text: mW below 1 W, else W. */
static void power_text(double mw, char *buf, size_t len)
{
    if (mw < 1000.0)
        snprintf(buf, len, "%.4g mW", mw);
    else
        snprintf(buf, len, "%.4g W", mw / 1000.0);
}

void noc_report_energy_text(FILE *f, const noc_sim_t *s)
{
    const noc_energy_table_t *t = noc_sim_energy(s);
    if (!t)
        return;
    noc_energy_sum_t e;
    noc_energy_run(s, t, &e);
    char dyn[32], tot[32], stat[32];
    energy_text(e.dynamic_pj, dyn, sizeof dyn);
    energy_text(e.total_pj, tot, sizeof tot);
    energy_text(e.static_pj, stat, sizeof stat);
    fprintf(f, "  energy        table %s (%d-bit flits, clock %.4g GHz): %s over %llu cycles (%.4g ns)\n", t->name,
            t->flit_bits, t->clock_ghz, tot, (unsigned long long)e.cycles, e.ns);
    fprintf(f, "    dynamic     %s:", dyn);
    for (int k = 0; k < NOC_EV_COUNT; k++)
        if (e.ev_pj[k] > 0)
            fprintf(f, " %s %.1f%%", noc_event_name(k), 100.0 * e.ev_pj[k] / e.dynamic_pj);
    fputc('\n', f);
    if (e.toggled) {
        char tog[32], rev[32];
        energy_text(e.toggle_pj, tog, sizeof tog);
        energy_text(e.router_event_pj, rev, sizeof rev);
        fprintf(f, "    toggles     %llu flip-flop bit toggles in %d routers' cores, %.4g pJ each: %s; the routers' "
                "events: %s", (unsigned long long)e.toggles, e.routers, t->toggle_bit_pj, tog, rev);
        if (e.router_event_pj > 0)
            fprintf(f, " (toggles / events %.4g)", e.toggle_pj / e.router_event_pj);
        fputc('\n', f);
    }
    char pst[32], pavg[32], pdyn[32];
    power_text(e.static_mw, pst, sizeof pst);
    power_text(e.avg_mw, pavg, sizeof pavg);
    power_text(e.ns > 0 ? e.dynamic_pj / e.ns : 0.0, pdyn, sizeof pdyn);
    if (e.gates) {
        const noc_gate_count_t *g = &e.gate_total;
        fprintf(f, "    static      %s (mW: router gates %.4g, router clocks %.4g, channels %.4g): %s\n", pst,
                e.gate_mw, e.clock_mw, e.channel_mw, stat);
        fprintf(f, "    gates       %ld cells in %d routers' cores: NAND %ld, NOT %ld, flip-flops %ld (%ld with enable);"
                " nW a cell: NAND %.4g, NOT %.4g, flip-flop %.4g\n", g->nand + g->inv + g->ff, e.routers, g->nand,
                g->inv, g->ff, g->ff_enable, t->leak_nand_nw, t->leak_not_nw, t->leak_ff_nw);
    } else {
        fprintf(f, "    static      %s (mW: buffers %.4g, routers %.4g, channels %.4g): %s\n", pst, e.leak_buffer_mw,
                e.router_mw, e.channel_mw, stat);
    }
    fprintf(f, "    power       average %s (dynamic %s)\n", pavg, pdyn);
    fprintf(f, "    per flit    %.4g pJ per flit delivered (%llu), %.4g pJ per bit\n", e.pj_per_flit,
            (unsigned long long)e.flits, e.pj_per_bit);
    fprintf(f, "    events     ");
    for (int k = 0; k < NOC_EV_SLOTS; k++)
        if (k != NOC_EV_LINK_PITCHES || t->per_mm)
            fprintf(f, " %s %llu", noc_event_name(k), (unsigned long long)e.ev[k]);
    fputc('\n', f);
}

/* The events of ev; link_pitches with a per-mm table only. */
static json_t *events_json(const noc_energy_table_t *t, const uint64_t *ev)
{
    json_t *j = json_object();
    for (int k = 0; k < NOC_EV_SLOTS; k++)
        if (k != NOC_EV_LINK_PITCHES || t->per_mm)
            json_object_set_new(j, noc_event_name(k), json_integer((json_int_t)ev[k]));
    return j;
}

static json_t *table_json(const noc_energy_table_t *t)
{
    json_t *pj = json_object();
    for (int k = 0; k < NOC_EV_COUNT; k++)
        json_object_set_new(pj, noc_event_name(k), json_real(t->pj[k]));
    json_t *j = json_pack("{s:s, s:i, s:f, s:o, s:f}", "name", t->name, "flit_bits", t->flit_bits, "clock_ghz",
                          t->clock_ghz, "pj", pj, "leak_buffer_bit_uw", t->leak_buffer_bit_uw);
    json_object_set_new(j, "links", json_string(t->per_mm ? "per_bit_mm" : "per_link"));
    if (t->per_mm) {
        json_object_set_new(j, "link_bit_mm_pj", json_real(t->link_bit_mm_pj));
        json_object_set_new(j, "static_link_bit_mm_uw", json_real(t->static_link_bit_mm_uw));
        json_object_set_new(j, "pitch_mm", json_real(t->pitch_mm));
    } else {
        json_object_set_new(j, "static_link_mw", json_real(t->static_link_mw));
    }
    json_object_set_new(j, "routers", json_string(t->by_size ? "by_size" : "per_router"));
    if (t->by_size) {
        json_object_set_new(j, "leak_crossbar_pw", json_real(t->leak_crossbar_pw));
        json_object_set_new(j, "clock_output_bit_uw", json_real(t->clock_output_bit_uw));
    } else {
        json_object_set_new(j, "static_router_mw", json_real(t->static_router_mw));
    }
    if (t->gates) {
        json_object_set_new(j, "router_leakage", json_string("gates"));
        json_object_set_new(j, "leak_nand_nw", json_real(t->leak_nand_nw));
        json_object_set_new(j, "leak_not_nw", json_real(t->leak_not_nw));
        json_object_set_new(j, "leak_ff_nw", json_real(t->leak_ff_nw));
    }
    return j;
}

/* A core's cells (router_leakage=gates). */
static json_t *gates_json(const noc_gate_count_t *g)
{
    return json_pack("{s:I, s:I, s:I, s:I, s:I}", "cells", (json_int_t)(g->nand + g->inv + g->ff), "nand",
                     (json_int_t)g->nand, "not", (json_int_t)g->inv, "ff", (json_int_t)g->ff, "ff_enable",
                     (json_int_t)g->ff_enable);
}

/* Network channel c's dynamic energy (its traversals) and static energy
 * over the counted time ns, in pJ. */
static void link_pj(const noc_sim_t *s, const noc_energy_table_t *t, double ns, int c, double *dyn, double *st)
{
    int pitches, wires;
    noc_energy_channel_size(s, c, &pitches, &wires);
    *dyn = (double)noc_sim_link_stats(s, c)->flits * t->pj[NOC_EV_LINK] * (t->per_mm ? pitches : 1);
    *st = noc_energy_channel_static_mw(s, t, c) * ns;
}

/* Network channel c's traversals and energy: length, width, dynamic and
 * static energy, their sum. */
static json_t *link_json(const noc_sim_t *s, const noc_energy_table_t *t, double ns, int c)
{
    const noc_graph_t *gr = noc_sim_graph(s);
    int from, to, local, pitches, wires;
    noc_sim_channel_ends(s, c, &from, &to, &local, NULL);
    char a[64], b[64];
    noc_graph_label(gr, from, a, sizeof a);
    noc_graph_label(gr, to, b, sizeof b);
    noc_energy_channel_size(s, c, &pitches, &wires);
    double dyn, st;
    link_pj(s, t, ns, c, &dyn, &st);
    json_t *l = json_pack("{s:s, s:s, s:I, s:f}", "from", a, "to", b, "link",
                          (json_int_t)noc_sim_link_stats(s, c)->flits, "dynamic_pj", dyn);
    if (t->per_mm) {
        json_object_set_new(l, "pitches", json_integer(pitches));
        json_object_set_new(l, "length_mm", json_real(pitches * t->pitch_mm));
        json_object_set_new(l, "wires", json_integer(wires));
    }
    json_object_set_new(l, "static_pj", json_real(st));
    json_object_set_new(l, "total_pj", json_real(dyn + st));
    return l;
}

/* The network links' energy, in the order of the report's "links" (full);
 * or {rows, hottest[the 16 of most energy, ties in that order]}. */
static json_t *links_json(const noc_sim_t *s, const noc_energy_table_t *t, double ns, int full)
{
    json_t *links = json_array();
    noc_top_t top;
    noc_top_init(&top, NOC_JSON_HOTTEST);
    uint64_t rows = 0;
    for (int c = 0; c < noc_sim_n_channels(s); c++) {
        int from, to, local;
        noc_sim_channel_ends(s, c, &from, &to, &local, NULL);
        if (local)
            continue;
        rows++;
        if (full) {
            json_array_append_new(links, link_json(s, t, ns, c));
            continue;
        }
        double dyn, st, total;
        link_pj(s, t, ns, c, &dyn, &st);
        total = dyn + st;
        uint64_t key; /* (a non-negative double's bits order as the doubles do) */
        memcpy(&key, &total, sizeof key);
        noc_top_add(&top, (size_t)c, total > 0.0 ? key : 0);
    }
    if (full)
        return links;
    for (int i = 0; i < top.n; i++)
        json_array_append_new(links, link_json(s, t, ns, (int)top.id[i]));
    return json_pack("{s:I, s:o}", "rows", (json_int_t)rows, "hottest", links);
}

/* Every router's events and dynamic energy (its NI's injections and
 * ejections, and the links leaving it, included), its inputs and outputs
 * and its own static power (buffers and the rest) and energy. */
static json_t *routers_json(const noc_sim_t *s, const noc_energy_table_t *t, double ns)
{
    const noc_graph_t *gr = noc_sim_graph(s);
    uint64_t *ev = noc_xcalloc((size_t)gr->n_nodes * NOC_EV_SLOTS, sizeof *ev, "energy report");
    noc_events_nodes(s, ev);
    json_t *rows = json_array();
    for (int n = 0; n < gr->n_nodes; n++) {
        char a[64];
        noc_graph_label(gr, n, a, sizeof a);
        const uint64_t *r = &ev[(size_t)n * NOC_EV_SLOTS];
        int in, out;
        double dyn = noc_energy_dynamic_pj(t, r), rst = noc_energy_router_static_mw(s, t, n, &in, &out);
        double bst = noc_energy_router_buffer_mw(s, t, n);
        json_t *j = json_pack("{s:s, s:o, s:f, s:i, s:i}", "node", a, "events", events_json(t, r), "dynamic_pj", dyn,
                              "inputs", in, "outputs", out);
        json_object_set_new(j, "static_mw", json_pack("{s:f, s:f}", "buffers", bst, "router", rst));
        if (t->gates)
            json_object_set_new(j, "gates", gates_json(&t->gates[n]));
        json_object_set_new(j, "static_pj", json_real((bst + rst) * ns));
        json_object_set_new(j, "total_pj", json_real(dyn + (bst + rst) * ns));
        /* the router alone: without the links leaving it (what draw colours it by) */
        double own = dyn - noc_energy_event_pj(t, r, NOC_EV_LINK) + (bst + rst) * ns;
        json_object_set_new(j, "router_pj", json_real(own));
        uint64_t tg;
        if (noc_energy_router_toggles(s, n, &tg) == 0) /* rtl_toggles=1 */
            json_object_set_new(j, "rtl_toggles", json_pack("{s:I, s:f}", "toggles", (json_int_t)tg, "dynamic_pj",
                                                            (double)tg * t->toggle_bit_pj));
        json_array_append_new(rows, j);
    }
    free(ev);
    return rows;
}

/* A program run's steps: each one's events and dynamic energy. */
static json_t *steps_json(const noc_sim_t *s, const noc_energy_table_t *t)
{
    const noc_pe_stats_t *st = noc_pe_stats(noc_sim_pe(s));
    json_t *steps = json_array();
    for (int k = 0; k <= st->n_steps; k++) {
        uint64_t ev[NOC_EV_SLOTS];
        if (noc_events_step(s, k, ev) != 0)
            break;
        if (k == st->n_steps && st->steps[k].ops == 0)
            continue; /* no op outside the steps */
        json_array_append_new(steps, json_pack("{s:i, s:s, s:o, s:f}", "step", k + 1, "name", st->steps[k].name,
                                               "events", events_json(t, ev), "dynamic_pj",
                                               noc_energy_dynamic_pj(t, ev)));
    }
    return steps;
}

json_t *noc_report_energy_json(const noc_sim_t *s)
{
    const noc_energy_table_t *t = noc_sim_energy(s);
    if (!t)
        return NULL;
    noc_energy_sum_t e;
    noc_energy_run(s, t, &e);
    json_t *by = json_object();
    for (int k = 0; k < NOC_EV_COUNT; k++)
        json_object_set_new(by, noc_event_name(k), json_real(e.ev_pj[k]));
    json_t *j = json_object();
    json_object_set_new(j, "table", table_json(t));
    json_object_set_new(j, "events", events_json(t, e.ev));
    json_object_set_new(j, "dynamic_pj", json_real(e.dynamic_pj));
    json_object_set_new(j, "dynamic_by_event_pj", by);
    json_object_set_new(j, "buffer_bits", json_integer((json_int_t)e.buffer_bits));
    json_t *st = json_pack("{s:f, s:f, s:f, s:f}", "buffers", e.leak_buffer_mw, "routers", e.router_mw, "channels",
                           e.channel_mw, "total", e.static_mw);
    if (e.gates) {
        json_object_set_new(st, "router_gates", json_real(e.gate_mw));
        json_object_set_new(st, "router_clocks", json_real(e.clock_mw));
        json_object_set_new(j, "gates", gates_json(&e.gate_total));
    }
    json_object_set_new(j, "static_mw", st);
    json_object_set_new(j, "cycles", json_integer((json_int_t)e.cycles));
    json_object_set_new(j, "ns", json_real(e.ns));
    json_object_set_new(j, "static_pj", json_real(e.static_pj));
    json_object_set_new(j, "total_pj", json_real(e.total_pj));
    json_object_set_new(j, "average_mw", json_real(e.avg_mw));
    json_object_set_new(j, "flits_delivered", json_integer((json_int_t)e.flits));
    json_object_set_new(j, "pj_per_flit", json_real(e.pj_per_flit));
    json_object_set_new(j, "pj_per_bit", json_real(e.pj_per_bit));
    int full = noc_report_json_full(s);
    json_object_set_new(j, full ? "links" : "links_summary", links_json(s, t, e.ns, full));
    if (e.toggled)
        json_object_set_new(j, "rtl_toggles",
                            json_pack("{s:I, s:f, s:f, s:f}", "toggles", (json_int_t)e.toggles, "toggle_bit_pj",
                                      t->toggle_bit_pj, "dynamic_pj", e.toggle_pj, "router_events_pj",
                                      e.router_event_pj));
    if (noc_sim_config(s)->node_stats)
        json_object_set_new(j, "routers", routers_json(s, t, e.ns));
    if (noc_sim_pe(s) && noc_sim_has_step_tables(s))
        json_object_set_new(j, "steps", steps_json(s, t));
    return j;
}
