func.func @graph(%x: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = ge.add %x, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = ge.identity %0 : tensor<2x3xf32>
  %2 = ge.relu %1 : tensor<2x3xf32>
  return %2 : tensor<2x3xf32>
}
