/* config.c: defaults, look-up and typed assignment of the parameters of
 * params.def. */
#include "model/config.h"
#include "util/suggest.h"
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const noc_param_info_t params[] = {
#define X(name, type, def, help) { #name, NOC_PARAM_##type, def, help },
#include "model/params.def"
#undef X
};

/* Offsets of each field, in the same order. */
static const size_t offsets[] = {
#define X(name, type, def, help) offsetof(noc_config_t, name),
#include "model/params.def"
#undef X
};

#define N_PARAMS (sizeof params / sizeof params[0])

const noc_param_info_t *noc_params(size_t *n)
{
    *n = N_PARAMS;
    return params;
}

static int find(const char *name)
{
    for (size_t i = 0; i < N_PARAMS; i++)
        if (strcmp(params[i].name, name) == 0)
            return (int)i;
    return -1;
}

/* A decimal integer (a leading zero is no octal: 010 is ten), or hex with
 * 0x; blanks after it are allowed. */
static int parse_int(const char *s, int64_t *out)
{
    char *end;
    const char *d = s;
    while (*d == ' ' || *d == '\t')
        d++;
    if (*d == '+' || *d == '-')
        d++;
    int hex = d[0] == '0' && (d[1] == 'x' || d[1] == 'X');
    if (!(hex ? isxdigit((unsigned char)d[2]) : isdigit((unsigned char)d[0])))
        return -1; /* strtoll would take "0x" as 0, and " +-5" oddly */
    errno = 0;
    long long v = strtoll(s, &end, hex ? 16 : 10);
    if (end == s || errno != 0)
        return -1;
    while (*end == ' ' || *end == '\t')
        end++;
    if (*end != '\0')
        return -1;
    *out = v;
    return 0;
}

/* A finite real number. Underflow is no error: 1e-320 is a (subnormal)
 * double, and 1e-400 is 0 as nearly as a double can say; overflow is. */
static int parse_dbl(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || !isfinite(v) || (errno != 0 && !(errno == ERANGE && fabs(v) <= DBL_MIN)))
        return -1;
    while (*end == ' ' || *end == '\t')
        end++;
    if (*end != '\0')
        return -1;
    *out = v;
    return 0;
}

/* value as a message shows it: whole, or its first 60 characters and "..." */
static const char *shown(const char *value, char *buf, size_t len)
{
    if (strlen(value) > 63)
        snprintf(buf, len, "%.60s...", value);
    else
        snprintf(buf, len, "%s", value);
    return buf;
}

static int assign(noc_config_t *cfg, size_t i, const char *value, char *err, size_t errlen)
{
    char *field = (char *)cfg + offsets[i], sv[64];
    switch (params[i].type) {
    case NOC_PARAM_INT: {
        int64_t v;
        if (parse_int(value, &v) != 0) {
            snprintf(err, errlen, "parameter '%s': '%s' is not an integer", params[i].name,
                     shown(value, sv, sizeof sv));
            return -1;
        }
        memcpy(field, &v, sizeof v);
        return 0;
    }
    case NOC_PARAM_BOOL: {
        int64_t v;
        if (parse_int(value, &v) != 0 || (v != 0 && v != 1)) {
            snprintf(err, errlen, "parameter '%s': '%s' is not 0 or 1", params[i].name,
                     shown(value, sv, sizeof sv));
            return -1;
        }
        memcpy(field, &v, sizeof v);
        return 0;
    }
    case NOC_PARAM_DBL: {
        double v;
        if (parse_dbl(value, &v) != 0) {
            snprintf(err, errlen, "parameter '%s': '%s' is not a number", params[i].name,
                     shown(value, sv, sizeof sv));
            return -1;
        }
        memcpy(field, &v, sizeof v);
        return 0;
    }
    case NOC_PARAM_STR:
        if (strlen(value) >= NOC_CONFIG_STR_MAX) {
            snprintf(err, errlen, "parameter '%s': value longer than %d characters",
                     params[i].name, NOC_CONFIG_STR_MAX - 1);
            return -1;
        }
        strcpy(field, value);
        return 0;
    }
    return -1;
}

void noc_config_defaults(noc_config_t *cfg)
{
    char err[64];
    memset(cfg, 0, sizeof *cfg);
    for (size_t i = 0; i < N_PARAMS; i++)
        if (assign(cfg, i, params[i].def, err, sizeof err) != 0)
            abort(); /* a default that does not parse is a bug in params.def */
}

int noc_config_set(noc_config_t *cfg, const char *name, const char *value,
                   char *err, size_t errlen)
{
    int i = find(name);
    if (i < 0) {
        size_t n = strlen(name);
        if (n && (isspace((unsigned char)name[0]) || isspace((unsigned char)name[n - 1]))) {
            snprintf(err, errlen, "unknown parameter '%s': write key=value without spaces around '='", name);
            return -1;
        }
        const char *names[N_PARAMS];
        for (size_t k = 0; k < N_PARAMS; k++)
            names[k] = params[k].name;
        const char *near = noc_suggest(name, names, N_PARAMS);
        snprintf(err, errlen, "unknown parameter '%s' (%s%s%ssee `noctua run --help`)", name,
                 near ? "did you mean '" : "", near ? near : "", near ? "'? " : "");
        return -1;
    }
    return assign(cfg, (size_t)i, value, err, errlen);
}

int noc_config_get(const noc_config_t *cfg, const char *name, char *buf, size_t len)
{
    int i = find(name);
    if (i < 0)
        return -1;
    const char *field = (const char *)cfg + offsets[i];
    switch (params[i].type) {
    case NOC_PARAM_INT:
    case NOC_PARAM_BOOL: {
        int64_t v;
        memcpy(&v, field, sizeof v);
        snprintf(buf, len, "%" PRId64, v);
        break;
    }
    case NOC_PARAM_DBL: {
        double v;
        memcpy(&v, field, sizeof v);
        snprintf(buf, len, "%.17g", v);
        break;
    }
    case NOC_PARAM_STR:
        snprintf(buf, len, "%s", field);
        break;
    }
    return 0;
}

void noc_config_timing(noc_config_t *cfg, int timing)
{
    char err[128];
    if (timing == NOC_TIMING_ROUTER)
        return;
    noc_config_set(cfg, "router", "ideal", err, sizeof err);
    cfg->ni_ports = 0;
    cfg->sync_steps = timing == NOC_TIMING_UNIT_SYNC;
}
