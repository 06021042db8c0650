// noc_pkg: encodings shared by the RTL parts and mirrored by the C model.
//
// Each enum here has the values of its C twin, so a number passed from C
// (a Verilator -G parameter, a register written through the shim) means the
// same thing on both sides:
//   arb_kind_e  <-> noc_arb_kind_t  (model/arbiter.h)
// The router core's port and direction encodings will join them here.

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

endpackage
