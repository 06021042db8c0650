/* booksim_internal.h: what app/booksim.c (reading a BookSim2 file, its
 * keys and the translation into noctua's parameters) shares with
 * app/booksim_fabrics.c (the translation of BookSim2's topologies other
 * than mesh and torus). Not for use outside app/booksim*.c. */
#ifndef NOC_APP_BOOKSIM_INTERNAL_H
#define NOC_APP_BOOKSIM_INTERNAL_H
#include <stdio.h>
#include "app/booksim.h"
#include "model/config.h"

/* The number of keys of booksim_keys.def. */
enum {
    NOC_BS_N_KEYS = 0
#define X(key, def, disp, ok, to, note) +1
#include "app/booksim_keys.def"
#undef X
};

/* BookSim2's dragonflynew channels (networks/dragonfly.cpp, DRAGON_LATENCY:
 * whatever use_noc_latency says), flits and credits alike: the SPEC's link
 * classes. */
#define NOC_BS_DFLY_CLASS_LATENCY "local:10,global:100"

/* A noctua parameter of the file, in order. */
typedef struct noc_bs_nkey {
    const char *key, *value;
    unsigned long line;
} noc_bs_nkey_t;

/* The state of reading one BookSim2 file. */
typedef struct noc_bs_read {
    const noc_bs_text_t *t;
    FILE *diag;
    int errors;
    const char *val[NOC_BS_N_KEYS]; /* the file's value of each key, or NULL */
    unsigned long at[NOC_BS_N_KEYS]; /* its line */
    noc_bs_nkey_t *nk;               /* noctua's parameters, in order */
    size_t n_nk;
    char class_lat[512];      /* class_latency when the fabric's links differ (flatfly); "" for NOC_BS_DFLY_CLASS_LATENCY */
} noc_bs_read_t;

/* booksim.c: one refusal, on diag ("noctua: FILE:LINE: ...", line 0: the
 * file's, for a default); a key's value (the file's or BookSim2's
 * default) and its line (0: the default); an integer key in [lo, hi]
 * (refused otherwise: -1); noctua parameter `param` = value for BookSim2
 * key `key` (refused by name when noctua refuses the value); two-class
 * routing's check of the packet kinds' VC ranges. */
void noc_bs_refuse(noc_bs_read_t *r, unsigned long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
const char *noc_bs_value_of(const noc_bs_read_t *r, const char *key, unsigned long *line);
int noc_bs_int_key(noc_bs_read_t *r, const char *key, long lo, long hi, long *v);
void noc_bs_set(noc_bs_read_t *r, noc_config_t *cfg, const char *param, const char *value, const char *key);
void noc_bs_set_int(noc_bs_read_t *r, noc_config_t *cfg, const char *param, long v, const char *key);
void noc_bs_rw_halves(noc_bs_read_t *r, const char *rf);

/* booksim_fabrics.c: topology = anynet, cmesh, fly or fattree (kary),
 * qtree or tree4, dragonflynew, flatfly as noctua's SPECs, their routing
 * functions checked, and the channels' latency in *lat (0: the link
 * classes' own). */
void noc_bs_translate_anynet(noc_bs_read_t *r, noc_config_t *cfg, const char *rf, unsigned long lrf, long *lat);
void noc_bs_translate_cmesh(noc_bs_read_t *r, noc_config_t *cfg, const char *rf, unsigned long lrf, long use_noc,
                            long *lat);
void noc_bs_translate_kary(noc_bs_read_t *r, noc_config_t *cfg, const char *topo, long kmax, const char *rf,
                           unsigned long lrf, const char *own, const char *why, long *lat);
void noc_bs_translate_tree(noc_bs_read_t *r, noc_config_t *cfg, const char *topo, const char *rf, unsigned long lrf,
                           long *lat);
void noc_bs_translate_dragonfly(noc_bs_read_t *r, noc_config_t *cfg, const char *rf, unsigned long lrf, long *lat);
void noc_bs_translate_flatfly(noc_bs_read_t *r, noc_config_t *cfg, const char *rf, unsigned long lrf, long use_noc,
                              long *lat);

#endif
