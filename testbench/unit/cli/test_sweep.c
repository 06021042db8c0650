/* test_sweep.c: `noctua sweep` end to end. Runs the built binary
 * (NOCTUA_BINARY) into a temporary directory and reads back what it wrote:
 * the CSV's header and rows (offered load rising, only the last point
 * saturated, latency rising, accepted below offered at saturation), the
 * plots when gnuplot is installed, the stop at the first saturated rate
 * before the rates run out, the summary and progress lines, the precedence
 * of --config and key=value, the deadlock exit with a partial CSV, a run
 * without gnuplot on PATH, and the usage errors of --rates. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <cmocka.h>
#include <math.h>

#include "testbench/unit/cmd_test.h"

#define HEADER "offered,accepted,latency_avg,latency_p50,latency_p99,network_latency_avg," \
               "queueing_latency_avg,hops_avg,packets,saturated,cycles"
#define NCOL 11
#define MAXROWS 64

enum { C_OFFERED, C_ACCEPTED, C_LAT, C_P50, C_P99, C_NET, C_QUEUE, C_HOPS, C_PACKETS, C_SAT, C_CYCLES };

typedef struct csv {
    char header[512];
    int rows;
    char note[256];     /* a "# ..." line: the sweep is partial */
    double v[MAXROWS][NCOL];
} csv_t;

/* `[env] noctua sweep ARGS` in the scratch folder (output in out.txt and
 * err.txt there); returns the exit status. */
static int sweep(const char *env, const char *args)
{
    char a[4096];
    snprintf(a, sizeof a, "sweep %s", args);
    return cmd_run_bin("NOCTUA_BINARY", env, a, NULL, NULL);
}

static char *output(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", cmd_tmpdir, name);
    char *s = cmd_slurp(path, NULL);
    assert_non_null(s);
    return s;
}

static int file_size(const char *name)
{
    char path[1024];
    struct stat sb;
    snprintf(path, sizeof path, "%s/%s", cmd_tmpdir, name);
    return stat(path, &sb) == 0 ? (int)sb.st_size : -1;
}

static void read_csv(const char *name, csv_t *c)
{
    char *text = output(name);
    memset(c, 0, sizeof *c);
    char *save, *line = strtok_r(text, "\n", &save);
    assert_non_null(line);
    snprintf(c->header, sizeof c->header, "%s", line);
    while ((line = strtok_r(NULL, "\n", &save)) != NULL) {
        if (line[0] == '#') { /* a partial sweep says so */
            snprintf(c->note, sizeof c->note, "%s", line);
            continue;
        }
        assert_true(c->rows < MAXROWS);
        char *p = line;
        for (int k = 0; k < NCOL; k++) {
            char *end;
            c->v[c->rows][k] = strtod(p, &end);
            assert_true(end != p);
            assert_true(*end == (k == NCOL - 1 ? '\0' : ','));
            p = end + 1;
        }
        c->rows++;
    }
    free(text);
}

static int have_gnuplot(void)
{
    return system("command -v gnuplot >/dev/null 2>&1") == 0;
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    return n;
}

static void test_mesh_sweep(void **state)
{
    (void)state;
    char dir[600];
    snprintf(dir, sizeof dir, "%s/out", cmd_tmpdir);
    assert_int_equal(mkdir(dir, 0755), 0);
    assert_int_equal(sweep("", "mesh:4x4 --rates 0.05:0.6:0.05 sample_cycles=2000 warmup_cycles=500 -o out/lat"), 0);

    csv_t c;
    read_csv("out/lat.csv", &c);
    assert_string_equal(c.header, HEADER);
    assert_true(c.rows >= 3);
    for (int i = 1; i < c.rows; i++)
        assert_true(c.v[i][C_OFFERED] > c.v[i - 1][C_OFFERED]);
    for (int i = 0; i < c.rows - 1; i++)
        assert_true(c.v[i][C_SAT] == 0.0);
    const double *last = c.v[c.rows - 1];
    assert_true(last[C_SAT] == 1.0);
    assert_true(last[C_LAT] > c.v[0][C_LAT]);
    assert_true(last[C_ACCEPTED] < last[C_OFFERED]);
    for (int i = 0; i < c.rows; i++) {
        assert_true(c.v[i][C_PACKETS] > 0);
        assert_true(c.v[i][C_P99] >= c.v[i][C_P50]);
        assert_true(c.v[i][C_LAT] + 1e-9 >= c.v[i][C_NET]);
    }
    /* CI installs every dependency (tools/bootstrap.sh): a missing gnuplot
     * fails the test instead of dropping its checks */
    if (!have_gnuplot())
        fail_msg("gnuplot is not on PATH (Debian package gnuplot-nox)");
    assert_true(file_size("out/lat.png") > 1000);
    assert_true(file_size("out/lat.svg") > 1000);
    /* the title gives the VCs the runs had (num_vcs=0 resolved), the depth
     * and the window; the saturated point's latency lies far above 5x the
     * zero-load latency, so the latency axis is capped and says so */
    char *svg = output("out/lat.svg");
    assert_non_null(strstr(svg, "mesh:4x4, router vc, 2 VCs x 8 flits, 1-flit packets, uniform traffic"));
    assert_non_null(strstr(svg, "each point: 500 warm-up + 2000 measured cycles"));
    assert_true(last[C_P99] > 5 * c.v[0][C_LAT]);
    assert_non_null(strstr(svg, "axis ends at 5x zero-load"));
    assert_non_null(strstr(svg, "accepted = offered"));
    free(svg);

    /* one progress line per point on stderr; the summary on stdout */
    char *err = output("err.txt");
    assert_int_equal(count(err, "sweep mesh:4x4: rate "), c.rows);
    assert_non_null(strstr(err, "saturated"));
    free(err);
    char *out = output("out.txt");
    assert_non_null(strstr(out, "saturation between"));
    assert_non_null(strstr(out, "out/lat.csv"));
    free(out);
}

