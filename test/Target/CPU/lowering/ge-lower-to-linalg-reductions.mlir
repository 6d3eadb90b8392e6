// RUN: ge-opt %s --split-input-file --pass-pipeline='builtin.module(ge-lower-to-linalg)' | FileCheck %s

// Lowerings of the reduction family (ge_mlir/lowering/reductions.py).

// Sum over a negative axis with keepdims: a reduction generic into the kept
// dims, then expand_shape reinserts the size-1 dim.
// CHECK-LABEL: func.func @reduce_sum_keepdims(
// CHECK-SAME: %[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<2x4xf32>
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[I:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}], iterator_types = ["parallel", "reduction", "parallel"]} ins(%[[X]] : tensor<2x3x4xf32>) outs(%[[I]] : tensor<2x4xf32>) {
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[ACC]], %[[IN]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
// CHECK-NEXT: } -> tensor<2x4xf32>
// CHECK-NEXT: %[[K:.*]] = tensor.expand_shape %[[R]] {{\[\[}}0, 1], [2]] output_shape [2, 1, 4] : tensor<2x4xf32> into tensor<2x1x4xf32>
// CHECK-NEXT: return %[[K]]
func.func @reduce_sum_keepdims(%x: tensor<2x3x4xf32>) -> tensor<2x1x4xf32> {
  %0 = ge.reduce_sum %x {axes = array<i64: -2>} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  return %0 : tensor<2x1x4xf32>
}

// -----

// f16 accumulates in f32; the mean divides and rounds back in a final step.
// CHECK-LABEL: func.func @reduce_mean_f16(
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<2xf32>
// CHECK-NEXT: arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[I:.*]] = linalg.fill
// CHECK-NEXT: %[[R:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "reduction"]} ins(%{{.*}} : tensor<2x3x4xf16>) outs(%[[I]] : tensor<2xf32>) {
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f16, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[W:.*]] = arith.extf %[[IN]] : f16 to f32
// CHECK-NEXT: arith.addf %[[ACC]], %[[W]] : f32
// CHECK: %[[E2:.*]] = tensor.empty() : tensor<2xf16>
// CHECK-NEXT: linalg.generic {{.*}} iterator_types = ["parallel"]} ins(%[[R]] : tensor<2xf32>) outs(%[[E2]] : tensor<2xf16>) {
// CHECK-NEXT: ^bb0(%[[S:.*]]: f32, %{{.*}}: f16):
// CHECK-NEXT: %[[N:.*]] = arith.constant 1.200000e+01 : f32
// CHECK-NEXT: %[[M:.*]] = arith.divf %[[S]], %[[N]] : f32
// CHECK-NEXT: %[[T:.*]] = arith.truncf %[[M]] : f32 to f16
// CHECK-NEXT: linalg.yield %[[T]] : f16
func.func @reduce_mean_f16(%x: tensor<2x3x4xf16>) -> tensor<2xf16> {
  %0 = ge.reduce_mean %x {axes = array<i64: 1, 2>, keepdims = false} : (tensor<2x3x4xf16>) -> tensor<2xf16>
  return %0 : tensor<2xf16>
}

// -----

// No axes: every dim is reduced into a rank-0 tensor; NaN-propagating max
// from -inf.
// CHECK-LABEL: func.func @reduce_max_all(
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<f32>
// CHECK-NEXT: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT: %[[I:.*]] = linalg.fill ins(%[[NINF]] : f32) outs(%[[E]] : tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %[[R:.*]] = linalg.generic {{.*}} iterator_types = ["reduction", "reduction"]}
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: arith.maximumf %[[ACC]], %[[IN]] : f32
// CHECK: tensor.expand_shape %[[R]] [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
func.func @reduce_max_all(%x: tensor<2x3xf32>) -> tensor<1x1xf32> {
  %0 = ge.reduce_max %x : (tensor<2x3xf32>) -> tensor<1x1xf32>
  return %0 : tensor<1x1xf32>
}

// -----

