// Lit tests of the ONNX importer's linear-algebra converters (MatMul, Gemm, MatMulInteger, Einsum, Det) (ge_mlir/frontend/onnx/ops/linear_algebra.py).
//
// Every RUN line builds one small model with Inputs/nn_models.py (the models of
// every nn family; its opset is given there, next to the model) and imports it
// with ge-import-onnx; the checks pin the emitted ge ops, their attributes and
// result types. Models the importer must refuse are imported with `not` and
// their error is checked. test/python/frontend/test_onnx_nn.py imports the same
// models in-process and compares the result types with onnxruntime's.

//===--------------------------------------------------------------------------===//
// MatMul, Gemm, MatMulInteger
//===--------------------------------------------------------------------------===//

// RUN: %python %S/Inputs/nn_models.py matmul_2d %t.matmul_2d.onnx && ge-import-onnx %t.matmul_2d.onnx | FileCheck %s --check-prefix=MATMUL-2D
// MATMUL-2D-LABEL: func.func @matmul_2d(
// MATMUL-2D-SAME: %[[ARG0:[^ ,:)]+]]: tensor<3x4xf32> {onnx.name = "x"}) -> (tensor<3x5xf32> {onnx.name = "y"})
// MATMUL-2D-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<4x5xf32>
// MATMUL-2D-NEXT: %[[V0:[^ ,:)]+]] = ge.matmul %[[ARG0]], %[[C0]] : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
// MATMUL-2D-NEXT: return %[[V0]] : tensor<3x5xf32>

// RUN: %python %S/Inputs/nn_models.py matmul_broadcast %t.matmul_broadcast.onnx && ge-import-onnx %t.matmul_broadcast.onnx | FileCheck %s --check-prefix=MATMUL-BROADCAST
// MATMUL-BROADCAST-LABEL: func.func @matmul_broadcast(
// MATMUL-BROADCAST-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x1x3x4xf32> {onnx.name = "a"}, %[[ARG1:[^ ,:)]+]]: tensor<5x4x6xf32> {onnx.name = "b"}) -> (tensor<2x5x3x6xf32> {onnx.name = "y"})
// MATMUL-BROADCAST-NEXT: %[[V0:[^ ,:)]+]] = ge.matmul %[[ARG0]], %[[ARG1]] : (tensor<2x1x3x4xf32>, tensor<5x4x6xf32>) -> tensor<2x5x3x6xf32>
// MATMUL-BROADCAST-NEXT: return %[[V0]] : tensor<2x5x3x6xf32>

// RUN: %python %S/Inputs/nn_models.py matmul_vector %t.matmul_vector.onnx && ge-import-onnx %t.matmul_vector.onnx | FileCheck %s --check-prefix=MATMUL-VECTOR
// MATMUL-VECTOR-LABEL: func.func @matmul_vector(
// MATMUL-VECTOR-SAME: %[[ARG0:[^ ,:)]+]]: tensor<4xf32> {onnx.name = "a"}, %[[ARG1:[^ ,:)]+]]: tensor<2x4x3xf32> {onnx.name = "b"}) -> (tensor<2x3xf32> {onnx.name = "y"})
// MATMUL-VECTOR-NEXT: %[[V0:[^ ,:)]+]] = ge.matmul %[[ARG0]], %[[ARG1]] : (tensor<4xf32>, tensor<2x4x3xf32>) -> tensor<2x3xf32>
// MATMUL-VECTOR-NEXT: return %[[V0]] : tensor<2x3xf32>

// RUN: %python %S/Inputs/nn_models.py matmul_int32 %t.matmul_int32.onnx && ge-import-onnx %t.matmul_int32.onnx | FileCheck %s --check-prefix=MATMUL-INT32
// MATMUL-INT32-LABEL: func.func @matmul_int32(
// MATMUL-INT32-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3xi32> {onnx.name = "a"}, %[[ARG1:[^ ,:)]+]]: tensor<3x2xi32> {onnx.name = "b"}) -> (tensor<2x2xi32> {onnx.name = "y"})
// MATMUL-INT32-NEXT: %[[V0:[^ ,:)]+]] = ge.matmul %[[ARG0]], %[[ARG1]] : (tensor<2x3xi32>, tensor<3x2xi32>) -> tensor<2x2xi32>
// MATMUL-INT32-NEXT: return %[[V0]] : tensor<2x2xi32>

