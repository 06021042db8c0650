/* test_gen_shift.c: the circular q-shift generator (traffic/gen_shift.c)
 * against Grama et al. 4.6: every variant on every fabric it supports, at
 * two sizes at least, for every q (and q >= p, q < 0, q = 0), under the
 * papers' unit timing (with and without step barriers) and the default
 * router, with the result check passing; the unit-time counts of the
 * paper's algorithms (rowcol: m per unit shift, row + compensation +
 * column; gray-forward: m per step, 2 per phase but 1 for the 1-shift, at
 * most 2 log p - 1; gray: forward and backward phases, the cheapest mix by
 * enumeration of every signed-digit form of q, at most log p; ecube: longest path log p - g(q) plus m - 1); the e-cube
 * q-shift using no link for two messages (every q on hypercube:3 and :4);
 * the gray phases congestion-free; clear errors for bad requests. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/pe.h"
#include "model/sim.h"
#include "routers/registry.h"
#include "traffic/gen.h"

extern const noc_generator_t noc_gen_shift;

enum { DEFAULT_ROUTER = NOC_TIMING_ROUTER, UNIT = NOC_TIMING_UNIT, UNIT_SYNC = NOC_TIMING_UNIT_SYNC };

#define MAX_STEPS 16

typedef struct outcome {
    int ok;                    /* ran, finished and checked */
    char err[512];
    uint64_t cycles;
    int n_steps;
    char step[MAX_STEPS][16];
    uint64_t step_len[MAX_STEPS]; /* last_end - first_start */
    uint64_t step_msgs[MAX_STEPS];
    uint64_t max_link_flits;   /* most flits any network link carried */
    uint64_t flit_hops;        /* flits times links, all network links */
    uint64_t messages;
} outcome_t;

static noc_gen_args_t args(int64_t q, int words, const char *variant)
{
    noc_gen_args_t a;
    noc_gen_args_default(&a);
    a.q = q;
    a.words = words;
    a.variant = variant;
    a.seed = 7;
    return a;
}

static void collect(noc_sim_t *s, outcome_t *o)
{
    const noc_pe_stats_t *st = noc_pe_stats(noc_sim_pe(s));
    o->cycles = st->cycles;
    o->messages = st->messages;
    o->n_steps = st->n_steps < MAX_STEPS ? st->n_steps : MAX_STEPS;
    for (int k = 0; k < o->n_steps; k++) {
        snprintf(o->step[k], sizeof o->step[k], "%s", st->steps[k].name);
        o->step_len[k] = st->steps[k].last_end - st->steps[k].first_start;
        o->step_msgs[k] = st->steps[k].messages;
    }
    for (int c = 0; c < noc_sim_n_channels(s); c++) {
        int from, to, local, cls;
        noc_sim_channel_ends(s, c, &from, &to, &local, &cls);
        if (local)
            continue;
        uint64_t f = noc_sim_link_stats(s, c)->flits;
        o->flit_hops += f;
        if (f > o->max_link_flits)
            o->max_link_flits = f;
    }
}

static outcome_t run(const char *spec, int timing, const noc_gen_args_t *a)
{
    outcome_t o;
    memset(&o, 0, sizeof o);
    char err[512];
    noc_config_t cfg;
    noc_config_defaults(&cfg);
    noc_config_timing(&cfg, timing);
    noc_topo_t *t = noc_topo_create(spec, 0, err, sizeof err);
    if (!t)
        fail_msg("%s", err);
    noc_program_t *p = noc_gen_shift.make(t, a, err, sizeof err);
    if (!p)
        fail_msg("shift on %s: %s", spec, err);
    noc_traffic_t none = { NULL, NULL };
    noc_sim_t *s = noc_sim_create(&cfg, noc_topo_graph(t), none, err, sizeof err);
    if (!s)
        fail_msg("%s", err);
    if (noc_pe_attach(s, p, err, sizeof err) != 0)
        fail_msg("%s", err);
    noc_run_status_t st = noc_pe_run(s);
    snprintf(o.err, sizeof o.err, "status %d", (int)st);
    o.ok = st == NOC_RUN_OK && noc_pe_finished(noc_sim_pe(s), o.err, sizeof o.err) == 0 &&
           noc_pe_check(s, o.err, sizeof o.err) == 0;
    collect(s, &o);
    noc_sim_destroy(s);
    noc_prog_free(p);
    noc_topo_destroy(t);
    return o;
}

