/* rtl_gtkw.c: the GTKWave save file of the RTL cores' trace (--router rtl
 * --waves X.fst: X.rtl.fst -> X.rtl.gtkw), in GTKWave's save-file format
 * (see gtkw.c). It lists, for every traced core, the ports at the top of
 * its scope (router_<label>: the clock, the input and output ports, the
 * observation taps) as GTKWave names them, read back from the file's own
 * hierarchy so that every name and bit range is one the file has: a group
 * per core, the first open, the others closed; the clock binary, the rest
 * hexadecimal. */
#include "waves/waves_internal.h"
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <fstapi.h>

enum { F_BIN = 0x28, F_HEX = 0x22, F_GRP = 0x800200, F_GRP_END = 0x1000200, F_GRP_CLOSED = 0xc00200,
       F_GRP_CLOSED_END = 0x1401200 };

/* GTKWave's name of a variable: the FST name with the blank before its bit
 * range dropped ("in_valid_i [2:0]" -> "in_valid_i[2:0]"). */
static void gtkw_name(const char *fst, char *buf, size_t len)
{
    size_t k = 0;
    for (const char *c = fst; *c && k + 1 < len; c++)
        if (!(*c == ' ' && c[1] == '['))
            buf[k++] = *c;
    buf[k] = '\0';
}

int noc_wv_write_rtl_gtkw(FILE *f, const char *gtkw_path, const char *fst_path, uint64_t end, char *err,
                          size_t errlen)
{
    void *rd = fstReaderOpen(fst_path);
    if (!rd) {
        snprintf(err, errlen, "%s: cannot read it back for its save file", fst_path);
        return -1;
    }
    fprintf(f, "[*]\n[*] noctua: the RTL cores' insides; open with gtkwave %s %s\n", fst_path, gtkw_path);
    fprintf(f, "[*] one cycle is 1 ns (resolution 100 ps): clk_i rises at each cycle's start, as in the run's own "
               "wave file\n[*]\n");
    fprintf(f, "[dumpfile] \"%s\"\n[savefile] \"%s\"\n[timestart] 0\n[size] 1600 900\n", fst_path, gtkw_path);
    /* the whole run across the waves pane (about 900 pixels): GTKWave shows
     * floor(2^-zoom) of its time units per 200 pixels, and counts this
     * file's time in picoseconds (a cycle is 1000) */
    double frame = ceil((double)(end ? end : 1) * 1000.0 * 200.0 / 900.0);
    fprintf(f, "*%f -1", -log2(frame + 0.25));
    for (int i = 0; i < 26; i++)
        fprintf(f, " -1");
    fprintf(f, "\n[sst_width] 260\n[signals_width] 300\n[sst_expanded] 1\n");
    char scope[256] = "", name[512];
    int depth = 0, groups = 0, fl = -1;
    struct fstHier *h;
    while ((h = fstReaderIterateHier(rd)) != NULL) {
        if (h->htyp == FST_HT_SCOPE) {
            if (++depth == 1) {
                snprintf(scope, sizeof scope, "%s", h->u.scope.name);
                fprintf(f, "@%x\n-%s\n", (unsigned)(groups ? F_GRP_CLOSED : F_GRP), scope);
                fl = -1;
            }
        } else if (h->htyp == FST_HT_UPSCOPE) {
            if (depth-- == 1) {
                fprintf(f, "@%x\n-%s\n", (unsigned)(groups ? F_GRP_CLOSED_END : F_GRP_END), scope);
                groups++;
                fl = -1;
            }
        } else if (h->htyp == FST_HT_VAR && depth == 1) {
            int want = h->u.var.length == 1 ? F_BIN : F_HEX;
            if (want != fl)
                fprintf(f, "@%x\n", (unsigned)want);
            fl = want;
            gtkw_name(h->u.var.name, name, sizeof name);
            fprintf(f, "%s.%s\n", scope, name);
        }
    }
    fstReaderClose(rd);
    return 0;
}
