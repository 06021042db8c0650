/* suggest.c: the closest valid name to a mistyped word (suggest.h). */
#include "util/suggest.h"
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define WORD_MAX 64 /* longer words get no suggestion */

int noc_edit_distance(const char *a, const char *b, int limit)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > WORD_MAX || lb > WORD_MAX)
        return limit + 1;
    if ((la > lb ? la - lb : lb - la) > (size_t)limit)
        return limit + 1;
    /* three rows of the dynamic programme: i - 2, i - 1, i */
    int rows[3][WORD_MAX + 1];
    for (size_t j = 0; j <= lb; j++)
        rows[1][j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int *cur = rows[(i + 1) % 3], *prev = rows[i % 3], *prev2 = rows[(i + 2) % 3];
        cur[0] = (int)i;
        int best = cur[0];
        for (size_t j = 1; j <= lb; j++) {
            int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
            int d = prev[j - 1] + (ca != cb);
            if (prev[j] + 1 < d)
                d = prev[j] + 1;
            if (cur[j - 1] + 1 < d)
                d = cur[j - 1] + 1;
            if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
                tolower((unsigned char)a[i - 2]) == cb && prev2[j - 2] + 1 < d)
                d = prev2[j - 2] + 1; /* two neighbours swapped */
            cur[j] = d;
            if (d < best)
                best = d;
        }
        if (best > limit)
            return limit + 1;
    }
    int d = rows[(la + 1) % 3][lb];
    return d > limit ? limit + 1 : d;
}

static int allowed_edits(size_t len)
{
    return len <= 4 ? 1 : len <= 8 ? 2 : 3;
}

const char *noc_suggest(const char *word, const char *const *names, size_t n)
{
    size_t wl = strlen(word);
    if (wl == 0)
        return NULL;
    int limit = allowed_edits(wl), best_d = limit + 1;
    const char *best = NULL;
    for (size_t i = 0; i < n; i++) {
        if (!names[i] || strcmp(names[i], word) == 0)
            continue;
        int d = noc_edit_distance(word, names[i], limit);
        if (d > limit && wl >= 3 && strncmp(names[i], word, wl) == 0)
            d = limit; /* an abbreviation: as close as the farthest typo */
        if (d < best_d) {
            best_d = d;
            best = names[i];
        }
    }
    return best;
}

const char *noc_suggest_list(const char *word, const char *list, char *buf, size_t len)
{
    const char *names[256];
    char copy[4096];
    size_t n = 0;
    snprintf(copy, sizeof copy, "%s", list);
    for (char *save = NULL, *tok = strtok_r(copy, " ,\t", &save); tok && n < 256;
         tok = strtok_r(NULL, " ,\t", &save))
        names[n++] = tok;
    const char *s = noc_suggest(word, names, n);
    snprintf(buf, len, "%s", s ? s : "");
    return buf;
}

const char *noc_did_you_mean(const char *word, const char *const *names, size_t n, char *buf, size_t len)
{
    const char *s = noc_suggest(word, names, n);
    if (s)
        snprintf(buf, len, " (did you mean '%s'?)", s);
    else if (len)
        buf[0] = '\0';
    return buf;
}
