/* program_chain.c: the critical chain of a program run in its report
 * (model/pe.h, noc_pe_critical_chain), as text and JSON: the elements
 * from cycle 0 to the finishing cycle, each with its cycles, what it is
 * (a computation, a send injecting, a message in the network, a step
 * barrier, an op waiting for its turn) and why it started when it did. */
#include "report/report.h"
#include "report/json_internal.h"
#include "model/pe.h"
#include <stdlib.h>
#include <string.h>

/* Text lines of the chain at most; JSON has every element. */
#define CHAIN_LINES 40

static void rank_label(const noc_sim_t *s, uint32_t op, char *buf, size_t len)
{
    const noc_program_t *p = noc_pe_program(noc_sim_pe(s));
    int r = -1;
    for (int k = 0; k < p->n_ranks && r < 0; k++)
        if (op >= p->ranks[k].op_start && op < p->ranks[k].op_start + p->ranks[k].n_ops)
            r = k;
    if (r < 0)
        snprintf(buf, len, "?");
    else
        noc_graph_label(noc_sim_graph(s), r, buf, len);
}

/* What the element is, in words: "<a> add 2w", "<a>-><b> 1w", ... */
static void elem_what(const noc_sim_t *s, const noc_chain_elem_t *e, char *buf, size_t len)
{
    const noc_program_t *p = noc_pe_program(noc_sim_pe(s));
    const noc_op_t *o = &p->ops[e->op];
    char a[64], b[64];
    rank_label(s, e->op, a, sizeof a);
    switch (e->kind) {
    case NOC_CHAIN_SEND:
    case NOC_CHAIN_NETWORK:
        noc_graph_label(noc_sim_graph(s), o->peer, b, sizeof b);
        snprintf(buf, len, "%s->%s %uw%s", a, b, o->words, e->held ? " (released an earlier-sent one held)" : "");
        break;
    case NOC_CHAIN_BARRIER:
        snprintf(buf, len, "step %s opens (after %s %s)", p->steps[e->step], a,
                 noc_op_kind_name((noc_op_kind_t)o->kind));
        break;
    case NOC_CHAIN_RECV:
        if (o->peer >= 0)
            noc_graph_label(noc_sim_graph(s), o->peer, b, sizeof b);
        snprintf(buf, len, "%s recv from %s", a, o->peer >= 0 ? b : "any");
        break;
    default:
        snprintf(buf, len, "%s %s", a, noc_op_kind_name((noc_op_kind_t)o->kind));
        break;
    }
}

void noc_report_chain_text(FILE *f, const noc_sim_t *s)
{
    const noc_pe_t *pe = noc_sim_pe(s);
    int n;
    noc_chain_elem_t *e = noc_pe_critical_chain(pe, &n);
    uint64_t by[NOC_CHAIN_KIND_COUNT] = { 0 }, total = 0;
    int messages = 0;
    for (int i = 0; i < n; i++) {
        by[e[i].kind] += e[i].end - e[i].start;
        total += e[i].end - e[i].start;
        messages += e[i].kind == NOC_CHAIN_NETWORK;
    }
    fprintf(f, "  critical path %llu cycles, %d element%s, %d message%s", (unsigned long long)total, n,
            n == 1 ? "" : "s", messages, messages == 1 ? "" : "s");
    for (int k = 0; k < NOC_CHAIN_KIND_COUNT; k++)
        if (by[k])
            fprintf(f, "; %s %llu", noc_chain_kind_name(k), (unsigned long long)by[k]);
    fputc('\n', f);
    for (int i = 0; i < n && i < CHAIN_LINES; i++) {
        char what[256];
        elem_what(s, &e[i], what, sizeof what);
        const char *step = e[i].step >= 0 && e[i].kind != NOC_CHAIN_BARRIER
                               ? noc_pe_program(pe)->steps[e[i].step] : "";
        char waits[160] = "";
        if (e[i].kind == NOC_CHAIN_SEND || e[i].kind == NOC_CHAIN_NETWORK)
            noc_report_msg_waits(s, e[i].op, e[i].kind == NOC_CHAIN_NETWORK, waits, sizeof waits);
        fprintf(f, "                %8llu..%-8llu %-8s %-44s %-18s %s%s%s\n", (unsigned long long)e[i].start,
                (unsigned long long)e[i].end, noc_chain_kind_name(e[i].kind), what, noc_chain_why_name(e[i].why),
                step, waits[0] ? "  " : "", waits);
    }
    if (n > CHAIN_LINES)
        fprintf(f, "                ... %d elements more (--json has every one)\n", n - CHAIN_LINES);
    free(e);
}

json_t *noc_report_chain_json(const noc_sim_t *s)
{
    const noc_pe_t *pe = noc_sim_pe(s);
    const noc_program_t *p = noc_pe_program(pe);
    int n;
    noc_chain_elem_t *e = noc_pe_critical_chain(pe, &n);
    json_t *chain = json_array();
    uint64_t total = 0;
    int messages = 0;
    for (int i = 0; i < n; i++) {
        const noc_op_t *o = &p->ops[e[i].op];
        char a[64], b[64];
        rank_label(s, e[i].op, a, sizeof a);
        json_t *x = json_pack("{s:s, s:I, s:I, s:I, s:s}", "kind", noc_chain_kind_name(e[i].kind), "start",
                              (json_int_t)e[i].start, "end", (json_int_t)e[i].end, "cycles",
                              (json_int_t)(e[i].end - e[i].start), "why", noc_chain_why_name(e[i].why));
        if (e[i].kind == NOC_CHAIN_SEND || e[i].kind == NOC_CHAIN_NETWORK) {
            noc_graph_label(noc_sim_graph(s), o->peer, b, sizeof b);
            json_object_set_new(x, "from", json_string(a));
            json_object_set_new(x, "to", json_string(b));
            json_object_set_new(x, "words", json_integer((json_int_t)o->words));
            if (e[i].kind == NOC_CHAIN_NETWORK)
                json_object_set_new(x, "held", json_boolean(e[i].held));
            const uint32_t *w = noc_pe_msg_waits(pe, e[i].op);
            if (w) { /* the message's waits, every resource (docs/programs.md, Waits) */
                uint64_t by[NOC_WAIT_KINDS];
                for (int kind = 0; kind < NOC_WAIT_KINDS; kind++)
                    by[kind] = w[kind];
                json_object_set_new(x, "waits", noc_report_wait_kinds_json(by));
            }
        } else {
            json_object_set_new(x, "node", json_string(a));
            json_object_set_new(x, "op", json_string(noc_op_kind_name((noc_op_kind_t)o->kind)));
        }
        if (o->line)
            json_object_set_new(x, "line", json_integer((json_int_t)o->line));
        if (e[i].step >= 0)
            json_object_set_new(x, "step", json_string(p->steps[e[i].step]));
        json_array_append_new(chain, x);
        total += e[i].end - e[i].start;
        messages += e[i].kind == NOC_CHAIN_NETWORK;
    }
    free(e);
    return json_pack("{s:I, s:i, s:o}", "cycles", (json_int_t)total, "messages", messages, "chain", chain);
}
