/* version.c: the version string the CLI prints. */
#include "cli/version.h"
const char *noc_version(void) { return "0.1.0"; }
