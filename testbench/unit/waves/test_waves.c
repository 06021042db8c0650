/* test_waves.c: the wave files of small known runs, read back with GTKWave's
 * own fstapi reader (FST) and a VCD parser written here, checked against
 * what the engine and the report say:
 *   - a one-word message to a neighbour under router=ideal ni_ports=0, sent
 *     in cycle 0, is on the link in cycle 1 and only then, with its packet,
 *     source and destination; a 3-word message over 2 hops pipelines one
 *     flit a cycle with head and tail on the first and last flit, and the
 *     second link's grant names the input port the flits came in by;
 *   - the top step signal of a BSN prefix sum switches exactly at every
 *     step's first cycle (noc_pe_stats), and every PE's step names a step;
 *   - the VCD and the FST of one run carry the same changes, signal by signal;
 *   - --waves-scope keeps exactly the matching nodes, --waves-window exactly
 *     the cycles asked for (with the same values as a full recording);
 *   - the grant of every flit of a synthetic run on the vc router is an
 *     input port over which the same packet reached that router earlier;
 *   - reading only the routers that may have changed gives the same file as
 *     reading every router every cycle (programs, synthetic traffic on the
 *     ideal and the vc router);
 *   - the GTKWave save file names only signals the wave file has, with a
 *     marker at every step boundary and each step's last link inside it;
 *   - the CLI options, and their errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "testbench/unit/cmd_test.h"
#include "routers/registry.h"
#include "model/pe.h"
#include "traffic/gen.h"
#include "traffic/synthetic.h"
#include "waves/waves_internal.h"
#include "testbench/unit/waves/wave_read.h"

/* WAVES_DEBUG=1: print a signal's changes. */
static void dump(const wave_t *w, const char *name)
{
    int s = find_sig(w, name);
    if (!getenv("WAVES_DEBUG") || s < 0)
        return;
    for (int i = 0; i < w->sig[s].n_ch; i++)
        print_message("%s @%llu = %s\n", name, (unsigned long long)w->sig[s].ch[i].t, w->sig[s].ch[i].val);
}

/* Cycles in [0, end) at which a bit signal is 1, as a string "1,2,3". */
static void ones(const wave_t *w, const char *name, uint64_t end, char *buf, size_t len)
{
    dump(w, name);
    buf[0] = '\0';
    for (uint64_t t = 0; t < end; t++) {
        const char *v = value_at(w, name, t);
        if (v && strcmp(v, "1") == 0) {
            size_t n = strlen(buf);
            snprintf(buf + n, len - n, "%s%llu", n ? "," : "", (unsigned long long)t);
        }
    }
}

/* ---- runs ---- */

typedef struct run {
    noc_topo_t *topo;
    noc_sim_t *sim;
    noc_program_t *prog;
} run_t;

static void start_with(run_t *r, const char *spec, noc_program_t *p, int sync, int packet_size)
{
    char err[512];
    noc_config_t cfg;
    noc_config_defaults(&cfg);
    cfg.packet_size = packet_size;
    assert_int_equal(noc_config_set(&cfg, "router", "ideal", err, sizeof err), 0);
    assert_int_equal(noc_config_set(&cfg, "ni_ports", "0", err, sizeof err), 0);
    cfg.sync_steps = sync;
    r->topo = noc_topo_create(spec, 0, err, sizeof err);
    if (!r->topo)
        fail_msg("%s", err);
    noc_traffic_t none = { NULL, NULL };
    r->sim = noc_sim_create(&cfg, noc_topo_graph(r->topo), none, err, sizeof err);
    if (!r->sim)
        fail_msg("%s", err);
    r->prog = p;
    if (noc_pe_attach(r->sim, p, err, sizeof err) != 0)
        fail_msg("%s", err);
}

static void start(run_t *r, const char *spec, noc_program_t *p, int sync)
{
    start_with(r, spec, p, sync, 1);
}

static void stop(run_t *r)
{
    noc_sim_destroy(r->sim);
    noc_prog_free(r->prog);
    noc_topo_destroy(r->topo);
}

static noc_program_t *prefix_sum(const noc_topo_t *t)
{
    char err[512];
    noc_gen_args_t a;
    noc_gen_args_default(&a);
    noc_program_t *p = noc_gen_find("prefix-sum")->make(t, &a, err, sizeof err);
    if (!p)
        fail_msg("%s", err);
    return p;
}

/* Record the program run of spec into path (scope, window as given). */
static void record(run_t *r, const char *spec, noc_program_t *(*make)(const noc_topo_t *), const char *path,
                   const char *scope, uint64_t from, uint64_t to)
{
    char err[512];
    noc_topo_t *t = noc_topo_create(spec, 0, err, sizeof err);
    assert_non_null(t);
    noc_program_t *p = make(t);
    noc_topo_destroy(t);
    start(r, spec, p, 1);
    noc_waves_opts_t o;
    noc_waves_opts_init(&o);
    o.scope = scope;
    o.from = from;
    o.to = to;
    noc_waves_t *w = noc_waves_open(path, r->sim, &o, err, sizeof err);
    if (!w)
        fail_msg("%s", err);
    assert_int_equal(noc_pe_run(r->sim), NOC_RUN_OK);
    if (noc_waves_close(w, err, sizeof err) != 0)
        fail_msg("%s", err);
}

