/* test_program.c: the text form of traffic programs: the reader (GOAL and
 * noctua's extensions, every error with its line, errors found at finish
 * named by file and line), the writer (write -> read gives the same
 * program), the examples in examples/programs/ (run by a small reference
 * interpreter that checks the expected memory), and a mutation fuzz for
 * crashes. The builder's own tests are
 * testbench/unit/model/test_program_builder.c. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "model/program.h"
#include "testbench/unit/program_test.h"

/* ---- helpers ---- */

static noc_program_t *read_ok(const char *text)
{
    char err[512];
    noc_program_t *p = noc_prog_read_string(text, "prog.goal", err, sizeof err);
    if (!p)
        fail_msg("read failed: %s", err);
    return p;
}

/* Reading `text` fails with "prog.goal:LINE: ..." containing `what`. */
static void read_err(const char *text, int line, const char *what)
{
    char err[512], head[64];
    noc_program_t *p = noc_prog_read_string(text, "prog.goal", err, sizeof err);
    if (p) {
        noc_prog_free(p);
        fail_msg("read succeeded, expected line %d: %s\n--\n%s", line, what, text);
    }
    snprintf(head, sizeof head, "prog.goal:%d: ", line);
    if (strncmp(err, head, strlen(head)) != 0 || !strstr(err, what))
        fail_msg("got \"%s\", expected \"%s...%s\"", err, head, what);
}

static char *write_string(const noc_program_t *p)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(noc_prog_write(p, f), 0);
    fclose(f);
    return buf;
}

#define SAME(field)                                                                               \
    do {                                                                                          \
        if (x->field != y->field)                                                                 \
            fail_msg("%s %u: " #field " %lld vs %lld", what, (unsigned)i, (long long)x->field,    \
                     (long long)y->field);                                                        \
    } while (0)

/* Everything but the ops' source lines. */
static void assert_same(const noc_program_t *a, const noc_program_t *b)
{
    assert_int_equal(a->n_ranks, b->n_ranks);
    assert_int_equal(!a->name, !b->name);
    if (a->name)
        assert_string_equal(a->name, b->name);
    assert_int_equal(a->n_ops, b->n_ops);
    assert_int_equal(a->n_deps, b->n_deps);
    assert_int_equal(a->n_init, b->n_init);
    assert_int_equal(a->n_expect, b->n_expect);
    assert_int_equal(a->n_steps, b->n_steps);
    for (int s = 0; s < a->n_steps; s++)
        assert_string_equal(a->steps[s], b->steps[s]);
    const char *what = "rank";
    for (int i = 0; i < a->n_ranks; i++) {
        const noc_rank_t *x = &a->ranks[i], *y = &b->ranks[i];
        SAME(op_start); SAME(n_ops); SAME(mem_words);
        SAME(init_start); SAME(n_init); SAME(expect_start); SAME(n_expect);
    }
    what = "op";
    for (uint32_t i = 0; i < a->n_ops; i++) {
        const noc_op_t *x = &a->ops[i], *y = &b->ops[i];
        SAME(kind); SAME(cpu); SAME(nic); SAME(in_bytes); SAME(peer); SAME(tag); SAME(words);
        SAME(bytes); SAME(addr); SAME(src); SAME(cost); SAME(step); SAME(dep_start);
        SAME(n_deps);
    }
    what = "dep";
    for (uint32_t i = 0; i < a->n_deps; i++) {
        const noc_dep_t *x = &a->deps[i], *y = &b->deps[i];
        SAME(op); SAME(start);
    }
    what = "init";
    for (uint32_t i = 0; i < a->n_init; i++) {
        const noc_memval_t *x = &a->init[i], *y = &b->init[i];
        SAME(addr); SAME(value);
    }
    what = "expect";
    for (uint32_t i = 0; i < a->n_expect; i++) {
        const noc_memval_t *x = &a->expect[i], *y = &b->expect[i];
        SAME(addr); SAME(value);
    }
}

/* Write p, read it back, compare; the second writing is the same text. */
static void round_trip(const noc_program_t *p)
{
    char err[512];
    char *text = write_string(p);
    noc_program_t *q = noc_prog_read_string(text, "written", err, sizeof err);
    if (!q)
        fail_msg("reading the written program: %s\n%.2000s", err, text);
    assert_same(p, q);
    char *again = write_string(q);
    assert_string_equal(text, again);
    free(again);
    free(text);
    noc_prog_free(q);
}

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

/* ---- GOAL ---- */

