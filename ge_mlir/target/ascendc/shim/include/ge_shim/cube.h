// Cube path (§2.2): LoadData L1 -> L0A/L0B (MTE1), Mmad L0A x L0B -> L0C (M), Fixpipe L0C -> GM (FIX).
//
// Fractal layouts. ASCENDC_API.md gives the flow and the parameter structs but not the L0 layouts, so these
// are our choice, made so that the documented sequence (Nd2Nz into L1, per-16-row-block LoadData of A,
// LoadData of B with ifTranspose=true, Mmad, Fixpipe) computes C = A x B:
//   * a fractal is 512 bytes: 16 rows x C0 elements, C0 = 32 / sizeof(T) (16x16 for b16, 16x8 for fp32);
//   * L0A holds A (m x k) as fractals (mb, kb) at index mb * Kb + kb, each 16 m-rows x C0 k, row-major;
//   * L0B holds B (k x n) as fractals (kb, nb) at index kb * Nb + nb, each 16 n-rows x C0 k, row-major
//     (i.e. B transposed inside the fractal). For b16, LoadData with ifTranspose=true turns an L1 Nz
//     fractal of B (16 k x 16 n) into this; for fp32 load B^T (n x k) through Nd2Nz without transposing;
//   * L0C holds C (m x n) in Nz: element (i, j) at (j / 16) * Mpad * 16 + i * 16 + j % 16, Mpad = 16*Mb.
#pragma once

#include "ge_shim/data_copy.h"

