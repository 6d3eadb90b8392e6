// Signature manifest (ASCENDC_API.md §1.3 / §2.2): compile-only probes that the shim declares exactly the
// documented template parameter lists, parameter types (count by const int32_t& vs uint32_t), struct
// fields and constructor orders. A drifting declaration fails to compile here.
#include <cstddef>
#include <type_traits>

#include "kernel_operator.h"

using namespace AscendC;

using LF = LocalTensor<float>;
using LH = LocalTensor<half>;
using GF = GlobalTensor<float>;

// static_cast to a function pointer type selects the overload with exactly that type, or fails.
#define HAS_SIG(TYPE, FN) static_assert(static_cast<TYPE>(FN) != nullptr, #FN)

// ---- enums (§1.3)
static_assert(std::is_same_v<std::underlying_type_t<TPosition>, uint8_t>);
static_assert(TPosition::LCM == TPosition::VECCALC && TPosition::SHM == TPosition::SPM);
static_assert(static_cast<int>(TPosition::VECIN) == 9 && static_cast<int>(TPosition::MAX) == 16);
static_assert(std::is_same_v<QuePosition, TPosition>);
static_assert(static_cast<int>(HardEvent::MTE2_V) == 4 && static_cast<int>(HardEvent::V_MTE3) == 7);
static_assert(static_cast<int>(HardEvent::S_V) == 21 && static_cast<int>(HardEvent::MAX) == 35);
static_assert(static_cast<int>(Hardware::L0C) == 5 && static_cast<int>(Hardware::MAX) == 8);
static_assert(static_cast<int>(RoundMode::CAST_RINT) == 1 && static_cast<int>(RoundMode::CAST_ODD) == 6);
static_assert(static_cast<int>(CMPMODE::NE) == 5);
static_assert(static_cast<int>(SELMODE::VSEL_TENSOR_TENSOR_MODE) == 2);
using GmAddr = GM_ADDR;
static_assert(std::is_same_v<GmAddr, uint8_t*>);
constexpr pipe_t kPipes[] = {PIPE_S, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_FIX, PIPE_ALL};
constexpr int kEvents[] = {EVENT_ID0, EVENT_ID7};
static_assert(sizeof(kPipes) > 0 && sizeof(kEvents) > 0);

// ---- GlobalTensor / LocalTensor members
HAS_SIG(void (GF::*)(float*, uint64_t), &GF::SetGlobalBuffer);
HAS_SIG(void (GF::*)(float*), &GF::SetGlobalBuffer);
HAS_SIG(const float* (GF::*)() const, &GF::GetPhyAddr);
HAS_SIG(float* (GF::*)(const uint64_t) const, &GF::GetPhyAddr);
HAS_SIG(float (GF::*)(const uint64_t) const, &GF::GetValue);
HAS_SIG(void (GF::*)(const uint64_t, float), &GF::SetValue);
HAS_SIG(uint64_t (GF::*)() const, &GF::GetSize);
HAS_SIG(GF (GF::*)(const uint64_t) const, &GF::operator[]);
HAS_SIG(GlobalTensor<half> (GF::*)() const, &GF::template ReinterpretCast<half>);
HAS_SIG(void (GF::*)(CacheMode), &GF::SetL2CacheHint);
static_assert(std::is_same_v<GF::PrimType, float>);

HAS_SIG(LF (LF::*)(const uint32_t) const, &LF::operator[]);
HAS_SIG(float (LF::*)(const uint32_t) const, &LF::GetValue);
HAS_SIG(void (LF::*)(const uint32_t, const half) const, &LF::template SetValue<half>);
HAS_SIG(uint32_t (LF::*)() const, &LF::GetSize);
HAS_SIG(void (LF::*)(const uint32_t), &LF::SetSize);
HAS_SIG(uint64_t (LF::*)() const, &LF::GetPhyAddr);
HAS_SIG(int32_t (LF::*)() const, &LF::GetPosition);
HAS_SIG(LocalTensor<int32_t> (LF::*)() const, &LF::template ReinterpretCast<int32_t>);
static_assert(std::is_constructible_v<LF, TPosition, uint32_t, uint32_t>);

