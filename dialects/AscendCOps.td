//===- AscendCOps.td - ascendc dialect operations ----------*- tablegen -*-===//
//
// One op per Ascend C API call (classic TPipe/TQue framework, level-2 count
// forms). Counts and offsets are `index` values; when they are constants the
// verifiers check the documented static rules (32-byte DataCopy, buffer
// bounds); the kernel verifier checks on-chip capacity.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDC_OPS_TD
#define ASCENDC_OPS_TD

include "AscendCBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class AscendC_Op<string mnemonic, list<Trait> traits = []>
    : Op<AscendC_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Kernels, tiling, host program
//===----------------------------------------------------------------------===//

def AscendC_KernelOp : AscendC_Op<"kernel", [Symbol, IsolatedFromAbove, SingleBlock,
                                            NoTerminator]> {
  let summary = "a kernel entry: `extern \"C\" __global__ __aicore__ void name(GM_ADDR ...)`";
  let description = [{
    The entry block's arguments are the kernel's global-memory parameters
    (`!ascendc.gm<T>`), emitted as `GM_ADDR` parameters and wrapped in a
    `GlobalTensor<T>` each. `tiling` holds the tiling struct's fields (i64
    values computed for the shapes at compile time); the emitter declares the
    struct in the tiling header, the host fills it, and the kernel reads it
    with `GET_TILING_DATA` (`ascendc.tiling_get`). `block_dim` is the number
    of AI cores the host launches the kernel on.

    ```mlir
    ascendc.kernel @add_0 kind(<vector>) blocks(8) tiling({total = 4096 : i64}) {
    ^bb0(%x: !ascendc.gm<f32>, %y: !ascendc.gm<f32>):
      ...
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, AscendC_KernelKindAttr:$kind,
                       I64Attr:$block_dim, OptionalAttr<DictionaryAttr>:$tiling);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $sym_name `kind` `(` $kind `)` `blocks` `(` $block_dim `)` (`tiling` `(` $tiling^ `)`)?
    attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// On-chip bytes the kernel's queues and buffers take, per memory
    /// ("UB", "L1", "L0A", "L0B", "L0C", "BT"), with the documented alignment.
    ::llvm::SmallVector<std::pair<::llvm::StringRef, int64_t>> getBufferUsage();
  }];
}

def AscendC_TilingGetOp : AscendC_Op<"tiling_get", [Pure]> {
  let summary = "a field of the kernel's tiling struct (`tilingData.field`)";
  let arguments = (ins StrAttr:$field);
  let results = (outs Index:$value);
  let assemblyFormat = "$field attr-dict `:` type($value)";
  let hasVerifier = 1;
}

def AscendC_HostOp : AscendC_Op<"host", [Symbol, IsolatedFromAbove, SingleBlock, NoTerminator]> {
  let summary = "the host program of a compiled graph";
  let description = [{
    Entry block arguments are the graph's inputs then outputs: global memory
    of `arg_bytes[i]` bytes that the host program fills from (inputs) and
    copies back to (outputs) the caller's host buffers. Inside: `gm_alloc`
    (intermediate buffers), `gm_constant` (weights, shipped in the project's
    constant blob) and `launch` in schedule order.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, I64Attr:$num_inputs,
                       DenseI64ArrayAttr:$arg_bytes);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $sym_name `inputs` `(` $num_inputs `)` `bytes` `(` $arg_bytes `)` attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
}

def AscendC_GmAllocOp : AscendC_Op<"gm_alloc"> {
  let summary = "a global-memory buffer (aclrtMalloc on NPU, GmAlloc on the CPU shim)";
  let arguments = (ins I64Attr:$bytes);
  let results = (outs AscendC_AnyGlobal:$buffer);
  let assemblyFormat = "`bytes` `(` $bytes `)` attr-dict `:` type($buffer)";
}

def AscendC_GmConstantOp : AscendC_Op<"gm_constant"> {
  let summary = "a global-memory buffer initialized with `value` (from the project's constant blob)";
  let arguments = (ins ElementsAttr:$value);
  let results = (outs AscendC_AnyGlobal:$buffer);
  let assemblyFormat = "$value attr-dict `:` type($buffer)";
  let hasVerifier = 1;
}

def AscendC_LaunchOp : AscendC_Op<"launch"> {
  let summary = "launch a kernel on its `block_dim` cores: `k<<<blocks, nullptr, stream>>>(...)`";
  let arguments = (ins FlatSymbolRefAttr:$kernel, Variadic<AscendC_AnyGlobal>:$args);
  let assemblyFormat = "$kernel `(` $args `)` attr-dict `:` type($args)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// System
//===----------------------------------------------------------------------===//

def AscendC_BlockIdxOp : AscendC_Op<"block_idx", [Pure]> {
  let summary = "GetBlockIdx(): index of the core running this block";
  let results = (outs Index:$value);
  let assemblyFormat = "attr-dict `:` type($value)";
}

def AscendC_BlockNumOp : AscendC_Op<"block_num", [Pure]> {
  let summary = "GetBlockNum(): number of cores the kernel was launched on";
  let results = (outs Index:$value);
  let assemblyFormat = "attr-dict `:` type($value)";
}

//===----------------------------------------------------------------------===//
// TPipe, TQue, TBuf
//===----------------------------------------------------------------------===//

def AscendC_PipeOp : AscendC_Op<"pipe"> {
  let summary = "TPipe pipe;";
  let results = (outs AscendC_PipeType:$pipe);
  let assemblyFormat = "attr-dict `:` type($pipe)";
}

def AscendC_QueueOp : AscendC_Op<"queue"> {
  let summary = "TQue<pos, depth> q; pipe.InitBuffer(q, num, bytes);";
  let arguments = (ins AscendC_PipeType:$pipe, I64Attr:$num, I64Attr:$bytes);
  let results = (outs AscendC_QueueType:$queue);
  let assemblyFormat = "$pipe `num` `(` $num `)` `bytes` `(` $bytes `)` attr-dict `:` type($queue)";
  let hasVerifier = 1;
}

def AscendC_TBufOp : AscendC_Op<"tbuf"> {
  let summary = "TBuf<pos> b; pipe.InitBuffer(b, bytes);";
  let arguments = (ins AscendC_PipeType:$pipe, I64Attr:$bytes);
  let results = (outs AscendC_TBufType:$buf);
  let assemblyFormat = "$pipe `bytes` `(` $bytes `)` attr-dict `:` type($buf)";
  let hasVerifier = 1;
}

def AscendC_AllocTensorOp : AscendC_Op<"alloc_tensor"> {
  let summary = "q.AllocTensor<T>()";
  let arguments = (ins AscendC_QueueType:$queue);
  let results = (outs AscendC_AnyLocal:$tensor);
  let assemblyFormat = "$queue attr-dict `:` type($queue) `->` type($tensor)";
  let hasVerifier = 1;
}

def AscendC_EnQueOp : AscendC_Op<"enque"> {
  let summary = "q.EnQue(t): hand a tensor to the consumer pipe";
  let arguments = (ins AscendC_QueueType:$queue, AscendC_AnyLocal:$tensor);
  let assemblyFormat = "$queue `,` $tensor attr-dict `:` type($queue) `,` type($tensor)";
  let hasVerifier = 1;
}

def AscendC_DeQueOp : AscendC_Op<"deque"> {
  let summary = "q.DeQue<T>(): wait for the producer pipe";
  let arguments = (ins AscendC_QueueType:$queue);
  let results = (outs AscendC_AnyLocal:$tensor);
  let assemblyFormat = "$queue attr-dict `:` type($queue) `->` type($tensor)";
  let hasVerifier = 1;
}

def AscendC_FreeTensorOp : AscendC_Op<"free_tensor"> {
  let summary = "q.FreeTensor(t)";
  let arguments = (ins AscendC_QueueType:$queue, AscendC_AnyLocal:$tensor);
  let assemblyFormat = "$queue `,` $tensor attr-dict `:` type($queue) `,` type($tensor)";
  let hasVerifier = 1;
}

def AscendC_TBufGetOp : AscendC_Op<"tbuf_get"> {
  let summary = "b.Get<T>()";
  let arguments = (ins AscendC_TBufType:$buf);
  let results = (outs AscendC_AnyLocal:$tensor);
  let assemblyFormat = "$buf attr-dict `:` type($buf) `->` type($tensor)";
  let hasVerifier = 1;
}

def AscendC_LocalSliceOp : AscendC_Op<"local_slice", [Pure]> {
  let summary = "t[offset]: the tensor starting `offset` elements in";
  let arguments = (ins AscendC_AnyLocal:$source, Index:$offset);
  let results = (outs AscendC_AnyLocal:$result);
  let assemblyFormat = "$source `[` $offset `]` attr-dict `:` type($source) `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

def AscendC_CopyGmToLocalOp : AscendC_Op<"copy_gm_to_local"> {
  let summary = "DataCopy(dst, src[offset], count): GM -> UB/L1 (MTE2), count * sizeof(T) % 32 == 0";
  let arguments = (ins AscendC_AnyLocal:$dst, AscendC_AnyGlobal:$src, Index:$offset, Index:$count);
  let assemblyFormat = "$dst `,` $src `[` $offset `]` `,` $count attr-dict `:` type($dst) `,` type($src)";
  let hasVerifier = 1;
}

def AscendC_CopyLocalToGmOp : AscendC_Op<"copy_local_to_gm"> {
  let summary = "DataCopy(dst[offset], src, count): UB -> GM (MTE3), count * sizeof(T) % 32 == 0";
  let arguments = (ins AscendC_AnyGlobal:$dst, Index:$offset, AscendC_AnyLocal:$src, Index:$count);
  let assemblyFormat = "$dst `[` $offset `]` `,` $src `,` $count attr-dict `:` type($dst) `,` type($src)";
  let hasVerifier = 1;
}

def AscendC_CopyPadGmToLocalOp : AscendC_Op<"copy_pad_gm_to_local"> {
  let summary = "DataCopyPad(dst, src[offset], {1, count * sizeof(T), 0, 0, 0}, {false, 0, 0, 0}): ragged GM -> UB";
  let arguments = (ins AscendC_AnyLocal:$dst, AscendC_AnyGlobal:$src, Index:$offset, Index:$count);
  let assemblyFormat = "$dst `,` $src `[` $offset `]` `,` $count attr-dict `:` type($dst) `,` type($src)";
  let hasVerifier = 1;
}

def AscendC_CopyPadLocalToGmOp : AscendC_Op<"copy_pad_local_to_gm"> {
  let summary = "DataCopyPad(dst[offset], src, {1, count * sizeof(T), 0, 0, 0}): ragged UB -> GM";
  let arguments = (ins AscendC_AnyGlobal:$dst, Index:$offset, AscendC_AnyLocal:$src, Index:$count);
  let assemblyFormat = "$dst `[` $offset `]` `,` $src `,` $count attr-dict `:` type($dst) `,` type($src)";
  let hasVerifier = 1;
}

def AscendC_CopyLocalOp : AscendC_Op<"copy_local"> {
  let summary = "DataCopy(dst, src, count): UB -> UB";
  let arguments = (ins AscendC_AnyLocal:$dst, AscendC_AnyLocal:$src, Index:$count);
  let assemblyFormat = "$dst `,` $src `,` $count attr-dict `:` type($dst) `,` type($src)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Vector unit (level-2 count forms; operands in VECIN/VECOUT/VECCALC)
//===----------------------------------------------------------------------===//

def AscendC_VBinaryOp : AscendC_Op<"vbinary"> {
  let summary = "Add/Sub/Mul/Div/Max/Min/And/Or(dst, src0, src1, count)";
  let arguments = (ins AscendC_BinaryKindAttr:$kind, AscendC_AnyLocal:$dst, AscendC_AnyLocal:$lhs,
                       AscendC_AnyLocal:$rhs, Index:$count);
  let assemblyFormat = [{
    $kind $dst `,` $lhs `,` $rhs `,` $count attr-dict `:` type($dst) `,` type($lhs) `,` type($rhs)
  }];
  let hasVerifier = 1;
}

def AscendC_VScalarOp : AscendC_Op<"vscalar"> {
  let summary = "Adds/Muls/Maxs/Mins/LeakyRelu(dst, src, scalar, count)";
  let arguments = (ins AscendC_ScalarKindAttr:$kind, AscendC_AnyLocal:$dst, AscendC_AnyLocal:$src,
                       AnyFloat:$scalar, Index:$count);
  let assemblyFormat = [{
    $kind $dst `,` $src `,` $scalar `,` $count attr-dict `:` type($dst) `,` type($src) `,` type($scalar)
  }];
  let hasVerifier = 1;
}

def AscendC_VUnaryOp : AscendC_Op<"vunary"> {
  let summary = "Exp/Ln/Abs/Sqrt/Rsqrt/Reciprocal/Relu/Not(dst, src, count)";
  let arguments = (ins AscendC_UnaryKindAttr:$kind, AscendC_AnyLocal:$dst, AscendC_AnyLocal:$src,
                       Index:$count);
  let assemblyFormat = "$kind $dst `,` $src `,` $count attr-dict `:` type($dst) `,` type($src)";
  let hasVerifier = 1;
}

def AscendC_DuplicateOp : AscendC_Op<"duplicate"> {
  let summary = "Duplicate(dst, scalar, count)";
  let arguments = (ins AscendC_AnyLocal:$dst, AnyFloat:$scalar, Index:$count);
  let assemblyFormat = "$dst `,` $scalar `,` $count attr-dict `:` type($dst) `,` type($scalar)";
  let hasVerifier = 1;
}

def AscendC_CastOp : AscendC_Op<"cast"> {
  let summary = "Cast(dst, src, round, count)";
  let arguments = (ins AscendC_AnyLocal:$dst, AscendC_AnyLocal:$src, AscendC_RoundModeAttr:$round,
                       Index:$count);
  let assemblyFormat = "$dst `,` $src `,` $round `,` $count attr-dict `:` type($dst) `,` type($src)";
  let hasVerifier = 1;
}

def AscendC_CompareOp : AscendC_Op<"compare"> {
  let summary = "Compare(dstMask, src0, src1, cmp, count): one bit per element in a uint8 mask";
  let arguments = (ins AscendC_CmpModeAttr:$cmp, AscendC_AnyLocal:$dst, AscendC_AnyLocal:$lhs,
                       AscendC_AnyLocal:$rhs, Index:$count);
  let assemblyFormat = [{
    $cmp $dst `,` $lhs `,` $rhs `,` $count attr-dict `:` type($dst) `,` type($lhs) `,` type($rhs)
  }];
  let hasVerifier = 1;
}

def AscendC_SelectOp : AscendC_Op<"select"> {
  let summary = "Select(dst, mask, src0, src1, sel, count)";
  let arguments = (ins AscendC_SelModeAttr:$sel, AscendC_AnyLocal:$dst, AscendC_AnyLocal:$mask,
                       AscendC_AnyLocal:$lhs, AscendC_AnyLocal:$rhs, Index:$count);
  let assemblyFormat = [{
    $sel $dst `,` $mask `,` $lhs `,` $rhs `,` $count attr-dict `:` type($dst) `,` type($mask) `,`
    type($lhs) `,` type($rhs)
  }];
  let hasVerifier = 1;
}

def AscendC_ReduceOp : AscendC_Op<"reduce"> {
  let summary = "ReduceSum/ReduceMax/ReduceMin(dst, src, sharedTmpBuffer, count): the result in dst[0]";
  let arguments = (ins AscendC_ReduceKindAttr:$kind, AscendC_AnyLocal:$dst, AscendC_AnyLocal:$src,
                       AscendC_AnyLocal:$tmp, Index:$count);
  let assemblyFormat = [{
    $kind $dst `,` $src `,` $tmp `,` $count attr-dict `:` type($dst) `,` type($src) `,` type($tmp)
  }];
  let hasVerifier = 1;
}

def AscendC_AxpyOp : AscendC_Op<"axpy"> {
  let summary = "Axpy(dst, src, scalar, count): dst += scalar * src";
  let arguments = (ins AscendC_AnyLocal:$dst, AscendC_AnyLocal:$src, AnyFloat:$scalar, Index:$count);
  let assemblyFormat = "$dst `,` $src `,` $scalar `,` $count attr-dict `:` type($dst) `,` type($src) `,` type($scalar)";
  let hasVerifier = 1;
}

def AscendC_GetValueOp : AscendC_Op<"get_value"> {
  let summary = "t.GetValue(index) (scalar pipe)";
  let arguments = (ins AscendC_AnyLocal:$tensor, Index:$index);
  let results = (outs AnyType:$value);
  let assemblyFormat = "$tensor `[` $index `]` attr-dict `:` type($tensor) `->` type($value)";
  let hasVerifier = 1;
}

def AscendC_SetValueOp : AscendC_Op<"set_value"> {
  let summary = "t.SetValue(index, value) (scalar pipe)";
  let arguments = (ins AscendC_AnyLocal:$tensor, Index:$index, AnyType:$value);
  let assemblyFormat = "$tensor `[` $index `]` `,` $value attr-dict `:` type($tensor) `,` type($value)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Cube unit
//===----------------------------------------------------------------------===//

def AscendC_CopyNd2NzOp : AscendC_Op<"copy_nd2nz"> {
  let summary = "DataCopy(dst, src[offset], Nd2NzParams{...}): GM (ND) -> L1 (Nz fractal)";
  let description = [{
    Copies an `n_value` x `d_value` block whose GM rows are `src_d_value`
    elements apart into L1 as Nz fractals (column blocks of C0 = 32 B /
    sizeof(T) elements, each `dst_nz_c0_stride` rows tall). `n_value` and
    `d_value` are operands so that ragged edge tiles reuse one loop body.
  }];
  let arguments = (ins AscendC_AnyLocal:$dst, AscendC_AnyGlobal:$src, Index:$offset,
                       Index:$n_value, Index:$d_value,
                       DefaultValuedAttr<I64Attr, "1">:$nd_num,
                       DefaultValuedAttr<I64Attr, "0">:$src_nd_matrix_stride,
                       I64Attr:$src_d_value, I64Attr:$dst_nz_c0_stride,
                       DefaultValuedAttr<I64Attr, "1">:$dst_nz_n_stride,
                       DefaultValuedAttr<I64Attr, "0">:$dst_nz_matrix_stride);
  let assemblyFormat = [{
    $dst `,` $src `[` $offset `]` `rows` `(` $n_value `)` `cols` `(` $d_value `)` attr-dict
    `:` type($dst) `,` type($src)
  }];
  let hasVerifier = 1;
}

def AscendC_LoadData2DOp : AscendC_Op<"load_data_2d"> {
  let summary = "LoadData(dst, src, LoadData2DParams{...}): L1 -> L0A/L0B, 512-byte fractals";
  let description = [{
    Copies `repeat_times` fractals, the first at fractal index `start_index`
    of `src`, the next ones `src_stride` fractals apart, into consecutive
    fractals of `dst` (`dst_gap` fractals between them). The counts are
    operands so that ragged edge tiles reuse one loop body.
  }];
  let arguments = (ins AscendC_AnyLocal:$dst, AscendC_AnyLocal:$src, Index:$start_index,
                       Index:$repeat_times, Index:$src_stride,
                       DefaultValuedAttr<I64Attr, "0">:$dst_gap,
                       DefaultValuedAttr<BoolAttr, "false">:$if_transpose);
  let assemblyFormat = [{
    $dst `,` $src `start` `(` $start_index `)` `repeat` `(` $repeat_times `)` `stride` `(` $src_stride `)`
    attr-dict `:` type($dst) `,` type($src)
  }];
  let hasVerifier = 1;
}

def AscendC_MmadOp : AscendC_Op<"mmad"> {
  let summary = "Mmad(c, a, b, MmadParams{m, n, k, ..., cmatrixInitVal = init}): c (+)= a x b";
  let description = [{
    `init` true overwrites `c`, false accumulates (a K loop). `m`, `n`, `k`
    are operands so that ragged edge tiles reuse one loop body; the
    verifier checks them against the operands when they are constants.
  }];
  let arguments = (ins AscendC_AnyLocal:$c, AscendC_AnyLocal:$a, AscendC_AnyLocal:$b, I1:$init,
                       Index:$m, Index:$n, Index:$k);
  let assemblyFormat = [{
    $c `,` $a `,` $b `,` $init `m` `(` $m `)` `n` `(` $n `)` `k` `(` $k `)` attr-dict
    `:` type($c) `,` type($a) `,` type($b)
  }];
  let hasVerifier = 1;
}

def AscendC_FixpipeOp : AscendC_Op<"fixpipe"> {
  let summary = "Fixpipe(dst[offset], src, FixpipeParamsV220{...}): L0C (Nz) -> GM (ND)";
  let arguments = (ins AscendC_AnyGlobal:$dst, Index:$offset, AscendC_AnyLocal:$src,
                       Index:$m_size, Index:$n_size, Index:$src_stride, I64Attr:$dst_stride,
                       DefaultValuedAttr<BoolAttr, "false">:$relu);
  let assemblyFormat = [{
    $dst `[` $offset `]` `,` $src `rows` `(` $m_size `)` `cols` `(` $n_size `)`
    `src_stride` `(` $src_stride `)` attr-dict
    `:` type($dst) `,` type($src)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Explicit synchronization
//===----------------------------------------------------------------------===//

def AscendC_SetFlagOp : AscendC_Op<"set_flag"> {
  let summary = "SetFlag<HardEvent::X>(id)";
  let arguments = (ins AscendC_EventAttr:$event, I64Attr:$id);
  let assemblyFormat = "$event `,` $id attr-dict";
  let hasVerifier = 1;
}

def AscendC_WaitFlagOp : AscendC_Op<"wait_flag"> {
  let summary = "WaitFlag<HardEvent::X>(id)";
  let arguments = (ins AscendC_EventAttr:$event, I64Attr:$id);
  let assemblyFormat = "$event `,` $id attr-dict";
  let hasVerifier = 1;
}

def AscendC_PipeBarrierOp : AscendC_Op<"pipe_barrier"> {
  let summary = "PipeBarrier<PIPE_X>()";
  let arguments = (ins AscendC_PipeAttr:$pipe);
  let assemblyFormat = "$pipe attr-dict";
}

def AscendC_SyncAllOp : AscendC_Op<"sync_all"> {
  let summary = "SyncAll(): all cores of the launch meet";
  let assemblyFormat = "attr-dict";
}

#endif // ASCENDC_OPS_TD
