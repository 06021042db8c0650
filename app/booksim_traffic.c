/* booksim_traffic.c: BookSim2's traffic patterns as noctua's (booksim.h,
 * noc_bs_traffic). BookSim2 (traffic.cpp, TrafficPattern::New) splits a
 * value NAME(PARAMS) at the first '(' and the last ')', cuts PARAMS into
 * parameters with config_utils.cpp's tokenizer and reads hotspot's and
 * background's node lists from those. Its tokenizer splits a list in
 * braces at commas and also at a closing brace of the outer level, so
 * hotspot({0,1},{1,1}) gives the parameters 0 and 1: one hot node, 0, with
 * weight 1; the lists need their own braces, hotspot({{0,1},{1,1}}). Here
 * the parameters are cut by the same rules (our code), and a value whose
 * numbers BookSim2 would not all read is refused with what BookSim2 reads,
 * so that no value silently means something else. */
#include "app/booksim.h"
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TOKENS 4096

typedef struct tokens {
    int n;
    size_t at[MAX_TOKENS], len[MAX_TOKENS]; /* each token: where it starts in the text, its length */
} tokens_t;

/* The tokenizer's rule: no text, no token; text not opening with '{' is
 * one token; otherwise, from after the '{', the commas and closing braces
 * at the outer level end a token (an empty one is dropped) and nested
 * braces are kept whole; what follows the last of them is dropped. -1:
 * braces unbalanced (BookSim2 stops on an assertion) or too many tokens. */
static int tokenize(const char *s, size_t len, tokens_t *t)
{
    t->n = 0;
    if (len == 0)
        return 0;
    if (s[0] != '{') {
        t->at[0] = 0;
        t->len[0] = len;
        t->n = 1;
        return 0;
    }
    size_t start = 1;
    int nested = 0;
    for (size_t i = 1; i < len; i++) {
        if (s[i] == '{') {
            nested++;
        } else if (s[i] == '}' && nested) {
            nested--;
        } else if ((s[i] == ',' || s[i] == '}') && !nested) {
            if (i > start) {
                if (t->n == MAX_TOKENS)
                    return -1;
                t->at[t->n] = start;
                t->len[t->n++] = i - start;
            }
            start = i + 1;
        }
    }
    return nested ? -1 : 0;
}

/* An integer, the whole of s[0..len). */
static int whole_int(const char *s, size_t len, long *v)
{
    char buf[32], *end;
    if (len == 0 || len >= sizeof buf)
        return -1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    errno = 0;
    *v = strtol(buf, &end, 10);
    return *end == '\0' && errno == 0 && !isspace((unsigned char)buf[0]) ? 0 : -1;
}

/* The integers BookSim2's tokenize_int reads from parameter p of params (text s): a
 * list as "{a,b,...}" in out; their count, or -1 with msg (one not an integer). */
static int int_list(const char *s, size_t at, size_t len, char *out, size_t outlen, int *count, char *msg,
                    size_t msglen)
{
    tokens_t *t = malloc(sizeof *t);
    int rc = -1;
    if (!t || tokenize(s + at, len, t) != 0) {
        snprintf(msg, msglen, "'%.*s': unbalanced braces or too many numbers", (int)len, s + at);
        free(t);
        return -1;
    }
    size_t w = (size_t)snprintf(out, outlen, "{");
    for (int i = 0; i < t->n; i++) {
        long v;
        if (whole_int(s + at + t->at[i], t->len[i], &v) != 0) {
            char tok[64];
            snprintf(tok, sizeof tok, "%.*s", (int)t->len[i], s + at + t->at[i]);
            snprintf(msg, msglen, "'%s' is not an integer (BookSim2's atoi reads it as %d)", tok, atoi(tok));
            goto out;
        }
        if (w < outlen)
            w += (size_t)snprintf(out + w, outlen - w, "%s%ld", i ? "," : "", v);
    }
    if (w < outlen)
        w += (size_t)snprintf(out + w, outlen - w, "}");
    if (w >= outlen) {
        snprintf(msg, msglen, "too long");
        goto out;
    }
    *count = t->n;
    rc = 0;
out:
    free(t);
    return rc;
}

/* How many integers the text shows. */
static int numbers_in(const char *s, size_t len)
{
    int n = 0;
    for (size_t i = 0; i < len; i++)
        if (isdigit((unsigned char)s[i]) && (i == 0 || !isdigit((unsigned char)s[i - 1])))
            n++;
    return n;
}

