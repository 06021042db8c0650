/* test_cli.c: the noctua command as a user meets it: the default run, help
 * generated from the parameter table, bad input with exit status 2 and a
 * message naming file, line and parameter, BookSim2 config files, the JSON
 * report, bit-for-bit determinism, deadlock (exit 3) and saturation (exit 0). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include <math.h>
#include <jansson.h>

#include "model/config.h"
#include "testbench/unit/cmd_test.h"






static void test_default_run(void **state)
{
    (void)state;
    char *out, *err;
    assert_int_equal(cmd_run("", &out, &err), 0);
    assert_non_null(strstr(out, "mesh:8x8"));
    assert_non_null(strstr(out, "latency"));
    assert_non_null(strstr(out, "below saturation"));
    free(out);
    free(err);
}

/* Every command reads its options from a table (cli/options.h): a prefix of
 * an option is refused by name, in every command, and run's key=value and
 * --router keep their order (the later wins). */
static void test_options_every_command(void **state)
{
    (void)state;
    static const char *const abbrev[][2] = {
        { "run mesh:4x4 --jso x", "--json" },         { "sweep mesh:4x4 --rat 0.1", "--rates" },
        { "topo mesh:4x4 --jso x", "--json" },         { "area --jso x", "--json" },
        { "validate --onl broadcast", "--only" },      { "draw mesh:4x4 -o x.svg --loa r.json", "--load" },
        { "run mesh:4x4 --program broadcast --wor 2", "--words" },
    };
    for (size_t i = 0; i < sizeof abbrev / sizeof abbrev[0]; i++) {
        char *err;
        assert_int_equal(cmd_run(abbrev[i][0], NULL, &err), 2);
        if (!strstr(err, "abbreviations are not accepted") || !strstr(err, abbrev[i][1]))
            fail_msg("'%s': %s", abbrev[i][0], err);
        free(err);
    }
    char *out;
    assert_int_equal(cmd_run("run mesh:4x4 sample_cycles=100 warmup_cycles=10 router=ideal --router vc "
                             "--json -", &out, NULL), 0);
    assert_non_null(strstr(out, "\"router\": \"vc\""));
    free(out);
    assert_int_equal(cmd_run("run mesh:4x4 sample_cycles=100 warmup_cycles=10 --router vc router=ideal "
                             "--json -", &out, NULL), 0);
    assert_non_null(strstr(out, "\"router\": \"ideal\""));
    free(out);
}

/* Misspelled names get the closest valid one (util/suggest.h), in every
 * place a user names something: parameters, patterns, programs, SPEC kinds,
 * routers, options, commands; `help CMD` is CMD's help. */
static void test_did_you_mean(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        { "run injecton_rate=0.2", "did you mean 'injection_rate'?" },
        { "run traffic=transpos", "did you mean 'transpose'?" },
        { "run mesh:4x4 --program broadcst", "did you mean 'broadcast'?" },
        { "run mesk:4x4", "did you mean \"mesh\"?" },
        { "run router=idael", "did you mean 'ideal'?" },
        { "run --jsn x", "did you mean '--json'?" },
        { "swep mesh:4x4", "did you mean 'sweep'?" },
        { "run 'injection_rate = 0.2'", "without spaces around '='" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *err;
        assert_int_equal(cmd_run(cases[i][0], NULL, &err), 2);
        if (!strstr(err, cases[i][1]))
            fail_msg("'%s' says: %s", cases[i][0], err);
        free(err);
    }
    char *out;
    assert_int_equal(cmd_run("help run", &out, NULL), 0);
    assert_non_null(strstr(out, "usage: noctua run"));
    free(out);
    assert_int_equal(cmd_run("run --program list", &out, NULL), 0);
    assert_non_null(strstr(out, "broadcast"));
    free(out);
    char *err; /* --emit FILE says what it wrote where */
    assert_int_equal(cmd_run("run mesh:4x4 --program broadcast --emit e.goal --emit-only", NULL, &err), 0);
    assert_non_null(strstr(err, "wrote the program (16 ranks"));
    assert_non_null(strstr(err, "to e.goal"));
    free(err);
}

static void test_help_lists_every_parameter(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(cmd_run("run --help", &out, NULL), 0);
    size_t n;
    const noc_param_info_t *p = noc_params(&n);
    for (size_t i = 0; i < n; i++) {
        if (!strstr(out, p[i].name))
            fail_msg("run --help does not list '%s'", p[i].name);
        if (!strstr(out, p[i].help))
            fail_msg("run --help lacks the help of '%s'", p[i].name);
    }
    /* the router families come from the registry's table, each with its help */
    assert_non_null(strstr(out, "families: vc (input-queued"));
    assert_non_null(strstr(out, "; ideal (the papers'"));
    assert_non_null(strstr(out, "; rtl (the Verilog router core"));
    free(out);
}

