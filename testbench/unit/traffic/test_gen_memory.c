/* test_gen_memory.c: the generators' volumes (gen.h), the lower bound of
 * memory values on which noc_gen_check_memory refuses a program too large
 * to make before making it (docs/reliability.md, "Resources"). For every
 * generator that has one, on fabrics of every kind it runs on and several
 * word counts, the volume must not exceed the init and expect values the
 * program really holds (else the check could refuse a program that fits),
 * nor fall a quarter below them (else it refuses too late: the builder's
 * own check then stops the program only as it grows). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "traffic/gen.h"

static const char *const specs[] = {
    "mesh:4x3", "torus:3x4", "ring:5", "hypercube:3", "bsn:ring:3", "otis:mesh:2x2",
    "pyramid:3", "multilevel:2:2", "complete:5", NULL,
};

static void test_volume_is_a_lower_bound(void **state)
{
    (void)state;
    int checked = 0;
    for (int g = 0; noc_generators[g]; g++) {
        const noc_generator_t *gen = noc_generators[g];
        if (!gen->volume)
            continue;
        for (int s = 0; specs[s]; s++) {
            char err[512];
            noc_topo_t *t = noc_topo_create(specs[s], 0, err, sizeof err);
            assert_non_null(t);
            static const int words[] = { 1, 3, 8 };
            for (int w = 0; w < 3; w++) {
                noc_gen_args_t a;
                noc_gen_args_default(&a);
                a.words = words[w];
                uint64_t v = gen->volume(t, &a);
                noc_program_t *p = gen->make(t, &a, err, sizeof err);
                if (!p)
                    continue; /* a fabric or size it does not take */
                uint64_t real = (uint64_t)p->n_init + p->n_expect;
                if (v > real || 3 * real > 4 * v)
                    fail_msg("%s on %s --words %d: volume %llu, the program holds %llu values", gen->name,
                             specs[s], words[w], (unsigned long long)v, (unsigned long long)real);
                checked++;
                noc_prog_free(p);
            }
            noc_topo_destroy(t);
        }
    }
    print_message("%d programs checked\n", checked);
    assert_true(checked >= 60);
}

/* The check itself: a program of more values than the memory holds is
 * refused before it is made, naming the generator, and one that fits is
 * not. */
static void test_check_refuses_before_making(void **state)
{
    (void)state;
    char err[1024];
    noc_topo_t *t = noc_topo_create("mesh:32x32", 0, err, sizeof err);
    assert_non_null(t);
    const noc_generator_t *g = noc_gen_find("broadcast");
    noc_gen_args_t a;
    noc_gen_args_default(&a);
    assert_int_equal(noc_gen_check_memory(g, t, &a, err, sizeof err), 0);
    a.words = 1 << 24; /* 2^34 values: 512 GB */
    assert_int_equal(noc_gen_check_memory(g, t, &a, err, sizeof err), -1);
    if (!strstr(err, "broadcast on mesh:32x32: the program's 17179869184 memory values") ||
        !strstr(err, "need at least 549.8 GB (noctua's estimate)") || !strstr(err, "memory_check=0"))
        fail_msg("%s", err);
    noc_topo_destroy(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_volume_is_a_lower_bound),
        cmocka_unit_test(test_check_refuses_before_making),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
