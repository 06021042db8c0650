/* test_explore.c: `noctua explore` (docs/exploration.md). The Pareto rule
 * on hand-made tables (dominance, equal rows, rows that did not run, other
 * workloads, area and energy as objectives only where every row has them);
 * a CSV row read back; brace expansion; then through the built binary
 * (NOCTUA_BINARY): a 2-fabric exploration's rows equal the single runs'
 * reports (noctua run --program --json, noctua topo --json) and the
 * formulas of the fabrics, -j 1 and -j 2 write the same table, --resume
 * keeps the rows, and bad input is refused by name (exit 2, no files). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>
#include <jansson.h>

#include "report/explore.h"
#include "cli/expand.h"
#include "testbench/unit/cmd_test.h"

/* A row of workload w with cycles and links, status 0. */
static noc_explore_row_t row(const char *fabric, const char *w, long long cycles, int links)
{
    noc_explore_row_t r;
    memset(&r, 0, sizeof r);
    snprintf(r.fabric, sizeof r.fabric, "%s", fabric);
    snprintf(r.workload, sizeof r.workload, "%s", w);
    r.has_cycles = 1;
    r.cycles = cycles;
    r.links = links;
    r.bisection = -1;
    return r;
}

static void test_pareto_by_hand(void **state)
{
    (void)state;
    noc_explore_row_t t[7];
    t[0] = row("a", "w", 10, 4);  /* front: fewest links at 10 cycles */
    t[1] = row("b", "w", 8, 6);   /* front: fewest cycles */
    t[2] = row("c", "w", 10, 5);  /* dominated by a (same cycles, more links) */
    t[3] = row("d", "w", 10, 4);  /* equal to a: neither dominates, both on the front */
    t[4] = row("e", "w", 1, 1);   /* deadlocked: neither on the front nor dominating */
    t[4].status = 3;
    t[5] = row("f", "v", 100, 100); /* alone in its workload: on its front */
    t[6] = row("g", "w", 9, 7);   /* dominated by b (fewer cycles and links) */
    unsigned objs[7];
    assert_int_equal(noc_explore_pareto(t, 7, objs), 4);
    int want[7] = { 1, 1, 0, 1, 0, 1, 0 };
    for (int i = 0; i < 7; i++)
        assert_int_equal(t[i].pareto, want[i]);
    /* no row has area or energy: cycles and links only */
    assert_int_equal(objs[0], NOC_EXPLORE_OBJ_CYCLES | NOC_EXPLORE_OBJ_LINKS);
    char text[128];
    noc_explore_objectives_text(objs[0], text, sizeof text);
    assert_string_equal(text, "cycles, links");
}

static void test_pareto_optional_objectives(void **state)
{
    (void)state;
    noc_explore_row_t t[5];
    /* x: both have energy, so it counts: x1 loses on it */
    t[0] = row("x1", "x", 10, 4);
    t[1] = row("x2", "x", 10, 4);
    t[0].has_energy = t[1].has_energy = 1;
    t[0].energy_pj = 5;
    t[1].energy_pj = 3;
    /* y: one row without energy, so energy is no objective: both on the front */
    t[2] = row("y1", "y", 10, 4);
    t[3] = row("y2", "y", 10, 4);
    t[2].has_energy = 1;
    t[2].energy_pj = 5;
    /* z: area counts (its only row has it); more area alone does not hurt a lone row */
    t[4] = row("z1", "z", 10, 4);
    t[4].has_area = 1;
    t[4].total_area = 1000;
    unsigned objs[5];
    noc_explore_pareto(t, 5, objs);
    assert_int_equal(t[0].pareto, 0);
    assert_int_equal(t[1].pareto, 1);
    assert_int_equal(t[2].pareto, 1);
    assert_int_equal(t[3].pareto, 1);
    assert_int_equal(t[4].pareto, 1);
    assert_int_equal(objs[0], NOC_EXPLORE_OBJ_CYCLES | NOC_EXPLORE_OBJ_LINKS | NOC_EXPLORE_OBJ_ENERGY);
    assert_int_equal(objs[2], NOC_EXPLORE_OBJ_CYCLES | NOC_EXPLORE_OBJ_LINKS);
    assert_int_equal(objs[4], NOC_EXPLORE_OBJ_CYCLES | NOC_EXPLORE_OBJ_LINKS | NOC_EXPLORE_OBJ_AREA);
    /* area trades against cycles: both on the front */
    noc_explore_row_t u[2] = { row("p", "w", 10, 4), row("q", "w", 12, 4) };
    u[0].has_area = u[1].has_area = 1;
    u[0].total_area = 2000;
    u[1].total_area = 1000;
    noc_explore_pareto(u, 2, NULL);
    assert_int_equal(u[0].pareto + u[1].pareto, 2);
}

