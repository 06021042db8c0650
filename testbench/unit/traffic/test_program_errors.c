/* test_program_errors.c: the traffic-program reader on bad text: every
 * error names the line and what is wrong with it (keywords, sizes, ranks,
 * options, labels, blocks, comments, steps, memory values, long lines), and
 * errors found only when the program is finished (memory reach, dependency
 * cycles) name FILE:LINE too. */
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
#include "testbench/unit/traffic/program_text_test.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_errors),
        cmocka_unit_test(test_read_finish_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