namespace AscendC {

// Field order as documented; constructor order (startIndex, repeatTimes, srcStride, sid, dstGap,
// ifTranspose, addrMode). Semantics (our reading, units of one 512-byte fractal): repeat r copies the
// source fractal startIndex + r * srcStride to destination fractal r * (1 + dstGap). repeatTimes == 0 is a
// NOP. sid and addrMode are ignored.
struct LoadData2DParams {
  uint16_t startIndex = 0;
  uint16_t dstGap = 0;
  uint16_t srcStride = 0;
  bool ifTranspose = false;
  uint8_t repeatTimes = 1;  // default is our choice
  uint8_t sid = 0;
  uint8_t addrMode = 0;
  LoadData2DParams() = default;
  constexpr LoadData2DParams(const uint16_t startIndexIn, const uint8_t repeatTimesIn, const uint16_t srcStrideIn,
                   const uint8_t sidIn, const uint16_t dstGapIn, const bool ifTransposeIn, const uint8_t addrModeIn)
      : startIndex(startIndexIn),
        dstGap(dstGapIn),
        srcStride(srcStrideIn),
        ifTranspose(ifTransposeIn),
        repeatTimes(repeatTimesIn),
        sid(sidIn),
        addrMode(addrModeIn) {}
};

struct MmadParams {
  uint16_t m = 0;
  uint16_t n = 0;
  uint16_t k = 0;
  bool isBias = false;
  int32_t fmOffset = 0;
  bool enSsparse = false;
  bool enWinogradA = false;
  bool enWinogradB = false;
  uint8_t unitFlag = 0;
  bool kDirectionAlign = false;
  bool cmatrixSource = false;
  bool cmatrixInitVal = true;
  MmadParams() = default;
  constexpr MmadParams(const uint16_t mIn, const uint16_t nIn, const uint16_t kIn, const bool isBiasIn, const int32_t fmOffsetIn,
             const bool enSsparseIn, const bool enWinogradAIn, const bool enWinogradBIn)
      : m(mIn), n(nIn), k(kIn), isBias(isBiasIn), fmOffset(fmOffsetIn), enSsparse(enSsparseIn),
        enWinogradA(enWinogradAIn), enWinogradB(enWinogradBIn) {}
  constexpr MmadParams(const uint16_t mIn, const uint16_t nIn, const uint16_t kIn, const uint8_t unitFlagIn,
             const bool cmatrixSourceIn, const bool cmatrixInitValIn)
      : m(mIn), n(nIn), k(kIn), unitFlag(unitFlagIn), cmatrixSource(cmatrixSourceIn),
        cmatrixInitVal(cmatrixInitValIn) {}
};

// Not described in ASCENDC_API.md beyond its name: members are our choice. Set fields by name.
//   mSize x nSize is the valid C block; srcStride is the distance between consecutive 16-column blocks of
//   L0C in 16-element rows (normally Mpad); dstStride is the GM row pitch in elements (ROW_MAJOR);
//   ndNum blocks repeat at srcNdStride / dstNdStride elements. quantPre: NoQuant (same type),
//   F322F16, F322BF16. reluEn clamps negatives to 0 before conversion.
struct FixpipeParamsV220 {
  uint16_t nSize = 0;
  uint16_t mSize = 0;
  uint16_t srcStride = 0;
  uint32_t dstStride = 0;
  QuantMode_t quantPre = QuantMode_t::NoQuant;
  uint64_t deqScalar = 0;
  uint16_t ndNum = 1;
  uint16_t srcNdStride = 0;
  uint32_t dstNdStride = 0;
  bool reluEn = false;
  uint8_t unitFlag = 0;
  bool isChannelSplit = false;
};

enum class CO2Layout : uint8_t { NZ = 0, ROW_MAJOR, COLUMN_MAJOR };
struct FixpipeConfig {
  CO2Layout format;
};
inline constexpr FixpipeConfig CFG_NZ{CO2Layout::NZ};
inline constexpr FixpipeConfig CFG_ROW_MAJOR{CO2Layout::ROW_MAJOR};

namespace shim {

constexpr uint32_t kFractalBytes = 512;

inline bool IsL0Pos(TPosition p) { return p == TPosition::A2 || p == TPosition::B2; }

template <typename T>
void CopyFractal(uint8_t* d, const uint8_t* s, bool transpose) {
  if (!transpose) {
    std::memcpy(d, s, kFractalBytes);
    return;
  }
  for (int r = 0; r < 16; ++r)
    for (int c = 0; c < 16; ++c) std::memcpy(d + (c * 16 + r) * sizeof(T), s + (r * 16 + c) * sizeof(T), sizeof(T));
}

template <typename T>
void LoadDataCheck(const char* api, const LocalMeta& dm, const LoadData2DParams& p) {
  if (!IsL0Pos(dm.pos)) Fail(api, "dst is in position ", dm.pos, " (", dm.hw, "); LoadData 2D writes A2 (L0A) or B2 (L0B)");
  RequireAlign(api, "dst", dm, HwAlign(dm.hw));
  if (p.ifTranspose && sizeof(T) != 2) {
    Fail(api, "ifTranspose is modelled for 2-byte types only (sizeof(T)=", sizeof(T), ")");
  }
}

// Byte offsets of repeat r: source fractal startIndex + r*srcStride, destination fractal r*(1+dstGap).
inline uint64_t LoadDataSrcOff(const LoadData2DParams& p, uint32_t r) {
  return (static_cast<uint64_t>(p.startIndex) + static_cast<uint64_t>(r) * p.srcStride) * kFractalBytes;
}
inline uint64_t LoadDataDstOff(const LoadData2DParams& p, uint32_t r) {
  return static_cast<uint64_t>(r) * (1u + p.dstGap) * kFractalBytes;
}

}  // namespace shim

template <typename T>
void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2DParams& p) {
  const char* api = "LoadData";
  if (p.repeatTimes == 0) return;
  const LocalMeta &dm = dst.ShimMeta(), &sm = src.ShimMeta();
  shim::LoadDataCheck<T>(api, dm, p);
  if (!shim::IsL1Pos(sm.pos)) shim::Fail(api, "src is in position ", sm.pos, " (", sm.hw, "); LoadData 2D reads L1 (A1/B1/C1)");
  shim::RequireAlign(api, "src", sm, 32);
  shim::Op op(api, PIPE_MTE1);
  for (uint32_t r = 0; r < p.repeatTimes; ++r) {
    const uint8_t* s = op.Access("src", sm, shim::LoadDataSrcOff(p, r), shim::kFractalBytes, false);
    shim::CopyFractal<T>(op.Access("dst", dm, shim::LoadDataDstOff(p, r), shim::kFractalBytes, true), s,
                         p.ifTranspose);
  }
}

// GM -> L0A/L0B directly (MTE2), same fractal addressing with the source in GM.
template <typename T>
void LoadData(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const LoadData2DParams& p) {
  const char* api = "LoadData";
  if (p.repeatTimes == 0) return;
  const LocalMeta& dm = dst.ShimMeta();
  shim::LoadDataCheck<T>(api, dm, p);
  constexpr uint64_t fe = shim::kFractalBytes / sizeof(T);
  uint64_t lastFractal = p.startIndex + static_cast<uint64_t>(p.repeatTimes - 1) * p.srcStride;
  const uint8_t* s = reinterpret_cast<const uint8_t*>(src.ShimSpan(api, "src", 0, (lastFractal + 1) * fe));
  shim::Op op(api, PIPE_MTE2);
  for (uint32_t r = 0; r < p.repeatTimes; ++r) {
    shim::CopyFractal<T>(op.Access("dst", dm, shim::LoadDataDstOff(p, r), shim::kFractalBytes, true),
                         s + shim::LoadDataSrcOff(p, r), p.ifTranspose);
  }
}

