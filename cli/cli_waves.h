/* cli_waves.h: the waveform options of `noctua run` (docs/waves.md):
 * --waves FILE (.fst, the default format, or .vcd), --waves-scope PATTERN
 * and --waves-window FROM:TO. cmd_run.c takes them and records synthetic
 * runs; program runs are recorded by noc_cli_run_program_waves
 * (cmd_program.c). */
#ifndef NOC_CLI_WAVES_H
#define NOC_CLI_WAVES_H
#include "cli/cli.h"
#include "waves/waves.h"

typedef struct noc_cli_waves {
    const char *path;        /* --waves FILE; NULL: no waves */
    noc_waves_opts_t opts;   /* --waves-scope, --waves-window */
    int scope_or_window;     /* one of those was given */
} noc_cli_waves_t;

void noc_cli_waves_init(noc_cli_waves_t *w);
/* One option a ("--waves") with its value v (NULL: none given): 1 taken,
 * 0 not a waves option, -1 bad (message in err). */
int noc_cli_waves_set(noc_cli_waves_t *w, const char *a, const char *v, char *err, size_t errlen);
/* Say on stderr which files a recorded run wrote: the wave file, its save
 * file, and with the rtl router the cores' trace and its save file. */
void noc_cli_waves_said(const noc_cli_waves_t *w, const char *router);
/* noc_cli_run_program, recording the run into wv->path when wv and
 * wv->path are set, writing the per-link and per-node CSVs to csv_path and
 * nodes_csv_path when set (the latter needs cfg->node_stats), with the
 * progress line forced on (progress = 1, as --progress) or as
 * cli/progress.h decides (0). */
int noc_cli_run_program_waves(noc_config_t *cfg, const noc_prog_opts_t *o, const char *json_path,
                              const char *csv_path, const char *nodes_csv_path, int quiet,
                              const noc_cli_waves_t *wv, int progress);

#endif