static void test_parameters_doc_in_step(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(cmd_run("params --markdown", &out, NULL), 0);
    const char *src = getenv("NOCTUA_SOURCE_DIR");
    assert_non_null(src);
    char path[512];
    snprintf(path, sizeof path, "%s/docs/parameters.md", src);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char *doc = calloc(1, 1 << 20);
    size_t n = fread(doc, 1, (1 << 20) - 1, f);
    fclose(f);
    doc[n] = '\0';
    if (strcmp(out, doc) != 0)
        fail_msg("docs/parameters.md is stale: run `build/noctua params --markdown > docs/parameters.md`");
    free(doc);
    free(out);
}

/* Every key of a run's JSON (top level, and in latency, phases,
 * throughput, the histogram, a link and a class) is named in
 * docs/report.md as `key` or `parent.key`. */
static int doc_names(const char *doc, const char *parent, const char *key)
{
    char a[128], b[128];
    snprintf(a, sizeof a, "`%s`", key);
    if (parent)
        snprintf(b, sizeof b, "`%s.%s", parent, key); /* `latency.p99` */
    else
        snprintf(b, sizeof b, "`%s.", key);           /* `throughput.offered` */
    char c[128];
    snprintf(c, sizeof c, "`%s[]`", key);           /* `links[]` */
    return strstr(doc, a) || strstr(doc, b) || strstr(doc, c);
}

static void check_keys(const char *doc, json_t *obj, const char *parent)
{
    const char *key;
    json_t *v;
    json_object_foreach(obj, key, v) {
        if (!doc_names(doc, parent, key))
            fail_msg("docs/report.md does not name the run JSON's key '%s%s%s'", parent ? parent : "",
                     parent ? "." : "", key);
    }
}

static void test_report_doc_names_every_key(void **state)
{
    (void)state;
    char *out, path[512];
    assert_int_equal(cmd_run("run mesh:4x4 injection_rate=0.2 sample_cycles=500 node_stats=1 --json -", &out, NULL), 0);
    const char *src = getenv("NOCTUA_SOURCE_DIR");
    assert_non_null(src);
    snprintf(path, sizeof path, "%s/docs/report.md", src);
    char *doc = cmd_slurp(path, NULL);
    assert_non_null(doc);
    json_error_t je;
    json_t *j = json_loads(out, 0, &je);
    assert_non_null(j);
    check_keys(doc, j, NULL);
    json_t *lat = json_object_get(j, "latency");
    check_keys(doc, lat, "latency");
    check_keys(doc, json_object_get(j, "phases"), "phases");
    check_keys(doc, json_object_get(j, "throughput"), "throughput");
    check_keys(doc, json_object_get(lat, "histogram"), "histogram");
    check_keys(doc, json_array_get(json_object_get(j, "links"), 0), "links");
    check_keys(doc, json_array_get(json_object_get(j, "classes"), 0), "classes");
    json_t *node = json_array_get(json_object_get(j, "nodes"), 0);
    assert_non_null(node);
    check_keys(doc, node, "nodes");
    check_keys(doc, json_object_get(node, "as_source"), "as_source");
    check_keys(doc, json_array_get(json_object_get(j, "local_channels"), 0), "local_channels");
    json_decref(j);
    free(doc);
    free(out);
}