// ---- TPipe / TQue / TBuf
using QIn = TQue<TPosition::VECIN, 2>;
using QBind = TQueBind<TPosition::VECIN, TPosition::VECOUT, 1>;
static_assert(std::is_base_of_v<TQueBind<TPosition::VECIN, TPosition::VECIN, 2, 0>, QIn>);
HAS_SIG(bool (TPipe::*)(QIn&, uint8_t, uint32_t), &TPipe::template InitBuffer<QIn>);
HAS_SIG(bool (TPipe::*)(TBuf<TPosition::VECCALC>&, uint32_t), &TPipe::template InitBuffer<TPosition::VECCALC>);
HAS_SIG(TEventID (TPipe::*)(), &TPipe::template AllocEventID<HardEvent::MTE2_V>);
HAS_SIG(void (TPipe::*)(TEventID), &TPipe::template ReleaseEventID<HardEvent::MTE2_V>);
HAS_SIG(TEventID (TPipe::*)(), &TPipe::template FetchEventID<HardEvent::MTE2_V>);
HAS_SIG(void (TPipe::*)(), &TPipe::Init);
HAS_SIG(void (TPipe::*)(), &TPipe::Destroy);
HAS_SIG(void (TPipe::*)(), &TPipe::Reset);
HAS_SIG(LF (QIn::*)(), &QIn::template AllocTensor<float>);
HAS_SIG(bool (QIn::*)(const LF&), &QIn::template EnQue<float>);
HAS_SIG(LF (QIn::*)(), &QIn::template DeQue<float>);
HAS_SIG(void (QIn::*)(LF&), &QIn::template FreeTensor<float>);
HAS_SIG(bool (QIn::*)(), &QIn::VacantInQue);
HAS_SIG(bool (QIn::*)(), &QIn::HasTensorInQue);
HAS_SIG(int32_t (QIn::*)(), &QIn::GetTensorCountInQue);
HAS_SIG(bool (QIn::*)(), &QIn::HasIdleBuffer);
HAS_SIG(LF (QBind::*)(), &QBind::template AllocTensor<float>);
static_assert(std::is_same_v<TBuf<>, TBuf<TPosition::LCM>>);
HAS_SIG(LF (TBuf<>::*)(), &TBuf<>::template Get<float>);
HAS_SIG(LF (TBuf<>::*)(uint32_t), &TBuf<>::template Get<float>);
HAS_SIG(LF (TBuf<>::*)(uint32_t, uint32_t), &TBuf<>::template GetWithOffset<float>);

// ---- system
HAS_SIG(int64_t (*)(), &GetBlockIdx);
HAS_SIG(int64_t (*)(), &GetBlockNum);
HAS_SIG(int64_t (*)(), &GetSubBlockIdx);
HAS_SIG(void (*)(), &InitSocState);
HAS_SIG(GM_ADDR (*)(), &GetSysWorkSpacePtr);

// ---- data movement
HAS_SIG(void (*)(const LF&, const GF&, const uint32_t), &DataCopy<float>);
HAS_SIG(void (*)(const GF&, const LF&, const uint32_t), &DataCopy<float>);
HAS_SIG(void (*)(const LF&, const LF&, const uint32_t), &DataCopy<float>);
HAS_SIG(void (*)(const LF&, const GF&, const DataCopyParams&), &DataCopy<float>);
HAS_SIG(void (*)(const GF&, const LF&, const DataCopyParams&), &DataCopy<float>);
HAS_SIG(void (*)(const LF&, const GF&, const DataCopyExtParams&, const DataCopyPadExtParams<float>&), &DataCopyPad<float>);
HAS_SIG(void (*)(const GF&, const LF&, const DataCopyExtParams&), &DataCopyPad<float>);
HAS_SIG(void (*)(const LH&, const GlobalTensor<half>&, const Nd2NzParams&), (&DataCopy<half, false>));

