/* config_file.c: parameters from config files and from key=value
 * arguments. A file is read whole, then it is BookSim2's or noctua's
 * (booksim.h: BookSim2's when its statements end with ';'): a BookSim2 file
 * goes to booksim.c, which gives every key BookSim2's meaning or refuses
 * it; a noctua file (`key = value`, [sections], ';' and '#' comments) is
 * parsed by inih (Debian's libinih) with noctua's meaning. key=value
 * arguments are noctua's parameters, or BookSim2 keys that booksim.c
 * judges as its table says. */
#include "app/config_file.h"
#include "app/booksim.h"
#include "util/infile.h"
#include "routers/registry.h"
#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <stdlib.h>
#include <string.h>

typedef struct file_ctx {
    const noc_bs_text_t *text;
    size_t next;     /* the next line to give inih */
    int line;
    noc_config_t *cfg;
    const char *rest; /* what inih has not taken yet of the line read, or NULL */
    size_t rest_len;
    char err[1100];
} file_ctx_t;

/* inih reader, with fgets's contract: one line of the text, with leading
 * blanks, // comments and a trailing ';' removed, and a newline. A line
 * that does not fit in num - 1 bytes is given in parts without the newline;
 * inih then doubles its buffer and asks for the rest, up to ini_max_line,
 * which set_up_inih puts above any line's length, so that no line is ever
 * split. Returns NULL at the end or on an error (in c->err). */
static char *read_line(char *str, int num, void *stream)
{
    file_ctx_t *c = stream;
    if (!c->rest) {
        if (c->err[0] || c->next >= c->text->n)
            return NULL;
        char *p = c->text->line[c->next++];
        c->line = (int)(c->next < INT32_MAX ? c->next : INT32_MAX);
        while (*p == ' ' || *p == '\t')
            p++;
        char *cm = strstr(p, "//");
        if (cm)
            *cm = '\0';
        size_t n = strlen(p);
        while (n > 0 && isspace((unsigned char)p[n - 1]))
            n--;
        if (n > 0 && p[n - 1] == ';')
            n--;
        if (n + 2 > (size_t)ini_max_line) { /* (set_up_inih makes room for any line) */
            snprintf(c->err, sizeof c->err, "%s:%d: a line of %zu characters; the config reader (inih) takes %d",
                     c->text->path, c->line, n, ini_max_line - 2);
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
                 "takes %zu", c->text->path, c->line, room, room);
        return NULL;
    } else {
        memcpy(str, c->rest, room);
        str[room] = '\0';
        c->rest += room;
        c->rest_len -= room;
    }
    return str;
}

static int on_pair(void *user, const char *section, const char *name, const char *value)
{
    file_ctx_t *c = user;
    char err[400];
    (void)section;
    if (strchr(value, ';')) {
        snprintf(c->err, sizeof c->err, "%s:%d: parameter '%s': one assignment per line, please",
                 c->text->path, c->line, name);
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
        snprintf(c->err, sizeof c->err, "%s:%d: parameter '%s': a value of %zu characters (at most %d)",
                 c->text->path, c->line, name, n, NOC_CONFIG_STR_MAX - 1);
        return 0;
    }
    memcpy(val, value, n);
    val[n] = '\0';
    char where[600];
    snprintf(where, sizeof where, "%s:%d", c->text->path, c->line);
    int bs = noc_bs_arg(c->cfg, name, val, where, stderr, err, sizeof err); /* a BookSim2 key: its table */
    if (bs == 0 && noc_config_set(c->cfg, name, val, err, sizeof err) == 0)
        return 1;
    if (bs > 0)
        return 1;
    snprintf(c->err, sizeof c->err, "%s: %s", where, err);
    return 0;
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

static int load_noctua(noc_config_t *cfg, const noc_bs_text_t *text, char *err, size_t errlen)
{
    file_ctx_t c = { .text = text, .cfg = cfg };
    set_up_inih();
    int rc = ini_parse_stream(read_line, &c, on_pair, &c);
    if (rc == 0 && !c.err[0])
        return 0;
    if (c.err[0])
        snprintf(err, errlen, "%s", c.err);
    else if (rc > 0)
        snprintf(err, errlen, "%s:%d: not a 'key = value' line", text->path, rc);
    else
        snprintf(err, errlen, "%s: cannot parse config file", text->path);
    return -1;
}

/* The whole file, line by line (util/infile.h's checks), into *text. */
static int read_text(noc_bs_text_t *text, const char *path, char *err, size_t errlen)
{
    noc_infile_t in;
    if (noc_in_open(&in, path, "config file", err, errlen) != 0)
        return -1;
    size_t cap = 0, n;
    int rc;
    while ((rc = noc_in_line(&in, &n, err, errlen)) > 0) {
        if (text->n == cap) {
            cap = cap ? 2 * cap : 64;
            char **grown = realloc(text->line, cap * sizeof *grown);
            if (!grown) {
                rc = -1;
                snprintf(err, errlen, "%s: out of memory", path);
                break;
            }
            text->line = grown;
        }
        text->line[text->n] = malloc(n + 1);
        if (!text->line[text->n]) {
            rc = -1;
            snprintf(err, errlen, "%s: out of memory", path);
            break;
        }
        memcpy(text->line[text->n++], in.buf, n + 1);
    }
    noc_in_close(&in);
    return rc < 0 ? -1 : 0;
}

int noc_app_load_file(noc_config_t *cfg, const char *path, char *err, size_t errlen)
{
    noc_bs_text_t text = { .path = path };
    int rc = read_text(&text, path, err, errlen);
    if (rc == 0) {
        int bs = noc_bs_is_booksim(&text, err, errlen);
        if (bs < 0)
            rc = -1;
        else if (bs && cfg->booksim) {
            snprintf(err, errlen, "%s: a second BookSim2 file: BookSim2 reads one; put its statements in the first",
                     path);
            rc = -1;
        } else {
            rc = bs ? noc_bs_load(cfg, &text, stderr, err, errlen) : load_noctua(cfg, &text, err, errlen);
        }
    }
    for (size_t i = 0; i < text.n; i++)
        free(text.line[i]);
    free(text.line);
    return rc;
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
    char msg[900], where[200];
    snprintf(where, sizeof where, "argument '%.150s'", arg);
    int bs = noc_bs_arg(cfg, name, eq + 1, where, stderr, msg, sizeof msg);
    if (bs == 0 && noc_config_set(cfg, name, eq + 1, msg, sizeof msg) == 0)
        return 0;
    if (bs > 0)
        return 0;
    snprintf(err, errlen, "argument '%s': %s", arg, msg);
    return -1;
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
