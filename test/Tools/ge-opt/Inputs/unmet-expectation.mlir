func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{this error is never produced}}
  %0 = ge.relu %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
