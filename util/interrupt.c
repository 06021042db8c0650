/* interrupt.c (util/): the signal handlers of interrupt.h. */
#include "util/interrupt.h"
#include "util/outfile.h"
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t flag;      /* a stop was asked for */
static volatile sig_atomic_t cooperate; /* the command polls flag */

static void say(const char *s)
{
    ssize_t rc = write(STDERR_FILENO, s, strlen(s));
    (void)rc;
}

static void on_stop(int sig)
{
    (void)sig;
    if (cooperate && !flag) {
        flag = 1;
        say("\nnoctua: interrupted: ending at this cycle and writing what was done "
            "(marked interrupted); interrupt again to quit at once\n");
        return;
    }
    noc_out_remove_all();
    say("\nnoctua: interrupted; no partial output left\n");
    _exit(NOC_EXIT_INTERRUPTED);
}

static void on_fault(int sig)
{
    noc_out_remove_all();
    signal(sig, SIG_DFL);
    raise(sig);
}

void noc_interrupt_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_stop;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, NULL);
    sigaction(SIGXFSZ, &sa, NULL);
#ifndef __SANITIZE_ADDRESS__ /* ASan's own handlers report these; keep them */
    sa.sa_handler = on_fault;
    sa.sa_flags = (int)SA_RESETHAND;
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
    sigaction(SIGFPE, &sa, NULL);
    sigaction(SIGILL, &sa, NULL);
    sigaction(SIGABRT, &sa, NULL);
#else
    (void)on_fault;
#endif
}

int noc_interrupt_cooperate(int on)
{
    int was = cooperate;
    cooperate = on;
    return was;
}

const volatile sig_atomic_t *noc_interrupt_flag(void)
{
    return &flag;
}

int noc_interrupted(void)
{
    return flag != 0;
}
