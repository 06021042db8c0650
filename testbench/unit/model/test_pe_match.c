/* test_pe_match.c: MPI's matching rule as the PE engine keeps it
 * (model/pe_match.c), on hand-built programs under unit timing (ideal
 * router on a ring: a one-word message over h hops arrives h cycles after
 * it is sent). Each case has one answer that the rule allows and a wrong
 * one a plausible slip would give: a receive from any source that was
 * posted first must win over a later one that names the source; a receive
 * posted after the messages arrived takes the oldest that matches, also
 * when it is not the first of its pair (from any source or a named one);
 * each pair's messages go to that pair's receives in post order. Values land in the receiver's memory, so each test
 * sees which message went where. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/pe.h"
#include "model/program.h"
#include "routers/registry.h"
#include "topologies/topo.h"

#include "testbench/unit/pe_run_test.h"

static const char *const IDEAL[] = { "router=ideal", NULL };

/* Run p on ring:4 (ideal router): it must finish, every message taken,
 * every expected word right. */
static void run_checked(noc_program_t *p)
{
    run_t r;
    build(&r, "ring:4", p, IDEAL);
    assert_int_equal(noc_pe_run(r.sim), NOC_RUN_OK);
    char err[256];
    if (noc_pe_finished(noc_sim_pe(r.sim), err, sizeof err) != 0 || noc_pe_check(r.sim, err, sizeof err) != 0)
        fail_msg("%s", err);
    drop(&r, p);
}

/* Rank 0 sends 100, then 200 (tag 5), both to rank 2. Rank 2 has posted,
 * in this order, a receive from any source into word 0 and one from rank 0
 * into word 1 (or the other way round: `named_first`). The first message
 * goes to the receive posted first, whichever list it waits on. */
static void posted_order(int named_first)
{
    noc_program_t *p = noc_prog_new(4, "posted-order");
    noc_prog_init(p, 0, 0, 100);
    noc_prog_init(p, 0, 1, 200);
    uint32_t s1 = noc_prog_send(p, 0, 2, 5, 1, 0);
    uint32_t s2 = noc_prog_send(p, 0, 2, 5, 1, 1);
    noc_prog_dep(p, s2, s1, 0);
    if (named_first) {
        noc_prog_recv(p, 2, 0, 5, 1, 0);
        noc_prog_recv(p, 2, NOC_PROG_ANY, 5, 1, 1);
    } else {
        noc_prog_recv(p, 2, NOC_PROG_ANY, 5, 1, 0);
        noc_prog_recv(p, 2, 0, 5, 1, 1);
    }
    noc_prog_expect(p, 2, 0, 100);
    noc_prog_expect(p, 2, 1, 200);
    run_checked(p);
}

static void test_any_posted_first(void **state)
{
    (void)state;
    posted_order(0);
}

static void test_named_posted_first(void **state)
{
    (void)state;
    posted_order(1);
}

/* Messages arrive before any receive is posted (rank 2 computes 50
 * cycles first): rank 0's tag 3 (value 10) then tag 4 (value 20), and
 * rank 1's tag 4 (value 30) after a 20-cycle computation. Then rank 2
 * posts a receive from any source with tag 4 (word 0): the oldest match is
 * rank 0's second message, not the head of its pair; then one from rank 0
 * with any tag (word 1): what is left of that pair, 10; then one from any
 * source and tag (word 2): rank 1's 30. */
static void test_arrived_oldest_match(void **state)
{
    (void)state;
    noc_program_t *p = noc_prog_new(4, "arrived");
    noc_prog_init(p, 0, 0, 10);
    noc_prog_init(p, 0, 1, 20);
    noc_prog_init(p, 1, 0, 30);
    uint32_t a = noc_prog_send(p, 0, 2, 3, 1, 0);
    uint32_t b = noc_prog_send(p, 0, 2, 4, 1, 1);
    noc_prog_dep(p, b, a, 0);
    uint32_t c1 = noc_prog_calc(p, 1, 20);
    uint32_t c = noc_prog_send(p, 1, 2, 4, 1, 0);
    noc_prog_dep(p, c, c1, 0);
    uint32_t wait = noc_prog_calc(p, 2, 50);
    uint32_t r0 = noc_prog_recv(p, 2, NOC_PROG_ANY, 4, 1, 0);
    uint32_t r1 = noc_prog_recv(p, 2, 0, NOC_PROG_ANY, 1, 1);
    uint32_t r2 = noc_prog_recv(p, 2, NOC_PROG_ANY, NOC_PROG_ANY, 1, 2);
    noc_prog_dep(p, r0, wait, 0);
    noc_prog_dep(p, r1, r0, 0);
    noc_prog_dep(p, r2, r1, 0);
    noc_prog_expect(p, 2, 0, 20);
    noc_prog_expect(p, 2, 1, 10);
    noc_prog_expect(p, 2, 2, 30);
    run_checked(p);
}

/* Rank 0's tag 3 (value 10) and tag 4 (value 20) arrive before rank 2
 * posts a receive from rank 0 with tag 4 (word 0), then one with tag 3
 * (word 1): the first skips the head of the pair's messages. */
static void test_named_tag_skips(void **state)
{
    (void)state;
    noc_program_t *p = noc_prog_new(4, "named-tag");
    noc_prog_init(p, 0, 0, 10);
    noc_prog_init(p, 0, 1, 20);
    uint32_t a = noc_prog_send(p, 0, 2, 3, 1, 0);
    uint32_t b = noc_prog_send(p, 0, 2, 4, 1, 1);
    noc_prog_dep(p, b, a, 0);
    uint32_t wait = noc_prog_calc(p, 2, 50);
    uint32_t r0 = noc_prog_recv(p, 2, 0, 4, 1, 0);
    uint32_t r1 = noc_prog_recv(p, 2, 0, 3, 1, 1);
    noc_prog_dep(p, r0, wait, 0);
    noc_prog_dep(p, r1, r0, 0);
    noc_prog_expect(p, 2, 0, 20);
    noc_prog_expect(p, 2, 1, 10);
    run_checked(p);
}

/* Three receives from named sources, posted at once, and messages from
 * two pairs in between: each pair's messages go to its own receives in
 * post order (rank 1's 7 and 8 into words 0 and 2, rank 3's 9 into word
 * 1), whatever the other pair does. */
static void test_pairs_apart(void **state)
{
    (void)state;
    noc_program_t *p = noc_prog_new(4, "pairs");
    noc_prog_init(p, 1, 0, 7);
    noc_prog_init(p, 1, 1, 8);
    noc_prog_init(p, 3, 0, 9);
    uint32_t x = noc_prog_send(p, 1, 2, 1, 1, 0);
    uint32_t y = noc_prog_send(p, 1, 2, 1, 1, 1);
    noc_prog_dep(p, y, x, 0);
    noc_prog_send(p, 3, 2, 1, 1, 0);
    noc_prog_recv(p, 2, 1, 1, 1, 0);
    noc_prog_recv(p, 2, 3, 1, 1, 1);
    noc_prog_recv(p, 2, 1, 1, 1, 2);
    noc_prog_expect(p, 2, 0, 7);
    noc_prog_expect(p, 2, 1, 9);
    noc_prog_expect(p, 2, 2, 8);
    run_checked(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_any_posted_first),
        cmocka_unit_test(test_named_posted_first),
        cmocka_unit_test(test_arrived_oldest_match),
        cmocka_unit_test(test_named_tag_skips),
        cmocka_unit_test(test_pairs_apart),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
