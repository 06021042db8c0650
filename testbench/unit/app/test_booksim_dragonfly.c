/* test_booksim_dragonfly.c: BookSim2 files with `topology = dragonflynew;`
 * (app/booksim.c, topologies/dragonfly.c). The expected zero-load figures
 * are BookSim2's T0 = 7 + sum over the hops of (4 + L) (test_booksim.c
 * derives it for one channel latency L; dragonflynew's local channels take
 * L = 10, its global ones 100), averaged by hand over uniform traffic
 * (self-traffic included) on k = 2: 72 terminals, 8 in a group, 2 on a
 * router. From a terminal: 2 destinations on its router (0 hops, 7
 * cycles), 6 in its group (1 local hop, 21), 64 in the 8 other groups: one
 * global hop (104) and a local hop before it unless the source's router
 * holds that group's link (2 of the group's 8 links are its own: 3/4) and
 * one after it unless the destination sits on the router the link lands on
 * (3/4): 7 + 104 + 14 * 1.5 = 132 on average, 139 at the most. Average
 * (2*7 + 6*21 + 64*132) / 72 = 119.28 cycles, (6 + 64*2.5) / 72 = 2.306
 * hops. Refusals name the line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>

#include "testbench/unit/app/booksim_test.h"

#define DFLY(more)                                                                                              \
    "topology = dragonflynew; k = 2; n = 1; routing_function = min; num_vcs = 2; vc_buf_size = 256;\n"         \
    "traffic = uniform; sample_period = 20000; injection_rate = 0.002;\n" more

static void test_zero_load(void **state)
{
    (void)state;
    put("df.cfg", DFLY(""));
    json_t *j = run_json("run --config df.cfg");
    assert_int_equal(json_integer_value(json_object_get(j, "nodes")), 72);
    assert_int_equal(json_integer_value(json_object_get(j, "routers")), 36);
    assert_float_equal(jnum(j, "hops", "avg"), 2.306, 0.05);
    assert_float_equal(jnum(j, "hops", "max"), 3, 0);
    assert_float_equal(jnum(j, "latency", "min"), 7, 0);
    assert_float_equal(jnum(j, "latency", "avg"), 119.28, 0.02 * 119.28);
    assert_float_equal(jnum(j, "latency", "p99"), 139, 0);
    /* the latencies by route: 7 (2/72), 21 (6/72), 111 (64/72 * 1/16: no
     * local hop), 125 (64/72 * 6/16: one), 139 (64/72 * 9/16: two); a
     * collision now and then adds a cycle or two */
    json_t *bins = json_object_get(json_object_get(json_object_get(j, "latency"), "histogram"), "bins");
    static const int at[5] = {7, 21, 111, 125, 139};
    static const double share[5] = {2 / 72.0, 6 / 72.0, 4 / 72.0, 24 / 72.0, 36 / 72.0};
    double count = jnum(json_object_get(j, "latency"), "count", NULL), seen[5] = {0};
    for (size_t i = 0; i < json_array_size(bins); i++) {
        json_t *b = json_array_get(bins, i);
        for (int k = 0; k < 5; k++)
            if (jnum(b, "from", NULL) <= at[k] && at[k] <= jnum(b, "to", NULL))
                seen[k] = jnum(b, "count", NULL);
    }
    for (int k = 0; k < 5; k++)
        assert_float_equal(seen[k] / count, share[k], 0.015);
    /* the translation: the SPEC, the link classes' latencies, each link's
     * credits over its own latency, BookSim2's credit_delay (0) + 1 */
    json_t *c = json_object_get(j, "config");
    assert_string_equal(json_string_value(json_object_get(c, "topology_spec")), "dragonfly:2");
    assert_string_equal(json_string_value(json_object_get(c, "class_latency")), "local:10,global:100");
    assert_int_equal(json_integer_value(json_object_get(c, "link_credits")), 1);
    assert_int_equal(json_integer_value(json_object_get(c, "credit_delay")), 1);
    json_decref(j);
}

