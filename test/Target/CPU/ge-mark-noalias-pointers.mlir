// RUN: ge-opt %s --pass-pipeline='builtin.module(ge-mark-noalias-pointers)' | FileCheck %s

// The recorded aligned pointers get llvm.noalias, other argument attributes stay, the
// bookkeeping attributes go.
// CHECK-LABEL: llvm.func @__ge_kernel_0(
// CHECK-SAME: %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: i64, %{{.*}}: i64 {llvm.zeroext}, %{{.*}}: i64, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64)
// CHECK-NOT: ge.noalias_pointers
// CHECK-NOT: ge.expanded_args
// CHECK-SAME: {
llvm.func @__ge_kernel_0(%a0: !llvm.ptr, %a1: !llvm.ptr, %a2: i64, %a3: i64 {llvm.zeroext}, %a4: i64, %b0: !llvm.ptr, %b1: !llvm.ptr, %b2: i64, %b3: i64, %b4: i64) attributes {ge.noalias_pointers = array<i64: 1, 6>, ge.expanded_args = 10 : i64} {
  llvm.return
}

// A signature that does not match the record (another calling convention) is left unmarked.
// CHECK-LABEL: llvm.func @__ge_kernel_1(
// CHECK-SAME: %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64)
// CHECK-NOT: llvm.noalias
// CHECK: llvm.return
llvm.func @__ge_kernel_1(%a0: !llvm.ptr, %a1: !llvm.ptr, %a2: i64) attributes {ge.noalias_pointers = array<i64: 1>, ge.expanded_args = 5 : i64} {
  llvm.return
}
