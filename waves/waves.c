/* waves.c: the recorder. noc_waves_open declares one signal per thing worth
 * seeing (waves.h, docs/waves.md) for the nodes in scope, in a hierarchy
 * that follows the fabric (wave_layout.c), and registers as the
 * simulator's observer. The observer runs at the start of every cycle t,
 * when the channel slots of t hold what arrives in t and the routers and PEs
 * hold what cycle t - 1 left: it writes the state of the end of cycle t - 1
 * at time t - 1 and the link arrivals of cycle t at time t, each signal only
 * when its value changed. Router state is read only for the nodes whose
 * router can have changed (sample_state says which); strings are made only
 * when their value changes. The writers (wave_fst.c,
 * wave_vcd.c) get the same calls, so both formats carry the same changes. */
#include "util/xalloc.h"
#include "waves/waves_internal.h"
#include "model/pe.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

void noc_waves_opts_init(noc_waves_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->to = UINT64_MAX;
    o->gtkw = 1;
}

static int parse_cycle(const char *s, size_t n, uint64_t *v)
{
    char buf[32];
    if (n == 0 || n >= sizeof buf)
        return -1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    char *end = NULL;
    if (buf[0] < '0' || buf[0] > '9')
        return -1;
    errno = 0;
    unsigned long long x = strtoull(buf, &end, 10);
    if (*end || errno == ERANGE) /* past 2^64 - 1: strtoull would say 2^64 - 1 */
        return -1;
    *v = (uint64_t)x;
    return 0;
}

int noc_waves_parse_window(noc_waves_opts_t *o, const char *text, char *err, size_t errlen)
{
    const char *colon = text ? strchr(text, ':') : NULL;
    uint64_t from = 0, to = UINT64_MAX;
    if (!colon || (colon > text && parse_cycle(text, (size_t)(colon - text), &from)) ||
        (colon[1] && parse_cycle(colon + 1, strlen(colon + 1), &to))) {
        snprintf(err, errlen, "--waves-window %s: expected FROM:TO in cycles, each below 2^64 "
                 "(e.g. 100:400, :400, 100:)",
                 text ? text : "");
        return -1;
    }
    if (from > to) {
        snprintf(err, errlen, "--waves-window %s: FROM is after TO", text);
        return -1;
    }
    o->from = from;
    o->to = to;
    return 0;
}

void noc_waves_gtkw_path(const char *path, char *buf, size_t len)
{
    size_t n = strlen(path);
    const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
    if (dot && (!slash || dot > slash + 1) && (strcmp(dot, ".fst") == 0 || strcmp(dot, ".vcd") == 0))
        n = (size_t)(dot - path);
    snprintf(buf, len, "%.*s.gtkw", (int)n, path);
}

void noc_waves_inner_path(const char *path, char *buf, size_t len)
{
    size_t n = strlen(path);
    const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
    if (dot && (!slash || dot > slash + 1) && (strcmp(dot, ".fst") == 0 || strcmp(dot, ".vcd") == 0))
        n = (size_t)(dot - path);
    snprintf(buf, len, "%.*s.rtl.fst", (int)n, path);
}

static int is_vcd(const char *path)
{
    size_t n = strlen(path);
    return n >= 4 && strcmp(path + n - 4, ".vcd") == 0;
}

/* ---- signals ---- */

static uint32_t declare(noc_waves_t *w, noc_wv_kind_t kind, int bits, int render, const char *name)
{
    if (w->n_sig == w->cap_sig) {
        w->cap_sig = w->cap_sig ? 2 * w->cap_sig : 1024;
        w->sig = noc_xrealloc(w->sig, w->cap_sig * sizeof *w->sig, "waves");
    }
    noc_wv_sig_t *g = &w->sig[w->n_sig];
    memset(g, 0, sizeof *g);
    g->h = w->ops->var(w->ctx, kind, bits, name);
    g->kind = (uint8_t)kind;
    g->bits = (uint8_t)bits;
    g->render = (uint8_t)render;
    return w->n_sig++;
}