static const char goal_text[] =
    "// a binary tree on 6 ranks, GOAL as LogGOPSim writes it\n" /* 1 */
    "num_ranks 6\n"                                               /* 2 */
    "\n"                                                          /* 3 */
    "rank 0 {\n"                                                  /* 4 */
    "l1: send 1b to 1 tag 0\n"                                    /* 5 */
    "l2: send 1b to 2 tag 0\n"                                    /* 6 */
    "}\n"                                                         /* 7 */
    "/* a comment\n"                                              /* 8 */
    "   over two lines */\n"                                      /* 9 */
    "rank 1 {\n"                                                  /* 10 */
    "  l1 : recv 1b from 0 tag 0 cpu 1\n"                         /* 11 */
    "\tl2:send 1024b to 3 tag 7 nic 2 // forward\n"               /* 12 */
    "l2 requires l1\n"                                            /* 13 */
    "l3: send 1b to 4 tag 0 cpu 3 nic 1\n"                        /* 14 */
    "l3 irequires l2\n"                                           /* 15 */
    "l4: calc 100 cpu 1\n"                                        /* 16 */
    "l4 requires l1\n"                                            /* 17 */
    "calc 5\n"                                                    /* 18 */
    "}\n"                                                         /* 19 */
    "rank 3 {\n"                                                  /* 20 */
    "l1: recv 1024b from 1 tag 7\n"                               /* 21 */
    "}\n"                                                         /* 22 */
    "rank 2 {\r\n"                                                /* 23 */
    "l1: recv 1b from 0 tag 0\r\n"                                /* 24 */
    "}\n"                                                         /* 25 */
    "rank 4 {\n"                                                  /* 26 */
    "l1: recv 1 b from 1 tag 0\n"                                 /* 27 */
    "}\n";                                                        /* 28 */

static void test_goal_plain(void **state)
{
    (void)state;
    noc_program_t *p = read_ok(goal_text);
    assert_null(p->name);
    assert_int_equal(p->n_ranks, 6);
    assert_int_equal(p->n_ops, 10);
    assert_int_equal(p->n_deps, 3);
    assert_int_equal(p->n_steps, 0);
    assert_int_equal(p->n_init + p->n_expect, 0);
    int counts[6] = {2, 5, 1, 1, 1, 0};
    for (int r = 0; r < 6; r++) {
        assert_int_equal(p->ranks[r].n_ops, counts[r]);
        assert_int_equal(p->ranks[r].mem_words, 0);
    }
    /* ranks in rank order although the file has rank 3 before rank 2 */
    assert_int_equal(p->ranks[2].op_start, 7);
    assert_int_equal(op_of(p, 2, 0)->peer, 0);
    assert_int_equal(op_of(p, 3, 0)->peer, 1);

    const noc_op_t *o = op_of(p, 0, 1);
    assert_int_equal(o->kind, NOC_OP_SEND);
    assert_int_equal(o->peer, 2);
    assert_int_equal(o->tag, 0);
    assert_int_equal(o->words, 1);
    assert_int_equal(o->in_bytes, 1);
    assert_int_equal(o->bytes, 1);
    assert_int_equal(o->addr, NOC_PROG_NO_ADDR);
    assert_int_equal(o->line, 6);
    assert_int_equal(o->n_deps, 0);

    o = op_of(p, 1, 0);
    assert_int_equal(o->kind, NOC_OP_RECV);
    assert_int_equal(o->peer, 0);
    assert_int_equal(o->cpu, 1);
    assert_int_equal(o->line, 11);
    o = op_of(p, 1, 1);
    assert_int_equal(o->kind, NOC_OP_SEND);
    assert_int_equal(o->words, 128);
    assert_int_equal(o->bytes, 1024);
    assert_int_equal(o->tag, 7);
    assert_int_equal(o->nic, 2);
    assert_int_equal(o->cpu, 0);
    o = op_of(p, 1, 2);
    assert_int_equal(o->cpu, 3);
    assert_int_equal(o->nic, 1);
    o = op_of(p, 1, 3);
    assert_int_equal(o->kind, NOC_OP_CALC);
    assert_int_equal(o->cost, 100);
    assert_int_equal(o->cpu, 1);
    o = op_of(p, 1, 4);
    assert_int_equal(o->kind, NOC_OP_CALC);
    assert_int_equal(o->cost, 5);
    assert_int_equal(o->line, 18);
    assert_int_equal(o->n_deps, 0);

    assert_int_equal(op_of(p, 1, 1)->n_deps, 1);
    assert_dep(p, 1, 1, 0, 0, 0);
    assert_dep(p, 1, 2, 0, 1, 1);
    assert_dep(p, 1, 3, 0, 0, 0);
    assert_int_equal(op_of(p, 4, 0)->words, 1);
    noc_prog_free(p);
}

/* ---- extensions ---- */

static const char ext_text[] =
    "program test.ext-1\n"                        /* 1 */
    "num_ranks 3   # three ranks\n"               /* 2 */
    "rank 1 {\n"                                  /* 3 */
    "  mem 40\n"                                  /* 4 */
    "  init 4 7 -8 9\n"                           /* 5 */
    "  init 20 -9223372036854775808\n"            /* 6 */
    "  expect 0 1 2\n"                            /* 7 */
    "  step phase:1\n"                            /* 8 */
    "  a: recv 3w from any tag any addr 10\n"     /* 9 */
    "  b: send 2w to 0 tag 5 addr 4\n"            /* 10 */
    "  step -\n"                                  /* 11 */
    "  c: add 3w at 4 from 10\n"                  /* 12 */
    "  min 1w at 0 from 1 cost 7\n"               /* 13 */
    "  step phase:1\n"                            /* 14 */
    "  max 2w at 30 from 31 cost 0 cpu 2\n"       /* 15 */
    "  copy 4w at 50 from 2\n"                    /* 16 */
    "  c requires a\n"                            /* 17 */
    "  c irequires b\n"                           /* 18 */
    "}\n"                                         /* 19 */
    "rank 0 {\n"                                  /* 20 */
    "  step setup\n"                              /* 21 */
    "  recv 2w from 1 tag 5 addr 3  # data\n"     /* 22 */
    "  step phase:1\n"                            /* 23 */
    "  send 9b to 2 addr 0\n"                     /* 24 */
    "}\n"                                         /* 25 */
    "rank 2 {\n"                                  /* 26 */
    "  recv 9b from -1 tag -1 addr 100\n"         /* 27 */
    "  expect 7 42\n"                             /* 28 */
    "}\n";                                        /* 29 */

