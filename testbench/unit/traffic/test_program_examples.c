/* test_program_examples.c: the example programs of examples/programs/
 * (binomial_bcast_8.goal, sum_4.goal) read, checked op by op, run by a
 * small reference interpreter against their expected memory, and written
 * back; and the interpreter itself on a hand-worked program. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "model/program.h"
#include "testbench/unit/program_test.h"
#include "testbench/unit/traffic/program_text_test.h"

/* ---- a reference interpreter: ops run at once, in dependency order ----
 * An op starts when every "requires" dependency is done and every
 * "irequires" dependency has started; everything but a receive is done when
 * it starts; a receive is done when a matching message (the oldest one from
 * its source with its tag) has been sent. Returns the memories (per rank),
 * or fails if some op never runs. */
typedef struct msg {
    int from, to, tag;
    uint32_t words;
    int64_t *data;
} msg_t;

static int deps_met(const noc_program_t *p, const uint8_t *state, uint32_t i)
{
    const noc_op_t *o = &p->ops[i];
    for (uint32_t d = o->dep_start; d < o->dep_start + o->n_deps; d++)
        if (state[p->deps[d].op] < (p->deps[d].start ? 1 : 2))
            return 0;
    return 1;
}

static int try_recv(const noc_program_t *p, int r, const noc_op_t *o, msg_t *q, int nq,
                    int64_t *mem)
{
    for (int m = 0; m < nq; m++) {
        if (q[m].to != r || !q[m].data)
            continue;
        if ((o->peer != NOC_PROG_ANY && o->peer != q[m].from) ||
            (o->tag != NOC_PROG_ANY && o->tag != q[m].tag))
            continue;
        assert_int_equal(q[m].words, o->words);
        if (o->addr >= 0)
            memcpy(mem + o->addr, q[m].data, o->words * sizeof *mem);
        free(q[m].data);
        q[m].data = NULL;
        (void)p;
        return 1;
    }
    return 0;
}

static void run_op(const noc_program_t *p, int r, const noc_op_t *o, int64_t *mem, msg_t *q,
                   int *nq)
{
    if (o->kind == NOC_OP_SEND) {
        msg_t *m = &q[(*nq)++];
        *m = (msg_t){r, o->peer, o->tag, o->words, calloc(o->words, sizeof(int64_t))};
        if (o->addr >= 0)
            memcpy(m->data, mem + o->addr, o->words * sizeof *mem);
        return;
    }
    for (uint32_t w = 0; w < o->words && o->kind >= NOC_OP_ADD; w++) {
        int64_t *d = &mem[o->addr + w], s = mem[o->src + w];
        if (o->kind == NOC_OP_ADD)
            *d += s;
        else if (o->kind == NOC_OP_MIN)
            *d = s < *d ? s : *d;
        else if (o->kind == NOC_OP_MAX)
            *d = s > *d ? s : *d;
        else
            *d = s;
    }
    (void)p;
}

static int64_t **interpret(const noc_program_t *p)
{
    int64_t **mem = calloc((size_t)p->n_ranks, sizeof *mem);
    uint8_t *state = calloc(p->n_ops + 1, 1); /* 0 waiting, 1 started, 2 done */
    msg_t *q = calloc(p->n_ops + 1, sizeof *q);
    int nq = 0;
    for (int r = 0; r < p->n_ranks; r++) {
        mem[r] = calloc(p->ranks[r].mem_words + 1, sizeof **mem);
        for (uint32_t k = 0; k < p->ranks[r].n_init; k++) {
            const noc_memval_t *v = &p->init[p->ranks[r].init_start + k];
            mem[r][v->addr] = v->value;
        }
    }
    for (int progress = 1; progress;) {
        progress = 0;
        for (int r = 0; r < p->n_ranks; r++)
            for (uint32_t i = p->ranks[r].op_start; i < p->ranks[r].op_start + p->ranks[r].n_ops;
                 i++) {
                const noc_op_t *o = &p->ops[i];
                if (state[i] == 0 && deps_met(p, state, i)) {
                    state[i] = 1;
                    progress = 1;
                    if (o->kind != NOC_OP_RECV) {
                        run_op(p, r, o, mem[r], q, &nq);
                        state[i] = 2;
                    }
                }
                if (state[i] == 1 && try_recv(p, r, o, q, nq, mem[r])) {
                    state[i] = 2;
                    progress = 1;
                }
            }
    }
    for (uint32_t i = 0; i < p->n_ops; i++)
        if (state[i] != 2)
            fail_msg("op %u (line %u) never completes", i, p->ops[i].line);
    for (int m = 0; m < nq; m++)
        if (q[m].data)
            fail_msg("a message from %d to %d (tag %d) is never received", q[m].from, q[m].to,
                     q[m].tag);
    free(state);
    free(q);
    return mem;
}

