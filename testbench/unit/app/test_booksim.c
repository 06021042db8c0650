/* test_booksim.c: BookSim2's config dialect (app/booksim.c, issue 11). Every
 * key noctua cannot honour is named at once, with its line, in files and in
 * key=value arguments; a key with no effect on results warns and runs; a
 * BookSim2 file gets BookSim2's defaults and meaning (packets per cycle,
 * tori with 2-cycle channels, the credit loop, self-traffic, unbounded
 * source queues), worked out by hand from BookSim2's sources
 * (booksim_config.cpp, networks/kncube.cpp, routers/iq_router.cpp,
 * traffic.cpp; docs/booksim.md); noctua's own files keep noctua's. The
 * expected numbers are BookSim2's defaults and zero-load formulas, not
 * noctua's output. docs/booksim.md's key table is checked against
 * `noctua params --booksim`. */
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

/* The file `text` read into a config (noc_app_load_file); 0 or -1. */
static int load(const char *name, const char *text, noc_config_t *cfg, char *err, size_t errlen)
{
    char path[512];
    cmd_write(name, text, path, sizeof path);
    noc_config_defaults(cfg);
    return noc_app_load_file(cfg, path, err, errlen);
}

/* ---- refusals and warnings ---- */

static void test_every_refused_key_named(void **state)
{
    (void)state;
    char *err;
    put("three.cfg",
        "topology = mesh;\n"
        "k = 4;\n"
        "noq = 1;\n"                      /* 3: a value noctua does not honour */
        "routing_function = dor;\n"
        "physical_subnetworks = 2;\n"    /* 5: a key noctua does not honour */
        "n = 2;\n"
        "warp_drive = 9;\n");              /* 7: nobody's key */
    assert_int_equal(cmd_run("run --config three.cfg", NULL, &err), 2);
    assert_non_null(strstr(err, "three.cfg:3: 'noq = 1'"));
    assert_non_null(strstr(err, "three.cfg:5: BookSim2's 'physical_subnetworks'"));
    assert_non_null(strstr(err, "three.cfg:7: 'warp_drive'"));
    assert_non_null(strstr(err, "3 lines above"));
    free(err);
    /* the same as key=value arguments, all three named */
    assert_int_equal(cmd_run("run mesh:4x4 physical_subnetworks=2 noq=1 warp=2", NULL, &err), 2);
    assert_non_null(strstr(err, "'physical_subnetworks=2'"));
    assert_non_null(strstr(err, "'noq=1'"));
    assert_non_null(strstr(err, "'warp=2'"));
    free(err);
    /* BookSim2's loop needs a period: max_samples = 0 is refused, in a file
     * and after one (noctua's own 0, one window, is not BookSim2's) */
    put("ms0.cfg", "topology = mesh; k = 4; n = 2; routing_function = dor; max_samples = 0;\n");
    assert_int_equal(cmd_run("run --config ms0.cfg", NULL, &err), 2);
    assert_non_null(strstr(err, "ms0.cfg:1: 'max_samples = 0'"));
    free(err);
    put("ms3.cfg", "topology = mesh; k = 4; n = 2; routing_function = dor;\n");
    assert_int_equal(cmd_run("run --config ms3.cfg max_samples=0", NULL, &err), 2);
    assert_non_null(strstr(err, "'max_samples = 0'"));
    free(err);
    /* two statements on one line, the second refused by its line */
    put("two.cfg", "topology = mesh; k = 4; n = 2; routing_function = dor;\nsubnets = 1; noq = 1;\n");
    assert_int_equal(cmd_run("run --config two.cfg", NULL, &err), 2);
    assert_non_null(strstr(err, "two.cfg:2: 'noq = 1'"));
    assert_null(strstr(err, "subnets"));
    free(err);
}

static void test_warned_key_runs(void **state)
{
    (void)state;
    char *out, *err;
    put("warn.cfg",
        "topology = mesh; k = 4; n = 2;\n"
        "routing_function = dor;\n"
        "print_csv_results = 1;\n"
        "watch_out = -;\n");
    assert_int_equal(cmd_run("run --config warn.cfg --quiet", &out, &err), 0);
    assert_non_null(strstr(err, "warn.cfg:3: warning: BookSim2's 'print_csv_results' has no effect"));
    assert_non_null(strstr(err, "warn.cfg:4: warning: BookSim2's 'watch_out'"));
    free(out);
    free(err);
    /* as an argument of a noctua run too */
    assert_int_equal(cmd_run("run mesh:4x4 sample_cycles=200 print_csv_results=1 subnets=1 --quiet", &out, &err), 0);
    assert_non_null(strstr(err, "'print_csv_results=1': warning"));
    free(out);
    free(err);
}

