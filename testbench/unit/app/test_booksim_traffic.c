/* test_booksim_traffic.c: BookSim2's traffic patterns in a BookSim2 file
 * (app/booksim_traffic.c). The expected values are BookSim2's reading of
 * each value, worked by hand from traffic.cpp (TrafficPattern::New) and
 * config_utils.cpp (tokenize_str, tokenize_int: inside braces, commas and
 * outer closing braces end a token), not noctua's output: its neighbor is
 * noctua's neighbor_all, its lists need their own braces, and a value it
 * reads otherwise than written is refused with its reading. noctua's own
 * files keep noctua's neighbor. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include <jansson.h>

#include "app/booksim.h"
#include "app/config_file.h"
#include "model/config.h"
#include "testbench/unit/app/booksim_test.h"
#include "testbench/unit/cmd_test.h"

static int load(const char *name, const char *text, noc_config_t *cfg, char *err, size_t errlen)
{
    char path[512];
    cmd_write(name, text, path, sizeof path);
    noc_config_defaults(cfg);
    return noc_app_load_file(cfg, path, err, errlen);
}

/* Values BookSim2 runs as written, and noctua's spelling of each. */
static void test_converted(void **state)
{
    (void)state;
    static const struct { const char *bs, *noctua; } ok[] = {
        { "uniform", "uniform" }, { "tornado", "tornado" }, { "neighbor", "neighbor_all" },
        { "randperm", "randperm" }, { "randperm(7)", "randperm(7)" }, { "diagonal", "diagonal" },
        { "asymmetric", "asymmetric" }, { "taper64", "taper64" }, { "badperm_yarc", "badperm_yarc" },
        /* params "{0,1}" and "{1,3}": nodes 0 1, weights 1 3 */
        { "hotspot({{0,1},{1,3}})", "hotspot({0,1},{1,3})" },
        { "hotspot(5)", "hotspot({5})" },
        { "hotspot({5})", "hotspot({5})" },
        /* weights resized to the nodes with the last one */
        { "hotspot({{0,1,2},{3}})", "hotspot({0,1,2},{3,3,3})" },
        { "background({{1,2}})", "background({1,2})" },
        { "background(4)", "background({4})" },
    };
    char out[256], msg[512];
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        if (noc_bs_traffic(ok[i].bs, out, sizeof out, msg, sizeof msg) != 0)
            fail_msg("%s refused: %s", ok[i].bs, msg);
        assert_string_equal(out, ok[i].noctua);
    }
}

/* Values refused, each message naming the value and what BookSim2 does. */
static void test_refused(void **state)
{
    (void)state;
    static const struct { const char *bs, *says; } bad[] = {
        /* params "0" and "1": node 0 with weight 1 */
        { "hotspot({0,1},{1,1})", "hot node {0} with weight {1}" },
        { "hotspot({3,5})", "hot node {3} with weight {5}" },
        { "hotspot({{0,1},{1,2,3}})", "weights {1,2}" },
        { "hotspot", "at random" },
        { "hotspot(-1)", "at random" },
        { "hotspot(3,5)", "reads it as 3" },
        { "background({1,2})", "node {1} only" },
        { "background", "crashes" },
        { "bad_dragon", "dragonfly" },
        { "tornado(8,2,1)", "not honoured" },
        { "neighbor(4,2,1)", "not honoured" },
        { "uniform(3)", "not honoured" },
        { "randperm(x)", "randperm(SEED)" },
        { "hotspot(5)x", "')' that ends" },
        { "ranperm", "no such pattern" },
        { "hotspot({{0,1},{1,1})", "hot nodes {0,1} with weights 1," }, /* "{1,1" after the last outer separator: dropped */
        { "hotspot({{0,1)", "unbalanced" },
    };
    char out[256], msg[512];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (noc_bs_traffic(bad[i].bs, out, sizeof out, msg, sizeof msg) == 0)
            fail_msg("%s taken as %s", bad[i].bs, out);
        if (!strstr(msg, bad[i].says) || !strstr(msg, bad[i].bs))
            fail_msg("%s: '%s' does not say '%s' and the value", bad[i].bs, msg, bad[i].says);
    }
}