/* Run and insist on the right result. */
static outcome_t run_ok(const char *spec, int timing, int64_t q, int words, const char *variant)
{
    noc_gen_args_t a = args(q, words, variant);
    outcome_t o = run(spec, timing, &a);
    if (!o.ok)
        fail_msg("shift q=%lld m=%d variant %s on %s (timing %d): %s", (long long)q, words,
                 variant ? variant : "auto", spec, timing, o.err);
    return o;
}

static int nodes(const char *spec)
{
    char err[256];
    noc_topo_t *t = noc_topo_create(spec, 0, err, sizeof err);
    if (!t)
        fail_msg("%s", err);
    int n = noc_topo_nodes(t);
    noc_topo_destroy(t);
    return n;
}

/* ---- every variant, every fabric, every timing ---- */

typedef struct where {
    const char *variant;
    const char *spec;
} where_t;

static const where_t EVERYWHERE[] = {
    { "rowcol", "torus:4x4" }, { "rowcol", "torus:5x5" }, { "rowcol", "torus:3x5" },
    { "rowcol", "mesh:4x4" },  { "rowcol", "mesh:3x4" },  { "rowcol", "ring:6" },
    { "rowcol", "ring:9" },    { "gray", "hypercube:3" }, { "gray", "hypercube:4" },
    { "gray-forward", "hypercube:3" }, { "gray-forward", "hypercube:4" },
    { "ecube", "hypercube:3" }, { "ecube", "hypercube:4" }, { "direct", "bsn:ring:3" },
    { "direct", "bsn:ring:4" }, { "direct", "otis:mesh:2x2" }, { "direct", "otis:ring:4" },
    { "direct", "pyramid:2" }, { "direct", "pyramid:3" }, { "direct", "complete:5" },
    { "direct", "complete:8" }, { "direct", "circulant:10:1,3" }, { "direct", "torus:3x3x3" },
    { "direct", "mesh:3x3x2" }, { "direct", "hypercube:3" },
};

static void test_every_variant_everywhere(void **state)
{
    (void)state;
    for (size_t w = 0; w < sizeof EVERYWHERE / sizeof EVERYWHERE[0]; w++) {
        int p = nodes(EVERYWHERE[w].spec);
        /* every q on small fabrics, a spread on larger ones; and m = 1, 3 */
        int step = p <= 16 ? 1 : p / 7;
        for (int q = 0; q <= p; q += step)
            for (int timing = DEFAULT_ROUTER; timing <= UNIT_SYNC; timing++)
                for (int m = 1; m <= 3; m += 2)
                    run_ok(EVERYWHERE[w].spec, timing, q, m, EVERYWHERE[w].variant);
    }
}

/* auto: rowcol on tori, meshes and rings, gray on hypercubes, direct elsewhere */
static void test_auto_picks_the_fabrics_own(void **state)
{
    (void)state;
    static const where_t own[] = {
        { "rowcol", "torus:4x4" }, { "rowcol", "mesh:3x4" }, { "rowcol", "ring:6" },
        { "gray", "hypercube:4" }, { "direct", "bsn:ring:4" }, { "direct", "torus:3x3x3" },
    };
    for (size_t w = 0; w < sizeof own / sizeof own[0]; w++)
        for (int q = 1; q < 6; q++) {
            outcome_t a = run_ok(own[w].spec, UNIT_SYNC, q, 2, NULL);
            outcome_t b = run_ok(own[w].spec, UNIT_SYNC, q, 2, own[w].variant);
            assert_int_equal(a.cycles, b.cycles);
            assert_int_equal(a.messages, b.messages);
            assert_int_equal(a.n_steps, b.n_steps);
        }
}