static void test_pareto_saturation(void **state)
{
    (void)state;
    noc_explore_row_t t[4];
    for (int i = 0; i < 4; i++) {
        t[i] = row("s", "uniform", 0, 4);
        t[i].has_cycles = 0;
        t[i].has_sat = 1;
        t[i].zero_load_latency = 10;
    }
    t[0].saturation = 0.5; /* dominated by t[1]: a lower saturation, the rest equal */
    t[1].saturation = 0.7;
    t[2].saturation = 0.4; /* a lower latency: on the front */
    t[2].zero_load_latency = 8;
    t[3].saturation = 0.3; /* worse in both than t[2] */
    t[3].zero_load_latency = 9;
    unsigned objs[4];
    assert_int_equal(noc_explore_pareto(t, 4, objs), 2);
    assert_int_equal(t[0].pareto, 0);
    assert_int_equal(t[1].pareto, 1);
    assert_int_equal(t[2].pareto, 1);
    assert_int_equal(t[3].pareto, 0);
    assert_int_equal(objs[0], NOC_EXPLORE_OBJ_SATURATION | NOC_EXPLORE_OBJ_LATENCY | NOC_EXPLORE_OBJ_LINKS);
}

static void test_csv_round_trip(void **state)
{
    (void)state;
    noc_explore_row_t r = row("circulant:8:1,2", "broadcast:4", 123, 16), back;
    snprintf(r.params, sizeof r.params, "traffic=\"x\" num_vcs=2");
    r.nodes = 8;
    r.links_per_node = 2;
    r.bisection = 6;
    r.bisection_exact = 1;
    r.diameter = 2;
    r.diameter_exact = 1;
    r.vcs = 2;
    r.has_energy = 1;
    r.energy_pj = 1234.5;
    r.has_sat = 1;
    r.saturation = 0.35;
    r.saturation_found = 1;
    r.zero_load_latency = 12.5;
    r.pareto = 1;
    char line[4096];
    FILE *f = fmemopen(line, sizeof line, "w");
    noc_explore_csv_row(f, &r);
    fclose(f);
    line[strcspn(line, "\n")] = '\0';
    assert_int_equal(noc_explore_csv_parse(line, &back), 0);
    assert_string_equal(back.fabric, r.fabric);
    assert_string_equal(back.params, r.params);
    assert_string_equal(back.workload, r.workload);
    assert_int_equal(back.cycles, 123);
    assert_int_equal(back.links, 16);
    assert_int_equal(back.bisection, 6);
    assert_int_equal(back.has_area, 0);
    assert_int_equal(back.has_energy, 1);
    assert_true(back.energy_pj == 1234.5);
    assert_int_equal(back.has_sat, 1);
    assert_true(back.saturation == 0.35 && back.zero_load_latency == 12.5);
    assert_int_equal(back.saturation_found, 1);
    assert_int_equal(back.pareto, 1);
    assert_int_equal(noc_explore_csv_parse("\"a\",\"b\"", &back), -1);
}

static void test_expand(void **state)
{
    (void)state;
    char out[16][NOC_EXPAND_LEN], err[300];
    assert_int_equal(noc_expand("mesh:{2..3}x{2,4}", out, 16, err, sizeof err), 4);
    assert_string_equal(out[0], "mesh:2x2");
    assert_string_equal(out[1], "mesh:2x4");
    assert_string_equal(out[2], "mesh:3x2");
    assert_string_equal(out[3], "mesh:3x4");
    assert_int_equal(noc_expand("traffic=hotspot({0,9},{1,3})", out, 16, err, sizeof err), 1);
    assert_string_equal(out[0], "traffic=hotspot({0,9},{1,3})");
    assert_int_equal(noc_expand("mesh:{3..2}", out, 16, err, sizeof err), -1);
    assert_non_null(strstr(err, "{3..2}"));
    assert_int_equal(noc_expand("mesh:{2..4", out, 16, err, sizeof err), -1);
    assert_int_equal(noc_expand("mesh:{4}", out, 16, err, sizeof err), -1);
    assert_int_equal(noc_expand("mesh:{2,,3}", out, 16, err, sizeof err), -1);
    assert_int_equal(noc_expand("ring:{3..40}", out, 16, err, sizeof err), -1);
    assert_non_null(strstr(err, "more than 16"));
}