static void test_bad_input(void **state)
{
    (void)state;
    char *err, path[512];
    assert_int_equal(cmd_run("run mesh:4x4 no_such_param=3", NULL, &err), 2);
    assert_non_null(strstr(err, "no_such_param"));
    free(err);
    assert_int_equal(cmd_run("run mesh:4x4 num_vcs=lots", NULL, &err), 2);
    assert_non_null(strstr(err, "num_vcs"));
    free(err);
    assert_int_equal(cmd_run("run mesh:4x4 injection_rate=-1", NULL, &err), 2);
    assert_non_null(strstr(err, "injection_rate"));
    free(err);
    assert_int_equal(cmd_run("run mesh:4y4", NULL, &err), 2);
    assert_non_null(strstr(err, "mesh:4y4"));
    free(err);
    assert_int_equal(cmd_run("run blob:9", NULL, &err), 2);
    assert_non_null(strstr(err, "blob:9"));
    free(err);
    assert_int_equal(cmd_run("run traffic=bitcomp mesh:3x3", NULL, &err), 2); /* 9 nodes */
    assert_non_null(strstr(err, "bitcomp"));
    free(err);
    /* one of each: a second SPEC or output does not silently win */
    assert_int_equal(cmd_run("run mesh:4x4 mesh:3x3", NULL, &err), 2);
    assert_non_null(strstr(err, "one SPEC only ('mesh:4x4', then 'mesh:3x3')"));
    free(err);
    assert_int_equal(cmd_run("run mesh:4x4 --json a.json --json b.json", NULL, &err), 2);
    assert_non_null(strstr(err, "--json given twice"));
    free(err);
    assert_int_equal(cmd_run("run mesh:4x4 --waves a.fst --waves b.fst", NULL, &err), 2);
    assert_non_null(strstr(err, "--waves given twice"));
    free(err);
    assert_int_equal(cmd_run("run mesh:4x4 --program broadcast --words 2 --words 3", NULL, &err), 2);
    assert_non_null(strstr(err, "--words given twice"));
    free(err);
    assert_int_equal(cmd_run("run --config /nonexistent/x.cfg", NULL, &err), 2);
    assert_non_null(strstr(err, "/nonexistent/x.cfg"));
    free(err);
    cmd_write("bad.cfg", "num_vcs = 2\npacket_size = 4\nvc_buf_size = deep\n", path, sizeof path);
    char args[600];
    snprintf(args, sizeof args, "run --config %s", path);
    assert_int_equal(cmd_run(args, NULL, &err), 2);
    char want[600];
    snprintf(want, sizeof want, "%s:3:", path);
    assert_non_null(strstr(err, want));
    assert_non_null(strstr(err, "vc_buf_size"));
    free(err);
    cmd_write("unknown.cfg", "// BookSim-style\nwarp_drive = 9;\n", path, sizeof path);
    snprintf(args, sizeof args, "run --config %s", path);
    assert_int_equal(cmd_run(args, NULL, &err), 2);
    snprintf(want, sizeof want, "%s:2:", path);
    assert_non_null(strstr(err, want));
    assert_non_null(strstr(err, "warp_drive"));
    free(err);
    assert_int_equal(cmd_run("frobnicate", NULL, &err), 2);
    free(err);
}

/* An unstable stop in the JSON report (max_samples, latency_thres; the
 * run itself: model.sample): "stopped", its cycle, the sample periods,
 * every key named in docs/report.md; absent from a default run. */
static void test_report_stopped_unstable(void **state)
{
    (void)state;
    char *out, path[512];
    assert_int_equal(cmd_run("run mesh:2x2 injection_rate=1 traffic=hotspot hotspot_rate=1 source_queue=0 "
                             "sample_cycles=100 warmup_cycles=100 max_samples=100 latency_thres=300 --json -",
                             &out, NULL), 0);
    json_error_t je;
    json_t *j = json_loads(out, 0, &je);
    assert_non_null(j);
    assert_string_equal(json_string_value(json_object_get(j, "stopped")), "unstable");
    json_int_t at = json_integer_value(json_object_get(j, "stopped_cycle"));
    assert_true(at > 300 && at % 100 == 0);
    json_t *per = json_object_get(j, "sample_periods");
    assert_int_equal(json_integer_value(json_object_get(per, "all")), at / 100);
    assert_int_equal(json_integer_value(json_object_get(per, "warmup")), 1);
    assert_true(json_is_true(json_object_get(j, "saturated")));
    snprintf(path, sizeof path, "%s/docs/report.md", getenv("NOCTUA_SOURCE_DIR"));
    char *doc = cmd_slurp(path, NULL);
    assert_non_null(doc);
    check_keys(doc, j, NULL);
    check_keys(doc, per, "sample_periods");
    json_decref(j);
    free(out);
    assert_int_equal(cmd_run("run mesh:2x2 sample_cycles=100 --json -", &out, NULL), 0);
    j = json_loads(out, 0, &je);
    assert_null(json_object_get(j, "stopped"));
    assert_null(json_object_get(j, "sample_periods"));
    json_decref(j);
    free(out);
    free(doc);
}

