/* test_gen_bsp.c: the BSP generators of traffic/gen_bsp.c (broadcast-1phase,
 * broadcast-2phase, hrelation): the result check passes on every fabric
 * kind at two sizes at least, under the papers' unit timing with step
 * barriers, unit timing without them, and the default vc router; the
 * measured words per superstep equal the facts' V and the flit-hops the
 * routes' lengths; the facts (h_s, h_r, h, V, balance, the BSP cost) on
 * hand-checked cases; the counts that follow from the unit-time model
 * exactly (a shift on a ring: h cycles); two-phase beats one-phase for long
 * vectors; bad arguments give a message naming the program. */
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

extern const noc_generator_t noc_gen_broadcast_1phase, noc_gen_broadcast_2phase, noc_gen_hrelation;

enum timing { UNIT_SYNC, UNIT, ROUTER };
static const char *const timing_name[] = { "unit+sync", "unit", "router" };

/* What one run measured. */
typedef struct measured {
    uint64_t cycles;
    int n_steps;
    uint64_t words[4], messages[4], flit_hops[4];
    uint64_t route_flit_hops[4]; /* sum over the program's sends of words x route hops */
} measured_t;

static void configure(noc_config_t *cfg, enum timing tm)
{
    char err[256];
    noc_config_defaults(cfg);
    noc_config_timing(cfg, tm == ROUTER ? NOC_TIMING_ROUTER : tm == UNIT ? NOC_TIMING_UNIT : NOC_TIMING_UNIT_SYNC);
    if (tm == ROUTER)
        return;
    /* the papers' buffers are unbounded: 1024 flits per VC, which these
     * programs never fill, as in docs/algorithms/bsp.md */
    assert_int_equal(noc_config_set(cfg, "vc_buf_size", "1024", err, sizeof err), 0);
}

/* Sum of words x hops of p's sends, per step. */
static void route_hops(const noc_topo_t *t, const noc_program_t *p, measured_t *m)
{
    for (int r = 0; r < p->n_ranks; r++)
        for (uint32_t i = 0; i < p->ranks[r].n_ops; i++) {
            const noc_op_t *o = &p->ops[p->ranks[r].op_start + i];
            if (o->kind == NOC_OP_SEND && o->step >= 0 && o->step < 4)
                m->route_flit_hops[o->step] += (uint64_t)o->words * (uint64_t)noc_topo_route_hops(t, r, o->peer);
        }
}

/* Make g's program on spec with args a, run it under timing tm, check the
 * result; the measurements into *m. */
static void run(const char *spec, const noc_generator_t *g, const noc_gen_args_t *a, enum timing tm,
                measured_t *m)
{
    char err[512];
    noc_config_t cfg;
    configure(&cfg, tm);
    noc_topo_t *t = noc_topo_create(spec, 0, err, sizeof err);
    if (!t)
        fail_msg("%s: %s", spec, err);
    noc_program_t *p = g->make(t, a, err, sizeof err);
    if (!p)
        fail_msg("%s on %s: %s", g->name, spec, err);
    noc_traffic_t none = { NULL, NULL };
    noc_sim_t *s = noc_sim_create(&cfg, noc_topo_graph(t), none, err, sizeof err);
    if (!s || noc_pe_attach(s, p, err, sizeof err) != 0)
        fail_msg("%s on %s: %s", g->name, spec, err);
    assert_int_equal(noc_pe_run(s), NOC_RUN_OK);
    const noc_pe_t *pe = noc_sim_pe(s);
    if (noc_pe_finished(pe, err, sizeof err) != 0 || noc_pe_check(s, err, sizeof err) != 0)
        fail_msg("%s %s on %s (%s): %s", g->name, a->variant ? a->variant : "", spec,
                 timing_name[tm], err);
    const noc_pe_stats_t *st = noc_pe_stats(pe);
    memset(m, 0, sizeof *m);
    m->cycles = st->cycles;
    m->n_steps = st->n_steps;
    for (int k = 0; k < st->n_steps && k < 4; k++) {
        m->words[k] = st->steps[k].words;
        m->messages[k] = st->steps[k].messages;
        m->flit_hops[k] = st->steps[k].flit_hops;
    }
    route_hops(t, p, m);
    noc_sim_destroy(s);
    noc_prog_free(p);
    noc_topo_destroy(t);
}

