// ONNX elementwise converters (ge_mlir/frontend/onnx/ops/elementwise.py):
// each RUN line writes one model of Inputs/elementwise_models.py and checks the
// ge ops ge-import-onnx emits for it. Models named bug_* there reproduce known
// bugs and are exercised by test/python/frontend/test_onnx_elementwise.py only.

// Unary ops with a 1:1 ge op.
// RUN: %python %S/Inputs/elementwise_models.py unary_f32 %t.unary_f32.onnx && ge-import-onnx %t.unary_f32.onnx | FileCheck %s --check-prefix=UNARY-F32
// UNARY-F32-LABEL: func.func @main(%arg0: tensor<2x3xf32> {onnx.name = "x"}) -> (tensor<2x3xf32> {onnx.name = "y_abs"}, tensor<2x3xf32> {onnx.name = "y_neg"}, tensor<2x3xf32> {onnx.name = "y_exp"}, tensor<2x3xf32> {onnx.name = "y_log"}, tensor<2x3xf32> {onnx.name = "y_sqrt"}, tensor<2x3xf32> {onnx.name = "y_reciprocal"}, tensor<2x3xf32> {onnx.name = "y_tanh"}, tensor<2x3xf32> {onnx.name = "y_sigmoid"}, tensor<2x3xf32> {onnx.name = "y_relu"}, tensor<2x3xf32> {onnx.name = "y_erf"}, tensor<2x3xf32> {onnx.name = "y_sin"}, tensor<2x3xf32> {onnx.name = "y_cos"}, tensor<2x3xf32> {onnx.name = "y_floor"}, tensor<2x3xf32> {onnx.name = "y_ceil"}, tensor<2x3xf32> {onnx.name = "y_round"}, tensor<2x3xf32> {onnx.name = "y_sign"}, tensor<2x3xf32> {onnx.name = "y_softplus"}, tensor<2x3xf32> {onnx.name = "y_hardswish"}, tensor<2x3xf32> {onnx.name = "y_identity"}, tensor<2x3xf32> {onnx.name = "y_acos"}, tensor<2x3xf32> {onnx.name = "y_asin"}, tensor<2x3xf32> {onnx.name = "y_atan"}) {
// UNARY-F32-NEXT: %[[V0:.*]] = ge.abs %arg0 : tensor<2x3xf32>
// UNARY-F32-NEXT: %[[V1:.*]] = ge.neg %arg0 : tensor<2x3xf32>
// UNARY-F32-NEXT: %[[V2:.*]] = ge.exp %arg0 : tensor<2x3xf32>
// UNARY-F32-NEXT: %[[V3:.*]] = ge.log %arg0 : tensor<2x3xf32>
// UNARY-F32-NEXT: %[[V4:.*]] = ge.sqrt %arg0 : tensor<2x3xf32>
// UNARY-F32-NEXT: %[[V5:.*]] = ge.reciprocal %arg0 : tensor<2x3xf32>
// UNARY-F32-NEXT: %[[V6:.*]] = ge.tanh %arg0 : tensor<2x3xf32>
// UNARY-F32-NEXT: %[[V7:.*]] = ge.sigmoid %arg0 : tensor<2x3xf32>
// UNARY-F32-NEXT: %[[V8:.*]] = ge.relu %arg0 : tensor<2x3xf32>
// UNARY-F32-NEXT: %[[V9:.*]] = ge.erf %arg0 : tensor<2x3xf32>
// UNARY-F32-NEXT: %[[V10:.*]] = ge.sin %arg0 : tensor<2x3xf32>
// UNARY-F32-NEXT: %[[V11:.*]] = ge.cos %arg0 : tensor<2x3xf32>
// UNARY-F32-NEXT: %[[V12:.*]] = ge.floor %arg0 : tensor<2x3xf32>
// UNARY-F32-NEXT: %[[V13:.*]] = ge.ceil %arg0 : tensor<2x3xf32>
// UNARY-F32-NEXT: %[[V14:.*]] = ge.round %arg0 : tensor<2x3xf32>
// UNARY-F32-NEXT: %[[V15:.*]] = ge.sign %arg0 : tensor<2x3xf32>
// UNARY-F32-NEXT: %[[V16:.*]] = ge.softplus %arg0 : tensor<2x3xf32>
// UNARY-F32-NEXT: %[[V17:.*]] = ge.hard_swish %arg0 : tensor<2x3xf32>
// UNARY-F32-NEXT: %[[V18:.*]] = ge.identity %arg0 : tensor<2x3xf32>
// UNARY-F32-NEXT: %[[V19:.*]] = ge.acos %arg0 : tensor<2x3xf32>
// UNARY-F32-NEXT: %[[V20:.*]] = ge.asin %arg0 : tensor<2x3xf32>
// UNARY-F32-NEXT: %[[V21:.*]] = ge.atan %arg0 : tensor<2x3xf32>
// UNARY-F32-NEXT: return %[[V0]], %[[V1]], %[[V2]], %[[V3]], %[[V4]], %[[V5]], %[[V6]], %[[V7]], %[[V8]], %[[V9]], %[[V10]], %[[V11]], %[[V12]], %[[V13]], %[[V14]], %[[V15]], %[[V16]], %[[V17]], %[[V18]], %[[V19]], %[[V20]], %[[V21]] : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>

// RUN: %python %S/Inputs/elementwise_models.py bitwise %t.bitwise.onnx && ge-import-onnx %t.bitwise.onnx | FileCheck %s --check-prefix=BITWISE
// BITWISE-LABEL: func.func @main(
// BITWISE-NEXT: %[[A:.*]] = ge.bitwise_and %arg0, %arg1 : (tensor<2x3xui8>, tensor<1x3xui8>) -> tensor<2x3xui8>
// BITWISE-NEXT: %[[O:.*]] = ge.bitwise_or %arg0, %arg1 : (tensor<2x3xui8>, tensor<1x3xui8>) -> tensor<2x3xui8>
// BITWISE-NEXT: %[[X:.*]] = ge.bitwise_xor %arg0, %arg1 : (tensor<2x3xui8>, tensor<1x3xui8>) -> tensor<2x3xui8>
// BITWISE-NEXT: %[[N:.*]] = ge.bitwise_not %arg0 : tensor<2x3xui8>
// BITWISE-NEXT: %[[L:.*]] = ge.bit_shift %arg0, %arg1 : (tensor<2x3xui8>, tensor<1x3xui8>) -> tensor<2x3xui8>
// BITWISE-NEXT: %[[R:.*]] = ge.bit_shift %arg0, %arg1 {right = true} : (tensor<2x3xui8>, tensor<1x3xui8>) -> tensor<2x3xui8>
// BITWISE-NEXT: return %[[A]], %[[O]], %[[X]], %[[N]], %[[L]], %[[R]]

