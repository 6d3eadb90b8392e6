// RUN: ge-opt --list-passes | FileCheck %s
// RUN: ge-opt --help | FileCheck %s --check-prefix=HELP
// RUN: ge-opt --version | FileCheck %s --check-prefix=VERSION

// CHECK: ge passes
// CHECK: stage after-import:
// CHECK: --ge-verify-graph - Check that a module is a well-formed ge graph
// CHECK-NEXT: allowed-dialects=<list>
// CHECK-NEXT: require-static-shapes=<bool>
// CHECK: --ge-canonicalize - Fold ge ops
// CHECK-NEXT: max-iterations=<int> (default 10)
// CHECK-NEXT: cse=<bool> (default True)

// HELP: usage: ge-opt
// HELP: --pass-pipeline
// HELP: --verify-diagnostics
// HELP: --mlir-print-ir-after-all
// HELP: --list-passes
// HELP: ge passes
// HELP: --ge-canonicalize - Fold ge ops

// VERSION: ge-opt 0.1.0, native 0.1.0 (LLVM 22.1.8)