static void scratch(const char *name, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s", cmd_tmpdir, name);
}

/* ---- tests ---- */

/* A one-word message (0) -> (1) on ring:8, sent in cycle 0: on the link in
 * cycle 1 only; 3 words (0) -> (2): on (0)->(1) in cycles 1..3 and on
 * (1)->(2) in 2..4, head first, tail last, the second link's grant the
 * port of (1) that (0)'s link feeds. */
static void test_link_carries_packet(void **state)
{
    (void)state;
    static const struct {
        int to;
        uint32_t words;
        const char *link0, *link1; /* cycles with valid = 1 */
    } cases[] = { { 1, 1, "1", "" }, { 2, 3, "1,2,3", "2,3,4" } };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        for (int vcd = 0; vcd < 2; vcd++) {
            char path[400], got[200], err[512];
            noc_program_t *p = noc_prog_new(8, "pair");
            noc_prog_step(p, 0, "one");
            noc_prog_step(p, cases[i].to, "one");
            uint32_t sd = noc_prog_send(p, 0, cases[i].to, 5, cases[i].words, NOC_PROG_NO_ADDR);
            uint32_t rv = noc_prog_recv(p, cases[i].to, 0, 5, cases[i].words, NOC_PROG_NO_ADDR);
            assert_int_equal(noc_prog_finish(p, err, sizeof err), 0);
            run_t r;
            start_with(&r, "ring:8", p, 0, 4); /* a message is one packet */
            scratch(vcd ? "pair.vcd" : "pair.fst", path, sizeof path);
            noc_waves_t *w = noc_waves_open(path, r.sim, NULL, err, sizeof err);
            assert_non_null(w);
            assert_int_equal(noc_pe_run(r.sim), NOC_RUN_OK);
            uint64_t end = noc_sim_now(r.sim);
            assert_int_equal(noc_waves_close(w, err, sizeof err), 0);
            const noc_pe_stats_t *st = noc_pe_stats(noc_sim_pe(r.sim));
            assert_int_equal(st->op_start[sd], 0);
            assert_int_equal(st->op_end[rv], cases[i].to + cases[i].words - 1);
            wave_t *wv = vcd ? read_vcd(path) : read_fst(path);
            /* links are named by their far end: (0)->(1) is n_0.to_1, (1)->(2) n_1.to_2 */
            ones(wv, "top.n_0.to_1.valid", end + 2, got, sizeof got);
            assert_string_equal(got, cases[i].link0);
            ones(wv, "top.n_1.to_2.valid", end + 2, got, sizeof got);
            assert_string_equal(got, cases[i].link1);
            ones(wv, "top.n_0.to_7.valid", end + 2, got, sizeof got);
            assert_string_equal(got, ""); /* (0)->(7): nothing */
            /* the packet: the run's first, from (0) to its destination */
            char dst[16];
            snprintf(dst, sizeof dst, "(%d)", cases[i].to);
            assert_string_equal(value_at(wv, "top.n_0.to_1.pkt", 1), "0");
            assert_string_equal(value_at(wv, "top.n_0.to_1.src", 1), "(0)");
            assert_string_equal(value_at(wv, "top.n_0.to_1.dst", 1), dst);
            assert_string_equal(value_at(wv, "top.n_0.to_1.src", 0), "-");
            assert_string_equal(value_at(wv, "top.n_0.to_1.head", 1), "1");
            assert_string_equal(value_at(wv, "top.n_0.to_1.tail", 1), cases[i].words == 1 ? "1" : "0");
            assert_string_equal(value_at(wv, "top.n_0.to_1.grant", 1), "0"); /* from (0)'s own PE */
            /* the link's flit count in the report = the cycles it was valid */
            assert_int_equal(noc_sim_link_stats(r.sim, noc_topo_gport(r.topo, 0, 1))->flits, cases[i].words);
            /* the PEs: (0) sends in cycle 0; the receiver waits from cycle 0 */
            char want[64], want0[64];
            snprintf(want0, sizeof want0, "send to (%d) tag 5%s", cases[i].to, cases[i].words > 1 ? " (3w)" : "");
            assert_string_equal(value_at(wv, "top.n_0.pe.op", 0), want0);
            snprintf(want, sizeof want, "top.n_%d.pe.op", cases[i].to);
            assert_string_equal(value_at(wv, want, 0), cases[i].words > 1 ? "recv from (0) tag 5 (3w)"
                                                                         : "recv from (0) tag 5");
            assert_string_equal(value_at(wv, want, st->op_end[rv]), cases[i].words > 1 ? "recv from (0) tag 5 (3w)"
                                                                                      : "recv from (0) tag 5");
            /* (0)'s send ends when its last flit is out, in cycle words - 1: idle after */
            assert_int_equal(st->op_end[sd], cases[i].words - 1);
            assert_string_equal(value_at(wv, "top.n_0.pe.op", st->op_end[sd]), want0);
            assert_string_equal(value_at(wv, "top.n_0.pe.op", st->op_end[sd] + 1), "idle");
            if (cases[i].words > 1) {
                assert_string_equal(value_at(wv, "top.n_0.to_1.head", 2), "0");
                assert_string_equal(value_at(wv, "top.n_0.to_1.tail", 3), "1");
                assert_string_equal(value_at(wv, "top.n_1.to_2.pkt", 2), "0");
                assert_string_equal(value_at(wv, "top.n_1.to_2.src", 2), "(0)");
                /* (1)'s port 2 (its - port) is fed by (0)'s + link */
                assert_int_equal(noc_sim_port_in_channel(r.sim, noc_topo_gport(r.topo, 1, 2)), noc_topo_gport(r.topo, 0, 1));
                assert_string_equal(value_at(wv, "top.n_1.to_2.grant", 2), "2");
            }
            free_wave(wv);
            stop(&r);
        }
    }
}

