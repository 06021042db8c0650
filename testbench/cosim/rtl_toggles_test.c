/* rtl_toggles_test.c: ctest rtl.toggles. rtl_toggles=1 counts the bit
 * toggles of every RTL core's flip-flops (routers/rtl/rtl_core_shim.cpp,
 * the *_q registers of rtl/) and gives their energy beside the event-based
 * one (docs/energy.md, "Activity from the RTL"). Hand-worked cases:
 *   - a core out of reset, clocked with no input, toggles nothing;
 *   - one single-flit packet through a core: its data word passes exactly
 *     two registers, the input VC's FIFO slot (written 0 -> D, kept after
 *     the read) and the output register (0 -> D at the crossing, back to 0
 *     the cycle after: "all 0 when not valid", noc_vc_output_unit.sv), so
 *     the same packet with data ~0 toggles 3 x 64 = 192 bits more than with
 *     data 0, everything else being the same;
 *   - a run: the report's toggle energy is toggles x the table's
 *     toggle_bit (a table of 0.5 pJ: exactly half the count); a run with no
 *     traffic toggles nothing; more load, more toggles; without
 *     rtl_toggles the report has no rtl_toggles; other routers are refused;
 *     with node_stats=1 the routers' own counts add up to the run's; a
 *     one-cycle window after a long warm-up counts at most every
 *     flip-flop once.
 * (cmocka; runs noctua as NOCTUA_BINARY for the runs.) */
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

#include "routers/rtl/rtl_core.h"
#include "routers/rtl/rtl_model.h"

enum { P = 3, V = 2, DEPTH = 8 };

static noc_rtl_model_t model;

