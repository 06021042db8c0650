/* test_outputs.c: every file noctua writes is complete or absent, and
 * nothing that is not a regular file is ever replaced (util/outfile.h,
 * docs/reliability.md). A full disk is stood in for by a file-size limit
 * (RLIMIT_FSIZE: every write past n bytes of any file fails, as on a full
 * disk), swept over n for every kind of output: the run must exit 2, leave
 * no temporary behind, and leave what was there before either untouched or
 * replaced by a whole new file. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <sys/stat.h>
#include "../cmd_test.h"
#include "../full_disk.h"

/* Every kind of output, and the files each writes. */
static const fd_case_t cases[] = {
    { "run ring:4 --json r.json --quiet", { "r.json" } },
    { "run ring:4 --csv r.csv --quiet", { "r.csv" } },
    { "run bsn:ring:4 --program broadcast --csv pl.csv --quiet", { "pl.csv" } },
    { "run ring:4 --waves w.fst --quiet", { "w.fst", "w.gtkw" } },
    { "run ring:4 --waves w.vcd --quiet", { "w.vcd", "w.gtkw" } },
    { "run bsn:ring:4 --program broadcast --emit p.goal --emit-only", { "p.goal" } },
    { "run bsn:ring:4 --program broadcast --json p.json --waves pw.fst --quiet", { "p.json", "pw.fst", "pw.gtkw" } },
    { "topo mesh:4x4 --json t.json", { "t.json" } },
    { "sweep ring:4 --rates 0.1,0.2 -o sw", { "sw.csv", "sw.png", "sw.svg" } },
    { "draw torus:4x4 -o d.png", { "d.png" } },
    { "draw torus:4x4 -o d.svg", { "d.svg" } },
    { "draw torus:4x4 -o d.dot", { "d.dot" } },
};

static void test_full_disk_every_output(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        fd_check_case(&cases[i]);
}

/* Through a symbolic link the file it points to is replaced, and the link
 * stays a link. */
static void test_symlink_kept(void **state)
{
    (void)state;
    fd_clear();
    char target[512], link[512];
    cmd_write("target.fst", fd_precious, target, sizeof target);
    fd_path("link.fst", link, sizeof link);
    assert_int_equal(symlink("target.fst", link), 0);
    char *out;
    assert_int_equal(cmd_run_limited("run ring:4 --waves link.fst --json link.json --quiet", -1, &out), 0);
    free(out);
    struct stat st;
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_true(fd_size("target.fst") > 1000); /* the wave file went where the link points */
    char *fst = cmd_slurp(target, NULL);
    assert_true(fst[0] == 0); /* FST's first block: the header, type 0 */
    free(fst);
    /* a dangling link is refused, and stays */
    fd_path("dangling.json", link, sizeof link);
    assert_int_equal(symlink("no/such/file.json", link), 0);
    assert_int_equal(cmd_run_limited("run ring:4 --json dangling.json --quiet", -1, &out), 2);
    assert_non_null(strstr(out, "leads nowhere"));
    free(out);
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
}

/* A FIFO, a directory, a link to a FIFO: refused (exit 2), left as they
 * are. (Device nodes are refused by the same test of the file's type; the
 * test does not use one, since a broken build run as root could delete
 * the machine's.) */
