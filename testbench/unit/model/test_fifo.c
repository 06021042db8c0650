/* test_fifo.c: the flit FIFO arithmetic: order, wrap of the free-running
 * counters past 65535, and a depth that is not a power of two. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "model/fifo.h"

static void test_capacity(void **state)
{
    (void)state;
    assert_int_equal(noc_fifo_capacity(1), 1);
    assert_int_equal(noc_fifo_capacity(5), 8);
    assert_int_equal(noc_fifo_capacity(8), 8);
    assert_int_equal(noc_fifo_capacity(9), 16);
}

static void test_order_and_wrap(void **state)
{
    (void)state;
    enum { DEPTH = 5 };
    uint32_t cap = noc_fifo_capacity(DEPTH), mask = cap - 1;
    noc_flit_t slots[8];
    memset(slots, 0, sizeof slots);
    /* start just below the counters' wrap */
    uint16_t head = 65530, tail = 65530;
    int64_t next_in = 0, next_out = 0;
    for (int round = 0; round < 200; round++) {
        /* fill to the configured depth, not the ring's capacity */
        while (noc_fifo_count(head, tail) < DEPTH) {
            noc_flit_t f = { .data = next_in++ };
            noc_fifo_push(slots, mask, &tail, &f);
        }
        assert_int_equal(noc_fifo_count(head, tail), DEPTH);
        int take = 1 + round % DEPTH;
        for (int k = 0; k < take; k++) {
            assert_int_equal(noc_fifo_front(slots, mask, head)->data, next_out);
            next_out++;
            noc_fifo_pop(&head, tail);
        }
    }
    assert_true(head < 65530); /* the counters wrapped and kept working */
    while (head != tail) {
        assert_int_equal(noc_fifo_front(slots, mask, head)->data, next_out++);
        noc_fifo_pop(&head, tail);
    }
    assert_int_equal(next_out, next_in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_capacity),
        cmocka_unit_test(test_order_and_wrap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