static void test_mixed_file_refused(void **state)
{
    (void)state;
    noc_config_t cfg;
    char err[1200];
    assert_int_equal(load("mixed.cfg", "// one of each\nk = 4;\nn = 2\n", &cfg, err, sizeof err), -1);
    assert_non_null(strstr(err, "mixed.cfg:2: this line ends with ';'"));
    assert_non_null(strstr(err, "line 3 does not"));
}

/* ---- BookSim2's defaults and meaning ---- */

static void test_defaults(void **state)
{
    (void)state;
    noc_config_t cfg;
    char err[1200];
    /* booksim_config.cpp: a torus 8-ary 2-cube, 16 VCs of 8 flits, iSLIP,
     * 0.1 packets per node per cycle, 3 warm-up periods of 1000 cycles */
    assert_int_equal(load("torus.cfg", "routing_function = dim_order;\n", &cfg, err, sizeof err), 0);
    assert_string_equal(cfg.topology, "torus");
    assert_int_equal(cfg.k, 8);
    assert_int_equal(cfg.n, 2);
    assert_int_equal(cfg.num_vcs, 16);
    assert_int_equal(cfg.vc_buf_size, 8);
    assert_string_equal(cfg.vc_allocator, "islip");
    assert_string_equal(cfg.sw_allocator, "islip");
    assert_true(cfg.injection_rate == 0.1);
    assert_int_equal(cfg.injection_rate_uses_flits, 0);
    assert_int_equal(cfg.warmup_cycles, 3000);
    assert_int_equal(cfg.sample_cycles, 1000);
    /* kncube.cpp: torus channels 2 cycles; iq_router.cpp: a credit that has
     * crossed its 2-cycle channel is used credit_delay (0) later, the cycle
     * after it arrives: noctua's loop 0 + 2 + 1 */
    assert_int_equal(cfg.link_latency, 2);
    assert_int_equal(cfg.credit_delay, 3);
    assert_int_equal(cfg.local_latency, 1);
    assert_int_equal(cfg.inject_latency, 2);
    assert_int_equal(cfg.inject_credit_delay, 2);
    assert_int_equal(cfg.st_final_delay, 1);
    assert_int_equal(cfg.self_traffic, 1);
    assert_int_equal(cfg.source_queue, 0);
    assert_int_equal(cfg.max_drain_cycles, INT64_C(1) << 40); /* BookSim2 drains every measured packet */
    assert_int_equal(cfg.booksim, 1);
    /* a mesh, 1-cycle channels; the crossbar's two stages add up */
    assert_int_equal(load("mesh.cfg",
                          "topology = mesh; routing_function = dor; credit_delay = 2;\n"
                          "st_prepare_delay = 1; st_final_delay = 1; sample_period = 500; warmup_periods = 2;\n",
                          &cfg, err, sizeof err), 0);
    assert_int_equal(cfg.link_latency, 1);
    assert_int_equal(cfg.credit_delay, 2 + 1 + 1);
    assert_int_equal(cfg.st_final_delay, 2);
    assert_int_equal(cfg.warmup_cycles, 1000);
    assert_int_equal(cfg.sample_cycles, 500);
    /* use_noc_latency = 0: tori with 1-cycle channels too */
    assert_int_equal(load("torus1.cfg", "routing_function = dim_order; use_noc_latency = 0;\n", &cfg, err,
                          sizeof err), 0);
    assert_int_equal(cfg.link_latency, 1);
    assert_int_equal(cfg.credit_delay, 2);
    /* noctua's parameters in a BookSim2 file keep noctua's meaning, last */
    assert_int_equal(load("both.cfg", "routing_function = dim_order; link_latency = 3; source_queue = 64;\n", &cfg,
                          err, sizeof err), 0);
    assert_int_equal(cfg.link_latency, 3);
    assert_int_equal(cfg.source_queue, 64);
    /* no routing function: BookSim2 stops on its default 'none' */
    assert_int_equal(load("none.cfg", "topology = mesh;\n", &cfg, err, sizeof err), -1);
    assert_int_equal(load("dor.cfg", "routing_function = dor;\n", &cfg, err, sizeof err), -1); /* no dor_torus */
    /* a buffer shorter than BookSim2's ejection credit loop (1 + 4 + 2):
     * the ejection ports count credits, back 2 + credit_delay cycles after
     * the NI took the flit (sw_alloc_delay + crossbar + ejection channel
     * before it); not with a buffer as long as the loop, but with
     * wait_for_tail_credit, which frees a VC when its tail's credit is back */
    assert_int_equal(load("short.cfg", "topology = mesh; routing_function = dor; credit_delay = 2; vc_buf_size = 6;\n",
                          &cfg, err, sizeof err), 0);
    assert_int_equal(cfg.eject_credit_delay, 4);
    assert_int_equal(load("long.cfg", "topology = mesh; routing_function = dor; credit_delay = 2; vc_buf_size = 7;\n",
                          &cfg, err, sizeof err), 0);
    assert_int_equal(cfg.eject_credit_delay, 0);
    assert_int_equal(load("tail.cfg", "topology = mesh; routing_function = dor; wait_for_tail_credit = 1;\n", &cfg,
                          err, sizeof err), 0);
    assert_int_equal(cfg.eject_credit_delay, 2);
    /* BookSim2's iq_router builds its allocators without the config: one
     * iSLIP iteration and round-robin arbiters whatever the file says */
    assert_int_equal(load("iters.cfg", "topology = mesh; routing_function = dor; alloc_iters = 3; arb_type = matrix;\n",
                          &cfg, err, sizeof err), 0);
    assert_int_equal(cfg.alloc_iters, 1);
    assert_string_equal(cfg.arb_type, "round_robin");
}