/* ---- through the binary ---- */

static json_t *load(const char *name)
{
    char path[600];
    json_error_t e;
    snprintf(path, sizeof path, "%s/%s", cmd_tmpdir, name);
    json_t *j = json_load_file(path, 0, &e);
    if (!j)
        fail_msg("%s: %s", path, e.text);
    return j;
}

static json_int_t jint(const json_t *j, const char *key)
{
    const json_t *v = json_object_get(j, key);
    if (!json_is_integer(v))
        fail_msg("no integer '%s'", key);
    return json_integer_value(v);
}

static char *output_file(const char *name)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%s", cmd_tmpdir, name);
    char *s = cmd_slurp(path, NULL);
    if (!s)
        fail_msg("no %s", path);
    return s;
}

static int exists(const char *name)
{
    char path[600];
    struct stat sb;
    snprintf(path, sizeof path, "%s/%s", cmd_tmpdir, name);
    return stat(path, &sb) == 0;
}

static int run_ok(const char *args)
{
    char *out, *err;
    int rc = cmd_run(args, &out, &err);
    if (rc != 0)
        fail_msg("noctua %s: status %d\n%s", args, rc, err);
    free(out);
    free(err);
    return rc;
}

/* Row i of the explore JSON against noctua run and noctua topo for its
 * fabric; the fabric's links and nodes from formulas. */
static void check_row(const json_t *r, const char *spec, int nodes, int links)
{
    char args[600];
    assert_string_equal(json_string_value(json_object_get(r, "fabric")), spec);
    assert_int_equal(jint(r, "status"), 0);
    snprintf(args, sizeof args, "run %s --program broadcast --words 2 num_vcs=2 energy=default --json run.json", spec);
    run_ok(args);
    snprintf(args, sizeof args, "topo %s --json topo.json", spec);
    run_ok(args);
    json_t *run = load("run.json"), *topo = load("topo.json");
    const json_t *t = json_array_get(topo, 0);
    assert_int_equal(jint(r, "cycles"), jint(run, "cycles"));
    double e = json_real_value(json_object_get(json_object_get(run, "energy"), "total_pj"));
    double got = json_real_value(json_object_get(r, "energy_pj"));
    assert_true(e > 0 && fabs(got - e) <= 1e-9 * e);
    assert_int_equal(jint(r, "nodes"), jint(t, "nodes"));
    assert_int_equal(jint(r, "links"), jint(t, "links"));
    assert_int_equal(jint(r, "diameter"), jint(t, "diameter"));
    assert_int_equal(jint(r, "bisection"), jint(json_object_get(t, "bisection"), "value"));
    assert_int_equal(json_is_true(json_object_get(r, "bisection_exact")),
                     json_is_true(json_object_get(json_object_get(t, "bisection"), "exact")));
    assert_int_equal(jint(r, "nodes"), nodes);
    assert_int_equal(jint(r, "links"), links);
    assert_true(fabs(json_real_value(json_object_get(r, "links_per_node")) - (double)links / nodes) < 1e-6);
    json_decref(run);
    json_decref(topo);
}

