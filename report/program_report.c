/* report_program.c: the report of a program run, as text and JSON: the
 * result, cycles, operations, messages, the steps (when each ran, how many
 * cycles, what it moved) and the links (shared with the synthetic report). */
#include "report/report.h"
#include "report/json_internal.h"
#include "report/links_summary.h"
#include "util/version.h"
#include "model/pe.h"
#include <stdlib.h>
#include <string.h>

/* Cycles of a step: from the first start of one of its ops to the last
 * completion (0 for a step whose ops took no time). */
static uint64_t step_cycles(const noc_pe_step_stats_t *k)
{
    if (k->first_start == NOC_NEVER || k->last_end == NOC_NEVER || k->last_end < k->first_start)
        return 0;
    return k->last_end - k->first_start;
}

void noc_report_count_kinds(const noc_program_t *p, uint64_t *sends, uint64_t *recvs, uint64_t *computes)
{
    *sends = *recvs = *computes = 0;
    for (uint32_t i = 0; i < p->n_ops; i++) {
        if (p->ops[i].kind == NOC_OP_SEND)
            (*sends)++;
        else if (p->ops[i].kind == NOC_OP_RECV)
            (*recvs)++;
        else
            (*computes)++;
    }
}

json_t *noc_report_operations_json(const noc_program_t *p, uint64_t total, uint64_t done)
{
    uint64_t sends, recvs, computes;
    noc_report_count_kinds(p, &sends, &recvs, &computes);
    return json_pack("{s:I, s:I, s:I, s:I, s:I}", "total", (json_int_t)total, "done", (json_int_t)done, "sends",
                     (json_int_t)sends, "receives", (json_int_t)recvs, "computations", (json_int_t)computes);
}

/* Step k's link with the most waiting (every resource's; ties: the most
 * flits), or -1 if its messages used no link. */
static int step_hot_link(const noc_sim_t *s, int k, uint32_t *flits, uint32_t *waits)
{
    int best = -1;
    *flits = *waits = 0;
    for (int c = 0; c < noc_sim_n_channels(s); c++) {
        uint32_t fl = noc_sim_step_flits(s, k, c), w = noc_sim_step_waits_all(s, k, c);
        int from, to, local, cls;
        noc_sim_channel_ends(s, c, &from, &to, &local, &cls);
        if ((fl == 0 && w == 0) || local)
            continue;
        if (best < 0 || w > *waits || (w == *waits && fl > *flits)) {
            best = c;
            *flits = fl;
            *waits = w;
        }
    }
    return best;
}

static void link_label(const noc_sim_t *s, int c, char *buf, size_t len)
{
    int from, to, local, cls;
    char a[64], b[64];
    noc_sim_channel_ends(s, c, &from, &to, &local, &cls);
    noc_graph_label(noc_sim_graph(s), from, a, sizeof a);
    noc_graph_label(noc_sim_graph(s), to, b, sizeof b);
    snprintf(buf, len, "%s->%s", a, b);
}

