/* expand.c: brace ranges {A..B} and lists {a,b,c} (cli/expand.h), by
 * recursion on the first brace outside parentheses. */
#include "cli/expand.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ITEMS 1000

/* The first c ('{' or '}') of s outside (..), or NULL. */
static const char *first_outside(const char *s, char c)
{
    int depth = 0;
    for (; *s; s++) {
        if (*s == '(')
            depth++;
        else if (*s == ')' && depth > 0)
            depth--;
        else if (*s == c && depth == 0)
            return s;
    }
    return NULL;
}

/* A whole number filling s[0..len). */
static int whole(const char *s, size_t len, long *v)
{
    char buf[32], *end;
    if (len == 0 || len >= sizeof buf)
        return -1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    errno = 0;
    *v = strtol(buf, &end, 10);
    return *end || errno ? -1 : 0;
}

/* The items of the brace body b[0..len) into items (each a string in
 * NOC_EXPAND_LEN); their number, or -1 with err. */
static int items(const char *pat, const char *b, size_t len, char (*it)[NOC_EXPAND_LEN], char *err,
                 size_t errlen)
{
    const char *dots = NULL;
    for (size_t i = 0; i + 1 < len; i++)
        if (b[i] == '.' && b[i + 1] == '.')
            dots = b + i;
    if (dots && !memchr(b, ',', len)) {
        long lo, hi;
        if (whole(b, (size_t)(dots - b), &lo) || whole(dots + 2, len - (size_t)(dots - b) - 2, &hi) || lo > hi ||
            hi - lo >= MAX_ITEMS) {
            snprintf(err, errlen, "'%s': {%.*s}: expected {A..B} with whole numbers A <= B (at most %d)", pat,
                     (int)len, b, MAX_ITEMS);
            return -1;
        }
        for (long v = lo; v <= hi; v++)
            snprintf(it[v - lo], NOC_EXPAND_LEN, "%ld", v);
        return (int)(hi - lo + 1);
    }
    if (!memchr(b, ',', len)) {
        snprintf(err, errlen, "'%s': {%.*s}: expected a range {A..B} or a list {a,b,...}", pat, (int)len, b);
        return -1;
    }
    int n = 0;
    for (const char *p = b, *end = b + len; p <= end && n < MAX_ITEMS;) {
        const char *c = memchr(p, ',', (size_t)(end - p));
        size_t k = c ? (size_t)(c - p) : (size_t)(end - p);
        if (k == 0 || k >= NOC_EXPAND_LEN || memchr(p, '{', k)) {
            snprintf(err, errlen, "'%s': {%.*s}: an empty, overlong or nested item", pat, (int)len, b);
            return -1;
        }
        snprintf(it[n++], NOC_EXPAND_LEN, "%.*s", (int)k, p);
        p += k + 1;
    }
    return n;
}

static int expand(const char *pat, const char *s, char (*out)[NOC_EXPAND_LEN], int at, int max, char *err,
                  size_t errlen)
{
    const char *open = first_outside(s, '{');
    if (!open) {
        if (first_outside(s, '}')) {
            snprintf(err, errlen, "'%s': a '}' without its '{'", pat);
            return -1;
        }
        if (at == max || strlen(s) >= NOC_EXPAND_LEN) {
            snprintf(err, errlen, at == max ? "'%s': more than %d combinations" : "'%s': a word too long", pat,
                     max);
            return -1;
        }
        snprintf(out[at], NOC_EXPAND_LEN, "%s", s);
        return at + 1;
    }
    const char *close = strchr(open, '}');
    if (!close) {
        snprintf(err, errlen, "'%s': a '{' without its '}'", pat);
        return -1;
    }
    char (*mine)[NOC_EXPAND_LEN] = malloc(MAX_ITEMS * sizeof *mine);
    if (!mine) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int n = items(pat, open + 1, (size_t)(close - open - 1), mine, err, errlen);
    for (int i = 0; i < n && at >= 0; i++) {
        char next[4 * NOC_EXPAND_LEN];
        int k = snprintf(next, sizeof next, "%.*s%s%s", (int)(open - s), s, mine[i], close + 1);
        if (k < 0 || (size_t)k >= sizeof next) {
            snprintf(err, errlen, "'%s': a word too long", pat);
            at = -1;
            break;
        }
        at = expand(pat, next, out, at, max, err, errlen);
    }
    free(mine);
    return n < 0 ? -1 : at;
}

int noc_expand(const char *pattern, char (*out)[NOC_EXPAND_LEN], int max, char *err, size_t errlen)
{
    if (strlen(pattern) >= NOC_EXPAND_LEN) {
        snprintf(err, errlen, "'%.40s...': too long", pattern);
        return -1;
    }
    return expand(pattern, pattern, out, 0, max, err, errlen);
}