/* ugal (num_vcs = 3): noctua's ugal on the SPEC. At this load the rule
 * (used(minimal) <= 2 used(other) + 30) keeps every packet minimal, the
 * way and the latency those of min above. */
static void test_ugal_zero_load(void **state)
{
    (void)state;
    put("dfu.cfg", DFLY("routing_function = ugal; num_vcs = 3;\n"));
    json_t *j = run_json("run --config dfu.cfg");
    assert_string_equal(json_string_value(json_object_get(json_object_get(j, "config"), "routing_function")), "ugal");
    assert_float_equal(jnum(j, "hops", "avg"), 2.306, 0.05);
    assert_float_equal(jnum(j, "hops", "max"), 3, 0);
    assert_float_equal(jnum(j, "latency", "avg"), 119.28, 0.02 * 119.28);
    json_decref(j);
}

static void test_refused(void **state)
{
    (void)state;
    char *err;
    static const struct {
        const char *more, *says;
    } bad[] = {
        {"n = 2;\n", "df1.cfg:3: 'n = 2' on dragonflynew: BookSim2's dragonflynew asserts n = 1"},
        {"routing_function = ugal;\n", "df2.cfg:1: 'num_vcs = 2' with ugal on dragonflynew: BookSim2's ugal_dragonflynew "
                                       "asserts num_vcs = 3"},
        {"routing_function = dor;\n", "df3.cfg:3: 'routing_function = dor' on dragonflynew: BookSim2's dragonflynew "
                                      "has min and ugal"},
        {"num_vcs = 3;\n", "df4.cfg:3: 'num_vcs = 3' on dragonflynew"},
        {"traffic = tornado;\n", "df5.cfg:3: 'traffic = tornado' on dragonflynew"},
        {"k = 17;\n", "df6.cfg:3: 'k = 17'"},
    };
    for (int i = 0; i < 6; i++) {
        char name[16], cmd[64], text[600];
        snprintf(name, sizeof name, "df%d.cfg", i + 1);
        snprintf(text, sizeof text, DFLY("%s"), bad[i].more);
        put(name, text);
        snprintf(cmd, sizeof cmd, "run --config %s", name);
        assert_int_equal(cmd_run(cmd, NULL, &err), 2);
        if (!strstr(err, bad[i].says))
            fail_msg("case %d: %s", i, err);
        free(err);
    }
    /* noctua's topology=dragonflynew without a BookSim2 file: the SPEC, please */
    assert_int_equal(cmd_run("run topology=dragonflynew", NULL, &err), 2);
    assert_non_null(strstr(err, "give the SPEC dragonfly:K"));
    free(err);
}

/* link_credits: a link's credits take credit_delay + its latency. On a
 * fabric whose links all take L = 3 cycles, link_credits = 1 with
 * credit_delay = 2 is the same run as credit_delay = 5 without it, to the
 * cycle (the NIs' credits apart: inject_credit_delay = 2 in both); and with
 * buffers of 2 flits the credit loop limits the links, so
 * credit_delay = 2 without it is another run. */
static void test_link_credits(void **state)
{
    (void)state;
    const char *base = "run mesh:4x4 num_vcs=1 vc_buf_size=2 link_latency=3 inject_credit_delay=2 injection_rate=0.4 packet_size=4 "
                       "sample_cycles=3000 warmup_cycles=500";
    char cmd[400];
    double lat[3], acc[3];
    const char *var[3] = {"link_credits=1 credit_delay=2", "credit_delay=5", "credit_delay=2"};
    for (int i = 0; i < 3; i++) {
        snprintf(cmd, sizeof cmd, "%s %s", base, var[i]);
        json_t *j = run_json(cmd);
        lat[i] = jnum(j, "latency", "avg");
        acc[i] = jnum(j, "throughput", "accepted");
        json_decref(j);
    }
    assert_float_equal(lat[0], lat[1], 0);
    assert_float_equal(acc[0], acc[1], 0);
    assert_true(lat[2] != lat[0] || acc[2] != acc[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zero_load),
        cmocka_unit_test(test_ugal_zero_load),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_link_credits),
    };
    return cmocka_run_group_tests(tests, cmd_setup, cmd_teardown);
}