void noc_report_program_text(FILE *f, const noc_sim_t *s, const noc_program_t *p,
                             const noc_prog_result_t *res)
{
    const noc_graph_t *gr = noc_sim_graph(s);
    const noc_config_t *c = noc_sim_config(s);
    const noc_pe_stats_t *st = noc_pe_stats(noc_sim_pe(s));
    fprintf(f, "noctua %s: program %s on %s (%d nodes, %d ranks), router %s, %s NI%s\n", noc_version(),
            p->name ? p->name : res->name, gr->name, gr->n_nodes, p->n_ranks, c->router,
            c->ni_ports == 1 ? "one-port" : "all-port", c->sync_steps ? ", steps synchronised" : "");
    if (strcmp(res->verdict, "ok") == 0 && p->n_expect == 0)
        fprintf(f, "  result        not data-checked: the program states no expected values (expect)\n");
    else if (strcmp(res->verdict, "ok") == 0)
        fprintf(f, "  result        ok: %u values checked on %d PEs\n", p->n_expect, p->n_ranks);
    else
        fprintf(f, "  result        %s: %s\n", res->verdict, res->error[0] ? res->error : "the run stopped");
    fprintf(f, "  cycles        %llu", (unsigned long long)st->cycles);
    if (res->synced)
        fprintf(f, " (%llu with a barrier at every step)", (unsigned long long)res->synced->cycles);
    fputc('\n', f);
    uint64_t sends, recvs, computes;
    noc_report_count_kinds(p, &sends, &recvs, &computes);
    fprintf(f, "  operations    %llu of %llu done: %llu sends, %llu receives, %llu computations\n",
            (unsigned long long)st->ops_done, (unsigned long long)st->ops, (unsigned long long)sends,
            (unsigned long long)recvs, (unsigned long long)computes);
    uint64_t hops = 0;
    for (int k = 0; k <= st->n_steps; k++)
        hops += st->steps[k].flit_hops;
    fprintf(f, "  messages      %llu (%llu words); %llu flit-hops\n", (unsigned long long)st->messages,
            (unsigned long long)st->words, (unsigned long long)hops);
    fprintf(f, "  steps         %-3s %-16s %8s %8s %8s %9s %8s %10s  %s%s\n", "#", "name", "first", "last",
            "cycles", "messages", "words", "flit-hops", res->synced ? "synced  " : "",
            "hot link (flits, waits)");
    for (int k = 0; k <= st->n_steps; k++) {
        const noc_pe_step_stats_t *sk = &st->steps[k];
        if (k == st->n_steps && sk->ops == 0)
            continue; /* no op outside the steps */
        char first[24] = "-", last[24] = "-";
        if (sk->first_start != NOC_NEVER)
            snprintf(first, sizeof first, "%llu", (unsigned long long)sk->first_start);
        if (sk->last_end != NOC_NEVER)
            snprintf(last, sizeof last, "%llu", (unsigned long long)sk->last_end);
        char hot[200] = "-";
        uint32_t hf, hw;
        int hl = step_hot_link(s, k, &hf, &hw);
        if (hl >= 0) {
            char name[160];
            link_label(s, hl, name, sizeof name);
            snprintf(hot, sizeof hot, "%s (%u, %u)", name, hf, hw);
        }
        char synced[24] = "";
        if (res->synced)
            snprintf(synced, sizeof synced, "%6llu  ", (unsigned long long)step_cycles(&res->synced->steps[k]));
        fprintf(f, "                %-3d %-16s %8s %8s %8llu %9llu %8llu %10llu  %s%s\n", k + 1, sk->name, first,
                last, (unsigned long long)step_cycles(sk), (unsigned long long)sk->messages,
                (unsigned long long)sk->words, (unsigned long long)sk->flit_hops, synced, hot);
    }
    /* the generator's facts: "key = value" lines */
    if (res->facts && res->facts[0]) {
        const char *line = res->facts;
        int first = 1;
        while (*line) {
            const char *end = strchr(line, '\n');
            int n = end ? (int)(end - line) : (int)strlen(line);
            if (n > 0)
                fprintf(f, "  %-13s %.*s\n", first ? "facts" : "", n, line);
            first = 0;
            line += n + (end ? 1 : 0);
        }
    }
    noc_report_waits_text(f, s);
    noc_report_chain_text(f, s);
    noc_report_energy_text(f, s);
    noc_report_nodes_text(f, s);
    /* the one denominator of the tables below and of the steps' (JSON) */
    uint64_t win = noc_sim_stats(s)->sample;
    fprintf(f, "  utilisation   busy cycles / the %llu cycles %s; a step's links (JSON) / the step's cycles\n",
            (unsigned long long)win, win == st->cycles ? "of the run" : "simulated");
    noc_report_links_text(f, s);
    fprintf(f, "  wall clock    %.3f s\n", res->seconds);
}

/* 1 if step k lists channel c among its links: a link its messages used,
 * or the NI's channel where they waited; its busy cycles in *busy. */
static int step_link_used(const noc_sim_t *s, int k, int c, uint64_t *busy)
{
    uint32_t fl = noc_sim_step_flits(s, k, c), w = noc_sim_step_waits_all(s, k, c);
    int from, to, local, lat, ser;
    if (!fl && !w)
        return 0;
    noc_sim_channel_ends(s, c, &from, &to, &local, NULL);
    if (local && !w)
        return 0; /* the PE's own channels: listed where the step waited on them */
    noc_sim_channel_timing(s, c, &lat, &ser);
    *busy = (uint64_t)fl * (uint64_t)ser;
    return 1;
}

