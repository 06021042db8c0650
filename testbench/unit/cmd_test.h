/* cmd_test.h: what the tests that run noctua's programs as a user would
 * share: a scratch folder, running a binary named by an environment
 * variable (NOCTUA_BINARY, NOCTUA_BENCH) inside it with stdout and stderr
 * captured, and reading and writing files there. Header-only (static
 * functions); include it after cmocka.h in one test file. */
#ifndef NOC_CMD_TEST_H
#define NOC_CMD_TEST_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char cmd_tmpdir[256];

/* The whole file at path (NUL-terminated, caller frees), or NULL; its
 * length in *len if len is not NULL. */
static inline char *cmd_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = calloc(1, (size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    if (len)
        *len = (size_t)n;
    return buf;
}

/* Run `[env] $binvar ARGS` in the scratch folder, stdout into *out and
 * stderr into *err (either may be NULL; the caller frees them); returns the
 * exit status. */
static inline int cmd_run_bin(const char *binvar, const char *env, const char *args, char **out, char **err)
{
    const char *bin = getenv(binvar);
    assert_non_null(bin);
    char cmd[8192], path[400];
    snprintf(cmd, sizeof cmd, "cd '%s' && %s '%s' %s >'%s/out.txt' 2>'%s/err.txt'", cmd_tmpdir,
             env ? env : "", bin, args, cmd_tmpdir, cmd_tmpdir);
    int st = system(cmd);
    assert_true(WIFEXITED(st));
    for (int k = 0; k < 2; k++) {
        char **dst = k ? err : out;
        if (!dst)
            continue;
        snprintf(path, sizeof path, "%s/%s", cmd_tmpdir, k ? "err.txt" : "out.txt");
        *dst = cmd_slurp(path, NULL);
        assert_non_null(*dst);
    }
    return WEXITSTATUS(st);
}

/* `noctua ARGS`. */
static inline int cmd_run(const char *args, char **out, char **err)
{
    return cmd_run_bin("NOCTUA_BINARY", NULL, args, out, err);
}

/* Write text to the scratch file `name`; its full path into path. */
static inline void cmd_write(const char *name, const char *text, char *path, size_t len)
{
    int k = snprintf(path, len, "%s/%s", cmd_tmpdir, name);
    assert_true(k > 0 && (size_t)k < len);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* cmocka group setup and teardown: a fresh scratch folder (under $TMPDIR
 * or /tmp), removed at the end. */
static inline int cmd_setup(void **state)
{
    (void)state;
    const char *base = getenv("TMPDIR");
    snprintf(cmd_tmpdir, sizeof cmd_tmpdir, "%s/noctua-test-XXXXXX", base && *base ? base : "/tmp");
    return mkdtemp(cmd_tmpdir) ? 0 : -1;
}

static inline int cmd_teardown(void **state)
{
    (void)state;
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", cmd_tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}
#endif
