/* test_pattern.c: synthetic traffic patterns (traffic/pattern.h) against
 * hand-computed destinations on 64 nodes, bijectivity of the permutations,
 * grid patterns on meshes, rings and tori, the error messages of init, and
 * the statistics of uniform and hotspot.
 *
 * The topologies are built from their SPECs (the patterns read their node
 * count, kind and grid shape through topo.h's functions). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "traffic/pattern.h"

#include "testbench/unit/traffic/topo_cache_test.h"

static void init_ok(noc_pattern_t *p, noc_pattern_kind_t kind, const noc_topo_t *t)
{
    char err[256];
    int rc = noc_pattern_init(p, kind, t, 0, 0.0, err, sizeof err);
    if (rc != 0)
        fail_msg("init %s on %s: %s", noc_pattern_name(kind), noc_topo_spec(t), err);
}

static int dest(noc_pattern_kind_t kind, const noc_topo_t *t, int s)
{
    noc_pattern_t p;
    noc_rng_t rng;
    noc_rng_seed(&rng, 1, 0);
    init_ok(&p, kind, t);
    return noc_pattern_dest(&p, s, &rng);
}

static void test_names(void **state)
{
    (void)state;
    const char *list = noc_pattern_list();
    for (int k = 0; k < NOC_PAT_COUNT; k++) {
        const char *name = noc_pattern_name((noc_pattern_kind_t)k);
        assert_int_equal(noc_pattern_parse(name), k);
        assert_non_null(strstr(list, name));
    }
    static const char *const booksim[] = {"bitcomp", "bitrev", "transpose", "shuffle",
                                          "tornado", "neighbor", "uniform", "hotspot"};
    for (size_t i = 0; i < sizeof booksim / sizeof booksim[0]; i++)
        assert_int_not_equal(noc_pattern_parse(booksim[i]), NOC_PAT_COUNT);
    assert_int_equal(noc_pattern_parse("randperm_of_doom"), NOC_PAT_COUNT);
}

/* 64 nodes, b = 6; mesh:8x8 numbers node (x, y) as x + 8y. */
static void test_bit_patterns_64(void **state)
{
    (void)state;
    const noc_topo_t *ts[] = {topo("mesh:8x8"), topo("hypercube:6")};
    for (int i = 0; i < 2; i++) {
        const noc_topo_t *t = ts[i];
        /* bitcomp: 000101 -> 111010 */
        assert_int_equal(dest(NOC_PAT_BITCOMP, t, 5), 58);
        assert_int_equal(dest(NOC_PAT_BITCOMP, t, 0), 63);
        assert_int_equal(dest(NOC_PAT_BITCOMP, t, 63), 0);
        /* bitrev: 000001 -> 100000, 000110 -> 011000, 001011 -> 110100 */
        assert_int_equal(dest(NOC_PAT_BITREV, t, 1), 32);
        assert_int_equal(dest(NOC_PAT_BITREV, t, 6), 24);
        assert_int_equal(dest(NOC_PAT_BITREV, t, 11), 52);
        assert_int_equal(dest(NOC_PAT_BITREV, t, 33), 33); /* palindrome 100001 */
        /* shuffle (rotate left): 100001 -> 000011, 000101 -> 001010,
         * 100000 -> 000001 */
        assert_int_equal(dest(NOC_PAT_SHUFFLE, t, 33), 3);
        assert_int_equal(dest(NOC_PAT_SHUFFLE, t, 5), 10);
        assert_int_equal(dest(NOC_PAT_SHUFFLE, t, 32), 1);
        assert_int_equal(dest(NOC_PAT_SHUFFLE, t, 63), 63);
        /* transpose: on the mesh (x,y) -> (y,x): (1,0)=1 -> (0,1)=8,
         * (2,1)=10 -> (1,2)=17, (7,0)=7 -> (0,7)=56; on the hypercube the
         * halves of the bits swap: 000001 -> 001000, 001010 -> 010001,
         * 000111 -> 111000, the same numbers. */
        assert_int_equal(dest(NOC_PAT_TRANSPOSE, t, 1), 8);
        assert_int_equal(dest(NOC_PAT_TRANSPOSE, t, 10), 17);
        assert_int_equal(dest(NOC_PAT_TRANSPOSE, t, 7), 56);
        assert_int_equal(dest(NOC_PAT_TRANSPOSE, t, 63), 63);
        assert_int_equal(dest(NOC_PAT_TRANSPOSE, t, 27), 27); /* (3,3) */
    }
    /* transpose on a 4x4x4 mesh is not 2D: bit halves, 000 011 -> 011 000 */
    assert_int_equal(dest(NOC_PAT_TRANSPOSE, topo("mesh:4x4x4"), 3), 24);
    /* transpose on a square non-power-of-two mesh: 3x3, (2,0)=2 -> (0,2)=6 */
    const noc_topo_t *m33 = topo("mesh:3x3");
    assert_int_equal(dest(NOC_PAT_TRANSPOSE, m33, 2), 6);
    assert_int_equal(dest(NOC_PAT_TRANSPOSE, m33, 5), 7); /* (2,1) -> (1,2) */
}