// Unsigned min: UINT_MAX init, unrealized casts around arith.minui.
// CHECK-LABEL: func.func @reduce_min_ui8(
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<3xui8>
// CHECK-NEXT: %[[M1:.*]] = arith.constant -1 : i8
// CHECK-NEXT: %[[MAX:.*]] = builtin.unrealized_conversion_cast %[[M1]] : i8 to ui8
// CHECK-NEXT: %[[I:.*]] = linalg.fill ins(%[[MAX]] : ui8) outs(%[[E]] : tensor<3xui8>) -> tensor<3xui8>
// CHECK-NEXT: %[[R:.*]] = linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]} ins(%{{.*}} : tensor<5x3xui8>) outs(%[[I]] : tensor<3xui8>) {
// CHECK-NEXT: ^bb0(%[[IN:.*]]: ui8, %[[ACC:.*]]: ui8):
// CHECK-NEXT: %[[A:.*]] = builtin.unrealized_conversion_cast %[[IN]] : ui8 to i8
// CHECK-NEXT: %[[B:.*]] = builtin.unrealized_conversion_cast %[[ACC]] : ui8 to i8
// CHECK-NEXT: %[[MIN:.*]] = arith.minui %[[B]], %[[A]] : i8
// CHECK-NEXT: %[[U:.*]] = builtin.unrealized_conversion_cast %[[MIN]] : i8 to ui8
// CHECK-NEXT: linalg.yield %[[U]] : ui8
// CHECK-NEXT: } -> tensor<3xui8>
// CHECK-NEXT: return %[[R]]
func.func @reduce_min_ui8(%x: tensor<5x3xui8>) -> tensor<3xui8> {
  %0 = ge.reduce_min %x {axes = array<i64: 0>, keepdims = false} : (tensor<5x3xui8>) -> tensor<3xui8>
  return %0 : tensor<3xui8>
}

// -----