static void test_extensions(void **state)
{
    (void)state;
    noc_program_t *p = read_ok(ext_text);
    assert_string_equal(p->name, "test.ext-1");
    assert_int_equal(p->n_ops, 9);
    /* steps in the order the file first names them (rank 1's block first) */
    assert_int_equal(p->n_steps, 2);
    assert_string_equal(p->steps[0], "phase:1");
    assert_string_equal(p->steps[1], "setup");
    assert_int_equal(op_of(p, 0, 0)->step, 1);
    assert_int_equal(op_of(p, 0, 1)->step, 0);
    int steps1[6] = {0, 0, -1, -1, 0, 0};
    for (uint32_t i = 0; i < 6; i++)
        assert_int_equal(op_of(p, 1, i)->step, steps1[i]);
    assert_int_equal(op_of(p, 2, 0)->step, -1);

    const noc_op_t *o = op_of(p, 1, 0);
    assert_int_equal(o->kind, NOC_OP_RECV);
    assert_int_equal(o->peer, NOC_PROG_ANY);
    assert_int_equal(o->tag, NOC_PROG_ANY);
    assert_int_equal(o->words, 3);
    assert_int_equal(o->in_bytes, 0);
    assert_int_equal(o->addr, 10);
    o = op_of(p, 1, 2);
    assert_int_equal(o->kind, NOC_OP_ADD);
    assert_int_equal(o->words, 3);
    assert_int_equal(o->addr, 4);
    assert_int_equal(o->src, 10);
    assert_int_equal(o->cost, NOC_PROG_DEFAULT_COST);
    assert_int_equal(o->n_deps, 2);
    assert_dep(p, 1, 2, 0, 0, 0);
    assert_dep(p, 1, 2, 1, 1, 1);
    o = op_of(p, 1, 3);
    assert_int_equal(o->kind, NOC_OP_MIN);
    assert_int_equal(o->cost, 7);
    o = op_of(p, 1, 4);
    assert_int_equal(o->kind, NOC_OP_MAX);
    assert_int_equal(o->cost, 0);
    assert_int_equal(o->cpu, 2);
    assert_int_equal(op_of(p, 1, 5)->kind, NOC_OP_COPY);

    /* memory: rank 1 asked for 40, copy 4w at 50 reaches 54 */
    assert_int_equal(p->ranks[1].mem_words, 54);
    assert_int_equal(p->ranks[0].mem_words, 5);   /* recv 2w at 3; send 2w at 0 */
    assert_int_equal(p->ranks[2].mem_words, 102); /* 9b = 2 words at 100 */
    assert_int_equal(op_of(p, 2, 0)->words, 2);

    assert_int_equal(p->n_init, 4);
    assert_int_equal(p->ranks[1].n_init, 4);
    const noc_memval_t *v = &p->init[p->ranks[1].init_start];
    assert_int_equal(v[0].addr, 4);
    assert_int_equal(v[0].value, 7);
    assert_int_equal(v[1].value, -8);
    assert_int_equal(v[2].addr, 6);
    assert_int_equal(v[3].addr, 20);
    assert_true(v[3].value == INT64_MIN);
    assert_int_equal(p->ranks[1].n_expect, 2);
    assert_int_equal(p->ranks[2].n_expect, 1);
    assert_int_equal(p->expect[p->ranks[2].expect_start].addr, 7);
    assert_int_equal(p->expect[p->ranks[2].expect_start].value, 42);
    round_trip(p);
    noc_prog_free(p);
}

static void test_bytes_to_words(void **state)
{
    (void)state;
    const uint64_t bytes[] = {0, 1, 7, 8, 9, 16, 17, 1000, 34359738360ull};
    const uint32_t words[] = {1, 1, 1, 1, 2, 2, 3, 125, 4294967295u};
    for (size_t i = 0; i < sizeof bytes / sizeof *bytes; i++) {
        char text[200];
        snprintf(text, sizeof text, "num_ranks 2\nrank 0 {\nsend %llub to 1\n}\n",
                 (unsigned long long)bytes[i]);
        noc_program_t *p = read_ok(text);
        assert_int_equal(p->ops[0].words, words[i]);
        assert_int_equal(p->ops[0].in_bytes, 1);
        assert_true(p->ops[0].bytes == bytes[i]);
        round_trip(p);
        noc_prog_free(p);
    }
    read_err("num_ranks 2\nrank 0 {\nsend 34359738361b to 1\n}\n", 3, "out of range");
    read_err("num_ranks 2\nrank 0 {\nsend 0w to 1\n}\n", 3, "size 0w out of range");
    read_err("num_ranks 2\nrank 0 {\nsend 4294967296w to 1\n}\n", 3, "out of range");
}