// RUN: %python %S/Inputs/nn_models.py gemm_bias %t.gemm_bias.onnx && ge-import-onnx %t.gemm_bias.onnx | FileCheck %s --check-prefix=GEMM-BIAS
// GEMM-BIAS-LABEL: func.func @gemm_bias(
// GEMM-BIAS-SAME: %[[ARG0:[^ ,:)]+]]: tensor<3x4xf32> {onnx.name = "x"}) -> (tensor<3x5xf32> {onnx.name = "y"})
// GEMM-BIAS-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<5x4xf32>
// GEMM-BIAS-NEXT: %[[C1:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<5xf32>
// GEMM-BIAS-NEXT: %[[V0:[^ ,:)]+]] = ge.gemm %[[ARG0]], %[[C0]], %[[C1]] {alpha = 5.000000e-01 : f32, beta = 2.000000e+00 : f32, trans_b = true} : (tensor<3x4xf32>, tensor<5x4xf32>, tensor<5xf32>) -> tensor<3x5xf32>
// GEMM-BIAS-NEXT: return %[[V0]] : tensor<3x5xf32>

// RUN: %python %S/Inputs/nn_models.py gemm_no_c %t.gemm_no_c.onnx && ge-import-onnx %t.gemm_no_c.onnx | FileCheck %s --check-prefix=GEMM-NO-C
// GEMM-NO-C-LABEL: func.func @gemm_no_c(
// GEMM-NO-C-SAME: %[[ARG0:[^ ,:)]+]]: tensor<4x3xf32> {onnx.name = "a"}, %[[ARG1:[^ ,:)]+]]: tensor<4x2xf32> {onnx.name = "b"}) -> (tensor<3x2xf32> {onnx.name = "y"})
// GEMM-NO-C-NEXT: %[[V0:[^ ,:)]+]] = ge.gemm %[[ARG0]], %[[ARG1]] {trans_a = true} : (tensor<4x3xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
// GEMM-NO-C-NEXT: return %[[V0]] : tensor<3x2xf32>

// RUN: %python %S/Inputs/nn_models.py gemm_opset9 %t.gemm_opset9.onnx && ge-import-onnx %t.gemm_opset9.onnx | FileCheck %s --check-prefix=GEMM-OPSET9
// GEMM-OPSET9-LABEL: func.func @gemm_opset9(
// GEMM-OPSET9-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3xf32> {onnx.name = "x"}) -> (tensor<2x4xf32> {onnx.name = "y"})
// GEMM-OPSET9-NEXT: %[[C0:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<3x4xf32>
// GEMM-OPSET9-NEXT: %[[C1:[^ ,:)]+]] = ge.constant dense<{{.*}}> : tensor<2x4xf32>
// GEMM-OPSET9-NEXT: %[[V0:[^ ,:)]+]] = ge.gemm %[[ARG0]], %[[C0]], %[[C1]] : (tensor<2x3xf32>, tensor<3x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
// GEMM-OPSET9-NEXT: return %[[V0]] : tensor<2x4xf32>

