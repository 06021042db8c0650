/* test_interrupt.c: Ctrl-C (SIGINT) and SIGTERM (util/interrupt.h,
 * docs/reliability.md). The first signal ends a run at the end of the
 * current cycle: its outputs are written whole, marked interrupted, and it
 * exits 130. A second signal quits at once and leaves no file at all. A
 * sweep keeps the points it finished, and its CSV says it is partial. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <fstapi.h>
#include <jansson.h>
#include <signal.h>
#include <time.h>
#include "../cmd_test.h"
#include "../full_disk.h"

static void sleep_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

/* A run that does not stop when told is killed after a minute (the test
 * then sees 137, not 130, instead of hanging). */
static pid_t watched;

static void on_alarm(int sig)
{
    (void)sig;
    if (watched > 0)
        kill(watched, SIGKILL);
}

static pid_t spawn(const char *args, int *fd)
{
    watched = cmd_spawn(args, -1, fd);
    signal(SIGALRM, on_alarm);
    alarm(60);
    return watched;
}

/* Wait until a file whose name starts with prefix is in the scratch folder
 * (a temporary: the run has opened its outputs and is simulating). */
static void wait_for(const char *prefix)
{
    for (int i = 0; i < 6000; i++) {
        char *names = cmd_listing();
        int found = 0;
        for (char *line = names; *line;) {
            if (strncmp(line, prefix, strlen(prefix)) == 0)
                found = 1;
            char *nl = strchr(line, '\n');
            line = nl ? nl + 1 : line + strlen(line);
        }
        free(names);
        if (found)
            return;
        sleep_ms(10);
    }
    fail_msg("no file %s* appeared in 60 s", prefix);
}

/* Read the pipe until text has appeared in what was read (kept in buf). */
static void read_until(int fd, const char *text, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    while (!strstr(buf, text)) {
        assert_true(n + 1 < len);
        ssize_t k = read(fd, buf + n, len - n - 1);
        assert_true(k > 0);
        n += (size_t)k;
        buf[n] = '\0';
    }
}

static json_t *load_json(const char *name)
{
    char p[512];
    fd_path(name, p, sizeof p);
    json_error_t e;
    json_t *j = json_load_file(p, 0, &e);
    if (!j)
        fail_msg("%s: %s", name, e.text);
    return j;
}

/* A long synthetic run, interrupted once by sig: exit 130, the report says
 * so, the JSON has "interrupted": true and the cycle reached, the wave file
 * opens and ends there, no temporary is left. */
static void interrupted_run(int sig)
{
    fd_clear();
    int fd;
    pid_t pid = spawn("run mesh:8x8 sample_cycles=1000000000 --json r.json --waves w.fst", &fd);
    wait_for(".w.fst.");
    sleep_ms(1500); /* past the wave file's header: under ASan on a loaded machine it took over 0.3 s */
    kill(pid, sig);
    char *out;
    assert_int_equal(cmd_finish(pid, fd, &out), 130);
    assert_non_null(strstr(out, "INTERRUPTED at cycle"));
    assert_non_null(strstr(out, "noctua run: interrupted at cycle"));
    free(out);
    char *names = cmd_listing();
    assert_string_equal(names, "r.json\nw.fst\nw.gtkw\n");
    free(names);
    json_t *j = load_json("r.json");
    assert_true(json_is_true(json_object_get(j, "interrupted")));
    json_int_t cycles = json_integer_value(json_object_get(j, "cycles"));
    assert_true(cycles > 0);
    assert_true(cycles < 1000000000);
    json_decref(j);
    char p[512];
    fd_path("w.fst", p, sizeof p);
    void *r = fstReaderOpen(p);
    assert_non_null(r);
    assert_true(fstReaderGetEndTime(r) >= (uint64_t)cycles - 1);
    assert_true(fstReaderGetEndTime(r) <= (uint64_t)cycles);
    fstReaderClose(r);
}

static void test_sigint_run(void **state)
{
    (void)state;
    interrupted_run(SIGINT);
}

static void test_sigterm_run(void **state)
{
    (void)state;
    interrupted_run(SIGTERM);
}

/* A second Ctrl-C while the outputs are written: out at once, nothing
 * left (the wave file of a 16x16 mesh takes a while to close). */
static void test_second_sigint(void **state)
{
    (void)state;
    fd_clear();
    int fd;
    pid_t pid = spawn("run mesh:16x16 sample_cycles=1000000000 --json r.json --waves w.fst", &fd);
    wait_for(".w.fst.");
    sleep_ms(1500);
    kill(pid, SIGINT);
    char buf[4096];
    read_until(fd, "interrupt again", buf, sizeof buf);
    kill(pid, SIGINT);
    char *out;
    assert_int_equal(cmd_finish(pid, fd, &out), 130);
    assert_non_null(strstr(out, "no partial output left"));
    free(out);
    char *names = cmd_listing();
    assert_string_equal(names, "");
    free(names);
}

