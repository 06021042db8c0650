/* test_booksim_adaptive.c: adaptive routing end to end (the vc router's
 * vc_adapt.c with topologies/grid_adapt.c's route sets): BookSim2 files with
 * min_adapt and adaptive_xy_yx at low load (hops and zero-load latency from
 * formulas, ties drawn evenly), noctua's own min_adapt under a load that
 * deadlocks it without its atomic rule, adaptive routing spreading
 * transpose's load, and every refusal by name. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "testbench/unit/app/booksim_test.h"

/* BookSim2 files with min_adapt, adaptive_xy_yx and planar_adapt at low
 * load on a 4x4 mesh, BookSim2's uniform (self included): a mean
 * distance of 2 (k^2 - 1) / 3k = 2.5 hops, a longest of 6 (every route is
 * minimal), and every packet T0 = 7 + 5 H (the pipeline of BookSim2's
 * defaults, as in test_booksim_anynet.c). */
static void test_low_load(void **state)
{
    (void)state;
    static const char *const rf[3] = { "min_adapt", "adaptive_xy_yx", "planar_adapt" };
    for (int v = 0; v < 3; v++) {
        char text[300];
        snprintf(text, sizeof text, "topology = mesh; k = 4; n = 2; routing_function = %s; num_vcs = 4;\n"
                 "injection_rate = 0.005; sample_period = 40000;\n", rf[v]);
        put("ad.cfg", text);
        json_t *j = run_json("run --config ad.cfg");
        double hops = jnum(j, "hops", "avg");
        assert_float_equal(hops, 2.5, 0.1);
        assert_float_equal(jnum(j, "hops", "max"), 6, 0);
        assert_float_equal(jnum(j, "latency", "avg"), 7 + 5 * hops, 0.015 * (7 + 5 * hops));
        json_decref(j);
    }
}

/* Flits out of corner (0,0) on its two links: only its own packets use
 * them (a minimal route passes a corner only at its ends). */
static void corner_links(json_t *j, double *x, double *y)
{
    size_t i;
    json_t *l;
    *x = *y = -1;
    json_array_foreach(json_object_get(j, "links"), i, l) {
        const char *from = json_string_value(json_object_get(l, "from"));
        const char *to = json_string_value(json_object_get(l, "to"));
        if (strcmp(from, "(0,0)") == 0)
            *(strcmp(to, "(1,0)") == 0 ? x : y) = json_number_value(json_object_get(l, "flits"));
    }
}

/* adaptive_xy_yx at low load: both outputs of (0,0) idle when its packets
 * to (1,1) are routed, so every choice is a tie, drawn from the packet's
 * random word: half x first, half y first. */
static void test_ties_drawn(void **state)
{
    (void)state;
    put("axy.cfg", "topology = mesh; k = 4; n = 2; routing_function = adaptive_xy_yx; num_vcs = 2;\n"
                   "traffic = hotspot({5}); injection_rate = 0.02; sample_period = 20000;\n");
    json_t *j = run_json("run --config axy.cfg");
    double x, y;
    corner_links(j, &x, &y);
    json_decref(j);
    assert_true(x + y > 300);
    assert_float_equal(x / (x + y), 0.5, 0.08);
}

/* noctua's min_adapt with 2 VCs of 8 flits and 1-flit packets far past
 * saturation: without the atomic rule for its adaptive VC, heads hold it
 * with a buffer full of packets that wait on each other (a deadlock within
 * some 60,000 cycles here); with it, the run ends. */
static void test_min_adapt_no_deadlock(void **state)
{
    (void)state;
    json_t *j = run_json("run mesh:4x4 routing_function=min_adapt va_in_pointer=router injection_rate=0.6 "
                         "warmup_cycles=1000 sample_cycles=100000");
    assert_true(jnum(j, "throughput", "accepted") > 0.2);
    json_decref(j);
}

/* Transpose on an 8x8 mesh: dimension order sends each row's packets down
 * one column, so it saturates near half the rate an adaptive route reaches
 * (8 VCs: enough for the adaptive ones to be free). */
static void test_transpose_spread(void **state)
{
    (void)state;
    double acc[3];
    const char *rf[3] = { "dor", "min_adapt", "adaptive_xy_yx" };
    for (int i = 0; i < 3; i++) {
        char args[300];
        snprintf(args, sizeof args, "run mesh:8x8 traffic=transpose injection_rate=0.35 num_vcs=8 "
                 "va_in_pointer=router routing_function=%s warmup_cycles=2000 sample_cycles=6000", rf[i]);
        json_t *j = run_json(args);
        acc[i] = jnum(j, "throughput", "accepted");
        json_decref(j);
    }
    assert_true(acc[0] < 0.22);
    assert_true(acc[1] > 1.3 * acc[0]);
    assert_true(acc[2] > 1.3 * acc[0]);
}

static void expect_refused(const char *args, const char *text)
{
    char *err = NULL;
    assert_int_equal(cmd_run(args, NULL, &err), 2);
    if (!strstr(err, text))
        fail_msg("%s: expected '%s' in: %s", args, text, err);
    free(err);
}

static void test_refused(void **state)
{
    (void)state;
    expect_refused("run mesh:4x4 routing_function=min_adapt", "so it needs va_in_pointer = router");
    expect_refused("run torus:4x4 routing_function=min_adapt va_in_pointer=router",
                   "min_adapt is built for meshes (mesh:AxB...) only");
    expect_refused("run mesh:4x4 routing_function=min_adapt va_in_pointer=router lookahead=1",
                   "adaptive routing is not built with lookahead = 1");
    expect_refused("run mesh:4x4 routing_function=adaptive_xy_yx va_in_pointer=router speculative=1",
                   "adaptive routing is not built with speculative = 1");
    expect_refused("run mesh:4x4 routing_function=min_adapt va_in_pointer=router --router ideal",
                   "min_adapt is adaptive");
    expect_refused("run mesh:4x4 routing_function=min_adapt va_in_pointer=router --program broadcast",
                   "adaptive routing: the vc router runs it for synthetic traffic only");
    /* (threads run it since: tools/check_threads.sh compares its reports on 1, 2 and 3) */
    expect_refused("run mesh:4x4 routing_function=min_adapt va_in_pointer=router --waves w.fst",
                   "routes adaptively (routing_function = min_adapt)");
    put("mt.cfg", "topology = torus; k = 4; n = 2;\nrouting_function = min_adapt;\n");
    expect_refused("run --config mt.cfg", "mt.cfg:2: 'routing_function = min_adapt' on a torus: BookSim2's "
                   "min_adapt_torus is not modelled yet");
    put("a3.cfg", "topology = mesh; k = 4; n = 2; routing_function = adaptive_xy_yx;\nnum_vcs = 3;\n");
    expect_refused("run --config a3.cfg", "a3.cfg:2: 'num_vcs = 3' with adaptive_xy_yx");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_low_load),
        cmocka_unit_test(test_ties_drawn),
        cmocka_unit_test(test_min_adapt_no_deadlock),
        cmocka_unit_test(test_transpose_spread),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, cmd_setup, cmd_teardown);
}
