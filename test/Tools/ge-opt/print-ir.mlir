// RUN: ge-opt %S/Inputs/graph.mlir --pass-pipeline='builtin.module(ge-verify-graph, ge-canonicalize, func.func(cse))' --mlir-print-ir-after-all -o /dev/null 2>&1 | FileCheck %s --check-prefix=AFTER
// RUN: ge-opt %S/Inputs/graph.mlir --ge-canonicalize --mlir-print-ir-before-all -o /dev/null 2>&1 | FileCheck %s --check-prefix=BEFORE
// RUN: ge-opt %S/Inputs/graph.mlir --ge-canonicalize --cse --mlir-timing -o /dev/null 2>&1 | FileCheck %s --check-prefix=TIMING
// RUN: ge-opt %S/Inputs/graph.mlir --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: ge-opt %S/Inputs/graph.mlir --mlir-print-debuginfo | FileCheck %s --check-prefix=DEBUG
// RUN: ge-opt %S/Inputs/graph.mlir --ge-verify-graph --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS
// RUN: rm -rf %t.tree
// RUN: ge-opt %S/Inputs/graph.mlir --ge-canonicalize --cse --mlir-print-ir-tree-dir=%t.tree -o /dev/null
// RUN: %python -c "import pathlib,sys; [print(p.relative_to(sys.argv[1])) for p in sorted(pathlib.Path(sys.argv[1]).rglob('*.mlir'))]" %t.tree | FileCheck %s --check-prefix=TREE

// AFTER: // -----// IR Dump After GeVerifyGraphPass (ge-verify-graph) ('builtin.module' operation) //----- //
// AFTER: ge.identity
// AFTER: // -----// IR Dump After GeCanonicalizePass (ge-canonicalize) ('builtin.module' operation) //----- //
// AFTER-NOT: ge.identity
// AFTER: // -----// IR Dump After CSE (cse) ('func.func' operation: @graph) //----- //

// BEFORE: // -----// IR Dump Before GeCanonicalizePass (ge-canonicalize) ('builtin.module' operation) //----- //
// BEFORE: ge.identity

// TIMING: Execution time report
// TIMING: GeCanonicalizePass
// TIMING: CSE

// GENERIC: "ge.add"(%{{.*}}, %{{.*}}) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// GENERIC: "ge.relu"

// DEBUG: ge.add {{.*}} loc(#[[LOC:.*]])
// DEBUG: #[[LOC]] = loc("{{.*}}graph.mlir":2:8)

// STATS: ge-verify-graph: problems=0

// TREE: builtin_module_no-symbol-name/0_ge-canonicalize.mlir
// TREE: builtin_module_no-symbol-name/1_cse.mlir
