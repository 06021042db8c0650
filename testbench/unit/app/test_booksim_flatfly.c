/* test_booksim_flatfly.c: BookSim2 files with `topology = flatfly;`
 * (app/booksim.c, topologies/flatfly.c). The expected zero-load figures are
 * BookSim2's T0 = 7 + sum over the hops of (4 + L) (test_booksim.c derives
 * it for one channel latency L), worked by hand for k = 4, n = 2, 2x2
 * terminals on each of 16 routers, x = 4, uniform traffic (self-traffic
 * included): in each dimension the routers' digits differ by 0, 1, 2, 3
 * with chances 1/4, 3/8, 1/4, 1/8; a hop of a digit moved by d takes a link
 * 2d long with use_noc_latency, 1 without. So a route takes 7 + a + b, a
 * and b each 0, 6, 8 or 10 with those chances: 7 (1/16), 13 (3/16), 15
 * (1/8), 17 (1/16), 19 (9/64), 21 (3/16), 23 (5/32), 25 (1/16), 27 (1/64),
 * 18 on average, 1.5 hops; without use_noc_latency 7 + 2 * 3/4 * 5 = 14.5.
 * Refusals name the line. */
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

#define FF(more)                                                                                               \
    "topology = flatfly; k = 4; n = 2; c = 4; x = 4; y = 4; xr = 2; yr = 2; routing_function = ran_min;\n"     \
    "num_vcs = 4; vc_buf_size = 8; traffic = uniform; sample_period = 20000; injection_rate = 0.002;\n" more

static void test_zero_load(void **state)
{
    (void)state;
    put("ff.cfg", FF(""));
    json_t *j = run_json("run --config ff.cfg");
    assert_int_equal(json_integer_value(json_object_get(j, "nodes")), 64);
    assert_int_equal(json_integer_value(json_object_get(j, "routers")), 16);
    assert_float_equal(jnum(j, "hops", "avg"), 1.5, 0.05);
    assert_float_equal(jnum(j, "hops", "max"), 2, 0);
    assert_float_equal(jnum(j, "latency", "min"), 7, 0);
    assert_float_equal(jnum(j, "latency", "avg"), 18.0, 0.02 * 18.0);
    static const int at[9] = {7, 13, 15, 17, 19, 21, 23, 25, 27};
    static const double share[9] = {4 / 64.0, 12 / 64.0, 8 / 64.0, 4 / 64.0, 9 / 64.0, 12 / 64.0, 10 / 64.0,
                                    4 / 64.0, 1 / 64.0};
    json_t *bins = json_object_get(json_object_get(json_object_get(j, "latency"), "histogram"), "bins");
    double count = jnum(json_object_get(j, "latency"), "count", NULL), seen[9] = {0};
    for (size_t i = 0; i < json_array_size(bins); i++) {
        json_t *b = json_array_get(bins, i);
        for (int k = 0; k < 9; k++)
            if (jnum(b, "from", NULL) <= at[k] && at[k] <= jnum(b, "to", NULL))
                seen[k] = jnum(b, "count", NULL);
    }
    for (int k = 0; k < 9; k++)
        if (seen[k] / count < share[k] - 0.015 || seen[k] / count > share[k] + 0.015)
            fail_msg("latency %d: %.4f of the packets, %.4f expected", at[k], seen[k] / count, share[k]);
    /* the translation: the SPEC, each length class's latency, each link's
     * credits over its own latency, BookSim2's credit_delay (0) + 1 */
    json_t *c = json_object_get(j, "config");
    assert_string_equal(json_string_value(json_object_get(c, "topology_spec")), "flatfly:4:2:2x2:4");
    assert_string_equal(json_string_value(json_object_get(c, "class_latency")), "len2:2,len4:4,len6:6");
    assert_int_equal(json_integer_value(json_object_get(c, "link_credits")), 1);
    assert_int_equal(json_integer_value(json_object_get(c, "credit_delay")), 1);
    json_decref(j);
}