static void test_rows_equal_single_runs(void **state)
{
    (void)state;
    run_ok("explore 'mesh:{2,3}x2' ring:5 num_vcs=2 --program broadcast:2 -j 2 -q -o ex");
    json_t *j = load("ex.json");
    const json_t *rows = json_object_get(j, "rows");
    assert_int_equal(json_array_size(rows), 3);
    /* mesh AxB: A(B-1) + B(A-1) links; ring:N: N */
    check_row(json_array_get(rows, 0), "mesh:2x2", 4, 4);
    check_row(json_array_get(rows, 1), "mesh:3x2", 6, 7);
    check_row(json_array_get(rows, 2), "ring:5", 5, 5);
    /* the front by hand from the rows' own figures: a row is on it unless
     * another is no worse in cycles, links and energy and better in one */
    for (size_t i = 0; i < 3; i++) {
        const json_t *a = json_array_get(rows, i);
        int dominated = 0;
        for (size_t k = 0; k < 3; k++) {
            const json_t *b = json_array_get(rows, k);
            double va[3] = { (double)jint(a, "cycles"), (double)jint(a, "links"),
                             json_real_value(json_object_get(a, "energy_pj")) };
            double vb[3] = { (double)jint(b, "cycles"), (double)jint(b, "links"),
                             json_real_value(json_object_get(b, "energy_pj")) };
            int no_worse = 1, better = 0;
            for (int m = 0; m < 3; m++) {
                no_worse &= vb[m] <= va[m];
                better |= vb[m] < va[m];
            }
            dominated |= k != i && no_worse && better;
        }
        assert_int_equal(json_is_true(json_object_get(a, "pareto")), !dominated);
    }
    json_decref(j);
    /* the same table from one process */
    run_ok("explore 'mesh:{2,3}x2' ring:5 num_vcs=2 --program broadcast:2 -j 1 -q -o ex1");
    char *a = output_file("ex.csv"), *b = output_file("ex1.csv");
    assert_string_equal(a, b);
    free(a);
    free(b);
}

/* noctua sweep SPEC's CSV: the offered load of its last row below
 * saturation, whether the last row saturated, the first row's latency. */
static void sweep_figures(const char *name, double *sat, int *found, double *lat)
{
    char *csv = output_file(name), *line = strchr(csv, '\n') + 1;
    *sat = 0;
    *found = 0;
    for (int first = 1; *line && *line != '#'; first = 0) {
        double v[10];
        char *q = line;
        for (int k = 0; k < 10; k++) {
            v[k] = strtod(q, &q);
            q++;
        }
        if (first)
            *lat = v[2];
        if (v[9] > 0)
            *found = 1;
        else
            *sat = v[0];
        line = strchr(line, '\n') + 1;
    }
    free(csv);
}

static void test_synthetic_and_files(void **state)
{
    (void)state;
    char args[700], *out, *err;
    run_ok("run mesh:2x2 --program broadcast --emit four.goal --emit-only");
    int rc = cmd_run("explore mesh:2x2 ring:3 --traffic uniform@0.1:0.9:0.1 --program-file four.goal "
                     "warmup_cycles=200 sample_cycles=500 -q -o syn", &out, &err);
    /* the 4-rank program does not fit ring:3: that row is refused by name, the others run */
    assert_int_equal(rc, 2);
    assert_non_null(strstr(err, "ring:3, four.goal"));
    free(out);
    free(err);
    json_t *j = load("syn.json");
    const json_t *rows = json_object_get(j, "rows");
    assert_int_equal(json_array_size(rows), 4);
    const char *specs[2] = { "mesh:2x2", "ring:3" };
    for (int i = 0; i < 2; i++) {
        const json_t *r = json_array_get(rows, (size_t)(2 * i));
        assert_string_equal(json_string_value(json_object_get(r, "workload")), "uniform@0.1:0.9:0.1");
        snprintf(args, sizeof args, "sweep %s --rates 0.1:0.9:0.1 warmup_cycles=200 sample_cycles=500 "
                 "energy=default -q -o sw%d", specs[i], i);
        run_ok(args);
        char name[32];
        snprintf(name, sizeof name, "sw%d.csv", i);
        double sat, lat = -1;
        int found;
        sweep_figures(name, &sat, &found, &lat);
        assert_true(fabs(json_real_value(json_object_get(r, "saturation")) - sat) < 1e-9);
        assert_int_equal(json_is_true(json_object_get(r, "saturation_found")), found);
        assert_true(fabs(json_real_value(json_object_get(r, "zero_load_latency")) - lat) < 1e-3);
        assert_null(json_object_get(r, "cycles") == json_null() ? NULL : json_object_get(r, "cycles"));
    }
    /* the file's row on mesh:2x2 is noctua run --program-file's */
    const json_t *r = json_array_get(rows, 1);
    assert_int_equal(jint(r, "status"), 0);
    run_ok("run mesh:2x2 --program-file four.goal energy=default --json f.json");
    json_t *f = load("f.json");
    assert_int_equal(jint(r, "cycles"), jint(f, "cycles"));
    json_decref(f);
    assert_int_equal(jint(json_array_get(rows, 3), "status"), 2);
    json_decref(j);
}