// RUN: %python %S/Inputs/elementwise_models.py unary_f16 %t.unary_f16.onnx && ge-import-onnx %t.unary_f16.onnx | FileCheck %s --check-prefix=UNARY-F16
// UNARY-F16-LABEL: func.func @main(%arg0: tensor<4xf16> {onnx.name = "x"}) -> (tensor<4xf16> {onnx.name = "y_exp"}, tensor<4xf16> {onnx.name = "y_tanh"}, tensor<4xf16> {onnx.name = "y_relu"}) {
// UNARY-F16-NEXT: %[[V0:.*]] = ge.exp %arg0 : tensor<4xf16>
// UNARY-F16-NEXT: %[[V1:.*]] = ge.tanh %arg0 : tensor<4xf16>
// UNARY-F16-NEXT: %[[V2:.*]] = ge.relu %arg0 : tensor<4xf16>
// UNARY-F16-NEXT: return %[[V0]], %[[V1]], %[[V2]] : tensor<4xf16>, tensor<4xf16>, tensor<4xf16>

// RUN: %python %S/Inputs/elementwise_models.py unary_i32 %t.unary_i32.onnx && ge-import-onnx %t.unary_i32.onnx | FileCheck %s --check-prefix=UNARY-I32
// UNARY-I32-LABEL: func.func @main(%arg0: tensor<3x2xi32> {onnx.name = "x"}) -> (tensor<3x2xi32> {onnx.name = "y_abs"}, tensor<3x2xi32> {onnx.name = "y_neg"}, tensor<3x2xi32> {onnx.name = "y_sign"}, tensor<3x2xi32> {onnx.name = "y_relu"}, tensor<3x2xi32> {onnx.name = "y_identity"}) {
// UNARY-I32-NEXT: %[[V0:.*]] = ge.abs %arg0 : tensor<3x2xi32>
// UNARY-I32-NEXT: %[[V1:.*]] = ge.neg %arg0 : tensor<3x2xi32>
// UNARY-I32-NEXT: %[[V2:.*]] = ge.sign %arg0 : tensor<3x2xi32>
// UNARY-I32-NEXT: %[[V3:.*]] = ge.relu %arg0 : tensor<3x2xi32>
// UNARY-I32-NEXT: %[[V4:.*]] = ge.identity %arg0 : tensor<3x2xi32>
// UNARY-I32-NEXT: return %[[V0]], %[[V1]], %[[V2]], %[[V3]], %[[V4]] : tensor<3x2xi32>, tensor<3x2xi32>, tensor<3x2xi32>, tensor<3x2xi32>, tensor<3x2xi32>

// Not is bool-only.
// RUN: %python %S/Inputs/elementwise_models.py not %t.not.onnx && ge-import-onnx %t.not.onnx | FileCheck %s --check-prefix=NOT
// NOT-LABEL: func.func @main(%arg0: tensor<2x2xi1> {onnx.name = "x"}) -> (tensor<2x2xi1> {onnx.name = "y"}) {
// NOT-NEXT: %[[V0:.*]] = ge.not %arg0 : tensor<2x2xi1>
// NOT-NEXT: return %[[V0]] : tensor<2x2xi1>

// Broadcasting binary ops.
// RUN: %python %S/Inputs/elementwise_models.py binary_arith %t.binary_arith.onnx && ge-import-onnx %t.binary_arith.onnx | FileCheck %s --check-prefix=BINARY-ARITH
// BINARY-ARITH-LABEL: func.func @main(%arg0: tensor<2x3x4xf32> {onnx.name = "a"}, %arg1: tensor<3x1xf32> {onnx.name = "b"}) -> (tensor<2x3x4xf32> {onnx.name = "y_add"}, tensor<2x3x4xf32> {onnx.name = "y_sub"}, tensor<2x3x4xf32> {onnx.name = "y_mul"}, tensor<2x3x4xf32> {onnx.name = "y_div"}) {
// BINARY-ARITH-NEXT: %[[V0:.*]] = ge.add %arg0, %arg1 : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
// BINARY-ARITH-NEXT: %[[V1:.*]] = ge.sub %arg0, %arg1 : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
// BINARY-ARITH-NEXT: %[[V2:.*]] = ge.mul %arg0, %arg1 : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
// BINARY-ARITH-NEXT: %[[V3:.*]] = ge.div %arg0, %arg1 : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
// BINARY-ARITH-NEXT: return %[[V0]], %[[V1]], %[[V2]], %[[V3]] : tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>

// RUN: %python %S/Inputs/elementwise_models.py binary_int %t.binary_int.onnx && ge-import-onnx %t.binary_int.onnx | FileCheck %s --check-prefix=BINARY-INT
// BINARY-INT-LABEL: func.func @main(%arg0: tensor<4xi64> {onnx.name = "a"}, %arg1: tensor<1xi64> {onnx.name = "b"}) -> (tensor<4xi64> {onnx.name = "y_add"}, tensor<4xi64> {onnx.name = "y_div"}, tensor<4xi64> {onnx.name = "y_mod"}) {
// BINARY-INT-NEXT: %[[V0:.*]] = ge.add %arg0, %arg1 : (tensor<4xi64>, tensor<1xi64>) -> tensor<4xi64>
// BINARY-INT-NEXT: %[[V1:.*]] = ge.div %arg0, %arg1 : (tensor<4xi64>, tensor<1xi64>) -> tensor<4xi64>
// BINARY-INT-NEXT: %[[V2:.*]] = ge.mod %arg0, %arg1 : (tensor<4xi64>, tensor<1xi64>) -> tensor<4xi64>
// BINARY-INT-NEXT: return %[[V0]], %[[V1]], %[[V2]] : tensor<4xi64>, tensor<4xi64>, tensor<4xi64>

// RUN: %python %S/Inputs/elementwise_models.py mod_fmod %t.mod_fmod.onnx && ge-import-onnx %t.mod_fmod.onnx | FileCheck %s --check-prefix=MOD-FMOD
// MOD-FMOD-LABEL: func.func @main(%arg0: tensor<2x3xf32> {onnx.name = "a"}, %arg1: tensor<3xf32> {onnx.name = "b"}) -> (tensor<2x3xf32> {onnx.name = "y"}) {
// MOD-FMOD-NEXT: %[[V0:.*]] = ge.mod %arg0, %arg1 {fmod = true} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// MOD-FMOD-NEXT: return %[[V0]] : tensor<2x3xf32>

// Logical ops on i1 (opset 7).
// RUN: %python %S/Inputs/elementwise_models.py logical %t.logical.onnx && ge-import-onnx %t.logical.onnx | FileCheck %s --check-prefix=LOGICAL
// LOGICAL-LABEL: func.func @main(%arg0: tensor<2x3xi1> {onnx.name = "a"}, %arg1: tensor<1x3xi1> {onnx.name = "b"}) -> (tensor<2x3xi1> {onnx.name = "y_and"}, tensor<2x3xi1> {onnx.name = "y_or"}, tensor<2x3xi1> {onnx.name = "y_xor"}) {
// LOGICAL-NEXT: %[[V0:.*]] = ge.and %arg0, %arg1 : (tensor<2x3xi1>, tensor<1x3xi1>) -> tensor<2x3xi1>
// LOGICAL-NEXT: %[[V1:.*]] = ge.or %arg0, %arg1 : (tensor<2x3xi1>, tensor<1x3xi1>) -> tensor<2x3xi1>
// LOGICAL-NEXT: %[[V2:.*]] = ge.xor %arg0, %arg1 : (tensor<2x3xi1>, tensor<1x3xi1>) -> tensor<2x3xi1>
// LOGICAL-NEXT: return %[[V0]], %[[V1]], %[[V2]] : tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>

