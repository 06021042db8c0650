// tb_main.cpp: tb_rtl, the RTL parts' lockstep benches in one program (one
// copy of Verilator's run-time library to compile, not one per bench).
//
// Usage: tb_rtl fifo|arbiter|alloc|router [cycles [seed]]
// ctest runs each at its default length as rtl.fifo, rtl.arbiter, rtl.alloc,
// rtl.router;
// a longer run is the same command with more cycles or another seed.
#include "tb_main.h"

#include <cstdio>
#include <cstring>

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*run)(int, char **);
    } benches[] = {{"fifo", tb_fifo_main}, {"arbiter", tb_arbiter_main}, {"alloc", tb_alloc_main}, {"router", tb_router_main}};
    if (argc >= 2)
        for (const auto &b : benches)
            if (std::strcmp(argv[1], b.name) == 0)
                return b.run(argc - 1, argv + 1);
    std::fprintf(stderr, "usage: %s fifo|arbiter|alloc|router [cycles [seed]]\n", argv[0]);
    return 2;
}
