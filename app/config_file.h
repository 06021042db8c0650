/* config_file.h: a run's parameters from config files (noctua's
 * `key = value` and BookSim2's `key = value;`) and from key=value
 * arguments, and the parameter table as help text (config_file.c): what
 * the CLI, the benches, the fuzzers and embedders share (DESIGN.md, app/). */
#ifndef NOC_APP_CONFIG_FILE_H
#define NOC_APP_CONFIG_FILE_H
#include <stddef.h>
#include <stdio.h>
#include "model/config.h"
#ifdef __cplusplus
extern "C" {
#endif

/* Read a config file into cfg: `key = value` lines, BookSim2's `key = value;`
 * with // comments too. Returns 0, or -1 with "FILE:LINE: parameter 'x': ..."
 * in err. */
int noc_app_load_file(noc_config_t *cfg, const char *path, char *err, size_t errlen);
/* Apply one "key=value" argument. Returns 0, or -1 with a message in err. */
int noc_app_set_arg(noc_config_t *cfg, const char *arg, char *err, size_t errlen);
/* Write the parameter table (name, default, help) as help text. */
void noc_app_print_params(FILE *f);
/* The same as a Markdown table (docs/parameters.md). */
void noc_app_print_params_md(FILE *f);

#ifdef __cplusplus
}
#endif
#endif
