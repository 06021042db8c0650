/* gtkw.c: the GTKWave save file written beside a wave file (X.fst ->
 * X.gtkw), in the format GTKWave itself saves (its savefile.c):
 * "[key] value" lines, a "*ZOOM MARKER A B C ..." line with the named
 * markers' times (-1: unset), "[markername] A<name>", trace lines that are
 * full signal names ("+{alias} name" to show an alias), "@<hex flags>"
 * setting the flags of the traces that follow (0x28 binary, 0x24 decimal,
 * 0x200 a comment row, 0x800200 / 0x1000200 a group's start and end,
 * 0xc00200 / 0x1401200 a closed group's), "-text" rows.
 *
 * What it shows, top to bottom: the top step signal; for a program run the
 * hot link of every step (the report's rule: most cycles waited, then most
 * flits) and its last link, each with the occupancy of the input buffer it
 * feeds (a full buffer downstream is what a waiting flit waits for), and
 * the links of the critical path's messages in path order; the
 * links that carried the most flits; then one closed group per group of
 * the fabric (BSN part/group, mesh row, ...) with each node's PE and its
 * links, busiest first. A named marker (A, B, ...) sits at the first cycle
 * of each step, named after it (GTKWave has 26 such markers). */
#include "util/xalloc.h"
#include "waves/waves_internal.h"
#include "model/pe.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum {
    F_BIN = 0x28, F_DEC = 0x24, F_COMMENT = 0x200, F_GRP = 0x800200, F_GRP_END = 0x1000200,
    F_GRP_CLOSED = 0xc00200, F_GRP_CLOSED_END = 0x1401200
};

#define MAX_MARKERS 26
#define HOT_LINKS 8
#define PATH_LINKS 64
#define BRIEF_NODES 64

typedef struct out {
    FILE *f;    /* NULL: only measure the names (widest) */
    int flags;  /* flags of the last "@" line, -1 none */
    size_t widest; /* the longest name GTKWave shows in its signals pane, in characters */
} out_t;

static void flags(out_t *o, int fl)
{
    if (o->flags != fl && o->f)
        fprintf(o->f, "@%x\n", (unsigned)fl);
    o->flags = fl;
}

static void shown(out_t *o, size_t len)
{
    if (len > o->widest)
        o->widest = len;
}

static void row(out_t *o, int fl, const char *text)
{
    flags(o, fl);
    shown(o, strlen(text) + ((fl & 0x800000) ? 2 : 0)); /* a group's header: "NAME {" */
    if (o->f)
        fprintf(o->f, "-%s\n", text);
}

static void trace(out_t *o, int fl, const char *alias, const char *path, const char *leaf)
{
    flags(o, fl);
    shown(o, alias ? strlen(alias) + 1 + strlen(leaf) : strlen(leaf));
    if (!o->f)
        return;
    if (alias)
        fprintf(o->f, "+{%s %s} %s.%s\n", alias, leaf, path, leaf);
    else
        fprintf(o->f, "%s.%s\n", path, leaf);
}

/* The recorded link leaving over channel c, or NULL when it is not in scope. */
static const noc_wv_link_t *find_link(const noc_waves_t *w, int c)
{
    int lo = 0, hi = w->n_links - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (w->links[mid].c == c)
            return &w->links[mid];
        if (w->links[mid].c < c)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return NULL;
}

static void link_name(const noc_waves_t *w, const noc_wv_link_t *l, char *buf, size_t len)
{
    char a[96], b[96];
    noc_graph_label(noc_sim_graph(w->s), l->from, a, sizeof a);
    noc_graph_label(noc_sim_graph(w->s), l->to, b, sizeof b);
    snprintf(buf, len, "%s->%s", a, b);
}

static void link_traces(out_t *o, const noc_waves_t *w, const noc_wv_link_t *l, int full)
{
    char alias[200], path[600];
    link_name(w, l, alias, sizeof alias);
    snprintf(path, sizeof path, "%s.%s", w->nodes[l->node].path, l->name);
    trace(o, F_BIN, alias, path, "valid");
    trace(o, F_DEC, alias, path, "pkt");
    trace(o, F_BIN, alias, path, "src");
    trace(o, F_BIN, alias, path, "dst");
    if (full) {
        trace(o, F_DEC, alias, path, "vc");
        trace(o, F_BIN, alias, path, "head");
        trace(o, F_BIN, alias, path, "tail");
        trace(o, F_DEC, alias, path, "grant");
    }
}

/* The input buffer the link l feeds: its downstream router's occupancy,
 * one trace per VC (what a flit that waited on l was waiting for); nothing
 * when that node is out of the recorded scope. */
