// DataCopy / DataCopyPad between GM and local buffers (MTE2 in, MTE3 out), UB->UB, and GM->L1 ND->Nz.
#pragma once

#include "ge_shim/tensor.h"

namespace AscendC {

constexpr uint16_t DEFAULT_DATA_COPY_NBURST = 1;

// blockLen and the gaps are in 32-byte DataBlocks (§1.3).
struct DataCopyParams {
  uint16_t blockCount = DEFAULT_DATA_COPY_NBURST;
  uint16_t blockLen = 0;
  union {
    uint16_t srcGap = 0;
    uint16_t srcStride;
  };
  union {
    uint16_t dstGap = 0;
    uint16_t dstStride;
  };
  constexpr DataCopyParams() = default;
  constexpr DataCopyParams(const uint16_t count, const uint16_t len, const uint16_t srcStrideIn, const uint16_t dstStrideIn)
      : blockCount(count), blockLen(len), srcGap(srcStrideIn), dstGap(dstStrideIn) {}
};

// DataCopyPad units (§1.3): blockLen bytes; GM-side stride in bytes; UB-side stride in 32-byte blocks.
// The doc lists the stride type as "int64_t/uint32_t": we take uint32_t. Constructor order = field order (our choice).
struct DataCopyExtParams {
  uint16_t blockCount = DEFAULT_DATA_COPY_NBURST;
  uint32_t blockLen = 0;
  uint32_t srcStride = 0;
  uint32_t dstStride = 0;
  uint32_t rsv = 0;
  DataCopyExtParams() = default;
  constexpr DataCopyExtParams(const uint16_t count, const uint32_t len, const uint32_t srcStrideIn, const uint32_t dstStrideIn,
                    const uint32_t rsvIn = 0)
      : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn), rsv(rsvIn) {}
};

// Field names are ours (the doc gives only the constructor).
template <typename T>
struct DataCopyPadExtParams {
  bool isPad = false;
  uint8_t leftPadding = 0;
  uint8_t rightPadding = 0;
  T paddingValue = T(0);
  DataCopyPadExtParams() = default;
  constexpr DataCopyPadExtParams(const bool isPadIn, const uint8_t leftPad, const uint8_t rightPad, T padValue)
      : isPad(isPadIn), leftPadding(leftPad), rightPadding(rightPad), paddingValue(padValue) {}
};

// Not described in ASCENDC_API.md: field names, order (= brace-init order) and units are our choice.
//   For each of ndNum matrices: nValue rows x dValue columns, source row pitch srcDValue elements,
//   matrix i at src + i*srcNdMatrixStride elements and dst + i*dstNzMatrixStride elements.
//   Nz: element (r, c) goes to (c / C0) * dstNzC0Stride * C0 + r * dstNzNStride * C0 + c % C0, with
//   C0 = 32 / sizeof(T); dstNzC0Stride and dstNzNStride are in 32-byte blocks. Padding is not written.
struct Nd2NzParams {
  uint16_t ndNum = 1;
  uint16_t nValue = 0;
  uint16_t dValue = 0;
  uint16_t srcNdMatrixStride = 0;
  uint16_t srcDValue = 0;
  uint16_t dstNzC0Stride = 0;
  uint16_t dstNzNStride = 1;
  uint16_t dstNzMatrixStride = 0;
};

