// If with a run-time condition: an scf.if whose branches read the outer x.
// RUN: %python %S/Inputs/control_flow_models.py if_runtime %t.if_runtime.onnx && ge-import-onnx %t.if_runtime.onnx | FileCheck %s --check-prefix=IF
// IF-LABEL: func.func @if_runtime(%arg0: tensor<i1> {onnx.name = "cond"}, %arg1: tensor<2x3xf32> {onnx.name = "x"}) -> (tensor<2x3xf32> {onnx.name = "z"}) {
// IF-NEXT: %[[C:.*]] = tensor.extract %arg0[] : tensor<i1>
// IF-NEXT: %[[R:.*]] = scf.if %[[C]] -> (tensor<2x3xf32>) {
// IF-NEXT: %[[ONE:.*]] = ge.constant dense<1.000000e+00> : tensor<f32>
// IF-NEXT: %[[T:.*]] = ge.add %arg1, %[[ONE]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// IF-NEXT: scf.yield %[[T]] : tensor<2x3xf32>
// IF-NEXT: } else {
// IF-NEXT: %[[E:.*]] = ge.mul %arg1, %arg1 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// IF-NEXT: scf.yield %[[E]] : tensor<2x3xf32>
// IF-NEXT: }
// IF-NEXT: %[[Z:.*]] = ge.relu %[[R]] : tensor<2x3xf32>
// IF-NEXT: return %[[Z]] : tensor<2x3xf32>

// If with a constant condition: the else branch, inlined.
// RUN: %python %S/Inputs/control_flow_models.py if_constant %t.if_constant.onnx && ge-import-onnx %t.if_constant.onnx | FileCheck %s --check-prefix=IF-CONST
// IF-CONST-LABEL: func.func @if_constant(
// IF-CONST-NEXT: %[[A:.*]] = ge.abs %arg0 : tensor<2x3xf32>
// IF-CONST-NEXT: return %[[A]] : tensor<2x3xf32>

// Branches of different sizes: the result has a run-time dim, each branch cast to it.
// RUN: %python %S/Inputs/control_flow_models.py if_shapes %t.if_shapes.onnx && ge-import-onnx %t.if_shapes.onnx | FileCheck %s --check-prefix=IF-SHAPES
// IF-SHAPES-LABEL: func.func @if_shapes(
// IF-SHAPES: scf.if %{{.*}} -> (tensor<?xf32>) {
// IF-SHAPES: %[[T:.*]] = tensor.cast %{{.*}} : tensor<3xf32> to tensor<?xf32>
// IF-SHAPES-NEXT: scf.yield %[[T]] : tensor<?xf32>
// IF-SHAPES: %[[E:.*]] = tensor.cast %{{.*}} : tensor<2xf32> to tensor<?xf32>
// IF-SHAPES-NEXT: scf.yield %[[E]] : tensor<?xf32>

// Loop without a trip count: an scf.while carrying the iteration number, the condition the body
// computes and the loop-carried value.
// RUN: %python %S/Inputs/control_flow_models.py loop_while %t.loop_while.onnx && ge-import-onnx %t.loop_while.onnx | FileCheck %s --check-prefix=WHILE
// WHILE-LABEL: func.func @loop_while(%arg0: tensor<f32> {onnx.name = "limit"}) -> (tensor<f32> {onnx.name = "v"}) {
// WHILE-NEXT: %[[ONE:.*]] = ge.constant dense<1.000000e+00> : tensor<f32>
// WHILE-NEXT: %[[GO:.*]] = ge.less %[[ONE]], %arg0 : (tensor<f32>, tensor<f32>) -> tensor<i1>
// WHILE-NEXT: %[[I0:.*]] = ge.constant dense<0> : tensor<i64>
// WHILE-NEXT: %[[W:.*]]:3 = scf.while (%[[I:.*]] = %[[I0]], %[[C:.*]] = %[[GO]], %[[V:.*]] = %[[ONE]]) : (tensor<i64>, tensor<i1>, tensor<f32>) -> (tensor<i64>, tensor<i1>, tensor<f32>) {
// WHILE-NEXT: %[[B:.*]] = tensor.extract %[[C]][] : tensor<i1>
// WHILE-NEXT: scf.condition(%[[B]]) %[[I]], %[[C]], %[[V]] : tensor<i64>, tensor<i1>, tensor<f32>
// WHILE-NEXT: } do {
// WHILE-NEXT: ^bb0(%[[I2:.*]]: tensor<i64>, %[[C2:.*]]: tensor<i1>, %[[V2:.*]]: tensor<f32>):
// WHILE-NEXT: %[[D:.*]] = ge.add %[[V2]], %[[V2]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
// WHILE-NEXT: %[[L:.*]] = ge.less %[[D]], %arg0 : (tensor<f32>, tensor<f32>) -> tensor<i1>
// WHILE-NEXT: %[[K:.*]] = ge.constant dense<1> : tensor<i64>
// WHILE-NEXT: %[[N:.*]] = ge.add %[[I2]], %[[K]] : (tensor<i64>, tensor<i64>) -> tensor<i64>
// WHILE-NEXT: scf.yield %[[N]], %[[L]], %[[D]] : tensor<i64>, tensor<i1>, tensor<f32>
// WHILE-NEXT: }
// WHILE-NEXT: return %[[W]]#2 : tensor<f32>