/* The text of op `op` (a global op index; -1: idle). */
static void op_text(const noc_waves_t *w, int64_t op, char *buf, size_t len)
{
    const noc_pe_t *pe = noc_sim_pe(w->s);
    if (op < 0 || !pe) {
        snprintf(buf, len, "idle");
        return;
    }
    const noc_op_t *o = &noc_pe_program(pe)->ops[op];
    char peer[96] = "any", tag[24] = "any", words[24] = "";
    if (o->peer >= 0)
        noc_graph_label(noc_sim_graph(w->s), o->peer, peer, sizeof peer);
    if (o->tag >= 0)
        snprintf(tag, sizeof tag, "%d", o->tag);
    if (o->words > 1)
        snprintf(words, sizeof words, " (%uw)", o->words);
    switch (o->kind) {
    case NOC_OP_SEND:
        snprintf(buf, len, "send to %s tag %s%s", peer, tag, words);
        break;
    case NOC_OP_RECV:
        snprintf(buf, len, "recv from %s tag %s%s", peer, tag, words);
        break;
    case NOC_OP_CALC:
        snprintf(buf, len, "calc %lld", (long long)o->cost);
        break;
    default:
        snprintf(buf, len, "%s%s", noc_op_kind_name((noc_op_kind_t)o->kind), words);
        break;
    }
}

static void render(const noc_waves_t *w, int how, int64_t v, char *buf, size_t len)
{
    if (how == NOC_WV_R_OP) {
        op_text(w, v, buf, len);
    } else if (v < 0) {
        snprintf(buf, len, "-");
    } else if (how == NOC_WV_R_NODE) {
        if (w->label_at)
            snprintf(buf, len, "%s", w->label_text + w->label_at[v]);
        else
            noc_graph_label(noc_sim_graph(w->s), (int)v, buf, len);
    } else {
        const noc_pe_t *pe = noc_sim_pe(w->s);
        snprintf(buf, len, "%s", pe ? noc_pe_program(pe)->steps[v] : "-");
    }
}

/* Write signal i's new value v (the caller saw it differ). */
static void emit(noc_waves_t *w, uint32_t i, int64_t v)
{
    noc_wv_sig_t *g = &w->sig[i];
    g->written = 1;
    g->last = v;
    if (!w->any_emitted || w->emitted != w->now) {
        w->ops->time(w->ctx, w->now);
        w->emitted = w->now;
        w->any_emitted = 1;
    }
    if (g->kind == NOC_WV_BIT) {
        w->ops->put_bit(w->ctx, g->h, v != 0);
    } else if (g->kind == NOC_WV_INT) {
        w->ops->put_int(w->ctx, g->h, g->bits, (uint64_t)v);
    } else {
        char buf[256];
        render(w, g->render, v, buf, sizeof buf);
        w->ops->put_str(w->ctx, g->h, buf);
    }
}

/* Signal i has value v now: written if it changed (or was never written).
 * Returns 1 if it was written. */
static inline int put(noc_waves_t *w, uint32_t i, int64_t v)
{
    const noc_wv_sig_t *g = &w->sig[i];
    if (__builtin_expect(g->written && g->last == v, 1))
        return 0;
    emit(w, i, v);
    return 1;
}

/* ---- sampling ---- */

/* The input port of link l's upstream node by which the flit of packet pk
 * entered it (0: its own PE injected it), from the packet's route: routing
 * is deterministic (topo.h), so the route from the source names the node
 * before. 255 if the route does not pass (cannot happen with the routers
 * of routers/). */