namespace shim {

inline bool IsL1Pos(TPosition p) { return p == TPosition::A1 || p == TPosition::B1 || p == TPosition::C1; }

template <typename T>
void CheckCopyCount(const char* api, uint32_t count) {
  uint64_t bytes = static_cast<uint64_t>(count) * sizeof(T);
  if (bytes % 32 != 0) {
    Fail(api, bytes, " bytes is not a multiple of 32 (count=", count, ", sizeof=", sizeof(T),
         "); the hardware silently rounds down: use DataCopyPad for ragged tails");
  }
}

inline void RequireGmToLocalDst(const char* api, const LocalMeta& m) {
  if (!IsUbPos(m.pos) && !IsL1Pos(m.pos)) {
    Fail(api, "GM->local copy into position ", m.pos, " (", m.hw, ") is not modelled (UB or L1 only)");
  }
  RequireAlign(api, "dst", m, 32);
}

inline void RequireLocalToGmSrc(const char* api, const LocalMeta& m) {
  if (!IsUbPos(m.pos)) Fail(api, "local->GM copy from position ", m.pos, " (", m.hw, ") is not modelled (UB only)");
  RequireAlign(api, "src", m, 32);
}

// Checked GM bytes [0, (count-1)*pitch + blk) of a strided copy of count blocks of blk bytes (count >= 1).
template <typename T>
uint8_t* GmBlocks(const char* api, const char* role, const GlobalTensor<T>& g, uint64_t count, uint64_t pitch,
                  uint64_t blk) {
  return reinterpret_cast<uint8_t*>(g.ShimSpan(api, role, 0, ((count - 1) * pitch + blk) / sizeof(T)));
}

// DataCopyParams in bytes: blockLen DataBlocks per block, each side's pitch is blockLen plus its gap.
struct Bursts {
  uint64_t blk, srcPitch, dstPitch;
};
template <typename T>
Bursts BurstsOf(const char* api, const DataCopyParams& p) {
  Bursts b{p.blockLen * 32ull, (p.blockLen + p.srcGap) * 32ull, (p.blockLen + p.dstGap) * 32ull};
  if (b.blk % sizeof(T) != 0) Fail(api, "block of ", b.blk, " bytes is not a whole number of elements");
  return b;
}

template <typename T>
void CheckPadBlockLen(const char* api, uint32_t blockLen) {
  if (blockLen % sizeof(T) != 0) Fail(api, "blockLen ", blockLen, " bytes is not a multiple of sizeof(T)=", sizeof(T));
}

}  // namespace shim

template <typename T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const uint32_t count) {
  const char* api = "DataCopy";
  if (count == 0) return;
  shim::CheckCopyCount<T>(api, count);
  shim::RequireGmToLocalDst(api, dst.ShimMeta());
  const T* s = src.ShimSpan(api, "src", 0, count);
  shim::GmRead(api, s, static_cast<uint64_t>(count) * sizeof(T));
  shim::Op op(api, PIPE_MTE2);
  std::memcpy(op.Write("dst", dst.ShimMeta(), static_cast<uint64_t>(count) * sizeof(T)), s, count * sizeof(T));
}

template <typename T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count) {
  const char* api = "DataCopy";
  if (count == 0) return;
  shim::CheckCopyCount<T>(api, count);
  shim::RequireLocalToGmSrc(api, src.ShimMeta());
  T* d = dst.ShimSpan(api, "dst", 0, count);
  shim::Op op(api, PIPE_MTE3);
  std::memcpy(d, op.Read("src", src.ShimMeta(), static_cast<uint64_t>(count) * sizeof(T)), count * sizeof(T));
  shim::GmWrote(d, static_cast<uint64_t>(count) * sizeof(T));
}

// UB->UB runs on the vector pipe (our choice; the doc does not say which unit moves it).
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count) {
  const char* api = "DataCopy";
  if (count == 0) return;
  shim::CheckCopyCount<T>(api, count);
  if (!shim::IsUbPos(dst.ShimMeta().pos) || !shim::IsUbPos(src.ShimMeta().pos)) {
    shim::Fail(api, "local->local copy ", src.ShimMeta().pos, " -> ", dst.ShimMeta().pos,
               " is not modelled (UB->UB only)");
  }
  shim::RequireAlign(api, "src", src.ShimMeta(), 32);
  shim::RequireAlign(api, "dst", dst.ShimMeta(), 32);
  uint64_t bytes = static_cast<uint64_t>(count) * sizeof(T);
  shim::CheckOverlap(api, dst.ShimMeta(), bytes, "src", src.ShimMeta(), bytes);
  shim::Op op(api, PIPE_V);
  const uint8_t* s = op.Read("src", src.ShimMeta(), bytes);
  std::memmove(op.Write("dst", dst.ShimMeta(), bytes), s, bytes);
}