/* The top step signal of a BSN prefix sum switches exactly at each step's
 * first cycle (the report's "first" column), to that step. */
static void test_step_boundaries(void **state)
{
    (void)state;
    char path[400];
    run_t r;
    scratch("prefix.fst", path, sizeof path);
    record(&r, "bsn:ring:4", prefix_sum, path, NULL, 0, UINT64_MAX);
    const noc_pe_stats_t *st = noc_pe_stats(noc_sim_pe(r.sim));
    wave_t *w = read_fst(path);
    int s = find_sig(w, "top.step");
    assert_true(s >= 0);
    const sigrec_t *g = &w->sig[s];
    /* one change per step (in order, at its first cycle), then "-" after the last */
    int k = 0;
    for (int i = 0; i < g->n_ch; i++) {
        if (strcmp(g->ch[i].val, "-") == 0) {
            assert_int_equal(k, st->n_steps);
            assert_true(g->ch[i].t >= st->steps[st->n_steps - 1].last_end);
            continue;
        }
        assert_true(k < st->n_steps);
        print_message("step %d %s: first %llu, wave switches at %llu\n", k + 1, st->steps[k].name,
                      (unsigned long long)st->steps[k].first_start, (unsigned long long)g->ch[i].t);
        assert_string_equal(g->ch[i].val, st->steps[k].name);
        assert_int_equal(g->ch[i].t, st->steps[k].first_start);
        k++;
    }
    assert_int_equal(k, st->n_steps);
    /* every PE's step signal names a step of the program, or "-" */
    for (int i = 0; i < w->n_sig; i++) {
        size_t n = strlen(w->sig[i].name);
        if (n > 8 && strcmp(w->sig[i].name + n - 8, ".pe.step") == 0)
            for (int c = 0; c < w->sig[i].n_ch; c++) {
                int found = strcmp(w->sig[i].ch[c].val, "-") == 0;
                for (int j = 0; j < st->n_steps; j++)
                    found |= strcmp(w->sig[i].ch[c].val, st->steps[j].name) == 0;
                assert_true(found);
            }
    }
    free_wave(w);
    stop(&r);
}

/* One run recorded as FST and as VCD: the same signals, the same changes. */
static void test_vcd_matches_fst(void **state)
{
    (void)state;
    char fst[400], vcd[400];
    run_t r1, r2;
    scratch("same.fst", fst, sizeof fst);
    scratch("same.vcd", vcd, sizeof vcd);
    record(&r1, "bsn:ring:4", prefix_sum, fst, NULL, 0, UINT64_MAX);
    record(&r2, "bsn:ring:4", prefix_sum, vcd, NULL, 0, UINT64_MAX);
    wave_t *a = read_fst(fst), *b = read_vcd(vcd);
    assert_int_equal(a->n_sig, b->n_sig);
    int changes = 0;
    for (int i = 0; i < a->n_sig; i++) {
        int j = find_sig(b, a->sig[i].name);
        if (j < 0)
            fail_msg("%s is in the FST, not in the VCD", a->sig[i].name);
        assert_int_equal(a->sig[i].kind, b->sig[j].kind);
        if (a->sig[i].n_ch != b->sig[j].n_ch)
            fail_msg("%s: %d changes in the FST, %d in the VCD", a->sig[i].name, a->sig[i].n_ch, b->sig[j].n_ch);
        for (int c = 0; c < a->sig[i].n_ch; c++) {
            assert_int_equal(a->sig[i].ch[c].t, b->sig[j].ch[c].t);
            assert_string_equal(a->sig[i].ch[c].val, b->sig[j].ch[c].val);
        }
        changes += a->sig[i].n_ch;
    }
    print_message("%d signals, %d changes, the same in both\n", a->n_sig, changes);
    assert_true(changes > 500);
    free_wave(a);
    free_wave(b);
    stop(&r1);
    stop(&r2);
}

