// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-lower-to-ascendc)' | FileCheck %s

// A fused elementwise chain: one vector kernel, double-buffered queues,
// DataCopy for full tiles and DataCopyPad for the tail; the splat constant
// becomes an Adds immediate; the host launches it on the graph's buffers.
// CHECK-LABEL: ascendc.kernel @elementwise_0 kind(<vector>) blocks(1) tiling({ntiles = 1 : i64, tile = 160 : i64, total = 160 : i64}) attributes {arg_names = ["in0", "in1", "out"], work = {gm_bytes = 1920 : i64, vector_bytes = 1920 : i64}} {
// CHECK-NEXT: ^bb0(%[[X:.*]]: !ascendc.gm<f32>, %[[Y:.*]]: !ascendc.gm<f32>, %[[OUT:.*]]: !ascendc.gm<f32>):
// CHECK-NEXT: %[[PIPE:.*]] = ascendc.pipe : !ascendc.pipe
// CHECK-NEXT: %[[Q0:.*]] = ascendc.queue %[[PIPE]] num(2) bytes(640) : <vecin, 2>
// CHECK-NEXT: %[[Q1:.*]] = ascendc.queue %[[PIPE]] num(2) bytes(640) : <vecin, 2>
// CHECK-NEXT: %[[QO:.*]] = ascendc.queue %[[PIPE]] num(2) bytes(640) : <vecout, 2>
// CHECK: scf.for
// CHECK: scf.if %[[FULL:.*]] {
// CHECK-NEXT: ascendc.copy_gm_to_local %{{.*}}, %[[X]][%{{.*}}], %{{.*}} : <f32, 160, vecin>, <f32>
// CHECK-NEXT: } else {
// CHECK-NEXT: ascendc.copy_pad_gm_to_local %{{.*}}, %[[X]][%{{.*}}], %{{.*}} : <f32, 160, vecin>, <f32>
// CHECK: ascendc.vbinary <add> %[[T:.*]], %{{.*}}, %{{.*}}, %[[N:.*]] : <f32, 160, veccalc>, <f32, 160, vecin>, <f32, 160, vecin>
// CHECK-NEXT: ascendc.vscalar <adds> %[[T]], %[[T]], %{{.*}}, %[[N]] : <f32, 160, veccalc>, <f32, 160, veccalc>, f32
// CHECK-NEXT: ascendc.vunary <relu> %{{.*}}, %[[T]], %[[N]] : <f32, 160, vecout>, <f32, 160, veccalc>
// CHECK: ascendc.copy_pad_local_to_gm %[[OUT]][%{{.*}}], %{{.*}}, %{{.*}} : <f32>, <f32, 160, vecout>
// CHECK-LABEL: ascendc.host @graph inputs(2) bytes([640, 640, 640]) attributes {arg_names = ["input0", "input1", "output0"], arg_shapes = [array<i64: 4, 40>, array<i64: 4, 40>, array<i64: 4, 40>]} {
// CHECK-NEXT: ^bb0(%[[A:.*]]: !ascendc.gm<f32>, %[[B:.*]]: !ascendc.gm<f32>, %[[C:.*]]: !ascendc.gm<f32>):
// CHECK-NEXT: ascendc.launch @elementwise_0(%[[A]], %[[B]], %[[C]])
// CHECK-NOT: func.func
func.func @chain(%x: tensor<4x40xf32>, %y: tensor<4x40xf32>) -> tensor<4x40xf32> {
  %b = ge.constant dense<0.5> : tensor<40xf32>
  %0 = ge.add %x, %y : (tensor<4x40xf32>, tensor<4x40xf32>) -> tensor<4x40xf32>
  %1 = ge.add %0, %b : (tensor<4x40xf32>, tensor<40xf32>) -> tensor<4x40xf32>
  %2 = ge.relu %1 : tensor<4x40xf32>
  return %2 : tensor<4x40xf32>
}

// -----