namespace shim {

template <typename T, typename U, typename S>
constexpr bool kMmadTypesOk = (std::is_same_v<T, float> && std::is_same_v<U, half> && std::is_same_v<S, half>) ||
                              (std::is_same_v<T, float> && std::is_same_v<U, bfloat16_t> && std::is_same_v<S, bfloat16_t>) ||
                              (std::is_same_v<T, float> && std::is_same_v<U, float> && std::is_same_v<S, float>) ||
                              (std::is_same_v<T, int32_t> && std::is_same_v<U, int8_t> && std::is_same_v<S, int8_t>);

// Computes every element of the padded Mpad x Npad block, as the hardware computes whole fractals, summing
// over the valid k only (fractal padding in k is never read). Accumulation in T (fp32 / int32), in k order.
template <typename T, typename U, typename S, typename V>
void MmadImpl(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter,
              const LocalTensor<V>* bias, const MmadParams& p) {
  const char* api = "Mmad";
  static_assert(kMmadTypesOk<T, U, S>, "Mmad types: (float, half, half), (float, bfloat16_t, bfloat16_t), "
                                       "(float, float, float) or (int32_t, int8_t, int8_t)");
  if (p.m == 0 || p.n == 0 || p.k == 0) return;
  if (p.enSsparse || p.enWinogradA || p.enWinogradB || p.fmOffset != 0) {
    Fail(api, "sparse / Winograd / fmOffset modes are not modelled");
  }
  const LocalMeta &cm = dst.ShimMeta(), &am = fm.ShimMeta(), &bm = filter.ShimMeta();
  if (cm.pos != TPosition::CO1) Fail(api, "dst is in position ", cm.pos, "; Mmad writes CO1 (L0C)");
  if (am.pos != TPosition::A2) Fail(api, "fm is in position ", am.pos, "; Mmad reads A2 (L0A)");
  if (bm.pos != TPosition::B2) Fail(api, "filter is in position ", bm.pos, "; Mmad reads B2 (L0B)");
  RequireAlign(api, "dst", cm, HwAlign(Hardware::L0C));
  RequireAlign(api, "fm", am, HwAlign(Hardware::L0A));
  RequireAlign(api, "filter", bm, HwAlign(Hardware::L0B));
  constexpr uint32_t c0 = 32 / sizeof(U);
  uint32_t mb = (p.m + 15) / 16, nb = (p.n + 15) / 16, kb = (p.k + c0 - 1) / c0;
  uint32_t mPad = mb * 16, nPad = nb * 16;
  const bool gemv = p.m == 1;
  Op op(api, PIPE_M);
  const uint8_t* a = op.Read("fm", am, static_cast<uint64_t>(mb) * kb * kFractalBytes);
  const uint8_t* b = op.Read("filter", bm, static_cast<uint64_t>(kb) * nb * kFractalBytes);
  const uint8_t* bi = nullptr;
  if (bias) {
    const LocalMeta& vm = bias->ShimMeta();
    if (vm.pos != TPosition::C2 && vm.pos != TPosition::CO1) Fail(api, "bias is in position ", vm.pos, "; expected C2");
    bi = op.Read("bias", vm, static_cast<uint64_t>(nPad) * sizeof(V));
  }
  uint64_t cBytes = static_cast<uint64_t>(mPad) * nPad * sizeof(T);
  if (!p.cmatrixInitVal) op.Read("dst", cm, cBytes);  // accumulating reads C: a sync-checked access
  uint8_t* c = op.Write("dst", cm, cBytes);
  for (uint32_t i = 0; i < mPad; ++i) {
    for (uint32_t j = 0; j < nPad; ++j) {
      uint64_t ci = (static_cast<uint64_t>(j / 16) * mPad + i) * 16 + j % 16;
      T acc = p.cmatrixInitVal ? T(0) : Load<T>(c + ci * sizeof(T));
      if (bi && p.cmatrixInitVal) acc = static_cast<T>(static_cast<float>(Load<V>(bi + j * sizeof(V))));
      for (uint32_t kk = 0; kk < p.k; ++kk) {
        // m == 1 switches the hardware to GEMV mode: A is then K contiguous elements, not a
        // 16-row fractal (ASCENDC_API.md Corrections 4; the Matmul library pads M to 16).
        uint64_t ai = gemv ? kk : ((static_cast<uint64_t>(i / 16) * kb + kk / c0) * 16 + i % 16) * c0 + kk % c0;
        uint64_t bidx = ((static_cast<uint64_t>(kk / c0) * nb + j / 16) * 16 + j % 16) * c0 + kk % c0;
        U av = Load<U>(a + ai * sizeof(U));
        S bv = Load<S>(b + bidx * sizeof(S));
        if constexpr (std::is_same_v<T, int32_t>) {
          acc += static_cast<int32_t>(av) * static_cast<int32_t>(bv);
        } else {
          acc += static_cast<float>(av) * static_cast<float>(bv);
        }
      }
      Store<T>(c + ci * sizeof(T), acc);
    }
  }
}

}  // namespace shim