/* Channel c's row of step k's links (step_link_used): flits, busy cycles,
 * utilisation over the step's span, and the cycles they waited there by
 * resource ("waits": all of them; "credit_stalls": the credit ones). */
static json_t *step_link_row(const noc_sim_t *s, int k, const noc_pe_step_stats_t *sk, int c, uint64_t busy)
{
    const noc_graph_t *gr = noc_sim_graph(s);
    uint32_t fl = noc_sim_step_flits(s, k, c), w = noc_sim_step_waits_all(s, k, c);
    int from, to, local;
    char a[64], b[64];
    noc_sim_channel_ends(s, c, &from, &to, &local, NULL);
    noc_graph_label(gr, from, a, sizeof a);
    noc_graph_label(gr, to, b, sizeof b);
    uint64_t span = step_cycles(sk), by[NOC_WAIT_KINDS];
    for (int kind = 0; kind < NOC_WAIT_KINDS; kind++)
        by[kind] = noc_sim_step_wait(s, k, c, kind);
    json_t *o = json_pack("{s:s, s:s, s:I, s:I, s:f, s:I, s:I}", "from", a, "to", b, "flits", (json_int_t)fl, "busy",
                          (json_int_t)busy, "utilisation", span ? (double)busy / (double)span : 0.0, "waits",
                          (json_int_t)w, "credit_stalls", (json_int_t)by[NOC_WAIT_CREDIT]);
    if (local)
        json_object_set_new(o, "local", json_string(c < gr->n_ports ? "ejection" : "injection"));
    json_object_set_new(o, "wait", noc_report_wait_kinds_json(by));
    return o;
}

/* Step k's links: every row (full), or {rows, hottest[the 16 busiest]}. */
static json_t *step_links_json(const noc_sim_t *s, int k, const noc_pe_step_stats_t *sk, int full)
{
    json_t *ls = json_array();
    noc_top_t top;
    noc_top_init(&top, NOC_JSON_HOTTEST);
    uint64_t rows = 0, busy;
    for (int c = 0; c < noc_sim_n_channels(s); c++) {
        if (!step_link_used(s, k, c, &busy))
            continue;
        rows++;
        if (full)
            json_array_append_new(ls, step_link_row(s, k, sk, c, busy));
        else
            noc_top_add(&top, (size_t)c, busy);
    }
    if (full)
        return ls;
    for (int i = 0; i < top.n; i++) {
        int c = (int)top.id[i];
        json_array_append_new(ls, step_link_row(s, k, sk, c, top.key[i]));
    }
    return json_pack("{s:I, s:o}", "rows", (json_int_t)rows, "hottest", ls);
}

/* The steps' figures (and the flit hops of all of them into *hops). */
static json_t *steps_json(const noc_sim_t *s, const noc_prog_result_t *res, uint64_t *hops)
{
    const noc_pe_stats_t *st = noc_pe_stats(noc_sim_pe(s));
    json_t *steps = json_array();
    *hops = 0;
    for (int k = 0; k <= st->n_steps; k++) {
        const noc_pe_step_stats_t *sk = &st->steps[k];
        *hops += sk->flit_hops;
        if (k == st->n_steps && sk->ops == 0)
            continue;
        json_t *o = json_pack("{s:s, s:I, s:I, s:I, s:I, s:I}", "name", sk->name, "cycles",
                              (json_int_t)step_cycles(sk), "ops", (json_int_t)sk->ops, "messages",
                              (json_int_t)sk->messages, "words", (json_int_t)sk->words, "flit_hops",
                              (json_int_t)sk->flit_hops);
        json_object_set_new(o, "first", sk->first_start == NOC_NEVER ? json_null()
                                                                       : json_integer((json_int_t)sk->first_start));
        json_object_set_new(o, "last", sk->last_end == NOC_NEVER ? json_null()
                                                                   : json_integer((json_int_t)sk->last_end));
        if (res->synced)
            json_object_set_new(o, "cycles_synced", json_integer((json_int_t)step_cycles(&res->synced->steps[k])));
        if (noc_sim_has_step_tables(s)) {
            int full = noc_report_json_full(s);
            json_object_set_new(o, full ? "links" : "links_summary", step_links_json(s, k, sk, full));
            json_object_set_new(o, "waits", noc_report_step_waits_json(s, k));
        }
        json_array_append_new(steps, o);
    }
    return steps;
}