/* ---- the mesh: row shifts, compensating column shift, column shifts ---- */

/* The paper's count of unit shifts for a q-shift on a C x R wraparound mesh
 * (row-major): min(q mod C, C - q mod C) along the rows, one compensating
 * column shift if q mod C != 0, min(floor(q/C), R - floor(q/C)) along the
 * columns. */
static int paper_unit_shifts(int q, int cols, int rows)
{
    int b = q % cols, a = q / cols;
    int row = b < cols - b ? b : cols - b;
    int col = a < rows - a ? a : rows - a;
    return row + (b != 0 && rows > 1) + col;
}

static void test_rowcol_counts(void **state)
{
    (void)state;
    static const struct { const char *spec; int cols, rows, side; } grids[] = {
        { "torus:4x4", 4, 4, 4 }, { "torus:5x5", 5, 5, 5 }, { "torus:6x6", 6, 6, 6 },
        { "torus:8x8", 8, 8, 8 }, { "torus:3x5", 3, 5, 0 }, { "ring:9", 9, 1, 0 },
    };
    for (size_t g = 0; g < sizeof grids / sizeof grids[0]; g++) {
        int p = grids[g].cols * grids[g].rows;
        for (int q = 1; q < p; q++)
            for (int m = 1; m <= 4; m += 3) {
                int units = paper_unit_shifts(q, grids[g].cols, grids[g].rows);
                outcome_t o = run_ok(grids[g].spec, UNIT_SYNC, q, m, "rowcol");
                assert_int_equal(o.cycles, (uint64_t)(units * m));
                /* without barriers: the same (every move waits for the one before) */
                assert_int_equal(run_ok(grids[g].spec, UNIT, q, m, "rowcol").cycles, o.cycles);
                /* every unit shift congestion-free: one hop, m words, m cycles */
                assert_true(o.max_link_flits <= (uint64_t)(units * m));
                if (grids[g].side) {
                    int s = grids[g].side;
                    /* at most floor(sqrt p / 2) each way, plus the compensation,
                     * within the paper's (t_s + t_w m)(sqrt p + 1) */
                    assert_true(units <= 2 * (s / 2) + 1);
                    assert_true(o.cycles <= (uint64_t)((s + 1) * m));
                }
            }
    }
    /* Figure 4.22: the 5-shift on 4 x 4 is one row shift, a compensating
     * column shift and one column shift */
    outcome_t o = run_ok("torus:4x4", UNIT_SYNC, 5, 1, "rowcol");
    assert_int_equal(o.n_steps, 3);
    assert_string_equal(o.step[0], "row");
    assert_string_equal(o.step[1], "compensate");
    assert_string_equal(o.step[2], "column");
    assert_int_equal(o.step_msgs[0], 16);
    assert_int_equal(o.step_msgs[1], 4); /* one column: the blocks that wrapped */
    assert_int_equal(o.step_msgs[2], 16);
    assert_int_equal(o.cycles, 3);
    /* the 3-shift: one backward row shift, then the compensation for the
     * twelve blocks of columns 1..3 (row-major labels need it) */
    o = run_ok("torus:4x4", UNIT_SYNC, 3, 1, "rowcol");
    assert_int_equal(o.n_steps, 2);
    assert_int_equal(o.step_msgs[1], 12);
    assert_int_equal(o.cycles, 2);
}

/* A mesh has no wraparound links: the wrapped unit moves travel back along
 * the whole line, so a unit shift costs (k - 1) + m - 1 cycles, not m. */
static void test_rowcol_on_a_mesh(void **state)
{
    (void)state;
    outcome_t o = run_ok("mesh:4x4", UNIT_SYNC, 1, 1, "rowcol");
    assert_int_equal(o.cycles, 3 + 3); /* a row shift and the compensation, 3 hops each */
    o = run_ok("mesh:4x4", UNIT_SYNC, 4, 2, "rowcol");
    assert_int_equal(o.cycles, 3 + 2 - 1); /* one column shift */
}