static int grant_of(noc_waves_t *w, noc_wv_link_t *l, const noc_flit_t *f, const noc_packet_t *pk)
{
    if (l->grant_pkt == f->pkt && l->grant_id == pk->id)
        return l->grant;
    const noc_sim_t *s = w->s;
    const noc_graph_t *gr = noc_sim_graph(s);
    int g = 255;
    if (pk->src == l->from) {
        g = 0;
    } else {
        int cur = pk->src;
        for (int k = 0; k < gr->n_nodes; k++) {
            noc_route_t r;
            noc_graph_route(gr, cur, pk->src, pk->dst, pk->salt, k, &r);
            if (r.port == 0)
                break;
            int out = gr->port_base[cur] + r.port, nx;
            noc_sim_channel_ends(s, out, NULL, &nx, NULL, NULL);
            if (nx == l->from) {
                g = noc_sim_channel_in_port(s, out) - gr->port_base[nx];
                break;
            }
            cur = nx;
        }
    }
    l->grant_pkt = f->pkt;
    l->grant_id = pk->id;
    l->grant = g;
    return g;
}

static int in_window(const noc_waves_t *w, uint64_t t)
{
    return t >= w->o.from && t <= w->o.to;
}

/* What arrives over every link in scope in cycle t. */
static void sample_links(noc_waves_t *w, uint64_t t)
{
    if (!in_window(w, t))
        return;
    const noc_sim_t *s = w->s;
    w->now = t;
    for (int i = 0; i < w->n_links; i++) {
        noc_wv_link_t *l = &w->links[i];
        noc_flit_t fl;
        const noc_flit_t *f = noc_sim_channel_flit(s, l->c, t, &fl) ? &fl : NULL;
        put(w, l->sig + NOC_WV_VALID, f != NULL);
        if (f) {
            const noc_packet_t *pk = noc_sim_packet(s, f->pkt);
            put(w, l->sig + NOC_WV_PKT, (int64_t)pk->id);
            put(w, l->sig + NOC_WV_SRC, pk->src);
            put(w, l->sig + NOC_WV_DST, pk->dst);
            put(w, l->sig + NOC_WV_VC, f->vc);
            put(w, l->sig + NOC_WV_HEAD, (f->flags & NOC_FLIT_HEAD) != 0);
            put(w, l->sig + NOC_WV_TAIL, (f->flags & NOC_FLIT_TAIL) != 0);
            put(w, l->sig + NOC_WV_GRANT, grant_of(w, l, f, pk));
            if (w->step_last && pk->step < w->step_rows)
                w->step_last[(size_t)i * (size_t)w->step_rows + pk->step] = (uint32_t)(t + 1);
        } else if (!w->sig[l->sig + NOC_WV_PKT].written) {
            /* first write, nothing on the link yet */
            put(w, l->sig + NOC_WV_PKT, 0);
            put(w, l->sig + NOC_WV_SRC, -1);
            put(w, l->sig + NOC_WV_DST, -1);
            put(w, l->sig + NOC_WV_VC, 0);
            put(w, l->sig + NOC_WV_HEAD, 0);
            put(w, l->sig + NOC_WV_TAIL, 0);
            put(w, l->sig + NOC_WV_GRANT, 0);
        }
    }
}

/* The state the end of cycle t left: routers, PEs, the step.
 *
 * A router's state changes only in a cycle in which the kernel evaluates
 * it, and the kernel evaluates only nodes with work (noc_sim_node_busy): those
 * that had work at the start of the cycle, and those woken during it before
 * the routers run, which is their own NI or PE getting something to do: a
 * synthetic packet generated (its NI's next_gen was due), or a PE starting
 * or ending an op (its view changes). So a router is read when its node had
 * work at the end of cycle t - 1 or has at the end of t, or its packet was
 * due in t, or its PE's view changed in t; the others cannot have changed.
 * (opts.all_routers reads every one, and the tests compare the two.) */