// MatMulInteger: the u8 operands widened to i32 (no zero points here), one i32 ge.matmul.
// RUN: %python %S/Inputs/nn_models.py matmulinteger %t.matmulinteger.onnx && ge-import-onnx %t.matmulinteger.onnx | FileCheck %s --check-prefix=MATMULINTEGER
// MATMULINTEGER-LABEL: func.func @matmulinteger(%arg0: tensor<2x3xui8> {onnx.name = "a"}, %arg1: tensor<3x2xui8> {onnx.name = "b"}) -> (tensor<2x2xi32> {onnx.name = "y"}) {
// MATMULINTEGER-NEXT: %[[A:.*]] = ge.cast %arg0 : tensor<2x3xui8> to tensor<2x3xi32>
// MATMULINTEGER-NEXT: %[[B:.*]] = ge.cast %arg1 : tensor<3x2xui8> to tensor<3x2xi32>
// MATMULINTEGER-NEXT: %[[Y:.*]] = ge.matmul %[[A]], %[[B]] : (tensor<2x3xi32>, tensor<3x2xi32>) -> tensor<2x2xi32>
// MATMULINTEGER-NEXT: return %[[Y]] : tensor<2x2xi32>

//===--------------------------------------------------------------------------===//
// Einsum: transpose + matmul + reshape forms
//===--------------------------------------------------------------------------===//

// RUN: %python %S/Inputs/nn_models.py einsum_bmm %t.einsum_bmm.onnx && ge-import-onnx %t.einsum_bmm.onnx | FileCheck %s --check-prefix=EINSUM-BMM
// EINSUM-BMM-LABEL: func.func @einsum_bmm(
// EINSUM-BMM-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x4xf32> {onnx.name = "a"}, %[[ARG1:[^ ,:)]+]]: tensor<2x4x5xf32> {onnx.name = "b"}) -> (tensor<2x3x5xf32> {onnx.name = "y"})
// EINSUM-BMM-NEXT: %[[V0:[^ ,:)]+]] = ge.matmul %[[ARG0]], %[[ARG1]] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
// EINSUM-BMM-NEXT: return %[[V0]] : tensor<2x3x5xf32>

// RUN: %python %S/Inputs/nn_models.py einsum_attention %t.einsum_attention.onnx && ge-import-onnx %t.einsum_attention.onnx | FileCheck %s --check-prefix=EINSUM-ATTENTION
// EINSUM-ATTENTION-LABEL: func.func @einsum_attention(
// EINSUM-ATTENTION-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x4x8xf32> {onnx.name = "a"}, %[[ARG1:[^ ,:)]+]]: tensor<2x3x5x8xf32> {onnx.name = "b"}) -> (tensor<2x3x4x5xf32> {onnx.name = "y"})
// EINSUM-ATTENTION-NEXT: %[[V0:[^ ,:)]+]] = ge.transpose %[[ARG1]] {perm = array<i64: 0, 1, 3, 2>} : (tensor<2x3x5x8xf32>) -> tensor<2x3x8x5xf32>
// EINSUM-ATTENTION-NEXT: %[[V1:[^ ,:)]+]] = ge.matmul %[[ARG0]], %[[V0]] : (tensor<2x3x4x8xf32>, tensor<2x3x8x5xf32>) -> tensor<2x3x4x5xf32>
// EINSUM-ATTENTION-NEXT: return %[[V1]] : tensor<2x3x4x5xf32>

// RUN: %python %S/Inputs/nn_models.py einsum_mm %t.einsum_mm.onnx && ge-import-onnx %t.einsum_mm.onnx | FileCheck %s --check-prefix=EINSUM-MM
// EINSUM-MM-LABEL: func.func @einsum_mm(
// EINSUM-MM-SAME: %[[ARG0:[^ ,:)]+]]: tensor<3x4xf32> {onnx.name = "a"}, %[[ARG1:[^ ,:)]+]]: tensor<4x5xf32> {onnx.name = "b"}) -> (tensor<3x5xf32> {onnx.name = "y"})
// EINSUM-MM-NEXT: %[[V0:[^ ,:)]+]] = ge.matmul %[[ARG0]], %[[ARG1]] : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
// EINSUM-MM-NEXT: return %[[V0]] : tensor<3x5xf32>