/* A program: its report says "interrupted" where the result goes. */
static void test_sigint_program(void **state)
{
    (void)state;
    fd_clear();
    char p[512];
    /* one rank computes for a billion cycles */
    cmd_write("long.goal", "num_ranks 2\nrank 0 {\n  l1: calc 1000000000\n  l2: send 1w to 1\n  l2 requires l1\n}\n"
                           "rank 1 {\n  recv 1w from 0\n}\n", p, sizeof p);
    int fd;
    pid_t pid = spawn("run mesh:2 --program-file long.goal --json p.json --waves p.fst", &fd);
    wait_for(".p.fst.");
    sleep_ms(1500); /* past the wave file's header: under ASan on a loaded machine it took over 0.3 s */
    kill(pid, SIGINT);
    char *out;
    assert_int_equal(cmd_finish(pid, fd, &out), 130);
    assert_non_null(strstr(out, "result        interrupted: interrupted at cycle"));
    free(out);
    json_t *j = load_json("p.json");
    assert_string_equal(json_string_value(json_object_get(j, "result")), "interrupted");
    assert_true(json_is_true(json_object_get(j, "interrupted")));
    assert_true(json_integer_value(json_object_get(j, "cycles")) > 1000); /* the cycle reached */
    json_decref(j);
    char *names = cmd_listing();
    assert_string_equal(names, "long.goal\np.fst\np.gtkw\np.json\n");
    free(names);
}

/* A sweep: the points done are kept, the CSV says the sweep is partial. */
static void test_sigint_sweep(void **state)
{
    (void)state;
    fd_clear();
    int fd;
    pid_t pid = spawn("sweep mesh:8x8 --rates 0.01,0.02,0.03 sample_cycles=20000 -j 1 -o s", &fd);
    char buf[8192];
    read_until(fd, "(2/3)", buf, sizeof buf); /* two points done: the third runs */
    kill(pid, SIGINT);
    char *out;
    assert_int_equal(cmd_finish(pid, fd, &out), 130);
    free(out);
    char p[512];
    fd_path("s.csv", p, sizeof p);
    char *csv = cmd_slurp(p, NULL);
    assert_non_null(csv);
    assert_non_null(strstr(csv, "\n0.01,"));
    assert_non_null(strstr(csv, "\n0.02,"));
    assert_null(strstr(csv, "\n0.03,"));
    assert_non_null(strstr(csv, "# interrupted during rate 0.03"));
    assert_non_null(strstr(csv, ": the sweep is partial (2 of 3 rates)"));
    free(csv);
}

/* The same with points in parallel processes (-j 3): the parent passes the
 * signal on, the CSV keeps the points finished in order (each as a whole
 * sweep has it) and says where it was cut. */
static void test_sigint_sweep_jobs(void **state)
{
    (void)state;
    fd_clear();
    char *out;
    assert_int_equal(cmd_run("sweep mesh:8x8 --rates 0.01 sample_cycles=200000 -j 1 -o whole", &out, NULL), 0);
    free(out);
    int fd;
    pid_t pid = spawn("sweep mesh:8x8 --rates 0.01,0.02,0.03,0.04,0.05,0.06 sample_cycles=200000 -j 3 -o p", &fd);
    char buf[8192];
    read_until(fd, "(1/6)", buf, sizeof buf); /* the first point done: later ones run */
    kill(pid, SIGINT);
    assert_int_equal(cmd_finish(pid, fd, &out), 130);
    free(out);
    char p[512];
    fd_path("p.csv", p, sizeof p);
    char *csv = cmd_slurp(p, NULL);
    fd_path("whole.csv", p, sizeof p);
    char *whole = cmd_slurp(p, NULL);
    assert_non_null(csv);
    assert_non_null(whole);
    char *first = strstr(whole, "\n0.01,"), *end = strchr(first + 1, '\n');
    *end = '\0';
    assert_non_null(strstr(csv, first)); /* the finished point as the whole sweep has it */
    assert_non_null(strstr(csv, "# interrupted during rate 0.0"));
    assert_null(strstr(csv, "\n0.06,"));
    free(csv);
    free(whole);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sigint_run),
        cmocka_unit_test(test_sigterm_run),
        cmocka_unit_test(test_second_sigint),
        cmocka_unit_test(test_sigint_program),
        cmocka_unit_test(test_sigint_sweep),
        cmocka_unit_test(test_sigint_sweep_jobs),
    };
    return cmocka_run_group_tests(tests, cmd_setup, cmd_teardown);
}