static void test_noctua_files_unchanged(void **state)
{
    (void)state;
    noc_config_t cfg, def;
    char err[1200];
    noc_config_defaults(&def);
    assert_int_equal(load("noctua.cfg", "topology = torus\nk = 4\nn = 2\ncredit_delay = 2\n", &cfg, err, sizeof err),
                     0);
    assert_int_equal(cfg.credit_delay, 2); /* noctua's meaning: copied */
    assert_int_equal(cfg.link_latency, def.link_latency);
    assert_int_equal(cfg.injection_rate_uses_flits, 1);
    assert_int_equal(cfg.self_traffic, 0);
    assert_int_equal(cfg.source_queue, 256);
    assert_int_equal(cfg.inject_latency, 0);
    assert_int_equal(cfg.num_vcs, def.num_vcs);
    assert_int_equal(cfg.booksim, 0);
    /* a BookSim2 key in a noctua file: its table, as an argument */
    assert_int_equal(load("nb.cfg", "k = 4\nnoq = 1\n", &cfg, err, sizeof err), -1);
    assert_non_null(strstr(err, "nb.cfg:2: 'noq = 1' is not honoured"));
}

/* The speedups have BookSim2's meaning in noctua's vc router: each file's
 * value goes to noctua's parameter of that name (internal_speedup as a
 * fraction, output_buffer_size too); a file with internal or output speedup
 * gets the ejection channel's credits (eject_credit_delay = 2 +
 * credit_delay: BookSim2's loop of st_final_delay + 4 + credit_delay less
 * sw_alloc_delay + st_final_delay + 1), which bound an ejection port's
 * output queue as BookSim2's do; one without keeps none (its buffer of 8 is
 * longer than the loop of 5). */