// RUN: %python %S/Inputs/nn_models.py einsum_dot %t.einsum_dot.onnx && ge-import-onnx %t.einsum_dot.onnx | FileCheck %s --check-prefix=EINSUM-DOT
// EINSUM-DOT-LABEL: func.func @einsum_dot(
// EINSUM-DOT-SAME: %[[ARG0:[^ ,:)]+]]: tensor<3x4xf32> {onnx.name = "a"}, %[[ARG1:[^ ,:)]+]]: tensor<3x4xf32> {onnx.name = "b"}) -> (tensor<3xf32> {onnx.name = "y"})
// EINSUM-DOT-NEXT: %[[V0:[^ ,:)]+]] = ge.reshape %[[ARG0]] : tensor<3x4xf32> to tensor<3x1x4xf32>
// EINSUM-DOT-NEXT: %[[V1:[^ ,:)]+]] = ge.reshape %[[ARG1]] : tensor<3x4xf32> to tensor<3x4x1xf32>
// EINSUM-DOT-NEXT: %[[V2:[^ ,:)]+]] = ge.matmul %[[V0]], %[[V1]] : (tensor<3x1x4xf32>, tensor<3x4x1xf32>) -> tensor<3x1x1xf32>
// EINSUM-DOT-NEXT: %[[V3:[^ ,:)]+]] = ge.reshape %[[V2]] : tensor<3x1x1xf32> to tensor<3xf32>
// EINSUM-DOT-NEXT: return %[[V3]] : tensor<3xf32>

// RUN: %python %S/Inputs/nn_models.py einsum_outer_transposed %t.einsum_outer_transposed.onnx && ge-import-onnx %t.einsum_outer_transposed.onnx | FileCheck %s --check-prefix=EINSUM-OUTER-TRANSPOSED
// EINSUM-OUTER-TRANSPOSED-LABEL: func.func @einsum_outer_transposed(
// EINSUM-OUTER-TRANSPOSED-SAME: %[[ARG0:[^ ,:)]+]]: tensor<3xf32> {onnx.name = "a"}, %[[ARG1:[^ ,:)]+]]: tensor<4xf32> {onnx.name = "b"}) -> (tensor<4x3xf32> {onnx.name = "y"})
// EINSUM-OUTER-TRANSPOSED-NEXT: %[[V0:[^ ,:)]+]] = ge.reshape %[[ARG0]] : tensor<3xf32> to tensor<3x1xf32>
// EINSUM-OUTER-TRANSPOSED-NEXT: %[[V1:[^ ,:)]+]] = ge.reshape %[[ARG1]] : tensor<4xf32> to tensor<1x4xf32>
// EINSUM-OUTER-TRANSPOSED-NEXT: %[[V2:[^ ,:)]+]] = ge.matmul %[[V0]], %[[V1]] : (tensor<3x1xf32>, tensor<1x4xf32>) -> tensor<3x4xf32>
// EINSUM-OUTER-TRANSPOSED-NEXT: %[[V3:[^ ,:)]+]] = ge.transpose %[[V2]] {perm = array<i64: 1, 0>} : (tensor<3x4xf32>) -> tensor<4x3xf32>
// EINSUM-OUTER-TRANSPOSED-NEXT: return %[[V3]] : tensor<4x3xf32>

// RUN: %python %S/Inputs/nn_models.py einsum_ellipsis %t.einsum_ellipsis.onnx && ge-import-onnx %t.einsum_ellipsis.onnx | FileCheck %s --check-prefix=EINSUM-ELLIPSIS
// EINSUM-ELLIPSIS-LABEL: func.func @einsum_ellipsis(
// EINSUM-ELLIPSIS-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x4x5xf32> {onnx.name = "a"}, %[[ARG1:[^ ,:)]+]]: tensor<2x3x5x6xf32> {onnx.name = "b"}) -> (tensor<2x3x4x6xf32> {onnx.name = "y"})
// EINSUM-ELLIPSIS-NEXT: %[[V0:[^ ,:)]+]] = ge.matmul %[[ARG0]], %[[ARG1]] : (tensor<2x3x4x5xf32>, tensor<2x3x5x6xf32>) -> tensor<2x3x4x6xf32>
// EINSUM-ELLIPSIS-NEXT: return %[[V0]] : tensor<2x3x4x6xf32>