static void test_resume(void **state)
{
    (void)state;
    run_ok("explore mesh:2x2 ring:4 --program broadcast:1 -q -o res");
    char *first = output_file("res.csv"), *out, *err;
    /* every row kept: none runs again, the table is the same */
    assert_int_equal(cmd_run("explore mesh:2x2 ring:4 --program broadcast:1 --resume -o res", &out, &err), 0);
    const char *p = err;
    int kept = 0;
    while ((p = strstr(p, "(kept from the CSV)")) != NULL) {
        kept++;
        p++;
    }
    assert_int_equal(kept, 2);
    free(out);
    free(err);
    char *again = output_file("res.csv");
    assert_string_equal(first, again);
    free(again);
    /* a row added to the study runs; the others are kept */
    assert_int_equal(cmd_run("explore mesh:2x2 ring:4 ring:5 --program broadcast:1 --resume -o res", &out, &err), 0);
    assert_non_null(strstr(err, "ring:5, broadcast:1"));
    assert_null(strstr(strstr(err, "ring:5, broadcast:1"), "kept"));
    free(out);
    free(err);
    /* another file is refused */
    char path[600];
    cmd_write("other.csv", "offered,accepted\n0.1,0.1\n", path, sizeof path);
    assert_int_equal(cmd_run("explore mesh:2x2 --resume -o other", &out, &err), 2);
    assert_non_null(strstr(err, "not an exploration's table"));
    free(out);
    free(err);
    free(first);
}

static void test_plots(void **state)
{
    (void)state;
    char *out, *err;
    int rc = cmd_run_bin("NOCTUA_BINARY", "PATH=/nonexistent", "explore mesh:2x2 ring:4 -q -o nogp", &out, &err);
    assert_int_equal(rc, 0); /* the table is the result; the plots need gnuplot */
    assert_non_null(strstr(err, "gnuplot is not on PATH"));
    assert_true(exists("nogp.csv"));
    assert_false(exists("nogp-cycles-links.png"));
    free(out);
    free(err);
    if (system("command -v gnuplot >/dev/null") != 0) {
        printf("(no gnuplot: the pictures themselves are not checked)\n");
        return;
    }
    run_ok("explore mesh:2x2 ring:5 'num_vcs={2,3}' -q -o gp");
    /* without --area no area plot; energy=default gives the energy plot */
    assert_true(exists("gp-cycles-links.png") && exists("gp-cycles-links.svg"));
    assert_true(exists("gp-energy-cycles.png") && exists("gp-energy-cycles.svg"));
    assert_false(exists("gp-cycles-area.png"));
    char *svg = output_file("gp-cycles-links.svg");
    /* the command as the title, the front's key, every point labelled */
    assert_non_null(strstr(svg, "noctua explore mesh:2x2 ring:5"));
    assert_non_null(strstr(svg, "Pareto front"));
    assert_non_null(strstr(svg, "mesh:2x2 num_vcs=2"));
    assert_non_null(strstr(svg, "ring:5 num_vcs=3"));
    free(svg);
    char *png = output_file("gp-cycles-links.png");
    assert_memory_equal(png, "\x89PNG", 4);
    free(png);
}