// Comparisons give i1; a rank-0 rhs broadcasts.
// RUN: %python %S/Inputs/elementwise_models.py compare %t.compare.onnx && ge-import-onnx %t.compare.onnx | FileCheck %s --check-prefix=COMPARE
// COMPARE-LABEL: func.func @main(%arg0: tensor<2x3xf32> {onnx.name = "a"}, %arg1: tensor<f32> {onnx.name = "b"}) -> (tensor<2x3xi1> {onnx.name = "y_equal"}, tensor<2x3xi1> {onnx.name = "y_less"}, tensor<2x3xi1> {onnx.name = "y_lessorequal"}, tensor<2x3xi1> {onnx.name = "y_greater"}, tensor<2x3xi1> {onnx.name = "y_greaterorequal"}) {
// COMPARE-NEXT: %[[V0:.*]] = ge.equal %arg0, %arg1 : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
// COMPARE-NEXT: %[[V1:.*]] = ge.less %arg0, %arg1 : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
// COMPARE-NEXT: %[[V2:.*]] = ge.less_equal %arg0, %arg1 : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
// COMPARE-NEXT: %[[V3:.*]] = ge.greater %arg0, %arg1 : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
// COMPARE-NEXT: %[[V4:.*]] = ge.greater_equal %arg0, %arg1 : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
// COMPARE-NEXT: return %[[V0]], %[[V1]], %[[V2]], %[[V3]], %[[V4]] : tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>

// RUN: %python %S/Inputs/elementwise_models.py equal_bool %t.equal_bool.onnx && ge-import-onnx %t.equal_bool.onnx | FileCheck %s --check-prefix=EQUAL-BOOL
// EQUAL-BOOL-LABEL: func.func @main(%arg0: tensor<3xi1> {onnx.name = "a"}, %arg1: tensor<3xi1> {onnx.name = "b"}) -> (tensor<3xi1> {onnx.name = "y"}) {
// EQUAL-BOOL-NEXT: %[[V0:.*]] = ge.equal %arg0, %arg1 : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
// EQUAL-BOOL-NEXT: return %[[V0]] : tensor<3xi1>

// Pow: a mixed-type exponent is cast to the base's element type.
// RUN: %python %S/Inputs/elementwise_models.py pow_float %t.pow_float.onnx && ge-import-onnx %t.pow_float.onnx | FileCheck %s --check-prefix=POW-FLOAT
// POW-FLOAT-LABEL: func.func @main(%arg0: tensor<2x3xf32> {onnx.name = "a"}, %arg1: tensor<3xf32> {onnx.name = "b"}) -> (tensor<2x3xf32> {onnx.name = "y"}) {
// POW-FLOAT-NEXT: %[[V0:.*]] = ge.pow %arg0, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// POW-FLOAT-NEXT: return %[[V0]] : tensor<2x3xf32>

// RUN: %python %S/Inputs/elementwise_models.py pow_int_exponent %t.pow_int_exponent.onnx && ge-import-onnx %t.pow_int_exponent.onnx | FileCheck %s --check-prefix=POW-INT-EXPONENT
// POW-INT-EXPONENT-LABEL: func.func @main(%arg0: tensor<2x3xf32> {onnx.name = "a"}) -> (tensor<2x3xf32> {onnx.name = "y"}) {
// POW-INT-EXPONENT-NEXT: %[[C:.*]] = ge.constant dense<2> : tensor<i64>
// POW-INT-EXPONENT-NEXT: %[[V0:.*]] = ge.cast %[[C]] : tensor<i64> to tensor<f32>
// POW-INT-EXPONENT-NEXT: %[[V1:.*]] = ge.pow %arg0, %[[V0]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// POW-INT-EXPONENT-NEXT: return %[[V1]] : tensor<2x3xf32>

// RUN: %python %S/Inputs/elementwise_models.py pow_int_exponent_input %t.pow_int_exponent_input.onnx && ge-import-onnx %t.pow_int_exponent_input.onnx | FileCheck %s --check-prefix=POW-INT-EXPONENT-INPUT
// POW-INT-EXPONENT-INPUT-LABEL: func.func @main(%arg0: tensor<2x3xf32> {onnx.name = "a"}, %arg1: tensor<3xi32> {onnx.name = "e"}) -> (tensor<2x3xf32> {onnx.name = "y"}) {
// POW-INT-EXPONENT-INPUT-NEXT: %[[V0:.*]] = ge.cast %arg1 : tensor<3xi32> to tensor<3xf32>
// POW-INT-EXPONENT-INPUT-NEXT: %[[V1:.*]] = ge.pow %arg0, %[[V0]] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// POW-INT-EXPONENT-INPUT-NEXT: return %[[V1]] : tensor<2x3xf32>

// Variadic Sum/Mean/Max/Min fold into binary ops; Mean divides by the count.
// RUN: %python %S/Inputs/elementwise_models.py variadic %t.variadic.onnx && ge-import-onnx %t.variadic.onnx | FileCheck %s --check-prefix=VARIADIC
// VARIADIC-LABEL: func.func @main(%arg0: tensor<2x3xf32> {onnx.name = "a"}, %arg1: tensor<3xf32> {onnx.name = "b"}, %arg2: tensor<2x1xf32> {onnx.name = "c"}) -> (tensor<2x3xf32> {onnx.name = "y_sum"}, tensor<2x3xf32> {onnx.name = "y_mean"}, tensor<2x3xf32> {onnx.name = "y_max"}, tensor<2x3xf32> {onnx.name = "y_min"}) {
// VARIADIC-NEXT: %[[V0:.*]] = ge.add %arg0, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// VARIADIC-NEXT: %[[V1:.*]] = ge.add %[[V0]], %arg2 : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
// VARIADIC-NEXT: %[[V2:.*]] = ge.add %arg0, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// VARIADIC-NEXT: %[[C:.*]] = ge.constant dense<2.000000e+00> : tensor<f32>
// VARIADIC-NEXT: %[[V3:.*]] = ge.div %[[V2]], %[[C]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// VARIADIC-NEXT: %[[V4:.*]] = ge.max %arg0, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// VARIADIC-NEXT: %[[V5:.*]] = ge.max %[[V4]], %arg2 : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
// VARIADIC-NEXT: %[[V6:.*]] = ge.min %arg0, %arg2 : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
// VARIADIC-NEXT: return %[[V1]], %[[V3]], %[[V5]], %[[V6]] : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>

// A single-input Sum/Max is its input (no op).
// RUN: %python %S/Inputs/elementwise_models.py variadic_single %t.variadic_single.onnx && ge-import-onnx %t.variadic_single.onnx | FileCheck %s --check-prefix=VARIADIC-SINGLE
// VARIADIC-SINGLE-LABEL: func.func @main(%arg0: tensor<2x3xf32> {onnx.name = "a"}) -> (tensor<2x3xf32> {onnx.name = "y"}) {
// VARIADIC-SINGLE-NEXT: %[[V0:.*]] = ge.relu %arg0 : tensor<2x3xf32>
// VARIADIC-SINGLE-NEXT: return %[[V0]] : tensor<2x3xf32>

