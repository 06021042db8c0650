/* wave_vcd.c: the VCD writer (IEEE 1364 value change dump, with GTKWave's
 * extensions for strings: `$var string`, "s<escaped text> <id>" changes,
 * escaped the way GTKWave's fst2vcd writes them). Identifiers are the
 * printable characters '!' .. '~' as base-94 digits. Times are written only
 * when something changes at them. */
#include "util/xalloc.h"
#include "waves/waves_internal.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct vcd {
    FILE *f;
    char *buf;            /* stdio buffer */
    uint32_t n_vars;
    uint64_t t;           /* time of the next change */
    uint64_t written_t;   /* last "#t" line */
    int have_t;           /* a "#t" line was written */
} vcd_t;

static void *vcd_open(const char *path, const char *version, char *err, size_t errlen)
{
    vcd_t *v = noc_xcalloc(1, sizeof *v, "waves");
    v->f = fopen(path, "w");
    if (!v->f) {
        snprintf(err, errlen, "cannot write the wave file (%s)", strerror(errno));
        free(v);
        return NULL;
    }
    v->buf = malloc(1u << 20);
    if (v->buf)
        setvbuf(v->f, v->buf, _IOFBF, 1u << 20);
    fprintf(v->f, "$version\n\t%s\n$end\n$timescale\n\t1ns\n$end\n", version);
    fprintf(v->f, "$comment\n\tone time unit (1 ns) is one cycle; docs/waves.md\n$end\n");
    return v;
}

static void vcd_comment(void *ctx, const char *text)
{
    vcd_t *v = ctx;
    fprintf(v->f, "$comment %s $end\n", text);
}

static void vcd_scope(void *ctx, const char *name, const char *label)
{
    vcd_t *v = ctx;
    (void)label; /* VCD has no place for it: the caller writes a comment */
    fprintf(v->f, "$scope module %s $end\n", name);
}

static void vcd_upscope(void *ctx)
{
    vcd_t *v = ctx;
    fputs("$upscope $end\n", v->f);
}

/* Identifier of variable h (from 1) in base 94 over '!' .. '~'. */
static void vcd_id(uint32_t h, char *buf)
{
    int n = 0;
    uint32_t x = h - 1;
    do {
        buf[n++] = (char)('!' + x % 94);
        x /= 94;
    } while (x);
    buf[n] = '\0';
}

static uint32_t vcd_var(void *ctx, noc_wv_kind_t kind, int bits, const char *name)
{
    vcd_t *v = ctx;
    char id[8];
    uint32_t h = ++v->n_vars;
    vcd_id(h, id);
    if (kind == NOC_WV_BIT)
        fprintf(v->f, "$var wire 1 %s %s $end\n", id, name);
    else if (kind == NOC_WV_INT)
        fprintf(v->f, "$var integer %d %s %s $end\n", bits, id, name);
    else
        fprintf(v->f, "$var string 1 %s %s $end\n", id, name);
    return h;
}

static void vcd_end_defs(void *ctx)
{
    vcd_t *v = ctx;
    fputs("$enddefinitions $end\n", v->f);
}

static void vcd_time(void *ctx, uint64_t t)
{
    vcd_t *v = ctx;
    v->t = t;
}

static void stamp(vcd_t *v)
{
    if (!v->have_t || v->written_t != v->t) {
        fprintf(v->f, "#%llu\n", (unsigned long long)v->t);
        v->written_t = v->t;
        v->have_t = 1;
    }
}

static void vcd_put_bit(void *ctx, uint32_t h, int x)
{
    vcd_t *v = ctx;
    char id[8];
    stamp(v);
    vcd_id(h, id);
    fprintf(v->f, "%c%s\n", x ? '1' : '0', id);
}

static void vcd_put_int(void *ctx, uint32_t h, int bits, uint64_t x)
{
    vcd_t *v = ctx;
    char id[8], b[72];
    int n = 0;
    (void)bits;
    stamp(v);
    vcd_id(h, id);
    /* binary without leading zeros (VCD extends with 0) */
    int top = 63;
    while (top > 0 && !((x >> top) & 1))
        top--;
    for (int i = top; i >= 0; i--)
        b[n++] = (char)('0' + ((x >> i) & 1));
    b[n] = '\0';
    fprintf(v->f, "b%s %s\n", b, id);
}

static void vcd_put_str(void *ctx, uint32_t h, const char *s)
{
    vcd_t *v = ctx;
    char id[8], esc[1024];
    stamp(v);
    vcd_id(h, id);
    noc_wv_escape(s, esc, sizeof esc);
    fprintf(v->f, "s%s %s\n", esc, id);
}

static int vcd_close(void *ctx, uint64_t end, char *err, size_t errlen)
{
    vcd_t *v = ctx;
    if (!v->have_t || end > v->written_t) {
        v->t = end;
        stamp(v);
    }
    int e = ferror(v->f) ? EIO : 0;
    if (fflush(v->f) != 0)
        e = errno;
    if (fclose(v->f) != 0 && !e)
        e = errno;
    int bad = e != 0;
    if (bad)
        snprintf(err, errlen, "a write of the wave file failed (%s)", e == EIO ? "disk full?" : strerror(e));
    free(v->buf);
    free(v);
    return bad ? -1 : 0;
}

size_t noc_wv_escape(const char *s, char *buf, size_t len)
{
    static const char special[] = "\a\b\f\n\r\t\v'\"\\?"; /* as \ and a letter: */
    static const char letter[] = "abfnrtv'\"\\?";
    size_t n = 0;
    if (len == 0)
        return 0;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        char e[5];
        size_t k;
        const char *named = strchr(special, c);
        if (named) {
            e[0] = '\\';
            e[1] = letter[named - special];
            k = 2;
        } else if (c > ' ' && c <= '~') {
            e[0] = (char)c;
            k = 1;
        } else {
            e[0] = '\\';
            e[1] = (char)('0' + c / 64);
            e[2] = (char)('0' + (c / 8) % 8);
            e[3] = (char)('0' + c % 8);
            k = 4;
        }
        if (n + k >= len)
            break;
        memcpy(buf + n, e, k);
        n += k;
    }
    buf[n] = '\0';
    return n;
}

const noc_wv_ops_t noc_wv_vcd_ops = {
    .name = "vcd",
    .companion = NULL,
    .open = vcd_open,
    .comment = vcd_comment,
    .scope = vcd_scope,
    .upscope = vcd_upscope,
    .var = vcd_var,
    .end_defs = vcd_end_defs,
    .time = vcd_time,
    .put_bit = vcd_put_bit,
    .put_int = vcd_put_int,
    .put_str = vcd_put_str,
    .close = vcd_close,
};