static void free_mems(const noc_program_t *p, int64_t **mem)
{
    for (int r = 0; r < p->n_ranks; r++)
        free(mem[r]);
    free(mem);
}
/* ---- files ---- */

static char *source_path(const char *rel)
{
    const char *dir = getenv("NOCTUA_SOURCE_DIR");
    if (!dir)
        dir = ".";
    char *path = malloc(strlen(dir) + strlen(rel) + 2);
    sprintf(path, "%s/%s", dir, rel);
    return path;
}

static noc_program_t *read_example(const char *rel)
{
    char err[512];
    char *path = source_path(rel);
    noc_program_t *p = noc_prog_read_file(path, err, sizeof err);
    if (!p)
        fail_msg("%s", err);
    free(path);
    return p;
}

static void test_example_bcast(void **state)
{
    (void)state;
    noc_program_t *p = read_example("examples/programs/binomial_bcast_8.goal");
    assert_int_equal(p->n_ranks, 8);
    assert_int_equal(p->n_ops, 14);
    assert_int_equal(p->n_deps, 4);
    int parent[8] = {-1, 0, 0, 2, 0, 4, 4, 6}, sends[8] = {0};
    for (uint32_t i = 0; i < p->n_ops; i++)
        assert_int_equal(p->ops[i].words, 8);
    for (int r = 0; r < 8; r++)
        for (uint32_t i = 0; i < p->ranks[r].n_ops; i++) {
            const noc_op_t *o = op_of(p, r, i);
            if (o->kind == NOC_OP_SEND) {
                assert_int_equal(parent[o->peer], r);
                sends[o->peer]++;
                if (r != 0) { /* forwards after its own receive */
                    assert_int_equal(o->n_deps, 1);
                    assert_dep(p, r, i, 0, 0, 0);
                }
            } else {
                assert_int_equal(o->kind, NOC_OP_RECV);
                assert_int_equal(i, 0);
                assert_int_equal(o->peer, parent[r]);
            }
        }
    for (int r = 1; r < 8; r++)
        assert_int_equal(sends[r], 1);
    int64_t **mem = interpret(p);
    free_mems(p, mem);
    round_trip(p);
    /* plain GOAL in, plain GOAL out: no extension in the written text */
    char *text = write_string(p);
    assert_null(strstr(text, "w "));
    assert_null(strstr(text, "addr"));
    assert_null(strstr(text, "program"));
    free(text);
    noc_prog_free(p);
}

static void test_example_sum(void **state)
{
    (void)state;
    noc_program_t *p = read_example("examples/programs/sum_4.goal");
    assert_string_equal(p->name, "sum_4");
    assert_int_equal(p->n_ranks, 4);
    assert_int_equal(p->n_steps, 2);
    assert_int_equal(p->n_expect, 8);
    int64_t **mem = interpret(p);
    for (int r = 0; r < 4; r++) {
        assert_int_equal(p->ranks[r].mem_words, 4);
        assert_int_equal(p->ranks[r].n_expect, 2);
        for (uint32_t k = 0; k < p->ranks[r].n_expect; k++) {
            const noc_memval_t *v = &p->expect[p->ranks[r].expect_start + k];
            assert_int_equal(mem[r][v->addr], v->value);
        }
        assert_int_equal(mem[r][0], 10);
        assert_int_equal(mem[r][1], 60);
    }
    free_mems(p, mem);
    round_trip(p);
    noc_prog_free(p);
}

/* The reference interpreter computes what the ops say. */
static void test_interpreter(void **state)
{
    (void)state;
    noc_program_t *p = read_ok("num_ranks 2\nrank 0 {\ninit 0 5\nsend 1w to 1 addr 0\n}\n"
                               "rank 1 {\ninit 2 9 -4 3\n"
                               "r: recv 1w from 0 addr 1\n"
                               "c: copy 1w at 0 from 1\nc requires r\n"
                               "x: max 1w at 2 from 0\nx requires c\n"
                               "n: min 1w at 3 from 0\nn requires c\n"
                               "a: add 1w at 4 from 0\na requires c\n"
                               "m: max 1w at 1 from 4\nm requires a\n}\n");
    int64_t **mem = interpret(p);
    int64_t want[5] = {5, 8, 9, -4, 8};
    for (int i = 0; i < 5; i++)
        assert_int_equal(mem[1][i], want[i]);
    free_mems(p, mem);
    noc_prog_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_example_bcast),
        cmocka_unit_test(test_example_sum),
        cmocka_unit_test(test_interpreter),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