// A bias over the last axis: rows mode, the bias read once per block into a
// VECCALC buffer (MTE2 -> V flag), then added row by row.
// CHECK-LABEL: ascendc.kernel @elementwise_0 kind(<vector>) blocks(1) tiling({cols = 8 : i64, ntiles = 1 : i64, rows = 4 : i64, side1_len = 8 : i64, slot = 8 : i64, tile_rows = 4 : i64}) attributes {arg_names = ["in0", "in1", "out"], work = {gm_bytes = 288 : i64, vector_bytes = 128 : i64}} {
// CHECK: %[[BIAS:.*]] = ascendc.tbuf_get %{{.*}} : <veccalc> -> <f32, 8, veccalc>
// CHECK: ascendc.copy_pad_gm_to_local %[[BIAS]], %{{.*}}[%c0], %{{.*}} : <f32, 8, veccalc>, <f32>
// CHECK-NEXT: ascendc.set_flag <mte2_v>, 0
// CHECK-NEXT: ascendc.wait_flag <mte2_v>, 0
// CHECK: ascendc.local_slice %{{.*}}[%{{.*}}] : <f32, 32, vecin> -> <f32, 8, vecin>
// CHECK: ascendc.vbinary <add> %{{.*}}, %{{.*}}, %[[BIAS]], %{{.*}} : <f32, 8, vecout>, <f32, 8, vecin>, <f32, 8, veccalc>
// CHECK-LABEL: ascendc.host @graph
// CHECK: %[[CST:.*]] = ascendc.gm_constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00, 8.000000e+00]> : tensor<8xf32> : <f32>
// CHECK-NEXT: ascendc.launch @elementwise_0(%{{.*}}, %[[CST]], %{{.*}})
func.func @row_bias(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %b = ge.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %0 = ge.add %x, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// gemm + bias + relu: the cube kernel (queues on A1/B1/A2/B2/CO1, Nd2Nz,
// LoadData, Mmad over K tiles, Fixpipe) then the vector epilogue.
// CHECK-LABEL: ascendc.kernel @matmul_0 kind(<cube>) blocks(1)
// CHECK: ascendc.queue %{{.*}} num(1) bytes(1024) : <a1, 1>
// CHECK-NEXT: ascendc.queue %{{.*}} num(1) bytes(1024) : <b1, 1>
// CHECK-NEXT: ascendc.queue %{{.*}} num(1) bytes(1024) : <a2, 1>
// CHECK-NEXT: ascendc.queue %{{.*}} num(1) bytes(1024) : <b2, 1>
// CHECK-NEXT: ascendc.queue %{{.*}} num(1) bytes(1024) : <co1, 1>
// CHECK: %[[ACC:.*]] = ascendc.alloc_tensor %{{.*}} : <co1, 1> -> <f32, 256, co1>
// CHECK: ascendc.copy_nd2nz %{{.*}}, %{{.*}}[%{{.*}}] rows(%{{.*}}) cols(%{{.*}}) {dst_nz_c0_stride = 16 : i64, src_d_value = 16 : i64} : <f32, 256, a1>, <f32>
// CHECK: ascendc.copy_nd2nz %{{.*}}, %{{.*}}[%{{.*}}] rows(%{{.*}}) cols(%{{.*}}) {dst_nz_c0_stride = 16 : i64, src_d_value = 16 : i64} : <f32, 256, b1>, <f32>
// CHECK: ascendc.load_data_2d %{{.*}}, %{{.*}} start(%{{.*}}) repeat(%{{.*}}) stride(%{{.*}}) : <f32, 128, a2>, <f32, 256, a1>
// CHECK: ascendc.load_data_2d %{{.*}}, %{{.*}} start(%{{.*}}) repeat(%{{.*}}) stride(%{{.*}}) : <f32, 128, b2>, <f32, 256, b1>
// CHECK: ascendc.mmad %[[ACC]], %{{.*}}, %{{.*}}, %{{.*}} m(%{{.*}}) n(%{{.*}}) k(%{{.*}}) : <f32, 256, co1>, <f32, 256, a2>, <f32, 256, b2>
// CHECK: ascendc.fixpipe %{{.*}}[%{{.*}}], %{{.*}} rows(%{{.*}}) cols(%{{.*}}) src_stride(%{{.*}}) {dst_stride = 8 : i64} : <f32>, <f32, 256, co1>
// CHECK-LABEL: ascendc.kernel @epilogue_0 kind(<vector>)
// CHECK: ascendc.vbinary <add>
// CHECK: ascendc.vunary <relu>
// CHECK-LABEL: ascendc.host @graph inputs(1) bytes([256, 128])
// CHECK-NEXT: ^bb0(%[[X:.*]]: !ascendc.gm<f32>, %[[Y:.*]]: !ascendc.gm<f32>):
// CHECK-NEXT: %[[W:.*]] = ascendc.gm_constant dense<2.500000e-01> : tensor<128xf32> : <f32>
// CHECK-NEXT: %[[ACC2:.*]] = ascendc.gm_alloc bytes(128) : <f32>
// CHECK-NEXT: ascendc.launch @matmul_0(%[[X]], %[[W]], %[[ACC2]])
// CHECK-NEXT: %[[B:.*]] = ascendc.gm_constant
// CHECK-NEXT: ascendc.launch @epilogue_0(%[[ACC2]], %[[B]], %[[Y]])
func.func @linear(%x: tensor<4x16xf32>) -> tensor<4x8xf32> {
  %w = ge.constant dense<0.25> : tensor<8x16xf32>
  %b = ge.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %0 = ge.gemm %x, %w, %b {trans_b = true, activation = #ge.act<relu>} : (tensor<4x16xf32>, tensor<8x16xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// An embedding lookup and a concat: the gather stages the ids in the UB and reads each one on
// the scalar pipe (a negative id counts from the end), then copies its row; each concat input is
// one strided row copy into its slab of the output. The `work` attribute feeds the cost model.
// CHECK-LABEL: ascendc.kernel @gather_0 kind(<vector>) blocks(6) tiling({axis_dim = 10 : i64, chunk = 8 : i64, ichunk = 8 : i64, inner = 4 : i64, nidx = 6 : i64, outer = 1 : i64}) attributes {arg_names = ["x", "indices", "y"], work = {gm_bytes = 304 : i64, scalar_ops = 6 : i64}} {
// CHECK: ascendc.copy_pad_gm_to_local %[[IDS:.*]], %{{.*}}[%{{.*}}], %{{.*}} : <i64, 8, veccalc>, <i64>
// CHECK: %[[ID:.*]] = ascendc.get_value %[[IDS]][%{{.*}}] : <i64, 8, veccalc> -> i64
// CHECK-NEXT: %[[NEG:.*]] = arith.cmpi slt, %[[ID]], %{{.*}} : i64
// CHECK-NEXT: %[[WRAP:.*]] = arith.addi %[[ID]], %{{.*}} : i64
// CHECK-NEXT: %[[SEL:.*]] = arith.select %[[NEG]], %[[WRAP]], %[[ID]] : i64
// CHECK: arith.index_cast %[[SEL]] : i64 to index
// CHECK-LABEL: ascendc.kernel @concat_0 kind(<vector>) blocks(6) tiling({chunk = 8 : i64, cols = 4 : i64, rows = 6 : i64})
// CHECK: ascendc.copy_pad_gm_to_local
// CHECK: ascendc.copy_pad_local_to_gm
// CHECK-LABEL: ascendc.kernel @concat_1
// CHECK-LABEL: ascendc.host @graph
// CHECK: ascendc.launch @gather_0(%{{.*}}, %arg0, %[[E:.*]]) : !ascendc.gm<f32>, !ascendc.gm<i64>, !ascendc.gm<f32>
// CHECK-NEXT: ascendc.launch @concat_0(%[[E]], %arg2) : !ascendc.gm<f32>, !ascendc.gm<f32>
// CHECK-NEXT: ascendc.launch @concat_1(%arg1, %arg2) : !ascendc.gm<f32>, !ascendc.gm<f32>
func.func @embed(%ids: tensor<2x3xi64>, %x: tensor<2x3x4xf32>) -> tensor<2x3x8xf32> {
  %t = ge.constant dense<1.0> : tensor<10x4xf32>
  %e = ge.gather %t, %ids : (tensor<10x4xf32>, tensor<2x3xi64>) -> tensor<2x3x4xf32>
  %0 = ge.concat %e, %x {axis = 2 : i64} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x8xf32>
  return %0 : tensor<2x3x8xf32>
}