// RUN: %python %S/Inputs/elementwise_models.py variadic_int %t.variadic_int.onnx && ge-import-onnx %t.variadic_int.onnx | FileCheck %s --check-prefix=VARIADIC-INT
// VARIADIC-INT-LABEL: func.func @main(%arg0: tensor<4xi32> {onnx.name = "a"}, %arg1: tensor<4xi32> {onnx.name = "b"}) -> (tensor<4xi32> {onnx.name = "y_max"}, tensor<4xi32> {onnx.name = "y_min"}) {
// VARIADIC-INT-NEXT: %[[V0:.*]] = ge.max %arg0, %arg1 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
// VARIADIC-INT-NEXT: %[[V1:.*]] = ge.min %arg0, %arg1 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
// VARIADIC-INT-NEXT: return %[[V0]], %[[V1]] : tensor<4xi32>, tensor<4xi32>

// Where broadcasts all three operands.
// RUN: %python %S/Inputs/elementwise_models.py where %t.where.onnx && ge-import-onnx %t.where.onnx | FileCheck %s --check-prefix=WHERE
// WHERE-LABEL: func.func @main(%arg0: tensor<2x1xi1> {onnx.name = "c"}, %arg1: tensor<2x3xf32> {onnx.name = "a"}, %arg2: tensor<3xf32> {onnx.name = "b"}) -> (tensor<2x3xf32> {onnx.name = "y"}) {
// WHERE-NEXT: %[[V0:.*]] = ge.where %arg0, %arg1, %arg2 : (tensor<2x1xi1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// WHERE-NEXT: return %[[V0]] : tensor<2x3xf32>

// Cast; to the same type it is no op.
// RUN: %python %S/Inputs/elementwise_models.py cast %t.cast.onnx && ge-import-onnx %t.cast.onnx | FileCheck %s --check-prefix=CAST
// CAST-LABEL: func.func @main(%arg0: tensor<2x3xf32> {onnx.name = "x"}) -> (tensor<2x3xi32> {onnx.name = "y_i32"}, tensor<2x3xi1> {onnx.name = "y_bool"}, tensor<2x3xf16> {onnx.name = "y_f16"}, tensor<2x3xf32> {onnx.name = "y_same"}) {
// CAST-NEXT: %[[V0:.*]] = ge.cast %arg0 : tensor<2x3xf32> to tensor<2x3xi32>
// CAST-NEXT: %[[V1:.*]] = ge.cast %arg0 : tensor<2x3xf32> to tensor<2x3xi1>
// CAST-NEXT: %[[V2:.*]] = ge.cast %arg0 : tensor<2x3xf32> to tensor<2x3xf16>
// CAST-NEXT: return %[[V0]], %[[V1]], %[[V2]], %arg0 : tensor<2x3xi32>, tensor<2x3xi1>, tensor<2x3xf16>, tensor<2x3xf32>

// float8: a saturating cast (ONNX's default) clips to the type's finite range
// first, as the reference does; ge.cast itself rounds to nearest even.
// RUN: %python %S/Inputs/elementwise_models.py cast_float8 %t.cast_float8.onnx && ge-import-onnx %t.cast_float8.onnx | FileCheck %s --check-prefix=CAST-FLOAT8
// CAST-FLOAT8-LABEL: func.func @main(%arg0: tensor<2xf32> {onnx.name = "x"}) -> (tensor<2xf32> {onnx.name = "y"}) {
// CAST-FLOAT8-NEXT: %[[C:.*]] = ge.clip %arg0 {max = 4.480000e+02 : f64, min = -4.480000e+02 : f64} : tensor<2xf32>
// CAST-FLOAT8-NEXT: %[[Q:.*]] = ge.cast %[[C]] : tensor<2xf32> to tensor<2xf8E4M3FN>
// CAST-FLOAT8-NEXT: %[[Y:.*]] = ge.cast %[[Q]] : tensor<2xf8E4M3FN> to tensor<2xf32>
// CAST-FLOAT8-NEXT: return %[[Y]] : tensor<2xf32>

// saturate=0: no clip (E5M2 overflows to inf).
// RUN: %python %S/Inputs/elementwise_models.py cast_float8_no_saturate %t.cast_float8_ns.onnx && ge-import-onnx %t.cast_float8_ns.onnx | FileCheck %s --check-prefix=CAST-FLOAT8-NS
// CAST-FLOAT8-NS-LABEL: func.func @main(
// CAST-FLOAT8-NS-NEXT: %[[Q:.*]] = ge.cast %arg0 : tensor<2xf32> to tensor<2xf8E5M2>
// CAST-FLOAT8-NS-NEXT: %[[Y:.*]] = ge.cast %[[Q]] : tensor<2xf8E5M2> to tensor<2xf32>
// CAST-FLOAT8-NS-NEXT: return %[[Y]] : tensor<2xf32>

// BitCast keeps the bits: f32 as i32, a bool as its byte.
// RUN: %python %S/Inputs/elementwise_models.py bitcast %t.bitcast.onnx && ge-import-onnx %t.bitcast.onnx | FileCheck %s --check-prefix=BITCAST
// BITCAST-LABEL: func.func @main(%arg0: tensor<2x3xf32> {onnx.name = "x"}, %arg1: tensor<4xi1> {onnx.name = "b"}) -> (tensor<2x3xi32> {onnx.name = "y_i32"}, tensor<4xui8> {onnx.name = "y_u8"}) {
// BITCAST-NEXT: %[[I:.*]] = ge.bitcast %arg0 : tensor<2x3xf32> to tensor<2x3xi32>
// BITCAST-NEXT: %[[U:.*]] = ge.bitcast %arg1 : tensor<4xi1> to tensor<4xui8>
// BITCAST-NEXT: return %[[I]], %[[U]] : tensor<2x3xi32>, tensor<4xui8>

// FLOAT8E8M0 (round_mode "up", saturating): the f32 exponent field from the bits, plus one when a
// fraction is left (not past 254; NaN/inf give 255), as a byte read as f8E8M0FNU.
// RUN: %python %S/Inputs/elementwise_models.py cast_e8m0 %t.cast_e8m0.onnx && ge-import-onnx %t.cast_e8m0.onnx | FileCheck %s --check-prefix=CAST-E8M0
// CAST-E8M0-LABEL: func.func @main(%arg0: tensor<2xf32> {onnx.name = "x"}) -> (tensor<2xf32> {onnx.name = "y"}) {
// CAST-E8M0-NEXT: %[[BITS:.*]] = ge.bitcast %arg0 : tensor<2xf32> to tensor<2xi32>
// CAST-E8M0-NEXT: %[[C23:.*]] = ge.constant dense<23> : tensor<i32>
// CAST-E8M0-NEXT: %[[SH:.*]] = ge.bit_shift %[[BITS]], %[[C23]] {right = true} : (tensor<2xi32>, tensor<i32>) -> tensor<2xi32>
// CAST-E8M0-NEXT: %[[FF:.*]] = ge.constant dense<255> : tensor<i32>
// CAST-E8M0-NEXT: %[[EXP:.*]] = ge.bitwise_and %[[SH]], %[[FF]] : (tensor<2xi32>, tensor<i32>) -> tensor<2xi32>
// CAST-E8M0: %[[CODE:.*]] = ge.where %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2xi1>, tensor<i32>, tensor<2xi32>) -> tensor<2xi32>
// CAST-E8M0-NEXT: %[[BYTE:.*]] = ge.cast %[[CODE]] : tensor<2xi32> to tensor<2xui8>
// CAST-E8M0-NEXT: %[[E8:.*]] = ge.bitcast %[[BYTE]] : tensor<2xui8> to tensor<2xf8E8M0FNU>
// CAST-E8M0-NEXT: %[[Y:.*]] = ge.cast %[[E8]] : tensor<2xf8E8M0FNU> to tensor<2xf32>
// CAST-E8M0-NEXT: return %[[Y]] : tensor<2xf32>

