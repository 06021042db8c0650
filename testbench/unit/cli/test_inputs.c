/* test_inputs.c: the text files a user gives noctua (--config, graph:FILE,
 * --program-file) are read whole or refused by name, never cut, never
 * endless (util/infile.h, docs/reliability.md "Inputs"): a directory or a
 * device is refused at once (/dev/zero would never end), a NUL byte and a
 * line of a million characters are refused with their line's number, a
 * config line that inih cannot hold is refused instead of being split, and a
 * pipe is read. Each refusal is exit 2 with the file named. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <signal.h>
#include <sys/stat.h>
#include "../cmd_test.h"

/* `noctua ARGS` must exit 2 within 20 s, saying want. */
static void refused(const char *args, const char *want)
{
    char *out;
    int fd;
    pid_t pid = cmd_spawn(args, -1, &fd);
    alarm(20); /* an endless read would hang the test: SIGALRM ends it */
    int rc = cmd_finish(pid, fd, &out);
    alarm(0);
    if (rc != 2 || !strstr(out, want))
        fail_msg("noctua %s: exit %d, wanted 2 and '%s' in:\n%s", args, rc, want, out);
    free(out);
}

static void write_bytes(const char *name, const char *bytes, size_t n)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", cmd_tmpdir, name);
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, n, f), n);
    fclose(f);
}

static void test_not_files(void **state)
{
    (void)state;
    refused("run --config /dev/zero", "/dev/zero: a character device, not a config file");
    refused("run --config /", "/: a directory, not a config file");
    refused("run graph:/dev/zero", "/dev/zero: a character device, not a graph file");
    refused("run graph:/", "/: a directory, not a graph file");
    refused("run mesh:2 --program-file /dev/zero", "/dev/zero: a character device, not a program");
    refused("run mesh:2 --program-file /", "/: a directory, not a program");
    refused("run --config /nonexistent.cfg", "/nonexistent.cfg: cannot read the config file");
    refused("draw mesh:2x2 --load / -o d.svg", "/: a directory, not a run's JSON");
    refused("draw mesh:2x2 --load /dev/zero -o d.svg", "/dev/zero: a character device, not a run's JSON");
}

static void test_nul_bytes(void **state)
{
    (void)state;
    write_bytes("nul.cfg", "seed = 1\npacket_size\0 = 2\n", 26);
    refused("run --config nul.cfg", "nul.cfg:2: a NUL byte");
    write_bytes("nul.txt", "0 1\n1 2\n2\0 0\n", 13);
    refused("run graph:nul.txt", "nul.txt:3: a NUL byte");
    write_bytes("nul.goal", "num_ranks 2\nrank 0 {\ncalc\0 1\n}\n", 31);
    refused("run mesh:2 --program-file nul.goal", "nul.goal:3: a NUL byte");
}

/* A line of 2^20 characters: refused with its number, whatever the file. */
static void test_long_lines(void **state)
{
    (void)state;
    size_t n = (size_t)1 << 20;
    char *big = malloc(n + 64);
    assert_non_null(big);
    memcpy(big, "0 1\n1 ", 6);
    memset(big + 6, '2', n);
    memcpy(big + 6 + n, "\n", 1);
    write_bytes("big.txt", big, n + 7);
    refused("run graph:big.txt", "big.txt:2: a line of more than 1048575 characters");
    memcpy(big, "seed = ", 7);
    memset(big + 7, '1', n);
    write_bytes("big.cfg", big, n + 7);
    refused("run --config big.cfg", "big.cfg:1: a line of more than 1048575 characters");
    free(big);
}

/* The line inih cut at column 199, the rest read as a line of its own
 * (packet_size = 4 set silently): now read whole, as the one assignment it
 * is (of seed, to a value that is no integer). A line padded with blanks at
 * its end is read as it means, and a long line that means something works:
 * a SPEC with a graph file's path of 300 characters (a ring of 4). */
static void test_config_line_not_split(void **state)
{
    (void)state;
    char line[400], p[512];
    int k = snprintf(line, sizeof line, "seed = 1");
    memset(line + k, ' ', 200);
    snprintf(line + k + 200, sizeof line - (size_t)k - 200, "packet_size = 4\n");
    cmd_write("split.cfg", line, p, sizeof p);
    refused("run ring:4 --config split.cfg", "split.cfg:1: parameter 'seed': '1      ");
    refused("run ring:4 --config split.cfg", "...' is not an integer");
    snprintf(line + k + 200, sizeof line - (size_t)k - 200, "\npacket_size = 3\n");
    cmd_write("pad.cfg", line, p, sizeof p);
    char *out;
    assert_int_equal(cmd_run_limited("run ring:4 --config pad.cfg --json pad.json --quiet", -1, &out), 0);
    free(out);
    snprintf(p, sizeof p, "%s/pad.json", cmd_tmpdir);
    char *json = cmd_slurp(p, NULL);
    assert_non_null(strstr(json, "\"packet_size\": 3,"));
    assert_non_null(strstr(json, "\"seed\": 1,"));
    free(json);

    char dir[256], graph[400], cfg[600];
    memset(dir, 'd', 250);
    dir[250] = '\0';
    snprintf(p, sizeof p, "%s/%s", cmd_tmpdir, dir);
    assert_int_equal(mkdir(p, 0700), 0);
    snprintf(graph, sizeof graph, "%s/%s", dir, "a-graph-file-of-the-petersen-graph-beside-a-long-folder.txt");
    cmd_write(graph, "0 1\n1 2\n2 3\n3 0\n", p, sizeof p);
    snprintf(cfg, sizeof cfg, "topology_spec = graph:%s // %zu characters\n", graph, strlen(graph));
    cmd_write("long.cfg", cfg, p, sizeof p);
    assert_int_equal(cmd_run_limited("run --config long.cfg --json long.json --quiet sample_cycles=50", -1, &out), 0);
    free(out);
    snprintf(p, sizeof p, "%s/long.json", cmd_tmpdir);
    json = cmd_slurp(p, NULL);
    assert_non_null(strstr(json, "-long-folder.txt\""));
    free(json);
}