/* ---- the hypercube ---- */

static int popcount(int x)
{
    int c = 0;
    for (; x; x &= x - 1)
        c++;
    return c;
}

/* gray-forward: the book's phases, one per set bit of q (Figure 4.23) */
static void test_gray_forward_counts(void **state)
{
    (void)state;
    for (int d = 2; d <= 5; d++) {
        char spec[32];
        snprintf(spec, sizeof spec, "hypercube:%d", d);
        int p = 1 << d;
        for (int q = 1; q < p; q++)
            for (int m = 1; m <= 4; m += 3) {
                /* 2 steps a phase, 1 for the 1-shift */
                int steps = 2 * popcount(q) - (q & 1);
                outcome_t o = run_ok(spec, UNIT_SYNC, q, m, "gray-forward");
                assert_int_equal(o.cycles, (uint64_t)(steps * m));
                assert_true(steps <= 2 * d - 1); /* Equation 4.11 */
                assert_int_equal(run_ok(spec, UNIT, q, m, "gray-forward").cycles, o.cycles);
                /* one step per set bit, highest first, each congestion-free:
                 * hops * m cycles and p messages a hop */
                assert_int_equal(o.n_steps, popcount(q));
                for (int k = 0, j = d - 1; j >= 0; j--) {
                    if (!(q >> j & 1))
                        continue;
                    char name[16];
                    snprintf(name, sizeof name, "shift%d", 1 << j);
                    assert_string_equal(o.step[k], name);
                    assert_int_equal(o.step_len[k], (uint64_t)((j ? 2 : 1) * m));
                    assert_int_equal(o.step_msgs[k], (uint64_t)((j ? 2 : 1) * p));
                    k++;
                }
            }
    }
    /* Figure 4.23: the 5-shift on eight nodes, a 4-shift (two steps) and a
     * 1-shift (one step) */
    outcome_t o = run_ok("hypercube:3", UNIT_SYNC, 5, 1, "gray-forward");
    assert_int_equal(o.cycles, 3);
}

/* The cheapest mix of forward and backward shifts (Equation 4.11's
 * remark): q = sum e_j 2^j mod p, e_j in {-1, 0, +1}, a 2^j phase costing
 * one step for j = 0 and two otherwise; the least cost over all 3^d such
 * vectors, by enumeration. */
static int mix_steps(int q, int d)
{
    int p = 1 << d, best = 1 << 30, n = 1;
    for (int j = 0; j < d; j++)
        n *= 3;
    for (int code = 0; code < n; code++) {
        int sum = 0, cost = 0, c = code;
        for (int j = 0; j < d; j++, c /= 3) {
            int e = c % 3 - 1;
            sum += e * (1 << j);
            cost += e ? (j ? 2 : 1) : 0;
        }
        if (((sum - q) % p + p) % p == 0 && cost < best)
            best = cost;
    }
    return best;
}

/* Read a phase's step name "shift4" / "shift-2" as +4 / -2. */
static int phase_of(const char *name)
{
    assert_true(strncmp(name, "shift", 5) == 0);
    return atoi(name + 5);
}