static void test_any_source_tag(void **state)
{
    (void)state;
    noc_program_t *p = read_ok("num_ranks 2\nrank 0 {\nrecv 1b from -1 tag -1\n"
                               "recv 1b from any tag any\nrecv 1b from any\n"
                               "recv 1b from 1 tag any\n}\n");
    for (int i = 0; i < 3; i++)
        assert_int_equal(p->ops[i].peer, NOC_PROG_ANY);
    assert_int_equal(p->ops[0].tag, NOC_PROG_ANY);
    assert_int_equal(p->ops[1].tag, NOC_PROG_ANY);
    assert_int_equal(p->ops[2].tag, 0);
    assert_int_equal(p->ops[3].peer, 1);
    assert_int_equal(p->ops[3].tag, NOC_PROG_ANY);
    round_trip(p);
    noc_prog_free(p);
    read_err("num_ranks 2\nrank 0 {\nsend 1b to -1\n}\n", 3, "destination rank -1 out of range");
    read_err("num_ranks 2\nrank 0 {\nsend 1b to any\n}\n", 3, "expected a rank after 'to'");
    read_err("num_ranks 2\nrank 0 {\nsend 1b to 1 tag any\n}\n", 3, "expected tag");
    read_err("num_ranks 2\nrank 0 {\nsend 1b to 1 tag -1\n}\n", 3, "tag -1 out of range");
    read_err("num_ranks 2\nrank 0 {\nrecv 1b from -2\n}\n", 3, "source rank -2 out of range");
}

static void test_forward_labels(void **state)
{
    (void)state;
    noc_program_t *p = read_ok("num_ranks 2\n"
                               "rank 1 {\n"
                               "first requires last\n"
                               "first: recv 1b from 0\n"
                               "mid irequires last\n"
                               "mid: calc 10\n"
                               "last: calc 20\n"
                               "}\n");
    assert_int_equal(p->ranks[1].n_ops, 3);
    assert_dep(p, 1, 0, 0, 2, 0);
    assert_dep(p, 1, 1, 0, 2, 1);
    assert_int_equal(op_of(p, 1, 2)->n_deps, 0);
    round_trip(p);
    noc_prog_free(p);
    /* labels are scoped per rank block */
    p = read_ok("num_ranks 2\nrank 0 {\nx: calc 1\n}\nrank 1 {\nx: calc 2\ny: calc 3\n"
                "y requires x\n}\n");
    assert_dep(p, 1, 1, 0, 0, 0);
    noc_prog_free(p);
    read_err("num_ranks 2\nrank 0 {\nx: calc 1\n}\nrank 1 {\ny: calc 3\ny requires x\n}\n", 7,
             "undefined label 'x' in rank 1");
}

/* ---- round trips ---- */