static void test_booksim_config(void **state)
{
    (void)state;
    char path[512], args[600], *out, *err;
    cmd_write("booksim.cfg",
               "// a BookSim2 configuration\n"
               "topology = mesh;\n"
               "k = 4;\n"
               "n = 2;\n"
               "routing_function = dim_order;\n"
               "num_vcs     = 4;\n"
               "vc_buf_size = 8;\n"
               "  traffic = transpose; // indented, with a comment\n"
               "injection_rate = 0.1;\n"
               "sim_type = latency; print_csv_results = 1;\n"
               "sample_cycles = 2000;\n",
               path, sizeof path);
    snprintf(args, sizeof args, "run --config %s --json -", path);
    assert_int_equal(cmd_run(args, &out, &err), 0);
    json_error_t je;
    json_t *j = json_loads(out, 0, &je);
    assert_non_null(j);
    assert_string_equal(json_string_value(json_object_get(j, "topology")), "mesh:4x4");
    json_t *cfg = json_object_get(j, "config");
    assert_int_equal(json_integer_value(json_object_get(cfg, "num_vcs")), 4);
    assert_string_equal(json_string_value(json_object_get(cfg, "traffic")), "transpose");
    /* BookSim2's meaning: packets per cycle, self-traffic (app.booksim checks the rest) */
    assert_int_equal(json_integer_value(json_object_get(cfg, "injection_rate_uses_flits")), 0);
    assert_int_equal(json_integer_value(json_object_get(cfg, "self_traffic")), 1);
    assert_null(strstr(err, "sim_type")); /* honoured: a latency run */
    assert_non_null(strstr(err, "print_csv_results")); /* no effect on results: a warning */
    json_decref(j);
    free(out);
    free(err);
    /* key=value wins over the file */
    snprintf(args, sizeof args, "run --config %s num_vcs=2 --json -", path);
    assert_int_equal(cmd_run(args, &out, NULL), 0);
    j = json_loads(out, 0, &je);
    assert_non_null(j);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "config"), "num_vcs")), 2);
    json_decref(j);
    free(out);
}

/* A BookSim2 batch run: every node's batch_size packets, batch_count
 * times, all measured; the JSON's batches; a sweep of one is refused (it
 * reads no rate). */
static void test_batch_run(void **state)
{
    (void)state;
    char path[512], args[600], *out, *err;
    cmd_write("batch.cfg",
              "topology = mesh; k = 4; n = 2; routing_function = dim_order; num_vcs = 4;\n"
              "sim_type = batch; batch_size = 20; batch_count = 2; max_outstanding_requests = 3;\n",
              path, sizeof path);
    snprintf(args, sizeof args, "run --config %s --json -", path);
    assert_int_equal(cmd_run(args, &out, &err), 0);
    assert_null(strstr(err, "batch")); /* (no warning: every batch key honoured) */
    json_error_t je;
    json_t *j = json_loads(out, 0, &je);
    assert_non_null(j);
    assert_int_equal(json_integer_value(json_object_get(j, "packets")), 16 * 20 * 2);
    json_t *b = json_object_get(j, "batches");
    assert_non_null(b);
    assert_int_equal(json_integer_value(json_object_get(b, "count")), 2);
    json_int_t lo = json_integer_value(json_object_get(b, "min_cycles")),
               hi = json_integer_value(json_object_get(b, "max_cycles"));
    double avg = json_real_value(json_object_get(b, "avg_cycles"));
    assert_true(lo > 0 && lo <= hi && avg * 2 == (double)(lo + hi));
    /* the batches are the window: 2 x 20 packets a node over the cycles of both */
    double acc = json_real_value(json_object_get(json_object_get(j, "throughput"), "accepted"));
    assert_true(fabs(acc - 40.0 / (double)(lo + hi)) < 1e-9);
    json_decref(j);
    free(out);
    free(err);
    assert_int_equal(cmd_run("sweep mesh:4x4 sim_type=batch --rates 0.1,0.2 -o batch_sweep", &out, &err), 2);
    assert_non_null(strstr(err, "sim_type = batch"));
    free(out);
    free(err);
}

/* The "latency.avg" (or another figure) of a run's JSON. */
static double json_fig(const char *args, const char *obj, const char *key)
{
    char *out;
    assert_int_equal(cmd_run(args, &out, NULL), 0);
    json_error_t je;
    json_t *j = json_loads(out, 0, &je);
    assert_non_null(j);
    double v = json_number_value(json_object_get(json_object_get(j, obj), key));
    json_decref(j);
    free(out);
    return v;
}

/* sim_count = 3: the means in "sims" are the means of the three runs with
 * seeds 1, 2, 3 made one by one, and the report is the last one's; an
 * unstable run ends the series; --waves, programs and sweeps refuse it. */