/* --waves-scope: only the nodes whose labels match (glob, substring,
 * alternatives); a pattern that matches nothing is an error. */
static void test_scope(void **state)
{
    (void)state;
    static const struct {
        const char *pat;
        int nodes;
    } cases[] = { { "<1,*,0>", 4 }, { "<1, *, 0>", 4 }, { ",3,1>", 4 }, { "<0,0,0>|<3,3,1>", 2 }, { "*", 32 } };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[400];
        run_t r;
        scratch("scope.fst", path, sizeof path);
        record(&r, "bsn:ring:4", prefix_sum, path, cases[i].pat, 0, UINT64_MAX);
        wave_t *w = read_fst(path);
        /* count the node scopes: the distinct ".pe.op" signals */
        int nodes = 0;
        for (int k = 0; k < w->n_sig; k++) {
            const char *nm = w->sig[k].name;
            size_t n = strlen(nm);
            if (n > 6 && strcmp(nm + n - 6, ".pe.op") == 0) {
                nodes++;
                /* its label is the scope name's numbers: it matches */
                char label[64];
                int g, p, c;
                const char *leaf = strstr(nm, ".n_");
                assert_non_null(leaf);
                assert_int_equal(sscanf(leaf, ".n_%d_%d_%d", &g, &p, &c), 3);
                snprintf(label, sizeof label, "<%d,%d,%d>", g, p, c);
                assert_true(noc_wv_match(cases[i].pat, label));
                /* BSN hierarchy: top.part<c>.group<g>.n_g_p_c */
                char want[128];
                snprintf(want, sizeof want, "top.part%d.group%d.n_%d_%d_%d.pe.op", c, g, g, p, c);
                assert_string_equal(nm, want);
            }
        }
        assert_int_equal(nodes, cases[i].nodes);
        assert_true(find_sig(w, "top.step") >= 0); /* always there */
        free_wave(w);
        stop(&r);
    }
    char err[512], path[400];
    run_t r;
    noc_topo_t *t = noc_topo_create("bsn:ring:4", 0, err, sizeof err);
    start(&r, "bsn:ring:4", prefix_sum(t), 1);
    noc_topo_destroy(t);
    noc_waves_opts_t o;
    noc_waves_opts_init(&o);
    o.scope = "<9,*";
    scratch("none.fst", path, sizeof path);
    assert_null(noc_waves_open(path, r.sim, &o, err, sizeof err));
    assert_non_null(strstr(err, "matches no node"));
    stop(&r);
}

/* --waves-window: every change inside the window, and the values there the
 * same as in a full recording. */
static void test_window(void **state)
{
    (void)state;
    char full[400], part[400];
    run_t r1, r2;
    scratch("full.vcd", full, sizeof full);
    scratch("part.vcd", part, sizeof part);
    record(&r1, "bsn:ring:4", prefix_sum, full, NULL, 0, UINT64_MAX);
    record(&r2, "bsn:ring:4", prefix_sum, part, NULL, 4, 7);
    wave_t *a = read_vcd(full), *b = read_vcd(part);
    assert_int_equal(a->n_sig, b->n_sig);
    for (int i = 0; i < b->n_sig; i++) {
        const sigrec_t *g = &b->sig[i];
        assert_true(g->n_ch > 0);
        assert_int_equal(g->ch[0].t, 4); /* every signal starts at FROM */
        for (int c = 0; c < g->n_ch; c++)
            assert_true(g->ch[c].t >= 4 && g->ch[c].t <= 7);
        /* a link's fields hold the last flit's values while valid is 0:
         * before the window's first flit there are none */
        const char *leaf = strrchr(g->name, '.');
        char valid[300];
        snprintf(valid, sizeof valid, "%.*s.valid", (int)(leaf - g->name), g->name);
        int field = strstr(g->name, ".to_") && strcmp(leaf, ".valid") != 0;
        for (uint64_t t = 4; t <= 7; t++)
            if (!field || strcmp(value_at(a, valid, t), "1") == 0)
                assert_string_equal(value_at(b, g->name, t), value_at(a, g->name, t));
    }
    free_wave(a);
    free_wave(b);
    stop(&r1);
    stop(&r2);

    noc_waves_opts_t o;
    char err[256];
    noc_waves_opts_init(&o);
    assert_int_equal(noc_waves_parse_window(&o, "100:400", err, sizeof err), 0);
    assert_int_equal(o.from, 100);
    assert_int_equal(o.to, 400);
    assert_int_equal(noc_waves_parse_window(&o, ":40", err, sizeof err), 0);
    assert_int_equal(o.from, 0);
    assert_int_equal(o.to, 40);
    assert_int_equal(noc_waves_parse_window(&o, "7:", err, sizeof err), 0);
    assert_int_equal(o.from, 7);
    assert_true(o.to == UINT64_MAX);
    assert_int_equal(noc_waves_parse_window(&o, "9:3", err, sizeof err), -1);
    assert_int_equal(noc_waves_parse_window(&o, "abc", err, sizeof err), -1);
    assert_int_equal(noc_waves_parse_window(&o, "1:x", err, sizeof err), -1);
    /* 2^64 - 1 is a cycle; 2^64 is not (strtoull would have said 2^64 - 1) */
    assert_int_equal(noc_waves_parse_window(&o, "18446744073709551615:", err, sizeof err), 0);
    assert_int_equal(o.from, UINT64_MAX);
    assert_int_equal(noc_waves_parse_window(&o, "18446744073709551616:", err, sizeof err), -1);
    assert_int_equal(noc_waves_parse_window(&o, ":99999999999999999999999", err, sizeof err), -1);
}

