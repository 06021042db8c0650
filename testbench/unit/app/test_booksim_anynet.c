/* test_booksim_anynet.c: BookSim2 files with `topology = anynet;` (app/booksim.c,
 * topologies/anynet.c), `topology = cmesh;` (topologies/cmesh.c), whose
 * routers carry several nodes, and `topology = fly;` (topologies/fly.c),
 * whose nodes inject at one router and eject at another. The expected figures are BookSim2's zero-load
 * latency with its channels, T0 = 7 + (4 + L) H for H router-to-router hops
 * over channels of L cycles (test_booksim.c derives it; BookSim2 itself
 * measures 12 on the ring of 4 below under bitcomp, and 13 with L = 2), and
 * hop counts worked by hand; refusals name the config's line and the anynet
 * file's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <jansson.h>

#include "app/config_file.h"
#include "model/config.h"
#include "testbench/unit/app/booksim_test.h"

#define RING4 "router 0 node 0 router 1\nrouter 1 node 1 router 2\nrouter 2 node 2 router 3\nrouter 3 node 3 router 0\n"
#define RING4_L2                                                                                                  \
    "router 0 node 0 router 1 2 router 3 2\nrouter 1 node 1 router 2 2 router 0 2\n"                            \
    "router 2 node 2 router 3 2 router 1 2\nrouter 3 node 3 router 0 2 router 2 2\n"
#define CFG(file, traffic, rate)                                                                                  \
    "topology = anynet;\nrouting_function = min;\nnetwork_file = " file ";\ntraffic = " traffic ";\n"           \
    "injection_rate = " rate ";\nnum_vcs = 2;\nsample_period = 20000;\n"

/* bitcomp on the ring 0-1-2-3-0 sends 0 <-> 3 and 1 <-> 2: one hop each. */
static void test_zero_load(void **state)
{
    (void)state;
    put("ring4", RING4);
    put("ring4.cfg", CFG("ring4", "bitcomp", "0.001"));
    json_t *j = run_json("run --config ring4.cfg");
    assert_float_equal(jnum(j, "hops", "avg"), 1, 0);
    assert_float_equal(jnum(j, "latency", "min"), 7 + 5 * 1, 0);
    assert_float_equal(jnum(j, "latency", "avg"), 12, 0.01 * 12);
    json_decref(j);
    /* channels of 2 cycles, and the credit loop that follows them */
    put("ring4l2", RING4_L2);
    put("ring4l2.cfg", CFG("ring4l2", "bitcomp", "0.001"));
    j = run_json("run --config ring4l2.cfg");
    assert_float_equal(jnum(j, "latency", "min"), 7 + 6 * 1, 0);
    json_decref(j);
    /* the parameters: noctua's credit loop is BookSim2's credit_delay +
     * the channel's latency + 1 (test_booksim.c) */
    char path[512], err[1200];
    noc_config_t cfg;
    cmd_write("ring4l2cd.cfg", CFG("ring4l2", "bitcomp", "0.001") "credit_delay = 1;\n", path, sizeof path);
    noc_config_defaults(&cfg);
    if (chdir(cmd_tmpdir) != 0 || noc_app_load_file(&cfg, path, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(cfg.link_latency, 2);
    assert_int_equal(cfg.credit_delay, 1 + 2 + 1);
    assert_string_equal(cfg.topology_spec, "anynet:ring4l2");
}

/* A cube: from every router 1 router at 0 hops, 3 at 1, 3 at 2, 1 at 3;
 * uniform (BookSim2's draws the source too) averages 12 / 8 = 1.5 hops. */
static void test_cube_uniform(void **state)
{
    (void)state;
    put("cube", "router 0 node 0 router 1 router 3 router 4\nrouter 1 node 1 router 2 router 5\n"
                "router 2 node 2 router 3 router 6\nrouter 3 node 3 router 7\nrouter 4 node 4 router 5 router 7\n"
                "router 5 node 5 router 6\nrouter 6 node 6 router 7\nrouter 7 node 7\n");
    put("cube.cfg", CFG("cube", "uniform", "0.01"));
    json_t *j = run_json("run --config cube.cfg");
    assert_float_equal(jnum(j, "hops", "avg"), 1.5, 0.03);
    assert_float_equal(jnum(j, "hops", "max"), 3, 0);
    assert_float_equal(jnum(j, "latency", "avg"), 7 + 5 * 1.5, 0.02 * 14.5);
    json_decref(j);
}

/* Concentration: two nodes on each of two routers. BookSim2's uniform
 * pattern draws the source too, so half the packets stay on their router
 * (0 hops) and half cross the link: 0.5 hops, latency 7 + 5 x 0.5. Every
 * one of the four terminals injects (accepted per terminal). */
static void test_concentration(void **state)
{
    (void)state;
    put("conc", "router 0 node 0 node 1 router 1\nrouter 1 node 2 node 3\n");
    put("conc.cfg", CFG("conc", "uniform", "0.01"));
    json_t *j = run_json("run --config conc.cfg");
    assert_float_equal(jnum(j, "hops", "avg"), 0.5, 0.03);
    assert_float_equal(jnum(j, "hops", "max"), 1, 0);
    assert_float_equal(jnum(j, "latency", "avg"), 7 + 5 * 0.5, 0.02 * 9.5);
    assert_int_equal(json_integer_value(json_object_get(j, "nodes")), 4);
    assert_int_equal(json_integer_value(json_object_get(j, "routers")), 2);
    assert_float_equal(jnum(j, "throughput", "accepted"), 0.01, 0.002);
    json_decref(j);
}

#define CMESH(more)                                                                                           \
    "topology = cmesh; k = 4; n = 2; c = 4; xr = 2; yr = 2; x = 4; y = 4; routing_function = dor_no_express;\n" \
    "traffic = bitcomp; num_vcs = 2; sample_period = 20000;\n" more

/* BookSim2's cmesh (examples/cmeshconfig's fabric): 4 x 4 routers of 2x2
 * nodes, channels of L = 2 cycles (use_noc_latency: xr), so T0 = 7 + 6 H.
 * bitcomp sends terminal (tx, ty) of the 8 x 8 terminal grid to (7 - tx,
 * 7 - ty): router (rx, ry) to (3 - rx, 3 - ry), |3 - 2 rx| + |3 - 2 ry|
 * hops, 2 at the least (T0 19, BookSim2's minimum on cmeshconfig too), 6
 * at the most, 4 on average (T0 31 at low load). */
static void test_cmesh(void **state)
{
    (void)state;
    char *err;
    put("cm.cfg", CMESH("injection_rate = 0.005;\n"));
    json_t *j = run_json("run --config cm.cfg");
    assert_float_equal(jnum(j, "hops", "avg"), 4, 0.05);
    assert_float_equal(jnum(j, "hops", "max"), 6, 0);
    assert_float_equal(jnum(j, "latency", "min"), 19, 0);
    assert_float_equal(jnum(j, "latency", "avg"), 31, 0.02 * 31);
    assert_int_equal(json_integer_value(json_object_get(j, "nodes")), 64);
    assert_int_equal(json_integer_value(json_object_get(j, "routers")), 16);
    json_decref(j);
    static const struct {
        const char *more, *says;
    } bad[] = {
        {"c = 2;\n", "cm1.cfg:3: cmesh with c = 2, xr = 2, yr = 2: BookSim2's cmesh asserts c = 4"},
        {"routing_function = dor;\n", "cm2.cfg:3: 'routing_function = dor' on cmesh: noctua builds dor_no_express"},
        {"y = 8;\n", "cm3.cfg:3: cmesh with x = 4, y = 8: BookSim2's cmesh asserts x = y"},
        {"n = 3;\n", "cm4.cfg:3: 'n = 3' on cmesh"},
    };
    for (int i = 0; i < 4; i++) {
        char name[16], cmd[64];
        snprintf(name, sizeof name, "cm%d.cfg", i + 1);
        char text[600];
        snprintf(text, sizeof text, CMESH("%s"), bad[i].more);
        put(name, text);
        snprintf(cmd, sizeof cmd, "run --config %s", name);
        assert_int_equal(cmd_run(cmd, NULL, &err), 2);
        if (!strstr(err, bad[i].says))
            fail_msg("case %d: %s", i, err);
        free(err);
    }
    put("xr.cfg", "topology = mesh; k = 4; n = 2; routing_function = dor; xr = 2;\n");
    assert_int_equal(cmd_run("run --config xr.cfg", NULL, &err), 2);
    assert_non_null(strstr(err, "xr.cfg:1: 'xr = 2' on mesh"));
    free(err);
}

/* topology = fly: every packet crosses the N stages (N - 1 hops, for a
 * node to itself too): T0 = 7 + 5 (N - 1), 17 on fly:2:3 (BookSim2
 * measures 17 as its minimum and 17.005 on average at this load) and 7 on
 * the one router of fly:4:1. */
static void test_fly(void **state)
{
    (void)state;
    char *err;
    static const struct {
        int k, n, hops, t0;
    } c[] = { { 2, 3, 2, 17 }, { 4, 1, 0, 7 } };
    for (int i = 0; i < 2; i++) {
        char text[300];
        snprintf(text, sizeof text, "topology = fly; k = %d; n = %d; routing_function = dest_tag;\n"
                 "injection_rate = 0.005; sample_period = 20000;\n", c[i].k, c[i].n);
        put("fly.cfg", text);
        json_t *j = run_json("run --config fly.cfg");
        assert_float_equal(jnum(j, "hops", "avg"), c[i].hops, 0);
        assert_float_equal(jnum(j, "hops", "max"), c[i].hops, 0);
        assert_float_equal(jnum(j, "latency", "min"), c[i].t0, 0);
        assert_float_equal(jnum(j, "latency", "avg"), c[i].t0, 0.01 * c[i].t0);
        assert_int_equal(json_integer_value(json_object_get(j, "nodes")), c[i].n == 3 ? 8 : 4);
        assert_int_equal(json_integer_value(json_object_get(j, "routers")), c[i].n == 3 ? 12 : 1);
        json_decref(j);
    }
    put("fly1.cfg", "topology = fly; k = 2; n = 3;\nrouting_function = dor;\n");
    assert_int_equal(cmd_run("run --config fly1.cfg", NULL, &err), 2);
    assert_non_null(strstr(err, "fly1.cfg:2: 'routing_function = dor' on fly: BookSim2's fly has dest_tag only"));
    free(err);
    put("fly2.cfg", "topology = fly; k = 2; n = 3; routing_function = dest_tag;\ntraffic = tornado;\n");
    assert_int_equal(cmd_run("run --config fly2.cfg", NULL, &err), 2);
    assert_non_null(strstr(err, "fly2.cfg:2: 'traffic = tornado' on fly with n = 3"));
    free(err);
    assert_int_equal(cmd_run("run topology=fly k=2 n=3", NULL, &err), 2);
    assert_non_null(strstr(err, "give the SPEC fly:K:N"));
    free(err);
}

/* topology = fattree with nca: fattree:k:n. fattree:2:3 at low load, with
 * BookSim2's uniform (self included): a destination on the same leaf 2 in 8
 * times (no hop), under the same level-1 router 2 in 8 (2 hops), else 4:
 * 2.5 hops on average, 4 at most, and every packet T0 = 7 + 5 H (BookSim2's
 * default timing, 1-cycle channels), the least 7. */
static void test_fattree(void **state)
{
    (void)state;
    char *err;
    put("ft.cfg", "topology = fattree; k = 2; n = 3; routing_function = nca;\n"
                  "injection_rate = 0.01; sample_period = 40000;\n");
    json_t *j = run_json("run --config ft.cfg");
    double hops = jnum(j, "hops", "avg");
    assert_float_equal(hops, 2.5, 0.1);
    assert_float_equal(jnum(j, "hops", "max"), 4, 0);
    assert_float_equal(jnum(j, "latency", "min"), 7, 0);
    assert_float_equal(jnum(j, "latency", "avg"), 7 + 5 * hops, 0.01 * (7 + 5 * hops));
    assert_int_equal(json_integer_value(json_object_get(j, "nodes")), 8);
    assert_int_equal(json_integer_value(json_object_get(j, "routers")), 12);
    json_decref(j);
    /* anca: adaptive, noctua's anca (its route set: topologies.fattree) */
    put("ft1.cfg", "topology = fattree; k = 2; n = 3;\nrouting_function = anca;\nsample_period = 2000;\n");
    j = run_json("run --config ft1.cfg");
    assert_string_equal(json_string_value(json_object_get(json_object_get(j, "config"), "routing_function")), "anca");
    json_decref(j);
    /* with routing_delay = 0 BookSim2 picks a router ahead: refused by name */
    put("ft1b.cfg", "topology = fattree; k = 2; n = 3; routing_function = anca;\nrouting_delay = 0;\n");
    assert_int_equal(cmd_run("run --config ft1b.cfg", NULL, &err), 2);
    assert_non_null(strstr(err, "ft1b.cfg:2: 'routing_function = anca' with routing_delay = 0"));
    free(err);
    put("ft2.cfg", "topology = fattree; k = 2; n = 3; routing_function = nca;\ntraffic = neighbor;\n");
    assert_int_equal(cmd_run("run --config ft2.cfg", NULL, &err), 2);
    assert_non_null(strstr(err, "ft2.cfg:2: 'traffic = neighbor' on fattree with n = 3"));
    free(err);
    /* every packet its own draw: the 1,600 or so packets leaving leaf (1,0)
     * of fattree:2:2 for the other leaf split evenly over its two up links
     * (each half within 3.5 standard deviations); one salt for all would
     * send them up one */
    j = run_json("run fattree:2:2 injection_rate=0.3 sample_cycles=4000");
    double up[2] = {0, 0};
    size_t i;
    json_t *l;
    json_array_foreach(json_object_get(j, "links"), i, l) {
        const char *from = json_string_value(json_object_get(l, "from"));
        const char *to = json_string_value(json_object_get(l, "to"));
        if (strcmp(from, "(1,0)") == 0 && to[1] == '0')
            up[to[3] - '0'] = json_number_value(json_object_get(l, "flits"));
    }
    json_decref(j);
    assert_true(up[0] + up[1] > 1400);
    assert_float_equal(up[0] / (up[0] + up[1]), 0.5, 0.08);
    /* another fabric's function on a mesh: BookSim2 has none such (it stops) */
    put("ft3.cfg", "topology = mesh; k = 4; n = 2;\nrouting_function = nca;\n");
    assert_int_equal(cmd_run("run --config ft3.cfg", NULL, &err), 2);
    assert_non_null(strstr(err, "ft3.cfg:2: 'routing_function = nca' on a mesh: BookSim2 has no nca_mesh"));
    free(err);
    assert_int_equal(cmd_run("run topology=fattree k=2 n=3", NULL, &err), 2);
    assert_non_null(strstr(err, "give the SPEC fattree:K:N"));
    free(err);
}

/* topology = qtree and tree4 with nca: qtree:4:3 and tree4. At low load
 * with BookSim2's uniform (self included) a destination is on the same
 * leaf 4 in 64 times (no hop), in the same subtree of 16 terminals 12 in
 * 64 (2 hops), else 4 hops: 3.375 on average, 4 at most, and every packet
 * T0 = 7 + 5 H (BookSim2's default timing, 1-cycle channels), the least 7.
 * BookSim2's asserts k = 4, n = 3 refused by name, anca on qtree too. */
static void test_trees(void **state)
{
    (void)state;
    char *err;
    const char *const topo[] = {"qtree", "tree4"};
    const char *const spec[] = {"qtree:4:3", "tree4"};
    for (int i = 0; i < 2; i++) {
        char text[256];
        snprintf(text, sizeof text, "topology = %s; k = 4; n = 3; routing_function = nca;\n"
                                    "injection_rate = 0.005; sample_period = 40000;\n", topo[i]);
        put("tr.cfg", text);
        json_t *j = run_json("run --config tr.cfg");
        double hops = jnum(j, "hops", "avg");
        assert_float_equal(hops, 3.375, 0.1);
        assert_float_equal(jnum(j, "hops", "max"), 4, 0);
        assert_float_equal(jnum(j, "latency", "min"), 7, 0);
        assert_float_equal(jnum(j, "latency", "avg"), 7 + 5 * hops, 0.01 * (7 + 5 * hops));
        assert_int_equal(json_integer_value(json_object_get(j, "nodes")), 64);
        assert_int_equal(json_integer_value(json_object_get(j, "routers")), i ? 28 : 21);
        assert_string_equal(json_string_value(json_object_get(j, "topology")), spec[i]);
        json_decref(j);
    }
    put("tr1.cfg", "topology = qtree; n = 3; routing_function = nca;\nk = 8;\n");
    assert_int_equal(cmd_run("run --config tr1.cfg", NULL, &err), 2);
    assert_non_null(strstr(err, "tr1.cfg:2: 'topology = qtree' with k = 8, n = 3: BookSim2's qtree asserts k = 4"));
    free(err);
    put("tr2.cfg", "topology = qtree; k = 4; n = 3;\nrouting_function = anca;\n");
    assert_int_equal(cmd_run("run --config tr2.cfg", NULL, &err), 2);
    assert_non_null(strstr(err, "tr2.cfg:2: 'routing_function = anca' on qtree: BookSim2's qtree has nca only"));
    free(err);
    /* tree4's anca as BookSim2 runs it: up by the first up port, so at low
     * load the same hops and latency as nca */
    put("tr4.cfg", "topology = tree4; k = 4; n = 3; routing_function = anca;\n"
                   "injection_rate = 0.005; sample_period = 40000;\n");
    json_t *j = run_json("run --config tr4.cfg");
    assert_string_equal(json_string_value(json_object_get(json_object_get(j, "config"), "routing_function")), "anca");
    assert_float_equal(jnum(j, "hops", "avg"), 3.375, 0.1);
    json_decref(j);
    put("tr3.cfg", "topology = tree4; k = 4; n = 3; routing_function = nca;\ntraffic = tornado;\n");
    assert_int_equal(cmd_run("run --config tr3.cfg", NULL, &err), 2);
    assert_non_null(strstr(err, "tr3.cfg:2: 'traffic = tornado' on tree4"));
    free(err);
    assert_int_equal(cmd_run("run topology=tree4", NULL, &err), 2);
    assert_non_null(strstr(err, "give the SPEC tree4"));
    free(err);
}

/* routing_function = dim_order_bal on a torus: noctua's dor_bal_booksim;
 * on a mesh BookSim2 has no dim_order_bal_mesh (it stops): refused. */
static void test_dim_order_bal(void **state)
{
    (void)state;
    char *err;
    put("db.cfg", "topology = torus; k = 4; n = 2; routing_function = dim_order_bal; num_vcs = 4;\n"
                  "injection_rate = 0.05; sample_period = 2000;\n");
    json_t *j = run_json("run --config db.cfg");
    assert_string_equal(json_string_value(json_object_get(json_object_get(j, "config"), "routing_function")),
                        "dor_bal_booksim");
    json_decref(j);
    put("db2.cfg", "topology = mesh; k = 4; n = 2;\nrouting_function = dim_order_bal;\n");
    assert_int_equal(cmd_run("run --config db2.cfg", NULL, &err), 2);
    assert_non_null(strstr(err, "db2.cfg:2: 'routing_function = dim_order_bal' on a mesh: BookSim2 has no"));
    free(err);
    assert_int_equal(cmd_run("run mesh:4x4 routing_function=dor_bal_booksim", NULL, &err), 2);
    assert_non_null(strstr(err, "dor_bal_booksim is built for tori and rings only"));
    free(err);
}

/* routing_function = xy_yx on a mesh: every node of a 4x4 mesh sends to
 * node 5 = (1,1); node 0 = (0,0)'s packets leave x-first (to (1,0)) or
 * y-first (to (0,1)), half and half (within 0.05; dor would send them all
 * x-first), and no other packet takes those two links. */
static void test_xy_yx(void **state)
{
    (void)state;
    char *err;
    put("xy.cfg", "topology = mesh; k = 4; n = 2; routing_function = xy_yx; num_vcs = 2;\n"
                  "traffic = hotspot({5}); injection_rate = 0.05; sample_period = 20000;\n");
    json_t *j = run_json("run --config xy.cfg");
    double x = -1, y = -1;
    size_t i;
    json_t *l;
    json_array_foreach(json_object_get(j, "links"), i, l) {
        const char *from = json_string_value(json_object_get(l, "from"));
        const char *to = json_string_value(json_object_get(l, "to"));
        double f = json_number_value(json_object_get(l, "flits"));
        if (strcmp(from, "(0,0)") == 0)
            *(strcmp(to, "(1,0)") == 0 ? &x : &y) = f;
    }
    json_decref(j);
    assert_true(x + y > 2000);
    assert_float_equal(x / (x + y), 0.5, 0.05);
    put("xy3.cfg", "topology = mesh; k = 4; n = 2; routing_function = xy_yx;\nnum_vcs = 3;\n");
    assert_int_equal(cmd_run("run --config xy3.cfg", NULL, &err), 2);
    assert_non_null(strstr(err, "xy3.cfg:2: 'num_vcs = 3' with xy_yx"));
    free(err);
    put("xyt.cfg", "topology = torus; k = 4; n = 2;\nrouting_function = xy_yx;\n");
    assert_int_equal(cmd_run("run --config xyt.cfg", NULL, &err), 2);
    assert_non_null(strstr(err, "xyt.cfg:2: 'routing_function = xy_yx' on a torus: BookSim2 has no xy_yx_torus"));
    free(err);
    assert_int_equal(cmd_run("run torus:4x4 routing_function=xy_yx", NULL, &err), 2);
    assert_non_null(strstr(err, "xy_yx is built for meshes and flattened butterflies (mesh:, flatfly:) only"));
    free(err);
}

/* valiant and romm on a 4x4 mesh at low load, BookSim2's uniform (self
 * included): a mean distance of 2 (k^2 - 1) / 3k = 2.5 hops per leg pair
 * for romm (minimal), twice that for valiant (two independent uniform
 * legs); every packet T0 = 7 + 5 H. */
static void test_valiant_romm(void **state)
{
    (void)state;
    char *err;
    for (int v = 0; v < 2; v++) {
        char text[300];
        snprintf(text, sizeof text, "topology = mesh; k = 4; n = 2; routing_function = %s; num_vcs = 2;\n"
                 "injection_rate = 0.005; sample_period = 40000;\n", v ? "valiant" : "romm");
        put("vr.cfg", text);
        json_t *j = run_json("run --config vr.cfg");
        double hops = jnum(j, "hops", "avg");
        assert_float_equal(hops, v ? 5.0 : 2.5, 0.1);
        assert_float_equal(jnum(j, "hops", "max"), v ? 12 : 6, v ? 2 : 0);
        assert_float_equal(jnum(j, "latency", "avg"), 7 + 5 * hops, 0.015 * (7 + 5 * hops));
        json_decref(j);
    }
    put("vt.cfg", "topology = torus; k = 4; n = 2;\nrouting_function = valiant;\n");
    assert_int_equal(cmd_run("run --config vt.cfg", NULL, &err), 2);
    assert_non_null(strstr(err, "vt.cfg:2: 'routing_function = valiant' on a torus: BookSim2's valiant_torus"));
    assert_non_null(strstr(err, "stops on its assertion"));
    free(err);
    put("v3.cfg", "topology = mesh; k = 4; n = 2; routing_function = romm;\nnum_vcs = 3;\n");
    assert_int_equal(cmd_run("run --config v3.cfg", NULL, &err), 2);
    assert_non_null(strstr(err, "v3.cfg:2: 'num_vcs = 3' with romm"));
    free(err);
}

/* BookSim2's ejection channel: its NI returns a credit for every flit it
 * takes, the router gets it back prep + fin + 4 + credit_delay cycles
 * after the flit crossed (the loop X, 5 + credit_delay here). One 9-flit
 * packet from node 0 to node 1 on the same router, 1 VC of 2 flits: the
 * head takes BookSim2's T0 = 7 (no hop); then the ejection port lets 2
 * flits through every X cycles, so the tail comes 4 X after the head:
 * 7 + 4 X, 27 with credit_delay = 0 and 35 with 2 (BookSim2 measures
 * both as its minimum packet latency here). Without the ejection credits
 * noctua's tail would come sooner (the injection side's loop). */
static void test_eject_credits(void **state)
{
    (void)state;
    char *err;
    put("t2", "router 0 node 0 node 1 router 1\nrouter 1 node 2\n");
    for (int cd = 0; cd <= 2; cd += 2) {
        char text[400];
        snprintf(text, sizeof text,
                 "topology = anynet; network_file = t2; routing_function = min; traffic = hotspot({1});\n"
                 "packet_size = 9; injection_rate = 0.0005; num_vcs = 1; vc_buf_size = 2; credit_delay = %d;\n"
                 "sample_period = 50000;\n", cd);
        put("ej.cfg", text);
        json_t *j = run_json("run --config ej.cfg");
        assert_float_equal(jnum(j, "latency", "min"), 7 + 4 * (5 + cd), 0);
        json_decref(j);
    }
    assert_int_equal(cmd_run("run mesh:4x4 eject_credit_delay=2 router=ideal", NULL, &err), 2);
    assert_non_null(strstr(err, "parameter 'eject_credit_delay': the ideal router's ejection ports take no credits"));
    free(err);
}

/* Refusals: named with the config's line and the anynet file's. */
static void test_refused(void **state)
{
    (void)state;
    char *err;
    put("mixed", "router 0 node 0 router 1 3\nrouter 1 node 1\n");
    put("mixed.cfg", CFG("mixed", "uniform", "0.01"));
    assert_int_equal(cmd_run("run --config mixed.cfg", NULL, &err), 2);
    assert_non_null(strstr(err, "mixed.cfg:3: network_file = mixed: mixed:1: the channel from router 1 to router 0 "
                                "takes 1 cycle, the one from router 0 to router 1 3"));
    free(err);
    /* ... which runs as a noctua SPEC, each link with its own latency */
    assert_int_equal(cmd_run("run anynet:mixed sample_cycles=200 --quiet", NULL, NULL), 0);
    put("ring4", RING4);
    put("dor.cfg", "topology = anynet; network_file = ring4; routing_function = dor;\n");
    assert_int_equal(cmd_run("run --config dor.cfg", NULL, &err), 2);
    assert_non_null(strstr(err, "dor.cfg:1: 'routing_function = dor' on anynet"));
    free(err);
    put("none.cfg", "topology = anynet; network_file = ring4;\n");
    assert_int_equal(cmd_run("run --config none.cfg", NULL, &err), 2);
    assert_non_null(strstr(err, "no routing_function"));
    assert_non_null(strstr(err, "give min"));
    free(err);
    put("nofile.cfg", "topology = anynet; routing_function = min;\n");
    assert_int_equal(cmd_run("run --config nofile.cfg", NULL, &err), 2);
    assert_non_null(strstr(err, "without a network_file"));
    free(err);
    put("gone.cfg", "topology = anynet; routing_function = min;\nnetwork_file = gone;\n");
    assert_int_equal(cmd_run("run --config gone.cfg", NULL, &err), 2);
    assert_non_null(strstr(err, "gone.cfg:2: network_file = gone: "));
    free(err);
    /* tornado: BookSim2's reads k and n, noctua's the node count */
    put("torn.cfg", CFG("ring4", "tornado", "0.01"));
    assert_int_equal(cmd_run("run --config torn.cfg", NULL, &err), 2);
    assert_non_null(strstr(err, "torn.cfg:4: 'traffic = tornado' on anynet"));
    assert_non_null(strstr(err, "k = 8 and n = 2 here"));
    free(err);
    put("torn4.cfg", CFG("ring4", "tornado", "0.001") "k = 4; n = 1;\n");
    json_t *j = run_json("run --config torn4.cfg");
    /* (s + (4 + 1) / 2 - 1) % 4 = s + 1: one hop, T0 = 12 */
    assert_float_equal(jnum(j, "latency", "min"), 12, 0);
    assert_float_equal(jnum(j, "hops", "avg"), 1, 0);
    json_decref(j);
    put("minmesh.cfg", "topology = mesh; k = 4; n = 2; routing_function = min;\n");
    assert_int_equal(cmd_run("run --config minmesh.cfg", NULL, &err), 2);
    assert_non_null(strstr(err, "minmesh.cfg:1: 'routing_function = min' on a mesh"));
    free(err);
    /* a mesh does not read network_file: a warning, and the mesh runs */
    put("meshfile.cfg", "topology = mesh; k = 4; n = 2; routing_function = dor; network_file = ring4;\n");
    assert_int_equal(cmd_run("run --config meshfile.cfg sample_cycles=200 warmup_cycles=200 --quiet", NULL, &err), 0);
    assert_non_null(strstr(err, "meshfile.cfg:1: warning: BookSim2's 'network_file' has no effect"));
    free(err);
    /* noctua's topology=anynet without a BookSim2 file: the SPEC, please */
    assert_int_equal(cmd_run("run topology=anynet", NULL, &err), 2);
    assert_non_null(strstr(err, "give the SPEC anynet:FILE"));
    free(err);
    /* a SPEC after the file must be the file's own */
    put("ring4.cfg", CFG("ring4", "uniform", "0.01"));
    assert_int_equal(cmd_run("run --config ring4.cfg ring:4", NULL, &err), 2);
    assert_non_null(strstr(err, "anynet:ring4"));
    free(err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zero_load),
        cmocka_unit_test(test_cube_uniform),
        cmocka_unit_test(test_concentration),
        cmocka_unit_test(test_cmesh),
        cmocka_unit_test(test_fly),
        cmocka_unit_test(test_fattree),
        cmocka_unit_test(test_trees),
        cmocka_unit_test(test_dim_order_bal),
        cmocka_unit_test(test_xy_yx),
        cmocka_unit_test(test_valiant_romm),
        cmocka_unit_test(test_eject_credits),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, cmd_setup, cmd_teardown);
}