/* The list text "{a,b,c}" cut to its first n elements. */
static void cut_list(char *list, int n)
{
    char *c = list;
    for (int i = 0; i < n && c; i++)
        c = strchr(c + 1, ',');
    if (c)
        strcpy(c, "}");
}

/* The last element of the list text "{a,b,c}" repeated to make `want`. */
static int pad_list(char *list, size_t len, int have, int want)
{
    const char *last = strrchr(list, ',');
    char tail[32];
    snprintf(tail, sizeof tail, "%.*s", (int)(strlen(last ? last + 1 : list + 1) - 1), last ? last + 1 : list + 1);
    size_t w = strlen(list) - 1; /* over the '}' */
    for (int i = have; i < want; i++)
        w += (size_t)snprintf(list + w, w < len ? len - w : 0, ",%s", tail);
    w += (size_t)snprintf(list + w, w < len ? len - w : 0, "}");
    return w < len ? 0 : -1;
}

/* hotspot(PARAMS) and background(PARAMS), as BookSim2 reads them. */
static int list_pattern(const char *name, const char *value, const char *ps, size_t plen, char *out, size_t outlen,
                        char *msg, size_t msglen)
{
    int hotspot = strcmp(name, "hotspot") == 0;
    tokens_t *t = malloc(sizeof *t);
    char nodes[2048], weights[2048] = "", why[256];
    int nn = 0, nw = 0, rc = -1;
    if (!t || tokenize(ps, plen, t) != 0) {
        snprintf(msg, msglen, "'traffic = %s': unbalanced braces (BookSim2 stops on an assertion)", value);
        goto out;
    }
    if (t->n == 0) {
        if (hotspot)
            snprintf(msg, msglen, "'traffic = %s': BookSim2 then sends every packet to one node it draws at random; "
                     "name the node, hotspot(N), or several, hotspot({{N1,N2},{W1,W2}})", value);
        else
            snprintf(msg, msglen, "'traffic = %s': BookSim2 reads the nodes to leave out from the first parameter "
                     "and has none here (it crashes); give them: background(N) or background({{N1,N2}})", value);
        goto out;
    }
    if (int_list(ps, t->at[0], t->len[0], nodes, sizeof nodes, &nn, why, sizeof why) != 0 ||
        (hotspot && t->n > 1 && int_list(ps, t->at[1], t->len[1], weights, sizeof weights, &nw, why, sizeof why))) {
        snprintf(msg, msglen, "'traffic = %s': %s", value, why);
        goto out;
    }
    if (hotspot && (strstr(nodes, "{-") || strstr(nodes, ",-"))) {
        snprintf(msg, msglen, "'traffic = %s': a negative node makes BookSim2 draw a node at random; name the node",
                 value);
        goto out;
    }
    if (nw > nn) /* BookSim2 keeps as many weights as nodes */
        cut_list(weights, nn);
    int used = nn + (hotspot ? (nw < nn ? nw : nn) : 0), bare = 0;
    for (int i = 0; ps[0] == '{' && t->n > 1 && i < t->n; i++)
        bare |= ps[t->at[i]] != '{'; /* {3,5}: a list BookSim2 unwraps into parameters */
    if (nn == 0 || bare || used != numbers_in(ps, plen)) {
        if (hotspot)
            snprintf(msg, msglen, "'traffic = %s': BookSim2 reads this as hot node%s %s with weight%s %s, not all "
                     "the numbers written; several nodes with weights are written hotspot({{N1,N2},{W1,W2}})",
                     value, nn == 1 ? "" : "s", nodes, nn == 1 ? "" : "s", nw ? weights : "1");
        else
            snprintf(msg, msglen, "'traffic = %s': BookSim2 reads this as leaving out node%s %s only, not all the "
                     "numbers written; several nodes are written background({{N1,N2}})", value, nn == 1 ? "" : "s",
                     nodes);
        goto out;
    }
    if (nw && nw < nn && pad_list(weights, sizeof weights, nw, nn) != 0) {
        snprintf(msg, msglen, "'traffic = %s': too long", value);
        goto out;
    }
    if ((size_t)snprintf(out, outlen, "%s(%s%s%s)", name, nodes, nw ? "," : "", weights) >= outlen) {
        snprintf(msg, msglen, "'traffic = %s': too long", value);
        goto out;
    }
    rc = 0;
out:
    free(t);
    return rc;
}