// CHECK-LABEL: func.func @reduce_prod_i32(
// CHECK-NEXT: tensor.empty() : tensor<4xi32>
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT: linalg.fill ins(%[[ONE]] : i32)
// CHECK-NEXT: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]}
// CHECK-NEXT: ^bb0(%[[IN:.*]]: i32, %[[ACC:.*]]: i32):
// CHECK-NEXT: arith.muli %[[ACC]], %[[IN]] : i32
func.func @reduce_prod_i32(%x: tensor<4x3xi32>) -> tensor<4xi32> {
  %0 = ge.reduce_prod %x {axes = array<i64: 1>, keepdims = false} : (tensor<4x3xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// keepdims folded into the final step's indexing map (no expand_shape).
// CHECK-LABEL: func.func @reduce_l2(
// CHECK: ^bb0(%[[IN:.*]]: f64, %[[ACC:.*]]: f64):
// CHECK-NEXT: %[[SQ:.*]] = arith.mulf %[[IN]], %[[IN]] : f64
// CHECK-NEXT: arith.addf %[[ACC]], %[[SQ]] : f64
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x1xf64>
// CHECK-NEXT: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel"]} ins(%{{.*}} : tensor<4xf64>) outs(%[[E]] : tensor<4x1xf64>)
// CHECK-NEXT: ^bb0(%[[S:.*]]: f64, %{{.*}}: f64):
// CHECK-NEXT: math.sqrt %[[S]] : f64
func.func @reduce_l2(%x: tensor<4x3xf64>) -> tensor<4x1xf64> {
  %0 = ge.reduce_l2 %x {axes = array<i64: 1>} : (tensor<4x3xf64>) -> tensor<4x1xf64>
  return %0 : tensor<4x1xf64>
}

// -----

// Integer mean: exact sum in i64, truncating division, back to i8.
// CHECK-LABEL: func.func @reduce_mean_i8(
// CHECK-NEXT: tensor.empty() : tensor<4xi64>
// CHECK: ^bb0(%[[IN:.*]]: i8, %[[ACC:.*]]: i64):
// CHECK-NEXT: %[[W:.*]] = arith.extsi %[[IN]] : i8 to i64
// CHECK-NEXT: arith.addi %[[ACC]], %[[W]] : i64
// CHECK: ^bb0(%[[S:.*]]: i64, %{{.*}}: i8):
// CHECK-NEXT: %[[N:.*]] = arith.constant 3 : i64
// CHECK-NEXT: %[[Q:.*]] = arith.divsi %[[S]], %[[N]] : i64
// CHECK-NEXT: arith.trunci %[[Q]] : i64 to i8
func.func @reduce_mean_i8(%x: tensor<4x3xi8>) -> tensor<4xi8> {
  %0 = ge.reduce_mean %x {axes = array<i64: 1>, keepdims = false} : (tensor<4x3xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// (value, index) pairs: the first index of the max, NaN above numbers.
// CHECK-LABEL: func.func @argmax(
// CHECK-NEXT: tensor.empty() : tensor<4xf32>
// CHECK-NEXT: arith.constant 0xFF800000 : f32
// CHECK-NEXT: %[[V:.*]] = linalg.fill
// CHECK-NEXT: tensor.empty() : tensor<4xi64>
// CHECK-NEXT: arith.constant 9223372036854775807 : i64
// CHECK-NEXT: %[[I:.*]] = linalg.fill
// CHECK-NEXT: %[[R:.*]]:2 = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<4x5xf32>) outs(%[[V]], %[[I]] : tensor<4xf32>, tensor<4xi64>) {
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %[[BV:.*]]: f32, %[[BI:.*]]: i64):
// CHECK-NEXT: %[[J:.*]] = linalg.index 1 : index
// CHECK-NEXT: %[[J64:.*]] = arith.index_cast %[[J]] : index to i64
// CHECK: arith.cmpf ogt, %[[IN]], %[[BV]] : f32
// CHECK: arith.cmpi slt, %[[J64]], %[[BI]] : i64
// CHECK: %[[TAKE:.*]] = arith.ori
// CHECK-NEXT: %[[NV:.*]] = arith.select %[[TAKE]], %[[IN]], %[[BV]] : f32
// CHECK-NEXT: %[[NI:.*]] = arith.select %[[TAKE]], %[[J64]], %[[BI]] : i64
// CHECK-NEXT: linalg.yield %[[NV]], %[[NI]] : f32, i64
// CHECK-NEXT: } -> (tensor<4xf32>, tensor<4xi64>)
// CHECK-NEXT: %[[K:.*]] = tensor.expand_shape %[[R]]#1 {{\[\[}}0, 1]] output_shape [4, 1] : tensor<4xi64> into tensor<4x1xi64>
// CHECK-NEXT: return %[[K]]
func.func @argmax(%x: tensor<4x5xf32>) -> tensor<4x1xi64> {
  %0 = ge.argmax %x {axis = 1 : i64} : (tensor<4x5xf32>) -> tensor<4x1xi64>
  return %0 : tensor<4x1xi64>
}

// -----

// select_last_index: ties prefer the higher index; the init index is -1.
// CHECK-LABEL: func.func @argmin_last(
// CHECK-NEXT: tensor.empty() : tensor<5xi32>
// CHECK-NEXT: arith.constant 2147483647 : i32
// CHECK-NEXT: linalg.fill
// CHECK-NEXT: tensor.empty() : tensor<5xi64>
// CHECK-NEXT: arith.constant -1 : i64
// CHECK-NEXT: linalg.fill
// CHECK-NEXT: %[[R:.*]]:2 = linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]}
// CHECK-NEXT: ^bb0(%[[IN:.*]]: i32, %[[BV:.*]]: i32, %[[BI:.*]]: i64):
// CHECK-NEXT: linalg.index 0 : index
// CHECK-NEXT: %[[J:.*]] = arith.index_cast
// CHECK-NEXT: %[[LT:.*]] = arith.cmpi slt, %[[IN]], %[[BV]] : i32
// CHECK-NEXT: %[[EQ:.*]] = arith.cmpi eq, %[[IN]], %[[BV]] : i32
// CHECK-NEXT: %[[LATER:.*]] = arith.cmpi sgt, %[[J]], %[[BI]] : i64
// CHECK: return %[[R]]#1 : tensor<5xi64>
func.func @argmin_last(%x: tensor<4x5xi32>) -> tensor<5xi64> {
  %0 = ge.argmin %x {axis = 0 : i64, keepdims = false, select_last_index = true} : (tensor<4x5xi32>) -> tensor<5xi64>
  return %0 : tensor<5xi64>
}

// -----

// Row max, then e = exp(x - max) once (its own loop vectorizes), the row sums of e (reassociation
// allowed: vector partial sums), then e / sum.
// CHECK-LABEL: func.func @softmax(
// CHECK-SAME: %[[X:.*]]: tensor<2x8xf32>)
// CHECK-NEXT: tensor.empty() : tensor<2xf32>
// CHECK-NEXT: arith.constant 0xFF800000 : f32
// CHECK-NEXT: linalg.fill
// CHECK-NEXT: %[[M:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<2x8xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.maximumf
// CHECK: %[[E:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[M]] : tensor<2x8xf32>, tensor<2xf32>)
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[D:.*]] = arith.subf %[[A]], %[[B]] : f32
// CHECK-NEXT: %[[EX:.*]] = math.exp %[[D]] : f32
// CHECK-NEXT: linalg.yield %[[EX]] : f32
// CHECK: %[[S:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[E]] : tensor<2x8xf32>)
// CHECK-NEXT: ^bb0(%[[V:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: arith.addf %[[ACC]], %[[V]] fastmath<reassoc> : f32
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%[[E]], %[[S]] : tensor<2x8xf32>, tensor<2xf32>)
// CHECK-NEXT: ^bb0(%[[E2:.*]]: f32, %[[S2:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: arith.divf %[[E2]], %[[S2]] : f32
func.func @softmax(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %0 = ge.softmax %x : tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// CHECK-LABEL: func.func @log_softmax(
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]}
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]}
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]}
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[M:.*]]: f32, %[[S:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[D:.*]] = arith.subf %[[A]], %[[M]] : f32
// CHECK-NEXT: %[[L:.*]] = math.log %[[S]] : f32
// CHECK-NEXT: arith.subf %[[D]], %[[L]] : f32
func.func @log_softmax(%x: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %0 = ge.log_softmax %x {axis = 0 : i64} : tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// Three passes (sum; the correction of the mean s/n, sum(x - s/n); squared
// deviations from the corrected mean), then one elementwise step with scale
// and bias on the normalized dims.
// CHECK-LABEL: func.func @layer_norm(
// CHECK-SAME: %[[X:.*]]: tensor<2x3x8xf32>, %[[SC:.*]]: tensor<8xf32>, %[[BI:.*]]: tensor<8xf32>)
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[X]] : tensor<2x3x8xf32>)
// CHECK: %[[COR:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[X]], %[[SUM]] : tensor<2x3x8xf32>, tensor<2x3xf32>)
// CHECK: %[[SQ:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[X]], %[[SUM]], %[[COR]] : tensor<2x3x8xf32>, tensor<2x3xf32>, tensor<2x3xf32>)
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[X]], %[[SQ]], %[[SUM]], %[[COR]], %[[SC]], %[[BI]] :
// CHECK: arith.constant 1.000000e-03 : f32
// CHECK: math.sqrt
// CHECK-NEXT: %[[N:.*]] = arith.divf
// CHECK-NEXT: %[[Y:.*]] = arith.mulf %[[N]], %{{.*}} : f32
// CHECK-NEXT: arith.addf %[[Y]], %{{.*}} : f32
func.func @layer_norm(%x: tensor<2x3x8xf32>, %s: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<2x3x8xf32> {
  %0 = ge.layer_norm %x, %s, %b {epsilon = 1.0e-03 : f32} : (tensor<2x3x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x3x8xf32>
  return %0 : tensor<2x3x8xf32>
}

// -----

// CHECK-LABEL: func.func @rms_norm(
// CHECK: ^bb0(%[[IN:.*]]: f16, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[W:.*]] = arith.extf %[[IN]] : f16 to f32
// CHECK-NEXT: %[[SQ:.*]] = arith.mulf %[[W]], %[[W]] : f32
// CHECK-NEXT: arith.addf %[[ACC]], %[[SQ]] : f32
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]}
// CHECK: math.sqrt
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @rms_norm(%x: tensor<2x8xf16>, %s: tensor<8xf16>) -> tensor<2x8xf16> {
  %0 = ge.rms_norm %x, %s : (tensor<2x8xf16>, tensor<8xf16>) -> tensor<2x8xf16>
  return %0 : tensor<2x8xf16>
}