// Implicit output: labels seen once, sorted ('kj,ji' -> 'ik').
// RUN: %python %S/Inputs/nn_models.py einsum_implicit %t.einsum_implicit.onnx && ge-import-onnx %t.einsum_implicit.onnx | FileCheck %s --check-prefix=EINSUM-IMPLICIT
// EINSUM-IMPLICIT-LABEL: func.func @einsum_implicit(
// EINSUM-IMPLICIT-SAME: %[[ARG0:[^ ,:)]+]]: tensor<3x4xf32> {onnx.name = "a"}, %[[ARG1:[^ ,:)]+]]: tensor<4x5xf32> {onnx.name = "b"}) -> (tensor<5x3xf32> {onnx.name = "y"})
// EINSUM-IMPLICIT-NEXT: %[[V0:[^ ,:)]+]] = ge.matmul %[[ARG0]], %[[ARG1]] : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
// EINSUM-IMPLICIT-NEXT: %[[V1:[^ ,:)]+]] = ge.transpose %[[V0]] {perm = array<i64: 1, 0>} : (tensor<3x5xf32>) -> tensor<5x3xf32>
// EINSUM-IMPLICIT-NEXT: return %[[V1]] : tensor<5x3xf32>

// RUN: %python %S/Inputs/nn_models.py einsum_transpose_sum %t.einsum_transpose_sum.onnx && ge-import-onnx %t.einsum_transpose_sum.onnx | FileCheck %s --check-prefix=EINSUM-TRANSPOSE-SUM
// EINSUM-TRANSPOSE-SUM-LABEL: func.func @einsum_transpose_sum(
// EINSUM-TRANSPOSE-SUM-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x4xf32> {onnx.name = "a"}) -> (tensor<4x2xf32> {onnx.name = "y"})
// EINSUM-TRANSPOSE-SUM-NEXT: %[[V0:[^ ,:)]+]] = ge.reduce_sum %[[ARG0]] {axes = array<i64: 1>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
// EINSUM-TRANSPOSE-SUM-NEXT: %[[V1:[^ ,:)]+]] = ge.transpose %[[V0]] {perm = array<i64: 1, 0>} : (tensor<2x4xf32>) -> tensor<4x2xf32>
// EINSUM-TRANSPOSE-SUM-NEXT: return %[[V1]] : tensor<4x2xf32>

// RUN: %python %S/Inputs/nn_models.py einsum_multi_contract %t.einsum_multi_contract.onnx && ge-import-onnx %t.einsum_multi_contract.onnx | FileCheck %s --check-prefix=EINSUM-MULTI-CONTRACT
// EINSUM-MULTI-CONTRACT-LABEL: func.func @einsum_multi_contract(
// EINSUM-MULTI-CONTRACT-SAME: %[[ARG0:[^ ,:)]+]]: tensor<2x3x4xf32> {onnx.name = "a"}, %[[ARG1:[^ ,:)]+]]: tensor<3x4x5xf32> {onnx.name = "b"}) -> (tensor<2x5xf32> {onnx.name = "y"})
// EINSUM-MULTI-CONTRACT-NEXT: %[[V0:[^ ,:)]+]] = ge.reshape %[[ARG0]] : tensor<2x3x4xf32> to tensor<2x12xf32>
// EINSUM-MULTI-CONTRACT-NEXT: %[[V1:[^ ,:)]+]] = ge.reshape %[[ARG1]] : tensor<3x4x5xf32> to tensor<12x5xf32>
// EINSUM-MULTI-CONTRACT-NEXT: %[[V2:[^ ,:)]+]] = ge.matmul %[[V0]], %[[V1]] : (tensor<2x12xf32>, tensor<12x5xf32>) -> tensor<2x5xf32>
// EINSUM-MULTI-CONTRACT-NEXT: return %[[V2]] : tensor<2x5xf32>

