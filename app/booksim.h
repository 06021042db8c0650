/* booksim.h: BookSim2's config dialect (booksim.c): which files are
 * BookSim2's, the table of every key BookSim2 knows with what noctua does
 * with it (booksim_keys.def), and reading a BookSim2 file into noctua's
 * parameters with BookSim2's meaning and defaults (docs/booksim.md).
 * config_file.c hands it the files and the key=value arguments that are
 * BookSim2's. */
#ifndef NOC_APP_BOOKSIM_H
#define NOC_APP_BOOKSIM_H
#include <stddef.h>
#include <stdio.h>
#include "model/config.h"
#ifdef __cplusplus
extern "C" {
#endif

/* What noctua does with a BookSim2 key (booksim_keys.def says each). */
typedef enum noc_bs_disp {
    NOC_BS_SAME,   /* same meaning: copied to a noctua parameter */
    NOC_BS_CONV,   /* converted into noctua parameters */
    NOC_BS_FIXED,  /* honoured at some values only (what noctua always does) */
    NOC_BS_WARN,   /* no effect on results: a warning */
    NOC_BS_REFUSE  /* not honoured: an error */
} noc_bs_disp_t;

typedef struct noc_bs_key {
    const char *key;
    const char *def;      /* BookSim2's default */
    noc_bs_disp_t disp;
    const char *honoured; /* values honoured, '|' between them; "" any */
    const char *noctua;   /* the noctua parameters it sets; "" none */
    const char *note;
} noc_bs_key_t;

/* The table, in booksim_keys.def's order; count in *n. */
const noc_bs_key_t *noc_bs_keys(size_t *n);
/* The row of BookSim2 key `name`, or NULL. */
const noc_bs_key_t *noc_bs_key(const char *name);

/* A config file's lines, read whole (config_file.c reads them once, so that
 * a pipe can be sniffed and then parsed). */
typedef struct noc_bs_text {
    const char *path;
    char **line;          /* line i + 1 of the file, NUL-terminated */
    size_t n;
} noc_bs_text_t;

/* Is the text a BookSim2 file? 1: every assignment ends with ';' (BookSim2's
 * grammar needs it; several on a line are fine); 0: none does (noctua's
 * `key = value`, or no assignment at all); -1: it mixes the two, refused
 * with both lines named in err. Lines are assignments when they hold '='
 * once `//` comments are gone and do not start with '#', ';' or '['. */
int noc_bs_is_booksim(const noc_bs_text_t *t, char *err, size_t errlen);

/* Read a BookSim2 file into cfg with BookSim2's meaning and defaults:
 * every key BookSim2 knows is honoured as the table says (same meaning or
 * converted), warned about on diag (no effect on results), or refused;
 * noctua's own parameters keep their meaning and are applied last, in
 * order. Any key noctua cannot honour refuses the file: every such line is
 * written to diag ("noctua: FILE:LINE: ..."), and err says how many. 0, or
 * -1 (cfg then partly set). */
int noc_bs_load(noc_config_t *cfg, const noc_bs_text_t *t, FILE *diag, char *err, size_t errlen);

/* A key=value argument (or a line of a noctua file) whose key is a BookSim2
 * key noctua does not share the name of, or any BookSim2 key after a
 * BookSim2 file (cfg->booksim): 1 handled (applied, or warned about on diag
 * naming `where`), 0 not a case for this (noctua's parameter of that name
 * applies), -1 refused with a message in err. */
int noc_bs_arg(noc_config_t *cfg, const char *key, const char *value, const char *where, FILE *diag, char *err,
               size_t errlen);

/* BookSim2's `traffic` value as noctua's (booksim_traffic.c): the same
 * pattern under noctua's name (neighbor -> neighbor_all) with its
 * arguments in noctua's form, read as BookSim2's traffic.cpp reads them
 * (hotspot({{0,1},{2,3}}): nodes 0 and 1, weights 2 and 3). 0 and the value
 * in out, or -1 with msg saying why not (a pattern noctua does not build,
 * or a value BookSim2 reads otherwise than it looks, named with BookSim2's
 * reading). */
int noc_bs_traffic(const char *value, char *out, size_t outlen, char *msg, size_t msglen);
/* A per-class key's value (injection_rate, packet_size, traffic,
 * injection_process: a vector {A, B, ...} of one a class) as noctua's
 * class_ list in out, its first value in first. The count, or -1 with msg. */
int noc_bs_class_values(const char *key, const char *value, char *out, size_t outlen, char *first, size_t firstlen,
                        char *msg, size_t msglen);

/* The table as Markdown (docs/booksim.md, `noctua params --booksim`). */
void noc_bs_print_keys_md(FILE *f);
/* Key k's honoured values as text ("0, 1 or 2") into buf. */
const char *noc_bs_honoured_list(const noc_bs_key_t *k, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