/* neighbor is BookSim2's in BookSim2 files (a file, or an argument after
 * one), noctua's in noctua's; perm_seed is read. */
static void test_files(void **state)
{
    (void)state;
    noc_config_t cfg;
    char err[1200];
    assert_int_equal(load("nb.cfg", "topology = mesh; routing_function = dor; traffic = neighbor; perm_seed = 5;\n",
                          &cfg, err, sizeof err), 0);
    assert_string_equal(cfg.traffic, "neighbor_all");
    assert_int_equal(cfg.perm_seed, 5);
    assert_int_equal(noc_bs_arg(&cfg, "traffic", "neighbor", "arg", stderr, err, sizeof err), 1);
    assert_string_equal(cfg.traffic, "neighbor_all");
    assert_int_equal(noc_bs_arg(&cfg, "traffic", "hotspot({0,1},{1,1})", "arg", stderr, err, sizeof err), -1);
    assert_non_null(strstr(err, "hot node {0}"));
    assert_int_equal(load("own.cfg", "topology = mesh\ntraffic = neighbor\n", &cfg, err, sizeof err), 0);
    assert_string_equal(cfg.traffic, "neighbor");
    assert_int_equal(load("ps.cfg", "topology = mesh; routing_function = dor; perm_seed = time;\n", &cfg, err,
                          sizeof err), -1);
    assert_int_equal(load("hs.cfg", "topology = mesh; routing_function = dor;\ntraffic = hotspot({0,1},{1,1});\n",
                          &cfg, err, sizeof err), -1);
}

/* From the command line: refused with exit 2, the file's line and the
 * value named; BookSim2's neighbor on a 4x4 mesh goes 1.5 hops a
 * dimension on average (3 of 4 nodes one hop, the last k - 1 = 3 back):
 * 3 hops, where noctua's neighbor would go 1.5. */
static void test_command_line(void **state)
{
    (void)state;
    char path[512], *out = NULL, *err = NULL;
    cmd_write("hs2.cfg", "topology = mesh; k = 4; routing_function = dor;\ntraffic = hotspot({0,1},{1,1});\n", path,
              sizeof path);
    assert_int_equal(cmd_run("run --config hs2.cfg --quiet", &out, &err), 2);
    assert_non_null(strstr(err, "hs2.cfg:2: 'traffic = hotspot({0,1},{1,1})'"));
    free(out);
    free(err);
    cmd_write("nb2.cfg", "topology = mesh; k = 4; n = 2; routing_function = dor; traffic = neighbor;\n"
              "injection_rate = 0.05; sample_period = 5000; warmup_periods = 1; max_samples = 2;\n", path, sizeof path);
    assert_int_equal(cmd_run("run --config nb2.cfg --json - --quiet", &out, &err), 0);
    json_error_t je;
    json_t *j = json_loads(out, 0, &je);
    assert_non_null(j);
    json_t *hops = json_object_get(json_object_get(j, "hops"), "avg");
    assert_non_null(hops);
    assert_float_equal(json_number_value(hops), 3.0, 0.05);
    json_decref(j);
    free(out);
    free(err);
}

/* use_read_write: BookSim2's defaults (16 VCs, requests on 0-5 and
 * 2-7, replies on 8-13 and 10-15) reach noctua; another subnet is
 * refused, and so is an odd range on a torus, whose halves BookSim2 would
 * overlap. A run: reads of 1 + 5 flits and writes of 5 + 1 are 6 flits a
 * request whatever its kind, so 0.02 requests a node a cycle offer 0.12
 * flits, and a flit rate of 0.12 is BookSim2's (1 + 5 + 5 + 1) / 2 = 6
 * flits a request again. */