static void sample_state(noc_waves_t *w, uint64_t t)
{
    if (!in_window(w, t))
        return;
    const noc_sim_t *s = w->s;
    const noc_graph_t *gr = noc_sim_graph(s);
    const noc_pe_t *pe = noc_sim_pe(s);
    int V = w->V;
    w->now = t;
    if (pe && w->step_sig != UINT32_MAX)
        put(w, w->step_sig, noc_pe_current_step(pe));
    for (int i = 0; i < w->n_nodes; i++) {
        noc_wv_node_t *nd = &w->nodes[i];
        int n = nd->n;
        int changed = 0;
        if (nd->pe_sig != UINT32_MAX) {
            noc_pe_rank_view_t v;
            noc_pe_rank_view(pe, n, &v);
            /* after its last op: idle, from the cycle after that op ended */
            int64_t op = v.op;
            if (v.ops_left == 0 && (op < 0 || noc_pe_stats(pe)->op_end[op] != t))
                op = -1;
            changed |= put(w, nd->pe_sig + NOC_WV_OP, op);
            changed |= put(w, nd->pe_sig + NOC_WV_STEP, op < 0 ? -1 : v.step);
            changed |= put(w, nd->pe_sig + NOC_WV_SENDS, v.sends_out);
            changed |= put(w, nd->pe_sig + NOC_WV_RECVS, v.recvs_open);
            changed |= put(w, nd->pe_sig + NOC_WV_LEFT, v.ops_left);
        }
        int busy = noc_sim_node_busy(s, n);
        int look = w->full || w->o.all_routers || busy || nd->was_busy || nd->gen_due || changed;
        nd->was_busy = (uint8_t)busy;
        if (!look)
            continue;
        int base = gr->port_base[n], P = gr->port_base[n + 1] - base;
        for (int p = 0; p < P; p++)
            for (int v = 0; v < V; v++)
                put(w, nd->occ_sig + (uint32_t)(p * V + v), noc_sim_router_occupancy(s, base + p, v));
        for (int p = 1; p < P; p++)
            for (int v = 0; v < V; v++)
                put(w, nd->cred_sig + (uint32_t)((p - 1) * V + v), noc_sim_router_credits(s, base + p, v));
        if (nd->lane_sig != UINT32_MAX)
            for (int k = 1; k < noc_sim_lane_ports(s); k++)
                for (int v = 0; v < V; v++)
                    put(w, nd->lane_sig + (uint32_t)((k - 1) * V + v), noc_sim_lane_occupancy(s, n, k, v));
    }
    w->full = 0;
}

static void observe(const noc_sim_t *s, void *ctx)
{
    noc_waves_t *w = ctx;
    uint64_t now = noc_sim_now(s);
    if (now > 0)
        sample_state(w, now - 1);
    sample_links(w, now);
    /* synthetic traffic: the NIs whose next packet is made in this cycle */
    for (int i = 0; i < w->n_nodes; i++)
        w->nodes[i].gen_due = (uint8_t)noc_sim_gen_due(s, w->nodes[i].n);
}

/* ---- declarations ---- */

static char *dup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = noc_xmalloc(n, "waves");
    memcpy(d, s, n);
    return d;
}


/* A scope `scope` with one 16-bit integer signal per VC, PREFIX0 ..
 * PREFIX(V-1); returns the first signal's number (the others follow). */
static uint32_t vc_signals(noc_waves_t *w, const char *scope, const char *prefix, int V)
{
    char name[64];
    uint32_t first = 0;
    w->ops->scope(w->ctx, scope, NULL);
    for (int v = 0; v < V; v++) {
        snprintf(name, sizeof name, "%s%d", prefix, v);
        uint32_t k = declare(w, NOC_WV_INT, 16, 0, name);
        if (v == 0)
            first = k;
    }
    w->ops->upscope(w->ctx);
    return first;
}