/* The generator's facts ("key = value" lines) as an object: numbers where
 * they read as numbers. */
static json_t *facts_json(const char *text)
{
    json_t *facts = json_object();
    for (const char *line = text ? text : ""; *line;) {
        const char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        char buf[512];
        snprintf(buf, sizeof buf, "%.*s", (int)(n < sizeof buf ? n : sizeof buf - 1), line);
        char *eq = strstr(buf, " = ");
        if (eq) {
            *eq = '\0';
            char *val = eq + 3, *num_end = NULL;
            double x = strtod(val, &num_end);
            json_object_set_new(facts, buf, *val && num_end && *num_end == '\0' ? json_real(x) : json_string(val));
        }
        line += n + (end ? 1 : 0);
    }
    return facts;
}

static json_t *program_json(const noc_sim_t *s, const noc_program_t *p, const noc_prog_result_t *res)
{
    const noc_graph_t *gr = noc_sim_graph(s);
    const noc_pe_stats_t *st = noc_pe_stats(noc_sim_pe(s));
    json_t *j = json_object();
    json_object_set_new(j, "noctua", json_string(noc_version()));
    json_object_set_new(j, "program", json_string(p->name ? p->name : res->name));
    json_object_set_new(j, "topology", json_string(gr->name));
    json_object_set_new(j, "nodes", json_integer(gr->n_nodes));
    json_object_set_new(j, "ranks", json_integer(p->n_ranks));
    json_object_set_new(j, "result", json_string(res->verdict));
    json_object_set_new(j, "values_checked", json_integer((json_int_t)p->n_expect)); /* 0: not data-checked */
    if (res->error[0])
        json_object_set_new(j, "error", json_string(res->error));
    json_object_set_new(j, "interrupted", json_boolean(res->status == NOC_RUN_INTERRUPTED));
    json_object_set_new(j, "cycles", json_integer((json_int_t)st->cycles));
    if (res->synced)
        json_object_set_new(j, "cycles_synced", json_integer((json_int_t)res->synced->cycles));
    json_object_set_new(j, "operations", noc_report_operations_json(p, st->ops, st->ops_done));
    json_object_set_new(j, "messages", json_integer((json_int_t)st->messages));
    json_object_set_new(j, "words", json_integer((json_int_t)st->words));
    uint64_t hops;
    json_object_set_new(j, "steps", steps_json(s, res, &hops));
    json_object_set_new(j, "facts", facts_json(res->facts));
    json_object_set_new(j, "critical_path", noc_report_chain_json(s));
    json_object_set_new(j, "flit_hops", json_integer((json_int_t)hops));
    json_object_set_new(j, "config", noc_report_config_json(s));
    /* what every utilisation outside the steps divides by (docs/programs.md) */
    json_object_set_new(j, "utilisation_cycles", json_integer((json_int_t)noc_sim_stats(s)->sample));
    noc_report_tables_json(j, s, 1); /* (the rows written one by one, noc_report_program_json) */
    json_t *nodes = noc_report_nodes_json(s);
    if (nodes)
        json_object_set_new(j, "nodes", nodes);
    json_t *energy = noc_report_energy_json(s);
    if (energy)
        json_object_set_new(j, "energy", energy);
    return j;
}

int noc_report_program_json(const noc_sim_t *s, const noc_program_t *p, const noc_prog_result_t *res,
                            const char *path, char *err, size_t errlen)
{
    size_t nc = (size_t)noc_sim_n_channels(s);
    const noc_json_table_t tabs[] = { { "links", nc, noc_report_link_row, s },
                                      { "local_channels", nc, noc_report_local_row, s } };
    return noc_report_write_json_tables(program_json(s, p, res), tabs, 2, path, err, errlen);
}
