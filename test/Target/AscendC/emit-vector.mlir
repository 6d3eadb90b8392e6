// RUN: ge-translate --ascendc-to-cpp %s | FileCheck %s

// Level-2 vector ops, one API call each; scalars as typed constants with exact literals.
ascendc.kernel @vec_0 kind(<vector>) blocks(1) {
^bb0(%x: !ascendc.gm<f32>):
  %n = arith.constant 64 : index
  %p = ascendc.pipe : !ascendc.pipe
  %b = ascendc.tbuf %p bytes(2048) : !ascendc.tbuf<veccalc>
  %hb = ascendc.tbuf %p bytes(256) : !ascendc.tbuf<veccalc>
  %mb = ascendc.tbuf %p bytes(32) : !ascendc.tbuf<veccalc>
  %a = ascendc.tbuf_get %b : !ascendc.tbuf<veccalc> -> !ascendc.local<f32, 512, veccalc>
  %h = ascendc.tbuf_get %hb : !ascendc.tbuf<veccalc> -> !ascendc.local<f16, 128, veccalc>
  %m = ascendc.tbuf_get %mb : !ascendc.tbuf<veccalc> -> !ascendc.local<ui8, 32, veccalc>
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c192 = arith.constant 192 : index
  %a1 = ascendc.local_slice %a[%c64] : !ascendc.local<f32, 512, veccalc> -> !ascendc.local<f32, 64, veccalc>
  %a2 = ascendc.local_slice %a[%c128] : !ascendc.local<f32, 512, veccalc> -> !ascendc.local<f32, 64, veccalc>
  %a3 = ascendc.local_slice %a[%c192] : !ascendc.local<f32, 512, veccalc> -> !ascendc.local<f32, 64, veccalc>
  ascendc.vbinary <add> %a, %a1, %a2, %n : !ascendc.local<f32, 512, veccalc>, !ascendc.local<f32, 64, veccalc>, !ascendc.local<f32, 64, veccalc>
  ascendc.vbinary <sub> %a, %a1, %a2, %n : !ascendc.local<f32, 512, veccalc>, !ascendc.local<f32, 64, veccalc>, !ascendc.local<f32, 64, veccalc>
  ascendc.vbinary <div> %a, %a1, %a2, %n : !ascendc.local<f32, 512, veccalc>, !ascendc.local<f32, 64, veccalc>, !ascendc.local<f32, 64, veccalc>
  ascendc.vbinary <max> %a, %a1, %a2, %n : !ascendc.local<f32, 512, veccalc>, !ascendc.local<f32, 64, veccalc>, !ascendc.local<f32, 64, veccalc>
  %s = arith.constant 0.1 : f32
  %hs = arith.constant -2.5 : f16
  ascendc.vscalar <adds> %a, %a1, %s, %n : !ascendc.local<f32, 512, veccalc>, !ascendc.local<f32, 64, veccalc>, f32
  ascendc.vscalar <leaky_relu> %a, %a1, %s, %n : !ascendc.local<f32, 512, veccalc>, !ascendc.local<f32, 64, veccalc>, f32
  ascendc.vscalar <muls> %h, %h, %hs, %n : !ascendc.local<f16, 128, veccalc>, !ascendc.local<f16, 128, veccalc>, f16
  ascendc.vunary <exp> %a, %a1, %n : !ascendc.local<f32, 512, veccalc>, !ascendc.local<f32, 64, veccalc>
  ascendc.vunary <rsqrt> %a, %a1, %n : !ascendc.local<f32, 512, veccalc>, !ascendc.local<f32, 64, veccalc>
  ascendc.duplicate %a3, %s, %n : !ascendc.local<f32, 64, veccalc>, f32
  ascendc.axpy %a, %a1, %s, %n : !ascendc.local<f32, 512, veccalc>, !ascendc.local<f32, 64, veccalc>, f32
  ascendc.cast %h, %a, <rint>, %n : !ascendc.local<f16, 128, veccalc>, !ascendc.local<f32, 512, veccalc>
  ascendc.cast %a, %h, <none>, %n : !ascendc.local<f32, 512, veccalc>, !ascendc.local<f16, 128, veccalc>
  ascendc.compare <le> %m, %a1, %a2, %n : !ascendc.local<ui8, 32, veccalc>, !ascendc.local<f32, 64, veccalc>, !ascendc.local<f32, 64, veccalc>
  ascendc.select <tensor_tensor> %a3, %m, %a1, %a2, %n : !ascendc.local<f32, 64, veccalc>, !ascendc.local<ui8, 32, veccalc>, !ascendc.local<f32, 64, veccalc>, !ascendc.local<f32, 64, veccalc>
  ascendc.reduce <sum> %a, %a1, %a2, %n : !ascendc.local<f32, 512, veccalc>, !ascendc.local<f32, 64, veccalc>, !ascendc.local<f32, 64, veccalc>
  ascendc.reduce <max> %a, %a1, %a2, %n : !ascendc.local<f32, 512, veccalc>, !ascendc.local<f32, 64, veccalc>, !ascendc.local<f32, 64, veccalc>
  %c0 = arith.constant 0 : index
  %v = ascendc.get_value %a[%c0] : !ascendc.local<f32, 512, veccalc> -> f32
  ascendc.set_value %a3[%c0], %v : !ascendc.local<f32, 64, veccalc>, f32
}

