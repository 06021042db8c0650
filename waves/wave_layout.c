/* wave_layout.c: the scope names made from node labels, and the
 * --waves-scope pattern. (Where a node sits in the hierarchy is the
 * fabric's to say: model/graph.h's groups, a BSN's parts and groups, an OTIS
 * group, a mesh or torus row, a pyramid level; node numbers run through them
 * in order, so the scopes of one group are declared together.) */
#include "waves/waves_internal.h"
#include <ctype.h>
#include <fnmatch.h>
#include <string.h>

void noc_wv_scope_name(const char *label, char *buf, size_t len)
{
    size_t n = 0;
    int gap = 0;
    if (len < 4) {
        if (len)
            buf[0] = '\0';
        return;
    }
    buf[n++] = 'n';
    for (const char *p = label; *p && n + 2 < len; p++) {
        unsigned char c = (unsigned char)*p;
        if (isalnum(c) || c == '_') {
            if (gap || n == 1)
                buf[n++] = '_';
            gap = 0;
            buf[n++] = (char)c;
        } else {
            gap = 1;
        }
    }
    buf[n] = '\0';
}

void noc_wv_link_scope_name(const char *to_label, char *buf, size_t len)
{
    char node[64];
    noc_wv_scope_name(to_label, node, sizeof node);
    snprintf(buf, len, "to%s", node + 1);
}

/* Copy s without blanks into buf. */
static void unblank(const char *s, size_t n, char *buf, size_t len)
{
    size_t k = 0;
    for (size_t i = 0; i < n && s[i] && k + 1 < len; i++)
        if (!isspace((unsigned char)s[i]))
            buf[k++] = s[i];
    buf[k] = '\0';
}

int noc_wv_match(const char *pat, const char *label)
{
    char lab[256];
    if (!pat || !*pat)
        return 1;
    unblank(label, strlen(label), lab, sizeof lab);
    for (const char *alt = pat;;) {
        const char *bar = strchr(alt, '|');
        size_t n = bar ? (size_t)(bar - alt) : strlen(alt);
        char p[256];
        unblank(alt, n, p, sizeof p);
        if (p[0]) {
            int glob = strpbrk(p, "*?") != NULL;
            if (glob ? fnmatch(p, lab, 0) == 0 : strstr(lab, p) != NULL)
                return 1;
        }
        if (!bar)
            return 0;
        alt = bar + 1;
    }
}
