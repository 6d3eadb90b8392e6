// RUN: ge-translate --ascendc-to-cpp %s | FileCheck %s

// DataCopy GM<->UB and UB->UB (offset 0 drops the index), DataCopyPad for ragged counts in both
// directions, with the count in bytes of the element type.
ascendc.kernel @copy_0 kind(<vector>) blocks(1) attributes {arg_names = ["src", "dst"]} {
^bb0(%src: !ascendc.gm<f16>, %dst: !ascendc.gm<f16>):
  %c0 = arith.constant 0 : index
  %c13 = arith.constant 13 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %p = ascendc.pipe : !ascendc.pipe
  %q = ascendc.queue %p num(1) bytes(256) : !ascendc.que<vecin, 1>
  %b = ascendc.tbuf %p bytes(256) : !ascendc.tbuf<veccalc>
  %t = ascendc.alloc_tensor %q : !ascendc.que<vecin, 1> -> !ascendc.local<f16, 128, vecin>
  %w = ascendc.tbuf_get %b : !ascendc.tbuf<veccalc> -> !ascendc.local<f16, 128, veccalc>
  ascendc.copy_gm_to_local %t, %src[%c0], %c128 : !ascendc.local<f16, 128, vecin>, !ascendc.gm<f16>
  ascendc.copy_gm_to_local %t, %src[%c64], %c64 : !ascendc.local<f16, 128, vecin>, !ascendc.gm<f16>
  ascendc.copy_pad_gm_to_local %t, %src[%c128], %c13 : !ascendc.local<f16, 128, vecin>, !ascendc.gm<f16>
  ascendc.copy_local %w, %t, %c64 : !ascendc.local<f16, 128, veccalc>, !ascendc.local<f16, 128, vecin>
  ascendc.copy_local_to_gm %dst[%c64], %w, %c64 : !ascendc.gm<f16>, !ascendc.local<f16, 128, veccalc>
  ascendc.copy_pad_local_to_gm %dst[%c0], %w, %c13 : !ascendc.gm<f16>, !ascendc.local<f16, 128, veccalc>
  ascendc.free_tensor %q, %t : !ascendc.que<vecin, 1>, !ascendc.local<f16, 128, vecin>
}

// CHECK-LABEL: // ----- file: copy_0.cpp
// CHECK:        AscendC::LocalTensor<half> calcLocal0 = calcBuf0.Get<half>();
// CHECK-NEXT:   AscendC::DataCopy(inLocal0, srcGm, 128);
// CHECK-NEXT:   AscendC::DataCopy(inLocal0, srcGm[64], 64);
// CHECK-NEXT:   AscendC::DataCopyPad(inLocal0, srcGm[128],
// CHECK-NEXT:                        AscendC::DataCopyExtParams{1, static_cast<uint32_t>(13 * sizeof(half)), 0, 0, 0},
// CHECK-NEXT:                        AscendC::DataCopyPadExtParams<half>{false, 0, 0, 0});
// CHECK-NEXT:   AscendC::DataCopy(calcLocal0, inLocal0, 64);
// CHECK-NEXT:   AscendC::DataCopy(dstGm[64], calcLocal0, 64);
// CHECK-NEXT:   AscendC::DataCopyPad(dstGm, calcLocal0,
// CHECK-NEXT:                        AscendC::DataCopyExtParams{1, static_cast<uint32_t>(13 * sizeof(half)), 0, 0, 0});
// CHECK-NEXT:   inQueue0.FreeTensor(inLocal0);
// CHECK-NEXT: }
