/* waves_internal.h: what the files of waves/ share: the small vtable of a
 * wave file writer (wave_fst.c: GTKWave's fstapi; wave_vcd.c: VCD written
 * here), the layout of noc_waves_t (waves.c fills it, gtkw.c reads it to
 * write the save file), and the hierarchy helpers of wave_layout.c. */
#ifndef NOC_WAVES_INTERNAL_H
#define NOC_WAVES_INTERNAL_H
#include <stdint.h>
#include <stdio.h>
#include "waves/waves.h"
#include "util/outfile.h"
#include "model/pe.h"
#include "model/sim.h"
#ifdef __cplusplus
extern "C" {
#endif

/* ---- writers ---- */

typedef enum noc_wv_kind {
    NOC_WV_BIT,     /* one bit */
    NOC_WV_INT,     /* an unsigned integer of `bits` bits (VCD/FST "integer": no [msb:lsb]) */
    NOC_WV_STR,     /* a string of any length */
    NOC_WV_KIND_COUNT
} noc_wv_kind_t;

/* A wave file writer. Declarations first (scope, comment, var, upscope,
 * end_defs), then value changes: time(t) with t never decreasing, then the
 * changes at t. Strings passed in are copied or written at once. */
typedef struct noc_wv_ops {
    const char *name;
    /* Files the writer makes beside path while it writes (fstapi's ".hier"),
     * removed if the recording is given up; NULL for none. */
    const char *companion;
    /* Write into path, a fresh temporary file (waves.c renames it onto the
     * user's target at the end); NULL with a message in err on failure. */
    void *(*open)(const char *path, const char *version, char *err, size_t errlen);
    /* A comment attached to what is declared next (the original node label). */
    void (*comment)(void *ctx, const char *text);
    /* Open a scope named `name` (already sanitised); `label` may be NULL. */
    void (*scope)(void *ctx, const char *name, const char *label);
    void (*upscope)(void *ctx);
    /* Declare a variable in the current scope; returns its handle. */
    uint32_t (*var)(void *ctx, noc_wv_kind_t kind, int bits, const char *name);
    void (*end_defs)(void *ctx);
    void (*time)(void *ctx, uint64_t t);
    void (*put_bit)(void *ctx, uint32_t h, int v);
    void (*put_int)(void *ctx, uint32_t h, int bits, uint64_t v);
    void (*put_str)(void *ctx, uint32_t h, const char *s);
    /* Finish the file (end time `end`) and free ctx. Returns 0, or -1 with a
     * message in err on a write error. */
    int (*close)(void *ctx, uint64_t end, char *err, size_t errlen);
} noc_wv_ops_t;

extern const noc_wv_ops_t noc_wv_fst_ops;
extern const noc_wv_ops_t noc_wv_vcd_ops;

/* GTKWave's escaping of a string value in VCD ("s" lines, fst2vcd's form):
 * printable characters other than blanks, quotes, '\\' and '?' as they are,
 * those as \\x escapes ("\\n", "\\\""), anything else as \\ooo (a blank is
 * \\040). Writes at most len - 1 characters and a NUL; returns the length. */
size_t noc_wv_escape(const char *s, char *buf, size_t len);

/* ---- hierarchy (wave_layout.c) ---- */

/* (The scopes between "top" and a node's own scope follow the fabric's
 * groups: noc_graph_groups.) */
/* A label made a scope name: letters, digits and '_' kept, every run of
 * other characters one '_', none at the ends, "n_" in front ("<1,2,0>" ->
 * "n_1_2_0"). */
void noc_wv_scope_name(const char *label, char *buf, size_t len);
/* The scope of a link to the node labelled to_label: "to_1_2_0" (the node's
 * scope name with "to" for its leading "n"). */
void noc_wv_link_scope_name(const char *to_label, char *buf, size_t len);
/* Does node label `label` match pattern `pat` (see noc_waves_opts_t.scope)? */
int noc_wv_match(const char *pat, const char *label);

/* ---- the recorder (waves.c) ---- */

enum { NOC_WV_LINK_SIGS = 8, NOC_WV_PE_SIGS = 5 };
/* offsets of a link's signals */
enum { NOC_WV_VALID, NOC_WV_PKT, NOC_WV_SRC, NOC_WV_DST, NOC_WV_VC, NOC_WV_HEAD, NOC_WV_TAIL, NOC_WV_GRANT };
/* offsets of a PE's signals */
enum { NOC_WV_OP, NOC_WV_STEP, NOC_WV_SENDS, NOC_WV_RECVS, NOC_WV_LEFT };

/* How a string signal's integer value reads. */
enum { NOC_WV_R_NONE, NOC_WV_R_NODE, NOC_WV_R_OP, NOC_WV_R_STEP };

typedef struct noc_wv_sig {
    uint32_t h;         /* the writer's handle */
    uint8_t kind;       /* noc_wv_kind_t */
    uint8_t bits;
    uint8_t render;     /* NOC_WV_R_*: strings */
    uint8_t written;    /* a value has been written */
    int64_t last;       /* the value written last */
} noc_wv_sig_t;

typedef struct noc_wv_link {
    int32_t c;          /* channel (= the upstream global port) */
    int32_t from, to;   /* nodes */
    int32_t node;       /* index into noc_waves.nodes of `from` */
    char name[48];      /* its scope: "to_1_2_0" (to_<the far end's label>; "_p<port>" added
                           when two links of a node go to one neighbour) */
    uint32_t sig;       /* first of its NOC_WV_LINK_SIGS signals */
    uint32_t grant_pkt; /* packet slot whose grant is cached, and its id */
    uint64_t grant_id;
    int grant;
} noc_wv_link_t;

typedef struct noc_wv_node {
    int32_t n;
    char *path;         /* "top.part0.group1.n_1_2_0" */
    char *group;        /* "part0.group1", "" when flat */
    uint32_t occ_sig;   /* P * V occupancy signals (ports 0 .. P-1) */
    uint32_t cred_sig;  /* (P - 1) * V credit signals (ports 1 .. P-1) */
    uint32_t lane_sig;  /* (lanes - 1) * V occupancy signals of an all-port NI's extra
                           lanes' input ports (routers with lane_ports), or UINT32_MAX */
    uint32_t pe_sig;    /* NOC_WV_PE_SIGS signals, or UINT32_MAX when no rank runs here */
    uint32_t link0;     /* its links: links[link0 .. link0 + P - 1) */
    uint8_t was_busy;   /* it had work at the end of the cycle sampled last */
    uint8_t gen_due;    /* synthetic: its NI makes a packet in the current cycle */
} noc_wv_node_t;

struct noc_waves {
    noc_sim_t *s;
    const noc_wv_ops_t *ops;
    void *ctx;
    char path[1024];       /* the wave file as the user named it */
    noc_out_t out;         /* ... and its temporary (util/outfile.h) */
    noc_out_t out_inner;   /* the router family's own file (X.rtl.fst) when inner */
    int inner;             /* the router family records its own signals too (trace_open) */
    noc_waves_opts_t o;
    char *scope_pat;       /* copy of o.scope */
    int V;
    noc_wv_sig_t *sig;
    uint32_t n_sig, cap_sig;
    noc_wv_node_t *nodes;  /* in scope, in node order */
    int n_nodes;
    noc_wv_link_t *links;  /* network links leaving nodes in scope */
    int n_links;
    uint32_t step_sig;     /* top.step, or UINT32_MAX (synthetic runs) */
    /* Programs: per link and step (link * step_rows + step), 1 + the last
     * cycle a flit of the step's messages arrived over it, 0 if none (for
     * the save file's "last link of each step"); NULL when not kept. */
    uint32_t *step_last;
    int step_rows;
    uint32_t *label_at;    /* node labels: label_text + label_at[n]; NULL: not cached */
    char *label_text;
    uint64_t now;          /* the time value changes go to */
    uint64_t emitted;      /* last time handed to the writer */
    int any_emitted;
    int full;              /* the next state sample writes every node */
};

/* gtkw.c: write the save file for w (after its last sample) into f; it
 * names itself gtkw_path and the wave file dump_path. The caller checks
 * and closes f (util/outfile.h). */
void noc_wv_write_gtkw(const noc_waves_t *w, FILE *f, const char *gtkw_path, const char *dump_path,
                       uint64_t end);
/* rtl_gtkw.c: the save file of the RTL cores' trace fst_path (already in
 * place), for a run of `end` cycles, into f; 0, or -1 with err when the
 * file cannot be read back. */
int noc_wv_write_rtl_gtkw(FILE *f, const char *gtkw_path, const char *fst_path, uint64_t end, char *err,
                          size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
