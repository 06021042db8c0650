/* explore_ini.h: the file form of noctua explore (cli/explore_ini.c,
 * docs/exploration.md): sections [explore], [fabrics], [parameters] and
 * [workloads], each line one item of the command line. Internal to cli/. */
#ifndef NOC_CLI_EXPLORE_INI_H
#define NOC_CLI_EXPLORE_INI_H
#include <stddef.h>

/* What an item of the file is on the command line. */
typedef enum explore_item_kind {
    EXPLORE_ITEM_OPERAND, /* a FABRIC, or key=value from [parameters] */
    EXPLORE_ITEM_PROGRAM, /* --program */
    EXPLORE_ITEM_PROGRAM_FILE, /* --program-file */
    EXPLORE_ITEM_TRAFFIC, /* --traffic */
    EXPLORE_ITEM_OUTPUT,  /* -o */
    EXPLORE_ITEM_JOBS,    /* -j */
    EXPLORE_ITEM_AREA,    /* --area (value "1"; "0": none) */
    EXPLORE_ITEM_QUIET,   /* --quiet (the same) */
} explore_item_kind_t;

/* Called for every item in file order with its place ("FILE:LINE") for
 * messages: 0 to go on, else stop (the reader returns that). */
typedef int (*explore_item_fn)(void *ctx, explore_item_kind_t kind, const char *value, const char *where);

/* Read the study file at path, handing each item to fn. 0; -1 with a
 * message in err naming the file, the line and what is wrong there (no
 * section, an unknown section or key, a value missing, a line too long);
 * or what fn returned. */
int explore_ini_read(const char *path, explore_item_fn fn, void *ctx, char *err, size_t errlen);

#endif
