/* wave_fst.c: the FST writer, a thin layer over GTKWave's own fstapi (the
 * C sources Verilator ships, compiled into the noctua_fstapi library).
 * Bits are FST wires, integers FST "integer" variables (GTKWave names them
 * without a [msb:lsb] suffix), strings FST's variable-length string type;
 * node labels go in as the scopes' component names and as comment
 * attributes. LZ4 compression, as Verilator's own FST traces use. */
#include "util/xalloc.h"
#include "waves/waves_internal.h"
#include "waves/fst_guard.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <fstapi.h>

typedef struct fst {
    void *f;
    unsigned long errors0; /* fst_guard's count when the file was opened */
    char path[1024];
} fst_t;

/* path: a fresh temporary file (waves.c renames it onto the user's target
 * when the whole recording is written), which fstapi unlinks and makes
 * anew, with a companion path + ".hier" while it writes. */
static void *fst_open(const char *path, const char *version, char *err, size_t errlen)
{
    fst_t *x = noc_xcalloc(1, sizeof *x, "waves");
    x->errors0 = noc_fst_io_errors();
    x->f = fstWriterCreate(path, 1);
    if (!x->f) {
        snprintf(err, errlen, "cannot write the wave file (%s)", strerror(errno));
        free(x);
        return NULL;
    }
    snprintf(x->path, sizeof x->path, "%s", path);
    fstWriterSetPackType(x->f, FST_WR_PT_LZ4);
    fstWriterSetTimescale(x->f, -9); /* 1 ns: one cycle */
    fstWriterSetVersion(x->f, version);
    fstWriterSetFileType(x->f, FST_FT_VERILOG);
    return x;
}

static void fst_comment(void *ctx, const char *text)
{
    fst_t *x = ctx;
    fstWriterSetComment(x->f, text);
}

static void fst_scope(void *ctx, const char *name, const char *label)
{
    fst_t *x = ctx;
    fstWriterSetScope(x->f, FST_ST_VCD_MODULE, name, label);
}

static void fst_upscope(void *ctx)
{
    fst_t *x = ctx;
    fstWriterSetUpscope(x->f);
}

static uint32_t fst_var(void *ctx, noc_wv_kind_t kind, int bits, const char *name)
{
    fst_t *x = ctx;
    if (kind == NOC_WV_BIT)
        return fstWriterCreateVar(x->f, FST_VT_VCD_WIRE, FST_VD_IMPLICIT, 1, name, 0);
    if (kind == NOC_WV_INT)
        return fstWriterCreateVar(x->f, FST_VT_VCD_INTEGER, FST_VD_IMPLICIT, (uint32_t)bits, name, 0);
    return fstWriterCreateVar(x->f, FST_VT_GEN_STRING, FST_VD_IMPLICIT, 0, name, 0);
}

static void fst_end_defs(void *ctx)
{
    (void)ctx; /* fstapi ends the declarations with the first value change */
}

static void fst_time(void *ctx, uint64_t t)
{
    fst_t *x = ctx;
    fstWriterEmitTimeChange(x->f, t);
}

static void fst_put_bit(void *ctx, uint32_t h, int v)
{
    fst_t *x = ctx;
    fstWriterEmitValueChange(x->f, h, v ? "1" : "0");
}

static void fst_put_int(void *ctx, uint32_t h, int bits, uint64_t v)
{
    fst_t *x = ctx;
    if (bits <= 32)
        fstWriterEmitValueChange32(x->f, h, (uint32_t)bits, (uint32_t)v);
    else
        fstWriterEmitValueChange64(x->f, h, (uint32_t)bits, v);
}

static void fst_put_str(void *ctx, uint32_t h, const char *s)
{
    fst_t *x = ctx;
    fstWriterEmitVariableLengthValueChange(x->f, h, s, (uint32_t)strlen(s));
}

static int fst_close(void *ctx, uint64_t end, char *err, size_t errlen)
{
    fst_t *x = ctx;
    fstWriterEmitTimeChange(x->f, end);
    int bad = fstWriterGetFseekFailed(x->f);
    fstWriterClose(x->f);
    bad |= noc_fst_io_errors() != x->errors0;
    if (bad)
        snprintf(err, errlen, "a write of the wave file failed (disk full?)");
    free(x);
    return bad ? -1 : 0;
}

const noc_wv_ops_t noc_wv_fst_ops = {
    .name = "fst",
    .companion = ".hier",
    .open = fst_open,
    .comment = fst_comment,
    .scope = fst_scope,
    .upscope = fst_upscope,
    .var = fst_var,
    .end_defs = fst_end_defs,
    .time = fst_time,
    .put_bit = fst_put_bit,
    .put_int = fst_put_int,
    .put_str = fst_put_str,
    .close = fst_close,
};