// CHECK-LABEL: // ----- file: vec_0.cpp
// CHECK:        AscendC::LocalTensor<uint8_t> calcLocal2 = calcBuf2.Get<uint8_t>();
// CHECK-NEXT:   AscendC::Add(calcLocal0, calcLocal0[64], calcLocal0[128], 64);
// CHECK-NEXT:   AscendC::Sub(calcLocal0, calcLocal0[64], calcLocal0[128], 64);
// CHECK-NEXT:   AscendC::Div(calcLocal0, calcLocal0[64], calcLocal0[128], 64);
// CHECK-NEXT:   AscendC::Max(calcLocal0, calcLocal0[64], calcLocal0[128], 64);
// CHECK-NEXT:   const float cst0 = 0.100000001f;
// CHECK-NEXT:   const half cst1 = half(-2.5f);
// CHECK-NEXT:   AscendC::Adds(calcLocal0, calcLocal0[64], cst0, 64);
// CHECK-NEXT:   AscendC::LeakyRelu(calcLocal0, calcLocal0[64], cst0, 64);
// CHECK-NEXT:   AscendC::Muls(calcLocal1, calcLocal1, cst1, 64);
// CHECK-NEXT:   AscendC::Exp(calcLocal0, calcLocal0[64], 64);
// CHECK-NEXT:   AscendC::Rsqrt(calcLocal0, calcLocal0[64], 64);
// CHECK-NEXT:   AscendC::Duplicate(calcLocal0[192], cst0, 64);
// CHECK-NEXT:   AscendC::Axpy(calcLocal0, calcLocal0[64], cst0, 64);
// CHECK-NEXT:   AscendC::Cast(calcLocal1, calcLocal0, AscendC::RoundMode::CAST_RINT, 64);
// CHECK-NEXT:   AscendC::Cast(calcLocal0, calcLocal1, AscendC::RoundMode::CAST_NONE, 64);
// CHECK-NEXT:   AscendC::Compare(calcLocal2, calcLocal0[64], calcLocal0[128], AscendC::CMPMODE::LE, 64);
// CHECK-NEXT:   AscendC::Select(calcLocal0[192], calcLocal2, calcLocal0[64], calcLocal0[128],
// CHECK-NEXT:                   AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE, 64);
// CHECK-NEXT:   AscendC::ReduceSum(calcLocal0, calcLocal0[64], calcLocal0[128], 64);
// CHECK-NEXT:   AscendC::ReduceMax(calcLocal0, calcLocal0[64], calcLocal0[128], 64);
// CHECK-NEXT:   const float val0 = calcLocal0.GetValue(0);
// CHECK-NEXT:   calcLocal0[192].SetValue(0, val0);
// CHECK-NEXT: }