static void declare_node(noc_waves_t *w, noc_wv_node_t *nd, int has_rank)
{
    noc_sim_t *s = w->s;
    const noc_graph_t *gr = noc_sim_graph(s);
    int n = nd->n, base = gr->port_base[n], P = gr->port_base[n + 1] - base, V = w->V;
    char name[64], a[96], b[96], text[256];
    noc_graph_label(gr, n, a, sizeof a);
    nd->link0 = (uint32_t)w->n_links;
    for (int p = 1; p < P; p++) {
        int c = base + p;
        if (gr->peer[c] < 0)
            continue;
        noc_wv_link_t *l = &w->links[w->n_links++];
        l->c = c;
        l->from = n;
        noc_sim_channel_ends(s, c, NULL, &l->to, NULL, NULL);
        int latency;
        noc_sim_channel_timing(s, c, &latency, NULL);
        l->node = (int32_t)(nd - w->nodes);
        l->grant_pkt = UINT32_MAX;
        noc_graph_label(gr, l->to, b, sizeof b);
        snprintf(text, sizeof text, "link %s -> %s (class %s, latency %d)", a, b,
                 gr->class_name[gr->link_class[c]], latency);
        w->ops->comment(w->ctx, text);
        noc_wv_link_scope_name(b, l->name, sizeof l->name);
        for (uint32_t k = nd->link0; k + 1 < (uint32_t)w->n_links; k++)
            if (w->links[k].to == l->to) { /* a second link to the same neighbour */
                size_t used = strlen(l->name);
                snprintf(l->name + used, sizeof l->name - used, "_p%d", p);
                break;
            }
        snprintf(name, sizeof name, "%s", l->name);
        w->ops->scope(w->ctx, name, NULL);
        l->sig = declare(w, NOC_WV_BIT, 1, 0, "valid");
        declare(w, NOC_WV_INT, 64, 0, "pkt");
        declare(w, NOC_WV_STR, 0, NOC_WV_R_NODE, "src");
        declare(w, NOC_WV_STR, 0, NOC_WV_R_NODE, "dst");
        declare(w, NOC_WV_INT, 8, 0, "vc");
        declare(w, NOC_WV_BIT, 1, 0, "head");
        declare(w, NOC_WV_BIT, 1, 0, "tail");
        declare(w, NOC_WV_INT, 8, 0, "grant");
        w->ops->upscope(w->ctx);
    }
    for (int p = 0; p < P; p++) {
        if (p == 0) {
            snprintf(text, sizeof text, "input port 0 of %s: from its PE's NI", a);
        } else if (noc_sim_port_in_channel(s, base + p) >= 0) {
            int from;
            noc_sim_channel_ends(s, noc_sim_port_in_channel(s, base + p), &from, NULL, NULL, NULL);
            noc_graph_label(gr, from, b, sizeof b);
            snprintf(text, sizeof text, "input port %d of %s: from %s", p, a, b);
        } else {
            snprintf(text, sizeof text, "input port %d of %s: not connected", p, a);
        }
        w->ops->comment(w->ctx, text);
        snprintf(name, sizeof name, "in_p%d", p);
        uint32_t k = vc_signals(w, name, "occ_vc", V);
        if (p == 0)
            nd->occ_sig = k;
    }
    for (int p = 1; p < P; p++) {
        snprintf(name, sizeof name, "out_p%d", p);
        uint32_t k = vc_signals(w, name, "credit_vc", V);
        if (p == 1)
            nd->cred_sig = k;
    }
    nd->lane_sig = UINT32_MAX;
    for (int k = 1; k < noc_sim_lane_ports(s); k++) {
            snprintf(text, sizeof text, "input port of %s for its NI's injection lane %d", a, k);
            w->ops->comment(w->ctx, text);
            snprintf(name, sizeof name, "in_lane%d", k);
            uint32_t h = vc_signals(w, name, "occ_vc", V);
            if (k == 1)
                nd->lane_sig = h;
        }
    nd->pe_sig = UINT32_MAX;
    if (has_rank) {
        w->ops->scope(w->ctx, "pe", NULL);
        nd->pe_sig = declare(w, NOC_WV_STR, 0, NOC_WV_R_OP, "op");
        declare(w, NOC_WV_STR, 0, NOC_WV_R_STEP, "step");
        declare(w, NOC_WV_INT, 32, 0, "sends");
        declare(w, NOC_WV_INT, 32, 0, "recvs");
        declare(w, NOC_WV_INT, 32, 0, "ops_left");
        w->ops->upscope(w->ctx);
    }
}

