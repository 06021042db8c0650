// noc_vc_crossbar: the crossbar of the router core (the switch traversal of
// routers/vc's vc_output.h; docs/rtl.md, "The router core"): to each output
// port, the flit at the front of the input VC that crosses to it (xing_i,
// at most one per output port: the switch allocator grants an output port
// to one input port, and that port's VC arbiter one VC), on the output VC
// that input VC holds. The flits (flit_t of noc_pkg's NOC_TYPEDEF_FLIT)
// cross whole: the crossbar never looks inside. Combinational.
//
// Vectors are flat: input VC l = p*V + v.

module noc_vc_crossbar #(
  parameter int unsigned P      = 5,   // ports
  parameter int unsigned V      = 2,   // VCs per port
  parameter int unsigned FLIT_W = 32,  // payload bits
  // derived, do not set
  localparam int unsigned PortW = noc_pkg::idx_width(P),
  localparam int unsigned VcW   = noc_pkg::idx_width(V),
  localparam int unsigned FlitW = noc_pkg::flit_width(FLIT_W)
) (
  // per input VC l: crossing now, its route's output port and output VC,
  // and the flit at the front of its FIFO (a flit_t)
  input  logic [P*V-1:0]        xing_i,
  input  logic [P*V*PortW-1:0]  rport_i,
  input  logic [P*V*VcW-1:0]    ovc_i,
  input  logic [P*V*FlitW-1:0]  flit_i,
  // per output port o: the flit crossing to it, and its output VC
  output logic [P-1:0]          valid_o,
  output logic [P*FlitW-1:0]    flit_o,
  output logic [P*VcW-1:0]      vc_o
);

  localparam int unsigned L = P * V;   // input VCs

  always_comb begin
    valid_o = '0;
    flit_o  = '0;
    vc_o    = '0;
    for (int unsigned o = 0; o < P; o++) begin
      for (int unsigned l = 0; l < L; l++) begin
        if (xing_i[l] && (rport_i[l*PortW +: PortW] == PortW'(o))) begin
          valid_o[o]               = 1'b1;
          flit_o[o*FlitW +: FlitW] = flit_i[l*FlitW +: FlitW];
          vc_o[o*VcW +: VcW]       = ovc_i[l*VcW +: VcW];
        end
      end
    end
  end

endmodule