// CastLike takes the element type of its second input.
// RUN: %python %S/Inputs/elementwise_models.py cast_like %t.cast_like.onnx && ge-import-onnx %t.cast_like.onnx | FileCheck %s --check-prefix=CAST-LIKE
// CAST-LIKE-LABEL: func.func @main(%arg0: tensor<3xi64> {onnx.name = "x"}, %arg1: tensor<1xf64> {onnx.name = "t"}) -> (tensor<3xf64> {onnx.name = "y"}, tensor<3xi64> {onnx.name = "y_same"}) {
// CAST-LIKE-NEXT: %[[V0:.*]] = ge.cast %arg0 : tensor<3xi64> to tensor<3xf64>
// CAST-LIKE-NEXT: return %[[V0]], %arg0 : tensor<3xf64>, tensor<3xi64>

// Clip-6: bounds are attributes; an absent bound stays unbounded.
// RUN: %python %S/Inputs/elementwise_models.py clip6 %t.clip6.onnx && ge-import-onnx %t.clip6.onnx | FileCheck %s --check-prefix=CLIP6
// CLIP6-LABEL: func.func @main(%arg0: tensor<2x3xf32> {onnx.name = "x"}) -> (tensor<2x3xf32> {onnx.name = "y"}, tensor<2x3xf32> {onnx.name = "y_min"}) {
// CLIP6-NEXT: %[[V0:.*]] = ge.clip %arg0 {max = 1.000000e+00 : f64, min = -1.000000e+00 : f64} : tensor<2x3xf32>
// CLIP6-NEXT: %[[V1:.*]] = ge.clip %arg0 {min = 0.000000e+00 : f64} : tensor<2x3xf32>
// CLIP6-NEXT: return %[[V0]], %[[V1]] : tensor<2x3xf32>, tensor<2x3xf32>

// Clip-11+: bounds are constant inputs; absent inputs stay unbounded.
// RUN: %python %S/Inputs/elementwise_models.py clip11 %t.clip11.onnx && ge-import-onnx %t.clip11.onnx | FileCheck %s --check-prefix=CLIP11
// CLIP11-LABEL: func.func @main(%arg0: tensor<2x3xf32> {onnx.name = "x"}) -> (tensor<2x3xf32> {onnx.name = "y"}, tensor<2x3xf32> {onnx.name = "y_max"}, tensor<2x3xf32> {onnx.name = "y_none"}) {
// CLIP11-NEXT: %[[V0:.*]] = ge.clip %arg0 {max = 5.000000e-01 : f64, min = -5.000000e-01 : f64} : tensor<2x3xf32>
// CLIP11-NEXT: %[[V1:.*]] = ge.clip %arg0 {max = 5.000000e-01 : f64} : tensor<2x3xf32>
// CLIP11-NEXT: %[[V2:.*]] = ge.clip %arg0 : tensor<2x3xf32>
// CLIP11-NEXT: return %[[V0]], %[[V1]], %[[V2]] : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>

// RUN: %python %S/Inputs/elementwise_models.py clip13_int %t.clip13_int.onnx && ge-import-onnx %t.clip13_int.onnx | FileCheck %s --check-prefix=CLIP13-INT
// CLIP13-INT-LABEL: func.func @main(%arg0: tensor<4xi32> {onnx.name = "x"}) -> (tensor<4xi32> {onnx.name = "y"}) {
// CLIP13-INT-NEXT: %[[V0:.*]] = ge.clip %arg0 {max = 5.000000e+00 : f64, min = -2.000000e+00 : f64} : tensor<4xi32>
// CLIP13-INT-NEXT: return %[[V0]] : tensor<4xi32>

// A run-time bound: ge.max (ge.clip takes attributes).
// RUN: %python %S/Inputs/elementwise_models.py clip_dynamic_bound %t.clip_dynamic_bound.onnx && ge-import-onnx %t.clip_dynamic_bound.onnx | FileCheck %s --check-prefix=CLIP-DYNAMIC-BOUND
// CLIP-DYNAMIC-BOUND-LABEL: func.func @main(%arg0: tensor<2x3xf32> {onnx.name = "x"}, %arg1: tensor<f32> {onnx.name = "lo"}) -> (tensor<2x3xf32> {onnx.name = "y"}) {
// CLIP-DYNAMIC-BOUND-NEXT: %[[V0:.*]] = ge.max %arg0, %arg1 : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// CLIP-DYNAMIC-BOUND-NEXT: return %[[V0]] : tensor<2x3xf32>

// Activations with attributes.
// RUN: %python %S/Inputs/elementwise_models.py leaky_relu %t.leaky_relu.onnx && ge-import-onnx %t.leaky_relu.onnx | FileCheck %s --check-prefix=LEAKY-RELU
// LEAKY-RELU-LABEL: func.func @main(%arg0: tensor<2x3xf32> {onnx.name = "x"}) -> (tensor<2x3xf32> {onnx.name = "y"}) {
// LEAKY-RELU-NEXT: %[[V0:.*]] = ge.leaky_relu %arg0 {alpha = 1.000000e-01 : f32} : tensor<2x3xf32>
// LEAKY-RELU-NEXT: return %[[V0]] : tensor<2x3xf32>

// RUN: %python %S/Inputs/elementwise_models.py hard_sigmoid %t.hard_sigmoid.onnx && ge-import-onnx %t.hard_sigmoid.onnx | FileCheck %s --check-prefix=HARD-SIGMOID
// HARD-SIGMOID-LABEL: func.func @main(%arg0: tensor<2x3xf32> {onnx.name = "x"}) -> (tensor<2x3xf32> {onnx.name = "y"}) {
// HARD-SIGMOID-NEXT: %[[V0:.*]] = ge.hard_sigmoid %arg0 {alpha = 2.500000e-01 : f32, beta = 4.000000e-01 : f32} : tensor<2x3xf32>
// HARD-SIGMOID-NEXT: return %[[V0]] : tensor<2x3xf32>

