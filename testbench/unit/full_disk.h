/* full_disk.h: the full-disk check of one command's outputs, shared by
 * cli.outputs (testbench/unit/cli/test_outputs.c) and waves.rtl_trace (the
 * Verilated cores' own trace). A full disk is stood in for by a file-size
 * limit (RLIMIT_FSIZE: every write past n bytes of any file fails, as on a
 * full disk), swept over n: the command must exit 2 saying "nothing
 * written", leave no temporary behind, and leave each of its outputs that
 * was there before either untouched or replaced by a whole new file.
 * Header-only; include after cmocka.h and cmd_test.h. */
#ifndef NOC_TEST_FULL_DISK_H
#define NOC_TEST_FULL_DISK_H
#include <sys/stat.h>

static const char fd_precious[] = "precious: the user's own file\n";

/* A command and the files it writes (at most 4). */
typedef struct fd_case {
    const char *args;
    const char *targets[4];
} fd_case_t;

static inline void fd_path(const char *name, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s", cmd_tmpdir, name);
}

static inline long fd_size(const char *name)
{
    char p[512];
    struct stat st;
    fd_path(name, p, sizeof p);
    return stat(p, &st) == 0 ? (long)st.st_size : -1;
}

/* Empty the scratch folder. */
static inline void fd_clear(void)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir '%s'", cmd_tmpdir, cmd_tmpdir);
    assert_int_equal(system(cmd), 0);
}

static inline void fd_put_precious(const fd_case_t *c)
{
    char p[512];
    for (int k = 0; k < 4 && c->targets[k]; k++)
        cmd_write(c->targets[k], fd_precious, p, sizeof p);
}

/* One case under one limit. */
static inline void fd_check_limited(const fd_case_t *c, long limit, const long *full_size, const char *listing)
{
    fd_put_precious(c);
    char *out;
    int rc = cmd_run_limited(c->args, limit, &out);
    if (rc != 2)
        fail_msg("noctua %s with files limited to %ld bytes: exit %d, not 2:\n%s", c->args, limit, rc, out);
    if (!strstr(out, "nothing written"))
        fail_msg("noctua %s, limit %ld: no 'nothing written' in\n%s", c->args, limit, out);
    char *now = cmd_listing();
    if (strcmp(now, listing) != 0)
        fail_msg("noctua %s, limit %ld: the folder holds\n%swhere it held\n%s", c->args, limit, now, listing);
    free(now);
    int kept = 0;
    for (int k = 0; k < 4 && c->targets[k]; k++) {
        char p[512];
        fd_path(c->targets[k], p, sizeof p);
        char *text = cmd_slurp(p, NULL);
        assert_non_null(text);
        if (strcmp(text, fd_precious) == 0)
            kept++;
        else if (fd_size(c->targets[k]) != full_size[k])
            fail_msg("noctua %s, limit %ld: %s is neither the old file nor whole (%ld bytes, whole %ld)",
                     c->args, limit, c->targets[k], fd_size(c->targets[k]), full_size[k]);
        free(text);
    }
    assert_true(kept > 0); /* what failed is the user's old file still */
    free(out);
}

/* The whole check of one case: a run without a limit gives the outputs'
 * sizes; then the limits 0, 1, 2, 4, ... (every power of two below the
 * biggest output) and one byte short of the biggest: a write fails at
 * every stage of every output, from its first byte to its last. */
static inline void fd_check_case(const fd_case_t *c)
{
    fd_clear();
    char *out;
    int rc = cmd_run_limited(c->args, -1, &out);
    if (rc != 0)
        fail_msg("noctua %s: exit %d:\n%s", c->args, rc, out);
    free(out);
    long full[4] = { 0 }, biggest = 0;
    for (int k = 0; k < 4 && c->targets[k]; k++) {
        full[k] = fd_size(c->targets[k]);
        assert_true(full[k] > 0);
        if (full[k] > biggest)
            biggest = full[k];
    }
    fd_clear();
    fd_put_precious(c);
    char *listing = cmd_listing();
    fd_check_limited(c, 0, full, listing);
    for (long limit = 1; limit < biggest; limit *= 2)
        fd_check_limited(c, limit, full, listing);
    fd_check_limited(c, biggest - 1, full, listing);
    free(listing);
}
#endif