static void test_sim_count(void **state)
{
    (void)state;
    const char *base = "run mesh:4x4 injection_rate=0.3 sample_cycles=1500 warmup_cycles=200";
    char args[300], *out, *err;
    double lat = 0, acc = 0, last = 0;
    for (int k = 1; k <= 3; k++) {
        snprintf(args, sizeof args, "%s seed=%d --json -", base, k);
        last = json_fig(args, "latency", "avg");
        lat += last / 3;
        acc += json_fig(args, "throughput", "accepted") / 3;
    }
    snprintf(args, sizeof args, "%s sim_count=3 --json -", base);
    assert_int_equal(cmd_run(args, &out, NULL), 0);
    json_error_t je;
    json_t *j = json_loads(out, 0, &je);
    assert_non_null(j);
    json_t *sims = json_object_get(j, "sims");
    assert_int_equal(json_integer_value(json_object_get(sims, "count")), 3);
    assert_float_equal(json_number_value(json_object_get(json_object_get(sims, "latency"), "avg")), lat, 1e-6);
    assert_float_equal(json_number_value(json_object_get(sims, "accepted")), acc, 1e-9);
    assert_float_equal(json_number_value(json_object_get(json_object_get(j, "latency"), "avg")), last, 1e-9);
    assert_int_equal(json_array_size(json_object_get(sims, "runs")), 3);
    json_decref(j);
    free(out);
    /* past saturation with latency_thres: the first run stops as unstable, and the series with it */
    assert_int_equal(cmd_run("run mesh:4x4 injection_rate=0.9 latency_thres=30 sim_count=3", &out, NULL), 0);
    assert_non_null(strstr(out, "over 1 of 3 simulations"));
    free(out);
    assert_int_equal(cmd_run("run mesh:4x4 sim_count=2 --waves sc.fst", NULL, &err), 2);
    assert_non_null(strstr(err, "sim_count"));
    free(err);
    assert_int_equal(cmd_run("run hypercube:3 --program broadcast sim_count=2", NULL, &err), 2);
    assert_non_null(strstr(err, "sim_count"));
    free(err);
    assert_int_equal(cmd_run("sweep mesh:4x4 sim_count=2 --rates 0.1 -o sc_sweep", NULL, &err), 2);
    assert_non_null(strstr(err, "--seeds"));
    free(err);
}

static void test_json_report(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(cmd_run("run torus:4x4 injection_rate=0.2 sample_cycles=2000 --json -", &out, NULL), 0);
    json_error_t je;
    json_t *j = json_loads(out, 0, &je);
    if (!j)
        fail_msg("not JSON: %s", je.text);
    assert_true(json_integer_value(json_object_get(j, "cycles")) > 2000);
    assert_true(json_integer_value(json_object_get(j, "packets")) > 0);
    assert_true(json_integer_value(json_object_get(j, "flits")) > 0);
    json_t *lat = json_object_get(j, "latency");
    assert_true(json_real_value(json_object_get(lat, "avg")) > 1.0);
    assert_non_null(json_object_get(lat, "p99"));
    /* the histogram: contiguous bins of one width from at most the minimum
     * to at least the maximum, holding every measured packet */
    json_t *h = json_object_get(lat, "histogram"), *bins = json_object_get(h, "bins"), *bin;
    json_int_t w = json_integer_value(json_object_get(h, "bin_width")), hsum = 0, next = -1;
    size_t bi;
    assert_true(w >= 1 && json_array_size(bins) >= 1 && json_array_size(bins) <= 40);
    json_array_foreach(bins, bi, bin) {
        json_int_t from = json_integer_value(json_object_get(bin, "from"));
        assert_int_equal(json_integer_value(json_object_get(bin, "to")), from + w - 1);
        assert_true(next < 0 || from == next);
        next = from + w;
        hsum += json_integer_value(json_object_get(bin, "count"));
    }
    assert_true(json_integer_value(json_object_get(json_array_get(bins, 0), "from")) <=
                json_integer_value(json_object_get(lat, "min")));
    assert_true(next - 1 >= json_integer_value(json_object_get(lat, "max")));
    assert_int_equal(hsum + json_integer_value(json_object_get(json_object_get(h, "above"), "count")),
                     json_integer_value(json_object_get(j, "packets")));
    double acc = json_real_value(json_object_get(json_object_get(j, "throughput"), "accepted"));
    assert_true(acc > 0.15 && acc < 0.25);
    json_t *links = json_object_get(j, "links");
    assert_int_equal(json_array_size(links), 64); /* 16 nodes x 4 directed links */
    uint64_t sum = 0;
    size_t i;
    json_t *l;
    json_array_foreach(links, i, l) {
        assert_non_null(json_string_value(json_object_get(l, "from")));
        assert_non_null(json_string_value(json_object_get(l, "to")));
        assert_true(json_object_get(l, "busy") != NULL);
        double u = json_real_value(json_object_get(l, "utilisation"));
        assert_true(u >= 0.0 && u <= 1.0);
        sum += (uint64_t)json_integer_value(json_object_get(l, "flits"));
    }
    assert_int_equal(sum, (uint64_t)json_integer_value(json_object_get(j, "flit_hops")));
    assert_string_equal(json_string_value(json_object_get(json_array_get(links, 0), "from")), "(0,0)");
    /* the per-class breakdown adds up to the per-link table */
    json_t *classes = json_object_get(j, "classes");
    assert_int_equal(json_array_size(classes), 2); /* dim0, dim1 */
    uint64_t csum = 0;
    int clinks = 0, cchannels = 0;
    json_array_foreach(classes, i, l) {
        csum += (uint64_t)json_integer_value(json_object_get(l, "flits"));
        clinks += (int)json_integer_value(json_object_get(l, "links"));
        cchannels += (int)json_integer_value(json_object_get(l, "channels"));
    }
    assert_int_equal(csum, sum);
    assert_int_equal(cchannels, 64); /* the entries of links[] */
    assert_int_equal(clinks, 32);    /* as noctua topo counts: 2 x 16 */
    json_decref(j);
    free(out);
}

