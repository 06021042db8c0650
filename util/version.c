/* version.c: noctua's version string (the CLI and the reports print it). */
#include "util/version.h"
const char *noc_version(void) { return "0.1.0"; }