/* The value of "key = N" in g's facts for (spec, a); -1 if absent. */
static long long fact(const char *spec, const noc_generator_t *g, const noc_gen_args_t *a,
                      const char *key)
{
    char err[256], buf[4096];
    noc_topo_t *t = noc_topo_create(spec, 0, err, sizeof err);
    assert_non_null(t);
    buf[0] = '\0';
    g->facts(t, a, buf, sizeof buf);
    noc_topo_destroy(t);
    char want[80];
    snprintf(want, sizeof want, "\n%s = ", key);
    char *line = NULL;
    char tmp[4100];
    snprintf(tmp, sizeof tmp, "\n%s", buf);
    line = strstr(tmp, want);
    return line ? atoll(line + strlen(want)) : -1;
}

static noc_gen_args_t args(int words, int h, const char *variant)
{
    noc_gen_args_t a;
    noc_gen_args_default(&a);
    a.words = words;
    a.h = h;
    a.variant = variant;
    return a;
}

static const char *const FABRICS[] = {
    "ring:5",      "ring:8",      "mesh:4x4",    "mesh:3x5",   "torus:4x4",  "torus:8x8",
    "hypercube:3", "hypercube:6", "bsn:ring:3",  "bsn:ring:4", "otis:ring:3", "otis:ring:4",
    "pyramid:1",   "pyramid:2",   "complete:6",  "complete:9", NULL,
};

/* Every generator and variant on every fabric under the three timings: the
 * result is right, every superstep moved its V words, and the flits
 * travelled the routes' lengths. */
static void test_results_everywhere(void **state)
{
    (void)state;
    const struct { const noc_generator_t *g; const char *variant; int words, h; } cases[] = {
        { &noc_gen_broadcast_1phase, NULL, 0, 0 },   { &noc_gen_broadcast_1phase, NULL, 5, 0 },
        { &noc_gen_broadcast_2phase, NULL, 0, 0 },   { &noc_gen_broadcast_2phase, NULL, 13, 0 },
        { &noc_gen_broadcast_2phase, NULL, 3, 0 },   { &noc_gen_hrelation, "random", 1, 0 },
        { &noc_gen_hrelation, "random", 1, 9 },      { &noc_gen_hrelation, "balanced", 1, 6 },
        { &noc_gen_hrelation, "total-exchange", 1, 0 }, { &noc_gen_hrelation, "total-exchange", 1, 11 },
        { &noc_gen_hrelation, "shift", 1, 4 },
    };
    for (int f = 0; FABRICS[f]; f++)
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
            noc_gen_args_t a = args(cases[c].words, cases[c].h, cases[c].variant);
            a.seed = 7;
            uint64_t cyc[3];
            for (int tm = UNIT_SYNC; tm <= ROUTER; tm++) {
                measured_t m;
                run(FABRICS[f], cases[c].g, &a, (enum timing)tm, &m);
                cyc[tm] = m.cycles;
                for (int k = 0; k < m.n_steps; k++) {
                    char key[32];
                    snprintf(key, sizeof key, "superstep%d.V", k + 1);
                    assert_int_equal(m.words[k], fact(FABRICS[f], cases[c].g, &a, key));
                    assert_int_equal(m.flit_hops[k], m.route_flit_hops[k]);
                }
            }
            print_message("%-12s %-16s %-14s n=%-2d h=%-2d  cycles: unit+sync %llu, unit %llu, "
                          "router %llu\n",
                          FABRICS[f], cases[c].g->name, cases[c].variant ? cases[c].variant : "",
                          cases[c].words, cases[c].h, (unsigned long long)cyc[UNIT_SYNC],
                          (unsigned long long)cyc[UNIT], (unsigned long long)cyc[ROUTER]);
        }
}