/* use_noc_latency = 0: every channel 1 cycle, the usual credit loop
 * (credit_delay 0 + 1 + 1). */
static void test_no_noc_latency(void **state)
{
    (void)state;
    put("ff0.cfg", FF("use_noc_latency = 0;\n"));
    json_t *j = run_json("run --config ff0.cfg");
    assert_float_equal(jnum(j, "latency", "avg"), 14.5, 0.02 * 14.5);
    assert_float_equal(jnum(j, "latency", "max"), 17, 1);
    json_t *c = json_object_get(j, "config");
    assert_string_equal(json_string_value(json_object_get(c, "class_latency")), "");
    assert_int_equal(json_integer_value(json_object_get(c, "link_latency")), 1);
    assert_int_equal(json_integer_value(json_object_get(c, "link_credits")), 0);
    assert_int_equal(json_integer_value(json_object_get(c, "credit_delay")), 2);
    json_decref(j);
}

/* xyyx, adaptive_xyyx and valiant: noctua's xy_yx, adaptive_xy_yx and
 * valiant on the SPEC. At zero load without use_noc_latency a route takes
 * 7 + 5 per hop (test_no_noc_latency). xyyx and adaptive_xyyx cross the
 * same digits as ran_min: 1.5 hops, 14.5 cycles; so do ugal and ugal_xyyx,
 * whose rule keeps the minimal way while no output holds more than 1 flit
 * (2 * 1 <= H * 0 + 2): all but rarely at this load. valiant_flatfly goes
 * lowest dimension first to a router m drawn uniformly (RandomInt over the
 * k^n * c terminals, c on each router), then on to the destination's
 * router t, leaving where its first leg meets t (ph = 1 there): the hops
 * worked out below over every source router s, t and m. */
static double valiant_hops(void)
{
    int k = 4, sum = 0;
    for (int s = 0; s < 16; s++)
        for (int t = 0; t < 16; t++)
            for (int m = 0; m < 16; m++) {
                int c[2] = {s % k, s / k}, tt[2] = {t % k, t / k}, mm[2] = {m % k, m / k}, h = 0, met = s == t;
                for (int d = 0; d < 2 && !met; d++)
                    if (c[d] != mm[d]) {
                        c[d] = mm[d];
                        h++;
                        met = c[0] == tt[0] && c[1] == tt[1];
                    }
                for (int d = 0; d < 2 && !met; d++)
                    h += c[d] != tt[d];
                sum += h;
            }
    return sum / 4096.0;
}

static void test_other_routing(void **state)
{
    (void)state;
    static const struct {
        const char *bs, *own;
    } rf[5] = {{"valiant", "valiant"}, {"xyyx", "xy_yx"}, {"adaptive_xyyx", "adaptive_xy_yx"}, {"ugal", "ugal"},
               {"ugal_xyyx", "ugal_xy_yx"}};
    double vh = valiant_hops();
    assert_float_equal(vh, 2.742, 0.001);
    for (int i = 0; i < 5; i++) {
        char text[600], name[32], cmd[64];
        snprintf(name, sizeof name, "ffr%d.cfg", i);
        snprintf(text, sizeof text, FF("use_noc_latency = 0; routing_function = %s;\n"), rf[i].bs);
        put(name, text);
        snprintf(cmd, sizeof cmd, "run --config %s", name);
        json_t *j = run_json(cmd);
        json_t *c = json_object_get(j, "config");
        assert_string_equal(json_string_value(json_object_get(c, "routing_function")), rf[i].own);
        double hops = i ? 1.5 : vh;
        assert_float_equal(jnum(j, "hops", "avg"), hops, 0.02 * hops);
        assert_float_equal(jnum(j, "latency", "avg"), 7 + 5 * hops, 0.02 * (7 + 5 * hops));
        json_decref(j);
    }
}

