// RUN: ge-opt %s --split-input-file --verify-diagnostics

// A vector op on a cube position (L1).
ascendc.kernel @k kind(<vector>) blocks(1) {
^bb0(%x: !ascendc.gm<f32>):
  %c64 = arith.constant 64 : index
  %p = ascendc.pipe : !ascendc.pipe
  %q = ascendc.queue %p num(1) bytes(256) : !ascendc.que<a1, 1>
  %v = ascendc.queue %p num(1) bytes(256) : !ascendc.que<vecout, 1>
  %t = ascendc.alloc_tensor %q : !ascendc.que<a1, 1> -> !ascendc.local<f32, 64, a1>
  %o = ascendc.alloc_tensor %v : !ascendc.que<vecout, 1> -> !ascendc.local<f32, 64, vecout>
  // expected-error @+1 {{'ascendc.vbinary' op operand 'lhs' is at position a1 (L1); vector ops need vecin, vecout or veccalc (UB)}}
  ascendc.vbinary <add> %o, %t, %t, %c64 : !ascendc.local<f32, 64, vecout>, !ascendc.local<f32, 64, a1>, !ascendc.local<f32, 64, a1>
}

// -----

// DataCopy of 12 f32 = 48 bytes.
ascendc.kernel @k kind(<vector>) blocks(1) {
^bb0(%x: !ascendc.gm<f32>):
  %c0 = arith.constant 0 : index
  %c12 = arith.constant 12 : index
  %p = ascendc.pipe : !ascendc.pipe
  %q = ascendc.queue %p num(1) bytes(256) : !ascendc.que<vecin, 1>
  %t = ascendc.alloc_tensor %q : !ascendc.que<vecin, 1> -> !ascendc.local<f32, 64, vecin>
  // expected-error @+1 {{'ascendc.copy_gm_to_local' op moves 12 x 4 = 48 bytes, not a multiple of 32 (DataCopy rounds it down; use the copy_pad form for ragged sizes)}}
  ascendc.copy_gm_to_local %t, %x[%c0], %c12 : !ascendc.local<f32, 64, vecin>, !ascendc.gm<f32>
}

// -----

// UB overflow: 2 x 100 KiB of queues on a 192 KiB unified buffer.
// expected-error @+1 {{'ascendc.kernel' op buffers need 204800 bytes of UB, more than the 196608 bytes of Ascend910B1}}
ascendc.kernel @k kind(<vector>) blocks(1) {
^bb0(%x: !ascendc.gm<f32>):
  %p = ascendc.pipe : !ascendc.pipe
  %q = ascendc.queue %p num(2) bytes(102400) : !ascendc.que<vecin, 2>
}

// -----

// The target of the module decides the capacity (a 310P-class UB of 256 KiB fits).
module attributes {ascendc.target = #ascendc.target<soc = "Ascend310P3", arch = "dav-2002", ub = 262144, l1 = 1048576, l0a = 65536, l0b = 65536, l0c = 262144, aic = 8, aiv = 0>} {
  ascendc.kernel @k kind(<vector>) blocks(1) {
  ^bb0(%x: !ascendc.gm<f32>):
    %p = ascendc.pipe : !ascendc.pipe
    %q = ascendc.queue %p num(2) bytes(102400) : !ascendc.que<vecin, 2>
  }
}

// -----

// Mmad operands at the wrong positions.
ascendc.kernel @k kind(<cube>) blocks(1) {
^bb0(%x: !ascendc.gm<f16>):
  %true = arith.constant true
  %p = ascendc.pipe : !ascendc.pipe
  %qa = ascendc.queue %p num(1) bytes(512) : !ascendc.que<a1, 1>
  %qb = ascendc.queue %p num(1) bytes(512) : !ascendc.que<b2, 1>
  %qc = ascendc.queue %p num(1) bytes(1024) : !ascendc.que<co1, 1>
  %a = ascendc.alloc_tensor %qa : !ascendc.que<a1, 1> -> !ascendc.local<f16, 256, a1>
  %b = ascendc.alloc_tensor %qb : !ascendc.que<b2, 1> -> !ascendc.local<f16, 256, b2>
  %c = ascendc.alloc_tensor %qc : !ascendc.que<co1, 1> -> !ascendc.local<f32, 256, co1>
  %c16 = arith.constant 16 : index
  // expected-error @+1 {{'ascendc.mmad' op operand 'a' is at position a1 (L1); expected a2}}
  ascendc.mmad %c, %a, %b, %true m(%c16) n(%c16) k(%c16) : !ascendc.local<f32, 256, co1>, !ascendc.local<f16, 256, a1>, !ascendc.local<f16, 256, b2>
}

// -----

ascendc.kernel @k kind(<vector>) blocks(1) {
^bb0(%x: !ascendc.gm<f32>):
  %p = ascendc.pipe : !ascendc.pipe
  %q = ascendc.queue %p num(1) bytes(128) : !ascendc.que<vecin, 1>
  // expected-error @+1 {{'ascendc.alloc_tensor' op tensor of 256 bytes does not fit the queue's 128-byte buffers}}
  %t = ascendc.alloc_tensor %q : !ascendc.que<vecin, 1> -> !ascendc.local<f32, 64, vecin>
}

// -----

ascendc.kernel @k kind(<vector>) blocks(1) {
^bb0(%x: !ascendc.gm<f32>):
  %c4 = arith.constant 4 : index
  %p = ascendc.pipe : !ascendc.pipe
  %q = ascendc.queue %p num(1) bytes(256) : !ascendc.que<vecin, 1>
  %t = ascendc.alloc_tensor %q : !ascendc.que<vecin, 1> -> !ascendc.local<f32, 64, vecin>
  // expected-error @+1 {{'ascendc.local_slice' op offset of 16 bytes breaks the 32-byte alignment of UB}}
  %s = ascendc.local_slice %t[%c4] : !ascendc.local<f32, 64, vecin> -> !ascendc.local<f32, 8, vecin>
}

// -----

ascendc.kernel @k kind(<vector>) blocks(1) {
^bb0(%x: !ascendc.gm<f32>):
  // expected-error @+1 {{'ascendc.tiling_get' op kernel 'k' has no tiling field 'total'}}
  %n = ascendc.tiling_get "total" : index
}

// -----

ascendc.kernel @k kind(<vector>) blocks(1) {
^bb0(%x: !ascendc.gm<f32>):
}
ascendc.host @graph inputs(1) bytes([64, 64]) {
^bb0(%a: !ascendc.gm<f32>, %b: !ascendc.gm<f32>):
  // expected-error @+1 {{'ascendc.launch' op kernel @k takes 1 arguments, got 2}}
  ascendc.launch @k(%a, %b) : !ascendc.gm<f32>, !ascendc.gm<f32>
}

// -----

// expected-error @+1 {{'ascendc.kernel' op argument #0 must be a global tensor (!ascendc.gm<T>), got 'index'}}
ascendc.kernel @k kind(<vector>) blocks(1) {
^bb0(%x: index):
}

// -----

ascendc.kernel @k kind(<vector>) blocks(1) {
^bb0(%x: !ascendc.gm<f32>):
  // expected-error @+1 {{'ascendc.set_flag' op event id must be in [0, 7] (EVENT_ID0..7), got 9}}
  ascendc.set_flag <mte2_v>, 9
}

// -----

// expected-error @+1 {{position gm is global memory, not a local buffer}}
func.func private @f(!ascendc.local<f32, 8, gm>)