static void downstream_traces(out_t *o, const noc_waves_t *w, const noc_wv_link_t *l)
{
    const noc_graph_t *gr = noc_sim_graph(w->s);
    const noc_wv_node_t *nd = NULL;
    for (int i = 0; i < w->n_nodes && !nd; i++)
        if (w->nodes[i].n == l->to)
            nd = &w->nodes[i];
    if (!nd)
        return;
    char alias[240], path[600], from[96], to[96], leaf[32];
    noc_graph_label(gr, l->from, from, sizeof from);
    noc_graph_label(gr, l->to, to, sizeof to);
    snprintf(alias, sizeof alias, "%s in from %s", to, from);
    snprintf(path, sizeof path, "%s.in_p%d", nd->path, gr->peer[l->c] - gr->port_base[l->to]);
    for (int v = 0; v < noc_sim_vcs(w->s); v++) {
        snprintf(leaf, sizeof leaf, "occ_vc%d", v);
        trace(o, F_DEC, alias, path, leaf);
    }
}

static uint64_t flits(const noc_waves_t *w, const noc_wv_link_t *l)
{
    return noc_sim_link_stats(w->s, l->c)->flits;
}

/* Step k's hot link as the report names it: the most cycles waited, then
 * the most flits; -1 if its messages used no link. */
static int step_hot_link(const noc_sim_t *s, int k, uint32_t *fl_out, uint32_t *wt_out)
{
    int best = -1;
    uint32_t bf = 0, bw = 0;
    for (int c = 0; c < noc_sim_n_channels(s); c++) {
        uint32_t fl = noc_sim_step_flits(s, k, c), wt = noc_sim_step_waits_all(s, k, c);
        int from, to, local, cls;
        noc_sim_channel_ends(s, c, &from, &to, &local, &cls);
        if ((fl == 0 && wt == 0) || local)
            continue;
        if (best < 0 || wt > bw || (wt == bw && fl > bf)) {
            best = c;
            bf = fl;
            bw = wt;
        }
    }
    *fl_out = bf;
    *wt_out = bw;
    return best;
}

static int rank_of_op(const noc_program_t *p, uint32_t op)
{
    for (int r = 0; r < p->n_ranks; r++)
        if (op >= p->ranks[r].op_start && op < p->ranks[r].op_start + p->ranks[r].n_ops)
            return r;
    return -1;
}

/* The channels the messages of the critical chain (noc_pe_critical_chain)
 * crossed, first message first; returns how many (at most max). */
static int critical_links(const noc_sim_t *s, int *chan, int max)
{
    const noc_pe_t *pe = noc_sim_pe(s);
    const noc_program_t *p = noc_pe_program(pe);
    const noc_graph_t *gr = noc_sim_graph(s);
    int n, k = 0;
    noc_chain_elem_t *e = noc_pe_critical_chain(pe, &n);
    for (int i = 0; i < n && k < max; i++) {
        if (e[i].kind != NOC_CHAIN_NETWORK)
            continue;
        int src = rank_of_op(p, e[i].op), dst = p->ops[e[i].op].peer, cur = src;
        for (int hop = 0; src >= 0 && cur != dst && hop < gr->n_nodes && k < max; hop++) {
            noc_route_t r;
            noc_graph_route(gr, cur, src, dst, 0, hop, &r); /* programs: no draws */
            if (r.port == 0)
                break;
            int c = gr->port_base[cur] + r.port;
            if (k == 0 || chan[k - 1] != c)
                chan[k++] = c;
            noc_sim_channel_ends(s, c, NULL, &cur, NULL, NULL);
        }
    }
    free(e);
    return k;
}

typedef struct ranked {
    const noc_wv_link_t *l;
    uint64_t flits;
} ranked_t;

static int by_flits(const void *a, const void *b)
{
    const ranked_t *x = a, *y = b;
    if (x->flits != y->flits)
        return x->flits > y->flits ? -1 : 1;
    return x->l->c < y->l->c ? -1 : x->l->c > y->l->c;
}

/* Step k's last link among the recorded ones: the one over which a flit
 * of the step's messages arrived last (ties: the most cycles waited, then
 * the most flits, then the lowest channel); NULL if none. *at: that cycle. */
static const noc_wv_link_t *step_last_link(const noc_waves_t *w, int k, uint64_t *at)
{
    const noc_wv_link_t *best = NULL;
    uint32_t bt = 0, bw = 0, bf = 0;
    if (!w->step_last)
        return NULL;
    for (int i = 0; i < w->n_links; i++) {
        uint32_t t = w->step_last[(size_t)i * (size_t)w->step_rows + (size_t)k];
        if (t == 0)
            continue;
        uint32_t wt = noc_sim_step_waits_all(w->s, k, w->links[i].c), fl = noc_sim_step_flits(w->s, k, w->links[i].c);
        if (!best || t > bt || (t == bt && (wt > bw || (wt == bw && fl > bf)))) {
            best = &w->links[i];
            bt = t;
            bw = wt;
            bf = fl;
        }
    }
    *at = bt ? bt - 1 : 0;
    return best;
}