static void test_read_write(void **state)
{
    (void)state;
    noc_config_t cfg;
    char err[1200];
    const char *mesh = "topology = mesh; k = 4; n = 2; routing_function = dor; use_read_write = 1;\n";
    assert_int_equal(load("rw.cfg", mesh, &cfg, err, sizeof err), 0);
    assert_int_equal(cfg.use_read_write, 1);
    assert_int_equal(cfg.num_vcs, 16);
    assert_int_equal(cfg.write_request_begin_vc, 2);
    assert_int_equal(cfg.write_reply_end_vc, 15);
    assert_float_equal(cfg.write_fraction, 0.5, 0.0);
    char text[512];
    snprintf(text, sizeof text, "%sread_reply_subnet = 1;\n", mesh);
    assert_int_equal(load("rw2.cfg", text, &cfg, err, sizeof err), -1);
    const char *torus = "topology = torus; k = 4; n = 2; routing_function = dim_order; num_vcs = 4;\n"
                        "use_read_write = 1; read_request_end_vc = %d; write_request_begin_vc = 0;\n"
                        "write_request_end_vc = 1;\n"
                        "read_reply_begin_vc = 2; read_reply_end_vc = 3; write_reply_begin_vc = 2;\n"
                        "write_reply_end_vc = 3;\n";
    for (int e = 1; e <= 2; e++) { /* VCs 0-1: halves of one VC each; 0-2: three */
        snprintf(text, sizeof text, torus, e);
        assert_int_equal(load("rw3.cfg", text, &cfg, err, sizeof err), e == 1 ? 0 : -1);
    }
    snprintf(text, sizeof text, "%sread_reply_size = 5; write_request_size = 5; injection_rate = 0.02;\n"
             "sample_period = 4000;\n", mesh);
    put("rw4.cfg", text);
    const char *run[] = {"run --config rw4.cfg", "run --config rw4.cfg injection_rate_uses_flits=1 "
                         "injection_rate=0.12"};
    for (int i = 0; i < 2; i++) {
        json_t *j = run_json(run[i]);
        assert_float_equal(jnum(j, "throughput", "offered"), 0.12, 1e-12);
        assert_float_equal(jnum(j, "throughput", "accepted"), 0.12, 0.12 * 0.05);
        json_decref(j);
    }
}

/* vc_busy_when_full and vc_shuffle_requests reach noctua's keys of the
 * same names; with vc_busy_when_full the ejection ports count credits, as
 * BookSim2's ejection VCs can be full: BookSim2's loop of crossbar + 4 +
 * credit_delay = 1 + 4 + 0 = 5 cycles less noctua's switch, crossbar and
 * ejection channel (1 + 1 + 1) leaves eject_credit_delay = 2; without it
 * (8 slots, more than the loop) they count none (0). */
static void test_vc_alloc_keys(void **state)
{
    (void)state;
    noc_config_t cfg;
    char err[1200];
    const char *mesh = "topology = mesh; k = 4; n = 2; routing_function = dor;\n";
    char text[512];
    assert_int_equal(load("va0.cfg", mesh, &cfg, err, sizeof err), 0);
    assert_int_equal(cfg.vc_busy_when_full, 0);
    assert_int_equal(cfg.vc_shuffle_requests, 0);
    assert_int_equal(cfg.eject_credit_delay, 0);
    snprintf(text, sizeof text, "%svc_busy_when_full = 1; vc_shuffle_requests = 1;\n", mesh);
    assert_int_equal(load("va1.cfg", text, &cfg, err, sizeof err), 0);
    assert_int_equal(cfg.vc_busy_when_full, 1);
    assert_int_equal(cfg.vc_shuffle_requests, 1);
    assert_int_equal(cfg.eject_credit_delay, 2);
}

/* subnets (BookSim2's copies of the network, main.cpp and
 * trafficmanager.cpp): a packet of a kind travels on its kind's subnet,
 * one without a kind on a subnet drawn at random. A network that carries
 * nothing draws nothing and shares nothing (BookSim2's reports of
 * subnets = 1, 2 and 3 with every kind on one subnet are the same, byte
 * for byte): such a file is the file without subnets, noctua's parameters
 * the same. Refused by name: no kinds (the draw spreads the packets),
 * kinds on different subnets, a subnet past the last, and
 * hold_switch_for_packet = 1 with packets of several flits (BookSim2
 * stops on an assertion); as an argument, 1 (0 for a kind's) only. */