/* Lines of the lengths where inih's buffer ends or doubles (it starts at
 * 256 bytes and grows as a line needs) are read whole: a value of
 * class_latency written with leading zeros to fill the line reaches the
 * report intact. */
static void test_config_line_lengths(void **state)
{
    (void)state;
    static const size_t lens[] = { 198, 199, 200, 254, 255, 256, 257, 510, 511, 512, 513, 1023, 4000 };
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        char line[4200], value[4100], p[512], args[128];
        size_t zeros = lens[i] - strlen("class_latency = dim0:2");
        int k = snprintf(value, sizeof value, "dim0:");
        memset(value + k, '0', zeros);
        snprintf(value + (size_t)k + zeros, sizeof value - (size_t)k - zeros, "2");
        snprintf(line, sizeof line, "class_latency = %s\n", value);
        assert_int_equal(strlen(line), lens[i] + 1);
        cmd_write("len.cfg", line, p, sizeof p);
        snprintf(args, sizeof args, "run ring:4 --config len.cfg --json len%zu.json --quiet sample_cycles=20", lens[i]);
        char *out;
        if (cmd_run_limited(args, -1, &out) != 0)
            fail_msg("a line of %zu characters: %s", lens[i], out);
        free(out);
        snprintf(p, sizeof p, "%s/len%zu.json", cmd_tmpdir, lens[i]);
        char *json = cmd_slurp(p, NULL);
        assert_non_null(json);
        if (!strstr(json, value))
            fail_msg("a line of %zu characters: class_latency is not %s", lens[i], value);
        free(json);
    }
}

/* What inih did besides: a line that begins with a blank other than a space
 * or a tab continued the value before it (seed = 7 from a line "\v7"); the
 * error reported was the last one, not the first; and a value longer than
 * any parameter's was cut to fit a buffer. */
static void test_config_lines(void **state)
{
    (void)state;
    char p[512];
    cmd_write("cont.cfg", "seed = 1\n\v7\n", p, sizeof p);
    refused("run ring:4 --config cont.cfg", "cont.cfg:2: not a 'key = value' line");
    cmd_write("first.cfg", "packet_size = 2\njunk\nno_such_parameter = 1\n", p, sizeof p);
    refused("run ring:4 --config first.cfg", "first.cfg:2: not a 'key = value' line");
    size_t n = 6000;
    char *big = malloc(n + 64);
    assert_non_null(big);
    int k = snprintf(big, 64, "seed = 1");
    memset(big + k, ' ', n);
    snprintf(big + k + n, 64, "2\n");
    cmd_write("long_value.cfg", big, p, sizeof p);
    refused("run ring:4 --config long_value.cfg", "long_value.cfg:1: parameter 'seed': a value of 6002 characters (at most 4351)");
    free(big);
}

/* A pipe is read: a shell's <(...) or a FIFO. */
static void test_pipe_read(void **state)
{
    (void)state;
    char p[512];
    snprintf(p, sizeof p, "%s/fifo.cfg", cmd_tmpdir);
    assert_int_equal(mkfifo(p, 0600), 0);
    char *out;
    int fd;
    pid_t pid = cmd_spawn("run ring:4 --config fifo.cfg --json fifo.json --quiet", -1, &fd);
    FILE *f = fopen(p, "w"); /* blocks until noctua opens it */
    assert_non_null(f);
    fputs("packet_size = 2\n", f);
    fclose(f);
    assert_int_equal(cmd_finish(pid, fd, &out), 0);
    free(out);
    snprintf(p, sizeof p, "%s/fifo.json", cmd_tmpdir);
    char *json = cmd_slurp(p, NULL);
    assert_non_null(strstr(json, "\"packet_size\": 2,"));
    free(json);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_not_files),
        cmocka_unit_test(test_nul_bytes),
        cmocka_unit_test(test_long_lines),
        cmocka_unit_test(test_config_line_not_split),
        cmocka_unit_test(test_config_lines),
        cmocka_unit_test(test_config_line_lengths),
        cmocka_unit_test(test_pipe_read),
    };
    return cmocka_run_group_tests(tests, cmd_setup, cmd_teardown);
}
