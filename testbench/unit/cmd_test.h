/* cmd_test.h: what the tests that run noctua's programs as a user would
 * share: a scratch folder, running a binary named by an environment
 * variable (NOCTUA_BINARY, NOCTUA_BENCH) inside it with stdout and stderr
 * captured, and reading and writing files there. Header-only (static
 * functions); include it after cmocka.h in one test file. */
#ifndef NOC_CMD_TEST_H
#define NOC_CMD_TEST_H
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
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

/* Start `exec noctua ARGS` through sh in the scratch folder, its files
 * limited to fsize bytes (RLIMIT_FSIZE, as a full disk would limit them;
 * < 0: no limit), stdout and stderr together into a pipe whose read end
 * goes to *fd. Returns the pid (noctua's own, thanks to exec). */
static inline pid_t cmd_spawn(const char *args, long fsize, int *fd)
{
    const char *bin = getenv("NOCTUA_BINARY");
    assert_non_null(bin);
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "exec '%s' %s", bin, args);
    int p[2];
    assert_int_equal(pipe(p), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (chdir(cmd_tmpdir) != 0)
            _exit(126);
        dup2(p[1], 1);
        dup2(p[1], 2);
        close(p[0]);
        close(p[1]);
        if (fsize >= 0) {
            struct rlimit rl = { (rlim_t)fsize, (rlim_t)fsize };
            setrlimit(RLIMIT_FSIZE, &rl);
        }
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    close(p[1]);
    *fd = p[0];
    return pid;
}

/* Read fd to its end (into *out, caller frees; NULL: dropped) and wait for
 * pid. Returns its exit status, or 128 + the signal that killed it. */
static inline int cmd_finish(pid_t pid, int fd, char **out)
{
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    assert_non_null(buf);
    for (;;) {
        if (n + 1024 > cap) {
            cap *= 2;
            buf = realloc(buf, cap);
            assert_non_null(buf);
        }
        ssize_t k = read(fd, buf + n, cap - n - 1);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        n += (size_t)k;
    }
    buf[n] = '\0';
    close(fd);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    if (out)
        *out = buf;
    else
        free(buf);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* `noctua ARGS` with files limited to fsize bytes; output into *out. */
static inline int cmd_run_limited(const char *args, long fsize, char **out)
{
    int fd;
    pid_t pid = cmd_spawn(args, fsize, &fd);
    return cmd_finish(pid, fd, out);
}

/* The names in the scratch folder (dot files too, not . and ..), sorted,
 * one per line; the caller frees. */
static inline int cmd_cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static inline char *cmd_listing(void)
{
    DIR *d = opendir(cmd_tmpdir);
    assert_non_null(d);
    char *names[256];
    int k = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        assert_true(k < 256);
        names[k++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)k, sizeof names[0], cmd_cmp_names);
    size_t len = 1;
    for (int i = 0; i < k; i++)
        len += strlen(names[i]) + 1;
    char *s = calloc(1, len);
    assert_non_null(s);
    for (int i = 0; i < k; i++) {
        strcat(s, names[i]);
        strcat(s, "\n");
        free(names[i]);
    }
    return s;
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