static void test_gray_mix_counts(void **state)
{
    (void)state;
    for (int d = 1; d <= 5; d++) {
        char spec[32];
        snprintf(spec, sizeof spec, "hypercube:%d", d);
        int p = 1 << d;
        for (int q = 1; q < p; q++)
            for (int m = 1; m <= 4; m += 3) {
                int steps = mix_steps(q, d);
                assert_true(steps <= d); /* the book's bound: log p steps */
                outcome_t o = run_ok(spec, UNIT_SYNC, q, m, "gray");
                if (o.cycles != (uint64_t)(steps * m))
                    fail_msg("%s q=%d m=%d: %llu cycles, the cheapest mix is %d steps", spec, q,
                             m, (unsigned long long)o.cycles, steps);
                assert_int_equal(run_ok(spec, UNIT, q, m, "gray").cycles, o.cycles);
                /* the phases: signed powers of two, largest first, summing to q
                 * mod p, each congestion-free (hops * m cycles, p messages a hop) */
                int sum = 0, prev = p + 1;
                for (int k = 0; k < o.n_steps; k++) {
                    int e = phase_of(o.step[k]), mag = e < 0 ? -e : e;
                    assert_true(mag < prev && (mag & (mag - 1)) == 0);
                    prev = mag;
                    sum += e;
                    int hops = mag == 1 ? 1 : 2;
                    assert_int_equal(o.step_len[k], (uint64_t)(hops * m));
                    assert_int_equal(o.step_msgs[k], (uint64_t)(hops * p));
                }
                assert_int_equal(((sum - q) % p + p) % p, 0);
            }
    }
    /* the book's example: on eight nodes a 6-shift is one backward 2-shift */
    outcome_t o = run_ok("hypercube:3", UNIT_SYNC, 6, 1, "gray");
    assert_int_equal(o.n_steps, 1);
    assert_string_equal(o.step[0], "shift-2");
    assert_int_equal(o.cycles, 2);
    /* where forward-only needs 2 log p - 1 (q = p - 1), the mix needs 1 */
    o = run_ok("hypercube:4", UNIT_SYNC, 15, 1, "gray");
    assert_int_equal(o.cycles, 1);
    assert_int_equal(run_ok("hypercube:4", UNIT_SYNC, 15, 1, "gray-forward").cycles, 7);
}

/* g(q): the highest j with 2^j dividing q. */
static int two_adic(int q)
{
    int g = 0;
    while (!(q >> g & 1))
        g++;
    return g;
}

/* With e-cube routing no link carries two messages, for any q (Figure
 * 4.24, Problem 4.22); the longest path is log p - g(q) links (Problem
 * 4.23), so the shift takes log p - g(q) + m - 1 cycles. */
static void test_ecube_congestion_free(void **state)
{
    (void)state;
    for (int d = 3; d <= 5; d++) {
        char spec[32];
        snprintf(spec, sizeof spec, "hypercube:%d", d);
        int p = 1 << d;
        for (int q = 1; q < p; q++)
            for (int m = 1; m <= 4; m += 3) {
                outcome_t o = run_ok(spec, UNIT_SYNC, q, m, "ecube");
                /* m flits on a link: one message at most */
                if (o.max_link_flits > (uint64_t)m)
                    fail_msg("%s q=%d m=%d: a link carried %llu flits", spec, q, m,
                             (unsigned long long)o.max_link_flits);
                assert_int_equal(o.cycles, (uint64_t)(d - two_adic(q) + m - 1));
                assert_int_equal(run_ok(spec, UNIT, q, m, "ecube").cycles, o.cycles);
                assert_int_equal(o.messages, (uint64_t)p);
            }
    }
}

/* ---- q reduced mod p; q = 0 ---- */

static void test_q_reduced(void **state)
{
    (void)state;
    static const where_t w[] = {
        { "rowcol", "torus:4x4" }, { "gray", "hypercube:3" }, { "ecube", "hypercube:3" },
        { "direct", "bsn:ring:4" }, { "gray-forward", "hypercube:4" },
    };
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) {
        int p = nodes(w[i].spec);
        for (int q = 0; q < p; q += 3) {
            outcome_t o = run_ok(w[i].spec, UNIT_SYNC, q, 2, w[i].variant);
            outcome_t up = run_ok(w[i].spec, UNIT_SYNC, q + 2 * p, 2, w[i].variant);
            outcome_t down = run_ok(w[i].spec, UNIT_SYNC, q - p, 2, w[i].variant);
            assert_int_equal(o.cycles, up.cycles);
            assert_int_equal(o.cycles, down.cycles);
            assert_int_equal(o.messages, up.messages);
        }
        /* q = 0 and q = p: no messages, every PE keeps its block, checked */
        for (int q = 0; q <= p; q += p)
            for (int timing = DEFAULT_ROUTER; timing <= UNIT_SYNC; timing++) {
                outcome_t o = run_ok(w[i].spec, timing, q, 3, w[i].variant);
                assert_int_equal(o.messages, 0);
                assert_int_equal(o.cycles, 0);
            }
    }
}

