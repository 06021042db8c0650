/* config_file.c: parameters from config files (through inih, Debian's
 * libinih) and from key=value arguments. BookSim2's files are accepted:
 * `key = value;` lines, // comments, and its topology/k/n; BookSim2
 * parameters that noctua does not model are ignored with a warning. */
#include "app/config_file.h"
#include "util/infile.h"
#include "routers/registry.h"
#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <stdlib.h>
#include <string.h>

/* BookSim2 parameters with no counterpart here: accepted and ignored. */
static const char *const booksim_ignored[] = {
    "sim_type", "sample_period", "warmup_periods", "max_samples", "latency_thres",
    "use_read_write", "print_activity", "print_csv_results", "subnets", "c", "x", "y",
    "xr", "yr", "internal_speedup", "output_speedup", "input_speedup", "priority",
    "watch_file", "watch_out", "stats_out", "sim_count", "deadlock_warn_timeout",
    "vc_alloc_arb_type", "sw_alloc_arb_type", "injection_process", "classes",
    "st_prepare_delay", "wait_for_tail_credit", "hold_switch_for_packet",
    "speculative", "noq", "credit_delay_scale", NULL,
};

typedef struct file_ctx {
    noc_infile_t in;
    const char *path;
    int line;
    noc_config_t *cfg;
    const char *rest; /* what inih has not taken yet of the line read, or NULL */
    size_t rest_len;
    char err[512];
} file_ctx_t;

/* inih reader, with fgets's contract: one physical line (util/infile.h: any
 * length below NOC_IN_LINE_MAX, no NUL), with leading blanks, // comments
 * and a trailing ';' removed, and a newline. A line that does not fit in
 * num - 1 bytes is given in parts without the newline; inih then doubles its
 * buffer and asks for the rest, up to ini_max_line, which set_up_inih puts
 * above any line's length, so that no line is ever split. Returns NULL at
 * the end or on an error (in c->err). */
static char *read_line(char *str, int num, void *stream)
{
    file_ctx_t *c = stream;
    if (!c->rest) {
        size_t n;
        if (c->err[0] || noc_in_line(&c->in, &n, c->err, sizeof c->err) <= 0)
            return NULL;
        c->line = (int)(c->in.line < INT32_MAX ? c->in.line : INT32_MAX);
        char *p = c->in.buf;
        while (*p == ' ' || *p == '\t')
            p++;
        char *cm = strstr(p, "//");
        if (cm)
            *cm = '\0';
        n = strlen(p);
        while (n > 0 && isspace((unsigned char)p[n - 1]))
            n--;
        if (n > 0 && p[n - 1] == ';')
            n--;
        if (n + 2 > (size_t)ini_max_line) { /* (set_up_inih makes room for any line) */
            snprintf(c->err, sizeof c->err, "%s:%d: a line of %zu characters; the config reader (inih) takes %d",
                     c->path, c->line, n, ini_max_line - 2);
            return NULL;
        }
        c->rest = p;
        c->rest_len = n;
    }
    size_t room = num > 1 ? (size_t)num - 1 : 0; /* characters before the NUL */
    if (c->rest_len < room) { /* the rest and the newline */
        memcpy(str, c->rest, c->rest_len);
        str[c->rest_len] = '\n';
        str[c->rest_len + 1] = '\0';
        c->rest = NULL;
    } else if (ini_use_stack || !ini_allow_realloc) { /* inih would not ask for the rest */
        snprintf(c->err, sizeof c->err, "%s:%d: a line of more than %zu characters; the config reader (inih) "
                 "takes %zu", c->path, c->line, room, room);
        return NULL;
    } else {
        memcpy(str, c->rest, room);
        str[room] = '\0';
        c->rest += room;
        c->rest_len -= room;
    }
    return str;
}

static int is_ignored(const char *name)
{
    for (int i = 0; booksim_ignored[i]; i++)
        if (strcmp(booksim_ignored[i], name) == 0)
            return 1;
    return 0;
}

static int on_pair(void *user, const char *section, const char *name, const char *value)
{
    file_ctx_t *c = user;
    char err[400];
    (void)section;
    if (strchr(value, ';')) {
        snprintf(c->err, sizeof c->err, "%s:%d: parameter '%s': one assignment per line, please",
                 c->path, c->line, name);
        return 0;
    }
    /* strip matching quotes; a value too long for any parameter is refused
     * here, whole, rather than cut to fit the buffer */
    char val[NOC_CONFIG_STR_MAX];
    size_t n = strlen(value);
    if (n >= 2 && (value[0] == '"' || value[0] == '\'') && value[n - 1] == value[0]) {
        value++;
        n -= 2;
    }
    if (n >= sizeof val) {
        snprintf(c->err, sizeof c->err, "%s:%d: parameter '%s': a value of %zu characters (at most %d)", c->path,
                 c->line, name, n, NOC_CONFIG_STR_MAX - 1);
        return 0;
    }
    memcpy(val, value, n);
    val[n] = '\0';
    if (noc_config_set(c->cfg, name, val, err, sizeof err) != 0) {
        if (is_ignored(name)) {
            fprintf(stderr, "noctua: %s:%d: warning: BookSim2 parameter '%s' has no counterpart in noctua; ignored\n",
                    c->path, c->line, name);
            return 1;
        }
        snprintf(c->err, sizeof c->err, "%s:%d: %s", c->path, c->line, err);
        return 0;
    }
    return 1;
}