/* Facts on cases small enough to count by hand. */
static void test_facts_by_hand(void **state)
{
    (void)state;
    /* one-phase, p = 4, n = 3: the root sends 3 words to 3 PEs */
    noc_gen_args_t a = args(3, 0, NULL);
    const noc_generator_t *g1 = &noc_gen_broadcast_1phase, *g2 = &noc_gen_broadcast_2phase;
    assert_int_equal(fact("ring:4", g1, &a, "supersteps"), 1);
    assert_int_equal(fact("ring:4", g1, &a, "superstep1.h_s"), 9);
    assert_int_equal(fact("ring:4", g1, &a, "superstep1.h_r"), 3);
    assert_int_equal(fact("ring:4", g1, &a, "superstep1.h"), 9);
    assert_int_equal(fact("ring:4", g1, &a, "superstep1.V"), 9);
    char err[64], buf[2048] = "";
    noc_topo_t *t = noc_topo_create("ring:4", 0, err, sizeof err);
    g1->facts(t, &a, buf, sizeof buf);
    assert_non_null(strstr(buf, "superstep1.balance = 0.2500\n")); /* V/(p h) = 9/36 */
    assert_non_null(strstr(buf, "bsp_cost = (p-1)n g + l = 9 g + l\n"));
    /* two-phase, p = 4, n = 8, b = 2: scatter 6 words (2 to each), then every
     * PE puts 2 words into 3 PEs and gets 6 */
    a = args(8, 0, NULL);
    buf[0] = '\0';
    g2->facts(t, &a, buf, sizeof buf);
    assert_non_null(strstr(buf, "superstep1.h_s = 6\nsuperstep1.h_r = 2\nsuperstep1.h = 6\n"
                                "superstep1.V = 6\nsuperstep1.balance = 0.2500\n"));
    assert_non_null(strstr(buf, "superstep2.h_s = 6\nsuperstep2.h_r = 6\nsuperstep2.h = 6\n"
                                "superstep2.V = 24\nsuperstep2.balance = 1.0000\n"));
    assert_non_null(strstr(buf, "bsp_cost = (n + (p-2)ceil(n/p)) g + 2l = 12 g + 2 l\n"));
    assert_non_null(strstr(buf, "bsp_cost_1phase = (p-1)n g + l = 24 g + l\n"));
    noc_topo_destroy(t);
    /* total exchange, p = 4, h = 5: 2 words to s+1 and s+2, 1 to s+3 */
    a = args(1, 5, "total-exchange");
    assert_int_equal(fact("ring:4", &noc_gen_hrelation, &a, "superstep1.h_s"), 5);
    assert_int_equal(fact("ring:4", &noc_gen_hrelation, &a, "superstep1.h_r"), 5);
    assert_int_equal(fact("ring:4", &noc_gen_hrelation, &a, "superstep1.V"), 20);
    /* shift: h words to s+1 */
    a = args(1, 3, "shift");
    assert_int_equal(fact("ring:4", &noc_gen_hrelation, &a, "superstep1.h_s"), 3);
    assert_int_equal(fact("ring:4", &noc_gen_hrelation, &a, "superstep1.h_r"), 3);
    /* random: h_s = h, V = p h, h_r >= h (some PE gets at least the mean);
     * balanced: h_r = h too; default h = p - 1 */
    a = args(1, 0, "random");
    assert_int_equal(fact("torus:4x4", &noc_gen_hrelation, &a, "superstep1.h_s"), 15);
    assert_int_equal(fact("torus:4x4", &noc_gen_hrelation, &a, "superstep1.V"), 240);
    assert_true(fact("torus:4x4", &noc_gen_hrelation, &a, "superstep1.h_r") >= 15);
    a = args(1, 40, "balanced");
    assert_int_equal(fact("torus:4x4", &noc_gen_hrelation, &a, "superstep1.h_s"), 40);
    assert_int_equal(fact("torus:4x4", &noc_gen_hrelation, &a, "superstep1.h_r"), 40);
}

/* The paper's two-phase count (n + (p-2)ceil(n/p)) is h1 + h2 of the plan
 * for every n, p (also when p does not divide n). */
static void test_two_phase_cost(void **state)
{
    (void)state;
    const char *specs[] = { "ring:4", "ring:7", "mesh:3x5", "hypercube:4" };
    for (size_t s = 0; s < 4; s++)
        for (int n = 1; n <= 40; n++) {
            noc_gen_args_t a = args(n, 0, NULL);
            char err[64];
            noc_topo_t *t = noc_topo_create(specs[s], 0, err, sizeof err);
            int p = noc_topo_nodes(t), b = (n + p - 1) / p;
            noc_topo_destroy(t);
            long long h1 = fact(specs[s], &noc_gen_broadcast_2phase, &a, "superstep1.h");
            long long h2 = fact(specs[s], &noc_gen_broadcast_2phase, &a, "superstep2.h");
            assert_int_equal(h1 + h2, n + (p - 2) * b);
            assert_int_equal(h1, n - b);
        }
}