static void declare_all(noc_waves_t *w)
{
    noc_sim_t *s = w->s;
    const noc_graph_t *gr = noc_sim_graph(s);
    const noc_pe_t *pe = noc_sim_pe(s);
    int ranks = pe ? noc_pe_program(pe)->n_ranks : 0;
    char text[NOC_GRAPH_NAME_MAX + 512], open[2][32] = { "", "" };
    int n_open = 0;
    snprintf(text, sizeof text, "noctua: %s, router %s%s%s", gr->name, noc_sim_config(s)->router,
             pe ? ", program " : ", synthetic traffic",
             pe ? (noc_pe_program(pe)->name ? noc_pe_program(pe)->name : "(unnamed)") : "");
    w->ops->comment(w->ctx, text);
    w->ops->scope(w->ctx, "top", gr->name);
    w->step_sig = UINT32_MAX;
    if (pe)
        w->step_sig = declare(w, NOC_WV_STR, 0, NOC_WV_R_STEP, "step");
    for (int i = 0; i < w->n_nodes; i++) {
        noc_wv_node_t *nd = &w->nodes[i];
        char groups[2][32], label[96], name[128], path[512];
        int ng = noc_graph_groups(gr, nd->n, groups, sizeof groups[0]);
        int keep = 0;
        while (keep < ng && keep < n_open && strcmp(groups[keep], open[keep]) == 0)
            keep++;
        for (; n_open > keep; n_open--)
            w->ops->upscope(w->ctx);
        for (; n_open < ng; n_open++) {
            w->ops->scope(w->ctx, groups[n_open], NULL);
            snprintf(open[n_open], sizeof open[n_open], "%s", groups[n_open]);
        }
        noc_graph_label(gr, nd->n, label, sizeof label);
        noc_wv_scope_name(label, name, sizeof name);
        snprintf(text, sizeof text, "node %d: %s", nd->n, label);
        w->ops->comment(w->ctx, text);
        w->ops->scope(w->ctx, name, label);
        declare_node(w, nd, nd->n < ranks);
        w->ops->upscope(w->ctx);
        char group[80];
        snprintf(group, sizeof group, "%s%s%s", ng > 0 ? groups[0] : "", ng > 1 ? "." : "",
                 ng > 1 ? groups[1] : "");
        nd->group = dup(group);
        snprintf(path, sizeof path, "top.%s%s%s", group, ng > 0 ? "." : "", name);
        nd->path = dup(path);
    }
    for (; n_open > 0; n_open--)
        w->ops->upscope(w->ctx);
    w->ops->upscope(w->ctx);
    w->ops->end_defs(w->ctx);
}

static void free_waves(noc_waves_t *w)
{
    for (int i = 0; i < w->n_nodes; i++) {
        free(w->nodes[i].path);
        free(w->nodes[i].group);
    }
    free(w->nodes);
    free(w->links);
    free(w->sig);
    free(w->scope_pat);
    free(w->step_last);
    free(w->label_at);
    free(w->label_text);
    free(w);
}

/* Every node's label, made once (packets' sources and destinations are
 * written as labels), for fabrics of up to LABEL_CACHE_NODES nodes. */
#define LABEL_CACHE_NODES (1 << 16)
static void cache_labels(noc_waves_t *w)
{
    const noc_graph_t *gr = noc_sim_graph(w->s);
    size_t used = 0, cap = 16 * (size_t)gr->n_nodes + 64;
    if (gr->n_nodes > LABEL_CACHE_NODES)
        return;
    w->label_at = malloc((size_t)gr->n_nodes * sizeof *w->label_at);
    w->label_text = malloc(cap);
    if (!w->label_at || !w->label_text)
        noc_oom("waves: labels", cap);
    for (int n = 0; n < gr->n_nodes; n++) {
        char label[96];
        noc_graph_label(gr, n, label, sizeof label);
        size_t k = strlen(label) + 1;
        if (used + k > cap) {
            cap = 2 * cap + k;
            w->label_text = noc_xrealloc(w->label_text, cap, "waves: labels");
        }
        memcpy(w->label_text + used, label, k);
        w->label_at[n] = (uint32_t)used;
        used += k;
    }
}

