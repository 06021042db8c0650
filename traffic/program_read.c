/* program_read.c: the reader of traffic programs in text form
 * (docs/programs.md): LogGOPSim's GOAL plus noctua's extensions.
 *
 * Line by line (getline: no length limit): comments are blanked out (a
 * block comment may span lines), an optional "LABEL:" is taken off the
 * front, the rest is cut into words ('{' and '}' are words of their own),
 * and the words make one item. Ops go straight into the builder
 * (model/program.h); dependencies wait for the closing brace of their rank
 * block, so a label may be used before the line that defines it. Every
 * error reads "FILE:LINE: message"; the checks of noc_prog_finish (cycles,
 * addresses) name the line of the op too. This file reads the lines; the
 * ops are program_read_ops.c, the other items program_read_items.c. */
#include "traffic/program_read_internal.h"
#include "util/infile.h"

/* ---- words ---- */

/* Whole decimal number, optionally negative: 0, -1 not a number, 1 overflow. */
int noc_rd_parse_i64(const char *s, int64_t *v)
{
    int neg = *s == '-';
    s += neg;
    if (!isdigit((unsigned char)*s))
        return -1;
    uint64_t x = 0, lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    int over = 0;
    for (; isdigit((unsigned char)*s); s++) {
        unsigned d = (unsigned)(*s - '0');
        if (x > (lim - d) / 10)
            over = 1;
        else
            x = x * 10 + d;
    }
    if (*s)
        return -1;
    if (over)
        return 1;
    *v = neg ? (x == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)x) : (int64_t)x;
    return 0;
}

/* Token t as a number in [lo, hi]; `what` names it in messages. */
int noc_rd_number(reader_t *r, const char *t, const char *what, int64_t lo, int64_t hi,
                  int64_t *v)
{
    if (!t)
        return fail(r, "expected %s (a number) at the end of the line", what);
    int rc = noc_rd_parse_i64(t, v);
    if (rc < 0)
        return fail(r, "expected %s (a number), found '%.60s'", what, t);
    if (rc > 0 || *v < lo || *v > hi)
        return fail(r, "%s %.60s out of range [%" PRId64 ", %" PRId64 "]", what, t, lo, hi);
    return 0;
}

/* ---- lines ---- */

/* Blanks out comments: // and # to the end of the line, block comments
 * (which may go on to the next lines). */
static void strip_comments(reader_t *r, char *s)
{
    for (; *s; s++) {
        if (r->in_comment) {
            if (s[0] == '*' && s[1] == '/') {
                r->in_comment = 0;
                *s++ = ' ';
            }
            *s = ' ';
        } else if (*s == '#' || (s[0] == '/' && s[1] == '/')) {
            *s = '\0';
            return;
        } else if (s[0] == '/' && s[1] == '*') {
            r->in_comment = 1;
            r->comment_line = r->line;
            *s++ = ' ';
            *s = ' ';
        }
    }
}

/* "LABEL:" at the front of s: returns what follows and sets *label, or
 * returns s. "step :x" is a step, not a label. */
static char *take_label(char *s, const char **label)
{
    char *c = s;
    *label = NULL;
    while (isspace((unsigned char)*c))
        c++;
    if (!isalpha((unsigned char)*c))
        return s;
    char *name = c;
    while (isalnum((unsigned char)*c) || *c == '_')
        c++;
    char *end = c;
    while (isspace((unsigned char)*c))
        c++;
    if (*c != ':' || (end != c && end - name == 4 && strncmp(name, "step", 4) == 0))
        return s;
    *end = '\0';
    *label = name;
    return c + 1;
}

static void push(reader_t *r, const char *t)
{
    r->tok = grow(r->tok, &r->cap_tok, r->n_tok + 1, sizeof *r->tok);
    r->tok[r->n_tok++] = t;
}

