// noc_pkg: encodings shared by the RTL parts and mirrored by the C model.
//
// Each enum here has the values of its C twin, so a number passed from C
// (a Verilator -G parameter, a register written through the shim) means the
// same thing on both sides:
//   arb_kind_e  <-> noc_arb_kind_t  (model/arbiter.h)
// The router core's port and direction encodings will join them here.
//
// The router core's flit types follow the package, as FlooNoC's typedef
// macros (hw/include/floo_noc/typedef.svh): their widths are parameters of
// the modules that use them, and Debian's yosys 0.23 (`noctua area`) has no
// `parameter type`, so a module declares them with these macros, one layout
// for all:
//   typedef `NOC_TYPEDEF_FLIT(FLIT_W) flit_t;
// and passes them between modules as flat vectors of flit_width(FLIT_W)
// bits (a width that differs from the struct is a Verilator lint error).
// yosys 0.23 reads field selects of a struct variable declared at module
// level only: not of an element of an array of structs, nor of a struct
// declared inside a generate block or a procedural block, which it reads
// without an error as wires of their own (tools/rtl_area.sh stops on that
// warning). So a module that looks inside flits handles one at a time.

package noc_pkg;

  // Arbiter kinds (model/arbiter.h: NOC_ARB_ROUND_ROBIN, NOC_ARB_MATRIX).
  typedef enum int unsigned {
    ArbRoundRobin = 0,
    ArbMatrix     = 1
  } arb_kind_e;

  // Width of an index into n things (at least 1 bit, so that n = 1 works).
  function automatic int unsigned idx_width(int unsigned n);
    idx_width = (n > 1) ? $clog2(n) : 1;
  endfunction

  // Width of the state an arbiter of `kind` over n requesters shows on its
  // state port: a round-robin pointer, or the n x n "beats" matrix. (Written
  // for yosys 0.23, whose constant functions call no functions and name no
  // enum values: 1 is ArbMatrix.)
  function automatic int unsigned arb_state_width(int unsigned kind, int unsigned n);
    arb_state_width = (kind == 1) ? n * n : ((n > 1) ? $clog2(n) : 1);
  endfunction

  // Bits of a flit_t of `data_w` payload bits (NOC_TYPEDEF_FLIT).
  function automatic int unsigned flit_width(int unsigned data_w);
    flit_width = data_w + 2;
  endfunction

  // Bits of a route_t (NOC_TYPEDEF_ROUTE) over `n_port` ports and
  // `n_class` VC classes.
  function automatic int unsigned route_width(int unsigned n_port, int unsigned n_class);
    route_width = ((n_port > 1) ? $clog2(n_port) : 1) + ((n_class > 1) ? $clog2(n_class) : 1);
  endfunction

endpackage

// A flit of the router core: head and tail (one-flit packets are both) and
// the payload, which the core carries and never looks at. The VC a flit
// travels on belongs to the link (in_vc_i, out_vc_o), as its valid does.
`define NOC_TYPEDEF_FLIT(data_w) \
  struct packed { \
    logic              head; \
    logic              tail; \
    logic [(data_w)-1:0] data; \
  }

// A head flit's route at a router (the C side's lookahead, carried with
// it): the output port, and the VC class on it.
`define NOC_TYPEDEF_ROUTE(port_w, cls_w) \
  struct packed { \
    logic [(port_w)-1:0] port; \
    logic [(cls_w)-1:0]  cls; \
  }