/* past saturation the sweep stops, before the rates run out */
static void test_stops_at_saturation(void **state)
{
    (void)state;
    assert_int_equal(sweep("", "mesh:4x4 --rates 0.05:0.9:0.05 sample_cycles=2000 warmup_cycles=500 -o stop"), 0);
    csv_t c;
    read_csv("stop.csv", &c);
    assert_true(c.rows >= 3 && c.rows < 18);
    assert_true(c.v[c.rows - 1][C_SAT] == 1.0);
    assert_true(c.v[c.rows - 1][C_OFFERED] < 0.9 - 1e-9);
}

static void test_rate_list(void **state)
{
    (void)state;
    assert_int_equal(sweep("", "mesh:4x4 --rates 0.3,0.1,0.2 sample_cycles=1000 warmup_cycles=200 -o list"), 0);
    csv_t c;
    read_csv("list.csv", &c);
    assert_int_equal(c.rows, 3);
    assert_true(c.v[0][C_OFFERED] == 0.1 && c.v[1][C_OFFERED] == 0.2 && c.v[2][C_OFFERED] == 0.3);
    char *out = output("out.txt");
    assert_non_null(strstr(out, "no saturation"));
    free(out);
    /* below saturation the latency axis follows the data */
    if (!have_gnuplot())
        fail_msg("gnuplot is not on PATH (Debian package gnuplot-nox)");
    char *svg = output("list.svg");
    assert_null(strstr(svg, "axis ends at"));
    assert_non_null(strstr(svg, "latency (cycles)"));
    free(svg);
}