// Gelu is an ONNX op since opset 20; before that it is unsupported.
// RUN: %python %S/Inputs/elementwise_models.py gelu %t.gelu.onnx && ge-import-onnx %t.gelu.onnx | FileCheck %s --check-prefix=GELU
// GELU-LABEL: func.func @main(%arg0: tensor<2x3xf32> {onnx.name = "x"}) -> (tensor<2x3xf32> {onnx.name = "y"}, tensor<2x3xf32> {onnx.name = "y_tanh"}) {
// GELU-NEXT: %[[V0:.*]] = ge.gelu %arg0 : tensor<2x3xf32>
// GELU-NEXT: %[[V1:.*]] = ge.gelu %arg0 {tanh_approx = true} : tensor<2x3xf32>
// GELU-NEXT: return %[[V0]], %[[V1]] : tensor<2x3xf32>, tensor<2x3xf32>

// RUN: %python %S/Inputs/elementwise_models.py gelu_opset19 %t.gelu_opset19.onnx && not ge-import-onnx %t.gelu_opset19.onnx 2>&1 | FileCheck %s --check-prefix=GELU-OPSET19
// GELU-OPSET19: ge-import-onnx: error: model cannot be imported: 1 unsupported op type(s)/node(s)
// GELU-OPSET19-NEXT: Gelu (opset 19): 1 node(s): 'Gelu_0'

// Dropout is the identity at inference (the mask output: see the pytest).
// RUN: %python %S/Inputs/elementwise_models.py dropout %t.dropout.onnx && ge-import-onnx %t.dropout.onnx | FileCheck %s --check-prefix=DROPOUT
// DROPOUT-LABEL: func.func @main(%arg0: tensor<2x3xf32> {onnx.name = "x"}) -> (tensor<2x3xf32> {onnx.name = "y"}) {
// DROPOUT-NEXT: %[[V0:.*]] = ge.identity %arg0 : tensor<2x3xf32>
// DROPOUT-NEXT: return %[[V0]] : tensor<2x3xf32>

// RUN: %python %S/Inputs/elementwise_models.py dropout_ratio %t.dropout_ratio.onnx && ge-import-onnx %t.dropout_ratio.onnx | FileCheck %s --check-prefix=DROPOUT-RATIO
// DROPOUT-RATIO-LABEL: func.func @main(%arg0: tensor<2x3xf32> {onnx.name = "x"}) -> (tensor<2x3xf32> {onnx.name = "y"}) {
// DROPOUT-RATIO-NEXT: %[[V0:.*]] = ge.identity %arg0 : tensor<2x3xf32>
// DROPOUT-RATIO-NEXT: return %[[V0]] : tensor<2x3xf32>

// Composite activations, built from ge ops.
// RUN: %python %S/Inputs/elementwise_models.py elu %t.elu.onnx && ge-import-onnx %t.elu.onnx | FileCheck %s --check-prefix=ELU
// ELU-LABEL: func.func @main(%arg0: tensor<2x3xf32> {onnx.name = "x"}) -> (tensor<2x3xf32> {onnx.name = "y"}) {
// ELU-NEXT: %[[C:.*]] = ge.constant dense<5.000000e-01> : tensor<f32>
// ELU-NEXT: %[[V0:.*]] = ge.exp %arg0 : tensor<2x3xf32>
// ELU-NEXT: %[[C0:.*]] = ge.constant dense<1.000000e+00> : tensor<f32>
// ELU-NEXT: %[[V1:.*]] = ge.sub %[[V0]], %[[C0]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// ELU-NEXT: %[[V2:.*]] = ge.mul %[[C]], %[[V1]] : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// ELU-NEXT: %[[C1:.*]] = ge.constant dense<0.000000e+00> : tensor<f32>
// ELU-NEXT: %[[V3:.*]] = ge.greater %arg0, %[[C1]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
// ELU-NEXT: %[[V4:.*]] = ge.where %[[V3]], %arg0, %[[V2]] : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// ELU-NEXT: return %[[V4]] : tensor<2x3xf32>

// RUN: %python %S/Inputs/elementwise_models.py selu %t.selu.onnx && ge-import-onnx %t.selu.onnx | FileCheck %s --check-prefix=SELU
// SELU-LABEL: func.func @main(%arg0: tensor<2x3xf32> {onnx.name = "x"}) -> (tensor<2x3xf32> {onnx.name = "y"}) {
// SELU-NEXT: %[[C:.*]] = ge.constant dense<1.67326319> : tensor<f32>
// SELU-NEXT: %[[V0:.*]] = ge.exp %arg0 : tensor<2x3xf32>
// SELU-NEXT: %[[C0:.*]] = ge.constant dense<1.000000e+00> : tensor<f32>
// SELU-NEXT: %[[V1:.*]] = ge.sub %[[V0]], %[[C0]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// SELU-NEXT: %[[V2:.*]] = ge.mul %[[C]], %[[V1]] : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// SELU-NEXT: %[[C1:.*]] = ge.constant dense<1.05070102> : tensor<f32>
// SELU-NEXT: %[[C2:.*]] = ge.constant dense<0.000000e+00> : tensor<f32>
// SELU-NEXT: %[[V3:.*]] = ge.greater %arg0, %[[C2]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
// SELU-NEXT: %[[V4:.*]] = ge.where %[[V3]], %arg0, %[[V2]] : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// SELU-NEXT: %[[V5:.*]] = ge.mul %[[C1]], %[[V4]] : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// SELU-NEXT: return %[[V5]] : tensor<2x3xf32>

// RUN: %python %S/Inputs/elementwise_models.py celu %t.celu.onnx && ge-import-onnx %t.celu.onnx | FileCheck %s --check-prefix=CELU
// CELU-LABEL: func.func @main(%arg0: tensor<2x3xf32> {onnx.name = "x"}) -> (tensor<2x3xf32> {onnx.name = "y"}) {
// CELU-NEXT: %[[C:.*]] = ge.constant dense<2.000000e+00> : tensor<f32>
// CELU-NEXT: %[[V0:.*]] = ge.div %arg0, %[[C]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// CELU-NEXT: %[[V1:.*]] = ge.exp %[[V0]] : tensor<2x3xf32>
// CELU-NEXT: %[[C0:.*]] = ge.constant dense<1.000000e+00> : tensor<f32>
// CELU-NEXT: %[[V2:.*]] = ge.sub %[[V1]], %[[C0]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// CELU-NEXT: %[[V3:.*]] = ge.mul %[[C]], %[[V2]] : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CELU-NEXT: %[[C1:.*]] = ge.constant dense<0.000000e+00> : tensor<f32>
// CELU-NEXT: %[[V4:.*]] = ge.max %arg0, %[[C1]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// CELU-NEXT: %[[C2:.*]] = ge.constant dense<0.000000e+00> : tensor<f32>
// CELU-NEXT: %[[V5:.*]] = ge.min %[[C2]], %[[V3]] : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CELU-NEXT: %[[V6:.*]] = ge.add %[[V4]], %[[V5]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CELU-NEXT: return %[[V6]] : tensor<2x3xf32>

