/* topo_cache_test.h: what the pattern tests share (test_pattern.c,
 * test_pattern_bs.c): the fabrics of a test, built from their SPECs by
 * topo() and destroyed after it by free_topos (every test's teardown).
 * Header-only; include it after cmocka.h and a header that declares
 * topologies/topo.h's functions. */
#ifndef NOC_TOPO_CACHE_TEST_H
#define NOC_TOPO_CACHE_TEST_H

static noc_topo_t *made[16];
static int n_made;

static const noc_topo_t *topo(const char *spec)
{
    char err[256];
    noc_topo_t *t = noc_topo_create(spec, 0, err, sizeof err);
    if (!t)
        fail_msg("noc_topo_create(%s): %s", spec, err);
    assert_true(n_made < (int)(sizeof made / sizeof made[0]));
    made[n_made++] = t;
    return t;
}

static int free_topos(void **state)
{
    (void)state;
    while (n_made > 0)
        noc_topo_destroy(made[--n_made]);
    return 0;
}

#endif
