"""ge -> ascendc lowerings, one module per op family (used by ``ge-lower-to-ascendc``).

* :mod:`.common` -- the lowering state (global-memory buffers, kernel
  launches) and the ``@lowering`` registry;
* :mod:`.chain` -- fused chains of elementwise ops, one vector kernel each;
* :mod:`.elementwise` -- batch_norm, where, cast, and the contractions' epilogue;
* :mod:`.contraction` -- matmul, gemm and convolutions on the cube (im2col for conv2d);
* :mod:`.rows` -- softmax, layer/RMS norm, reductions, global pools;
* :mod:`.window` -- max/avg pooling and depthwise convolution on channel vectors;
* :mod:`.data_movement` -- transposes, trans_data, split, concat, slice, expand, tile, gather,
  resize, pad;
* :mod:`.driver` -- lowers one function op by op (aliases, chains, the registered lowerings);
* :mod:`.host_op` -- the ``ascendc.host`` op that launches the kernels, and the sharing of
  identical kernels.
"""
