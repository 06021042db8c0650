/* test_energy.c: the energy figures (model/energy.h, app/energy_file.h,
 * docs/energy.md) on hand-worked cases of the vc router.
 *   - Events of one flit over one link (mesh:2): the NI injects it into
 *     router 0's local input buffer (inject, buffer write); router 0 routes
 *     it, allocates it an output VC and the switch, reads it out, crosses
 *     its crossbar, sends the NI a credit, and the link carries it; router 1
 *     writes it into its buffer and does the same again toward its NI
 *     (eject), its credit going back to router 0. So each router: 1 write,
 *     1 read, 1 route, 1 VC and 1 switch allocation, 1 crossing, 1 credit;
 *     1 link, 1 injection (router 0), 1 ejection (router 1).
 *   - A k-flit packet over h hops passes h + 1 routers: k(h + 1) writes,
 *     reads, switch allocations, crossings and credits, h + 1 route
 *     computations and VC allocations (heads), kh link traversals, k
 *     injections and k ejections; the routers past its destination none.
 *   - Energy is the sum of counts times the table's entries: with entries
 *     of distinct powers of two the sum is exact and names any count off.
 *   - A program's steps: each step's events from the formulas above.
 *   - Table files: a bad line refused naming the file, the line and the
 *     key; the CLI exits 2 on one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/energy.h"
#include "model/pe.h"
#include "app/energy_file.h"
#include "testbench/unit/script_traffic.h"
#include "testbench/unit/pe_run_test.h"
#include "testbench/unit/cmd_test.h"

/* The expected events of a k-flit packet over h hops (k packets' worth of
 * flits, `packets` heads), all routers together. */
static void packet_events(uint64_t *ev, uint64_t k, uint64_t h, uint64_t packets)
{
    memset(ev, 0, NOC_EV_COUNT * sizeof *ev);
    ev[NOC_EV_BUF_WRITE] = ev[NOC_EV_BUF_READ] = ev[NOC_EV_SW_ALLOC] = ev[NOC_EV_XBAR] = ev[NOC_EV_CREDIT] =
        k * (h + 1);
    ev[NOC_EV_ROUTE] = ev[NOC_EV_VC_ALLOC] = packets * (h + 1);
    ev[NOC_EV_LINK] = k * h;
    ev[NOC_EV_INJECT] = ev[NOC_EV_EJECT] = k;
}

static void assert_events(const uint64_t *got, const uint64_t *want)
{
    for (int e = 0; e < NOC_EV_COUNT; e++)
        if (got[e] != want[e])
            fail_msg("%s: counted %llu, expected %llu", noc_event_name(e), (unsigned long long)got[e],
                     (unsigned long long)want[e]);
}

static noc_sim_t *one_packet(noc_topo_t **t, const char *spec, int dst, int k)
{
    static script_t sc;
    memset(&sc, 0, sizeof sc);
    script_add(&sc, 10, 0, dst, k);
    const char *kv[] = { "sample_cycles=100", "num_vcs=2", "vc_buf_size=8", "check=1", NULL };
    noc_sim_t *s = script_sim(t, spec, 0, &sc, kv);
    assert_int_equal(noc_sim_run(s), NOC_RUN_OK);
    return s;
}

static void test_one_hop(void **state)
{
    (void)state;
    noc_topo_t *t;
    noc_sim_t *s = one_packet(&t, "mesh:2", 1, 1);
    uint64_t ev[2 * NOC_EV_COUNT];
    noc_events_nodes(s, ev);
    for (int n = 0; n < 2; n++) {
        const uint64_t *r = &ev[n * NOC_EV_COUNT];
        uint64_t want[NOC_EV_COUNT] = { 0 };
        want[NOC_EV_BUF_WRITE] = want[NOC_EV_BUF_READ] = want[NOC_EV_ROUTE] = want[NOC_EV_VC_ALLOC] = 1;
        want[NOC_EV_SW_ALLOC] = want[NOC_EV_XBAR] = want[NOC_EV_CREDIT] = 1;
        want[NOC_EV_LINK] = n == 0;
        want[NOC_EV_INJECT] = n == 0;
        want[NOC_EV_EJECT] = n == 1;
        assert_events(r, want);
    }
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}

/* k = 5 flits from node 0 to node h = 4 of mesh:6 (node 5 sees none). */
static void test_k_flits_h_hops(void **state)
{
    (void)state;
    const int k = 5, h = 4;
    noc_topo_t *t;
    noc_sim_t *s = one_packet(&t, "mesh:6", h, k);
    uint64_t ev[6 * NOC_EV_COUNT], total[NOC_EV_COUNT], want[NOC_EV_COUNT];
    noc_events_total(s, total);
    packet_events(want, (uint64_t)k, (uint64_t)h, 1);
    assert_events(total, want);
    noc_events_nodes(s, ev);
    for (int n = 0; n < 6; n++) {
        const uint64_t *r = &ev[n * NOC_EV_COUNT];
        uint64_t on = n <= h; /* on the path */
        assert_int_equal(r[NOC_EV_BUF_WRITE], on * (uint64_t)k);
        assert_int_equal(r[NOC_EV_XBAR], on * (uint64_t)k);
        assert_int_equal(r[NOC_EV_ROUTE], on);
        assert_int_equal(r[NOC_EV_LINK], n < h ? (uint64_t)k : 0);
        assert_int_equal(r[NOC_EV_INJECT], n == 0 ? (uint64_t)k : 0);
        assert_int_equal(r[NOC_EV_EJECT], n == h ? (uint64_t)k : 0);
    }
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}

