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
#include "routers/rtl/rtl_model.h"

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
    /* (the packet pool counted as it starts: it grows with the packets in
     * flight, docs/scale.md) */
    expect(300000, "run mesh:320x320 --quiet", 2,
           "a simulation of mesh:320x320 (102400 nodes, 510720 ports, 2 VCs of 8 flits, vc router) needs about");
    expect(300000, "run mesh:320x320 --quiet", 2, "left under the address-space limit (ulimit -v)");
    /* the sizes the issue found aborting: refused by the estimate from the
     * SPEC, before the topology is built: in 60 MB, where building it
     * (90 to 170 MB) would run out of memory (exit 4) */
    expect(60000, "run hypercube:20 --quiet", 2, "a simulation of hypercube:20 (1048576 nodes, 22020096 ports");
    expect(60000, "run mesh:2048x2048 --quiet", 2, "a simulation of mesh:2048x2048 (4194304 nodes");
    expect(60000, "run torus:3x3x3x3x3x3x3x3x3x3x3x3x3 --quiet", 2, "(1594323 nodes, 43046721 ports");
    expect(60000, "run mesh:2048x2048 --program broadcast --quiet", 2, "a simulation of mesh:2048x2048");
    expect(300000, "run mesh:1024x1024 --quiet", 2, "a simulation of mesh:1024x1024");
    /* a fabric the SPEC does not size (BSN): refused once built, before the
     * program is made */
    expect(300000, "run bsn:mesh:16x16 --program broadcast --quiet", 2, "a simulation of bsn:mesh:16x16");
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
    expect(4000000, "run mesh:2 --program-file big.goal", 2,
           "the program engine for 2 operations of 2 ranks on mesh:2 needs about 68.7 GB (noctua's estimate)");
    expect(300000, "run mesh:2 --program-file big.goal memory_check=0", 4, "noctua: out of memory (PE engine");
    expect(4000000, "run mesh:2 --program-file big.goal --quiet", 2, "memory_check=0 to try anyway");
}

/* A generator's program is refused before it is made when its memory
 * values alone do not fit (broadcast of 2^24 words to 64 PEs: 34 GB), and
 * under memory_check=0 while it grows, before it takes the memory; the
 * issue's `--words 1073741824` grew without bound. */
static void test_generator_too_large(void **state)
{
    (void)state;
    expect(4000000, "run mesh:8x8 --program broadcast --words 16777216", 2,
           "broadcast on mesh:8x8: the program's 1073741824 memory values (init and expect, 32 bytes each while "
           "it is made) need at least 34.4 GB (noctua's estimate)");
    expect(4000000, "run mesh:8x8 --program alltoall --words 100000 --emit-only --emit x.goal", 2,
           "alltoall on mesh:8x8: the program's 806400000 memory values");
    expect(1000000, "run mesh:8x8 --program broadcast --words 16777216 memory_check=0", 2,
           "it is too large for this machine; make it smaller");
    expect(1000000, "run mesh:8x8 --program alltoall --words 20000 memory_check=0", 2,
           "noctua: program memory values: the program would take about");
}

/* Options have the engine's limits. */
static void test_option_limits(void **state)
{
    (void)state;
    expect(0, "run hypercube:4 --program broadcast --words 1073741824", 2,
           "--words 1073741824: from 1 to 16777216 (the words a rank's memory may hold)");
    expect(0, "run hypercube:4 --program broadcast --words 0", 2, "--words 0: from 1 to 16777216");
    /* packets count their hops in 16 bits */
    expect(0, "run ring:131072 --quiet", 2, "ring:131072: a diameter of 65536 hops, more than the 65535 a packet "
           "counts (16 bits)");
    expect(0, "run mesh:65537x2 --program broadcast --quiet", 2, "a diameter of 65537 hops");
    /* and the packet pool its slots in 32 bits */
    expect(0, "run mesh:256x256 num_vcs=64 vc_buf_size=4096 --quiet", 2,
           "326656 ports with 64 VCs of 4096 flits hold");
}

/* Out of memory in a JSON report (jansson's allocations) and in the
 * Verilated cores (C++'s new) is exit 4 with the message too: the address
 * space is swept from where nothing runs to where everything does, and
 * every run ends with 0 or with 4 and "noctua: out of memory (", never
 * with a signal, nor with exit 2 and "cannot write" (what a failed
 * allocation in jansson looked like), and some runs stop in the report. */
static void test_out_of_memory_anywhere(void **state)
{
    (void)state;
    int ok = 0, in_json = 0;
    for (long kb = 12000; kb <= 40000; kb += 1000) {
        char *out;
        /* (a program run's report: it holds its tables in jansson, where a
           synthetic run's writes its per-channel tables row by row) */
        int rc = run_in(kb, "run mesh:32x32 --program broadcast --quiet --json r.json memory_check=0", &out);
        if (rc != 0 && !(rc == 4 && strstr(out, "noctua: out of memory (")))
            fail_msg("ulimit -v %ld: exit %d:\n%s", kb, rc, out);
        ok += rc == 0;
        in_json += rc == 4 && strstr(out, "out of memory (building a JSON report") != NULL;
        free(out);
    }
    if (!ok || !in_json)
        fail_msg("%d runs finished, %d ran out of memory in the JSON report", ok, in_json);
    if (noc_rtl_model_cache()) /* 16384 cores of 24 kB in 400 MB */
        expect(400000, "run mesh:128x128 router=rtl memory_check=0 sample_cycles=10 warmup_cycles=0 --quiet", 4,
               "noctua: out of memory (an RTL core)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_refused_before_allocating),
        cmocka_unit_test(test_out_of_memory_is_exit_4),
        cmocka_unit_test(test_program_too_large),
        cmocka_unit_test(test_generator_too_large),
        cmocka_unit_test(test_out_of_memory_anywhere),
        cmocka_unit_test(test_option_limits),
    };
    return cmocka_run_group_tests(tests, cmd_setup, cmd_teardown);
}
