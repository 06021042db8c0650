/* program_waits.c: where a program run's time went waiting (model/sim.h,
 * noc_wait_kind_t): per step, the cycles its messages were held back by
 * each resource (NI, input buffer, VC allocation, switch, output link,
 * credit) and where most of them were, as text lines and JSON; and a
 * message's own waits for the critical chain. Injection and ejection
 * channels count as places like the links (docs/programs.md, "Waits"). */
#include "report/report.h"
#include "report/json_internal.h"
#include "model/pe.h"
#include <string.h>

/* Channel c as a place: "a->b" for a link, "a injection" / "a ejection"
 * for the NI's channels. */
void noc_report_place_label(const noc_sim_t *s, int c, char *buf, size_t len)
{
    const noc_graph_t *gr = noc_sim_graph(s);
    int from, to, local, cls;
    char a[64], b[64];
    noc_sim_channel_ends(s, c, &from, &to, &local, &cls);
    noc_graph_label(gr, from, a, sizeof a);
    if (local) {
        snprintf(buf, len, "%s %s", a, c < gr->n_ports ? "ejection" : "injection");
        return;
    }
    noc_graph_label(gr, to, b, sizeof b);
    snprintf(buf, len, "%s->%s", a, b);
}

/* 1 when channel c is an ejection channel (a router's port 0 to its PE). */
static int is_ejection(const noc_sim_t *s, int c)
{
    int from, to, local, cls;
    noc_sim_channel_ends(s, c, &from, &to, &local, &cls);
    return local && c < noc_sim_graph(s)->n_ports;
}

/* Step k's waits: by resource (w[kind]), at ejection channels, and the
 * channel with the most of them (-1: none) with its count. */
typedef struct step_waits {
    uint64_t w[NOC_WAIT_KINDS], ejection, total;
    int top;
    uint64_t top_waits;
} step_waits_t;

static void step_waits(const noc_sim_t *s, int k, step_waits_t *sw)
{
    memset(sw, 0, sizeof *sw);
    sw->top = -1;
    for (int c = 0; c < noc_sim_n_channels(s); c++) {
        uint64_t at = 0;
        for (int kind = 0; kind < NOC_WAIT_KINDS; kind++) {
            uint32_t x = noc_sim_step_wait(s, k, c, kind);
            sw->w[kind] += x;
            at += x;
        }
        if (!at)
            continue;
        sw->total += at;
        if (is_ejection(s, c))
            sw->ejection += at;
        if (at > sw->top_waits) {
            sw->top = c;
            sw->top_waits = at;
        }
    }
}

void noc_report_waits_text(FILE *f, const noc_sim_t *s)
{
    if (!noc_sim_has_step_tables(s))
        return;
    const noc_pe_stats_t *st = noc_pe_stats(noc_sim_pe(s));
    fprintf(f, "  waits         cycles messages were held back, by what held them (docs/programs.md, Waits)\n");
    fprintf(f, "                %-3s %-16s %8s %8s %8s %8s %8s %8s %9s  %s\n", "#", "step", "ni", "buffer", "vc",
            "switch", "link", "credit", "ejection", "most at");
    for (int k = 0; k <= st->n_steps; k++) {
        if (k == st->n_steps && st->steps[k].ops == 0)
            continue;
        step_waits_t sw;
        step_waits(s, k, &sw);
        char top[160] = "-";
        if (sw.top >= 0) {
            char place[140];
            noc_report_place_label(s, sw.top, place, sizeof place);
            snprintf(top, sizeof top, "%s (%llu)", place, (unsigned long long)sw.top_waits);
        }
        fprintf(f, "                %-3d %-16s", k + 1, st->steps[k].name);
        for (int kind = 0; kind < NOC_WAIT_KINDS; kind++)
            fprintf(f, " %8llu", (unsigned long long)sw.w[kind]);
        fprintf(f, " %9llu  %s\n", (unsigned long long)sw.ejection, top);
    }
}

json_t *noc_report_wait_kinds_json(const uint64_t *w)
{
    json_t *o = json_object();
    uint64_t total = 0;
    for (int kind = 0; kind < NOC_WAIT_KINDS; kind++) {
        json_object_set_new(o, noc_wait_kind_name(kind), json_integer((json_int_t)w[kind]));
        total += w[kind];
    }
    json_object_set_new(o, "total", json_integer((json_int_t)total));
    return o;
}

json_t *noc_report_step_waits_json(const noc_sim_t *s, int k)
{
    step_waits_t sw;
    step_waits(s, k, &sw);
    json_t *o = noc_report_wait_kinds_json(sw.w);
    json_object_set_new(o, "ejection", json_integer((json_int_t)sw.ejection));
    if (sw.top >= 0) {
        char place[140];
        noc_report_place_label(s, sw.top, place, sizeof place);
        json_object_set_new(o, "most_at", json_pack("{s:s, s:I}", "place", place, "waits", (json_int_t)sw.top_waits));
    }
    return o;
}

int noc_report_msg_waits(const noc_sim_t *s, uint32_t op, int network, char *buf, size_t len)
{
    const uint32_t *w = noc_pe_msg_waits(noc_sim_pe(s), op);
    size_t at = 0;
    buf[0] = '\0';
    if (!w)
        return 0;
    for (int kind = 0; kind < NOC_WAIT_KINDS; kind++) {
        if (!w[kind] || (kind == NOC_WAIT_NI) == network)
            continue;
        int n = snprintf(buf + at, len - at, "%s%s %u", at ? ", " : "waited ", noc_wait_kind_name(kind), w[kind]);
        if (n < 0 || (size_t)n >= len - at)
            break;
        at += (size_t)n;
    }
    return at > 0;
}