/* node_stats=1: the nodes' figures add up to the run's. Every measured
 * packet is counted once at its source and once at its destination, with
 * its latency; the nodes' accepted flits are the run's accepted load. */
static void test_node_figures_add_up(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(cmd_run("run mesh:4x4 traffic=transpose injection_rate=0.25 sample_cycles=2000 node_stats=1 "
                             "--json -", &out, NULL), 0);
    json_error_t je;
    json_t *j = json_loads(out, 0, &je);
    assert_non_null(j);
    json_t *nodes = json_object_get(j, "nodes"), *n;
    assert_int_equal(json_array_size(nodes), 16);
    json_int_t packets = json_integer_value(json_object_get(j, "packets")), src_n = 0, dst_n = 0, accepted = 0;
    double src_sum = 0, dst_sum = 0;
    size_t i;
    json_array_foreach(nodes, i, n) {
        json_t *a = json_object_get(n, "as_source"), *b = json_object_get(n, "as_destination");
        src_n += json_integer_value(json_object_get(a, "packets"));
        dst_n += json_integer_value(json_object_get(b, "packets"));
        src_sum += json_real_value(json_object_get(a, "avg")) * (double)json_integer_value(json_object_get(a, "packets"));
        dst_sum += json_real_value(json_object_get(b, "avg")) * (double)json_integer_value(json_object_get(b, "packets"));
        accepted += json_integer_value(json_object_get(n, "accepted"));
        json_int_t p99 = json_integer_value(json_object_get(a, "p99"));
        if (json_integer_value(json_object_get(a, "packets")) > 0)
            assert_true(p99 >= json_integer_value(json_object_get(a, "min")) &&
                        p99 <= json_integer_value(json_object_get(a, "max")));
    }
    /* transpose: the diagonal (0,0), (1,1), ... sends nothing */
    assert_int_equal(json_integer_value(json_object_get(json_object_get(json_array_get(nodes, 0), "as_source"),
                                                        "packets")), 0);
    assert_int_equal(src_n, packets);
    assert_int_equal(dst_n, packets);
    json_t *lat = json_object_get(j, "latency");
    double total = json_real_value(json_object_get(lat, "avg")) * (double)packets;
    assert_true(src_sum > total - 0.5 && src_sum < total + 0.5);
    assert_true(dst_sum > total - 0.5 && dst_sum < total + 0.5);
    double acc = json_real_value(json_object_get(json_object_get(j, "throughput"), "accepted"));
    assert_true(fabs((double)accepted / (16.0 * 2000.0) - acc) < 1e-6);
    /* a node's injection channel carried exactly the flits it injected */
    json_t *locals = json_object_get(j, "local_channels"), *lc;
    int injects = 0;
    assert_int_equal(json_array_size(locals), 32); /* an ejection and an injection channel a node */
    json_array_foreach(locals, i, lc) {
        if (strcmp(json_string_value(json_object_get(lc, "direction")), "inject") != 0)
            continue;
        injects++;
        const char *label = json_string_value(json_object_get(lc, "node"));
        size_t k;
        json_array_foreach(nodes, k, n) {
            if (strcmp(json_string_value(json_object_get(n, "node")), label) == 0)
                assert_int_equal(json_integer_value(json_object_get(lc, "flits")),
                                 json_integer_value(json_object_get(n, "injected")));
        }
    }
    assert_int_equal(injects, 16);
    json_decref(j);
    free(out);
    /* without node_stats the report has no nodes[] */
    assert_int_equal(cmd_run("run mesh:4x4 sample_cycles=500 --json -", &out, NULL), 0);
    assert_null(strstr(out, "\"nodes\": ["));
    free(out);
}

/* wait_for_tail_credit=1 (the vc router): an output VC is free only when
 * its tail's credit is back, so one VC carries one packet per credit round
 * trip T (the 1-flit period) plus the P - 1 cycles its body holds the VC:
 * a saturated single-VC link accepts P / (T + P - 1) flits a cycle, and
 * less than when the VC is freed as the tail leaves. The ideal and rtl
 * routers refuse it. */
