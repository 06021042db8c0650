// tb_main.h: the benches of tb_rtl, one function each (tb_main.cpp picks
// one by its first argument). Each takes the rest of the command line,
// [cycles [seed]], prints one line per configuration and a closing
// "N passed, N failed" line, and returns the exit status.
#ifndef NOC_TB_MAIN_H
#define NOC_TB_MAIN_H

int tb_fifo_main(int argc, char **argv);
int tb_arbiter_main(int argc, char **argv);
int tb_alloc_main(int argc, char **argv);
int tb_router_main(int argc, char **argv);

#endif