/* A table whose entry e is 2^e pJ, 64-bit flits, a 2 GHz clock. */
static void pow2_table(noc_energy_table_t *tb)
{
    memset(tb, 0, sizeof *tb);
    snprintf(tb->name, sizeof tb->name, "pow2");
    tb->flit_bits = 64;
    for (int e = 0; e < NOC_EV_COUNT; e++)
        tb->pj[e] = (double)(1u << e);
    tb->leak_buffer_bit_uw = 0.5;
    tb->static_router_mw = 2;
    tb->static_link_mw = 0.25;
    tb->clock_ghz = 2;
}

/* The energy of the k-flit packet from its hand-worked counts: dynamic
 * k(h+1)(1+2+16+32+128) + (h+1)(4+8) + kh 64 + k 256 + k 512 pJ; static:
 * mesh:5's 13 input ports (5 local, 8 network) of 2 VCs of 8 flits of 64
 * bits, 0.5 uW a bit, 5 routers of 2 mW, 18 channels (13 output ports'
 * and 5 injection) of 0.25 mW, over the 100-cycle window at 2 GHz. */
static void test_energy_is_counts_times_table(void **state)
{
    (void)state;
    const double k = 5, h = 4;
    noc_topo_t *t;
    noc_sim_t *s = one_packet(&t, "mesh:5", 4, 5);
    noc_energy_table_t tb;
    pow2_table(&tb);
    char err[300];
    assert_int_equal(noc_sim_set_energy(s, &tb, err, sizeof err), 0);
    noc_energy_sum_t e;
    noc_energy_run(s, noc_sim_energy(s), &e);
    double dyn = k * (h + 1) * (1 + 2 + 16 + 32 + 128) + (h + 1) * (4 + 8) + k * h * 64 + k * 256 + k * 512;
    assert_true(e.dynamic_pj == dyn);
    assert_true(noc_energy_dynamic_pj(&tb, e.ev) == dyn);
    uint64_t rows[5 * NOC_EV_COUNT];
    noc_events_nodes(s, rows);
    double by_router = 0;
    for (int n = 0; n < 5; n++)
        by_router += noc_energy_dynamic_pj(&tb, &rows[n * NOC_EV_COUNT]);
    assert_true(by_router == dyn);
    assert_int_equal(e.buffer_bits, 13 * 2 * 8 * 64);
    assert_int_equal(e.channels, 18);
    double st = 13 * 2 * 8 * 64 * 0.5e-3 + 5 * 2 + 18 * 0.25, ns = 100 / 2.0;
    assert_float_equal(e.static_mw, st, 1e-9);
    assert_float_equal(e.ns, ns, 1e-12);
    assert_float_equal(e.total_pj, dyn + st * ns, 1e-6);
    assert_float_equal(e.avg_mw, (dyn + st * ns) / ns, 1e-9);
    assert_int_equal(e.flits, 5);
    assert_float_equal(e.pj_per_flit, (dyn + st * ns) / k, 1e-6);
    assert_float_equal(e.pj_per_bit, (dyn + st * ns) / k / 64, 1e-6);
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}

/* Step a: rank 0 sends 3 words to rank 2 (2 hops) in packets of 2 flits (2
 * packets); step b: rank 4 sends 2 words to rank 1 (3 hops, 1 packet). */
static void test_program_steps(void **state)
{
    (void)state;
    noc_program_t *p = noc_prog_new(5, "two_steps");
    noc_prog_declare_step(p, "a");
    noc_prog_declare_step(p, "b");
    for (int r = 0; r < 5; r++)
        noc_prog_mem(p, r, 4);
    noc_prog_step(p, 0, "a");
    noc_prog_send(p, 0, 2, 0, 3, 0);
    noc_prog_step(p, 1, "b");
    noc_prog_recv(p, 1, 4, 0, 2, 0);
    noc_prog_step(p, 2, "a");
    noc_prog_recv(p, 2, 0, 0, 3, 0);
    noc_prog_step(p, 4, "b");
    noc_prog_send(p, 4, 1, 0, 2, 0);
    const char *kv[] = { "packet_size=2", "check=1", NULL };
    run_t r;
    build(&r, "mesh:5", p, kv);
    assert_int_equal(noc_pe_run(r.sim), NOC_RUN_OK);
    uint64_t a[NOC_EV_COUNT], b[NOC_EV_COUNT], want[NOC_EV_COUNT], total[NOC_EV_COUNT];
    assert_int_equal(noc_events_step(r.sim, 0, a), 0);
    packet_events(want, 3, 2, 2);
    assert_events(a, want);
    assert_int_equal(noc_events_step(r.sim, 1, b), 0);
    packet_events(want, 2, 3, 1);
    assert_events(b, want);
    noc_events_total(r.sim, total);
    for (int e = 0; e < NOC_EV_COUNT; e++)
        want[e] = a[e] + b[e];
    assert_events(total, want);
    drop(&r, p);
}