/* For every step: the report's hot link (the most cycles waited, then the
 * most flits) and the last link (whose flit arrived last in the step: the
 * arrival the step waited for longest). */
static void step_section(out_t *o, const noc_waves_t *w)
{
    const noc_sim_t *s = w->s;
    const noc_pe_stats_t *st = noc_pe_stats(noc_sim_pe(s));
    if (st->n_steps == 0)
        return;
    row(o, F_GRP, "steps: hot link, last link");
    for (int k = 0; k < st->n_steps; k++) {
        uint32_t fl = 0, wt = 0;
        uint64_t at = 0;
        char text[600], hot[200] = "-", last[200] = "-";
        int c = noc_sim_has_step_tables(s) ? step_hot_link(s, k, &fl, &wt) : -1;
        const noc_wv_link_t *hl = c >= 0 ? find_link(w, c) : NULL, *ll = step_last_link(w, k, &at);
        if (hl)
            link_name(w, hl, hot, sizeof hot);
        else if (c >= 0)
            snprintf(hot, sizeof hot, "out of scope");
        if (ll)
            link_name(w, ll, last, sizeof last);
        snprintf(text, sizeof text, "step %d %s: hot %s (%u flits, %u waits); last %s", k + 1, st->steps[k].name,
                 hot, fl, wt, last);
        if (ll) {
            size_t n = strlen(text);
            snprintf(text + n, sizeof text - n, " at %llu", (unsigned long long)at);
        }
        row(o, F_COMMENT, text);
        if (hl) {
            link_traces(o, w, hl, 0);
            downstream_traces(o, w, hl); /* the buffer that holds its flits up */
        }
        if (ll && ll != hl) {
            link_traces(o, w, ll, 0);
            downstream_traces(o, w, ll);
        }
    }
    row(o, F_GRP_END, "steps: hot link, last link");

    int chan[PATH_LINKS];
    int n = critical_links(s, chan, PATH_LINKS);
    if (n == 0)
        return;
    row(o, F_GRP, "critical path links");
    for (int i = 0; i < n; i++) {
        const noc_wv_link_t *l = find_link(w, chan[i]);
        if (l)
            link_traces(o, w, l, 0);
    }
    row(o, F_GRP_END, "critical path links");
}

static void hot_section(out_t *o, const noc_waves_t *w, ranked_t *rk)
{
    int n = 0;
    for (int i = 0; i < w->n_links; i++)
        rk[n++] = (ranked_t){ &w->links[i], flits(w, &w->links[i]) };
    qsort(rk, (size_t)n, sizeof *rk, by_flits);
    if (n == 0 || rk[0].flits == 0)
        return;
    row(o, F_GRP, "busiest links");
    for (int i = 0; i < n && i < HOT_LINKS && rk[i].flits > 0; i++) {
        char text[300], name[200];
        link_name(w, rk[i].l, name, sizeof name);
        snprintf(text, sizeof text, "%s: %llu flits", name, (unsigned long long)rk[i].flits);
        row(o, F_COMMENT, text);
        link_traces(o, w, rk[i].l, 1);
    }
    row(o, F_GRP_END, "busiest links");
}

/* One closed group per fabric group: each node's PE, then its links,
 * busiest first; with more than BRIEF_NODES nodes in scope only the PE's
 * op and the links' valid (the rest is a click away in GTKWave's tree). */
