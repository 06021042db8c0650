/* wave_read.h: wave files read back for the tests, with GTKWave's own
 * fstapi reader (FST) and a VCD parser of its own: every signal by its full
 * name ("top.n_0.to_1.valid"; a vector's range dropped) with its changes
 * in time order. Shared by waves.waves (test_waves.c) and waves.rtl_trace
 * (testbench/cosim/rtl_trace_test.c); include after <cmocka.h>, whose
 * assertions it uses. */
#ifndef NOC_TEST_WAVE_READ_H
#define NOC_TEST_WAVE_READ_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fstapi.h>


enum { K_BIT, K_INT, K_STR };

typedef struct change {
    uint64_t t;
    int sig;
    char *val;
} change_t;

typedef struct sigrec {
    char *name;
    int kind;
    uint32_t len;     /* FST: bits */
    change_t *ch;     /* its changes in time order, consecutive repeats dropped */
    int n_ch;
} sigrec_t;

typedef struct wave {
    sigrec_t *sig;
    int n_sig, cap_sig;
    change_t *all;
    int n_all, cap_all;
    int *by_handle;   /* FST handle -> sig */
    uint32_t max_handle;
    char **vcd_id;    /* VCD: id of each sig */
} wave_t;

static inline char *sdup(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    assert_non_null(d);
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

static inline int add_sig(wave_t *w, const char *name, int kind, uint32_t len)
{
    if (w->n_sig == w->cap_sig) {
        w->cap_sig = w->cap_sig ? 2 * w->cap_sig : 256;
        w->sig = realloc(w->sig, (size_t)w->cap_sig * sizeof *w->sig);
        w->vcd_id = realloc(w->vcd_id, (size_t)w->cap_sig * sizeof *w->vcd_id);
        assert_non_null(w->sig);
        assert_non_null(w->vcd_id);
    }
    sigrec_t *s = &w->sig[w->n_sig];
    memset(s, 0, sizeof *s);
    s->name = sdup(name, strlen(name));
    s->kind = kind;
    s->len = len;
    w->vcd_id[w->n_sig] = NULL;
    return w->n_sig++;
}

/* A value in one form for both files: integers in decimal, bits as 0/1,
 * strings as they are; "x" for an unknown integer. */
static inline void add_change(wave_t *w, uint64_t t, int sig, const char *v, size_t n)
{
    char buf[64];
    if (w->sig[sig].kind == K_INT) {
        uint64_t x = 0;
        int unknown = 0;
        for (size_t i = 0; i < n; i++) {
            if (v[i] != '0' && v[i] != '1')
                unknown = 1;
            x = (x << 1) | (uint64_t)(v[i] == '1');
        }
        if (unknown)
            snprintf(buf, sizeof buf, "x");
        else
            snprintf(buf, sizeof buf, "%llu", (unsigned long long)x);
        v = buf;
        n = strlen(buf);
    }
    if (w->n_all == w->cap_all) {
        w->cap_all = w->cap_all ? 2 * w->cap_all : 4096;
        w->all = realloc(w->all, (size_t)w->cap_all * sizeof *w->all);
        assert_non_null(w->all);
    }
    w->all[w->n_all++] = (change_t){ t, sig, sdup(v, n) };
}

static inline int by_sig_time(const void *a, const void *b)
{
    const change_t *x = a, *y = b;
    if (x->sig != y->sig)
        return x->sig < y->sig ? -1 : 1;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return 0;
}

/* Sort the changes per signal (stable in time: the last change at a time
 * wins), drop unknowns and repeats. */
static inline void index_changes(wave_t *w)
{
    /* stable: add the arrival index as a tie-break through a second key */
    for (int i = 0; i < w->n_all; i++)
        w->all[i].t = w->all[i].t * 1000000u + (uint64_t)i; /* runs here are short */
    qsort(w->all, (size_t)w->n_all, sizeof *w->all, by_sig_time);
    int k = 0;
    for (int i = 0; i < w->n_all; i++) {
        change_t c = w->all[i];
        c.t /= 1000000u;
        /* a later change at the same time replaces an earlier one */
        if (k > 0 && w->all[k - 1].sig == c.sig && w->all[k - 1].t == c.t) {
            free(w->all[k - 1].val);
            k--;
        }
        if (strcmp(c.val, "x") == 0 ||
            (k > 0 && w->all[k - 1].sig == c.sig && strcmp(w->all[k - 1].val, c.val) == 0)) {
            free(c.val);
            continue;
        }
        w->all[k++] = c;
    }
    w->n_all = k;
    for (int i = 0; i < w->n_all;) {
        int j = i;
        while (j < w->n_all && w->all[j].sig == w->all[i].sig)
            j++;
        w->sig[w->all[i].sig].ch = &w->all[i];
        w->sig[w->all[i].sig].n_ch = j - i;
        i = j;
    }
}

static inline void fst_cb(void *ctx, uint64_t t, fstHandle h, const unsigned char *v)
{
    wave_t *w = ctx;
    int sig = w->by_handle[h];
    add_change(w, t, sig, (const char *)v, w->sig[sig].kind == K_STR ? strlen((const char *)v) : w->sig[sig].len);
}

static inline void fst_cb_varlen(void *ctx, uint64_t t, fstHandle h, const unsigned char *v, uint32_t len)
{
    wave_t *w = ctx;
    add_change(w, t, w->by_handle[h], (const char *)v, len);
}

/* aliases: 1 to skip variables that alias another (Verilator's traces have
 * them: a port seen from the module inside), 0 to fail on one (noctua's own
 * files have none). */
static inline wave_t *read_fst_aliases(const char *path, int aliases)
{
    void *r = fstReaderOpen(path);
    assert_non_null(r);
    wave_t *w = calloc(1, sizeof *w);
    assert_non_null(w);
    w->max_handle = fstReaderGetMaxHandle(r);
    w->by_handle = calloc((size_t)w->max_handle + 1, sizeof *w->by_handle);
    char scope[2048] = "";
    size_t depth_len[64];
    int depth = 0;
    struct fstHier *h;
    while ((h = fstReaderIterateHier(r))) {
        if (h->htyp == FST_HT_SCOPE) {
            depth_len[depth++] = strlen(scope);
            size_t n = strlen(scope);
            snprintf(scope + n, sizeof scope - n, "%s%.*s", n ? "." : "", (int)h->u.scope.name_length,
                     h->u.scope.name);
        } else if (h->htyp == FST_HT_UPSCOPE) {
            assert_true(depth > 0);
            scope[depth_len[--depth]] = '\0';
        } else if (h->htyp == FST_HT_VAR) {
            char name[2300];
            snprintf(name, sizeof name, "%s.%.*s", scope, (int)h->u.var.name_length, h->u.var.name);
            char *range = strstr(name, " ["); /* a vector's "[hi:lo]" */
            if (range)
                *range = '\0';
            if (aliases && h->u.var.is_alias)
                continue;
            int kind = h->u.var.typ == FST_VT_GEN_STRING ? K_STR
                       : h->u.var.typ == FST_VT_VCD_INTEGER ? K_INT : K_BIT;
            assert_false(h->u.var.is_alias);
            w->by_handle[h->u.var.handle] = add_sig(w, name, kind, h->u.var.length);
        }
    }
    fstReaderSetFacProcessMaskAll(r);
    fstReaderIterBlocks2(r, fst_cb, fst_cb_varlen, w, NULL);
    fstReaderClose(r);
    index_changes(w);
    return w;
}

static inline wave_t *read_fst(const char *path)
{
    return read_fst_aliases(path, 0);
}

/* fst2vcd's escapes back to text */
static inline size_t unescape(const char *s, char *out)
{
    size_t n = 0;
    static const char letters[] = "abfnrtv'\"\\?", chars[] = "\a\b\f\n\r\t\v'\"\\?";
    for (; *s; s++) {
        if (*s != '\\') {
            out[n++] = *s;
            continue;
        }
        s++;
        const char *l = strchr(letters, *s);
        if (*s && l) {
            out[n++] = chars[l - letters];
        } else {
            out[n++] = (char)((s[0] - '0') * 64 + (s[1] - '0') * 8 + (s[2] - '0'));
            s += 2;
        }
    }
    out[n] = '\0';
    return n;
}

static inline int vcd_find(const wave_t *w, const char *id)
{
    for (int i = 0; i < w->n_sig; i++)
        if (strcmp(w->vcd_id[i], id) == 0)
            return i;
    fail_msg("VCD id %s undeclared", id);
    return -1;
}

static inline wave_t *read_vcd(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    wave_t *w = calloc(1, sizeof *w);
    assert_non_null(w);
    char tok[4096], scope[2048] = "";
    size_t depth_len[64];
    int depth = 0, defs = 1;
    uint64_t t = 0;
    while (fscanf(f, "%4095s", tok) == 1) {
        if (defs) {
            if (strcmp(tok, "$scope") == 0) {
                char kind[64], name[512];
                assert_int_equal(fscanf(f, "%63s %511s %4095s", kind, name, tok), 3);
                depth_len[depth++] = strlen(scope);
                size_t n = strlen(scope);
                snprintf(scope + n, sizeof scope - n, "%s%s", n ? "." : "", name);
            } else if (strcmp(tok, "$upscope") == 0) {
                assert_int_equal(fscanf(f, "%4095s", tok), 1);
                scope[depth_len[--depth]] = '\0';
            } else if (strcmp(tok, "$var") == 0) {
                char type[64], id[64], name[512], full[2600];
                int size;
                assert_int_equal(fscanf(f, "%63s %d %63s %511s %4095s", type, &size, id, name, tok), 5);
                snprintf(full, sizeof full, "%s.%s", scope, name);
                int kind = strcmp(type, "string") == 0 ? K_STR : strcmp(type, "integer") == 0 ? K_INT : K_BIT;
                int s = add_sig(w, full, kind, (uint32_t)size);
                w->vcd_id[s] = sdup(id, strlen(id));
            } else if (strcmp(tok, "$enddefinitions") == 0) {
                assert_int_equal(fscanf(f, "%4095s", tok), 1);
                defs = 0;
            } else if (tok[0] == '$') {
                while (fscanf(f, "%4095s", tok) == 1 && strcmp(tok, "$end") != 0)
                    ;
            }
            continue;
        }
        char id[64], text[4096];
        if (tok[0] == '#') {
            t = strtoull(tok + 1, NULL, 10);
        } else if (tok[0] == 'b') {
            assert_int_equal(fscanf(f, "%63s", id), 1);
            add_change(w, t, vcd_find(w, id), tok + 1, strlen(tok + 1));
        } else if (tok[0] == 's') {
            assert_int_equal(fscanf(f, "%63s", id), 1);
            size_t n = unescape(tok + 1, text);
            add_change(w, t, vcd_find(w, id), text, n);
        } else {
            add_change(w, t, vcd_find(w, tok + 1), tok, 1);
        }
    }
    fclose(f);
    index_changes(w);
    return w;
}

static inline void free_wave(wave_t *w)
{
    for (int i = 0; i < w->n_sig; i++) {
        free(w->sig[i].name);
        free(w->vcd_id[i]);
    }
    for (int i = 0; i < w->n_all; i++)
        free(w->all[i].val);
    free(w->sig);
    free(w->vcd_id);
    free(w->all);
    free(w->by_handle);
    free(w);
}

static inline int find_sig(const wave_t *w, const char *name)
{
    for (int i = 0; i < w->n_sig; i++)
        if (strcmp(w->sig[i].name, name) == 0)
            return i;
    return -1;
}

/* The value of signal `name` at time t (NULL before its first change). */
static inline const char *value_at(const wave_t *w, const char *name, uint64_t t)
{
    int s = find_sig(w, name);
    if (s < 0)
        fail_msg("no signal %s", name);
    const sigrec_t *g = &w->sig[s];
    const char *v = NULL;
    for (int i = 0; i < g->n_ch && g->ch[i].t <= t; i++)
        v = g->ch[i].val;
    return v;
}

#endif