template <typename T, typename U, typename S>
void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter, const MmadParams& p) {
  shim::MmadImpl<T, U, S, T>(dst, fm, filter, nullptr, p);
}

template <typename T, typename U, typename S, typename V>
void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter,
          const LocalTensor<V>& bias, const MmadParams& p) {
  shim::MmadImpl<T, U, S, V>(dst, fm, filter, &bias, p);
}

template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& p) {
  const char* api = "Fixpipe";
  if (config.format != CO2Layout::ROW_MAJOR) shim::Fail(api, "only CFG_ROW_MAJOR (NZ -> ND) is modelled");
  if (p.mSize == 0 || p.nSize == 0 || p.ndNum == 0) return;
  const LocalMeta& sm = src.ShimMeta();
  if (sm.pos != TPosition::CO1) shim::Fail(api, "src is in position ", sm.pos, "; Fixpipe reads CO1 (L0C)");
  shim::RequireAlign(api, "src", sm, shim::HwAlign(Hardware::L0C));
  if (p.srcStride < p.mSize) {
    shim::Fail(api, "srcStride ", p.srcStride, " (16-element rows between column blocks) is smaller than mSize ", p.mSize);
  }
  if (p.dstStride < p.nSize) shim::Fail(api, "dstStride ", p.dstStride, " is smaller than nSize ", p.nSize);
  bool convertOk = false;
  switch (p.quantPre) {
    case QuantMode_t::NoQuant: convertOk = std::is_same_v<T, U>; break;
    case QuantMode_t::F322F16: convertOk = std::is_same_v<U, float> && std::is_same_v<T, half>; break;
    case QuantMode_t::F322BF16: convertOk = std::is_same_v<U, float> && std::is_same_v<T, bfloat16_t>; break;
    default: shim::Fail(api, "quantPre mode ", static_cast<int>(p.quantPre), " is not modelled");
  }
  if (!convertOk) {
    shim::Fail(api, "quantPre ", static_cast<int>(p.quantPre), " does not convert sizeof(src)=", sizeof(U),
               " to sizeof(dst)=", sizeof(T));
  }
  uint64_t last = (p.ndNum - 1ull) * p.dstNdStride + (p.mSize - 1ull) * p.dstStride + p.nSize;
  T* d = dst.ShimSpan(api, "dst", 0, last);
  uint32_t nBlocks = (p.nSize + 15) / 16;
  shim::Op op(api, PIPE_FIX);
  for (uint32_t nd = 0; nd < p.ndNum; ++nd) {
    for (uint32_t jb = 0; jb < nBlocks; ++jb) {
      for (uint32_t i = 0; i < p.mSize; ++i) {
        uint64_t off = (static_cast<uint64_t>(nd) * p.srcNdStride + (static_cast<uint64_t>(jb) * p.srcStride + i) * 16) * sizeof(U);
        const uint8_t* row = op.Access("src", sm, off, 16 * sizeof(U), false);
        for (uint32_t jj = 0; jj < 16 && jb * 16 + jj < p.nSize; ++jj) {
          U v = shim::Load<U>(row + jj * sizeof(U));
          if (p.reluEn && v < U(0)) v = U(0);
          T out;
          if constexpr (std::is_same_v<T, U>) {
            out = v;
          } else {
            out = shim::CastValue<T>(static_cast<double>(v), RoundMode::CAST_RINT);
          }
          d[static_cast<uint64_t>(nd) * p.dstNdStride + static_cast<uint64_t>(i) * p.dstStride + jb * 16 + jj] = out;
        }
      }
    }
    for (uint32_t i = 0; i < p.mSize; ++i) {
      shim::GmWrote(d + static_cast<uint64_t>(nd) * p.dstNdStride + static_cast<uint64_t>(i) * p.dstStride,
                    static_cast<uint64_t>(p.nSize) * sizeof(T));
    }
  }
}

}  // namespace AscendC