/* The mesh node path as the wave file names it. */
static void node_path(const noc_topo_t *t, int n, char *buf, size_t len)
{
    char groups[2][32], label[64], name[80];
    int ng = noc_topo_node_groups(t, n, groups, sizeof groups[0]);
    noc_topo_label(t, n, label, sizeof label);
    noc_wv_scope_name(label, name, sizeof name);
    snprintf(buf, len, "top%s%s%s%s.%s", ng > 0 ? "." : "", ng > 0 ? groups[0] : "", ng > 1 ? "." : "",
             ng > 1 ? groups[1] : "", name);
}

/* The scope of n's link leaving by network port p: "<n's path>.to_<the far
 * end's label>" (no two links of a mesh node share a far end). */
static void link_path(const noc_topo_t *t, int n, int p, char *buf, size_t len)
{
    char np[200], label[64], name[80];
    node_path(t, n, np, sizeof np);
    int m = noc_topo_port_node(t, noc_topo_peer(t, noc_topo_gport(t, n, p)));
    noc_topo_label(t, m, label, sizeof label);
    noc_wv_link_scope_name(label, name, sizeof name);
    snprintf(buf, len, "%s.%s", np, name);
}

/* A synthetic run on the vc router, through the CLI: every flit's grant is
 * the input port over which its packet reached that router before (0: the
 * router's own PE sent it). */
static void test_grant_synthetic(void **state)
{
    (void)state;
    char *out, *errs, err[256], path[400];
    int rc = cmd_run("run mesh:4x4 warmup_cycles=20 sample_cycles=80 packet_size=3 injection_rate=0.3 "
                     "--waves syn.fst --quiet", &out, &errs);
    if (rc != 0)
        fail_msg("exit %d: %s", rc, errs);
    free(out);
    free(errs);
    scratch("syn.fst", path, sizeof path);
    wave_t *w = read_fst(path);
    noc_topo_t *t = noc_topo_create("mesh:4x4", 0, err, sizeof err);
    uint64_t end = 0;
    for (int i = 0; i < w->n_all; i++)
        if (w->all[i].t > end)
            end = w->all[i].t;
    int checked = 0;
    for (int n = 0; n < noc_topo_nodes(t); n++) {
        char np[256];
        node_path(t, n, np, sizeof np);
        for (int p = 1; p <= noc_topo_degree(t, n); p++) {
            char valid[400], pkt[400], grant[400], src[400], label[64], lp[320];
            link_path(t, n, p, lp, sizeof lp);
            snprintf(valid, sizeof valid, "%s.valid", lp);
            snprintf(pkt, sizeof pkt, "%s.pkt", lp);
            snprintf(grant, sizeof grant, "%s.grant", lp);
            snprintf(src, sizeof src, "%s.src", lp);
            noc_topo_label(t, n, label, sizeof label);
            for (uint64_t c = 0; c <= end; c++) {
                if (strcmp(value_at(w, valid, c), "1") != 0)
                    continue;
                int g = atoi(value_at(w, grant, c));
                const char *id = value_at(w, pkt, c);
                assert_true(g >= 0 && g <= noc_topo_degree(t, n));
                if (g == 0) {
                    assert_string_equal(value_at(w, src, c), label);
                } else {
                    /* the link into port g of n: the peer's port toward n */
                    int peer_g = noc_topo_peer(t, noc_topo_gport(t, n, g));
                    int m = noc_topo_port_node(t, peer_g);
                    char mp[320], in_valid[400], in_pkt[400];
                    link_path(t, m, peer_g - noc_topo_gport(t, m, 0), mp, sizeof mp);
                    snprintf(in_valid, sizeof in_valid, "%s.valid", mp);
                    snprintf(in_pkt, sizeof in_pkt, "%s.pkt", mp);
                    int seen = 0;
                    for (uint64_t e = 0; e < c && !seen; e++)
                        seen = strcmp(value_at(w, in_valid, e), "1") == 0 && strcmp(value_at(w, in_pkt, e), id) == 0;
                    if (!seen)
                        fail_msg("%s at %llu: packet %s, grant %d, but it never came in by that port", valid,
                                 (unsigned long long)c, id, g);
                }
                checked++;
            }
        }
    }
    print_message("%d flits checked\n", checked);
    assert_true(checked > 200);
    noc_topo_destroy(t);
    free_wave(w);
}