/* Counts the unit-time model fixes: a shift on a ring moves h words one hop,
 * h cycles (g = 1, l = 0); the one-phase broadcast cannot beat the root's
 * links, (p-1)n / degree cycles. */
static void test_unit_counts(void **state)
{
    (void)state;
    for (int h = 1; h <= 32; h *= 2) {
        noc_gen_args_t a = args(1, h, "shift");
        measured_t m;
        run("ring:8", &noc_gen_hrelation, &a, UNIT_SYNC, &m);
        assert_int_equal(m.cycles, h);
    }
    const struct { const char *spec; int degree; } f[] = {
        { "ring:8", 2 }, { "torus:4x4", 4 }, { "hypercube:4", 4 }, { "mesh:4x4", 2 } };
    for (size_t i = 0; i < 4; i++) {
        noc_gen_args_t a = args(32, 0, NULL);
        measured_t m;
        run(f[i].spec, &noc_gen_broadcast_1phase, &a, UNIT_SYNC, &m);
        long long p = f[i].spec[0] == 'r' ? 8 : 16;
        assert_true((long long)m.cycles >= (p - 1) * 32 / f[i].degree);
    }
}

/* Two-phase beats one-phase for long vectors (n = 4p) under unit timing,
 * and not for n = 1 on one link (one word cannot be split). */
static void test_two_phase_wins(void **state)
{
    (void)state;
    const char *specs[] = { "mesh:8x8", "torus:8x8", "hypercube:6", "bsn:ring:4", "ring:16" };
    for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) {
        char err[64];
        noc_topo_t *t = noc_topo_create(specs[s], 0, err, sizeof err);
        int p = noc_topo_nodes(t);
        noc_topo_destroy(t);
        noc_gen_args_t a = args(4 * p, 0, NULL);
        measured_t one, two;
        run(specs[s], &noc_gen_broadcast_1phase, &a, UNIT_SYNC, &one);
        run(specs[s], &noc_gen_broadcast_2phase, &a, UNIT_SYNC, &two);
        print_message("%-12s n=%d: one-phase %llu, two-phase %llu cycles\n", specs[s], 4 * p,
                      (unsigned long long)one.cycles, (unsigned long long)two.cycles);
        assert_true(two.cycles < one.cycles);
    }
}

/* Bad arguments: NULL and a message naming the program and the problem. */
static void test_errors(void **state)
{
    (void)state;
    char err[256];
    noc_topo_t *t = noc_topo_create("torus:4x4", 0, err, sizeof err);
    noc_gen_args_t a = args(0, 0, NULL);
    a.root = 16;
    assert_null(noc_gen_broadcast_1phase.make(t, &a, err, sizeof err));
    assert_non_null(strstr(err, "broadcast-1phase"));
    assert_non_null(strstr(err, "root 16"));
    a = args(-3, 0, NULL);
    assert_null(noc_gen_broadcast_2phase.make(t, &a, err, sizeof err));
    assert_non_null(strstr(err, "broadcast-2phase"));
    assert_non_null(strstr(err, "--words"));
    a = args(4, 0, "tree");
    assert_null(noc_gen_broadcast_2phase.make(t, &a, err, sizeof err));
    assert_non_null(strstr(err, "no variants"));
    a = args(1, 0, "nonsense");
    assert_null(noc_gen_hrelation.make(t, &a, err, sizeof err));
    assert_non_null(strstr(err, "hrelation"));
    assert_non_null(strstr(err, "nonsense"));
    a = args(1, 1 << 21, NULL);
    assert_null(noc_gen_hrelation.make(t, &a, err, sizeof err));
    assert_non_null(strstr(err, "hrelation: --h"));
    a = args(1, -1, NULL);
    assert_null(noc_gen_hrelation.make(t, &a, err, sizeof err));
    assert_non_null(strstr(err, "--h"));
    noc_topo_destroy(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_results_everywhere),
        cmocka_unit_test(test_facts_by_hand),
        cmocka_unit_test(test_two_phase_cost),
        cmocka_unit_test(test_unit_counts),
        cmocka_unit_test(test_two_phase_wins),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