noc_waves_t *noc_waves_open(const char *path, noc_sim_t *s, const noc_waves_opts_t *o, char *err,
                            size_t errlen)
{
    const noc_graph_t *gr = noc_sim_graph(s);
    noc_waves_t *w = noc_xcalloc(1, sizeof *w, "waves");
    if (o)
        w->o = *o;
    else
        noc_waves_opts_init(&w->o);
    if (w->o.from > w->o.to) {
        snprintf(err, errlen, "--waves-window: FROM (%llu) is after TO (%llu)", (unsigned long long)w->o.from,
                 (unsigned long long)w->o.to);
        free(w);
        return NULL;
    }
    if (gr->route_set) {
        snprintf(err, errlen, "--waves: %s routes adaptively (routing_function = %s), and the wave recorder "
                 "tells a flit's input port from its route: not drawn yet", gr->name,
                 noc_sim_config(s)->routing_function);
        free(w);
        return NULL;
    }
    if (gr->term_base) {
        snprintf(err, errlen, "--waves: %s has routers with several terminals or none (concentration), which "
                 "the wave recorder does not draw yet", gr->name);
        free(w);
        return NULL;
    }
    if (strlen(path) >= sizeof w->path) {
        snprintf(err, errlen, "%s: path too long", path);
        free(w);
        return NULL;
    }
    snprintf(w->path, sizeof w->path, "%s", path);
    w->s = s;
    w->V = noc_sim_vcs(s);
    w->scope_pat = w->o.scope ? dup(w->o.scope) : NULL;
    w->o.scope = w->scope_pat;
    w->nodes = calloc((size_t)gr->n_nodes, sizeof *w->nodes);
    w->links = calloc((size_t)gr->n_ports, sizeof *w->links);
    if (!w->nodes || !w->links)
        noc_oom("waves", 0);
    for (int n = 0; n < gr->n_nodes; n++) {
        char label[96];
        noc_graph_label(gr, n, label, sizeof label);
        if (noc_wv_match(w->o.scope, label))
            w->nodes[w->n_nodes++].n = n;
    }
    if (w->n_nodes == 0) {
        snprintf(err, errlen, "--waves-scope '%s' matches no node of %s (labels look like the ones "
                 "`noctua topo %s` prints)", w->o.scope, gr->name, gr->name);
        free_waves(w);
        return NULL;
    }
    w->ops = is_vcd(path) ? &noc_wv_vcd_ops : &noc_wv_fst_ops;
    if (noc_out_reserve(&w->out, path, w->ops->companion, err, errlen) != 0) {
        free_waves(w);
        return NULL;
    }
    char msg[400];
    w->ctx = w->ops->open(w->out.tmp, "noctua", msg, sizeof msg);
    if (!w->ctx) {
        snprintf(err, errlen, "%s: %s", path, msg);
        noc_out_abort(&w->out);
        free_waves(w);
        return NULL;
    }
    cache_labels(w);
    declare_all(w);
    if (noc_sim_has_trace(s)) {
        /* the router family's own signals (rtl: inside the Verilated cores)
         * of the same nodes and cycles, into a second file */
        uint8_t *in_scope = calloc((size_t)gr->n_nodes, 1);
        char inner[1100];
        if (!in_scope)
            noc_oom("waves", (size_t)gr->n_nodes);
        for (int i = 0; i < w->n_nodes; i++)
            in_scope[w->nodes[i].n] = 1;
        noc_waves_inner_path(path, inner, sizeof inner);
        int rc = noc_out_reserve(&w->out_inner, inner, ".hier", err, errlen);
        if (rc == 0) {
            rc = noc_sim_trace_open(s, w->out_inner.tmp, in_scope, w->o.from, w->o.to, msg, sizeof msg);
            if (rc != 0) {
                snprintf(err, errlen, "%s: %s", inner, msg);
                noc_out_abort(&w->out_inner);
            }
        }
        free(in_scope);
        if (rc != 0) {
            char ignore[16];
            w->ops->close(w->ctx, 0, ignore, sizeof ignore);
            noc_out_abort(&w->out);
            free_waves(w);
            return NULL;
        }
        w->inner = 1;
    }
    const noc_pe_t *pe = noc_sim_pe(s);
    if (pe) {
        /* steps and "no step"; kept while the table stays small */
        w->step_rows = noc_pe_program(pe)->n_steps + 1;
        if ((size_t)w->n_links * (size_t)w->step_rows <= ((size_t)1 << 24)) {
            w->step_last = calloc((size_t)w->n_links * (size_t)w->step_rows, sizeof *w->step_last);
            if (!w->step_last)
                noc_oom("waves: step table", (size_t)w->n_links * (size_t)w->step_rows * sizeof *w->step_last);
        }
    }
    w->full = 1;
    noc_sim_set_observer(s, observe, w);
    return w;
}