// -----

// Inference batch norm: one parallel generic, parameters indexed by the
// last (channel) dim for NHWC.
// CHECK-DAG: #[[CH:.*]] = affine_map<(d0, d1, d2, d3) -> (d3)>
// CHECK-LABEL: func.func @batch_norm_nhwc(
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<1x4x4x3xf32>
// CHECK-NEXT: linalg.generic {indexing_maps = [#{{.*}}, #[[CH]], #[[CH]], #[[CH]], #[[CH]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[S:.*]]: f32, %[[B:.*]]: f32, %[[M:.*]]: f32, %[[V:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[D:.*]] = arith.subf %[[X]], %[[M]] : f32
// CHECK-NEXT: %[[EPS:.*]] = arith.constant 9.99999974E-6 : f32
// CHECK-NEXT: %[[VE:.*]] = arith.addf %[[V]], %[[EPS]] : f32
// CHECK-NEXT: %[[SD:.*]] = math.sqrt %[[VE]] : f32
// CHECK-NEXT: %[[N:.*]] = arith.divf %[[D]], %[[SD]] : f32
// CHECK-NEXT: %[[Y:.*]] = arith.mulf %[[N]], %[[S]] : f32
// CHECK-NEXT: %[[R:.*]] = arith.addf %[[Y]], %[[B]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @batch_norm_nhwc(%x: tensor<1x4x4x3xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<1x4x4x3xf32> {
  %0 = ge.batch_norm %x, %s, %b, %m, %v {data_format = #ge.format<NHWC>} : (tensor<1x4x4x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x4x4x3xf32>
  return %0 : tensor<1x4x4x3xf32>
}