template <typename T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& repeatParams) {
  const char* api = "DataCopy";
  const DataCopyParams& p = repeatParams;
  if (p.blockCount == 0 || p.blockLen == 0) return;
  shim::RequireGmToLocalDst(api, dst.ShimMeta());
  shim::Bursts b = shim::BurstsOf<T>(api, p);
  const uint8_t* s = shim::GmBlocks(api, "src", src, p.blockCount, b.srcPitch, b.blk);
  shim::Op op(api, PIPE_MTE2);
  for (uint32_t i = 0; i < p.blockCount; ++i) {
    shim::GmRead(api, s + i * b.srcPitch, b.blk);
    std::memcpy(op.Access("dst", dst.ShimMeta(), i * b.dstPitch, b.blk, true), s + i * b.srcPitch, b.blk);
  }
}

template <typename T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& repeatParams) {
  const char* api = "DataCopy";
  const DataCopyParams& p = repeatParams;
  if (p.blockCount == 0 || p.blockLen == 0) return;
  shim::RequireLocalToGmSrc(api, src.ShimMeta());
  shim::Bursts b = shim::BurstsOf<T>(api, p);
  uint8_t* d = shim::GmBlocks(api, "dst", dst, p.blockCount, b.dstPitch, b.blk);
  shim::Op op(api, PIPE_MTE3);
  for (uint32_t i = 0; i < p.blockCount; ++i) {
    std::memcpy(d + i * b.dstPitch, op.Access("src", src.ShimMeta(), i * b.srcPitch, b.blk, false), b.blk);
    shim::GmWrote(d + i * b.dstPitch, b.blk);
  }
}

// GM->UB with each block padded to 32 bytes in UB. Our reading of the pad parameters (the doc is silent):
// with isPad, leftPadding elements of paddingValue precede the data and every other element of the
// 32-byte-rounded UB block (rightPadding included) holds paddingValue; without isPad the tail bytes of
// the rounded block are left as they were (undefined on hardware). left/rightPadding <= 32 bytes each.
template <typename T>
void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& dataCopyParams,
                 const DataCopyPadExtParams<T>& padParams) {
  const char* api = "DataCopyPad";
  const DataCopyExtParams& p = dataCopyParams;
  if (p.blockCount == 0 || p.blockLen == 0) return;
  shim::CheckPadBlockLen<T>(api, p.blockLen);
  shim::RequireGmToLocalDst(api, dst.ShimMeta());
  uint32_t left = padParams.isPad ? padParams.leftPadding : 0;
  uint32_t right = padParams.isPad ? padParams.rightPadding : 0;
  if (left * sizeof(T) > 32 || right * sizeof(T) > 32) {
    shim::Fail(api, "padding (left ", left, ", right ", right, " elements) exceeds one 32-byte block");
  }
  uint64_t n = p.blockLen / sizeof(T);
  uint64_t ubBlk = ((left + n + right) * sizeof(T) + 31) / 32 * 32;
  uint64_t srcPitch = p.blockLen + static_cast<uint64_t>(p.srcStride);
  uint64_t dstPitch = ubBlk + static_cast<uint64_t>(p.dstStride) * 32;
  if (srcPitch % sizeof(T) != 0) shim::Fail(api, "srcStride ", p.srcStride, " bytes breaks element alignment");
  const uint8_t* s = shim::GmBlocks(api, "src", src, p.blockCount, srcPitch, p.blockLen);
  shim::Op op(api, PIPE_MTE2);
  for (uint32_t i = 0; i < p.blockCount; ++i) {
    uint8_t* d = op.Access("dst", dst.ShimMeta(), i * dstPitch, ubBlk, true);
    if (padParams.isPad) {
      for (uint64_t e = 0; e < ubBlk / sizeof(T); ++e) shim::Store<T>(d + e * sizeof(T), padParams.paddingValue);
    }
    shim::GmRead(api, s + i * srcPitch, p.blockLen);
    std::memcpy(d + left * sizeof(T), s + i * srcPitch, p.blockLen);
  }
}

