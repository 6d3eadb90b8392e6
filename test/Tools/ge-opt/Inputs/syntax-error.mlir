func.func @f( {
  this is not mlir