int noc_bs_traffic(const char *value, char *out, size_t outlen, char *msg, size_t msglen)
{
    static const char *const same[] = { "uniform", "transpose", "bitcomp", "bitrev", "shuffle", "tornado",
                                        "randperm", "diagonal", "asymmetric", "taper64", "badperm_yarc" };
    const char *open = strchr(value, '('), *close = strrchr(value, ')');
    char name[64];
    size_t nlen = open ? (size_t)(open - value) : strlen(value);
    snprintf(name, sizeof name, "%.*s", (int)(nlen < sizeof name ? nlen : sizeof name - 1), value);
    const char *ps = open ? open + 1 : "";
    if (open && (!close || close < open || close[1] != '\0')) {
        snprintf(msg, msglen, "'traffic = %s': the parameters go between '(' and a ')' that ends the value", value);
        return -1;
    }
    size_t plen = !open ? 0 : close && close > open ? (size_t)(close - ps) : strlen(ps);
    if (strcmp(name, "hotspot") == 0 || strcmp(name, "background") == 0)
        return list_pattern(name, value, ps, plen, out, outlen, msg, msglen);
    if (strcmp(name, "bad_dragon") == 0) {
        snprintf(msg, msglen, "'traffic = %s': BookSim2's bad_dragon sends to a random node of the next dragonfly "
                 "group (2k routers of k nodes each); noctua builds no dragonfly, so it is not built", value);
        return -1;
    }
    if (strcmp(name, "randperm") == 0 && open) {
        long seed;
        if (close != value + strlen(value) - 1 || whole_int(ps, plen, &seed) != 0) {
            snprintf(msg, msglen, "'traffic = %s': randperm(SEED), SEED an integer, or randperm with perm_seed, "
                     "please", value);
            return -1;
        }
        snprintf(out, outlen, "randperm(%ld)", seed);
        return 0;
    }
    int known = strcmp(name, "neighbor") == 0;
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++)
        known |= strcmp(name, same[i]) == 0;
    if (!known) {
        snprintf(msg, msglen, "'traffic = %s': BookSim2 knows no such pattern (it stops: Unknown traffic pattern)",
                 value);
        return -1;
    }
    if (open) {
        snprintf(msg, msglen, "'traffic = %s': parameters in the value are not honoured (BookSim2's tornado, "
                 "neighbor and badperm_yarc would read k, n and xr from them instead of the network's; the "
                 "others ignore them): write %s alone", value, name);
        return -1;
    }
    snprintf(out, outlen, "%s", strcmp(name, "neighbor") == 0 ? "neighbor_all" : name);
    return 0;
}

/* A per-class key's value (BookSim2's GetStrArray and its tokenizer):
 * tokens as noctua's class_ list (comma-separated; traffic patterns
 * translated, packet sizes a single integer each), the first in first.
 * Returns the number of values, or -1 with msg. */
int noc_bs_class_values(const char *key, const char *value, char *out, size_t outlen, char *first, size_t firstlen,
                        char *msg, size_t msglen)
{
    tokens_t *t = malloc(sizeof *t);
    if (!t || tokenize(value, strlen(value), t) != 0 || t->n == 0) {
        snprintf(msg, msglen, "'%s = %s': %s", key, value,
                 !t ? "out of memory" : t->n == 0 ? "no value in the braces" : "unbalanced braces");
        free(t);
        return -1;
    }
    size_t w = 0;
    int n = t->n, rc = n;
    out[0] = first[0] = '\0';
    for (int i = 0; i < n && rc > 0; i++) {
        char tok[512], tr[NOC_CONFIG_STR_MAX];
        size_t a = t->at[i], len = t->len[i];
        while (len > 0 && value[a] == ' ')
            a++, len--;
        while (len > 0 && value[a + len - 1] == ' ')
            len--;
        snprintf(tok, sizeof tok, "%.*s", (int)len, value + a);
        const char *v = tok;
        if (strcmp(key, "traffic") == 0) {
            if (noc_bs_traffic(tok, tr, sizeof tr, msg, msglen) != 0) {
                rc = -1;
                break;
            }
            v = tr;
        } else if (strcmp(key, "packet_size") == 0 && tok[0] == '{') {
            snprintf(msg, msglen, "'packet_size = %s': several sizes in a class (%s, with packet_size_rate) are not "
                     "modelled yet; one size a class", value, tok);
            rc = -1;
            break;
        }
        if (i == 0)
            snprintf(first, firstlen, "%s", v);
        int m = snprintf(out + w, outlen - w, "%s%s", i ? "," : "", v);
        if (m < 0 || (size_t)m >= outlen - w) {
            snprintf(msg, msglen, "'%s = %s': too long", key, value);
            rc = -1;
            break;
        }
        w += (size_t)m;
    }
    free(t);
    return rc;
}
