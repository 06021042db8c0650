// noc_vc_router: the router core, an input-queued virtual-channel wormhole
// router with credit flow control: the default pipeline of routers/vc
// (routing_delay 1, vc_alloc_delay 1, sw_alloc_delay 1, st_final_delay 1,
// separable input-first VC and switch allocators), register for register
// (docs/rtl.md, "The router core").
//
// It knows no topology: the route of this router travels with the head
// flit (in_port_i: output port, in_class_i: VC class), computed by the C
// side (lookahead); the router still spends the one-cycle route stage, so
// its timing is that of routers/vc with routing_delay=1.
//
// Timing of the ports (t is a cycle of the core's clock):
//   - a flit given on in_*_i in cycle t is at the front of its VC's FIFO
//     from cycle t+1 (the C model's arrival cycle a = t+1);
//   - a head at the front of an idle VC in cycle a is routed in a, bids for
//     an output VC in a+1 (VA), when granted in c bids for the switch from
//     c+1 (SA); granted the switch in s, it leaves the FIFO in s, its credit
//     is on in_credit_o in s, and it is on out_*_o in s+1 (output register);
//     body flits bid from the cycle they are at the front;
//   - a credit given on out_credit_i in cycle t can be spent from t+1.
//   So a flit crossing in s reaches the front of the next router wired
//   directly to out_*_o in s+2 (= SA + ST, link latency 0), and a credit
//   returned in s counts upstream from s+1 (credit_delay 1).
//
// Output port 0 is the ejection port, as in routers/vc: a packet leaves
// there on any VC (class "any"), and its sink always accepts: port 0 keeps
// no credit count and takes no credits (out_credit_i for port 0 is misuse).
//
// VC classes: class c of N_CLASS owns VCs [c*V/N_CLASS, (c+1)*V/N_CLASS)
// (noc_vc_class_range of routers/router.h).
//
// Vectors are flat: input VC l = p*V + v; output VC o*V + v.
// Reset: asynchronous, active low.