static void test_config_precedence(void **state)
{
    (void)state;
    char path[600];
    snprintf(path, sizeof path, "%s/sweep.cfg", cmd_tmpdir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("packet_size = 2\nsample_cycles = 800\nwarmup_cycles = 200\n", f);
    fclose(f);
    assert_int_equal(sweep("", "mesh:4x4 --rates 0.1,0.2 --config sweep.cfg -o cfg"), 0);
    char *out = output("out.txt");
    assert_non_null(strstr(out, "2-flit packets"));
    free(out);
    assert_int_equal(sweep("", "mesh:4x4 --rates 0.1,0.2 packet_size=4 --config sweep.cfg -o cfg"), 0);
    out = output("out.txt");
    assert_non_null(strstr(out, "4-flit packets"));
    free(out);
}

static void test_deadlock(void **state)
{
    (void)state;
    /* a cyclic ring without datelines and one VC locks up under heavy load */
    assert_int_equal(sweep("", "torus:8 routing_function=dor_no_dateline num_vcs=1 --rates 0.01,0.8 "
                           "sample_cycles=2000 warmup_cycles=500 -o dl"), 3);
    csv_t c;
    read_csv("dl.csv", &c);
    assert_string_equal(c.header, HEADER);
    assert_int_equal(c.rows, 1);
    assert_non_null(strstr(c.note, "# stopped at rate 0.800 by a deadlock: the sweep is partial (1 of 2 rates)"));
    char *err = output("err.txt");
    assert_non_null(strstr(err, "DEADLOCK"));
    free(err);
}

/* -j: points run in parallel processes give the same CSV, the same lines on
 * stderr and the same summary as one after another, past saturation (the
 * points a series would not run are thrown away), over several series and
 * into a deadlock (the sweep stops at the same point). */
static void test_jobs_same_output(void **state)
{
    (void)state;
    static const char *const sweeps[] = {
        "mesh:4x4 ring:6 --rates 0.05:0.9:0.05 --vary num_vcs=2,4 sample_cycles=600 warmup_cycles=200",
        "torus:8 routing_function=dor_no_dateline num_vcs=1 --rates 0.01,0.02,0.8,0.85,0.9 sample_cycles=2000 "
        "warmup_cycles=500",
    };
    for (size_t k = 0; k < sizeof sweeps / sizeof sweeps[0]; k++) {
        char args[600];
        char *csv[2], *err[2], *out[2];
        int rc[2];
        for (int v = 0; v < 2; v++) {
            snprintf(args, sizeof args, "%s -j %d -o jobs%d", sweeps[k], v ? 3 : 1, v);
            rc[v] = sweep("", args);
            char name[32];
            snprintf(name, sizeof name, "jobs%d.csv", v);
            csv[v] = output(name);
            err[v] = output("err.txt");
            out[v] = output("out.txt");
        }
        assert_int_equal(rc[0], rc[1]);
        assert_int_equal(rc[0], k == 0 ? 0 : 3);
        assert_string_equal(csv[0], csv[1]);
        assert_string_equal(err[0], err[1]);
        /* the summary names its own files */
        char *w0 = strstr(out[0], "wrote "), *w1 = strstr(out[1], "wrote ");
        assert_true(w0 && w1);
        *w0 = *w1 = '\0';
        assert_string_equal(out[0], out[1]);
        for (int v = 0; v < 2; v++) {
            free(csv[v]);
            free(err[v]);
            free(out[v]);
        }
    }
    assert_int_equal(sweep("", "mesh:4x4 --rates 0.1 -j 0 -o bad"), 2);
    assert_int_equal(sweep("", "mesh:4x4 --rates 0.1 -j x -o bad"), 2);
    assert_int_equal(file_size("bad.csv"), -1);
}

/* --seeds 3: a point's row holds the means of three runs with seeds s, s+1,
 * s+2 (checked against those runs swept alone) and the 95% interval of the
 * mean latency: t(0.975, 2) = 4.303 times the sample deviation over sqrt(3). */
static void test_seeds(void **state)
{
    (void)state;
    assert_int_equal(sweep("", "mesh:4x4 --rates 0.2 --seeds 3 seed=5 sample_cycles=800 warmup_cycles=200 -o sd"), 0);
    char *text = output("sd.csv");
    assert_non_null(strstr(text, HEADER ",seeds,latency_avg_ci95,accepted_ci95\n"));
    double v[14];
    char *p = strchr(text, '\n') + 1;
    for (int k = 0; k < 14; k++) {
        v[k] = strtod(p, &p);
        p++;
    }
    free(text);
    double lat[3], acc[3], packets = 0;
    for (int i = 0; i < 3; i++) {
        char args[200];
        snprintf(args, sizeof args, "mesh:4x4 --rates 0.2 seed=%d sample_cycles=800 warmup_cycles=200 -o one", 5 + i);
        assert_int_equal(sweep("", args), 0);
        csv_t c;
        read_csv("one.csv", &c);
        lat[i] = c.v[0][C_LAT];
        acc[i] = c.v[0][C_ACCEPTED];
        packets += c.v[0][C_PACKETS] / 3.0;
    }
    double m = (lat[0] + lat[1] + lat[2]) / 3.0, ma = (acc[0] + acc[1] + acc[2]) / 3.0, ss = 0;
    for (int i = 0; i < 3; i++)
        ss += (lat[i] - m) * (lat[i] - m);
    double ci = 4.303 * sqrt(ss / 2.0) / sqrt(3.0);
    assert_true(fabs(v[C_LAT] - m) < 1e-4 * m);
    assert_true(fabs(v[C_ACCEPTED] - ma) < 1e-4);
    assert_true(fabs(v[C_PACKETS] - packets) < 1e-6 * packets);
    assert_int_equal((int)v[11], 3);
    assert_true(fabs(v[12] - ci) < 1e-3 * (ci + 1e-9) + 1e-6);
    assert_true(lat[0] != lat[1] || lat[1] != lat[2]); /* the seeds differ */
    assert_int_equal(sweep("", "mesh:4x4 --rates 0.2 --seeds 31 -o bad"), 2);
    assert_int_equal(file_size("bad.csv"), -1);
}

/* --resume keeps the rows a cut-short run wrote and runs the rest: the CSV
 * ends equal to the whole sweep's, the kept points are said so; a CSV of
 * another sweep is refused and left as it was. */
static void test_resume(void **state)
{
    (void)state;
    const char *sw = "mesh:4x4 ring:6 --rates 0.05:0.9:0.05 sample_cycles=600 warmup_cycles=200";
    char args[400], path[600];
    snprintf(args, sizeof args, "%s -j 1 -o full", sw);
    assert_int_equal(sweep("", args), 0);
    char *full = output("full.csv");
    /* the header and three rows, then the note of an interrupted run */
    const char *p = full;
    for (int k = 0; k < 4; k++)
        p = strchr(p, '\n') + 1;
    snprintf(path, sizeof path, "%s/part.csv", cmd_tmpdir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "%.*s# interrupted during rate 0.200: the sweep is partial (3 of 18 rates)\n", (int)(p - full), full);
    fclose(f);
    for (int jobs = 1; jobs <= 3; jobs += 2) {
        if (jobs == 3) { /* again from the cut file */
            f = fopen(path, "w");
            fprintf(f, "%.*s", (int)(p - full), full);
            fclose(f);
        }
        snprintf(args, sizeof args, "%s -j %d -o part --resume", sw, jobs);
        assert_int_equal(sweep("", args), 0);
        char *part = output("part.csv");
        assert_string_equal(part, full);
        free(part);
        char *err = output("err.txt");
        int kept = 0;
        for (const char *q = err; (q = strstr(q, "(kept from the CSV)")); q++)
            kept++;
        assert_int_equal(kept, 3);
        free(err);
    }
    free(full);
    /* another sweep's CSV: refused, untouched */
    assert_int_equal(sweep("", "mesh:4x4 --rates 0.1 --seeds 2 -o full --resume"), 2);
    char *err = output("err.txt");
    assert_non_null(strstr(err, "is not this sweep's"));
    free(err);
    char *again = output("full.csv");
    assert_non_null(strstr(again, "series,"));
    free(again);
}

static void test_no_gnuplot(void **state)
{
    (void)state;
    assert_int_equal(sweep("PATH=/nonexistent", "mesh:4x4 --rates 0.1,0.2 sample_cycles=500 warmup_cycles=100 -o ng"), 0);
    assert_true(file_size("ng.csv") > 0);
    assert_int_equal(file_size("ng.png"), -1);
    char *err = output("err.txt");
    assert_non_null(strstr(err, "gnuplot-nox"));
    free(err);
}

/* The rows of one series in a multi-series CSV ("label",offered,...), as
 * a plain CSV's rows. */
static int series_rows(const char *text, const char *label, char *out, size_t len)
{
    char key[256];
    snprintf(key, sizeof key, "\"%s\",", label);
    size_t k = 0;
    int n = 0;
    out[0] = '\0';
    for (const char *p = strstr(text, key); p; p = strstr(p + 1, key)) {
        if (p != text && p[-1] != '\n')
            continue;
        const char *e = strchr(p, '\n');
        size_t l = e ? (size_t)(e - p) - strlen(key) : strlen(p) - strlen(key);
        assert_true(k + l + 2 < len);
        memcpy(out + k, p + strlen(key), l);
        k += l;
        out[k++] = '\n';
        out[k] = '\0';
        n++;
    }
    return n;
}

/* Several SPECs and --vary: one series per SPEC and value, in that order,
 * each the same rows as a sweep of that SPEC with that value alone, and
 * every series named in the plot. */
static void test_series(void **state)
{
    (void)state;
    assert_int_equal(sweep("", "mesh:4x4 ring:6 --rates 0.1,0.3,0.6 --vary num_vcs=2,4 sample_cycles=800 "
                               "warmup_cycles=200 -o multi"), 0);
    char *out = output("out.txt");
    assert_non_null(strstr(out, "ring:6 num_vcs=4: "));
    free(out);
    char *text = output("multi.csv");
    assert_true(strncmp(text, "series," HEADER "\n", strlen("series," HEADER "\n")) == 0);
    static const char *const labels[] = { "mesh:4x4 num_vcs=2", "mesh:4x4 num_vcs=4", "ring:6 num_vcs=2",
                                          "ring:6 num_vcs=4" };
    const char *prev = text;
    for (int i = 0; i < 4; i++) {
        char key[64], rows[4096], alone[256];
        snprintf(key, sizeof key, "\n\"%s\",", labels[i]);
        const char *at = strstr(text, key);
        if (!at || at < prev)
            fail_msg("series '%s' missing or out of order", labels[i]);
        prev = at;
        int n = series_rows(text, labels[i], rows, sizeof rows);
        assert_true(n >= 1 && n <= 3);
        /* the same series alone */
        char spec[32];
        snprintf(spec, sizeof spec, "%.*s", (int)(strchr(labels[i], ' ') - labels[i]), labels[i]);
        snprintf(alone, sizeof alone, "%s --rates 0.1,0.3,0.6 %s sample_cycles=800 warmup_cycles=200 -o alone", spec,
                 strchr(labels[i], ' ') + 1);
        assert_int_equal(sweep("", alone), 0);
        char *one = output("alone.csv");
        const char *body = strchr(one, '\n') + 1;
        assert_string_equal(rows, body);
        free(one);
    }
    free(text);
    if (!have_gnuplot())
        fail_msg("gnuplot is not on PATH (Debian package gnuplot-nox)");
    char *svg = output("multi.svg");
    for (int i = 0; i < 4; i++)
        assert_non_null(strstr(svg, labels[i]));
    assert_non_null(strstr(svg, "4 series, router vc, uniform traffic"));
    free(svg);
    /* bad series */
    assert_int_equal(sweep("", "mesh:4x4 --rates 0.1 --vary num_vcs -o bad"), 2);
    assert_int_equal(sweep("", "mesh:4x4 --rates 0.1 --vary num_vcz=2,4 -o bad"), 2);
    char *err = output("err.txt");
    assert_non_null(strstr(err, "num_vcs"));
    free(err);
    assert_int_equal(sweep("", "mesh:4x4 --rates 0.1 --vary num_vcs=1,2,3,4,5 --vary vc_buf_size=2,4,8,16 -o bad"), 2);
    err = output("err.txt");
    assert_non_null(strstr(err, "20 series"));
    free(err);
    /* commas inside (..) and {..} belong to a value: two series, not five */
    assert_int_equal(sweep("", "mesh:4x4 --rates 0.05 --vary 'traffic=hotspot({0,5},{1,3}),uniform' "
                               "sample_cycles=300 warmup_cycles=100 -o braces"), 0);
    text = output("braces.csv");
    assert_non_null(strstr(text, "\n\"traffic=hotspot({0,5},{1,3})\","));
    assert_non_null(strstr(text, "\n\"traffic=uniform\","));
    free(text);
    assert_int_equal(file_size("bad.csv"), -1);
}

static void test_bad_rates(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "0.5:0.1:0.1", "abc", "0:0.5:0.1", "0.1:0.5:0", "0.1:0.5:-0.1", "0.0001:1:0.0001",
        "0.1:0.5", "0.1,,0.2", "-0.1,0.2",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char args[200];
        snprintf(args, sizeof args, "mesh:4x4 --rates '%s' -o bad", bad[i]);
        assert_int_equal(sweep("", args), 2);
        char *err = output("err.txt");
        if (!strstr(err, "--rates"))
            fail_msg("--rates %s: no message naming --rates: %s", bad[i], err);
        free(err);
        assert_int_equal(file_size("bad.csv"), -1);
    }
    assert_int_equal(sweep("", "mesh:4x4 -o bad"), 2);   /* no --rates */
    char *err = output("err.txt");
    assert_non_null(strstr(err, "--rates"));
    free(err);
    assert_int_equal(sweep("", "mesh:4x4 --rates"), 2);
    assert_int_equal(sweep("", "mesh:4x4 --rates 0.1,0.2 no_such=1 -o bad"), 2);
    assert_int_equal(file_size("bad.csv"), -1);
    assert_int_equal(sweep("", "mesh:4x4 --rates 0.1 -o no/such/dir/x"), 2);
}

static void test_help(void **state)
{
    (void)state;
    assert_int_equal(sweep("", "--help"), 0);
    char *out = output("out.txt");
    assert_non_null(strstr(out, "usage: noctua sweep"));
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mesh_sweep),
        cmocka_unit_test(test_stops_at_saturation),
        cmocka_unit_test(test_rate_list),
        cmocka_unit_test(test_config_precedence),
        cmocka_unit_test(test_deadlock),
        cmocka_unit_test(test_jobs_same_output),
        cmocka_unit_test(test_seeds),
        cmocka_unit_test(test_resume),
        cmocka_unit_test(test_no_gnuplot),
        cmocka_unit_test(test_bad_rates),
        cmocka_unit_test(test_series),
        cmocka_unit_test(test_help),
    };
    return cmocka_run_group_tests(tests, cmd_setup, cmd_teardown);
}