/* Record one run of spec: a program (prog != NULL) or synthetic traffic,
 * with the config's key=value pairs, into path. */
static void record_any(const char *spec, const char *prog, int sync, const char *const *kv, const char *path,
                       int all_routers)
{
    char err[512];
    noc_config_t cfg;
    noc_config_defaults(&cfg);
    for (; kv && *kv; kv++) {
        char name[64];
        const char *eq = strchr(*kv, '=');
        snprintf(name, sizeof name, "%.*s", (int)(eq - *kv), *kv);
        if (noc_config_set(&cfg, name, eq + 1, err, sizeof err) != 0)
            fail_msg("%s", err);
    }
    cfg.sync_steps = sync;
    noc_topo_t *t = noc_topo_create(spec, 0, err, sizeof err);
    assert_non_null(t);
    noc_synthetic_t syn;
    noc_program_t *p = NULL;
    noc_traffic_t traffic = { NULL, NULL };
    if (!prog) {
        assert_int_equal(noc_synthetic_init(&syn, &cfg, t, err, sizeof err), 0);
        traffic = noc_synthetic_traffic(&syn);
    }
    noc_sim_t *sim = noc_sim_create(&cfg, noc_topo_graph(t), traffic, err, sizeof err);
    if (!sim)
        fail_msg("%s", err);
    if (prog) {
        noc_gen_args_t a;
        noc_gen_args_default(&a);
        p = noc_gen_find(prog)->make(t, &a, err, sizeof err);
        assert_non_null(p);
        assert_int_equal(noc_pe_attach(sim, p, err, sizeof err), 0);
    }
    noc_waves_opts_t o;
    noc_waves_opts_init(&o);
    o.all_routers = all_routers;
    o.gtkw = 0;
    noc_waves_t *w = noc_waves_open(path, sim, &o, err, sizeof err);
    assert_non_null(w);
    assert_int_equal(prog ? noc_pe_run(sim) : noc_sim_run(sim), NOC_RUN_OK);
    assert_int_equal(noc_waves_close(w, err, sizeof err), 0);
    noc_sim_destroy(sim);
    noc_prog_free(p);
    noc_topo_destroy(t);
}

/* Reading only the routers that may have changed (waves.c) gives the same
 * file as reading every router every cycle: programs with and without
 * step barriers, synthetic traffic on the ideal router (the PE wired
 * straight to it: a packet can be made, injected and sent on in one cycle)
 * and on the vc router. */
