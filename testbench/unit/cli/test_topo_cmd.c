/* test_topo_cmd.c: `noctua topo` and `noctua draw` as a user meets them,
 * through the built binary (NOCTUA_BINARY): the side-by-side table, its JSON
 * (parsed with jansson), bad SPECs and options with exit status 2, and
 * pictures: an SVG that names every node, a PNG, the DOT alone, link load
 * from a run's JSON, a run of another fabric refused, and the message when
 * Graphviz is missing. The rendering checks need neato on PATH and fail
 * without it (tools/bootstrap.sh installs graphviz). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include <jansson.h>

#include "testbench/unit/cmd_test.h"

/* The line of the table that starts with `row`, split into its cells (the
 * row name may have blanks: cells are taken from the right). */
static int row_cells(const char *table, const char *row, char cells[][32], int n)
{
    const char *p = table;
    size_t rl = strlen(row);
    while (p && *p) {
        if (strncmp(p, row, rl) == 0 && p[rl] == ' ' && p[rl + 1] == ' ')
            break;
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    if (!p || !*p)
        return -1;
    const char *end = strchr(p, '\n');
    char line[512];
    size_t len = end ? (size_t)(end - p) : strlen(p);
    if (len >= sizeof line)
        return -1;
    memcpy(line, p, len);
    line[len] = '\0';
    /* cells are separated by two or more blanks; start after the name */
    char *q = line + rl;
    int k = 0;
    while (*q && k < n) {
        while (*q == ' ')
            q++;
        if (!*q)
            break;
        char *c = q;
        while (*q && !(q[0] == ' ' && q[1] == ' '))
            q++;
        snprintf(cells[k], 32, "%.*s", (int)(q - c), c);
        k++;
    }
    return k;
}

static void assert_row(const char *table, const char *row, const char *a, const char *b, const char *c)
{
    char cells[3][32];
    if (row_cells(table, row, cells, 3) != 3)
        fail_msg("no row '%s' with three cells in:\n%s", row, table);
    const char *want[3] = {a, b, c};
    for (int i = 0; i < 3; i++)
        if (strcmp(cells[i], want[i]) != 0)
            fail_msg("row '%s' column %d: '%s', expected '%s'", row, i + 1, cells[i], want[i]);
}

static void test_table(void **state)
{
    (void)state;
    char *out, *err;
    assert_int_equal(cmd_run("topo mesh:8x8 torus:8x8 hypercube:6", &out, &err), 0);
    assert_row(out, "fabric", "mesh:8x8", "torus:8x8", "hypercube:6");
    assert_row(out, "nodes", "64", "64", "64");
    assert_row(out, "links", "112", "128", "192");
    assert_row(out, "  class dim0", "56", "64", "32");
    assert_row(out, "  class dim5", "-", "-", "32");
    assert_row(out, "degree min", "2", "4", "6");
    assert_row(out, "degree max", "4", "4", "6");
    assert_row(out, "degree avg", "3.50", "4.00", "6.00");
    assert_row(out, "diameter", "14", "8", "6");
    assert_row(out, "avg distance", "5.333", "4.063", "3.048");
    assert_row(out, "bisection width", "<= 8 (bound)", "<= 16 (bound)", "<= 32 (bound)");
    assert_row(out, "links per node", "1.75", "2.00", "3.00");
    assert_row(out, "degree x diameter", "56", "32", "36");
    assert_non_null(strstr(out, "upper bound"));
    free(out);
    free(err);

    assert_int_equal(cmd_run("topo ring:16 mesh:4x4 hypercube:4", &out, &err), 0);
    assert_row(out, "bisection width", "2 (exact)", "4 (exact)", "8 (exact)");
    free(out);
    free(err);
}

static void test_json(void **state)
{
    (void)state;
    char *out, *err;
    assert_int_equal(cmd_run("topo mesh:8x8 torus:8x8 hypercube:6 --json -", &out, &err), 0);
    json_error_t jerr;
    json_t *j = json_loads(out, 0, &jerr);
    if (!j)
        fail_msg("topo --json - is not JSON (%s):\n%s", jerr.text, out);
    assert_true(json_is_array(j));
    assert_int_equal(json_array_size(j), 3);
    static const struct {
        const char *spec;
        int links, dmin, dmax, diameter, bisection;
        double avg;
    } want[] = {
        {"mesh:8x8", 112, 2, 4, 14, 8, 2.0 * 63.0 / 24.0 * 64.0 / 63.0},
        {"torus:8x8", 128, 4, 4, 8, 16, 4.0 * 64.0 / 63.0},
        {"hypercube:6", 192, 6, 6, 6, 32, 3.0 * 64.0 / 63.0},
    };
    for (size_t i = 0; i < 3; i++) {
        json_t *o = json_array_get(j, i);
        assert_string_equal(json_string_value(json_object_get(o, "spec")), want[i].spec);
        assert_int_equal(json_integer_value(json_object_get(o, "nodes")), 64);
        assert_int_equal(json_integer_value(json_object_get(o, "links")), want[i].links);
        json_t *deg = json_object_get(o, "degree");
        assert_int_equal(json_integer_value(json_object_get(deg, "min")), want[i].dmin);
        assert_int_equal(json_integer_value(json_object_get(deg, "max")), want[i].dmax);
        assert_true(json_is_number(json_object_get(deg, "avg")));
        assert_int_equal(json_integer_value(json_object_get(o, "diameter")), want[i].diameter);
        double avg = json_number_value(json_object_get(o, "avg_distance"));
        assert_true(avg > want[i].avg - 1e-6 && avg < want[i].avg + 1e-6);
        json_t *b = json_object_get(o, "bisection");
        assert_int_equal(json_integer_value(json_object_get(b, "value")), want[i].bisection);
        assert_true(json_is_false(json_object_get(b, "exact")));
        json_t *cls = json_object_get(o, "links_per_class");
        assert_int_equal(json_integer_value(json_object_get(cls, "dim1")), want[i].links / (i == 2 ? 6 : 2));
        assert_true(json_is_number(json_object_get(o, "links_per_node")));
        assert_true(json_is_integer(json_object_get(o, "degree_x_diameter")));
    }
    json_decref(j);
    free(out);
    free(err);

    /* to a file, with the table on stdout */
    char path[512];
    snprintf(path, sizeof path, "%s/facts.json", cmd_tmpdir);
    char args[700];
    snprintf(args, sizeof args, "topo ring:16 --json %s", path);
    assert_int_equal(cmd_run(args, &out, &err), 0);
    assert_non_null(strstr(out, "ring:16"));
    j = json_load_file(path, 0, &jerr);
    assert_non_null(j);
    json_t *b = json_object_get(json_array_get(j, 0), "bisection");
    assert_int_equal(json_integer_value(json_object_get(b, "value")), 2);
    assert_true(json_is_true(json_object_get(b, "exact")));
    json_decref(j);
    free(out);
    free(err);
}

static void test_bad_input(void **state)
{
    (void)state;
    char *out, *err;
    assert_int_equal(cmd_run("topo mesh:8x8 bogus:3", &out, &err), 2);
    assert_non_null(strstr(err, "bogus"));
    assert_string_equal(out, ""); /* nothing printed for the good SPEC either */
    free(out);
    free(err);
    assert_int_equal(cmd_run("topo mesh:0x4", &out, &err), 2);
    assert_non_null(strstr(err, "mesh:0x4"));
    free(out);
    free(err);
    assert_int_equal(cmd_run("topo", &out, &err), 2);
    assert_non_null(strstr(err, "no SPEC"));
    free(out);
    free(err);
    assert_int_equal(cmd_run("topo mesh:4x4 --exact-max 65", &out, &err), 2);
    assert_non_null(strstr(err, "--exact-max"));
    free(out);
    free(err);
    assert_int_equal(cmd_run("topo mesh:4x4 --frobnicate", &out, &err), 2);
    assert_non_null(strstr(err, "--frobnicate"));
    free(out);
    free(err);
    assert_int_equal(cmd_run("topo --help", &out, &err), 0);
    assert_non_null(strstr(out, "usage: noctua topo"));
    assert_non_null(strstr(out, "bisection"));
    free(out);
    free(err);
    assert_int_equal(cmd_run("draw --help", &out, &err), 0);
    assert_non_null(strstr(out, "usage: noctua draw"));
    free(out);
    free(err);
    assert_int_equal(cmd_run("draw torus:4x4", &out, &err), 2);
    assert_non_null(strstr(err, "-o"));
    free(out);
    free(err);
    assert_int_equal(cmd_run("draw torus:4x4 -o x.jpg", &out, &err), 2);
    assert_non_null(strstr(err, ".svg"));
    free(out);
    free(err);
    assert_int_equal(cmd_run("draw torus:1x4 -o x.svg", &out, &err), 2);
    assert_non_null(strstr(err, "torus:1x4"));
    free(out);
    free(err);
}

static int have_neato(void)
{
    return system("command -v neato >/dev/null 2>&1") == 0;
}

/* The DOT alone needs no Graphviz: fixed positions, one edge per link. */
static void test_draw_dot(void **state)
{
    (void)state;
    char *out, *err, path[512];
    assert_int_equal(cmd_run("draw torus:4x4 -o t.dot", &out, &err), 0);
    free(out);
    free(err);
    snprintf(path, sizeof path, "%s/t.dot", cmd_tmpdir);
    char *dot = cmd_slurp(path, NULL);
    assert_non_null(dot);
    assert_non_null(strstr(dot, "graph \"torus:4x4\""));
    assert_non_null(strstr(dot, "label=\"(3,3)\""));
    int edges = 0, pinned = 0;
    for (const char *p = dot; (p = strstr(p, " -- n")); p++)
        edges++;
    for (const char *p = dot; (p = strstr(p, "!\", label")); p++)
        pinned++;
    assert_int_equal(edges, 32);
    assert_int_equal(pinned, 16);
    free(dot);

    /* other layouts */
    assert_int_equal(cmd_run("draw torus:4x4 --layout circle -o c.dot", &out, &err), 0);
    assert_non_null(strstr(err, "circle layout"));
    free(out);
    free(err);
    assert_int_equal(cmd_run("draw torus:4x4 --layout spiral -o c.dot", &out, &err), 2);
    assert_non_null(strstr(err, "spiral"));
    free(out);
    free(err);
}

static void test_draw_svg_png(void **state)
{
    (void)state;
    if (!have_neato()) {
        /* CI installs every dependency (tools/bootstrap.sh): a missing one
         * fails the test instead of dropping it */
        fail_msg("Graphviz's neato is not on PATH (Debian package graphviz)");
    }
    char *out, *err, path[512];
    assert_int_equal(cmd_run("draw torus:4x4 -o torus.svg --dot torus.dot", &out, &err), 0);
    free(out);
    free(err);
    snprintf(path, sizeof path, "%s/torus.svg", cmd_tmpdir);
    size_t len;
    char *svg = cmd_slurp(path, &len);
    assert_non_null(svg);
    assert_true(len > 1000);
    assert_non_null(strstr(svg, "<svg"));
    for (int x = 0; x < 4; x++)
        for (int y = 0; y < 4; y++) {
            char lab[32];
            snprintf(lab, sizeof lab, ">(%d,%d)</text>", x, y);
            if (!strstr(svg, lab))
                fail_msg("torus.svg lacks the label (%d,%d)", x, y);
        }
    free(svg);
    snprintf(path, sizeof path, "%s/torus.dot", cmd_tmpdir);
    assert_int_equal(access(path, R_OK), 0);

    assert_int_equal(cmd_run("draw hypercube:4 -o cube.png", &out, &err), 0);
    free(out);
    free(err);
    snprintf(path, sizeof path, "%s/cube.png", cmd_tmpdir);
    char *png = cmd_slurp(path, &len);
    assert_non_null(png);
    assert_true(len > 1000);
    assert_memory_equal(png, "\x89PNG", 4);
    free(png);

    assert_int_equal(cmd_run("draw hypercube:4 -o cube.svg", &out, &err), 0);
    free(out);
    free(err);
    snprintf(path, sizeof path, "%s/cube.svg", cmd_tmpdir);
    svg = cmd_slurp(path, NULL);
    assert_non_null(strstr(svg, ">0000</text>"));
    assert_non_null(strstr(svg, ">1111</text>"));
    free(svg);
}

/* Link load from a run: its fabric must be the one drawn. */
static void test_draw_load(void **state)
{
    (void)state;
    char *out, *err, path[512];
    assert_int_equal(cmd_run("run mesh:4x4 injection_rate=0.2 --quiet --json run.json", &out, &err), 0);
    free(out);
    free(err);
    assert_int_equal(cmd_run("draw torus:4x4 --load run.json -o x.svg", &out, &err), 2);
    assert_non_null(strstr(err, "mesh:4x4"));
    assert_non_null(strstr(err, "torus:4x4"));
    free(out);
    free(err);
    assert_int_equal(cmd_run("draw mesh:4x4 --load nosuch.json -o x.svg", &out, &err), 2);
    assert_non_null(strstr(err, "nosuch.json"));
    free(out);
    free(err);

    /* the DOT: two arrows per link, coloured by load */
    assert_int_equal(cmd_run("draw mesh:4x4 --load run.json -o load.dot", &out, &err), 0);
    free(out);
    free(err);
    snprintf(path, sizeof path, "%s/load.dot", cmd_tmpdir);
    char *dot = cmd_slurp(path, NULL);
    int arrows = 0;
    for (const char *p = dot; (p = strstr(p, "dir=forward")); p++)
        arrows++;
    assert_int_equal(arrows, 2 * 24);
    assert_non_null(strstr(dot, "utilisation"));
    /* absolute by default: the legend's top colour is utilisation 1 */
    assert_non_null(strstr(dot, "absolute scale"));
    assert_non_null(strstr(dot, "</font> 1.00</td>"));
    free(dot);
    /* relative: the top is the hottest link's utilisation, below 1 at 0.2 */
    assert_int_equal(cmd_run("draw mesh:4x4 --load run.json --scale relative -o rel.dot", &out, &err), 0);
    free(out);
    free(err);
    snprintf(path, sizeof path, "%s/rel.dot", cmd_tmpdir);
    dot = cmd_slurp(path, NULL);
    assert_non_null(strstr(dot, "relative scale"));
    assert_null(strstr(dot, "</font> 1.00</td>"));
    free(dot);
    assert_int_equal(cmd_run("draw mesh:4x4 --load run.json --scale huge -o x.dot", &out, &err), 2);
    free(out);
    free(err);
    /* a transpose run leaves links idle: drawn dashed, apart from the lowest load */
    assert_int_equal(cmd_run("run mesh:4x4 traffic=transpose injection_rate=0.1 --quiet --json tr.json", &out, &err), 0);
    free(out);
    free(err);
    assert_int_equal(cmd_run("draw mesh:4x4 --load tr.json -o tr.dot", &out, &err), 0);
    free(out);
    free(err);
    snprintf(path, sizeof path, "%s/tr.dot", cmd_tmpdir);
    dot = cmd_slurp(path, NULL);
    int dashed = 0, idle = 0;
    for (char *line = strtok(dot, "\n"); line; line = strtok(NULL, "\n")) {
        if (!strstr(line, "dir=forward"))
            continue;
        int d = strstr(line, "style=dashed") != NULL, z = strstr(line, ", 0 flits\"") != NULL;
        assert_int_equal(d, z); /* dashed exactly when it carried nothing */
        dashed += d;
        idle += z;
    }
    assert_true(dashed > 0 && dashed < 2 * 24);
    free(dot);

    /* a label that is not in the fabric */
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "sed 's/\"(3,3)\"/\"(9,9)\"/' %s/run.json > %s/bad.json", cmd_tmpdir, cmd_tmpdir);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(cmd_run("draw mesh:4x4 --load bad.json -o x.dot", &out, &err), 2);
    assert_non_null(strstr(err, "(9,9)"));
    free(out);
    free(err);

    if (!have_neato())
        fail_msg("Graphviz's neato is not on PATH (Debian package graphviz)");
    /* SPEC from the run itself */
    assert_int_equal(cmd_run("draw --load run.json -o load.svg", &out, &err), 0);
    free(out);
    free(err);
    snprintf(path, sizeof path, "%s/load.svg", cmd_tmpdir);
    char *svg = cmd_slurp(path, NULL);
    assert_non_null(svg);
    assert_non_null(strstr(svg, ">(2,1)</text>"));
    free(svg);
}

