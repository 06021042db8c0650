/* test_program_read.c: the traffic-program reader on valid text: plain
 * GOAL as LogGOPSim writes it, noctua's extensions (program, mem, init,
 * expect, step, the combine ops, word sizes, any source or tag), byte to
 * word sizes, labels used before they are defined, reading from a file
 * (long lines, NUL bytes, what is not a file), and a mutation fuzz for
 * crashes. The reader's error messages are test_program_errors.c. */
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
        cmocka_unit_test(test_read_file),
        cmocka_unit_test(test_fuzz),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
