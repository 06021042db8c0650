/* options.c: a command's option table through getopt_long (options.h),
 * with abbreviations refused and the usage lines written from the table. */
#include "cli/options.h"
#include "util/xalloc.h"
#include "util/suggest.h"
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

void noc_opts_init(noc_opts_t *p, const char *cmd, const noc_opt_t *table, int argc, char **argv)
{
    memset(p, 0, sizeof *p);
    p->cmd = cmd;
    p->table = table;
    p->argc = argc;
    p->argv = argv;
}

void noc_opts_in_order(noc_opts_t *p)
{
    p->in_order = 1;
}

static int count(const noc_opt_t *t)
{
    int n = 0;
    while (t[n].name)
        n++;
    return n;
}

/* The option called exactly name (len chars), or -1. */
static int exact(const noc_opt_t *t, const char *name, size_t len)
{
    for (int k = 0; t[k].name; k++)
        if (strlen(t[k].name) == len && strncmp(t[k].name, name, len) == 0)
            return k;
    return -1;
}

/* getopt_long takes a unique prefix of a long option: find one in argv
 * before it does (a value given after its option is skipped). 0, or -1
 * after the message. */
static int refuse_abbreviations(const noc_opts_t *p)
{
    const noc_opt_t *t = p->table;
    for (int i = 1; i < p->argc; i++) {
        const char *a = p->argv[i];
        if (strcmp(a, "--") == 0)
            return 0;
        if (a[0] == '-' && a[1] != '-' && a[1] != '\0' && a[2] == '\0') {
            for (int k = 0; t[k].name; k++)
                if (t[k].short_name == a[1] && t[k].arg)
                    i++; /* its value */
            continue;
        }
        if (strncmp(a, "--", 2) != 0 || a[2] == '\0')
            continue;
        const char *eq = strchr(a + 2, '=');
        size_t len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
        int k = exact(t, a + 2, len);
        if (k >= 0) {
            i += t[k].arg && !eq; /* its value */
            continue;
        }
        for (k = 0; t[k].name; k++)
            if (t[k].name[0] && strncmp(t[k].name, a + 2, len) == 0) {
                fprintf(stderr, "noctua %s: '%.*s' is not an option; abbreviations are not accepted "
                        "(write --%s in full; see noctua %s --help)\n", p->cmd, (int)(len + 2), a, t[k].name,
                        p->cmd);
                return -1;
            }
    }
    return 0;
}

int noc_opts_next(noc_opts_t *p)
{
    const noc_opt_t *t = p->table;
    int n = count(t);
    struct option *lo = noc_xcalloc((size_t)n + 1, sizeof *lo, "options");
    /* ':' first: a missing value is told apart; '-' before it: operands in place */
    char shorts[3 + 3 * 64] = ":";
    size_t sn = 1;
    if (p->in_order) {
        memcpy(shorts, "-:", 3);
        sn = 2;
    }
    for (int k = 0, m = 0; k < n; k++) {
        if (t[k].name[0]) { /* "" : a short option only */
            lo[m].name = t[k].name;
            lo[m].has_arg = t[k].arg ? required_argument : no_argument;
            lo[m].val = 256 + k;
            m++;
        }
        if (t[k].short_name && sn + 3 < sizeof shorts) {
            shorts[sn++] = (char)t[k].short_name;
            if (t[k].arg)
                shorts[sn++] = ':';
        }
    }
    shorts[sn] = '\0';
    int rc;
    if (p->started == 2) { /* after "--": the rest are operands */
        free(lo);
        if (p->next_positional < p->argc) {
            p->value = p->argv[p->next_positional++];
            return NOC_OPTS_OPERAND;
        }
        return -1;
    }
    if (!p->started) {
        p->started = 1;
        optind = 0; /* GNU: start afresh (a process may parse several command lines) */
        if (refuse_abbreviations(p) != 0) {
            free(lo);
            return -2;
        }
    }
    opterr = 0;
    int c = getopt_long(p->argc, p->argv, shorts, lo, NULL);
    p->value = optarg;
    if (c == -1) {
        p->next_positional = optind;
        rc = -1;
        if (p->in_order && optind < p->argc) {
            p->started = 2;
            p->value = p->argv[p->next_positional++];
            rc = NOC_OPTS_OPERAND;
        }
    } else if (c == 1 && p->in_order) {
        rc = NOC_OPTS_OPERAND;
    } else if (c >= 256) {
        rc = c - 256;
    } else if (c == ':' || c == '?') {
        const char *bad = p->argv[optind - 1];
        char shortbuf[3] = { '-', (char)optopt, '\0' };
        if (optopt && !(bad[0] == '-' && bad[1] == '-'))
            bad = shortbuf;
        if (c == ':')
            fprintf(stderr, "noctua %s: %s needs a value (see noctua %s --help)\n", p->cmd, bad, p->cmd);
        else {
            /* the closest long option, for a long one mistyped */
            const char *names[128];
            size_t nn = 0;
            for (int k = 0; k < n && nn < 128; k++)
                if (t[k].name[0])
                    names[nn++] = t[k].name;
            char word[64];
            const char *eq = strchr(bad, '=');
            snprintf(word, sizeof word, "%.*s", (int)(eq ? eq - bad : (long)strlen(bad)), bad + (bad[1] == '-' ? 2 : 1));
            const char *near = bad[1] == '-' ? noc_suggest(word, names, nn) : NULL;
            fprintf(stderr, "noctua %s: unknown option '%s'%s%s%s (see noctua %s --help)\n", p->cmd, bad,
                    near ? " (did you mean '--" : "", near ? near : "", near ? "'?)" : "", p->cmd);
        }
        rc = -2;
    } else {
        rc = -2;
        for (int k = 0; k < n; k++)
            if (t[k].short_name == c)
                rc = k;
    }
    free(lo);
    return rc;
}

void noc_opts_usage(FILE *f, const noc_opt_t *table)
{
    for (const noc_opt_t *o = table; o->name; o++) {
        if (!o->help)
            continue; /* a synonym, told in another line */
        char left[64];
        if (o->short_name && !o->name[0])
            snprintf(left, sizeof left, "-%c%s%s", o->short_name, o->arg ? " " : "", o->arg ? o->arg : "");
        else
            snprintf(left, sizeof left, "--%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
        const char *h = o->help;
        const char *nl = strchr(h, '\n');
        if (strlen(left) > 15) /* too long for the column: the help starts below */
            fprintf(f, "  %s\n                  %.*s\n", left, (int)(nl ? nl - h : (long)strlen(h)), h);
        else
            fprintf(f, "  %-15s %.*s\n", left, (int)(nl ? nl - h : (long)strlen(h)), h);
        while (nl) {
            h = nl + 1;
            nl = strchr(h, '\n');
            fprintf(f, "                  %.*s\n", (int)(nl ? nl - h : (long)strlen(h)), h);
        }
    }
}