static void test_non_regular_refused(void **state)
{
    (void)state;
    fd_clear();
    char fifo[512], dir[512], link[512];
    fd_path("pipe.fst", fifo, sizeof fifo);
    fd_path("dir.json", dir, sizeof dir);
    fd_path("link.json", link, sizeof link);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_equal(mkdir(dir, 0700), 0);
    char dsvg[512];
    fd_path("dir.svg", dsvg, sizeof dsvg);
    assert_int_equal(mkdir(dsvg, 0700), 0);
    fd_path("dir.csv", dsvg, sizeof dsvg);
    assert_int_equal(mkdir(dsvg, 0700), 0);
    assert_int_equal(symlink("pipe.fst", link), 0);
    static const char *const runs[] = {
        "run ring:4 --waves pipe.fst --quiet",
        "run ring:4 --waves pipe.fst --json ok.json --quiet",
        "run ring:4 --json dir.json --quiet",
        "run ring:4 --json link.json --quiet",
        "run ring:4 --csv dir.csv --quiet",
        "topo ring:4 --json dir.json",
        "run bsn:ring:4 --program broadcast --emit pipe.fst --emit-only",
        "draw ring:4 -o dir.svg",
        "sweep ring:4 --rates 0.1 -o dir",
        "draw ring:4 -o /proc/x.svg", /* a folder no file can be made in: bad input, not an internal error */
    };
    char *before = cmd_listing();
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        char *out;
        int rc = cmd_run_limited(runs[i], -1, &out);
        if (rc != 2)
            fail_msg("noctua %s: exit %d, not 2:\n%s", runs[i], rc, out);
        free(out);
        char *now = cmd_listing();
        assert_string_equal(now, before);
        free(now);
    }
    free(before);
    struct stat st;
    assert_int_equal(lstat(fifo, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    assert_int_equal(lstat(dir, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
}

/* Every output of a run is checked before the run starts: a path that
 * cannot be written ends the command at once (exit 2, no "simulated ..."
 * line), after no work; two outputs on stdout are refused. */
static void test_outputs_checked_first(void **state)
{
    (void)state;
    static const char *const runs[] = {
        "run mesh:4x4 --json no/such/dir/r.json",
        "run mesh:4x4 --csv no/such/dir/r.csv",
        "run mesh:4x4 --waves no/such/dir/w.fst",
        "run bsn:ring:4 --program broadcast --json no/such/dir/p.json",
        "run bsn:ring:4 --program broadcast --emit no/such/dir/p.goal",
        "run mesh:4x4 --json - --csv -",
        "run bsn:ring:4 --program broadcast --emit - --json -",
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        char *out, *err;
        int rc = cmd_run(runs[i], &out, &err);
        if (rc != 2 || strstr(err, "simulated") || strstr(out, "cycles"))
            fail_msg("noctua %s: exit %d (want 2, before any work):\n%s%s", runs[i], rc, out, err);
        assert_true(strstr(err, "no/such/dir") || strstr(err, "stdout"));
        free(out);
        free(err);
    }
}

/* The per-link CSV holds the JSON's links[], row for row. */
static void test_links_csv(void **state)
{
    (void)state;
    char *out, *err;
    assert_int_equal(cmd_run("run torus:4x4 injection_rate=0.2 sample_cycles=1000 --csv l.csv --json -", &out, &err), 0);
    char path[600];
    fd_path("l.csv", path, sizeof path);
    char *csv = cmd_slurp(path, NULL);
    assert_non_null(csv);
    char *save, *line = strtok_r(csv, "\n", &save);
    assert_string_equal(line, "from,to,class,flits,busy,utilisation,contention,credit_stall,peak_queue");
    int rows = 0;
    unsigned long long flits = 0;
    while ((line = strtok_r(NULL, "\n", &save)) != NULL) {
        /* "(a,b)","(c,d)","dimK",flits,... */
        const char *p = strstr(line, "\",\"dim");
        assert_non_null(p);
        p = strchr(p + 3, ',');
        assert_non_null(p);
        flits += strtoull(p + 1, NULL, 10);
        rows++;
    }
    assert_int_equal(rows, 64); /* 16 nodes x 4 directed links */
    const char *fh = strstr(out, "\"flit_hops\": ");
    assert_non_null(fh);
    assert_int_equal(flits, strtoull(fh + 13, NULL, 10));
    free(csv);
    free(out);
    free(err);
}

/* stdout is output too: a full device there is an error. */
static void test_stdout_full(void **state)
{
    (void)state;
    static const char *const runs[] = {
        "run ring:4 >/dev/full",
        "run ring:4 --quiet --json - >/dev/full",
        "topo ring:4 >/dev/full",
        "run bsn:ring:4 --program broadcast --emit - --emit-only >/dev/full",
        "params >/dev/full",
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        char *out;
        int rc = cmd_run_limited(runs[i], -1, &out);
        if (rc != 2)
            fail_msg("noctua %s: exit %d, not 2:\n%s", runs[i], rc, out);
        assert_non_null(strstr(out, "standard output"));
        free(out);
    }
}

/* A new file gets 0666 less the umask; a replaced one keeps its mode. */
static void test_permissions(void **state)
{
    (void)state;
    fd_clear();
    char p[512], q[512];
    cmd_write("old.json", fd_precious, p, sizeof p);
    assert_int_equal(chmod(p, 0604), 0);
    char *out;
    mode_t mask = umask(027);
    assert_int_equal(cmd_run_limited("run ring:4 --json old.json --quiet", -1, &out), 0);
    free(out);
    assert_int_equal(cmd_run_limited("run ring:4 --json new.json --quiet", -1, &out), 0);
    free(out);
    umask(mask);
    struct stat st;
    assert_int_equal(stat(p, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0604);
    assert_true(st.st_size > 1000);
    fd_path("new.json", q, sizeof q);
    assert_int_equal(stat(q, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0640);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_full_disk_every_output),
        cmocka_unit_test(test_symlink_kept),
        cmocka_unit_test(test_non_regular_refused),
        cmocka_unit_test(test_stdout_full),
        cmocka_unit_test(test_outputs_checked_first),
        cmocka_unit_test(test_links_csv),
        cmocka_unit_test(test_permissions),
    };
    return cmocka_run_group_tests(tests, cmd_setup, cmd_teardown);
}
