/* interrupt.h (util/): what signals do to noctua. Installed once by the
 * command line (cli/main.c); process-wide by nature, since signals are.
 *
 * SIGINT, SIGTERM, SIGHUP:
 *   - immediate mode (the default): remove every temporary output
 *     (util/outfile.h), say so on stderr and exit 130 at once;
 *   - cooperative mode (a command whose loop polls noc_interrupt_flag(): a
 *     run stops at the end of the current cycle, a sweep after its current
 *     point): the first signal only raises the flag and says what will
 *     happen; the command then writes its outputs, marked interrupted, and
 *     exits 130 (NOC_EXIT_INTERRUPTED). A second signal quits at once, as
 *     in immediate mode, leaving no partial file.
 * SIGPIPE and SIGXFSZ are ignored, so that a closed pipe or a file-size
 * limit becomes a failed write that the output layer reports (exit 2)
 * instead of a silent death.
 * SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT (bugs): the temporaries are
 * removed, then the signal does what it would have done (core, status). */
#ifndef NOC_INTERRUPT_H
#define NOC_INTERRUPT_H
#include <signal.h>
#ifdef __cplusplus
extern "C" {
#endif

#define NOC_EXIT_INTERRUPTED 130

/* Install the handlers (immediate mode). */
void noc_interrupt_install(void);
/* 1: cooperative mode, 0: immediate. Returns the mode it replaces, for
 * nesting (a sweep's runs). */
int noc_interrupt_cooperate(int on);
/* The flag the first signal raises in cooperative mode (for noc_sim_set_stop). */
const volatile sig_atomic_t *noc_interrupt_flag(void);
/* Has a signal asked to stop? */
int noc_interrupted(void);

#ifdef __cplusplus
}
#endif
#endif
