/* options.h: a command's options from one table (as model/params.def is
 * for the parameters): the table feeds getopt_long and the usage text, so
 * an option and its help cannot drift apart. getopt_long would take any
 * unique prefix (--jso for --json); noc_opts refuses abbreviations, since
 * a prefix that is unique today may name another option tomorrow. */
#ifndef NOC_CLI_OPTIONS_H
#define NOC_CLI_OPTIONS_H
#include <stdio.h>

typedef struct noc_opt {
    const char *name;   /* long name without "--"; NULL ends the table */
    int short_name;     /* 'o', 'h', or 0 */
    const char *arg;    /* the value's name in the usage ("FILE"), NULL: a flag */
    const char *help;   /* the usage text; '\n' starts a continuation line */
} noc_opt_t;

/* The parse of one command line. */
typedef struct noc_opts {
    const char *cmd;        /* "draw": messages say "noctua draw: ..." */
    const noc_opt_t *table;
    int argc;
    char **argv;
    int started;
    int in_order;           /* operands returned in place (NOC_OPTS_OPERAND), see below */
    const char *value;      /* the value of the option last returned, or the operand */
    int next_positional;    /* after noc_opts_next returned -1: argv[i..] */
} noc_opts_t;

void noc_opts_init(noc_opts_t *p, const char *cmd, const noc_opt_t *table, int argc, char **argv);
/* Hand the operands (SPEC, key=value, ...) back in their place among the
 * options, as NOC_OPTS_OPERAND with the operand in p->value (those after
 * "--" too), for commands where the order of operands and options matters.
 * Call before the first noc_opts_next. */
void noc_opts_in_order(noc_opts_t *p);
#define NOC_OPTS_OPERAND (-3)
/* The index in the table of the next option (its value in p->value), -1
 * when none is left (the operands are then argv[p->next_positional ..
 * argc)), or -2 after a message on stderr: an unknown option, a missing
 * value, an abbreviation; NOC_OPTS_OPERAND in order mode. */
int noc_opts_next(noc_opts_t *p);
/* The table's options as usage lines: "  -o FILE         text". */
void noc_opts_usage(FILE *f, const noc_opt_t *table);

#endif