constexpr DataCopyParams kDcp(1, 2, 3, 4);
static_assert(kDcp.blockCount == 1 && kDcp.blockLen == 2 && kDcp.srcGap == 3 && kDcp.dstGap == 4);
// srcStride/dstStride alias srcGap/dstGap (anonymous unions), so they are the same storage:
static_assert(offsetof(DataCopyParams, srcStride) == offsetof(DataCopyParams, srcGap));
static_assert(offsetof(DataCopyParams, dstStride) == offsetof(DataCopyParams, dstGap));
static_assert(DataCopyParams{}.blockCount == DEFAULT_DATA_COPY_NBURST && DEFAULT_DATA_COPY_NBURST == 1);
static_assert(std::is_same_v<decltype(DataCopyParams::blockLen), uint16_t>);
static_assert(std::is_same_v<decltype(DataCopyParams::srcGap), uint16_t>);
static_assert(std::is_same_v<decltype(DataCopyParams::dstGap), uint16_t>);
static_assert(std::is_same_v<decltype(DataCopyExtParams::blockCount), uint16_t>);
static_assert(std::is_same_v<decltype(DataCopyExtParams::blockLen), uint32_t>);
static_assert(std::is_same_v<decltype(DataCopyExtParams::rsv), uint32_t>);
static_assert(std::is_constructible_v<DataCopyPadExtParams<half>, bool, uint8_t, uint8_t, half>);

// ---- vector, level 2
HAS_SIG(void (*)(const LF&, const LF&, const LF&, const int32_t&), &Add<float>);
HAS_SIG(void (*)(const LF&, const LF&, const LF&, const int32_t&), &Sub<float>);
HAS_SIG(void (*)(const LF&, const LF&, const LF&, const int32_t&), &Mul<float>);
HAS_SIG(void (*)(const LF&, const LF&, const LF&, const int32_t&), &Div<float>);
HAS_SIG(void (*)(const LF&, const LF&, const LF&, const int32_t&), (&Div<float, DEFAULT_DIV_CONFIG>));
HAS_SIG(void (*)(const LF&, const LF&, const LF&, const int32_t&), &Max<float>);
HAS_SIG(void (*)(const LF&, const LF&, const LF&, const int32_t&), &Min<float>);
using LI16 = LocalTensor<int16_t>;
HAS_SIG(void (*)(const LI16&, const LI16&, const LI16&, const int32_t&), &And<int16_t>);
HAS_SIG(void (*)(const LI16&, const LI16&, const LI16&, const int32_t&), &Or<int16_t>);
HAS_SIG(void (*)(const LF&, const LF&, const float&, const int32_t&), (&Adds<float, true>));
HAS_SIG(void (*)(const LF&, const LF&, const float&, const int32_t&), (&Muls<float, true>));
HAS_SIG(void (*)(const LF&, const LF&, const float&, const int32_t&), (&Maxs<float, false>));
HAS_SIG(void (*)(const LF&, const LF&, const float&, const int32_t&), &Mins<float>);
HAS_SIG(void (*)(const LF&, const LF&, const float&, const int32_t&), &LeakyRelu<float>);
HAS_SIG(void (*)(const LI16&, const LI16&, const int16_t&, const int32_t&), &ShiftLeft<int16_t>);
HAS_SIG(void (*)(const LF&, const LF&, const int32_t&), &Exp<float>);
HAS_SIG(void (*)(const LF&, const LF&, const int32_t&), &Ln<float>);
HAS_SIG(void (*)(const LF&, const LF&, const int32_t&), &Abs<float>);
HAS_SIG(void (*)(const LF&, const LF&, const int32_t&), &Sqrt<float>);
HAS_SIG(void (*)(const LF&, const LF&, const int32_t&), &Rsqrt<float>);
HAS_SIG(void (*)(const LF&, const LF&, const int32_t&), &Reciprocal<float>);
HAS_SIG(void (*)(const LF&, const LF&, const int32_t&), &Relu<float>);
HAS_SIG(void (*)(const LI16&, const LI16&, const int32_t&), &Not<int16_t>);
HAS_SIG(void (*)(const LF&, const float&, const int32_t&), &Duplicate<float>);
HAS_SIG(void (*)(const LH&, const LF&, const RoundMode&, const uint32_t), (&Cast<half, float>));
HAS_SIG(void (*)(const LF&, const LF&, const LF&, const int32_t), (&ReduceSum<float, true>));
HAS_SIG(void (*)(const LF&, const LF&, const LF&, const int32_t, bool), &ReduceMax<float>);
HAS_SIG(void (*)(const LF&, const LF&, const LF&, const int32_t, bool), &ReduceMin<float>);
using LU8 = LocalTensor<uint8_t>;
HAS_SIG(void (*)(const LU8&, const LF&, const LF&, CMPMODE, uint32_t), (&Compare<float, uint8_t>));
HAS_SIG(void (*)(const LU8&, const LF&, const float, CMPMODE, uint32_t), (&Compares<float, uint8_t>));
HAS_SIG(void (*)(const LF&, const LU8&, const LF&, const LF&, SELMODE, uint32_t), (&Select<float, uint8_t>));
HAS_SIG(void (*)(const LF&, const LH&, const half&, const int32_t&), (&Axpy<float, half>));