int noc_waves_close(noc_waves_t *w, char *err, size_t errlen)
{
    if (!w)
        return 0;
    noc_sim_t *s = w->s;
    noc_sim_set_observer(s, NULL, NULL);
    uint64_t now = noc_sim_now(s);
    if (now > 0 && !w->any_emitted && w->o.from >= now) {
        /* the window starts after the run: record its final state instead,
         * for a file that viewers open (fstapi's reader refuses an FST
         * without a single value) */
        w->o.from = now - 1;
        w->o.to = UINT64_MAX;
        w->full = 1;
    }
    if (now > 0)
        sample_state(w, now - 1);
    sample_links(w, now); /* what the observer of cycle `now` would have seen */
    uint64_t end = now;
    if (w->o.to != UINT64_MAX && end > w->o.to + 1)
        end = w->o.to + 1;
    if (w->any_emitted && end < w->emitted)
        end = w->emitted;
    /* Every file is written whole to its temporary first; then the wave
     * file, the cores' file and the save file are renamed into place, in
     * that order. A failure removes what is not in place yet. */
    char msg[400];
    int rc = 0;
    if (w->inner && noc_sim_trace_close(s) != 0) {
        char inner[1100];
        noc_waves_inner_path(w->path, inner, sizeof inner);
        snprintf(err, errlen, "%s: a write of the cores' trace failed (disk full?); nothing written", inner);
        rc = -1;
    }
    if (w->ops->close(w->ctx, end, msg, sizeof msg) != 0 && rc == 0) {
        snprintf(err, errlen, "%s: %s; nothing written", w->path, msg);
        rc = -1;
    }
    if (rc == 0)
        rc = noc_out_commit(&w->out, err, errlen);
    if (rc == 0 && w->inner)
        rc = noc_out_commit(&w->out_inner, err, errlen);
    if (rc == 0 && w->o.gtkw) {
        char gpath[1100];
        noc_out_t g;
        noc_waves_gtkw_path(w->path, gpath, sizeof gpath);
        rc = noc_out_open(&g, gpath, 0, err, errlen);
        if (rc == 0) {
            noc_wv_write_gtkw(w, g.f, gpath, w->path, end);
            rc = noc_out_commit(&g, err, errlen);
        }
    }
    if (rc == 0 && w->o.gtkw && w->inner) {
        char inner[1100], gpath[1100];
        noc_out_t g;
        noc_waves_inner_path(w->path, inner, sizeof inner);
        noc_waves_gtkw_path(inner, gpath, sizeof gpath);
        rc = noc_out_open(&g, gpath, 0, err, errlen);
        if (rc == 0 && (rc = noc_wv_write_rtl_gtkw(g.f, gpath, inner, end, err, errlen)) == 0)
            rc = noc_out_commit(&g, err, errlen);
        else
            noc_out_abort(&g);
    }
    noc_out_abort(&w->out);
    noc_out_abort(&w->out_inner);
    free_waves(w);
    return rc;
}
