"""Kernel templates of the ge -> ascendc lowering, one module per family.

Each template builds one ``ascendc.kernel`` with ``KernelBuilder`` (:mod:`..kernel_builder`).
Templates follow the canonical Ascend C structure: a TPipe, double-buffered VECIN/VECOUT
queues, tiles sized to the unified buffer, blocks (AI cores) taking tiles round-robin by
``GetBlockIdx()``, ``DataCopyPad`` for ragged tails and rows. Every size that depends on the
shapes is a tiling field (``ascendc.tiling_get``), so the host passes them in the kernel's
tiling struct.

* :mod:`.elementwise` -- a fused chain of elementwise ops (a ``Program``, :mod:`..program`) over a
  flat tensor, or over rows when an operand broadcasts along rows or columns;
* :mod:`.cube` -- ``C[b] = A[b] x B[b]`` on the cube (Nd2Nz into L1, LoadData into L0A/L0B,
  Mmad over K tiles in L0C, Fixpipe to GM), and im2col, the B^T of a convolution as a matmul;
* :mod:`.rows` -- softmax, layer/RMS norm and row/column reductions, with the long-row variants
  for rows longer than the unified buffer;
* :mod:`.layout` -- transposes: row copies (last axis kept) or through the unified buffer
  (last two axes swapped);
* :mod:`.window` -- pooling and depthwise convolution of NHWC images on channel vectors;
* :mod:`.bands` -- the bands of input rows that im2col and the window kernels stage;
* :mod:`.cast` -- ``Cast``;
* :mod:`.copy` -- strided row copies, gathers, ``Select`` with a compile-time mask, fills.
"""