static double accepted(const char *args)
{
    char *out, cmd[300];
    snprintf(cmd, sizeof cmd, "run mesh:2 num_vcs=1 traffic=neighbor injection_rate=0.9 sample_cycles=4000 %s --json -",
             args);
    assert_int_equal(cmd_run(cmd, &out, NULL), 0);
    json_error_t je;
    json_t *j = json_loads(out, 0, &je);
    assert_non_null(j);
    double a = json_real_value(json_object_get(json_object_get(j, "throughput"), "accepted"));
    json_decref(j);
    free(out);
    return a;
}

static void test_wait_for_tail_credit(void **state)
{
    (void)state;
    double t1 = 1.0 / accepted("packet_size=1 wait_for_tail_credit=1");
    double a4 = accepted("packet_size=4 wait_for_tail_credit=1");
    assert_true(fabs(a4 - 4.0 / (t1 + 3.0)) < 0.01 * a4);
    assert_true(a4 < accepted("packet_size=4 wait_for_tail_credit=0") - 0.05);
    assert_true(1.0 / t1 < accepted("packet_size=1 wait_for_tail_credit=0") - 0.05);
    /* The network interface's injection VC waits the same way (BookSim2's
     * sources keep a BufferState that reads wait_for_tail_credit): a head
     * sent at t reaches the router at t + Li, leaves its input buffer at
     * t + Li + R + VA, and its credit is back at the NI inject_credit_delay
     * (Ci) cycles later, when the next packet may take the VC: one packet
     * each Li + R + VA + Ci cycles, 23 and 24 here (longer than T: the
     * injection loop limits), in windows of 4600 = 200 x 23 cycles. */
    double ai = accepted("packet_size=1 wait_for_tail_credit=1 inject_credit_delay=20 sample_cycles=4600");
    assert_true(fabs(ai - 1.0 / 23) < 0.02 / 23);
    ai = accepted("packet_size=1 wait_for_tail_credit=1 inject_credit_delay=20 routing_delay=2 sample_cycles=4800");
    assert_true(fabs(ai - 1.0 / 24) < 0.02 / 24);
    char *err;
    assert_int_equal(cmd_run("run mesh:2 router=ideal wait_for_tail_credit=1", NULL, &err), 2);
    assert_non_null(strstr(err, "wait_for_tail_credit"));
    free(err);
}

/* hold_switch_for_packet=1: the vc router honours it (routers/test_vc.c
 * checks how); the rtl core and the ideal router have no such switch, and
 * refuse it by name. */
static void test_hold_switch_refused(void **state)
{
    (void)state;
    static const char *const runs[] = { "run mesh:2 router=rtl hold_switch_for_packet=1",
                                        "run mesh:2 --router rtl hold_switch_for_packet=1",
                                        "run mesh:2 router=ideal hold_switch_for_packet=1" };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        char *err;
        assert_int_equal(cmd_run(runs[i], NULL, &err), 2);
        if (!strstr(err, "parameter 'hold_switch_for_packet'"))
            fail_msg("%s: %s", runs[i], err);
        free(err);
    }
    char *out;
    assert_int_equal(cmd_run("run mesh:2 hold_switch_for_packet=1 packet_size=4 sample_cycles=500 --quiet", &out, NULL),
                     0);
    free(out);
}

/* input_speedup: the vc router honours it (routers/test_vc.c checks how);
 * the rtl core and the ideal router have one switch input per port, or no
 * switch, and refuse it by name; so do values the vc router cannot take
 * (0; 64 switch inputs for each of a mesh router's 5 ports). */
static void test_input_speedup_refused(void **state)
{
    (void)state;
    static const char *const runs[] = { "run mesh:2 router=rtl input_speedup=2",
                                        "run mesh:2 --router rtl input_speedup=2",
                                        "run mesh:2 router=ideal input_speedup=2",
                                        "run mesh:2 input_speedup=0",
                                        "run mesh:4x4 input_speedup=64" };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        char *err;
        assert_int_equal(cmd_run(runs[i], NULL, &err), 2);
        if (!strstr(err, "parameter 'input_speedup'"))
            fail_msg("%s: %s", runs[i], err);
        free(err);
    }
    char *out;
    assert_int_equal(cmd_run("run mesh:4x4 input_speedup=2 packet_size=4 sample_cycles=500 check=1 --quiet", &out, NULL),
                     0);
    free(out);
}

/* speculative: the vc router honours it (routers/test_vc_spec.c checks
 * how); the rtl core and the ideal router have no speculative switch
 * allocation and refuse it by name, and so does the vc router where it
 * cannot give BookSim2's meaning (other stage delays, the switch hold) or
 * an allocator it does not know; the vc router runs it with either kind of
 * spec_sw_allocator. */