/* A BSN of 512 nodes is drawn as its 32 groups (boxes), an edge per pair of
 * groups joined by swap links: part0/group g and part1/group i share the one
 * link between node i of the first and node g of the second, so all 16 x 16
 * pairs, one link each; every group keeps its 16 ring links. --detail draws
 * every node. */
static void test_draw_clusters(void **state)
{
    (void)state;
    char *out, *err, path[512];
    assert_int_equal(cmd_run("draw bsn:ring:16 -o bsn.dot", &out, &err), 0);
    assert_non_null(strstr(err, "drawn as 32 groups"));
    free(out);
    free(err);
    snprintf(path, sizeof path, "%s/bsn.dot", cmd_tmpdir);
    char *dot = cmd_slurp(path, NULL);
    int boxes = 0, edges = 0, ring_links = 0;
    for (char *line = strtok(dot, "\n"); line; line = strtok(NULL, "\n")) {
        int a, b;
        if (sscanf(line, "  c%d -- c%d", &a, &b) == 2) {
            edges++;
            assert_true(a < 16 && b >= 16); /* part 0 to part 1 only */
        } else if (sscanf(line, "  c%d [pos=", &a) == 1) {
            boxes++;
            assert_non_null(strstr(line, "16 nodes, 16 links"));
            ring_links += 16;
        }
    }
    assert_int_equal(boxes, 32);
    assert_int_equal(edges, 16 * 16);
    assert_int_equal(ring_links + edges, 768); /* every link of bsn:ring:16 once */
    free(dot);
    assert_int_equal(cmd_run("draw bsn:ring:16 --detail -o full.dot", &out, &err), 0);
    assert_null(strstr(err, "groups"));
    free(out);
    free(err);
    snprintf(path, sizeof path, "%s/full.dot", cmd_tmpdir);
    dot = cmd_slurp(path, NULL);
    assert_null(strstr(dot, "shape=box"));
    assert_non_null(strstr(dot, "  n511 [pos="));
    free(dot);
    /* below 512 nodes, every node */
    assert_int_equal(cmd_run("draw bsn:ring:8 -o small.dot", &out, &err), 0);
    assert_null(strstr(err, "groups"));
    free(out);
    free(err);
}

static void test_draw_without_graphviz(void **state)
{
    (void)state;
    char *out, *err, path[512];
    assert_int_equal(cmd_run_bin("NOCTUA_BINARY", "PATH=/nonexistent", "draw ring:8 -o ring.svg", &out, &err), 2);
    assert_non_null(strstr(err, "graphviz"));
    assert_non_null(strstr(err, "ring.dot"));
    snprintf(path, sizeof path, "%s/ring.dot", cmd_tmpdir);
    assert_int_equal(access(path, R_OK), 0);
    free(out);
    free(err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_json),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_draw_dot),
        cmocka_unit_test(test_draw_svg_png),
        cmocka_unit_test(test_draw_load),
        cmocka_unit_test(test_draw_clusters),
        cmocka_unit_test(test_draw_without_graphviz),
    };
    return cmocka_run_group_tests(tests, cmd_setup, cmd_teardown);
}