static void test_speedups(void **state)
{
    (void)state;
    noc_config_t cfg;
    char err[1200];
    const char *mesh = "topology = mesh; k = 4; n = 2; routing_function = dor;\n";
    char text[256];
    snprintf(text, sizeof text, "%sinput_speedup = 2;\n", mesh);
    assert_int_equal(load("is2.cfg", text, &cfg, err, sizeof err), 0);
    assert_int_equal(cfg.input_speedup, 2);
    assert_int_equal(cfg.eject_credit_delay, 0);
    snprintf(text, sizeof text, "%sinput_speedup = 1;\noutput_speedup = 1;\ninternal_speedup = 1.0;\n", mesh);
    assert_int_equal(load("is1.cfg", text, &cfg, err, sizeof err), 0);
    assert_int_equal(cfg.input_speedup, 1);
    assert_int_equal(cfg.output_speedup, 1);
    assert_true(cfg.internal_speedup == 1.0);
    assert_int_equal(cfg.output_buffer_size, -1);
    snprintf(text, sizeof text, "%soutput_speedup = 2;\ninternal_speedup = 1.7;\noutput_buffer_size = 4;\n"
             "credit_delay = 1;\n", mesh);
    assert_int_equal(load("os2.cfg", text, &cfg, err, sizeof err), 0);
    assert_int_equal(cfg.output_speedup, 2);
    assert_true(cfg.internal_speedup == 1.7);
    assert_int_equal(cfg.output_buffer_size, 4);
    assert_int_equal(cfg.eject_credit_delay, 2 + 1);
    /* the default, with no key: BookSim2's 1 */
    assert_int_equal(load("is.cfg", mesh, &cfg, err, sizeof err), 0);
    assert_int_equal(cfg.input_speedup, 1);
    assert_int_equal(cfg.output_speedup, 1);
    assert_true(cfg.internal_speedup == 1.0);
    /* a file with input_speedup = 2 runs on the vc router, and is refused
     * by name with --router rtl (whose core takes the file's other keys) */
    put("is2run.cfg", "topology = mesh; k = 4; n = 2; routing_function = dor; input_speedup = 2; packet_size = 4;\n"
                      "vc_allocator = separable_input_first; sw_allocator = separable_input_first;\n"
                      "sample_period = 500; injection_rate = 0.02;\n");
    char *out, *e2;
    assert_int_equal(cmd_run("run --config is2run.cfg --quiet", &out, NULL), 0);
    free(out);
    assert_int_equal(cmd_run("run --config is2run.cfg --router rtl --quiet", NULL, &e2), 2);
    assert_non_null(strstr(e2, "parameter 'input_speedup'"));
    free(e2);
    /* a file with internal_speedup = 1.5 runs on the vc router; the rtl
     * and ideal routers refuse it (first for the ejection credits it
     * brings, which they lack), and the speedups by name as arguments */
    put("isp.cfg", "topology = mesh; k = 4; n = 2; routing_function = dor; internal_speedup = 1.5; packet_size = 4;\n"
                   "routing_delay = 0; sample_period = 500; injection_rate = 0.02;\n");
    assert_int_equal(cmd_run("run --config isp.cfg --quiet", &out, NULL), 0);
    free(out);
    assert_int_equal(cmd_run("run --config isp.cfg --router rtl --quiet", NULL, &e2), 2);
    free(e2);
    static const char *const refused[][2] = {
        { "run mesh:2 --router rtl internal_speedup=1.5", "parameter 'internal_speedup'" },
        { "run mesh:2 --router rtl output_speedup=2", "parameter 'output_speedup'" },
        { "run mesh:2 --router rtl output_buffer_size=4", "parameter 'output_buffer_size'" },
        { "run mesh:2 --router ideal internal_speedup=2", "parameter 'internal_speedup'" },
        { "run mesh:2 --router ideal output_speedup=3", "parameter 'output_speedup'" },
        /* (and programs, whose waits the output queues do not attribute yet) */
        { "run mesh:4x4 --program broadcast internal_speedup=2", "parameter 'internal_speedup'" },
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        assert_int_equal(cmd_run(refused[i][0], NULL, &e2), 2);
        if (!strstr(e2, refused[i][1]))
            fail_msg("%s: %s", refused[i][0], e2);
        free(e2);
    }
}

/* speculative and its companions have BookSim2's meaning in noctua's vc
 * router: each value goes to noctua's parameter of that name (with
 * BookSim2's defaults when the file gives none); values outside BookSim2's
 * reading that noctua does not take are refused by name, and a file with
 * speculative = 1 runs on the vc router and is refused by name with
 * --router rtl. */
static void test_speculative(void **state)
{
    (void)state;
    noc_config_t cfg;
    char err[1200], text[512];
    const char *mesh = "topology = mesh; k = 4; n = 2; routing_function = dor;\n";
    assert_int_equal(load("sp0.cfg", mesh, &cfg, err, sizeof err), 0);
    assert_int_equal(cfg.speculative, 0);
    assert_int_equal(cfg.spec_check_elig, 1);
    assert_int_equal(cfg.spec_check_cred, 1);
    assert_int_equal(cfg.spec_mask_by_reqs, 0);
    assert_string_equal(cfg.spec_sw_allocator, "prio");
    snprintf(text, sizeof text, "%sspeculative = 1; spec_check_elig = 0; spec_check_cred = 0;\n"
             "spec_mask_by_reqs = 1; spec_sw_allocator = separable_output_first;\n", mesh);
    assert_int_equal(load("sp1.cfg", text, &cfg, err, sizeof err), 0);
    assert_int_equal(cfg.speculative, 1);
    assert_int_equal(cfg.spec_check_elig, 0);
    assert_int_equal(cfg.spec_check_cred, 0);
    assert_int_equal(cfg.spec_mask_by_reqs, 1);
    assert_string_equal(cfg.spec_sw_allocator, "separable_output_first");
    snprintf(text, sizeof text, "%sspeculative = 1; spec_sw_allocator = select(2);\n", mesh);
    put("sppim.cfg", text);
    char *e1;
    assert_int_equal(cmd_run("run --config sppim.cfg", NULL, &e1), 2);
    assert_non_null(strstr(e1, "sppim.cfg:2: 'spec_sw_allocator = select(2)'"));
    free(e1);
    put("sprun.cfg", "topology = mesh; k = 4; n = 2; routing_function = dor; speculative = 1; packet_size = 4;\n"
                     "vc_allocator = separable_input_first; sw_allocator = separable_input_first;\n"
                     "sample_period = 500; injection_rate = 0.02;\n");
    char *out, *e2;
    assert_int_equal(cmd_run("run --config sprun.cfg --quiet", &out, NULL), 0);
    free(out);
    assert_int_equal(cmd_run("run --config sprun.cfg --router rtl --quiet", NULL, &e2), 2);
    assert_non_null(strstr(e2, "parameter 'speculative'"));
    free(e2);
}

