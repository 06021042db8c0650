/* fuzz_program.c: the traffic-program reader (traffic/program_read.c, the
 * GOAL superset of docs/programs.md). For every input: read it from a
 * string and from a file (the way --program-file reads it: util/infile.c);
 * the two must agree (both refuse with the same message but for the file's
 * name, or both give the same program) wherever the file reader has no
 * reason of its own (a NUL byte, a line of a million characters); a refusal
 * names the file and line; a program it accepts is written
 * (traffic/program_write.c), read back and must be the same program, and
 * written again the same text; a small one is run with the invariant
 * checker on after every cycle (fuzz_common.h). fuzz_goal.c does GOAL's
 * spellings. */
#include "testbench/fuzz/fuzz_prog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size, 1 << 16), err[512], ferr[512];
    if (!text)
        return 0;
    noc_program_t *p = noc_prog_read_string(text, "fuzz.goal", err, sizeof err);
    int has_nul = strlen(text) != size;
    free(text);
    if (!p && strncmp(err, "fuzz.goal:", 10) != 0)
        FUZZ_FAIL("a refusal that does not name the file and line: %s", err);
    const char *path = fuzz_file(data, size, ".goal");
    noc_program_t *fp = noc_prog_read_file(path, ferr, sizeof ferr);
    if (!fp && strncmp(ferr, path, strlen(path)) != 0)
        FUZZ_FAIL("a refusal that does not name the file: %s", ferr);
    if (!has_nul) {
        if (!p != !fp || (!p && strcmp(err + strlen("fuzz.goal"), ferr + strlen(path)) != 0))
            FUZZ_FAIL("read from a string: %s; from a file: %s", p ? "a program" : err, fp ? "a program" : ferr);
        if (p)
            fuzz_same_program(p, fp, "read from a file");
    }
    if (fp)
        noc_prog_free(fp);
    if (!p)
        return 0;
    char *once = fuzz_written(p);
    noc_program_t *q = noc_prog_read_string(once, "written.goal", err, sizeof err);
    if (!q)
        FUZZ_FAIL("the written program does not read back: %s\n%s", err, once);
    fuzz_same_program(p, q, "written and read back");
    char *twice = fuzz_written(q);
    if (strcmp(once, twice) != 0)
        FUZZ_FAIL("written twice, two texts:\n%s\n----\n%s", once, twice);
    free(once);
    free(twice);
    noc_prog_free(q);
    if (fuzz_small_program(p))
        fuzz_run_program(p, 0);
    noc_prog_free(p);
    return 0;
}
