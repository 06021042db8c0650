/* main.c: noctua's entry point: picks the subcommand. With no arguments it
 * runs the built-in default (uniform traffic on mesh:8x8) and prints its
 * summary. */
#include "cli/cli.h"
#include "app/booksim.h"
#include "report/report.h"
#include "util/version.h"
#include "util/suggest.h"
#include "util/interrupt.h"
#include "util/ranks.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void help(FILE *f)
{
    fprintf(f,
        "noctua %s: a cycle-accurate network-on-chip model\n"
        "\n"
        "usage: noctua                      run the default (mesh:8x8, uniform traffic at 0.1)\n"
        "       noctua run [SPEC] [key=value ...] [--config FILE] [--json FILE]\n"
        "       noctua sweep SPEC --rates FROM:TO:STEP [key=value ...] [-o PREFIX]\n"
        "       noctua explore FABRIC... [key={a,b} ...] [--program NAME[:WORDS] ...] [-o PREFIX]\n"
        "                                   fabrics x router parameters x workloads, Pareto front\n"
        "       noctua topo SPEC [SPEC ...] [--json FILE]   graph facts, side by side\n"
        "       noctua topo SPEC [SPEC ...] --area [V=2 DEPTH=8 FLIT_W=64 ...]   ... with the routers' gate count\n"
        "       noctua area [P=5 V=2 DEPTH=8 FLIT_W=64 ...]   gate count of the router core (yosys)\n"
        "       noctua draw SPEC -o FILE.svg|.png [--load RUN.json]   a picture (Graphviz)\n"
        "       noctua run [SPEC] --program NAME | --program-file FILE [...]   a traffic program\n"
        "       noctua validate [--markdown]    the programs' counts against the papers' formulas\n"
        "       noctua params [--markdown]      every parameter with its default\n"
        "       noctua params --booksim         every BookSim2 key and what noctua does with it (Markdown)\n"
        "       noctua help [COMMAND] | --help | --version   (noctua help run: run's help)\n"
        "\n"
        "`noctua run --help` lists every parameter with its default.\n"
        "Exit status: 0 done, 1 wrong result, 2 bad input (or an output that could not be\n"
        "written), 3 deadlock, 4 internal error, 130 interrupted (docs/reliability.md).\n",
        noc_version());
}

static const char *const commands[] = { "run", "sweep", "explore", "topo", "area", "draw", "validate", "params", "help",
                                        "version" };
enum { N_COMMANDS = sizeof commands / sizeof commands[0] };

static int is_command(const char *name)
{
    for (int i = 0; i < N_COMMANDS; i++)
        if (strcmp(commands[i], name) == 0)
            return 1;
    return 0;
}

/* " (did you mean 'sweep'?)" for a command mistyped, else "". */
static const char *did_you_mean(const char *cmd)
{
    static char buf[64];
    return noc_did_you_mean(cmd, commands, N_COMMANDS, buf, sizeof buf);
}

static int dispatch(int argc, char **argv)
{
    if (argc < 2) {
        static char run[] = "run";
        char *def[] = { run, NULL };
        return noc_cmd_run(1, def);
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "run") == 0)
        return noc_cmd_run(argc - 1, argv + 1);
    if (strcmp(cmd, "sweep") == 0)
        return noc_cmd_sweep(argc - 1, argv + 1);
    if (strcmp(cmd, "explore") == 0)
        return noc_cmd_explore(argc - 1, argv + 1);
    if (strcmp(cmd, "topo") == 0)
        return noc_cmd_topo(argc - 1, argv + 1);
    if (strcmp(cmd, "area") == 0)
        return noc_cmd_area(argc - 1, argv + 1);
    if (strcmp(cmd, "draw") == 0)
        return noc_cmd_draw(argc - 1, argv + 1);
    if (strcmp(cmd, "validate") == 0)
        return noc_cmd_validate(argc - 1, argv + 1);
    if (strcmp(cmd, "params") == 0) {
        if (argc > 2 && strcmp(argv[2], "--markdown") == 0)
            noc_app_print_params_md(stdout);
        else if (argc > 2 && strcmp(argv[2], "--booksim") == 0)
            noc_bs_print_keys_md(stdout);
        else
            noc_app_print_params(stdout);
        return NOC_EXIT_OK;
    }
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        if (argc > 2 && strcmp(cmd, "help") == 0 && strcmp(argv[2], "help") != 0) { /* noctua help run: run's help */
            if (!is_command(argv[2])) {
                fprintf(stderr, "noctua help: unknown command '%s'%s\n", argv[2], did_you_mean(argv[2]));
                return NOC_EXIT_USAGE;
            }
            static char help_opt[] = "--help";
            char *sub[] = { argv[0], argv[2], help_opt, NULL };
            return dispatch(3, sub);
        }
        help(stdout);
        return NOC_EXIT_OK;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
        printf("noctua %s\n", noc_version());
        return NOC_EXIT_OK;
    }
    fprintf(stderr, "noctua: unknown command '%s'%s\n\n", cmd, did_you_mean(cmd));
    help(stderr);
    return NOC_EXIT_USAGE;
}

/* Under mpirun (util/ranks.h): `noctua run` splits its fabric over the
 * ranks; sweep and explore spread their points over them (cli/pool.c);
 * 0, or 2 with a message for the other commands. Rank 0 alone writes: the
 * others' standard output goes to /dev/null (and their files there too,
 * util/outfile.c), and with sweep and explore, whose every rank applies
 * every point's result, their standard error as well. */
static int ranks_start(int argc, char **argv)
{
    if (noc_ranks_size() == 1)
        return 0;
    const char *cmd = argc < 2 ? "run" : argv[1];
    int run = strcmp(cmd, "run") == 0, points = strcmp(cmd, "sweep") == 0 || strcmp(cmd, "explore") == 0;
    if (!run && !points) {
        if (noc_ranks_rank() == 0)
            fprintf(stderr, "noctua %s: mpirun -n %d: only run, sweep and explore use MPI ranks; run `noctua %s` "
                    "without mpirun\n", cmd, noc_ranks_size(), cmd);
        return NOC_EXIT_USAGE;
    }
    noc_ranks_set_split(run);
    if (noc_ranks_rank() != 0 && (!freopen("/dev/null", "w", stdout) ||
                                  (points && !freopen("/dev/null", "w", stderr)))) {
        fprintf(stderr, "noctua: rank %d: cannot open /dev/null\n", noc_ranks_rank());
        return NOC_EXIT_INTERNAL;
    }
    return 0;
}

int main(int argc, char **argv)
{
    noc_interrupt_install();
    noc_report_init(); /* out of memory in a JSON report: exit 4 with a message */
    if (noc_ranks_init(&argc, &argv) != 0)
        return NOC_EXIT_INTERNAL;
    int rc = ranks_start(argc, argv);
    if (rc == 0)
        rc = dispatch(argc, argv);
    /* what went to stdout is output too: a full disk or a closed pipe
     * there is an error, not a success (docs/reliability.md) */
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        if (errno != EPIPE) /* the reader left on purpose (| head): no need to say so */
            fprintf(stderr, "noctua: cannot write to standard output: %s\n",
                    errno ? strerror(errno) : "a write failed");
        if (rc == NOC_EXIT_OK)
            rc = NOC_EXIT_USAGE;
    }
    noc_ranks_finalize();
    return rc;
}