/* injection_rate counts packets: offered flits = rate x packet size. */
static void test_packet_rate(void **state)
{
    (void)state;
    put("pk.cfg",
        "topology = mesh; k = 4; n = 2; routing_function = dor;\n"
        "packet_size = 4; injection_rate = 0.05; sample_period = 4000;\n");
    json_t *j = run_json("run --config pk.cfg");
    assert_float_equal(jnum(j, "throughput", "offered"), 0.05 * 4, 1e-12);
    assert_float_equal(jnum(j, "throughput", "accepted"), 0.2, 0.2 * 0.05); /* below saturation */
    json_decref(j);
    /* an argument after the file keeps BookSim2's meaning */
    j = run_json("run --config pk.cfg injection_rate=0.02");
    assert_float_equal(jnum(j, "throughput", "offered"), 0.02 * 4, 1e-12);
    json_decref(j);
    /* injection_rate_uses_flits = 1: flits, as in noctua */
    j = run_json("run --config pk.cfg injection_rate_uses_flits=1");
    assert_float_equal(jnum(j, "throughput", "offered"), 0.05, 1e-12);
    json_decref(j);
}

/* Zero-load latency with BookSim2's channels: a packet crosses H links,
 * H + 1 routers of R + VA + SA + ST = 4 cycles, the injection channel (2:
 * BookSim2's source writes after its channels have read) and the ejection
 * channel (1): T0 = 3 + 4 (H + 1) + H L = 7 + (4 + L) H, L = 2 on a torus
 * and 1 on a mesh (BookSim2 itself measures 17 for H = 2 on an 8x8 mesh
 * under bitcomp, and 19 on the torus). bitcomp sends every node a fixed
 * distance: on an 8x8 torus 2, 4 or 6 hops; the rare packet that meets
 * another is a few cycles late, so the average is within 1%. */
static void test_torus_latency(void **state)
{
    (void)state;
    put("tz.cfg",
        "routing_function = dim_order; num_vcs = 2; traffic = bitcomp;\n"
        "injection_rate = 0.001; sample_period = 20000;\n");
    json_t *j = run_json("run --config tz.cfg");
    double hops = jnum(j, "hops", "avg");
    assert_float_equal(jnum(j, "latency", "min"), 7 + 6 * 2, 0);
    assert_float_equal(jnum(j, "latency", "avg"), 7 + 6 * hops, 0.01 * (7 + 6 * hops));
    json_decref(j);
    put("mz.cfg",
        "topology = mesh; routing_function = dor; num_vcs = 2; traffic = bitcomp;\n"
        "injection_rate = 0.001; sample_period = 20000;\n");
    j = run_json("run --config mz.cfg");
    assert_float_equal(jnum(j, "latency", "min"), 7 + 5 * 2, 0);
    json_decref(j);
}

/* BookSim2's uniform draws the source too (traffic.cpp: RandomInt(nodes -
 * 1)): on a k x k mesh the average distance is then 2 (k^2 - 1) / (3k),
 * 2.5 for k = 4 (without the source: 2.5 * 16/15 = 2.667), and 1/16 of the
 * packets go nowhere (0 hops). */
static void test_self_traffic(void **state)
{
    (void)state;
    put("self.cfg",
        "topology = mesh; k = 4; n = 2; routing_function = dor;\n"
        "injection_rate = 0.1; sample_period = 20000;\n");
    json_t *j = run_json("run --config self.cfg");
    assert_float_equal(jnum(j, "hops", "min"), 0, 0);
    assert_float_equal(jnum(j, "hops", "avg"), 2.5, 0.02);
    json_decref(j);
}