static void test_skip_idle_routers(void **state)
{
    (void)state;
    static const char *const ideal1[] = { "router=ideal", "ni_ports=0", "injection_rate=0.02",
                                          "warmup_cycles=30", "sample_cycles=120", NULL };
    static const char *const vc3[] = { "packet_size=3", "injection_rate=0.25", "warmup_cycles=30",
                                       "sample_cycles=120", NULL };
    static const char *const unit[] = { "router=ideal", "ni_ports=0", NULL };
    static const char *const allport[] = { "ni_ports=0", NULL }; /* vc router: lane input ports */
    static const struct {
        const char *spec, *prog;
        int sync;
        const char *const *kv;
    } cases[] = {
        { "bsn:ring:4", "prefix-sum", 1, unit }, { "bsn:ring:4", "prefix-sum", 0, unit },
        { "ring:8", "broadcast", 0, NULL },      { "bsn:ring:4", "broadcast", 1, allport },
        { "mesh:4x4", NULL, 0, ideal1 },
        { "mesh:4x4", NULL, 0, vc3 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char a[400], b[400];
        scratch("skip.vcd", a, sizeof a);
        scratch("all.vcd", b, sizeof b);
        record_any(cases[i].spec, cases[i].prog, cases[i].sync, cases[i].kv, a, 0);
        record_any(cases[i].spec, cases[i].prog, cases[i].sync, cases[i].kv, b, 1);
        char *x = cmd_slurp(a, NULL), *y = cmd_slurp(b, NULL);
        assert_non_null(x);
        assert_non_null(y);
        if (strcmp(x, y) != 0)
            fail_msg("%s %s: skipping idle routers changed the wave file", cases[i].spec,
                     cases[i].prog ? cases[i].prog : "synthetic");
        print_message("%s %s: %zu bytes, the same\n", cases[i].spec, cases[i].prog ? cases[i].prog : "synthetic",
                      strlen(x));
        free(x);
        free(y);
    }
}

/* The save file: only names the wave file has, markers at the steps. */
static void test_gtkw(void **state)
{
    (void)state;
    char path[400], gpath[400];
    run_t r;
    scratch("save.fst", path, sizeof path);
    record(&r, "bsn:ring:4", prefix_sum, path, NULL, 0, UINT64_MAX);
    noc_waves_gtkw_path(path, gpath, sizeof gpath);
    assert_non_null(strstr(gpath, "save.gtkw"));
    wave_t *w = read_fst(path);
    char *text = cmd_slurp(gpath, NULL);
    assert_non_null(text);
    const noc_pe_stats_t *st = noc_pe_stats(noc_sim_pe(r.sim));
    int traces = 0, groups = 0, markers = 0, first = 1, lasts = 0, downstream = 0;
    const noc_topo_t *t = r.topo;
    /* the group of the critical path's links (the run has a barrier at
     * every step) starts with the first hop of the chain's first message */
    int n_chain, first_msg = -1;
    noc_chain_elem_t *chain = noc_pe_critical_chain(noc_sim_pe(r.sim), &n_chain);
    for (int i = n_chain - 1; i >= 0; i--)
        if (chain[i].kind == NOC_CHAIN_NETWORK)
            first_msg = (int)chain[i].op;
    free(chain);
    assert_true(first_msg >= 0);
    const char *path_grp = strstr(text, "\n-critical path links\n");
    assert_non_null(path_grp);
    char from[64], want[80];
    const noc_program_t *prog = noc_pe_program(noc_sim_pe(r.sim));
    for (int k = 0; k < prog->n_ranks; k++)
        if ((uint32_t)first_msg >= prog->ranks[k].op_start &&
            (uint32_t)first_msg < prog->ranks[k].op_start + prog->ranks[k].n_ops)
            noc_graph_label(noc_sim_graph(r.sim), k, from, sizeof from);
    snprintf(want, sizeof want, "+{%s->", from);
    const char *first_trace = strstr(path_grp, "\n+{"); /* (after the group's flags line) */
    if (!first_trace || strncmp(first_trace + 1, want, strlen(want)) != 0)
        fail_msg("the critical path's links do not start at %s", from);
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '*') {
            /* *ZOOM PRIMARY A B C ...: A.. at the steps' first cycles */
            char *p = line + 1;
            strtod(p, &p);
            long long primary = strtoll(p, &p, 10);
            assert_int_equal(primary, -1);
            for (int k = 0; k < 26; k++) {
                long long m = strtoll(p, &p, 10);
                if (k < st->n_steps)
                    assert_int_equal(m, (long long)st->steps[k].first_start);
                else
                    assert_int_equal(m, -1);
            }
        } else if (strncmp(line, "[markername] ", 13) == 0) {
            assert_int_equal(line[13], 'A' + markers);
            assert_string_equal(line + 14, st->steps[markers].name);
            markers++;
        } else if (line[0] == '+' || (line[0] == 't' && strncmp(line, "top.", 4) == 0)) {
            const char *name = line[0] == '+' ? strchr(line, '}') + 2 : line;
            if (find_sig(w, name) < 0)
                fail_msg("the save file names %s, not in the wave file", name);
            if (first)
                assert_string_equal(name, "top.step"); /* the step signal first */
            /* "+{<B> in from <A> occ_vcV} ...n_B.in_pK.occ_vcV": input port K of B is A's link's end */
            const char *in = strstr(line, " in from ");
            if (line[0] == '+' && in) {
                char b[64], a[64];
                assert_int_equal(sscanf(line, "+{%63[^ ] in from %63[^ ]", b, a), 2);
                int nb = noc_topo_find_label(t, b), na = noc_topo_find_label(t, a);
                int port = atoi(strstr(name, ".in_p") + 5);
                assert_true(nb >= 0 && na >= 0 && port >= 1 && port <= noc_topo_degree(t, nb));
                assert_int_equal(noc_topo_port_node(t, noc_topo_peer(t, noc_topo_gport(t, nb, port))), na);
                downstream++;
            }
            first = 0;
            traces++;
        } else if (strcmp(line, "@800200") == 0 || strcmp(line, "@c00200") == 0) {
            groups++;
        } else if (strncmp(line, "-step ", 6) == 0 && strstr(line, " at ")) {
            /* "-step K NAME: hot ...; last A->B at T": T inside step K */
            int k = atoi(line + 6) - 1;
            long long at = atoll(strstr(line, " at ") + 4);
            assert_true(k >= 0 && k < st->n_steps);
            assert_true(at >= (long long)st->steps[k].first_start && at <= (long long)st->steps[k].last_end);
            lasts++;
        } else if (strncmp(line, "[dumpfile] ", 11) == 0) {
            assert_non_null(strstr(line, "save.fst"));
        }
    }
    assert_int_equal(markers, st->n_steps);
    assert_int_equal(lasts, st->n_steps - 1); /* the last step moves no message */
    assert_true(downstream >= 4 * (st->n_steps - 1)); /* V = 4: a link's downstream buffer per step at least */
    assert_true(traces > 100);
    assert_true(groups >= 2 + 8); /* hot links, busiest links, 8 BSN groups */
    free(text);
    free_wave(w);
    stop(&r);
}

