/* version.h: noctua's version string. */
#ifndef NOC_VERSION_H
#define NOC_VERSION_H
const char *noc_version(void);
#endif