static void test_refusals(void **state)
{
    (void)state;
    noc_energy_table_t tb;
    noc_energy_default(&tb);
    char err[400];
    static script_t sc;
    memset(&sc, 0, sizeof sc);
    noc_topo_t *t;
    const char *ideal[] = { "router=ideal", NULL };
    noc_sim_t *s = script_sim(&t, "mesh:2", 0, &sc, ideal);
    assert_int_equal(noc_sim_set_energy(s, &tb, err, sizeof err), -1);
    assert_non_null(strstr(err, "router ideal"));
    assert_null(noc_sim_energy(s));
    noc_sim_destroy(s);
    noc_topo_destroy(t);
    const char *narrow[] = { "flit_width=32", NULL };
    s = script_sim(&t, "mesh:2", 0, &sc, narrow);
    assert_int_equal(noc_sim_set_energy(s, &tb, err, sizeof err), -1);
    assert_non_null(strstr(err, "64-bit flits"));
    assert_non_null(strstr(err, "flit_width=32"));
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}

/* A complete table file, with line `bad` (1-based) replaced by `with`. */
static void table_file(char *path, size_t len, int bad, const char *with)
{
    static const char *const lines[] = {
        "# a test table", "name = test", "flit_bits = 64", "buffer_write = 1", "buffer_read = 2", "route = 3",
        "vc_alloc = 4", "sw_alloc = 5", "crossbar = 6", "link = 7", "credit = 8", "inject = 9", "eject = 10",
        "leak_buffer_bit = 0.1", "static_router = 1.5", "static_link = 0.5", "clock_ghz = 1", NULL,
    };
    char text[2048] = "";
    for (int i = 0; lines[i]; i++) {
        strcat(text, i + 1 == bad ? with : lines[i]);
        strcat(text, "\n");
    }
    cmd_write("table.txt", text, path, len);
}

static void test_table_file(void **state)
{
    (void)state;
    char path[400], err[600];
    noc_energy_table_t tb;
    table_file(path, sizeof path, 0, NULL);
    assert_int_equal(noc_app_energy_load(path, &tb, err, sizeof err), 0);
    assert_string_equal(tb.name, "test");
    assert_int_equal(tb.flit_bits, 64);
    for (int e = 0; e < NOC_EV_COUNT; e++)
        assert_true(tb.pj[e] == (double)(e + 1));
    assert_true(tb.static_router_mw == 1.5 && tb.static_link_mw == 0.5 && tb.clock_ghz == 1);
    static const struct { int line; const char *text, *says; } bad[] = {
        { 5, "buffer_read = lots", "buffer_read: 'lots' is not a number" },
        { 5, "bufer_read = 2", "unknown key 'bufer_read'" },
        { 6, "buffer_read = 2", "buffer_read given twice" },
        { 10, "link = -7", "link: -7 is negative" },
        { 3, "flit_bits = 6.5", "flit_bits" },
        { 17, "clock_ghz = 0", "clock_ghz" },
        { 9, "crossbar 6", "not 'key = value'" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        table_file(path, sizeof path, bad[i].line, bad[i].text);
        assert_int_equal(noc_app_energy_load(path, &tb, err, sizeof err), -1);
        char where[440];
        snprintf(where, sizeof where, "%s:%d: ", path, bad[i].line);
        if (strncmp(err, where, strlen(where)) != 0 || !strstr(err, bad[i].says))
            fail_msg("'%s' gave: %s", bad[i].text, err);
    }
    table_file(path, sizeof path, 13, "# no eject");
    assert_int_equal(noc_app_energy_load(path, &tb, err, sizeof err), -1);
    assert_non_null(strstr(err, "no value for eject"));
}

static void test_cli(void **state)
{
    (void)state;
    char path[400], *out, *err;
    table_file(path, sizeof path, 8, "sw_alloc = x");
    assert_int_equal(cmd_run("run mesh:2 energy=table.txt sample_cycles=10 warmup_cycles=0", &out, &err), 2);
    assert_non_null(strstr(err, "table.txt:8: sw_alloc"));
    free(out);
    free(err);
    assert_int_equal(cmd_run("run mesh:2 energy=default sample_cycles=100 warmup_cycles=0", &out, &err), 0);
    assert_non_null(strstr(out, "  energy        table booksim2-32nm"));
    free(out);
    free(err);
    assert_int_equal(cmd_run("run mesh:2 sample_cycles=100 warmup_cycles=0", &out, &err), 0);
    assert_null(strstr(out, "energy"));
    free(out);
    free(err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_hop),
        cmocka_unit_test(test_k_flits_h_hops),
        cmocka_unit_test(test_energy_is_counts_times_table),
        cmocka_unit_test(test_program_steps),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_table_file),
        cmocka_unit_test(test_cli),
    };
    return cmocka_run_group_tests(tests, cmd_setup, cmd_teardown);
}