// RUN: %python %S/Inputs/elementwise_models.py thresholded_relu %t.thresholded_relu.onnx && ge-import-onnx %t.thresholded_relu.onnx | FileCheck %s --check-prefix=THRESHOLDED-RELU
// THRESHOLDED-RELU-LABEL: func.func @main(%arg0: tensor<2x3xf32> {onnx.name = "x"}) -> (tensor<2x3xf32> {onnx.name = "y"}) {
// THRESHOLDED-RELU-NEXT: %[[C:.*]] = ge.constant dense<5.000000e-01> : tensor<f32>
// THRESHOLDED-RELU-NEXT: %[[V0:.*]] = ge.greater %arg0, %[[C]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
// THRESHOLDED-RELU-NEXT: %[[C0:.*]] = ge.constant dense<0.000000e+00> : tensor<f32>
// THRESHOLDED-RELU-NEXT: %[[V1:.*]] = ge.where %[[V0]], %arg0, %[[C0]] : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// THRESHOLDED-RELU-NEXT: return %[[V1]] : tensor<2x3xf32>

// RUN: %python %S/Inputs/elementwise_models.py prelu %t.prelu.onnx && ge-import-onnx %t.prelu.onnx | FileCheck %s --check-prefix=PRELU
// PRELU-LABEL: func.func @main(%arg0: tensor<1x3x2x2xf32> {onnx.name = "x"}) -> (tensor<1x3x2x2xf32> {onnx.name = "y"}) {
// PRELU-NEXT: %[[C:.*]] = ge.constant dense<{{\[\[\[}}0.318480849{{.*}}> : tensor<3x1x1xf32>
// PRELU-NEXT: %[[C0:.*]] = ge.constant dense<0.000000e+00> : tensor<f32>
// PRELU-NEXT: %[[V0:.*]] = ge.less %arg0, %[[C0]] : (tensor<1x3x2x2xf32>, tensor<f32>) -> tensor<1x3x2x2xi1>
// PRELU-NEXT: %[[V1:.*]] = ge.mul %arg0, %[[C]] : (tensor<1x3x2x2xf32>, tensor<3x1x1xf32>) -> tensor<1x3x2x2xf32>
// PRELU-NEXT: %[[V2:.*]] = ge.where %[[V0]], %[[V1]], %arg0 : (tensor<1x3x2x2xi1>, tensor<1x3x2x2xf32>, tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
// PRELU-NEXT: return %[[V2]] : tensor<1x3x2x2xf32>

// RUN: %python %S/Inputs/elementwise_models.py softsign %t.softsign.onnx && ge-import-onnx %t.softsign.onnx | FileCheck %s --check-prefix=SOFTSIGN
// SOFTSIGN-LABEL: func.func @main(%arg0: tensor<2x3xf32> {onnx.name = "x"}) -> (tensor<2x3xf32> {onnx.name = "y"}) {
// SOFTSIGN-NEXT: %[[V0:.*]] = ge.abs %arg0 : tensor<2x3xf32>
// SOFTSIGN-NEXT: %[[C:.*]] = ge.constant dense<1.000000e+00> : tensor<f32>
// SOFTSIGN-NEXT: %[[V1:.*]] = ge.add %[[V0]], %[[C]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// SOFTSIGN-NEXT: %[[V2:.*]] = ge.div %arg0, %[[V1]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// SOFTSIGN-NEXT: return %[[V2]] : tensor<2x3xf32>

// RUN: %python %S/Inputs/elementwise_models.py mish %t.mish.onnx && ge-import-onnx %t.mish.onnx | FileCheck %s --check-prefix=MISH
// MISH-LABEL: func.func @main(%arg0: tensor<2x3xf32> {onnx.name = "x"}) -> (tensor<2x3xf32> {onnx.name = "y"}) {
// MISH-NEXT: %[[V0:.*]] = ge.softplus %arg0 : tensor<2x3xf32>
// MISH-NEXT: %[[V1:.*]] = ge.tanh %[[V0]] : tensor<2x3xf32>
// MISH-NEXT: %[[V2:.*]] = ge.mul %arg0, %[[V1]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// MISH-NEXT: return %[[V2]] : tensor<2x3xf32>

// RUN: %python %S/Inputs/elementwise_models.py swish %t.swish.onnx && ge-import-onnx %t.swish.onnx | FileCheck %s --check-prefix=SWISH
// SWISH-LABEL: func.func @main(%arg0: tensor<2x3xf32> {onnx.name = "x"}) -> (tensor<2x3xf32> {onnx.name = "y"}, tensor<2x3xf32> {onnx.name = "y_alpha"}) {
// SWISH-NEXT: %[[V0:.*]] = ge.silu %arg0 : tensor<2x3xf32>
// SWISH-NEXT: %[[C:.*]] = ge.constant dense<2.000000e+00> : tensor<f32>
// SWISH-NEXT: %[[V1:.*]] = ge.mul %arg0, %[[C]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// SWISH-NEXT: %[[V2:.*]] = ge.sigmoid %[[V1]] : tensor<2x3xf32>
// SWISH-NEXT: %[[V3:.*]] = ge.mul %arg0, %[[V2]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// SWISH-NEXT: return %[[V0]], %[[V3]] : tensor<2x3xf32>, tensor<2x3xf32>

// RUN: %python %S/Inputs/elementwise_models.py tan %t.tan.onnx && ge-import-onnx %t.tan.onnx | FileCheck %s --check-prefix=TAN
// TAN-LABEL: func.func @main(%arg0: tensor<2x3xf32> {onnx.name = "x"}) -> (tensor<2x3xf32> {onnx.name = "y"}) {
// TAN-NEXT: %[[V0:.*]] = ge.sin %arg0 : tensor<2x3xf32>
// TAN-NEXT: %[[V1:.*]] = ge.cos %arg0 : tensor<2x3xf32>
// TAN-NEXT: %[[V2:.*]] = ge.div %[[V0]], %[[V1]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// TAN-NEXT: return %[[V2]] : tensor<2x3xf32>

// RUN: %python %S/Inputs/elementwise_models.py sinh_cosh %t.sinh_cosh.onnx && ge-import-onnx %t.sinh_cosh.onnx | FileCheck %s --check-prefix=SINH-COSH
// SINH-COSH-LABEL: func.func @main(%arg0: tensor<2x3xf32> {onnx.name = "x"}) -> (tensor<2x3xf32> {onnx.name = "y_sinh"}, tensor<2x3xf32> {onnx.name = "y_cosh"}) {
// SINH-COSH-NEXT: %[[V0:.*]] = ge.exp %arg0 : tensor<2x3xf32>
// SINH-COSH-NEXT: %[[V1:.*]] = ge.neg %arg0 : tensor<2x3xf32>
// SINH-COSH-NEXT: %[[V2:.*]] = ge.exp %[[V1]] : tensor<2x3xf32>
// SINH-COSH-NEXT: %[[V3:.*]] = ge.sub %[[V0]], %[[V2]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// SINH-COSH-NEXT: %[[C:.*]] = ge.constant dense<5.000000e-01> : tensor<f32>
// SINH-COSH-NEXT: %[[V4:.*]] = ge.mul %[[V3]], %[[C]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// SINH-COSH-NEXT: %[[V5:.*]] = ge.exp %arg0 : tensor<2x3xf32>
// SINH-COSH-NEXT: %[[V6:.*]] = ge.neg %arg0 : tensor<2x3xf32>
// SINH-COSH-NEXT: %[[V7:.*]] = ge.exp %[[V6]] : tensor<2x3xf32>
// SINH-COSH-NEXT: %[[V8:.*]] = ge.add %[[V5]], %[[V7]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// SINH-COSH-NEXT: %[[C0:.*]] = ge.constant dense<5.000000e-01> : tensor<f32>
// SINH-COSH-NEXT: %[[V9:.*]] = ge.mul %[[V8]], %[[C0]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// SINH-COSH-NEXT: return %[[V4]], %[[V9]] : tensor<2x3xf32>, tensor<2x3xf32>

