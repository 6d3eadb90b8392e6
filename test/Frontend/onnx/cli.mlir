// ge-import-onnx: shapes, names, locations, resources, errors.
// RUN: %python %S/Inputs/cli_models.py dynamic_relu %t.dyn.onnx
// RUN: ge-import-onnx %t.dyn.onnx | FileCheck %s --check-prefix=DYN
// RUN: ge-import-onnx %t.dyn.onnx --input-shape x:2,3,8,8 --mlir-print-debuginfo | FileCheck %s --check-prefix=FIXED
// RUN: not ge-import-onnx %t.dyn.onnx --input-shape y:1,2 2>&1 | FileCheck %s --check-prefix=NOT-INPUT
// RUN: not ge-import-onnx %t.dyn.onnx --input-shape x:1,a 2>&1 | FileCheck %s --check-prefix=BAD-SHAPE
// RUN: %python %S/Inputs/cli_models.py weights %t.w.onnx
// RUN: ge-import-onnx %t.w.onnx -o %t.w.mlir && ge-opt %t.w.mlir | FileCheck %s --check-prefix=WEIGHTS
// RUN: ge-import-onnx %t.w.onnx --elide-resources | FileCheck %s --check-prefix=ELIDED
// RUN: %python %S/Inputs/cli_models.py unsupported %t.bad.onnx
// RUN: not ge-import-onnx %t.bad.onnx 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: not ge-import-onnx %t.missing.onnx 2>&1 | FileCheck %s --check-prefix=MISSING

// DYN: func.func @dyn(%arg0: tensor<?x3x?x?xf32> {{{.*}}onnx.name = "x"}) -> (tensor<?x3x?x?xf32> {onnx.name = "y"})
// DYN-NEXT: %[[R:.*]] = ge.relu %arg0 : tensor<?x3x?x?xf32>
// DYN-NEXT: return %[[R]]

// FIXED: func.func @dyn(%arg0: tensor<2x3x8x8xf32> {onnx.name = "x"} loc("x"))
// FIXED-NEXT: ge.relu %arg0 : tensor<2x3x8x8xf32> loc(#[[LOC:.*]])
// FIXED: #[[NAME:.*]] = loc("relu")
// FIXED: #[[LOC]] = loc(fused<"Relu">[#[[NAME]]])

// NOT-INPUT: ge-import-onnx: error: input_shapes names 'y', which is not a graph input (inputs: x)
// BAD-SHAPE: ge-import-onnx: error: argument --input-shape: dimensions must be integers in 'x:1,a'

// WEIGHTS: %[[W:.*]] = ge.constant dense_resource<fc.weight> : tensor<32x32xf32>
// WEIGHTS-NEXT: ge.add %arg0, %[[W]]
// WEIGHTS: dialect_resources: {
// WEIGHTS-NEXT: builtin: {
// WEIGHTS-NEXT: fc.weight: "0x04000000000000000000803F

// ELIDED: ge.constant dense_resource<fc.weight> : tensor<32x32xf32>
// ELIDED-NOT: 0x04000000

// REFUSED: ge-import-onnx: error: model cannot be imported: 2 unsupported op type(s)/node(s)
// REFUSED-NEXT: Frobnicate (opset 17): 1 node(s): 'frob'
// REFUSED-NEXT: NonMaxSuppressionV9 (opset 17): 2 node(s): 'nms_a', 'nms_b'

// MISSING: ge-import-onnx: error: ONNX model not found
