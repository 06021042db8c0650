/* cmd_sweep.c: placeholder until the sweep lands. */
#include "cli/cli.h"
int noc_cmd_sweep(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "noctua sweep: not yet available\n");
    return NOC_EXIT_USAGE;
}
