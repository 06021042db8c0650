/* test_sweep.c: `noctua sweep` end to end: a sweep on a small mesh stops at
 * the first saturated rate, its CSV rises in offered load and latency, the
 * plots exist when gnuplot is installed, and bad --rates exit with status 2. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <cmocka.h>

static char dir[256];

static int sh(const char *args)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cd %s && %s %s >out.txt 2>err.txt", dir, getenv("NOCTUA_BINARY"), args);
    int st = system(cmd);
    assert_true(WIFEXITED(st));
    return WEXITSTATUS(st);
}

static long file_size(const char *name)
{
    char path[512];
    struct stat sb;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return stat(path, &sb) == 0 ? (long)sb.st_size : -1;
}

static int setup(void **state)
{
    (void)state;
    assert_non_null(getenv("NOCTUA_BINARY"));
    snprintf(dir, sizeof dir, "/tmp/noctua-test-sweep-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void test_sweep_mesh(void **state)
{
    (void)state;
    assert_int_equal(sh("sweep mesh:4x4 --rates 0.05:0.9:0.05 sample_cycles=2000 warmup_cycles=500 -o curve"), 0);
    char path[512];
    snprintf(path, sizeof path, "%s/curve.csv", dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[512];
    assert_non_null(fgets(line, sizeof line, f));
    assert_non_null(strstr(line, "offered,accepted,latency_avg"));
    double off[64], acc[64], lat[64];
    int sat[64], n = 0;
    while (n < 64 && fgets(line, sizeof line, f)) {
        double p50, p99, net, q, hops;
        long packets, cycles;
        int k = sscanf(line, "%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%ld,%d,%ld", &off[n], &acc[n], &lat[n],
                       &p50, &p99, &net, &q, &hops, &packets, &sat[n], &cycles);
        assert_int_equal(k, 11);
        n++;
    }
    fclose(f);
    assert_true(n >= 3);
    for (int i = 1; i < n; i++)
        assert_true(off[i] > off[i - 1]);
    for (int i = 0; i < n - 1; i++)
        assert_int_equal(sat[i], 0);
    assert_int_equal(sat[n - 1], 1);       /* it stopped at the first saturated rate */
    assert_true(off[n - 1] < 0.9 - 1e-9);  /* ... before the list ran out */
    assert_true(acc[n - 1] < off[n - 1]);
    assert_true(lat[n - 1] > lat[0]);
    if (system("command -v gnuplot >/dev/null 2>&1") == 0) {
        assert_true(file_size("curve.png") > 1000);
        assert_true(file_size("curve.svg") > 1000);
    }
}

static void test_bad_rates(void **state)
{
    (void)state;
    assert_int_equal(sh("sweep mesh:4x4 --rates 0.5:0.1:0.1"), 2);
    assert_int_equal(sh("sweep mesh:4x4 --rates abc"), 2);
    assert_int_equal(sh("sweep mesh:4x4 --rates 0:0.5:0.1"), 2);
    assert_int_equal(sh("sweep mesh:4x4"), 2);
    assert_int_equal(sh("sweep mesh:4x4 --rates 0.1,0.2 no_such=1"), 2);
    assert_true(file_size("err.txt") > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sweep_mesh),
        cmocka_unit_test(test_bad_rates),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