/* tornado: every coordinate ceil(k/2) - 1 ahead; neighbor: +1 in x. */
static void test_grid_patterns(void **state)
{
    (void)state;
    const noc_topo_t *mesh = topo("mesh:8x8");
    /* k = 8: step 3. (0,0) -> (3,3) = 27; (6,7) = 62 -> (1,2) = 17 */
    assert_int_equal(dest(NOC_PAT_TORNADO, mesh, 0), 27);
    assert_int_equal(dest(NOC_PAT_TORNADO, mesh, 62), 17);
    /* neighbor: (7,3) = 31 -> (0,3) = 24; (0,0) -> (1,0) */
    assert_int_equal(dest(NOC_PAT_NEIGHBOR, mesh, 31), 24);
    assert_int_equal(dest(NOC_PAT_NEIGHBOR, mesh, 0), 1);
    assert_int_equal(dest(NOC_PAT_NEIGHBOR, mesh, 63), 56);

    /* 5x3 torus: step 2 in x, 1 in y. (4,0) = 4 -> (1,1) = 6;
     * (2,2) = 12 -> (4,0) = 4 */
    const noc_topo_t *torus = topo("torus:5x3");
    assert_int_equal(dest(NOC_PAT_TORNADO, torus, 4), 6);
    assert_int_equal(dest(NOC_PAT_TORNADO, torus, 12), 4);
    assert_int_equal(dest(NOC_PAT_NEIGHBOR, torus, 14), 10); /* (4,2) -> (0,2) */

    /* ring:16: step 7. 10 -> 1 */
    const noc_topo_t *ring = topo("ring:16");
    assert_int_equal(dest(NOC_PAT_TORNADO, ring, 10), 1);
    assert_int_equal(dest(NOC_PAT_NEIGHBOR, ring, 15), 0);

    /* A hypercube is not a grid: s + ceil(n/2) - 1 and s + 1 (mod n). */
    const noc_topo_t *cube = topo("hypercube:6");
    assert_int_equal(dest(NOC_PAT_TORNADO, cube, 40), 7); /* 40 + 31 - 64 */
    assert_int_equal(dest(NOC_PAT_NEIGHBOR, cube, 63), 0);

    /* On the whole 8x8 mesh, tornado moves both coordinates 3 ahead (mod 8)
     * and neighbor moves x one ahead, keeping y. */
    for (int s = 0; s < 64; s++) {
        int d = dest(NOC_PAT_TORNADO, mesh, s);
        int dx = (d % 8 - s % 8 + 8) % 8, dy = (d / 8 - s / 8 + 8) % 8;
        assert_int_equal(dx, 3);
        assert_int_equal(dy, 3);
        int nb = dest(NOC_PAT_NEIGHBOR, mesh, s);
        assert_int_equal(nb / 8, s / 8);
        assert_int_equal(nb % 8, (s % 8 + 1) % 8);
    }
}

