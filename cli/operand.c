/* operand.c: the operands run and sweep share, SPEC and key=value, read
 * into a config (cli.h). */
#include "cli/cli.h"
#include "app/config_file.h"
#include "app/run.h"
#include <string.h>

int noc_cli_config_operand(noc_config_t *cfg, const char *a, const char **spec_arg, char *err, size_t errlen)
{
    if (strchr(a, '='))
        return noc_app_set_arg(cfg, a, err, errlen) == 0 ? 0 : -1;
    if (*spec_arg) {
        snprintf(err, errlen, "one SPEC only ('%s', then '%s')", *spec_arg, a);
        return -1;
    }
    *spec_arg = a;
    if (cfg->booksim && cfg->topology[0]) {
        /* a BookSim2 file's channel latencies belong to its own fabric */
        char spec[NOC_CONFIG_STR_MAX];
        if (noc_app_spec(cfg, spec, sizeof spec, err, errlen) != 0)
            return -1;
        if (strcmp(spec, a) != 0) {
            snprintf(err, errlen, "SPEC '%s' after a BookSim2 file, whose topology, k and n make %s with BookSim2's "
                     "channel latencies: drop the SPEC, or change the file", a, spec);
            return -1;
        }
        return 0;
    }
    if (noc_config_set(cfg, "topology_spec", a, err, errlen) != 0)
        return -1;
    cfg->topology[0] = '\0'; /* an explicit SPEC wins over BookSim2's topology */
    return 0;
}