static void test_round_trip_features(void **state)
{
    (void)state;
    noc_program_t *p = noc_prog_new(6, "all.features");
    /* ranks interleaved on purpose; rank 4 only asks for memory */
    noc_prog_step(p, 1, "a");
    uint32_t s1 = noc_prog_send(p, 1, 0, 3, 4, 8);
    noc_prog_step(p, 0, "b");
    uint32_t r0 = noc_prog_recv(p, 0, 1, 3, 4, 0);
    uint32_t r0b = noc_prog_recv(p, 0, NOC_PROG_ANY, NOC_PROG_ANY, 1, NOC_PROG_NO_ADDR);
    noc_prog_step(p, 0, NULL);
    uint32_t c0 = noc_prog_combine(p, 0, NOC_OP_ADD, 4, 0, 4);
    noc_op_t op = {0};
    op.kind = NOC_OP_MIN;
    op.words = 2;
    op.addr = 20;
    op.src = 0;
    op.cost = 0;
    uint32_t c1 = noc_prog_add(p, 0, &op);
    noc_prog_step(p, 0, "b");
    uint32_t c2 = noc_prog_combine(p, 0, NOC_OP_MAX, 1, 3, 30);
    uint32_t c3 = noc_prog_combine(p, 0, NOC_OP_COPY, 3, 40, 0);
    uint32_t k0 = noc_prog_calc(p, 0, 0);
    noc_prog_step(p, 1, "c");
    uint32_t k1 = noc_prog_calc(p, 1, 12345678901ll);
    op = (noc_op_t){0};
    op.kind = NOC_OP_SEND;
    op.peer = 5;
    op.tag = 2147483647;
    op.words = 3;
    op.in_bytes = 1;
    op.bytes = 17;
    op.addr = NOC_PROG_NO_ADDR;
    op.cpu = 255;
    op.nic = 3;
    uint32_t s2 = noc_prog_add(p, 1, &op);
    op.kind = NOC_OP_RECV;
    op.peer = 1;
    op.tag = NOC_PROG_ANY;
    op.addr = 7;
    op.cpu = 0;
    noc_prog_add(p, 5, &op);
    op = (noc_op_t){0};
    op.kind = NOC_OP_COPY;
    op.words = 1;
    op.addr = 1;
    op.src = 2;
    op.cost = 9;
    op.nic = 1;
    noc_prog_add(p, 5, &op);
    noc_prog_dep(p, r0b, r0, 0);
    noc_prog_dep(p, c0, r0, 0);
    noc_prog_dep(p, c0, r0b, 1);
    noc_prog_dep(p, c0, r0, 0); /* twice: kept twice */
    noc_prog_dep(p, c1, k0, 0); /* forward */
    noc_prog_dep(p, c2, c1, 1);
    noc_prog_dep(p, c3, c2, 0);
    noc_prog_dep(p, s1, k1, 1); /* forward, in rank 1 */
    noc_prog_dep(p, s2, s1, 0);
    noc_prog_mem(p, 4, 99);
    noc_prog_mem(p, 0, 10); /* less than the ops reach: no effect */
    noc_prog_mem(p, 1, 1000);
    for (uint32_t a = 0; a < 40; a++) /* more than a line's worth, with a gap */
        noc_prog_init(p, 2, a < 20 ? a : a + 5, (int64_t)a * 1000 - 7);
    noc_prog_init(p, 0, 3, -1);
    noc_prog_expect(p, 0, 0, INT64_MAX);
    noc_prog_expect(p, 3, 12, 5);
    noc_prog_expect(p, 3, 11, 4);
    finish_ok(p);
    assert_int_equal(p->ranks[0].mem_words, 43);
    assert_int_equal(p->ranks[1].mem_words, 1000);
    assert_int_equal(p->ranks[2].mem_words, 45);
    assert_int_equal(p->ranks[3].mem_words, 13);
    assert_int_equal(p->ranks[4].mem_words, 99);
    assert_int_equal(p->ranks[5].mem_words, 10);
    assert_int_equal(p->n_steps, 3); /* in the order first named */
    assert_string_equal(p->steps[0], "a");
    assert_string_equal(p->steps[1], "b");
    assert_string_equal(p->steps[2], "c");
    round_trip(p);

    /* the written text has the features in the documented form */
    char *text = write_string(p);
    assert_non_null(strstr(text, "program all.features\nnum_ranks 6\n"));
    assert_non_null(strstr(text, "l0: send 17b to 5 tag 2147483647 cpu 255 nic 3\n") ||
                    strstr(text, "l2: send 17b to 5 tag 2147483647 cpu 255 nic 3\n"));
    assert_non_null(strstr(text, "l1: recv 1w from -1 tag -1\n"));
    assert_non_null(strstr(text, "l3: min 2w at 20 from 0 cost 0\n"));
    assert_non_null(strstr(text, "l3 requires l6\n"));
    assert_non_null(strstr(text, "l2 irequires l1\n"));
    assert_non_null(strstr(text, "rank 4 {\nmem 99\n}\n"));
    assert_non_null(strstr(text, "step -\n"));
    char want[300] = "init 0";
    for (int a = 0; a < 16; a++)
        snprintf(want + strlen(want), sizeof want - strlen(want), " %d", a * 1000 - 7);
    strcat(want, "\ninit 16 15993 16993 17993 18993\ninit 25 19993 ");
    assert_non_null(strstr(text, want));
    assert_non_null(strstr(text, "\ninit 41 35993 36993 37993 38993\n"));
    assert_non_null(strstr(text, "expect 11 4 5\n"));
    free(text);
    noc_prog_free(p);
}

static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* n ops over `ranks` ranks, random kinds and dependencies on earlier ops. */
static noc_program_t *random_program(uint32_t n, int ranks, uint64_t seed)
{
    noc_program_t *p = noc_prog_new(ranks, "random");
    uint32_t per = n / (uint32_t)ranks;
    char name[32];
    for (int r = 0; r < ranks; r++) {
        uint32_t first = p->n_ops;
        for (uint32_t i = 0; i < per; i++) {
            if (rnd(&seed) % 50 == 0) {
                snprintf(name, sizeof name, "s%u", (unsigned)(rnd(&seed) % 20));
                noc_prog_step(p, r, rnd(&seed) % 4 ? name : NULL);
            }
            int peer = (int)(rnd(&seed) % (uint64_t)ranks);
            int tag = (int)(rnd(&seed) % 100);
            uint32_t w = 1 + (uint32_t)(rnd(&seed) % 64);
            int32_t a = rnd(&seed) % 3 ? (int32_t)(rnd(&seed) % 1000) : NOC_PROG_NO_ADDR;
            uint32_t k;
            switch (rnd(&seed) % 5) {
            case 0: k = noc_prog_send(p, r, peer, tag, w, a); break;
            case 1: k = noc_prog_recv(p, r, rnd(&seed) % 5 ? peer : NOC_PROG_ANY, tag, w, a); break;
            case 2: k = noc_prog_calc(p, r, (int64_t)(rnd(&seed) % 1000)); break;
            default:
                k = noc_prog_combine(p, r, (noc_op_kind_t)(NOC_OP_ADD + rnd(&seed) % 4), w,
                                     (int32_t)(rnd(&seed) % 1000), (int32_t)(rnd(&seed) % 1000));
            }
            for (uint32_t d = (uint32_t)(rnd(&seed) % 3); d > 0 && k > first; d--)
                noc_prog_dep(p, k, first + (uint32_t)(rnd(&seed) % (k - first)),
                             (int)(rnd(&seed) % 2));
        }
        if (rnd(&seed) % 2)
            noc_prog_init(p, r, (uint32_t)(rnd(&seed) % 2000), (int64_t)rnd(&seed));
        noc_prog_expect(p, r, (uint32_t)(rnd(&seed) % 2000), -(int64_t)(rnd(&seed) % 1000));
    }
    return p;
}