static void test_speculative_refused(void **state)
{
    (void)state;
    static const struct {
        const char *run, *param;
    } runs[] = { { "run mesh:2 router=rtl speculative=1", "speculative" },
                 { "run mesh:2 --router rtl speculative=1", "speculative" },
                 { "run mesh:2 router=ideal speculative=1", "speculative" },
                 { "run mesh:2 speculative=1 vc_alloc_delay=2", "speculative" },
                 { "run mesh:2 speculative=1 sw_alloc_delay=2", "speculative" },
                 { "run mesh:2 speculative=1 hold_switch_for_packet=1", "speculative" },
                 { "run mesh:2 speculative=1 spec_sw_allocator=fifo", "spec_sw_allocator" },
                 { "run mesh:2 speculative=2", "speculative" } };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        char *err, want[64];
        snprintf(want, sizeof want, "'%s'", runs[i].param);
        assert_int_equal(cmd_run(runs[i].run, NULL, &err), 2);
        if (!strstr(err, want))
            fail_msg("%s: %s", runs[i].run, err);
        free(err);
    }
    static const char *const ok[] = {
        "run mesh:4x4 speculative=1 packet_size=4 injection_rate=0.3 sample_cycles=500 check=1 --quiet",
        "run mesh:4x4 speculative=1 spec_sw_allocator=separable_output_first spec_mask_by_reqs=1 injection_rate=0.5 "
        "sample_cycles=500 check=1 --quiet",
        "run torus:4x4 speculative=1 sw_allocator=rr_wavefront input_speedup=2 num_vcs=4 injection_rate=0.5 "
        "sample_cycles=500 check=1 --quiet",
        "run mesh:4x4 speculative=1 lookahead=1 link_width=32 injection_rate=0.3 sample_cycles=500 check=1 --quiet",
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        char *out, *err;
        int rc = cmd_run(ok[i], &out, &err);
        if (rc != 0)
            fail_msg("%s: exit %d: %s", ok[i], rc, err);
        free(out);
        free(err);
    }
}

static void test_same_seed_same_output(void **state)
{
    (void)state;
    char *a, *b, *c;
    const char *args = "run hypercube:5 injection_rate=0.25 packet_size=3 sample_cycles=3000 --json -";
    assert_int_equal(cmd_run(args, &a, NULL), 0);
    assert_int_equal(cmd_run(args, &b, NULL), 0);
    assert_string_equal(a, b);
    assert_int_equal(cmd_run("run hypercube:5 injection_rate=0.25 packet_size=3 sample_cycles=3000 seed=2 --json -",
                         &c, NULL), 0);
    assert_true(strcmp(a, c) != 0);
    free(a);
    free(b);
    free(c);
}

static void test_deadlock_exit(void **state)
{
    (void)state;
    char *out, *err;
    assert_int_equal(cmd_run("run ring:8 routing_function=dor_no_dateline num_vcs=1 vc_buf_size=2 "
                         "packet_size=8 traffic=tornado injection_rate=0.8 deadlock_cycles=300",
                         &out, &err), 3);
    assert_non_null(strstr(err, "DEADLOCK"));
    assert_non_null(strstr(err, "packet"));
    assert_non_null(strstr(out, "DEADLOCK"));
    free(out);
    free(err);
}

static void test_saturation_exit_zero(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(cmd_run("run mesh:4x4 injection_rate=0.9 sample_cycles=3000", &out, NULL), 0);
    assert_non_null(strstr(out, "SATURATED"));
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_run),
        cmocka_unit_test(test_options_every_command),
        cmocka_unit_test(test_did_you_mean),
        cmocka_unit_test(test_help_lists_every_parameter),
        cmocka_unit_test(test_parameters_doc_in_step),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_booksim_config),
        cmocka_unit_test(test_batch_run),
        cmocka_unit_test(test_sim_count),
        cmocka_unit_test(test_json_report),
        cmocka_unit_test(test_report_doc_names_every_key),
        cmocka_unit_test(test_report_stopped_unstable),
        cmocka_unit_test(test_node_figures_add_up),
        cmocka_unit_test(test_wait_for_tail_credit),
        cmocka_unit_test(test_hold_switch_refused),
        cmocka_unit_test(test_input_speedup_refused),
        cmocka_unit_test(test_speculative_refused),
        cmocka_unit_test(test_same_seed_same_output),
        cmocka_unit_test(test_deadlock_exit),
        cmocka_unit_test(test_saturation_exit_zero),
    };
    return cmocka_run_group_tests(tests, cmd_setup, cmd_teardown);
}