static int load_model(void **state)
{
    (void)state;
    char err[512];
    if (noc_rtl_model_load(&model, P, V, DEPTH, 1, 0, 0, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    return 0;
}

static int unload_model(void **state)
{
    (void)state;
    noc_rtl_model_unload(&model);
    return 0;
}

/* Clock core `cycles` times; in `first` (if not NULL) in the first cycle.
 * The toggles of all those cycles; *out_seen: the data word of the flit
 * that left on output port 1 (if one did), else left alone. */
static uint64_t run_core(void *core, const noc_rtl_in_t *first, int cycles, uint64_t *out_seen, int *left)
{
    noc_rtl_in_t idle;
    noc_rtl_out_t out;
    noc_rtl_taps_t taps;
    memset(&idle, 0, sizeof idle);
    uint64_t toggles = 0;
    for (int t = 0; t < cycles; t++) {
        memset(&out, 0, sizeof out);
        model.api->cycle(core, t == 0 && first ? first : &idle, &out, &taps);
        toggles += out.toggles;
        if (out.valid & 2) {
            *out_seen = out.data[1].data;
            (*left)++;
        }
    }
    return toggles;
}

static void idle_core_toggles_nothing(void **state)
{
    (void)state;
    void *core = model.api->create("idle");
    model.api->count_toggles(core, 1);
    uint64_t seen = 0;
    int left = 0;
    assert_int_equal(run_core(core, NULL, 200, &seen, &left), 0);
    assert_int_equal(left, 0);
    model.api->destroy(core);
}

/* One head-and-tail flit on input port 2, VC 0, routed to output port 1,
 * data d; the toggles of 30 cycles (it leaves within a few). */
static uint64_t one_flit(uint64_t d, int count)
{
    noc_rtl_in_t in;
    memset(&in, 0, sizeof in);
    in.valid = in.head = in.tail = 1u << 2;
    in.vc[2] = 0;
    in.port[2] = 1;
    in.cls[2] = 0;
    in.data[2].data = d;
    in.data[2].tag = 0;
    void *core = model.api->create("one");
    if (count)
        model.api->count_toggles(core, 1);
    uint64_t seen = ~d;
    int left = 0;
    uint64_t toggles = run_core(core, &in, 30, &seen, &left);
    assert_int_equal(left, 1);
    assert_true(seen == d);
    model.api->destroy(core);
    return toggles;
}

static void one_flit_toggles_its_data(void **state)
{
    (void)state;
    uint64_t zero = one_flit(0, 1), ones = one_flit(~UINT64_C(0), 1);
    assert_true(zero > 0); /* pointers, counts, VC state, credits, valid bits */
    assert_int_equal(ones - zero, 3 * 64);
    /* half the bits: half of it */
    assert_int_equal(one_flit(UINT64_C(0xffffffff00000000), 1) - zero, 3 * 32);
    /* not counting: nothing read */
    assert_int_equal(one_flit(~UINT64_C(0), 0), 0);
}

/* `noctua run ARGS --json -` parsed; its exit status in *status. */
static json_t *run_json(const char *args, int *status)
{
    const char *bin = getenv("NOCTUA_BINARY");
    assert_non_null(bin);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' run %s --json - 2>/dev/null", bin, args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    json_error_t e;
    json_t *j = json_loadf(p, JSON_DISABLE_EOF_CHECK, &e);
    int st = pclose(p);
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return j;
}

#define RUN "mesh:2x2 router=rtl num_vcs=2 vc_buf_size=8 warmup_cycles=100 sample_cycles=1000 "

static json_int_t toggles_of(const char *args, double *pj)
{
    int st;
    json_t *j = run_json(args, &st);
    assert_int_equal(st, 0);
    assert_non_null(j);
    json_t *t = json_object_get(json_object_get(j, "energy"), "rtl_toggles");
    assert_non_null(t);
    json_int_t n = json_integer_value(json_object_get(t, "toggles"));
    if (pj)
        *pj = json_real_value(json_object_get(t, "dynamic_pj"));
    json_decref(j);
    return n;
}

static void run_energy_is_toggles_times_table(void **state)
{
    (void)state;
    char path[256];
    const char *base = getenv("TMPDIR"); /* (as cmd_test.h's scratch folders) */
    snprintf(path, sizeof path, "%s/noc_toggles_XXXXXX", base && *base ? base : "/tmp");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char *table = "name = half\nflit_bits = 64\nbuffer_write = 1\nbuffer_read = 1\nroute = 0\nvc_alloc = 0\n"
                        "sw_alloc = 0\ncrossbar = 1\ncredit = 0\ninject = 1\neject = 1\nleak_buffer_bit = 0\n"
                        "clock_ghz = 1\nlink_bit_mm = 0\nstatic_link_bit_mm = 0\npitch_mm = 1\nleak_crossbar = 0\n"
                        "clock_output_bit = 0\ntoggle_bit = 0.5\n";
    assert_int_equal(write(fd, table, strlen(table)), (ssize_t)strlen(table));
    close(fd);
    char args[512];
    double pj;
    snprintf(args, sizeof args, RUN "injection_rate=0.2 rtl_toggles=1 energy=%s", path);
    json_int_t n = toggles_of(args, &pj);
    assert_true(n > 0);
    assert_true(pj == 0.5 * (double)n); /* (a half-integer: printed exactly) */
    /* the default table: toggles x 0.00380635 pJ (to the report's 10
     * significant digits) */
    json_int_t n2 = toggles_of(RUN "injection_rate=0.2 rtl_toggles=1 energy=default", &pj);
    assert_int_equal(n2, n);
    double want = (double)n * 0.00380635;
    assert_true(pj > want * (1 - 1e-9) && pj < want * (1 + 1e-9));
    unlink(path);
}

static void run_idle_and_load(void **state)
{
    (void)state;
    assert_int_equal(toggles_of(RUN "injection_rate=0 rtl_toggles=1 energy=default", NULL), 0);
    json_int_t lo = toggles_of(RUN "injection_rate=0.05 rtl_toggles=1 energy=default", NULL);
    json_int_t hi = toggles_of(RUN "injection_rate=0.2 rtl_toggles=1 energy=default", NULL);
    assert_true(lo > 0);
    assert_true(hi > 2 * lo); /* four times the flits */
}

/* Only the counted cycles count: a window of one cycle after 2000 cycles
 * of warm-up can toggle at most every flip-flop of the 4 cores once. A
 * 3-port core of 2 VCs of 8 flits has 6 FIFOs of 8 slots of 133 bits (the
 * head's route, port and class, 3 bits; head, tail, the 128-bit payload:
 * rtl/noc_pkg.sv), 3 output registers of 130 bits (head, tail, payload),
 * and fewer than 500 bits besides
 * (pointers, counts, VC state, credits, arbiters). The warm-up alone
 * toggles far more (some 170,000 bits at this load). */
static void run_counts_only_the_window(void **state)
{
    (void)state;
    json_int_t n = toggles_of("mesh:2x2 router=rtl num_vcs=2 vc_buf_size=8 warmup_cycles=2000 sample_cycles=1 "
                              "injection_rate=0.2 rtl_toggles=1 energy=default", NULL);
    assert_true(n <= 4 * (6 * 8 * 133 + 3 * 130 + 500));
}

/* With node_stats=1 every router has its own count; they add up to the
 * run's, and on mesh:2x2 under uniform traffic every router toggles. */
static void run_per_router(void **state)
{
    (void)state;
    int st;
    json_t *j = run_json(RUN "injection_rate=0.2 rtl_toggles=1 energy=default node_stats=1", &st);
    assert_int_equal(st, 0);
    json_t *e = json_object_get(j, "energy"), *rows = json_object_get(e, "routers");
    assert_int_equal(json_array_size(rows), 4);
    json_int_t sum = 0;
    for (size_t i = 0; i < 4; i++) {
        json_int_t n = json_integer_value(json_object_get(json_object_get(json_array_get(rows, i), "rtl_toggles"),
                                                          "toggles"));
        assert_true(n > 0);
        sum += n;
    }
    assert_int_equal(sum, json_integer_value(json_object_get(json_object_get(e, "rtl_toggles"), "toggles")));
    json_decref(j);
}

static void run_off_and_refused(void **state)
{
    (void)state;
    int st;
    json_t *j = run_json(RUN "injection_rate=0.2 energy=default", &st);
    assert_int_equal(st, 0);
    assert_non_null(json_object_get(j, "energy"));
    assert_null(json_object_get(json_object_get(j, "energy"), "rtl_toggles"));
    json_decref(j);
    j = run_json("mesh:2x2 router=vc injection_rate=0.2 rtl_toggles=1 energy=default", &st);
    assert_int_equal(st, 2);
    json_decref(j);
    j = run_json(RUN "injection_rate=0.2 rtl_toggles=1", &st);
    assert_int_equal(st, 2);
    json_decref(j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(idle_core_toggles_nothing),
        cmocka_unit_test(one_flit_toggles_its_data),
        cmocka_unit_test(run_energy_is_toggles_times_table),
        cmocka_unit_test(run_idle_and_load),
        cmocka_unit_test(run_counts_only_the_window),
        cmocka_unit_test(run_per_router),
        cmocka_unit_test(run_off_and_refused),
    };
    return cmocka_run_group_tests(tests, load_model, unload_model);
}