static void test_refused(void **state)
{
    (void)state;
    char *err;
    static const struct {
        const char *more, *says;
    } bad[] = {
        {"c = 2;\n", "ff1.cfg:3: flatfly with c = 2, xr = 2, yr = 2: BookSim2's flatfly asserts c = xr * yr"},
        {"c = 2; yr = 1;\n", "ff2.cfg:3: flatfly with c = 2, xr = 2, yr = 1: BookSim2's flatfly asserts"},
        {"y = 8;\n", "ff3.cfg:3: flatfly with x = 4, y = 8: BookSim2's flatfly asserts x = y"},
        {"n = 5;\n", "ff4.cfg:3: 'n = 5' on flatfly: BookSim2's flatfly builds at most 4 dimensions"},
        {"routing_function = xyyx; num_vcs = 3;\n", "ff5.cfg:3: 'num_vcs = 3' with xyyx on flatfly: BookSim2's two "
                                                   "halves of the VCs then share the middle VC"},
        {"routing_function = dor;\n", "ff6.cfg:3: 'routing_function = dor' on flatfly: noctua builds ran_min"},
        {"traffic = tornado;\n", "ff7.cfg:3: 'traffic = tornado' on flatfly"},
        {"c = 16; xr = 4; yr = 4;\n", "ff8.cfg:3: flatfly with xr = yr = 4 and use_noc_latency = 1: BookSim2's "
                                      "injection and ejection channels then take 1 to 3 cycles"},
        {"x = 3; y = 3;\n", "ff9.cfg:3: flatfly: topology \"flatfly:4:2:2x2:3\": X = 3 routers in a row must divide"},
        {"vc_allocator = pim(2);\n", "ff10.cfg:3: 'vc_allocator = pim(2)' is not honoured"},
    };
    for (int i = 0; i < (int)(sizeof bad / sizeof bad[0]); i++) {
        char name[16], cmd[64], text[600];
        snprintf(name, sizeof name, "ff%d.cfg", i + 1);
        snprintf(text, sizeof text, FF("%s"), bad[i].more);
        put(name, text);
        snprintf(cmd, sizeof cmd, "run --config %s", name);
        assert_int_equal(cmd_run(cmd, NULL, &err), 2);
        if (!strstr(err, bad[i].says))
            fail_msg("case %d: %s", i, err);
        free(err);
    }
    /* ugal_pni: refused, with why */
    put("ffx.cfg", FF("routing_function = ugal_pni;\n"));
    assert_int_equal(cmd_run("run --config ffx.cfg", NULL, &err), 2);
    assert_non_null(strstr(err, "ffx.cfg:3: 'routing_function = ugal_pni' on flatfly: not modelled "
                                "(ugal_pni_flatfly_onchip asserts k = c"));
    free(err);
    /* ugal_xyyx: quarters of the VCs */
    put("ffq.cfg", FF("routing_function = ugal_xyyx; num_vcs = 6;\n"));
    assert_int_equal(cmd_run("run --config ffq.cfg", NULL, &err), 2);
    assert_non_null(strstr(err, "ffq.cfg:3: 'num_vcs = 6' with ugal_xyyx on flatfly: BookSim2's four quarters (two per "
                                "order) of the VCs then share a VC"));
    free(err);
    /* ran_min is flatfly's: BookSim2 has no ran_min_mesh */
    put("ffm.cfg", "topology = mesh; k = 4; n = 2; routing_function = ran_min;\n");
    assert_int_equal(cmd_run("run --config ffm.cfg", NULL, &err), 2);
    assert_non_null(strstr(err, "'routing_function = ran_min' on a mesh: BookSim2 has no ran_min_mesh"));
    free(err);
    /* noctua's topology=flatfly without a BookSim2 file: the SPEC, please */
    assert_int_equal(cmd_run("run topology=flatfly", NULL, &err), 2);
    assert_non_null(strstr(err, "give the SPEC flatfly:K:N:CXxCY:X"));
    free(err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zero_load),
        cmocka_unit_test(test_no_noc_latency),
        cmocka_unit_test(test_other_routing),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, cmd_setup, cmd_teardown);
}