/* Every deterministic pattern is a bijection where it applies. */
static void test_permutations_are_bijections(void **state)
{
    (void)state;
    static const noc_pattern_kind_t perms[] = {NOC_PAT_TRANSPOSE, NOC_PAT_BITCOMP,
                                               NOC_PAT_BITREV, NOC_PAT_SHUFFLE,
                                               NOC_PAT_TORNADO, NOC_PAT_NEIGHBOR};
    const noc_topo_t *ts[6] = {topo("mesh:8x8"), topo("hypercube:6"), topo("hypercube:4"),
                               topo("torus:4x4x4"), topo("ring:16"), topo("mesh:5x5")};
    noc_rng_t rng;
    noc_rng_seed(&rng, 3, 0);
    int checked = 0;
    for (size_t ti = 0; ti < sizeof ts / sizeof ts[0]; ti++) {
        for (size_t pi = 0; pi < sizeof perms / sizeof perms[0]; pi++) {
            noc_pattern_t p;
            char err[256];
            if (noc_pattern_init(&p, perms[pi], ts[ti], 0, 0.0, err, sizeof err) != 0) {
                /* Only the power-of-two patterns may refuse, and only
                 * on the 5x5 mesh or an odd bit count (ring:16 has 4 bits,
                 * so everything fits there). */
                assert_true(ti == 5);
                continue;
            }
            int n = noc_topo_nodes(ts[ti]), hit[64] = {0};
            for (int s = 0; s < n; s++) {
                int d = noc_pattern_dest(&p, s, &rng);
                assert_in_range(d, 0, n - 1);
                hit[d]++;
            }
            for (int d = 0; d < n; d++)
                assert_int_equal(hit[d], 1);
            checked++;
        }
    }
    /* 5 topologies x 6 patterns, plus transpose, tornado, neighbor on 5x5 */
    assert_int_equal(checked, 5 * 6 + 3);
}

static void expect_error(noc_pattern_kind_t kind, const noc_topo_t *t, int hotspot,
                         double rate, const char *needle1, const char *needle2)
{
    noc_pattern_t p;
    char err[256] = "";
    assert_int_equal(noc_pattern_init(&p, kind, t, hotspot, rate, err, sizeof err), -1);
    if (!strstr(err, needle1) || (needle2 && !strstr(err, needle2)))
        fail_msg("message \"%s\" lacks \"%s\"/\"%s\"", err, needle1, needle2 ? needle2 : "");
}

static void test_init_errors(void **state)
{
    (void)state;
    const noc_topo_t *m84 = topo("mesh:8x4"), *m33 = topo("mesh:3x3"), *m35 = topo("mesh:3x5");
    const noc_topo_t *cube5 = topo("hypercube:5"), *cube6 = topo("hypercube:6");
    expect_error(NOC_PAT_TRANSPOSE, m84, 0, 0.0, "transpose", "8x4");
    expect_error(NOC_PAT_BITCOMP, m33, 0, 0.0, "bitcomp", "9");
    expect_error(NOC_PAT_BITREV, m35, 0, 0.0, "bitrev", "15");
    expect_error(NOC_PAT_SHUFFLE, m33, 0, 0.0, "shuffle", "9");
    /* 32 nodes: 5 bits cannot be split in halves */
    expect_error(NOC_PAT_TRANSPOSE, cube5, 0, 0.0, "transpose", "32");
    expect_error(NOC_PAT_HOTSPOT, cube6, 64, 0.5, "hotspot", "64");
    expect_error(NOC_PAT_HOTSPOT, cube6, -1, 0.5, "hotspot", NULL);
    expect_error(NOC_PAT_HOTSPOT, cube6, 3, 1.5, "hotspot", NULL);
    /* Patterns with no requirement accept non-power-of-two sizes. */
    noc_pattern_t p;
    char err[256];
    assert_int_equal(noc_pattern_init(&p, NOC_PAT_UNIFORM, m33, 0, 0.0, err, sizeof err), 0);
    assert_int_equal(noc_pattern_init(&p, NOC_PAT_TORNADO, m84, 0, 0.0, err, sizeof err), 0);
    assert_int_equal(p.n, 32);
    assert_int_equal(p.bits, 5);
    assert_int_equal(noc_pattern_init(&p, NOC_PAT_NEIGHBOR, m33, 0, 0.0, err, sizeof err), 0);
    assert_int_equal(p.bits, -1);
}

static void test_uniform(void **state)
{
    (void)state;
    noc_pattern_t p;
    init_ok(&p, NOC_PAT_UNIFORM, topo("mesh:8x8"));
    noc_rng_t rng;
    noc_rng_seed(&rng, 8, 1);
    /* Never self, from every source, and every other node comes up. */
    for (int s = 0; s < 64; s++) {
        int hit[64] = {0};
        for (int i = 0; i < 2000; i++) {
            int d = noc_pattern_dest(&p, s, &rng);
            assert_in_range(d, 0, 63);
            assert_int_not_equal(d, s);
            hit[d] = 1;
        }
        for (int d = 0; d < 64; d++)
            assert_int_equal(hit[d], d != s);
    }
    /* Roughly uniform: 63 x 10000 draws from node 10; sd per bucket ~ 99. */
    enum { PER = 10000 };
    long count[64] = {0};
    for (long i = 0; i < 63L * PER; i++)
        count[noc_pattern_dest(&p, 10, &rng)]++;
    assert_int_equal(count[10], 0);
    for (int d = 0; d < 64; d++)
        if (d != 10)
            assert_true(labs(count[d] - PER) < 600);
}