/* Past saturation BookSim2's source queues grow without a bound: nothing is
 * refused, and a queue holds more than noctua's bound of 256. */
static void test_unbounded_queue(void **state)
{
    (void)state;
    put("sat.cfg",
        "topology = mesh; k = 4; n = 2; routing_function = dor;\n"
        "injection_rate = 0.9; sample_period = 1000;\n");
    json_t *j = run_json("run --config sat.cfg max_drain_cycles=100");
    assert_float_equal(jnum(j, "packets_refused", NULL), 0, 0);
    assert_true(jnum(j, "source_queue_peak", NULL) > 256);
    assert_true(json_is_true(json_object_get(j, "saturated")));
    json_decref(j);
    /* the same run as a noctua one: its queues are bounded */
    j = run_json("run mesh:4x4 injection_rate=0.9 warmup_cycles=3000 sample_cycles=1000 max_drain_cycles=100");
    assert_true(jnum(j, "packets_refused", NULL) > 0);
    assert_float_equal(jnum(j, "source_queue_peak", NULL), 256, 0);
    json_decref(j);
}

/* The table: a FIXED or value-checked key honours BookSim2's own default
 * (else every file without it would run another experiment), SAME keys
 * name a noctua parameter, every row explains itself. */
static void test_table_sound(void **state)
{
    (void)state;
    size_t n;
    const noc_bs_key_t *k = noc_bs_keys(&n);
    noc_config_t cfg;
    noc_config_defaults(&cfg);
    int counts[5] = { 0 };
    for (size_t i = 0; i < n; i++) {
        char buf[64];
        counts[k[i].disp]++;
        if (k[i].disp == NOC_BS_FIXED && !k[i].honoured[0])
            fail_msg("%s: FIXED without honoured values", k[i].key);
        if (k[i].disp == NOC_BS_SAME && noc_config_get(&cfg, k[i].noctua, buf, sizeof buf) != 0)
            fail_msg("%s: SAME, but '%s' is no noctua parameter", k[i].key, k[i].noctua);
        if (!k[i].note[0] && k[i].disp != NOC_BS_SAME)
            fail_msg("%s: no note", k[i].key);
        if (k[i].honoured[0] && k[i].def[0] && k[i].disp != NOC_BS_CONV && strcmp(k[i].key, "topology") != 0) {
            /* the default, as an argument of a noctua run, is honoured */
            char err[900];
            noc_config_t c2;
            noc_config_defaults(&c2);
            c2.booksim = 1;
            if (noc_bs_arg(&c2, k[i].key, k[i].def, "test", stderr, err, sizeof err) < 0)
                fail_msg("%s: BookSim2's default '%s' is not honoured: %s", k[i].key, k[i].def, err);
        }
    }
    /* 131 keys of booksim_config.cpp, limit and physical_subnetworks */
    assert_int_equal(n, 133);
    assert_int_equal(counts[NOC_BS_REFUSE] + counts[NOC_BS_WARN] + counts[NOC_BS_SAME] + counts[NOC_BS_CONV] +
                     counts[NOC_BS_FIXED], 133);
}

static void test_doc_table_in_step(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(cmd_run("params --booksim", &out, NULL), 0);
    const char *src = getenv("NOCTUA_SOURCE_DIR");
    assert_non_null(src);
    char path[512];
    snprintf(path, sizeof path, "%s/docs/booksim.md", src);
    char *doc = cmd_slurp(path, NULL);
    assert_non_null(doc);
    if (!strstr(doc, out))
        fail_msg("docs/booksim.md's key table is stale: put `build/noctua params --booksim` in it");
    free(doc);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_refused_key_named),
        cmocka_unit_test(test_warned_key_runs),
        cmocka_unit_test(test_mixed_file_refused),
        cmocka_unit_test(test_speedups),
        cmocka_unit_test(test_speculative),
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_noctua_files_unchanged),
        cmocka_unit_test(test_packet_rate),
        cmocka_unit_test(test_torus_latency),
        cmocka_unit_test(test_self_traffic),
        cmocka_unit_test(test_unbounded_queue),
        cmocka_unit_test(test_table_sound),
        cmocka_unit_test(test_doc_table_in_step),
    };
    return cmocka_run_group_tests(tests, cmd_setup, cmd_teardown);
}