// ---- cube (§2.2)
using LI8 = LocalTensor<int8_t>;
HAS_SIG(void (*)(const LH&, const LH&, const LoadData2DParams&), &LoadData<half>);
HAS_SIG(void (*)(const LH&, const GlobalTensor<half>&, const LoadData2DParams&), &LoadData<half>);
HAS_SIG(void (*)(const LF&, const LH&, const LH&, const MmadParams&), (&Mmad<float, half, half>));
HAS_SIG(void (*)(const LF&, const LH&, const LH&, const LF&, const MmadParams&), (&Mmad<float, half, half, float>));
HAS_SIG(void (*)(const GF&, const LF&, const FixpipeParamsV220&), (&Fixpipe<float, float>));
HAS_SIG(void (*)(const GlobalTensor<half>&, const LF&, const FixpipeParamsV220&), (&Fixpipe<half, float, CFG_ROW_MAJOR>));

constexpr LoadData2DParams kLd(1, 2, 3, 4, 5, true, 6);  // (startIndex, repeatTimes, srcStride, sid, dstGap, ifTranspose, addrMode)
static_assert(kLd.startIndex == 1 && kLd.repeatTimes == 2 && kLd.srcStride == 3 && kLd.sid == 4 && kLd.dstGap == 5 &&
              kLd.ifTranspose && kLd.addrMode == 6);
static_assert(std::is_same_v<decltype(LoadData2DParams::repeatTimes), uint8_t> &&
              std::is_same_v<decltype(LoadData2DParams::startIndex), uint16_t>);
constexpr MmadParams kMm1(16, 32, 48, true, 7, false, false, false);
static_assert(kMm1.m == 16 && kMm1.n == 32 && kMm1.k == 48 && kMm1.isBias && kMm1.fmOffset == 7 && kMm1.cmatrixInitVal);
constexpr MmadParams kMm2(16, 32, 48, 3, true, false);
static_assert(kMm2.unitFlag == 3 && kMm2.cmatrixSource && !kMm2.cmatrixInitVal);
static_assert(MmadParams{}.cmatrixInitVal);
static_assert(std::is_same_v<decltype(MmadParams::fmOffset), int32_t> && std::is_same_v<decltype(MmadParams::m), uint16_t>);

// ---- sync
HAS_SIG(void (*)(int32_t), &SetFlag<HardEvent::MTE2_V>);
HAS_SIG(void (*)(int32_t), &WaitFlag<HardEvent::MTE2_V>);
HAS_SIG(void (*)(), &PipeBarrier<PIPE_ALL>);
HAS_SIG(void (*)(), &SyncAll<true>);
HAS_SIG(void (*)(), &SyncAll<>);
HAS_SIG(void (*)(uint16_t), (&CrossCoreSetFlag<0, PIPE_S>));
HAS_SIG(void (*)(uint16_t), &CrossCoreWaitFlag<>);

// ---- qualifiers expand to valid code; a direct-call kernel takes its tiling struct by value
struct ProbeTiling {
  uint32_t n;
};
extern "C" __global__ __aicore__ void probe_kernel(GM_ADDR x, ProbeTiling t) {
  (void)x;
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  static_assert(std::is_same_v<decltype(t), ProbeTiling>);
}
// QuantMode_t is declared outside namespace AscendC (ASCENDC_API.md Corrections 2).
static_assert(static_cast<uint8_t>(QuantMode_t::F322F16) != static_cast<uint8_t>(QuantMode_t::NoQuant));
