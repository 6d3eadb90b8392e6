// Bad input of every kind: exit code 1 and a clear message, never a crash
// (`not` fails on a crash/signal, so each RUN line also asserts no abort).
// RUN: not ge-opt %S/Inputs/syntax-error.mlir 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not ge-opt %S/Inputs/unknown-op.mlir 2>&1 | FileCheck %s --check-prefix=UNKNOWN-OP
// RUN: not ge-opt %S/Inputs/graph.mlir -p 'builtin.module(no-such-pass)' 2>&1 | FileCheck %s --check-prefix=NO-PASS
// RUN: not ge-opt %S/Inputs/graph.mlir -p 'ge-canonicalise' 2>&1 | FileCheck %s --check-prefix=TYPO
// RUN: not ge-opt %S/Inputs/graph.mlir -p 'ge-canonicalize{cse=perhaps}' 2>&1 | FileCheck %s --check-prefix=BAD-VALUE
// RUN: not ge-opt %S/Inputs/graph.mlir -p 'ge-canonicalize{nonsense=1}' 2>&1 | FileCheck %s --check-prefix=BAD-OPTION
// RUN: not ge-opt %S/Inputs/graph.mlir -p 'canonicalize{nonsense=1}' 2>&1 | FileCheck %s --check-prefix=UPSTREAM-OPTION
// RUN: not ge-opt %S/Inputs/graph.mlir -p 'func.func(ge-canonicalize)' 2>&1 | FileCheck %s --check-prefix=NESTED
// RUN: not ge-opt %S/Inputs/graph.mlir -p 'builtin.module(cse' 2>&1 | FileCheck %s --check-prefix=UNBALANCED
// RUN: not ge-opt %S/Inputs/does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not ge-opt --no-such-flag %S/Inputs/graph.mlir 2>&1 | FileCheck %s --check-prefix=FLAG
// RUN: not ge-opt --verify-diagnostics %S/Inputs/unmet-expectation.mlir 2>&1 | FileCheck %s --check-prefix=UNMET
// RUN: not ge-opt %S/Inputs/graph.mlir -p 'func.func(convert-func-to-llvm)' 2>&1 | FileCheck %s --check-prefix=WRONG-NESTING

// SYNTAX: syntax-error.mlir:{{[0-9]+}}:{{[0-9]+}}: error:
// UNKNOWN-OP: unknown-op.mlir:2:8: error: custom op 'ge.frobnicate' is unknown
// NO-PASS: ge-opt: error: invalid pipeline element 'no-such-pass': {{.*}}'no-such-pass' does not refer to a registered pass or pass pipeline
// TYPO: ge-opt: error: unknown ge pass 'ge-canonicalise'; did you mean 'ge-canonicalize'?
// BAD-VALUE: ge-opt: error: invalid value 'perhaps' for option 'cse' of pass 'ge-canonicalize' (expected bool)
// BAD-OPTION: ge-opt: error: pass 'ge-canonicalize' has no option 'nonsense'
// UPSTREAM-OPTION: ge-opt: error: invalid pipeline element 'canonicalize{nonsense=1}'
// NESTED: ge-opt: error: ge pass 'ge-canonicalize' is nested in 'func.func': ge passes are module passes
// UNBALANCED: ge-opt: error: unbalanced brackets or quotes in pipeline
// MISSING: ge-opt: error: cannot read input file
// FLAG: ge-opt: error: invalid pipeline element 'no-such-flag'{{.*}}does not refer to a registered pass
// UNMET: error: {{.*}}unmet-expectation.mlir:2: expected error "this error is never produced" was not produced
// WRONG-NESTING: error:
