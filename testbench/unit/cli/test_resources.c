/* test_resources.c: a run that does not fit in memory is refused before it
 * allocates, with noctua's estimate (exit 2); one that runs out of memory
 * all the same (memory_check=0) ends with exit 4 and a message, never
 * SIGABRT; the readers' and options' limits are those of the engine
 * (docs/reliability.md, "Resources"). The memory is limited with `ulimit
 * -v` (RLIMIT_AS), so the test needs no big machine: 300 MB is far below
 * what the runs ask for. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "../cmd_test.h"

/* `noctua ARGS` with the address space limited to kb kilobytes (0: none). */
static int run_in(long kb, const char *args, char **out)
{
    char cmd[2048];
    const char *bin = getenv("NOCTUA_BINARY");
    assert_non_null(bin);
    if (kb)
        snprintf(cmd, sizeof cmd, "cd '%s' && ulimit -v %ld && exec '%s' %s 2>&1", cmd_tmpdir, kb, bin, args);
    else
        snprintf(cmd, sizeof cmd, "cd '%s' && exec '%s' %s 2>&1", cmd_tmpdir, bin, args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    assert_non_null(buf);
    for (size_t k; (k = fread(buf + n, 1, cap - n - 1, p)) > 0;)
        n += k;
    buf[n] = '\0';
    int st = pclose(p);
    *out = buf;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void expect(long kb, const char *args, int rc, const char *want)
{
    char *out;
    int got = run_in(kb, args, &out);
    if (got != rc || !strstr(out, want))
        fail_msg("noctua %s (ulimit -v %ld): exit %d, wanted %d and '%s' in:\n%s", args, kb, got, rc, want, out);
    free(out);
}

static void test_refused_before_allocating(void **state)
{
    (void)state;
    expect(300000, "run mesh:256x256 --quiet", 2,
           "a simulation of mesh:256x256 (65536 nodes, 326656 ports, 2 VCs of 8 flits, vc router) needs about");
    expect(300000, "run mesh:256x256 --quiet", 2, "left under the address-space limit (ulimit -v)");
    /* the sizes the issue found aborting: refused by the estimate, quickly */
    expect(0, "run hypercube:20 --quiet", 2, "a simulation of hypercube:20 (1048576 nodes");
    expect(300000, "run mesh:1024x1024 --quiet", 2, "a simulation of mesh:1024x1024");
}

/* memory_check=0: the run tries and runs out: exit 4 with a message. */
static void test_out_of_memory_is_exit_4(void **state)
{
    (void)state;
    expect(300000, "run mesh:256x256 memory_check=0 --quiet", 4, "noctua: out of memory (");
}

/* A message of 2^32 - 1 words is a valid program, but its words (kept to
 * check the result) are 64 GB: the engine's estimate refuses it. */
static void test_program_too_large(void **state)
{
    (void)state;
    char p[512];
    cmd_write("big.goal", "num_ranks 2\nrank 0 {\n  send 4294967295w to 1\n}\nrank 1 {\n  recv 4294967295w from 0\n}\n",
              p, sizeof p);
    expect(0, "run mesh:2 --program-file big.goal", 2, "the program engine for 2 operations of 2 ranks on mesh:2 needs about");
    expect(300000, "run mesh:2 --program-file big.goal memory_check=0", 4, "noctua: out of memory (PE engine");
    expect(0, "run mesh:2 --program-file big.goal --quiet", 2, "memory_check=0 to try anyway");
}

/* Options have the engine's limits. */
static void test_option_limits(void **state)
{
    (void)state;
    expect(0, "run hypercube:4 --program broadcast --words 1073741824", 2,
           "--words 1073741824: from 1 to 16777216 (the words a rank's memory may hold)");
    expect(0, "run hypercube:4 --program broadcast --words 0", 2, "--words 0: from 1 to 16777216");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_refused_before_allocating),
        cmocka_unit_test(test_out_of_memory_is_exit_4),
        cmocka_unit_test(test_program_too_large),
        cmocka_unit_test(test_option_limits),
    };
    return cmocka_run_group_tests(tests, cmd_setup, cmd_teardown);
}
