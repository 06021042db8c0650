/* fuzz_config.c: the config-file reader (cli/config_file.c: noctua's
 * `key = value` files and BookSim2's `key = value;` ones, through inih and
 * util/infile.h). For every input written to a file: it is read, or refused
 * with a message that names the file; an accepted one gives a SPEC or a
 * message (noc_cli_spec), and every parameter reads back as text. */
#include "testbench/fuzz/fuzz_common.h"
#include "cli/cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1 << 16))
        return 0;
    const char *path = fuzz_file(data, size, ".cfg");
    static noc_config_t cfg;
    char err[1024], spec[NOC_CONFIG_STR_MAX], buf[NOC_CONFIG_STR_MAX];
    noc_config_defaults(&cfg);
    err[0] = '\0';
    if (noc_cli_load_file(&cfg, path, err, sizeof err) != 0) {
        if (strncmp(err, path, strlen(path)) != 0)
            FUZZ_FAIL("a refusal that does not name the file: %s", err);
        return 0;
    }
    err[0] = '\0';
    if (noc_cli_spec(&cfg, spec, sizeof spec, err, sizeof err) != 0)
        fuzz_refused(err);
    size_t n;
    const noc_param_info_t *p = noc_params(&n);
    for (size_t i = 0; i < n; i++)
        if (noc_config_get(&cfg, p[i].name, buf, sizeof buf) != 0)
            FUZZ_FAIL("parameter %s does not read back", p[i].name);
    return 0;
}