// Loop with a trip count and a scan output: the partial sums accumulate along a run-time length.
// RUN: %python %S/Inputs/control_flow_models.py loop_runtime %t.loop_runtime.onnx && ge-import-onnx %t.loop_runtime.onnx | FileCheck %s --check-prefix=LOOP
// LOOP-LABEL: func.func @loop_runtime(
// LOOP-SAME: -> (tensor<3xf32> {onnx.name = "s"}, tensor<?x3xf32> {onnx.name = "partials"})
// LOOP: %[[EMPTY:.*]] = ge.constant dense<> : tensor<0x3xf32>
// LOOP-NEXT: %[[ACC:.*]] = tensor.cast %[[EMPTY]] : tensor<0x3xf32> to tensor<?x3xf32>
// LOOP: scf.while
// LOOP: %[[LT:.*]] = ge.less %{{.*}}, %arg0 : (tensor<i64>, tensor<i64>) -> tensor<i1>
// LOOP-NEXT: %[[KEEP:.*]] = ge.and %[[LT]], %{{.*}} : (tensor<i1>, tensor<i1>) -> tensor<i1>
// LOOP: %[[U:.*]] = ge.unsqueeze %{{.*}} {axes = array<i64: 0>} : (tensor<3xf32>) -> tensor<1x3xf32>
// LOOP-NEXT: %[[CAT:.*]] = ge.concat %{{.*}}, %[[U]] {axis = 0 : i64} : (tensor<?x3xf32>, tensor<1x3xf32>) -> tensor<?x3xf32>
// LOOP-NEXT: scf.yield

// Scan: unrolled over the static length (4); a's columns forward, b's rows backward.
// RUN: %python %S/Inputs/control_flow_models.py scan_axes %t.scan_axes.onnx && ge-import-onnx %t.scan_axes.onnx | FileCheck %s --check-prefix=SCAN
// SCAN-LABEL: func.func @scan_axes(
// SCAN-NEXT: %[[I0:.*]] = ge.constant dense<0> : tensor<i64>
// SCAN-NEXT: %[[A0:.*]] = ge.gather %arg1, %[[I0]] {axis = 1 : i64} : (tensor<2x4xf32>, tensor<i64>) -> tensor<2xf32>
// SCAN-NEXT: %[[I3:.*]] = ge.constant dense<3> : tensor<i64>
// SCAN-NEXT: %[[B3:.*]] = ge.gather %arg2, %[[I3]] : (tensor<4x2xf32>, tensor<i64>) -> tensor<2xf32>
// SCAN-NEXT: %[[S1:.*]] = ge.add %arg0, %[[A0]] : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// SCAN-NEXT: %[[S2:.*]] = ge.add %[[S1]], %[[B3]] : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// SCAN: ge.concat %{{.*}} {axis = 1 : i64} : (tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
// SCAN: ge.concat %{{.*}} {axis = 0 : i64} : (tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<4x2xf32>