static void test_subnets(void **state)
{
    (void)state;
    const char *mesh = "topology = mesh; k = 4; n = 2; routing_function = dor; use_read_write = 1;\n";
    noc_config_t one, cfg;
    char err[1200], text[768];
    assert_int_equal(load("sn1.cfg", mesh, &one, err, sizeof err), 0);
    static const char *const same[] = {
        "subnets = 2;",
        "subnets = 3; read_request_subnet = 2; read_reply_subnet = 2; write_request_subnet = 2; write_reply_subnet = 2;",
        /* no writes made: their subnet is never read */
        "subnets = 2; write_fraction = 0; write_request_subnet = 1; write_reply_subnet = 7;",
        /* 1-flit packets: BookSim2 holds nothing for the switch */
        "subnets = 2; hold_switch_for_packet = 1;",
    };
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        snprintf(text, sizeof text, "%s%s\n", mesh, same[i]);
        if (load("sn2.cfg", text, &cfg, err, sizeof err) != 0)
            fail_msg("%s: %s", same[i], err);
        if (strstr(same[i], "write_fraction"))
            cfg.write_fraction = one.write_fraction;
        if (strstr(same[i], "hold_switch"))
            cfg.hold_switch_for_packet = one.hold_switch_for_packet;
        assert_memory_equal(&cfg, &one, sizeof cfg);
    }
    static const char *const bad[][2] = {
        { "use_read_write = 0; subnets = 2;", "sn3.cfg:2: 'subnets = 2' without use_read_write: BookSim2 sends each "
                                              "packet on one of its 2 networks drawn at random" },
        { "subnets = 2; read_reply_subnet = 1;", "sn3.cfg:2: 'subnets = 2' with the packet kinds on different subnets "
                                                 "(read_request 0, write_request 0, read_reply 1, write_reply 0)" },
        { "subnets = 2; write_fraction = 1; write_request_subnet = 1; write_reply_subnet = 1; read_reply_subnet = 0;\n"
          "read_request_subnet = 1;",
          "" },
        { "read_reply_subnet = 1;", "sn3.cfg:2: 'read_reply_subnet = 1' with subnets = 1: BookSim2's networks are 0 to "
                                    "0" },
        { "subnets = 2; hold_switch_for_packet = 1; read_reply_size = 4;",
          "sn3.cfg:2: 'subnets = 2' with hold_switch_for_packet = 1 and packets of several flits: BookSim2 stops" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(text, sizeof text, "%s%s\n", mesh, bad[i][0]);
        put("sn3.cfg", text);
        char *out = NULL, *e = NULL;
        int rc = cmd_run("run --config sn3.cfg --quiet sample_cycles=100", &out, &e);
        if (!bad[i][1][0]) { /* (writes only, all on subnet 1: honoured) */
            assert_int_equal(rc, 0);
        } else if (rc != 2 || !strstr(e, bad[i][1])) {
            fail_msg("%s: exit %d, '%s' lacks '%s'", bad[i][0], rc, e, bad[i][1]);
        }
        free(out);
        free(e);
    }
    char *e = NULL;
    assert_int_equal(cmd_run("run mesh:4x4 subnets=2 read_reply_subnet=1", NULL, &e), 2);
    assert_non_null(strstr(e, "'subnets = 2': as an argument noctua honours 1 only"));
    assert_non_null(strstr(e, "'read_reply_subnet = 1': as an argument noctua honours 0 only"));
    free(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_converted),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_files),
        cmocka_unit_test(test_command_line),
        cmocka_unit_test(test_read_write),
        cmocka_unit_test(test_subnets),
        cmocka_unit_test(test_vc_alloc_keys),
    };
    return cmocka_run_group_tests(tests, cmd_setup, cmd_teardown);
}
