/* bench_report.h: the JSON of noctua_bench (bench/bench.c, bench/README.md):
 * the settings and one object per workload run. */
#ifndef NOC_BENCH_REPORT_H
#define NOC_BENCH_REPORT_H
#include <stddef.h>
#include <stdint.h>

/* One workload's figures, as measured and derived by the benchmark. */
typedef struct noc_bench_row {
    int id;
    const char *spec, *router;
    int packet_size;
    double rate;
    const char *status;      /* "ok", "deadlock", "invariant", "error", ... */
    const char *error;       /* status "error": why (the rest is then left out) */
    int nodes;
    uint64_t cycles, warmup, sample, drain, flit_hops;
    double seconds, cps, hops_ps, ns_node_cycle, peak_mb, base_mb, offered, accepted;
    int saturated;
    int has_target, pass;
    double min_cps, max_mb;  /* the targets (0: none) */
} noc_bench_row_t;

typedef struct noc_bench_summary {
    const char *version;
    int quick, seed;
    int num_vcs, vc_buf_size;
    const char *traffic, *routing_function;
    int targets, targets_met;
} noc_bench_summary_t;

int noc_report_bench_json(const noc_bench_summary_t *sum, const noc_bench_row_t *rows, int n, const char *path,
                          char *err, size_t errlen);

#endif