/* The CLI: --waves on a program run, VCD by extension, the errors. */
static void test_cli(void **state)
{
    (void)state;
    char *out, *err, path[400];
    int rc = cmd_run("run bsn:ring:4 --program prefix-sum --timing unit --sync steps --waves prefix.vcd "
                     "--waves-scope '<0,*' --waves-window 2:9", &out, &err);
    if (rc != 0)
        fail_msg("exit %d: %s", rc, err);
    assert_non_null(strstr(err, "waves in prefix.vcd"));
    free(out);
    free(err);
    scratch("prefix.vcd", path, sizeof path);
    wave_t *w = read_vcd(path);
    for (int i = 0; i < w->n_sig; i++)
        assert_true(strcmp(w->sig[i].name, "top.step") == 0 || strstr(w->sig[i].name, "group0.n_0_") != NULL);
    free_wave(w);
    scratch("prefix.gtkw", path, sizeof path);
    char *g = cmd_slurp(path, NULL);
    assert_non_null(g);
    free(g);

    static const struct {
        const char *args, *msg;
    } bad[] = {
        { "run ring:4 --program broadcast --waves-scope '(1)'", "go with --waves" },
        { "run ring:4 --program broadcast --waves x.fst --waves-window 5:2", "FROM is after TO" },
        { "run ring:4 --program broadcast --waves x.fst --waves-scope '<7'", "matches no node" },
        { "run ring:4 --program broadcast --waves /nonexistent/dir/x.fst", "cannot create a file in /nonexistent/dir/" },
        { "run ring:4 --waves", "needs a value" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rc = cmd_run(bad[i].args, &out, &err);
        assert_int_equal(rc, 2);
        if (!strstr(err, bad[i].msg))
            fail_msg("%s: expected '%s' in: %s", bad[i].args, bad[i].msg, err);
        free(out);
        free(err);
    }
}

/* Label to scope name, groups, and the matcher on their own. */
static void test_names(void **state)
{
    (void)state;
    char buf[64], err[256], groups[2][32];
    noc_wv_scope_name("<1,2,0>", buf, sizeof buf);
    assert_string_equal(buf, "n_1_2_0");
    noc_wv_scope_name("(3,4)", buf, sizeof buf);
    assert_string_equal(buf, "n_3_4");
    noc_wv_scope_name("<(0,1),(2,3),1>", buf, sizeof buf);
    assert_string_equal(buf, "n_0_1_2_3_1");
    noc_wv_scope_name("0101", buf, sizeof buf);
    assert_string_equal(buf, "n_0101");
    assert_true(noc_wv_match("<1,*,0>", "<1,3,0>"));
    assert_false(noc_wv_match("<1,*,0>", "<1,3,1>"));
    assert_true(noc_wv_match("3,", "<1,3,1>"));
    assert_true(noc_wv_match("(9)|(1, 2)", "(1,2)"));
    assert_true(noc_wv_match(NULL, "(1,2)"));
    noc_topo_t *t = noc_topo_create("mesh:4x3", 0, err, sizeof err);
    assert_int_equal(noc_topo_node_groups(t, 9, groups, sizeof groups[0]), 1);
    assert_string_equal(groups[0], "row2");
    noc_topo_destroy(t);
    t = noc_topo_create("hypercube:3", 0, err, sizeof err);
    assert_int_equal(noc_topo_node_groups(t, 5, groups, sizeof groups[0]), 0);
    noc_topo_destroy(t);
    char esc[64];
    noc_wv_escape("send to <1,2,0> tag 3", esc, sizeof esc);
    assert_string_equal(esc, "send\\040to\\040<1,2,0>\\040tag\\0403");
    noc_waves_gtkw_path("a/b.fst", buf, sizeof buf);
    assert_string_equal(buf, "a/b.gtkw");
    noc_waves_gtkw_path("a.b/c", buf, sizeof buf);
    assert_string_equal(buf, "a.b/c.gtkw");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_link_carries_packet),
        cmocka_unit_test(test_step_boundaries),
        cmocka_unit_test(test_vcd_matches_fst),
        cmocka_unit_test(test_scope),
        cmocka_unit_test(test_window),
        cmocka_unit_test(test_grant_synthetic),
        cmocka_unit_test(test_skip_idle_routers),
        cmocka_unit_test(test_gtkw),
        cmocka_unit_test(test_cli),
    };
    return cmocka_run_group_tests(tests, cmd_setup, cmd_teardown);
}