/* Words of s, in place; '{' and '}' are words of their own. */
static void split(reader_t *r, char *s)
{
    r->n_tok = 0;
    while (*s) {
        if (isspace((unsigned char)*s)) {
            *s++ = '\0';
        } else if (*s == '{' || *s == '}') {
            push(r, *s == '{' ? "{" : "}");
            *s++ = '\0';
        } else {
            push(r, s);
            while (*s && !isspace((unsigned char)*s) && *s != '{' && *s != '}')
                s++;
        }
    }
}

static int do_line(reader_t *r, char *s)
{
    const char *label;
    strip_comments(r, s);
    s = take_label(s, &label);
    split(r, s);
    if (r->n_tok == 0)
        return label ? fail(r, "expected an op after label '%.60s'", label) : 0;
    return r->rank < 0 ? noc_rd_top_item(r, label) : noc_rd_block_item(r, label);
}

/* After the last line: everything closed, then the builder's checks. */
static noc_program_t *finish(reader_t *r)
{
    char msg[512];
    if (r->in_comment) {
        fail(r, "comment opened at line %" PRIu32 " is not closed", r->comment_line);
        return NULL;
    }
    if (r->rank >= 0) {
        fail(r, "block of rank %d (line %" PRIu32 ") is not closed: '}' missing", r->rank,
             r->rank_line);
        return NULL;
    }
    if (!r->p) {
        fail(r, "num_ranks missing");
        return NULL;
    }
    noc_program_t *p = r->p;
    p->name = r->name;
    r->name = NULL;
    noc_prog_source(p, r->file);
    if (noc_prog_finish(p, msg, sizeof msg)) {
        if (r->errlen)
            snprintf(r->err, r->errlen, "%s", msg);
        return NULL;
    }
    r->p = NULL;
    return p;
}

static void reader_free(reader_t *r)
{
    noc_prog_free(r->p);
    free(r->name);
    free(r->block_line);
    free(r->tok);
    free(r->arena);
    free(r->slot);
    free(r->dep);
    free(r->init.v);
    free(r->expect.v);
}

static void reader_init(reader_t *r, const char *file, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->file = file ? file : "<string>";
    r->err = err;
    r->errlen = errlen;
    r->rank = -1;
    if (errlen)
        err[0] = '\0';
}

static void next_line(reader_t *r)
{
    if (r->line < UINT32_MAX)
        r->line++;
}

noc_program_t *noc_prog_read_string(const char *text, const char *name_for_errors, char *err,
                                    size_t errlen)
{
    reader_t r;
    reader_init(&r, name_for_errors, err, errlen);
    size_t n = strlen(text);
    char *copy = noc_xcalloc(n + 1, 1, "program text");
    memcpy(copy, text, n);
    noc_program_t *p = NULL;
    int rc = 0;
    for (char *s = copy; !rc && *s;) {
        char *nl = strchr(s, '\n');
        if (nl)
            *nl = '\0';
        next_line(&r);
        rc = do_line(&r, s);
        s = nl ? nl + 1 : s + strlen(s);
    }
    if (!rc)
        p = finish(&r);
    free(copy);
    reader_free(&r);
    return p;
}

noc_program_t *noc_prog_read_file(const char *path, char *err, size_t errlen)
{
    reader_t r;
    reader_init(&r, path, err, errlen);
    noc_infile_t in;
    char msg[512];
    if (noc_in_open(&in, path, "program", msg, sizeof msg) != 0) {
        if (errlen)
            snprintf(err, errlen, "%s", msg);
        return NULL;
    }
    size_t len;
    noc_program_t *p = NULL;
    int rc = 0, got;
    while (!rc && (got = noc_in_line(&in, &len, msg, sizeof msg)) > 0) {
        next_line(&r);
        rc = do_line(&r, in.buf);
    }
    if (!rc && got < 0) {
        if (errlen)
            snprintf(err, errlen, "%s", msg); /* a NUL byte, a line too long, a read error */
        rc = -1;
    }
    if (!rc)
        p = finish(&r);
    noc_in_close(&in);
    reader_free(&r);
    return p;
}