static void test_round_trip_large(void **state)
{
    (void)state;
    noc_program_t *p = random_program(100000, 50, 12345);
    finish_ok(p);
    assert_int_equal(p->n_ops, 100000);
    assert_true(p->n_deps > 50000);
    assert_true(p->n_steps > 10);
    round_trip(p);
    noc_prog_free(p);
}

/* ---- errors ---- */

#define HEAD "num_ranks 4\nrank 1 {\n" /* lines 1-2 */

static void test_read_errors(void **state)
{
    (void)state;
    read_err(HEAD "send 8b 2\n}\n", 3, "expected 'to' after the size of a send");
    read_err(HEAD "recv 8b to 2\n}\n", 3, "expected 'from' after the size of a recv");
    read_err(HEAD "a: calc 1\na requires zz\n}\n", 4, "undefined label 'zz' in rank 1");
    read_err(HEAD "a: calc 1\n\na: calc 2\n}\n", 5, "label 'a' defined twice in rank 1 (first at line 3)");
    read_err("num_ranks 4\nrank 4 {\n}\n", 2, "rank 4 out of range [0, 4)");
    read_err("num_ranks 4\nrank -1 {\n}\n", 2, "rank -1 out of range");
    read_err(HEAD "send 1b to 4\n}\n", 3, "destination rank 4 out of range [0, 4)");
    read_err(HEAD "recv 1b from 9\n}\n", 3, "source rank 9 out of range");
    read_err(HEAD "calc 1\n", 3, "block of rank 1 (line 2) is not closed");
    read_err(HEAD "calc 1\nrank 2 {\n}\n", 4, "'rank' inside the block of rank 1");
    read_err(HEAD "calc 1\nnum_ranks 3\n}\n", 4, "'num_ranks' inside the block of rank 1");
    read_err("rank 0 {\n}\n", 1, "num_ranks missing before the first rank block");
    read_err("// nothing\n\nprogram x\n", 3, "num_ranks missing");
    read_err("", 1, "num_ranks missing");
    read_err("num_ranks 4\nnum_ranks 4\n", 2, "num_ranks given twice (first at line 1)");
    read_err("num_ranks 0\n", 1, "num_ranks 0 out of range");
    read_err("num_ranks 99999999999999999999\n", 1, "out of range");
    read_err("num_ranks four\n", 1, "expected num_ranks (a number), found 'four'");
    read_err("num_ranks 4\nranks 2 {\n", 2, "unknown keyword 'ranks'");
    read_err(HEAD "sned 1b to 2\n}\n", 3, "unknown keyword 'sned'");
    read_err(HEAD "send 1b to 2 tag 2147483648\n}\n", 3, "tag 2147483648 out of range");
    read_err(HEAD "send 1b to 2 cpu 256\n}\n", 3, "cpu 256 out of range [0, 255]");
    read_err(HEAD "send 1b to 2 nic -1\n}\n", 3, "nic -1 out of range");
    read_err(HEAD "send 1b to 2 tag 1 tag 2\n}\n", 3, "'tag' given twice");
    read_err(HEAD "send 1b to 2 tag\n}\n", 3, "expected a value after 'tag'");
    read_err(HEAD "send 1b to 2 cost 3\n}\n", 3, "unknown option 'cost' for a send");
    read_err(HEAD "calc 5 addr 3\n}\n", 3, "unknown option 'addr' for a calc");
    read_err(HEAD "calc -5\n}\n", 3, "out of range");
    read_err(HEAD "calc\n}\n", 3, "expected the cycles of a calc");
    read_err(HEAD "send 16x to 2\n}\n", 3, "expected the size of a send (like 16b or 2w), found '16x'");
    read_err(HEAD "send b to 2\n}\n", 3, "expected the size of a send");
    read_err(HEAD "send\n}\n", 3, "expected a size after 'send'");
    read_err(HEAD "add 16b at 0 from 2\n}\n", 3, "the size of an add is in words (like 16w), not bytes");
    read_err(HEAD "copy 2w to 0 from 2\n}\n", 3, "expected 'at' after the size of a copy");
    read_err(HEAD "max 2w at 0 to 2\n}\n", 3, "expected 'from' after the destination of a max");
    read_err(HEAD "min 2w at 0 from\n}\n", 3, "expected the source address");
    read_err(HEAD "add 2w at 0 from 2 cost -2\n}\n", 3, "cost -2 out of range");
    read_err(HEAD "mem 16777217\n}\n", 3, "the memory size 16777217 out of range");
    read_err(HEAD "init 0 1 99999999999999999999\n}\n", 3, "a value 99999999999999999999 out of range");
    read_err(HEAD "init 0 1 2x\n}\n", 3, "expected a value (a number), found '2x'");
    read_err(HEAD "init 5\n}\n", 3, "expected values after 'init 5'");
    read_err(HEAD "init 16777215 1 2\n}\n", 3, "init reaches word 16777216");
    read_err(HEAD "init 3 1 2\ninit 0 0 0 0 0\n}\n", 4, "word 3 of rank 1 has two init values (the first at line 3)");
    read_err(HEAD "expect 3 1\n\n\nexpect 3 1\n}\n", 6, "two expect values");
    read_err("num_ranks 4\nrank 1 {\n}\nrank 1 {\n}\n", 4, "rank 1 has a block already (line 2)");
    read_err("num_ranks 4\n}\n", 2, "'}' without an open rank block");
    read_err(HEAD "}\n}\n", 4, "'}' without an open rank block");
    read_err(HEAD "} x\n", 3, "expected nothing after '}'");
    read_err("num_ranks 4\nrank 1\n{\n}\n", 2, "expected 'rank 1 {'");
    read_err("num_ranks 4\n/* open\n\n", 3, "comment opened at line 2 is not closed");
    read_err("num_ranks 4\nx: calc 1\n", 2, "label 'x' outside a rank block");
    read_err("num_ranks 4\ncalc 1\n", 2, "'calc' outside a rank block");
    read_err("num_ranks 4\na requires b\n", 2, "a dependency outside a rank block");
    read_err(HEAD "x:\n}\n", 3, "expected an op after label 'x'");
    read_err(HEAD "x: mem 4\n}\n", 3, "a label names an op");
    read_err(HEAD "x: a requires b\n}\n", 3, "a label names an op, not a dependency");
    read_err(HEAD "a requires b c\n}\n", 3, "expected 'LABEL requires LABEL'");
    read_err(HEAD "a requires 2b\n}\n", 3, "bad label '2b'");
    read_err(HEAD "step a/b\n}\n", 3, "bad step name 'a/b'");
    /* a ':' first or last would read back as a label (found by fuzz_goal:
     * "step :or1" was written as "steps :or1 ..." and read as label 'steps') */
    read_err(HEAD "step :or1\n}\n", 3, "bad step name ':or1'");
    read_err(HEAD "step or1:\n}\n", 3, "bad step name 'or1:'");
    read_err("num_ranks 2\nsteps a :b\n", 2, "bad step name ':b'");
    read_err(HEAD "step\n}\n", 3, "expected 'step NAME' or 'step -'");
    read_err("program a\nprogram b\n", 2, "program given twice (first at line 1)");
    read_err("program a b\n", 1, "expected 'program NAME'");
    read_err("program a=b\n", 1, "bad program name 'a=b'");
    read_err(HEAD "send 1b to 2 addr -3\n}\n", 3, "address -3 out of range [0, 16777215]");
    read_err(HEAD "mem 5 6\n}\n", 3, "expected nothing after 'mem 5'");
    /* long lines: no truncation, the error still names the token */
    size_t n = 100000;
    char *big = malloc(n + 100);
    strcpy(big, HEAD "calc 1 cpu ");
    memset(big + strlen(big), '7', n);
    strcpy(big + strlen(HEAD "calc 1 cpu ") + n, "\n}\n");
    read_err(big, 3, "cpu 777777");
    free(big);
}

