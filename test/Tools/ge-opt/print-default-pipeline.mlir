// The default optimization pipeline is assembled from the pass registry:
// stage order then priority, lowering excluded, verification only on request.
// RUN: ge-opt --print-default-pipeline | FileCheck %s
// RUN: ge-opt --print-default-pipeline=cpu | FileCheck %s
// RUN: ge-opt --print-default-pipeline=ascendc | FileCheck %s
// RUN: ge-opt --print-default-pipeline --config %S/Inputs/default-pipeline-config.json | FileCheck %s --check-prefix=CONFIG
// (test/python/config/test_native.py checks that ge-opt --pass-pipeline accepts the printed text.)
// RUN: not ge-opt --print-default-pipeline=gpu 2>&1 | FileCheck %s --check-prefix=BADTARGET

// CHECK-NOT: ge-verify-graph
// CHECK-NOT: ge-lower-to-linalg
// CHECK: builtin.module(
// CHECK-SAME: ge-canonicalize
// CHECK-SAME: ge-fuse-
// CHECK-SAME: )
// CHECK-NOT: ge-lower-to-linalg

// CONFIG: builtin.module(ge-verify-graph,
// CONFIG-SAME: ge-canonicalize{cse=false}
// CONFIG-NOT: ge-fuse-
// CONFIG-NOT: ge-lower-to-linalg

// BADTARGET: ge-opt: error: unknown target 'gpu' (targets: cpu, ascendc)