/* ---- bad requests ---- */

static void expect_error(const char *spec, const char *variant, int words, const char *what)
{
    char err[512] = "";
    noc_topo_t *t = noc_topo_create(spec, 0, err, sizeof err);
    if (!t)
        fail_msg("%s", err);
    noc_gen_args_t a = args(1, words, variant);
    noc_program_t *p = noc_gen_shift.make(t, &a, err, sizeof err);
    noc_topo_destroy(t);
    if (p) {
        noc_prog_free(p);
        fail_msg("shift variant %s on %s made a program", variant ? variant : "auto", spec);
    }
    if (strncmp(err, "shift", 5) != 0 || !strstr(err, what))
        fail_msg("got \"%s\", expected \"shift...%s\"", err, what);
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("hypercube:3", "rowcol", 1, "2-D torus");
    expect_error("torus:3x3x3", "rowcol", 1, "torus:3x3x3");
    expect_error("bsn:ring:4", "rowcol", 1, "rowcol");
    expect_error("torus:4x4", "gray", 1, "needs a hypercube");
    expect_error("mesh:4x4", "ecube", 1, "mesh:4x4");
    expect_error("hypercube:3", "snake", 1, "unknown variant 'snake'");
    expect_error("torus:4x4", NULL, 0, "--words 0");
    expect_error("hypercube:3", "gray", -2, "--words -2");
}

/* ---- facts ---- */

static void test_facts(void **state)
{
    (void)state;
    char err[256], buf[1024];
    noc_topo_t *t = noc_topo_create("torus:4x4", 0, err, sizeof err);
    noc_gen_args_t a = args(5, 2, NULL);
    noc_gen_shift.facts(t, &a, buf, sizeof buf);
    assert_non_null(strstr(buf, "variant = rowcol"));
    assert_non_null(strstr(buf, "unit_shifts = 3"));
    assert_non_null(strstr(buf, "unit_time_cycles = 6"));
    noc_topo_destroy(t);
    t = noc_topo_create("hypercube:3", 0, err, sizeof err);
    a = args(6, 1, "ecube");
    noc_gen_shift.facts(t, &a, buf, sizeof buf);
    assert_non_null(strstr(buf, "longest_route = 2 hops"));
    assert_non_null(strstr(buf, "log p - g(q) = 2"));
    a = args(5, 1, NULL);
    noc_gen_shift.facts(t, &a, buf, sizeof buf);
    assert_non_null(strstr(buf, "variant = gray"));
    assert_non_null(strstr(buf, "steps = 3"));
    a = args(6, 1, NULL);
    noc_gen_shift.facts(t, &a, buf, sizeof buf);
    assert_non_null(strstr(buf, "phases = 1 (1 backward)"));
    assert_non_null(strstr(buf, "steps = 2"));
    assert_non_null(strstr(buf, "log p = 3"));
    a = args(6, 1, "gray-forward");
    noc_gen_shift.facts(t, &a, buf, sizeof buf);
    assert_non_null(strstr(buf, "steps = 4"));
    assert_non_null(strstr(buf, "2 log p - 1) = 5"));
    noc_topo_destroy(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_variant_everywhere),
        cmocka_unit_test(test_auto_picks_the_fabrics_own),
        cmocka_unit_test(test_rowcol_counts),
        cmocka_unit_test(test_rowcol_on_a_mesh),
        cmocka_unit_test(test_gray_forward_counts),
        cmocka_unit_test(test_gray_mix_counts),
        cmocka_unit_test(test_ecube_congestion_free),
        cmocka_unit_test(test_q_reduced),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_facts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