/* Errors found when the program is finished name FILE:LINE too. */
static void test_read_finish_errors(void **state)
{
    (void)state;
    read_err(HEAD "add 2w at 16777215 from 0\n}\n", 3, "rank 1: add reaches word 16777216");
    read_err(HEAD "recv 2w from 0 addr 16777215\n}\n", 3, "recv reaches word 16777216");
    read_err(HEAD "calc 1\n\na: calc 1\nb: calc 2\na requires b\nb irequires a\n}\n", 5,
             "rank 1: dependency cycle: line 5 -> line 6 -> line 5");
    read_err(HEAD "calc 1\na: calc 1\na requires a\n}\n", 4, "dependency cycle: line 4 -> line 4");
}

/* ---- the builder's checks ---- */

static void test_memory_growth(void **state)
{
    (void)state;
    noc_program_t *p = noc_prog_new(6, NULL);
    noc_prog_send(p, 0, 1, 0, 4, 10);                       /* 14 */
    noc_prog_recv(p, 0, 1, 0, 100, NOC_PROG_NO_ADDR);       /* no data: nothing */
    noc_prog_combine(p, 1, NOC_OP_ADD, 3, 2, 20);           /* source reaches 23 */
    noc_prog_combine(p, 1, NOC_OP_COPY, 3, 30, 2);          /* destination reaches 33 */
    noc_prog_init(p, 2, 50, 1);                             /* 51 */
    noc_prog_expect(p, 2, 60, 1);                           /* 61 */
    noc_prog_mem(p, 2, 8);                                  /* less: 61 */
    noc_prog_calc(p, 3, 1000);                              /* no memory */
    noc_prog_mem(p, 4, 7);
    noc_prog_mem(p, 4, 5);                                  /* at least: 7 */
    noc_prog_send(p, 5, 0, 0, 1, 0);
    noc_prog_mem(p, 5, 300);
    finish_ok(p);
    uint32_t want[6] = {14, 33, 61, 0, 7, 300};
    for (int r = 0; r < 6; r++)
        assert_int_equal(p->ranks[r].mem_words, want[r]);
    round_trip(p);
    noc_prog_free(p);

    p = read_ok("num_ranks 2\nrank 0 {\nmem 5\nmem 12\nmem 3\n}\nrank 1 {\nmem 4\n"
                "copy 1w at 6 from 0\n}\n");
    assert_int_equal(p->ranks[0].mem_words, 12);
    assert_int_equal(p->ranks[1].mem_words, 7);
    noc_prog_free(p);
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

static void test_read_file(void **state)
{
    (void)state;
    char path[] = "/tmp/noctua_prog_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "num_ranks 1\nrank 0 {\ninit 0");
    for (int i = 0; i < 100000; i++) /* a line far longer than any buffer */
        fprintf(f, " %d", -i);
    fprintf(f, "\n}\n");
    fclose(f);
    char err[512];
    noc_program_t *p = noc_prog_read_file(path, err, sizeof err);
    if (!p)
        fail_msg("%s", err);
    assert_int_equal(p->n_init, 100000);
    assert_int_equal(p->init[99999].value, -99999);
    assert_int_equal(p->ranks[0].mem_words, 100000);
    noc_prog_free(p);

    f = fopen(path, "w");
    fprintf(f, "num_ranks 2\nrank 0 {\nsend 1b to 1\nsend 1b too 1\n}\n");
    fclose(f);
    assert_null(noc_prog_read_file(path, err, sizeof err));
    char want[128];
    snprintf(want, sizeof want, "%s:4: expected 'to' after the size of a send", path);
    assert_string_equal(err, want);

    f = fopen(path, "w");
    fwrite("num_ranks 2\ncalc\0 1\n", 1, 20, f);
    fclose(f);
    assert_null(noc_prog_read_file(path, err, sizeof err));
    assert_non_null(strstr(err, ":2: a NUL byte"));

    unlink(path);
    assert_null(noc_prog_read_file(path, err, sizeof err));
    assert_non_null(strstr(err, "cannot read the program"));
    assert_non_null(strstr(err, path));

    /* not a file: refused at once, never read (/dev/zero would not end) */
    assert_null(noc_prog_read_file("/dev/zero", err, sizeof err));
    assert_string_equal(err, "/dev/zero: a character device, not a program");
    assert_null(noc_prog_read_file("/", err, sizeof err));
    assert_string_equal(err, "/: a directory, not a program");
}

/* Random damage to a valid program never crashes the reader: it gives a
 * program or a message naming the file and a line. */
static void test_fuzz(void **state)
{
    (void)state;
    static const char alphabet[] = "0123456789 -:{}/*#\nabwlrtsqy_";
    uint64_t seed = 99;
    size_t n = strlen(ext_text);
    char *text = malloc(n + 64);
    int ok = 0;
    for (int round = 0; round < 3000; round++) {
        memcpy(text, round % 2 ? ext_text : goal_text, (round % 2 ? n : strlen(goal_text)) + 1);
        size_t len = strlen(text);
        for (int k = 1 + (int)(rnd(&seed) % 4); k > 0; k--) {
            size_t at = (size_t)(rnd(&seed) % len);
            if (rnd(&seed) % 3 == 0) { /* delete */
                memmove(text + at, text + at + 1, len - at);
                len--;
            } else {
                text[at] = alphabet[rnd(&seed) % (sizeof alphabet - 1)];
            }
        }
        char err[256] = "x";
        noc_program_t *p = noc_prog_read_string(text, "fuzz", err, sizeof err);
        if (p) {
            ok++;
            noc_prog_free(p);
        } else if (strncmp(err, "fuzz:", 5) != 0) {
            fail_msg("message \"%s\" for\n%s", err, text);
        }
    }
    printf("fuzz: %d of 3000 damaged programs still read\n", ok);
    assert_true(ok > 0 && ok < 3000);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_goal_plain),
        cmocka_unit_test(test_extensions),
        cmocka_unit_test(test_bytes_to_words),
        cmocka_unit_test(test_any_source_tag),
        cmocka_unit_test(test_forward_labels),
        cmocka_unit_test(test_round_trip_features),
        cmocka_unit_test(test_round_trip_large),
        cmocka_unit_test(test_read_errors),
        cmocka_unit_test(test_read_finish_errors),
        cmocka_unit_test(test_memory_growth),
        cmocka_unit_test(test_example_bcast),
        cmocka_unit_test(test_example_sum),
        cmocka_unit_test(test_interpreter),
        cmocka_unit_test(test_read_file),
        cmocka_unit_test(test_fuzz),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