static void test_study_file(void **state)
{
    (void)state;
    char path[600], args[800];
    cmd_write("study.ini",
              "# a study\n[explore]\noutput = st  # the prefix\njobs = 2 ; two at once\nquiet = 1\n\n[fabrics]\nmesh:{2,3}x2\nring:5\n\n"
              "[parameters]\nnum_vcs = {2,3}\nvc_buf_size = 4\nwarmup_cycles = 200\nsample_cycles = 500\n\n"
              "[workloads]\nbroadcast:{1,2}\ntraffic = uniform@0.2:0.4:0.2\n",
              path, sizeof path);
    run_ok("explore --study study.ini");
    run_ok("explore 'mesh:{2,3}x2' ring:5 'num_vcs={2,3}' vc_buf_size=4 warmup_cycles=200 sample_cycles=500 "
           "--program 'broadcast:{1,2}' --traffic uniform@0.2:0.4:0.2 -j 2 -q -o cl");
    char *a = output_file("st.csv"), *b = output_file("cl.csv");
    assert_string_equal(a, b); /* the file is the command line */
    free(a);
    free(b);
    /* the command line adds to the file and wins: one value for num_vcs, another prefix */
    run_ok("explore --study study.ini num_vcs=2 ring:6 -o st2");
    json_t *j = load("st2.json");
    const json_t *rows = json_object_get(j, "rows");
    assert_int_equal(json_array_size(rows), 4 * 3); /* 4 fabrics x 1 set x 3 workloads */
    assert_string_equal(json_string_value(json_object_get(json_array_get(rows, 0), "params")), "");
    assert_string_equal(json_string_value(json_object_get(json_array_get(rows, 9), "fabric")), "ring:6");
    assert_string_equal(json_string_value(json_object_get(json_array_get(rows, 2), "workload")), "uniform@0.2:0.4:0.2");
    json_decref(j);
    /* bad lines are named by file and line */
    static const char *const bad[][2] = {
        { "[fabric]\nmesh:2x2\n", "bad.ini:1: unknown section 'fabric'" },
        { "mesh:2x2\n", "bad.ini:1: 'mesh:2x2' before any [section]" },
        { "[explore]\narea = 2\n", "bad.ini:2: area = 2" },
        { "[explore]\nouptut = x\n", "bad.ini:2: unknown key 'ouptut'" },
        { "[fabrics]\nmesh:2x2\nmesh:1x1\n", "bad.ini:3" },
        { "[fabrics]\nnum_vcs=2\n", "parameters go in [parameters]" },
        { "[parameters]\nnum_vcs\n", "bad.ini:2: expected key = value" },
        { "[workloads]\ntrafic = uniform\n", "bad.ini:2: unknown key 'trafic'" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *out, *err;
        cmd_write("bad.ini", bad[i][0], path, sizeof path);
        snprintf(args, sizeof args, "explore --study bad.ini -o never");
        int rc = cmd_run(args, &out, &err);
        if (rc != 2 || !strstr(err, bad[i][1]))
            fail_msg("study %zu: status %d, expected 2 with '%s':\n%s", i, rc, bad[i][1], err);
        assert_false(exists("never.csv"));
        free(out);
        free(err);
    }
}

/* `noctua explore ARGS` is refused (exit 2) with `want` in its message,
 * and writes nothing. */
static void refused(const char *args, const char *want)
{
    char a[600], *out, *err;
    snprintf(a, sizeof a, "explore %s -o bad", args);
    int rc = cmd_run(a, &out, &err);
    if (rc != 2 || !strstr(err, want))
        fail_msg("noctua %s: status %d, expected 2 with '%s':\n%s", a, rc, want, err);
    assert_false(exists("bad.csv"));
    assert_false(exists("bad.json"));
    assert_false(exists("bad.md"));
    free(out);
    free(err);
}

static void test_bad_input(void **state)
{
    (void)state;
    refused("'mesh:{3..2}'", "{3..2}");
    refused("'mesh:{2..3'", "without its '}'");
    refused("mesh:1x1", "mesh:1x1");
    refused("'ring:{3,2}'", "ring:2");
    refused("mesh:2x2 'num_vcs={2,x}'", "num_vcs");
    refused("mesh:2x2 nosuch_key=3", "nosuch_key");
    refused("mesh:2x2 --program nosuch", "nosuch");
    refused("mesh:2x2 --program broadcast:0", "WORDS '0'");
    refused("mesh:2x2 topology_spec=ring:4", "topology_spec");
    refused("--program broadcast", "no FABRIC");
    refused("mesh:2x2 -j 0", "-j '0'");
    refused("mesh:2x2 --traffic nosuch", "nosuch");
    refused("mesh:2x2 --traffic uniform@0:1:0.1", "FROM must be > 0");
    refused("mesh:2x2 --program-file nosuch.goal", "nosuch.goal");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pareto_by_hand),
        cmocka_unit_test(test_pareto_optional_objectives),
        cmocka_unit_test(test_pareto_saturation),
        cmocka_unit_test(test_csv_round_trip),
        cmocka_unit_test(test_expand),
        cmocka_unit_test(test_rows_equal_single_runs),
        cmocka_unit_test(test_synthetic_and_files),
        cmocka_unit_test(test_resume),
        cmocka_unit_test(test_plots),
        cmocka_unit_test(test_study_file),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, cmd_setup, cmd_teardown);
}