static void test_hotspot(void **state)
{
    (void)state;
    const noc_topo_t *cube = topo("hypercube:6");
    noc_pattern_t p;
    char err[256];
    noc_rng_t rng;
    noc_rng_seed(&rng, 21, 4);
    static const double rates[] = {0.0, 0.1, 0.3, 0.75, 1.0};
    enum { DRAWS = 100000 };
    for (size_t r = 0; r < sizeof rates / sizeof rates[0]; r++) {
        assert_int_equal(noc_pattern_init(&p, NOC_PAT_HOTSPOT, cube, 5, rates[r], err,
                                          sizeof err), 0);
        long hot = 0, self = 0;
        for (int i = 0; i < DRAWS; i++) {
            int d = noc_pattern_dest(&p, 0, &rng);
            hot += d == 5;
            self += d == 0;
        }
        /* The uniform part also lands on the hotspot: 1 in 63. */
        double expect = rates[r] + (1.0 - rates[r]) / 63.0;
        assert_true(fabs((double)hot / DRAWS - expect) < 0.008);
        assert_int_equal(self, 0);
    }
}

/* One node: every pattern sends to the source itself (nothing is sent).
 * No fabric has a single node, so the pattern's own count says 1. */
static void test_single_node(void **state)
{
    (void)state;
    const noc_topo_t *four = topo("hypercube:2");
    noc_rng_t rng;
    noc_rng_seed(&rng, 1, 1);
    for (int k = 0; k < NOC_PAT_COUNT; k++) {
        noc_pattern_t p;
        char err[256];
        /* (these need 64 nodes, a grid of 2 dimensions or arguments:
         * test_pattern_bs.c) */
        if (k == NOC_PAT_TAPER64 || k == NOC_PAT_BADPERM_YARC || k == NOC_PAT_BACKGROUND)
            continue;
        assert_int_equal(noc_pattern_init(&p, (noc_pattern_kind_t)k, four, 0, 0.5, err,
                                          sizeof err), 0);
        p.n = 1;
        p.bits = 0;
        for (int i = 0; i < 10; i++)
            assert_int_equal(noc_pattern_dest(&p, 0, &rng), 0);
        noc_pattern_free(&p);
    }
}

/* The grid shape a pattern keeps is the topology's: the grids' own
 * destinations on every SPEC kind, and none on the fabrics that are no
 * mesh, torus or ring (a hypercube, a BSN). */
static void test_grid_shape(void **state)
{
    (void)state;
    static const struct { const char *spec; int dims; } cases[] = {
        {"mesh:8x8", 2}, {"mesh:5x3", 2}, {"torus:4x4x4", 3}, {"ring:16", 1},
        {"hypercube:6", 0}, {"bsn:ring:4", 0},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const noc_topo_t *t = topo(cases[c].spec);
        noc_pattern_t p;
        char err[256];
        assert_int_equal(noc_pattern_init(&p, NOC_PAT_TORNADO, t, 0, 0.0, err, sizeof err), 0);
        assert_int_equal(p.dims, cases[c].dims);
        for (int i = 0; i < p.dims; i++) {
            assert_int_equal(p.k[i], noc_topo_k(t, i));
            assert_int_equal(p.stride[i], noc_topo_stride(t, i));
        }
    }
    /* And one hand-computed value on the real mesh: tornado (0,0) -> (3,3). */
    assert_int_equal(dest(NOC_PAT_TORNADO, topo("mesh:8x8"), 0), 27);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test_teardown(test_bit_patterns_64, free_topos),
        cmocka_unit_test_teardown(test_grid_patterns, free_topos),
        cmocka_unit_test_teardown(test_permutations_are_bijections, free_topos),
        cmocka_unit_test_teardown(test_init_errors, free_topos),
        cmocka_unit_test_teardown(test_uniform, free_topos),
        cmocka_unit_test_teardown(test_hotspot, free_topos),
        cmocka_unit_test_teardown(test_single_node, free_topos),
        cmocka_unit_test_teardown(test_grid_shape, free_topos),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