// UB->GM: srcStride (UB side) in 32-byte blocks, dstStride (GM side) in bytes; UB blocks start 32-byte aligned.
template <typename T>
void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyExtParams& dataCopyParams) {
  const char* api = "DataCopyPad";
  const DataCopyExtParams& p = dataCopyParams;
  if (p.blockCount == 0 || p.blockLen == 0) return;
  shim::CheckPadBlockLen<T>(api, p.blockLen);
  shim::RequireLocalToGmSrc(api, src.ShimMeta());
  uint64_t srcPitch = (p.blockLen + 31ull) / 32 * 32 + static_cast<uint64_t>(p.srcStride) * 32;
  uint64_t dstPitch = p.blockLen + static_cast<uint64_t>(p.dstStride);
  if (dstPitch % sizeof(T) != 0) shim::Fail(api, "dstStride ", p.dstStride, " bytes breaks element alignment");
  uint8_t* d = shim::GmBlocks(api, "dst", dst, p.blockCount, dstPitch, p.blockLen);
  shim::Op op(api, PIPE_MTE3);
  for (uint32_t i = 0; i < p.blockCount; ++i) {
    std::memcpy(d + i * dstPitch, op.Access("src", src.ShimMeta(), i * srcPitch, p.blockLen, false), p.blockLen);
    shim::GmWrote(d + i * dstPitch, p.blockLen);
  }
}

// GM -> L1 (A1/B1/C1) with ND -> Nz conversion, on MTE2. See Nd2NzParams for the layout.
template <typename T, bool enableSmallC0 = false>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Nd2NzParams& intriParams) {
  const char* api = "DataCopy(Nd2NzParams)";
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4, "Nd2Nz needs 1, 2 or 4-byte elements");
  if (enableSmallC0) shim::Fail(api, "enableSmallC0 is not modelled");
  const Nd2NzParams& p = intriParams;
  if (p.ndNum == 0 || p.nValue == 0 || p.dValue == 0) return;
  const LocalMeta& m = dst.ShimMeta();
  if (!shim::IsL1Pos(m.pos)) shim::Fail(api, "dst is in position ", m.pos, " (", m.hw, "); Nd2Nz writes L1 (A1/B1/C1)");
  shim::RequireAlign(api, "dst", m, 32);
  constexpr uint32_t c0 = 32 / sizeof(T);
  uint32_t colBlocks = (p.dValue + c0 - 1) / c0;
  if (p.nValue > 1 && p.srcDValue < p.dValue) {
    shim::Fail(api, "srcDValue ", p.srcDValue, " is smaller than dValue ", p.dValue);
  }
  if (colBlocks > 1 && static_cast<uint32_t>(p.dstNzC0Stride) < static_cast<uint32_t>(p.nValue) * p.dstNzNStride) {
    shim::Fail(api, "dstNzC0Stride ", p.dstNzC0Stride, " is smaller than nValue*dstNzNStride = ",
               p.nValue * p.dstNzNStride, ": column blocks would overlap");
  }
  uint64_t srcLast = (p.ndNum - 1ull) * p.srcNdMatrixStride + (p.nValue - 1ull) * p.srcDValue + p.dValue;
  const T* s = src.ShimSpan(api, "src", 0, srcLast);
  for (uint32_t nd = 0; nd < p.ndNum; ++nd) {
    for (uint32_t r = 0; r < p.nValue; ++r) {
      shim::GmRead(api, s + nd * static_cast<uint64_t>(p.srcNdMatrixStride) + r * static_cast<uint64_t>(p.srcDValue),
                   static_cast<uint64_t>(p.dValue) * sizeof(T));
    }
  }
  shim::Op op(api, PIPE_MTE2);
  for (uint32_t nd = 0; nd < p.ndNum; ++nd) {
    for (uint32_t r = 0; r < p.nValue; ++r) {
      for (uint32_t cb = 0; cb < colBlocks; ++cb) {
        uint64_t dOff = (static_cast<uint64_t>(nd) * p.dstNzMatrixStride +
                         (static_cast<uint64_t>(cb) * p.dstNzC0Stride + static_cast<uint64_t>(r) * p.dstNzNStride) * c0) *
                        sizeof(T);
        uint32_t cols = std::min<uint32_t>(c0, p.dValue - cb * c0);
        uint8_t* d = op.Access("dst", m, dOff, cols * sizeof(T), true);
        std::memcpy(d, s + static_cast<uint64_t>(nd) * p.srcNdMatrixStride + static_cast<uint64_t>(r) * p.srcDValue + cb * c0,
                    cols * sizeof(T));
      }
    }
  }
}

}  // namespace AscendC