module noc_vc_router #(
  parameter int unsigned P        = 5,   // ports (port 0: the local NI)
  parameter int unsigned V        = 2,   // VCs per port
  parameter int unsigned DEPTH    = 4,   // flits per VC
  parameter int unsigned FLIT_W   = 32,  // payload bits
  parameter int unsigned N_CLASS  = 1,   // VC classes of the routing (1 <= N_CLASS <= V)
  parameter int unsigned ARB_KIND = noc_pkg::ArbRoundRobin, // a noc_pkg::arb_kind_e
  // derived, do not set
  localparam int unsigned PortW = noc_pkg::idx_width(P),
  localparam int unsigned VcW   = noc_pkg::idx_width(V),
  localparam int unsigned ClsW  = noc_pkg::idx_width(N_CLASS)
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // input ports: flits in, credits back upstream
  input  logic [P-1:0]          in_valid_i,
  input  logic [P*FLIT_W-1:0]   in_data_i,
  input  logic [P-1:0]          in_head_i,
  input  logic [P-1:0]          in_tail_i,
  input  logic [P*VcW-1:0]      in_vc_i,
  input  logic [P*PortW-1:0]    in_port_i,   // route (head flits): output port
  input  logic [P*ClsW-1:0]     in_class_i,  // route (head flits): VC class
  output logic [P*V-1:0]        in_credit_o, // [p*V + v]: a flit left input VC v of p
  // output ports: flits out, credits in from downstream
  output logic [P-1:0]          out_valid_o,
  output logic [P*FLIT_W-1:0]   out_data_o,
  output logic [P-1:0]          out_head_o,
  output logic [P-1:0]          out_tail_o,
  output logic [P*VcW-1:0]      out_vc_o,
  input  logic [P*V-1:0]        out_credit_i, // [o*V + v]: a credit for output VC v of o
  // observation taps (no function; what performance counters would read,
  // and what routers/rtl's link statistics are made of), this cycle:
  output logic [P*V-1:0]        obs_bid_o,   // [l]: input VC l holds an output VC and a flit
  output logic [P*V-1:0]        obs_ready_o, // [l]: ... and a credit: it bids for the switch
  output logic [P*V*PortW-1:0]  obs_port_o,  // [l]: the output port of input VC l's packet
  // ... and the registers a lockstep bench compares with the C router's
  // state (testbench/cosim/lockstep.c), after this cycle's edge:
  output logic [P*V*$clog2(DEPTH+1)-1:0] obs_credit_o, // [o*V+v]: credits of output VC v of o
  output logic [P*V*$clog2(DEPTH+1)-1:0] obs_usage_o   // [l]: flits in input VC l's FIFO
);

  localparam int unsigned L      = P * V;                 // input VCs
  localparam int unsigned CntW   = $clog2(DEPTH + 1);     // a credit count
  localparam int unsigned EntryW = FLIT_W + 2 + PortW + ClsW;
  localparam int unsigned UseW   = $clog2(DEPTH + 1);
  localparam logic [CntW-1:0] FullCredits = CntW'(DEPTH);

  // VC states (vc_ivc_t.state, with the stage the C timed sets add):
  // Idle (empty, or a head in its route stage), Va (bidding for an output
  // VC), Active (holding one, past the VA delay: bids for the switch).
  localparam logic [1:0] StIdle   = 2'd0;
  localparam logic [1:0] StVa     = 2'd1;
  localparam logic [1:0] StActive = 2'd2;

  // ---------------------------------------------------------------------
  // Registers
  logic [L*2-1:0]     state_d, state_q;     // vc_ivc_t.state
  logic [L*PortW-1:0] rport_d, rport_q;     // vc_ivc_t.rport
  logic [L*V-1:0]     rmask_d, rmask_q;     // class_mask[vc_ivc_t.rclass]
  logic [L*VcW-1:0]   ovc_d, ovc_q;         // vc_ivc_t.out_vc
  logic [P*V-1:0]     free_d, free_q;       // vc_port_t.ovc_free, per output port
  logic [P*V*CntW-1:0] cred_d, cred_q;      // vc_node_t.credits
  logic [P-1:0]       ovalid_d, ovalid_q;   // output registers (the ring slot)
  logic [P*FLIT_W-1:0] odata_d, odata_q;
  logic [P-1:0]       ohead_d, ohead_q, otail_d, otail_q;
  logic [P*VcW-1:0]   ovcout_d, ovcout_q;

  // ---------------------------------------------------------------------
  // Input unit: a FIFO per input VC
  logic [L-1:0]        push, pop, full, empty;
  logic [L*EntryW-1:0] front;
  logic [L*UseW-1:0]   usage;
  logic [L-1:0]        f_head, f_tail;
  logic [L*PortW-1:0]  f_port;
  logic [L*ClsW-1:0]   f_class;
  logic [L*FLIT_W-1:0] f_data;

  for (genvar p = 0; p < P; p++) begin : gen_in_port
    logic [EntryW-1:0] entry;
    assign entry = {in_class_i[p*ClsW +: ClsW], in_port_i[p*PortW +: PortW],
                    in_tail_i[p], in_head_i[p], in_data_i[p*FLIT_W +: FLIT_W]};
    for (genvar v = 0; v < V; v++) begin : gen_vc
      localparam int unsigned Li = p * V + v;
      assign push[Li] = in_valid_i[p] && (in_vc_i[p*VcW +: VcW] == VcW'(v));
      noc_fifo #(
        .DEPTH(DEPTH),
        .WIDTH(EntryW)
      ) u_fifo (
        .clk_i  (clk_i),
        .rst_ni (rst_ni),
        .push_i (push[Li]),
        .data_i (entry),
        .full_o (full[Li]),
        .pop_i  (pop[Li]),
        .data_o (front[Li*EntryW +: EntryW]),
        .empty_o(empty[Li]),
        .usage_o(usage[Li*UseW +: UseW])
      );
      assign f_data[Li*FLIT_W +: FLIT_W] = front[Li*EntryW +: FLIT_W];
      assign f_head[Li]                  = front[Li*EntryW + FLIT_W];
      assign f_tail[Li]                  = front[Li*EntryW + FLIT_W + 1];
      assign f_port[Li*PortW +: PortW]   = front[Li*EntryW + FLIT_W + 2 +: PortW];
      assign f_class[Li*ClsW +: ClsW]    = front[Li*EntryW + FLIT_W + 2 + PortW +: ClsW];
    end
  end

  // The VCs of each class (noc_vc_class_range), and "any" for ejection.
  logic [N_CLASS*V-1:0] class_mask;
  for (genvar c = 0; c < N_CLASS; c++) begin : gen_class
    for (genvar v = 0; v < V; v++) begin : gen_vc
      assign class_mask[c*V + v] = (v >= c * V / N_CLASS) && (v < (c + 1) * V / N_CLASS);
    end
  end

  // Route stage: the head at the front of an idle VC (vc_route); its mask
  // of wanted output VCs is that of its class, all VCs for port 0.
  logic [L-1:0]   route;
  logic [L*V-1:0] route_mask;
  for (genvar l = 0; l < L; l++) begin : gen_route
    assign route[l] = (state_q[l*2 +: 2] == StIdle) && !empty[l];
    always_comb begin
      route_mask[l*V +: V] = {V{1'b1}};
      if (f_port[l*PortW +: PortW] != '0) begin
        route_mask[l*V +: V] = '0;
        for (int unsigned c = 0; c < N_CLASS; c++) begin
          if (f_class[l*ClsW +: ClsW] == ClsW'(c)) begin
            route_mask[l*V +: V] = class_mask[c*V +: V];
          end
        end
      end
    end
  end

  // ---------------------------------------------------------------------
  // VC allocation: per output port o, (input VCs) x (o's output VCs),
  // requests masked by the free VCs of the route's class (vc_vc_alloc).
  logic [P*L*V-1:0]   va_req, va_gnt;
  logic [P*L-1:0]     va_gvalid;
  logic [P*L*VcW-1:0] va_gidx;
  logic [L-1:0]       va_won;      // input VC l got an output VC
  logic [L*VcW-1:0]   va_ovc;      // which
  logic [P*V-1:0]     va_taken;    // output VCs granted this cycle
  // the arbiters' state (for a lockstep bench to come; not used here)
  localparam int unsigned VaInW  = noc_pkg::arb_state_width(ARB_KIND, V);
  localparam int unsigned VaOutW = noc_pkg::arb_state_width(ARB_KIND, L);
  localparam int unsigned SaW    = noc_pkg::arb_state_width(ARB_KIND, P);
  localparam int unsigned VcArbW = noc_pkg::arb_state_width(ARB_KIND, V);
  logic [P*L*VaInW-1:0]  va_in_state;
  logic [P*V*VaOutW-1:0] va_out_state;
  logic [P*SaW-1:0]      sa_in_state, sa_out_state;
  logic [P*VcArbW-1:0]   vc_arb_state;
  logic [P-1:0]          vc_valid;

  for (genvar o = 0; o < P; o++) begin : gen_va
    for (genvar l = 0; l < L; l++) begin : gen_req
      assign va_req[(o*L + l)*V +: V] =
          ((state_q[l*2 +: 2] == StVa) && (rport_q[l*PortW +: PortW] == PortW'(o)))
          ? (rmask_q[l*V +: V] & free_q[o*V +: V]) : '0;
    end
    noc_sep_alloc_if #(
      .N_IN    (L),
      .N_OUT   (V),
      .ARB_KIND(ARB_KIND)
    ) u_va (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .req_i      (va_req[o*L*V +: L*V]),
      .gnt_o      (va_gnt[o*L*V +: L*V]),
      .gnt_valid_o(va_gvalid[o*L +: L]),
      .gnt_idx_o  (va_gidx[o*L*VcW +: L*VcW]),
      .in_state_o (va_in_state[o*L*VaInW +: L*VaInW]),
      .out_state_o(va_out_state[o*V*VaOutW +: V*VaOutW])
    );
  end

  always_comb begin
    va_won   = '0;
    va_ovc   = '0;
    va_taken = '0;
    for (int unsigned o = 0; o < P; o++) begin
      for (int unsigned l = 0; l < L; l++) begin
        va_won[l]             = va_won[l] | va_gvalid[o*L + l];
        va_ovc[l*VcW +: VcW]  = va_ovc[l*VcW +: VcW] | va_gidx[(o*L + l)*VcW +: VcW];
        va_taken[o*V +: V]    = va_taken[o*V +: V] | va_gnt[(o*L + l)*V +: V];
      end
    end
  end

  // ---------------------------------------------------------------------
  // Switch allocation (vc_switch): a VC is ready when it holds an output
  // VC (past the VA delay), has a flit at the front and a credit for its
  // output VC (none needed at the ejection port). Input port p requests
  // the output ports of its ready VCs; a ports x ports allocator matches;
  // each matched input port's VC arbiter picks among its ready VCs for the
  // matched output port.
  logic [L-1:0]       ready;
  logic [P*P-1:0]     sa_req, sa_gnt;
  logic [P-1:0]       sa_gvalid;
  logic [P*PortW-1:0] sa_gidx;
  logic [L-1:0]       cand, xing;  // per input VC: candidate, crossing now
  logic [P*V-1:0]     spend;        // per output VC: a credit spent now

  for (genvar l = 0; l < L; l++) begin : gen_ready
    logic [PortW-1:0] o;
    logic [VcW-1:0]   ov;
    logic [CntW-1:0]  cnt;
    assign o   = rport_q[l*PortW +: PortW];
    assign ov  = ovc_q[l*VcW +: VcW];
    assign cnt = cred_q[(32'(o) * V + 32'(ov)) * CntW +: CntW];
    assign ready[l] = (state_q[l*2 +: 2] == StActive) && !empty[l]
                      && ((o == '0) || (cnt != '0));
  end

  always_comb begin
    sa_req = '0;
    for (int unsigned p = 0; p < P; p++) begin
      for (int unsigned v = 0; v < V; v++) begin
        for (int unsigned o = 0; o < P; o++) begin
          if (ready[p*V + v] && (rport_q[(p*V + v)*PortW +: PortW] == PortW'(o))) begin
            sa_req[p*P + o] = 1'b1;
          end
        end
      end
    end
  end

  noc_sep_alloc_if #(
    .N_IN    (P),
    .N_OUT   (P),
    .ARB_KIND(ARB_KIND)
  ) u_sa (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .req_i      (sa_req),
    .gnt_o      (sa_gnt),
    .gnt_valid_o(sa_gvalid),
    .gnt_idx_o  (sa_gidx),
    .in_state_o (sa_in_state),
    .out_state_o(sa_out_state)
  );

  // Per input port: the VC arbiter (vc_port_t.vc_ptr, or sa_vc for matrix).
  logic [P*VcW-1:0] vc_idx;
  for (genvar p = 0; p < P; p++) begin : gen_vc_arb
    for (genvar v = 0; v < V; v++) begin : gen_cand
      assign cand[p*V + v] = sa_gvalid[p] && ready[p*V + v]
                             && (rport_q[(p*V + v)*PortW +: PortW] == sa_gidx[p*PortW +: PortW]);
    end
    noc_arbiter #(
      .N       (V),
      .ARB_KIND(ARB_KIND)
    ) u_vc_arb (
      .clk_i   (clk_i),
      .rst_ni  (rst_ni),
      .req_i   (cand[p*V +: V]),
      .update_i(sa_gvalid[p]),
      .gnt_o   (xing[p*V +: V]),
      .idx_o   (vc_idx[p*VcW +: VcW]),
      .valid_o (vc_valid[p]),
      .state_o (vc_arb_state[p*VcArbW +: VcArbW])
    );
  end

  assign pop         = xing;  // the crossing flit leaves its FIFO now
  assign in_credit_o = xing;  // and its credit goes upstream

  // ---------------------------------------------------------------------
  // Crossbar into the output registers (vc_traverse).
  always_comb begin
    ovalid_d = '0;
    odata_d  = '0;
    ohead_d  = '0;
    otail_d  = '0;
    ovcout_d = '0;
    for (int unsigned o = 0; o < P; o++) begin
      for (int unsigned l = 0; l < L; l++) begin
        if (xing[l] && (rport_q[l*PortW +: PortW] == PortW'(o))) begin
          ovalid_d[o]               = 1'b1;
          odata_d[o*FLIT_W +: FLIT_W] = f_data[l*FLIT_W +: FLIT_W];
          ohead_d[o]                = f_head[l];
          otail_d[o]                = f_tail[l];
          ovcout_d[o*VcW +: VcW]    = ovc_q[l*VcW +: VcW];
        end
      end
    end
  end

  // ---------------------------------------------------------------------
  // Next state of the input VCs, free masks and credits.
  always_comb begin
    state_d = state_q;
    rport_d = rport_q;
    rmask_d = rmask_q;
    ovc_d   = ovc_q;
    free_d  = free_q & ~va_taken;
    cred_d  = cred_q;
    for (int unsigned l = 0; l < L; l++) begin
      if (route[l]) begin
        state_d[l*2 +: 2]       = StVa;
        rport_d[l*PortW +: PortW] = f_port[l*PortW +: PortW];
        rmask_d[l*V +: V]       = route_mask[l*V +: V];
      end
      if (va_won[l]) begin
        state_d[l*2 +: 2]   = StActive;
        ovc_d[l*VcW +: VcW] = va_ovc[l*VcW +: VcW];
      end
      if (xing[l] && f_tail[l]) begin
        state_d[l*2 +: 2] = StIdle;
        free_d[32'(rport_q[l*PortW +: PortW]) * V + 32'(ovc_q[l*VcW +: VcW])] = 1'b1;
      end
    end
    // credits: one spent per crossing (not at the ejection port), one back
    // per out_credit_i
    for (int unsigned k = V; k < P * V; k++) begin
      cred_d[k*CntW +: CntW] = cred_q[k*CntW +: CntW] - CntW'(spend[k]) + CntW'(out_credit_i[k]);
    end
  end

  // The output VCs a crossing flit spends a credit of (ejection port: none).
  always_comb begin
    spend = '0;
    for (int unsigned l = 0; l < L; l++) begin
      if (xing[l] && (rport_q[l*PortW +: PortW] != '0)) begin
        spend[32'(rport_q[l*PortW +: PortW]) * V + 32'(ovc_q[l*VcW +: VcW])] = 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q  <= '0;
      rport_q  <= '0;
      rmask_q  <= '0;
      ovc_q    <= '0;
      free_q   <= '1;
      cred_q   <= {(P*V){FullCredits}};
      ovalid_q <= '0;
      odata_q  <= '0;
      ohead_q  <= '0;
      otail_q  <= '0;
      ovcout_q <= '0;
    end else begin
      state_q  <= state_d;
      rport_q  <= rport_d;
      rmask_q  <= rmask_d;
      ovc_q    <= ovc_d;
      free_q   <= free_d;
      cred_q   <= cred_d;
      ovalid_q <= ovalid_d;
      odata_q  <= odata_d;
      ohead_q  <= ohead_d;
      otail_q  <= otail_d;
      ovcout_q <= ovcout_d;
    end
  end

  assign out_valid_o = ovalid_q;
  assign out_data_o  = odata_q;
  assign out_head_o  = ohead_q;
  assign out_tail_o  = otail_q;
  assign out_vc_o    = ovcout_q;

  for (genvar l = 0; l < L; l++) begin : gen_obs
    assign obs_bid_o[l] = (state_q[l*2 +: 2] == StActive) && !empty[l];
  end
  assign obs_ready_o  = ready;
  assign obs_port_o   = rport_q;
  assign obs_credit_o = cred_q;
  assign obs_usage_o  = usage;

  // (the VC arbiters' index and validity, the SA grant matrix, the
  // arbiters' state and the ejection port's credit inputs are not needed)
  logic unused_router;
  assign unused_router = ^{full, vc_idx, vc_valid, sa_gnt, out_credit_i[V-1:0],
                           va_in_state, va_out_state, sa_in_state, sa_out_state, vc_arb_state};

`ifndef SYNTHESIS
  // Handshake misuse (checked with Verilator's --assert).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      for (int unsigned l = 0; l < L; l++) begin
        assert (!(push[l] && full[l]))
          else $error("noc_vc_router: flit into full input VC %0d of port %0d", l % V, l / V);
        assert (!(route[l] && !f_head[l]))
          else $error("noc_vc_router: body flit at the front of idle input VC %0d of port %0d",
                      l % V, l / V);
      end
      for (int unsigned p = 0; p < P; p++) begin
        assert (!in_valid_i[p] || (32'(in_vc_i[p*VcW +: VcW]) < V))
          else $error("noc_vc_router: flit on port %0d names VC %0d", p, in_vc_i[p*VcW +: VcW]);
        assert (!(in_valid_i[p] && in_head_i[p]) || (32'(in_port_i[p*PortW +: PortW]) < P))
          else $error("noc_vc_router: head on port %0d routed to port %0d", p,
                      in_port_i[p*PortW +: PortW]);
        assert (!(in_valid_i[p] && in_head_i[p]) || (32'(in_class_i[p*ClsW +: ClsW]) < N_CLASS))
          else $error("noc_vc_router: head on port %0d names VC class %0d", p,
                      in_class_i[p*ClsW +: ClsW]);
      end
      assert (out_credit_i[V-1:0] == '0)
        else $error("noc_vc_router: credit for the ejection port");
      for (int unsigned k = V; k < P * V; k++) begin
        assert (!(out_credit_i[k] && !spend[k] && (cred_q[k*CntW +: CntW] == FullCredits)))
          else $error("noc_vc_router: credit overflow on output VC %0d of port %0d", k % V, k / V);
      end
    end
  end
`endif

endmodule