// -----

// Statistics per (sample, channel) over the spatial dims.
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @instance_norm(
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}} : tensor<2x3x5xf32>) outs(%{{.*}} : tensor<2x3xf32>)
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}, #{{.*}}, #[[C]], #[[C]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel"]}
func.func @instance_norm(%x: tensor<2x3x5xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<2x3x5xf32> {
  %0 = ge.instance_norm %x, %s, %b : (tensor<2x3x5xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

// scf.for along the axis (reversed index), the running sum updated in place,
// the exclusive result (the sum before adding) written into its slice.
// CHECK-LABEL: func.func @cumsum(
// CHECK-SAME: %[[X:.*]]: tensor<2x6xi32>)
// CHECK-NEXT: tensor.empty() : tensor<2x1xi32>
// CHECK-NEXT: arith.constant 0 : i32
// CHECK-NEXT: %[[RSUM:.*]] = linalg.fill
// CHECK-NEXT: %[[OUT:.*]] = tensor.empty() : tensor<2x6xi32>
// CHECK: %[[L:.*]]:2 = scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[O:.*]] = %[[OUT]], %[[R:.*]] = %[[RSUM]]) -> (tensor<2x6xi32>, tensor<2x1xi32>) {
// CHECK-NEXT: %[[C5:.*]] = arith.constant 5 : index
// CHECK-NEXT: %[[AT:.*]] = arith.subi %[[C5]], %[[T]] : index
// CHECK-NEXT: %[[XS:.*]] = tensor.extract_slice %[[X]][0, %[[AT]]] [2, 1] [1, 1] : tensor<2x6xi32> to tensor<2x1xi32>
// CHECK-NEXT: %[[OS:.*]] = tensor.extract_slice %[[O]][0, %[[AT]]] [2, 1] [1, 1] : tensor<2x6xi32> to tensor<2x1xi32>
// CHECK-NEXT: %[[G:.*]]:2 = linalg.generic {{.*}} ins(%[[XS]] : tensor<2x1xi32>) outs(%[[R]], %[[OS]] : tensor<2x1xi32>, tensor<2x1xi32>) {
// CHECK-NEXT: ^bb0(%[[IN:.*]]: i32, %[[OLD:.*]]: i32, %{{.*}}: i32):
// CHECK-NEXT: %[[NEW:.*]] = arith.addi %[[OLD]], %[[IN]] : i32
// CHECK-NEXT: linalg.yield %[[NEW]], %[[OLD]] : i32, i32
// CHECK-NEXT: } -> (tensor<2x1xi32>, tensor<2x1xi32>)
// CHECK-NEXT: %[[INS:.*]] = tensor.insert_slice %[[G]]#1 into %[[O]][0, %[[AT]]] [2, 1] [1, 1] : tensor<2x1xi32> into tensor<2x6xi32>
// CHECK-NEXT: scf.yield %[[INS]], %[[G]]#0 : tensor<2x6xi32>, tensor<2x1xi32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[L]]#0
func.func @cumsum(%x: tensor<2x6xi32>) -> tensor<2x6xi32> {
  %0 = ge.cumsum %x {axis = 1 : i64, exclusive = true, reverse = true} : tensor<2x6xi32>
  return %0 : tensor<2x6xi32>
}

// -----

// k selection steps: each picks the best element after the previous pick in
// (value, index) order, written in place into the output slice.
// CHECK-LABEL: func.func @top_k(
// CHECK-SAME: %[[X:.*]]: tensor<3x8xf32>)
// CHECK-NEXT: tensor.empty() : tensor<3x2xf32>
// CHECK-NEXT: arith.constant 0x7FC00000 : f32
// CHECK-NEXT: %[[V0:.*]] = linalg.fill
// CHECK-NEXT: tensor.empty() : tensor<3x2xi64>
// CHECK-NEXT: arith.constant 9223372036854775807 : i64
// CHECK-NEXT: %[[I0:.*]] = linalg.fill
// CHECK-NEXT: tensor.empty() : tensor<3xf32>
// CHECK-NEXT: arith.constant 0xFF800000 : f32
// CHECK-NEXT: %[[PV0:.*]] = linalg.fill
// CHECK-NEXT: tensor.empty() : tensor<3xi64>
// CHECK-NEXT: arith.constant -1 : i64
// CHECK-NEXT: %[[PI0:.*]] = linalg.fill
// CHECK: %[[L:.*]]:4 = scf.for %[[S:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[V:.*]] = %[[V0]], %[[I:.*]] = %[[I0]], %[[PV:.*]] = %[[PV0]], %[[PI:.*]] = %[[PI0]])
// CHECK-NEXT: %[[VS:.*]] = tensor.extract_slice %[[V]][0, %[[S]]] [3, 1] [1, 1] : tensor<3x2xf32> to tensor<3xf32>
// CHECK-NEXT: %[[IS:.*]] = tensor.extract_slice %[[I]][0, %[[S]]] [3, 1] [1, 1] : tensor<3x2xi64> to tensor<3xi64>
// CHECK-NEXT: %[[B:.*]]:2 = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[X]], %[[PV]], %[[PI]] : tensor<3x8xf32>, tensor<3xf32>, tensor<3xi64>) outs(%[[VS]], %[[IS]] : tensor<3xf32>, tensor<3xi64>)
// CHECK: linalg.yield
// CHECK-NEXT: } -> (tensor<3xf32>, tensor<3xi64>)
// CHECK-NEXT: %[[P:.*]]:2 = linalg.generic {{.*}} ins(%[[B]]#0, %[[B]]#1 : tensor<3xf32>, tensor<3xi64>) outs(%[[PV]], %[[PI]] : tensor<3xf32>, tensor<3xi64>)
// CHECK: %[[NV:.*]] = tensor.insert_slice %[[B]]#0 into %[[V]][0, %[[S]]] [3, 1] [1, 1] : tensor<3xf32> into tensor<3x2xf32>
// CHECK-NEXT: %[[NI:.*]] = tensor.insert_slice %[[B]]#1 into %[[I]][0, %[[S]]] [3, 1] [1, 1] : tensor<3xi64> into tensor<3x2xi64>
// CHECK-NEXT: scf.yield %[[NV]], %[[NI]], %[[P]]#0, %[[P]]#1
// CHECK-NEXT: }
// CHECK-NEXT: return %[[L]]#0, %[[L]]#1
func.func @top_k(%x: tensor<3x8xf32>) -> (tensor<3x2xf32>, tensor<3x2xi64>) {
  %0, %1 = ge.top_k %x {k = 2 : i64, largest = false} : (tensor<3x8xf32>) -> (tensor<3x2xf32>, tensor<3x2xi64>)
  return %0, %1 : tensor<3x2xf32>, tensor<3x2xi64>
}

// -----

// CHECK-LABEL: func.func @global_avg_pool(
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%{{.*}} : tensor<1x3x4x4xf32>) outs(%{{.*}} : tensor<1x3xf32>)
// CHECK: tensor.empty() : tensor<1x3x1x1xf32>
// CHECK-NEXT: linalg.generic
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.constant 1.600000e+01 : f32
// CHECK-NEXT: arith.divf
func.func @global_avg_pool(%x: tensor<1x3x4x4xf32>) -> tensor<1x3x1x1xf32> {
  %0 = ge.global_avg_pool %x : (tensor<1x3x4x4xf32>) -> tensor<1x3x1x1xf32>
  return %0 : tensor<1x3x1x1xf32>
}

// -----

// CHECK-LABEL: func.func @global_max_pool_nhwc(
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "reduction", "parallel"]} ins(%{{.*}} : tensor<1x4x4x3xf32>) outs(%{{.*}} : tensor<1x3xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.maximumf
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1, 2], [3]] output_shape [1, 1, 1, 3] : tensor<1x3xf32> into tensor<1x1x1x3xf32>
func.func @global_max_pool_nhwc(%x: tensor<1x4x4x3xf32>) -> tensor<1x1x1x3xf32> {
  %0 = ge.global_max_pool %x {data_format = #ge.format<NHWC>} : (tensor<1x4x4x3xf32>) -> tensor<1x1x1x3xf32>
  return %0 : tensor<1x1x1x3xf32>
}

// -----

// A ? dim: sizes from tensor.dim, the mean's count is static here (the reduced dim is 3).
// CHECK-LABEL: func.func @dynamic_mean(
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[D:.*]] = tensor.dim %arg0, %[[C0]] : tensor<?x3xf32>
// CHECK-NEXT: %[[E:.*]] = tensor.empty(%[[D]]) : tensor<?xf32>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<?x3xf32>) outs(%{{.*}} : tensor<?xf32>)
// CHECK: tensor.empty(%{{.*}}) : tensor<?x1xf32>
// CHECK: arith.divf %{{.*}}, %{{.*}} : f32
func.func @dynamic_mean(%x: tensor<?x3xf32>) -> tensor<?x1xf32> {
  %0 = ge.reduce_mean %x {axes = array<i64: 1>} : (tensor<?x3xf32>) -> tensor<?x1xf32>
  return %0 : tensor<?x1xf32>
}

// -----

// A reduced ? dim: the mean divides by the run-time count.
// CHECK-LABEL: func.func @dynamic_count(
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<2x?xf32>) outs(%{{.*}} : tensor<2xf32>)
// CHECK: %[[N:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK-NEXT: %[[F:.*]] = arith.sitofp %[[N]] : i64 to f32
// CHECK-NEXT: arith.divf %{{.*}}, %[[F]] : f32
func.func @dynamic_count(%x: tensor<2x?xf32>) -> tensor<2xf32> {
  %0 = ge.reduce_mean %x {axes = array<i64: 1>, keepdims = false} : (tensor<2x?xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
