/* area.h: gate counts of the router core rtl/noc_vc_router.sv for one
 * parameter set, by synthesis with yosys (`synth -flatten; abc -g NAND`),
 * cached per parameter set and per version of rtl/ (docs/area.md). Used by
 * `noctua area` (cli/cmd_area.c), `noctua topo SPEC --area` (cli/cmd_topo.c) and
 * router_leakage=gates (app/energy_file.c, docs/energy.md); beside
 * rtl_model.c, which drives Verilator on the same sources. */
#ifndef NOC_AREA_H
#define NOC_AREA_H
#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* NAND2 equivalents of the cells abc -g NAND leaves: a 2-input NAND 1, an
 * inverter 0.67, a flip-flop 6 (a D flip-flop with its enable and
 * asynchronous reset in a typical standard-cell library). This is the one
 * place the weights are written: tools/rtl_area.sh reads these three lines,
 * so keep the form `#define NOC_AREA_W_<KIND> <number>`. */
#define NOC_AREA_W_NAND 1.0
#define NOC_AREA_W_NOT 0.67
#define NOC_AREA_W_FF 6.0

/* Limits on what `noctua area` accepts. */
#define NOC_AREA_MAX_P 64
#define NOC_AREA_MAX_V 64
#define NOC_AREA_MAX_DEPTH 1024
#define NOC_AREA_MAX_FLIT_W 4096

/* A core's parameters, named as in rtl/noc_vc_router.sv. */
typedef struct noc_area_params {
    int P;        /* ports, the local one included */
    int V;        /* VCs per port */
    int depth;    /* DEPTH: flits per VC */
    int flit_w;   /* FLIT_W: payload bits */
    int n_class;  /* N_CLASS: VC classes (1 .. V) */
    int arb;      /* ARB_KIND: 0 round-robin, 1 matrix */
} noc_area_params_t;

#define NOC_AREA_MAX_KINDS 24

/* One synthesized core. */
typedef struct noc_area {
    noc_area_params_t params;
    long cells;             /* every cell */
    long nand, inv, ff;     /* $_NAND_, $_NOT_, flip-flops ($_*DFF*_) */
    long ff_enable;         /* of the flip-flops, those with an enable ($_DFFE_*, $_SDFFE_*, ...) */
    long other;             /* cells of any other kind (none expected; not weighed) */
    double nand2;           /* NAND2 equivalents: the weights above */
    int n_kinds;            /* the cell kinds, as yosys names them */
    char kind[NOC_AREA_MAX_KINDS][24];
    long kind_count[NOC_AREA_MAX_KINDS];
    char yosys[64];         /* the yosys version that made it */
    double seconds;         /* the synthesis' wall time (as when it ran) */
    int cached;             /* 1: read from the cache, 0: synthesized now */
    char path[1024];        /* the cache file */
    char log[1024];         /* yosys's log */
} noc_area_t;

/* Results of noc_area_get. */
enum {
    NOC_AREA_OK = 0,
    NOC_AREA_EUSAGE = -1,   /* bad parameters, or nothing to run: yosys or rtl/ missing, no cache dir */
    NOC_AREA_EFAILED = -2,  /* yosys ran and failed, or printed no statistics */
};

/* `noctua area`'s defaults: P=5 V=2 DEPTH=8 FLIT_W=64 N_CLASS=1, round-robin
 * (DEPTH and FLIT_W are vc_buf_size's and flit_width's defaults). */
void noc_area_params_default(noc_area_params_t *p);
/* Apply one "NAME=VALUE" (P, V, DEPTH, FLIT_W, N_CLASS, ARB=round_robin|
 * matrix); allow_p 0 refuses P. Returns 0, or -1 with a message in err.
 * *n_class_set is set to 1 when N_CLASS was given (may be NULL). */
int noc_area_param_set(noc_area_params_t *p, const char *arg, int allow_p, int *n_class_set,
                       char *err, size_t errlen);
/* Is arg a "NAME=..." of one of the names above (P only with allow_p)? */
int noc_area_is_param(const char *arg, int allow_p);
/* The ranges: 0, or -1 with a message in err. */
int noc_area_params_check(const noc_area_params_t *p, char *err, size_t errlen);
/* "round_robin" or "matrix". */
const char *noc_area_arb_name(int arb);

/* The core's counts for p into *a: from the cache when it has them, else
 * synthesized with yosys (a note on stderr first; the log in the cache dir)
 * and cached. Concurrent calls for the same parameters wait for one
 * synthesis. Returns NOC_AREA_OK or an error above with a message in err. */
int noc_area_get(const noc_area_params_t *p, noc_area_t *a, char *err, size_t errlen);

/* The cache directory: noctua's RTL model cache (noc_rtl_model_cache) when
 * it has one, else $XDG_CACHE_HOME/noctua, else ~/.cache/noctua. */
void noc_area_cache_dir(char *buf, size_t len);
/* The source tree whose rtl/ is synthesized: $NOCTUA_SOURCE_DIR, else the
 * tree noctua was built from (noc_rtl_source_dir), else NULL. */
const char *noc_area_source_dir(void);

/* The routers of one port count in a fabric (noctua topo --area). */
typedef struct noc_area_group {
    int ports;
    int routers;
    noc_area_t a;
} noc_area_group_t;

/* A fabric's routers, grouped by port count (noctua topo --area). */
typedef struct noc_fabric_area {
    noc_area_params_t p;   /* P unused: each group's */
    int classes_needed;    /* the fabric's VC classes */
    int n_groups;          /* 0: no --area */
    noc_area_group_t *g;   /* by port count, ascending */
    long cells;            /* sums over the fabric */
    double nand2;
} noc_fabric_area_t;

#ifdef __cplusplus
}
#endif
#endif