// RUN: %python %S/Inputs/nn_models.py einsum_diagonal %t.einsum_diagonal.onnx && not ge-import-onnx %t.einsum_diagonal.onnx 2>&1 | FileCheck %s --check-prefix=EINSUM-DIAGONAL
// EINSUM-DIAGONAL: ge-import-onnx: error: model cannot be imported: 1 unsupported op type(s)/node(s)
// EINSUM-DIAGONAL-NEXT: Einsum node 'einsum0': equation 'ii->i' takes a diagonal (a label repeated in one term), which is not supported

// RUN: %python %S/Inputs/nn_models.py einsum_batch_broadcast %t.einsum_batch_broadcast.onnx && ge-import-onnx %t.einsum_batch_broadcast.onnx | FileCheck %s --check-prefix=EINSUM-BATCH-BROADCAST
// EINSUM-BATCH-BROADCAST-LABEL: func.func @einsum_batch_broadcast(
// EINSUM-BATCH-BROADCAST-SAME: %[[ARG0:[^ ,:)]+]]: tensor<1x3x2x4xf32> {onnx.name = "a"}, %[[ARG1:[^ ,:)]+]]: tensor<2x1x4x5xf32> {onnx.name = "b"}) -> (tensor<2x3x2x5xf32> {onnx.name = "y"})
// EINSUM-BATCH-BROADCAST-NEXT: %[[V0:[^ ,:)]+]] = ge.matmul %[[ARG0]], %[[ARG1]] : (tensor<1x3x2x4xf32>, tensor<2x1x4x5xf32>) -> tensor<2x3x2x5xf32>
// EINSUM-BATCH-BROADCAST-NEXT: return %[[V0]] : tensor<2x3x2x5xf32>

// RUN: %python %S/Inputs/nn_models.py einsum_contract_broadcast %t.einsum_contract_broadcast.onnx && not ge-import-onnx %t.einsum_contract_broadcast.onnx 2>&1 | FileCheck %s --check-prefix=EINSUM-CONTRACT-BROADCAST
// EINSUM-CONTRACT-BROADCAST: ge-import-onnx: error: model cannot be imported: 1 unsupported op type(s)/node(s)
// EINSUM-CONTRACT-BROADCAST-NEXT: Einsum node 'einsum0': equation 'ij,jk->ik': label 'j' has sizes 1 and 3; only batch labels (kept in the output) may broadcast

// RUN: %python %S/Inputs/nn_models.py einsum_three_operands %t.einsum_three_operands.onnx && not ge-import-onnx %t.einsum_three_operands.onnx 2>&1 | FileCheck %s --check-prefix=EINSUM-THREE-OPERANDS
// EINSUM-THREE-OPERANDS: ge-import-onnx: error: model cannot be imported: 1 unsupported op type(s)/node(s)
// EINSUM-THREE-OPERANDS-NEXT: Einsum node 'einsum0': equation 'ij,jk,kl->il' has 3 operands; only 1 or 2 are supported

// Det: the Leibniz sum over permutations of the gathered entries.
// RUN: %python %S/Inputs/nn_models.py det_2x2 %t.det_2x2.onnx && ge-import-onnx %t.det_2x2.onnx | FileCheck %s --check-prefix=DET
// DET-LABEL: func.func @det_2x2(%arg0: tensor<2x2xf32> {onnx.name = "x"}) -> (tensor<f32> {onnx.name = "y"}) {
// DET: %[[A:.*]] = ge.mul %{{.*}}, %{{.*}} : (tensor<f32>, tensor<f32>) -> tensor<f32>
// DET-NEXT: %[[B:.*]] = ge.mul %{{.*}}, %{{.*}} : (tensor<f32>, tensor<f32>) -> tensor<f32>
// DET-NEXT: %[[D:.*]] = ge.sub %[[A]], %[[B]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
// DET-NEXT: return %[[D]] : tensor<f32>