static void fabric_section(out_t *o, const noc_waves_t *w, ranked_t *rk)
{
    const noc_graph_t *gr = noc_sim_graph(w->s);
    int brief = w->n_nodes > BRIEF_NODES;
    for (int i = 0; i < w->n_nodes;) {
        const char *g = w->nodes[i].group;
        char gname[96];
        snprintf(gname, sizeof gname, "%s", g[0] ? g : "nodes");
        row(o, F_GRP_CLOSED, gname);
        for (; i < w->n_nodes && strcmp(w->nodes[i].group, g) == 0; i++) {
            const noc_wv_node_t *nd = &w->nodes[i];
            char label[96], pe[600];
            noc_graph_label(gr, nd->n, label, sizeof label);
            row(o, F_COMMENT, label);
            if (nd->pe_sig != UINT32_MAX) {
                snprintf(pe, sizeof pe, "%s.pe", nd->path);
                trace(o, F_BIN, label, pe, "op");
                if (!brief) {
                    trace(o, F_BIN, label, pe, "step");
                    trace(o, F_DEC, label, pe, "sends");
                    trace(o, F_DEC, label, pe, "recvs");
                }
            }
            int n = 0, end = i + 1 < w->n_nodes ? (int)w->nodes[i + 1].link0 : w->n_links;
            for (int k = (int)nd->link0; k < end; k++)
                rk[n++] = (ranked_t){ &w->links[k], flits(w, &w->links[k]) };
            qsort(rk, (size_t)n, sizeof *rk, by_flits);
            for (int k = 0; k < n; k++) {
                if (brief) {
                    char alias[200], path[600];
                    link_name(w, rk[k].l, alias, sizeof alias);
                    snprintf(path, sizeof path, "%s.%s", nd->path, rk[k].l->name);
                    trace(o, F_BIN, alias, path, "valid");
                } else {
                    link_traces(o, w, rk[k].l, 0);
                }
            }
        }
        row(o, F_GRP_CLOSED_END, gname);
    }
}

/* The sections in order; with o->f NULL they only measure. */
static void sections(out_t *o, const noc_waves_t *w, ranked_t *rk)
{
    if (w->step_sig != UINT32_MAX)
        trace(o, F_BIN, NULL, "top", "step");
    if (noc_sim_pe(w->s))
        step_section(o, w);
    hot_section(o, w, rk);
    fabric_section(o, w, rk);
}

void noc_wv_write_gtkw(const noc_waves_t *w, FILE *f, const char *gtkw_path, const char *dump_path,
                       uint64_t end)
{
    const noc_sim_t *s = w->s;
    const noc_pe_t *pe = noc_sim_pe(s);
    out_t o = { f, -1, 0 };
    ranked_t *rk = noc_xmalloc(((size_t)w->n_links + 1) * sizeof *rk, "waves: save file");
    fprintf(f, "[*]\n[*] noctua: %s, %s; open with gtkwave %s %s\n", noc_sim_graph(s)->name,
            pe ? "program run" : "synthetic traffic", dump_path, gtkw_path);
    fprintf(f, "[*] one time unit (1 ns) is one cycle; markers A, B, ... at the first cycle of each step\n[*]\n");
    fprintf(f, "[dumpfile] \"%s\"\n[savefile] \"%s\"\n[timestart] 0\n[size] 1600 900\n", dump_path, gtkw_path);

    /* zoom: GTKWave shows floor(2^-zoom) time units per 200 pixels (an
     * integer: 2^1.22 shows 2 per 200 pixels, not 2.33). Fit the run into
     * the waves pane, which is what the window (1600), the SST (260) and
     * the signals pane leave. GTKWave widens the signals pane to the
     * longest name it shows (the step rows: 90 characters on the prefix
     * sum), at about 8 pixels a character in its default monospace font;
     * 80 pixels for the borders, the scroll bar and a margin. Asking for
     * frame + 0.25 keeps the truncation on the frame wanted. */
    out_t dry = { NULL, -1, 0 };
    sections(&dry, w, rk);
    double pane = 8.0 * (double)dry.widest + 25.0;
    if (pane < 380.0)
        pane = 380.0;
    double wave_px = 1600.0 - 260.0 - pane - 80.0;
    if (wave_px < 200.0)
        wave_px = 200.0;
    double frame = ceil((double)(end ? end : 1) * 200.0 / wave_px);
    double zoom = -log2(frame + 0.25);
    int64_t mark[MAX_MARKERS];
    const char *mark_name[MAX_MARKERS];
    int n_mark = 0;
    for (int i = 0; i < MAX_MARKERS; i++)
        mark[i] = -1;
    if (pe) {
        const noc_pe_stats_t *st = noc_pe_stats(pe);
        for (int k = 0; k < st->n_steps && n_mark < MAX_MARKERS; k++)
            if (st->steps[k].first_start != NOC_NEVER) {
                mark_name[n_mark] = st->steps[k].name;
                mark[n_mark++] = (int64_t)st->steps[k].first_start;
            }
    }
    fprintf(f, "*%f -1", zoom);
    for (int i = 0; i < MAX_MARKERS; i++)
        fprintf(f, " %lld", (long long)mark[i]);
    fputc('\n', f);
    for (int i = 0; i < n_mark; i++)
        fprintf(f, "[markername] %c%s\n", 'A' + i, mark_name[i]);
    fprintf(f, "[treeopen] top.\n[sst_width] 260\n[signals_width] 380\n[sst_expanded] 1\n");

    sections(&o, w, rk);
    free(rk);
}
