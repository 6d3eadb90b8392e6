// ge-compile --dump-graph writes the graph of the chosen stages (docs/graphs.md): here DOT, JSON
// and ONNX of stages ge and optimized, where the relu is fused into the conv (a cluster) and the
// constant filter is folded into the conv's label. Bad stages and formats are usage errors.
// RUN: rm -rf %t
// RUN: ge-compile %s --compile-to optimized --no-progress --dump-graph %t --dump-format dot,json,onnx | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=GE --input-file=%t/block-1/01_ge.dot
// RUN: FileCheck %s --check-prefix=OPT --input-file=%t/block-1/02_optimized.dot
// RUN: FileCheck %s --check-prefix=JSON --input-file=%t/block-1/02_optimized.json
// RUN: not ge-compile %s --dump-graph %t --dump-stages source 2>&1 | FileCheck %s --check-prefix=STAGE
// RUN: not ge-compile %s --dump-graph %t --dump-format png 2>&1 | FileCheck %s --check-prefix=FORMAT

// OUT: graph dump: 6 file(s) in {{.*}}block-1

// GE: n0 [label="image\n1x3x8x8 f32", shape=ellipse
// GE: [label="conv2d\nconv1 [Conv]\npads=1,1,1,1\nfilter: 4x3x3x3 f32 = 0.5"
// GE: [label="relu\nrelu1 [Relu]"
// GE: [label="out\n1x4x8x8 f32", shape=ellipse

// OPT: subgraph "cluster_[[CONV:n[0-9]+]]" {
// OPT-NEXT: label="fused: conv2d + relu"
// OPT-NEXT: [[CONV]] [label="conv2d\nconv1 [Conv]\npads=1,1,1,1\nfilter: 4x3x3x3 f32 = 0.5"
// OPT-NEXT: [[CONV]]_relu [label="relu"
// OPT-NEXT: [[CONV]] -> [[CONV]]_relu [style=dashed];
// OPT: [[CONV]]_relu -> {{n[0-9]+}} [label="1x4x8x8 f32"];

// JSON: "schema": "ge-mlir-graph/1"
// JSON: "stage": "optimized"

// STAGE: --dump-stages: unknown stage(s) source for target cpu
// FORMAT: unknown dump format(s) png (formats: dot, svg, json, onnx)

func.func @block(%x: tensor<1x3x8x8xf32> {onnx.name = "image"}) -> (tensor<1x4x8x8xf32> {onnx.name = "out"}) {
  %w = ge.constant dense<0.5> : tensor<4x3x3x3xf32> loc(fused<"Conv">["conv1"])
  %c = ge.conv2d %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32> loc(fused<"Conv">["conv1"])
  %r = ge.relu %c : tensor<1x4x8x8xf32> loc(fused<"Relu">["relu1"])
  return %r : tensor<1x4x8x8xf32>
}