// RUN: %python %S/Inputs/elementwise_models.py shrink %t.shrink.onnx && ge-import-onnx %t.shrink.onnx | FileCheck %s --check-prefix=SHRINK
// SHRINK-LABEL: func.func @main(%arg0: tensor<2x3xf32> {onnx.name = "x"}) -> (tensor<2x3xf32> {onnx.name = "y"}) {
// SHRINK-NEXT: %[[C:.*]] = ge.constant dense<2.500000e-01> : tensor<f32>
// SHRINK-NEXT: %[[V0:.*]] = ge.add %arg0, %[[C]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// SHRINK-NEXT: %[[C0:.*]] = ge.constant dense<2.500000e-01> : tensor<f32>
// SHRINK-NEXT: %[[V1:.*]] = ge.sub %arg0, %[[C0]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// SHRINK-NEXT: %[[C1:.*]] = ge.constant dense<1.000000e+00> : tensor<f32>
// SHRINK-NEXT: %[[V2:.*]] = ge.greater %arg0, %[[C1]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
// SHRINK-NEXT: %[[C2:.*]] = ge.constant dense<0.000000e+00> : tensor<f32>
// SHRINK-NEXT: %[[V3:.*]] = ge.where %[[V2]], %[[V1]], %[[C2]] : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// SHRINK-NEXT: %[[C3:.*]] = ge.constant dense<-1.000000e+00> : tensor<f32>
// SHRINK-NEXT: %[[V4:.*]] = ge.less %arg0, %[[C3]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
// SHRINK-NEXT: %[[V5:.*]] = ge.where %[[V4]], %[[V0]], %[[V3]] : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// SHRINK-NEXT: return %[[V5]] : tensor<2x3xf32>

// RUN: %python %S/Inputs/elementwise_models.py shrink_int %t.shrink_int.onnx && ge-import-onnx %t.shrink_int.onnx | FileCheck %s --check-prefix=SHRINK-INT
// SHRINK-INT-LABEL: func.func @main(%arg0: tensor<5xi8> {onnx.name = "x"}) -> (tensor<5xi8> {onnx.name = "y"}) {
// SHRINK-INT-NEXT: %[[C:.*]] = ge.constant dense<1> : tensor<i8>
// SHRINK-INT-NEXT: %[[V0:.*]] = ge.add %arg0, %[[C]] : (tensor<5xi8>, tensor<i8>) -> tensor<5xi8>
// SHRINK-INT-NEXT: %[[C0:.*]] = ge.constant dense<1> : tensor<i8>
// SHRINK-INT-NEXT: %[[V1:.*]] = ge.sub %arg0, %[[C0]] : (tensor<5xi8>, tensor<i8>) -> tensor<5xi8>
// SHRINK-INT-NEXT: %[[C1:.*]] = ge.constant dense<1> : tensor<i8>
// SHRINK-INT-NEXT: %[[V2:.*]] = ge.greater %arg0, %[[C1]] : (tensor<5xi8>, tensor<i8>) -> tensor<5xi1>
// SHRINK-INT-NEXT: %[[C2:.*]] = ge.constant dense<0> : tensor<i8>
// SHRINK-INT-NEXT: %[[V3:.*]] = ge.where %[[V2]], %[[V1]], %[[C2]] : (tensor<5xi1>, tensor<5xi8>, tensor<i8>) -> tensor<5xi8>
// SHRINK-INT-NEXT: %[[C3:.*]] = ge.constant dense<-1> : tensor<i8>
// SHRINK-INT-NEXT: %[[V4:.*]] = ge.less %arg0, %[[C3]] : (tensor<5xi8>, tensor<i8>) -> tensor<5xi1>
// SHRINK-INT-NEXT: %[[V5:.*]] = ge.where %[[V4]], %[[V0]], %[[V3]] : (tensor<5xi1>, tensor<5xi8>, tensor<5xi8>) -> tensor<5xi8>
// SHRINK-INT-NEXT: return %[[V5]] : tensor<5xi8>

// RUN: %python %S/Inputs/elementwise_models.py isnan %t.isnan.onnx && ge-import-onnx %t.isnan.onnx | FileCheck %s --check-prefix=ISNAN
// ISNAN-LABEL: func.func @main(%arg0: tensor<2x3xf32> {onnx.name = "x"}) -> (tensor<2x3xi1> {onnx.name = "y"}) {
// ISNAN-NEXT: %[[V0:.*]] = ge.equal %arg0, %arg0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// ISNAN-NEXT: %[[V1:.*]] = ge.not %[[V0]] : tensor<2x3xi1>
// ISNAN-NEXT: return %[[V1]] : tensor<2x3xi1>

// RUN: %python %S/Inputs/elementwise_models.py isinf %t.isinf.onnx && ge-import-onnx %t.isinf.onnx | FileCheck %s --check-prefix=ISINF
// ISINF-LABEL: func.func @main(%arg0: tensor<2x3xf32> {onnx.name = "x"}) -> (tensor<2x3xi1> {onnx.name = "y"}, tensor<2x3xi1> {onnx.name = "y_pos"}, tensor<2x3xi1> {onnx.name = "y_neg"}) {
// ISINF-NEXT: %[[V0:.*]] = ge.abs %arg0 : tensor<2x3xf32>
// ISINF-NEXT: %[[C:.*]] = ge.constant dense<0x7F800000> : tensor<f32>
// ISINF-NEXT: %[[V1:.*]] = ge.equal %[[V0]], %[[C]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
// ISINF-NEXT: %[[C0:.*]] = ge.constant dense<0x7F800000> : tensor<f32>
// ISINF-NEXT: %[[V2:.*]] = ge.equal %arg0, %[[C0]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
// ISINF-NEXT: %[[C2:.*]] = ge.constant dense<0xFF800000> : tensor<f32>
// ISINF-NEXT: %[[V3:.*]] = ge.equal %arg0, %[[C2]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
// ISINF-NEXT: return %[[V1]], %[[V2]], %[[V3]] : tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>

// com.microsoft::Relu6 is not an onnxruntime op: refused with its domain.
// RUN: %python %S/Inputs/elementwise_models.py relu6_ms %t.relu6_ms.onnx && not ge-import-onnx %t.relu6_ms.onnx 2>&1 | FileCheck %s --check-prefix=RELU6-MS
// RELU6-MS: com.microsoft::Relu6 (opset {{[0-9]+}}): 1 node(s)