/* Debian's inih sets its line buffer at run time (ini.h: ini_use_stack,
 * ini_max_line, ...; 200 bytes on the stack as it ships, which cut longer
 * lines in two): a heap buffer of 256 bytes that inih doubles as a line
 * needs, up to more than any line util/infile reads. No
 * multi-line values (a line that starts with blanks is a line of its own,
 * not the previous value's continuation), and the first error ends the
 * parse, so that it is the one reported. */
static void set_up_inih(void)
{
    ini_use_stack = false;
    ini_allow_realloc = true;
    ini_initial_alloc = 256;
    ini_max_line = (int)NOC_IN_LINE_MAX + 2;
    ini_allow_multiline = false;
    ini_stop_on_first_error = true;
}

int noc_app_load_file(noc_config_t *cfg, const char *path, char *err, size_t errlen)
{
    file_ctx_t c = { .path = path, .cfg = cfg };
    if (noc_in_open(&c.in, path, "config file", err, errlen) != 0)
        return -1;
    set_up_inih();
    int rc = ini_parse_stream(read_line, &c, on_pair, &c);
    noc_in_close(&c.in);
    if (rc == 0 && !c.err[0])
        return 0;
    if (c.err[0])
        snprintf(err, errlen, "%s", c.err);
    else if (rc > 0)
        snprintf(err, errlen, "%s:%d: not a 'key = value' line", path, rc);
    else
        snprintf(err, errlen, "%s: cannot parse config file", path);
    return -1;
}

int noc_app_set_arg(noc_config_t *cfg, const char *arg, char *err, size_t errlen)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg) {
        snprintf(err, errlen, "argument '%s': expected key=value", arg);
        return -1;
    }
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)(eq - arg), arg);
    char msg[400];
    if (noc_config_set(cfg, name, eq + 1, msg, sizeof msg) != 0) {
        snprintf(err, errlen, "argument '%s': %s", arg, msg);
        return -1;
    }
    return 0;
}

static const char *param_type(noc_param_type_t t)
{
    return t == NOC_PARAM_INT ? "int" : t == NOC_PARAM_BOOL ? "0/1" : t == NOC_PARAM_DBL ? "real" : "text";
}

void noc_app_print_params(FILE *f)
{
    size_t n;
    const noc_param_info_t *p = noc_params(&n);
    fprintf(f, "Parameters (key=value on the command line, or key = value in a --config file):\n\n");
    for (size_t i = 0; i < n; i++) {
        const char *type = param_type(p[i].type);
        fprintf(f, "  %-26s %-5s default %s\n      %s\n", p[i].name, type,
                p[i].def[0] ? p[i].def : "(empty)", p[i].help);
        if (strcmp(p[i].name, "router") == 0)
            fprintf(f, "      families: %s\n", noc_router_describe());
    }
}

void noc_app_print_params_md(FILE *f)
{
    size_t n;
    const noc_param_info_t *p = noc_params(&n);
    fprintf(f, "# Parameters\n\n"
               "Generated by `noctua params --markdown` from `model/params.def`, the table\n"
               "that the parser and `noctua run --help` read too (a test keeps this page in\n"
               "step with it). Set them as `key=value` arguments or in a `--config` file.\n\n"
               "| name | type | default | meaning |\n|---|---|---|---|\n");
    for (size_t i = 0; i < n; i++) {
        const char *type = param_type(p[i].type);
        fprintf(f, "| `%s` | %s | %s%s%s | ", p[i].name, type, p[i].def[0] ? "`" : "",
                p[i].def[0] ? p[i].def : "(empty)", p[i].def[0] ? "`" : "");
        char help[2048];
        snprintf(help, sizeof help, "%s%s%s", p[i].help, strcmp(p[i].name, "router") == 0 ? "; families: " : "",
                 strcmp(p[i].name, "router") == 0 ? noc_router_describe() : "");
        for (const char *c = help; *c; c++) {
            if (*c == '|')
                fputs("\\|", f);
            else
                fputc(*c, f);
        }
        fputs(" |\n", f);
    }
}
