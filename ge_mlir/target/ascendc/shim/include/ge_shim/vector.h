// Vector unit, level-2 (count) forms. All operands in UB, all on PIPE_V. Floating-point types compute in
// float and round once to the element type; integer types compute in int64 and wrap.
#pragma once

#include <limits>

#include "ge_shim/tensor.h"

namespace AscendC {

struct DivConfig {
  bool highPrecision = false;  // our field; the doc only names the config type
};
inline constexpr DivConfig DEFAULT_DIV_CONFIG{};

namespace shim {

template <typename T>
using CalcT = std::conditional_t<kIsFloat<T>, float, int64_t>;

template <typename T>
CalcT<T> ToCalc(T v) {
  return static_cast<CalcT<T>>(v);
}
template <typename T, typename C>
T FromCalc(C v) {
  if constexpr (std::is_same_v<T, bfloat16_t>) {
    return bfloat16_t(static_cast<float>(v));
  } else {
    return static_cast<T>(v);
  }
}

inline void CheckCount(const char* api, int64_t count) {
  if (count < 0) Fail(api, "negative count ", count);
}

// dst[i] = f(src[i]) for i < count.
template <typename TD, typename TS, typename F>
void MapUnary(const char* api, const LocalTensor<TD>& dst, const LocalTensor<TS>& src, int64_t count, F f) {
  CheckCount(api, count);
  if (count == 0) return;
  const LocalMeta &dm = dst.ShimMeta(), &sm = src.ShimMeta();
  RequireUb(api, "dst", dm);
  RequireUb(api, "src", sm);
  uint64_t db = count * sizeof(TD), sb = count * sizeof(TS);
  CheckOverlap(api, dm, db, "src", sm, sb);
  Op op(api, PIPE_V);
  const uint8_t* s = op.Read("src", sm, sb);
  uint8_t* d = op.Write("dst", dm, db);
  for (int64_t i = 0; i < count; ++i) Store<TD>(d + i * sizeof(TD), f(Load<TS>(s + i * sizeof(TS))));
}

// dst[i] = f(src0[i], src1[i]) for i < count.
template <typename TD, typename T0, typename T1, typename F>
void MapBinary(const char* api, const LocalTensor<TD>& dst, const LocalTensor<T0>& src0, const LocalTensor<T1>& src1,
               int64_t count, F f) {
  CheckCount(api, count);
  if (count == 0) return;
  const LocalMeta &dm = dst.ShimMeta(), &m0 = src0.ShimMeta(), &m1 = src1.ShimMeta();
  RequireUb(api, "dst", dm);
  RequireUb(api, "src0", m0);
  RequireUb(api, "src1", m1);
  uint64_t db = count * sizeof(TD), b0 = count * sizeof(T0), b1 = count * sizeof(T1);
  CheckOverlap(api, dm, db, "src0", m0, b0);
  CheckOverlap(api, dm, db, "src1", m1, b1);
  Op op(api, PIPE_V);
  const uint8_t* s0 = op.Read("src0", m0, b0);
  const uint8_t* s1 = op.Read("src1", m1, b1);
  uint8_t* d = op.Write("dst", dm, db);
  for (int64_t i = 0; i < count; ++i) {
    Store<TD>(d + i * sizeof(TD), f(Load<T0>(s0 + i * sizeof(T0)), Load<T1>(s1 + i * sizeof(T1))));
  }
}

template <typename T, typename F>
void Binary(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
            int64_t count, F f) {
  MapBinary(api, dst, src0, src1, count, [&](T a, T b) { return FromCalc<T>(f(ToCalc(a), ToCalc(b))); });
}

template <typename T, typename F>
void Unary(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src, int64_t count, F f) {
  MapUnary(api, dst, src, count, [&](T a) { return FromCalc<T>(f(ToCalc(a))); });
}

// ---- rounding for Cast: every supported source value is exact in double.

template <typename T>
double ToDouble(T v) {
  return static_cast<double>(ToCalc(v));
}

inline double RoundInteger(double x, RoundMode mode, bool& inexact) {
  double fl = std::floor(x), frac = x - fl;
  inexact = frac != 0.0;
  switch (mode) {
    case RoundMode::CAST_NONE:  // our reading: CAST_NONE behaves as CAST_RINT when the value is inexact
    case RoundMode::CAST_RINT: return (frac > 0.5 || (frac == 0.5 && std::fmod(fl, 2.0) != 0.0)) ? fl + 1 : fl;
    case RoundMode::CAST_FLOOR: return fl;
    case RoundMode::CAST_CEIL: return inexact ? fl + 1 : fl;
    case RoundMode::CAST_ROUND: return x < 0 ? -std::floor(-x + 0.5) : std::floor(x + 0.5);
    case RoundMode::CAST_TRUNC: return std::trunc(x);
    case RoundMode::CAST_ODD: return (inexact && std::fmod(fl, 2.0) == 0.0) ? fl + 1 : fl;
  }
  return fl;
}

struct FloatFormat {
  int fracBits;
  int emin;
  double maxFinite;
};

// Rounds x to a binary floating format with the given mode; the result is exactly representable there.
inline double RoundToFormat(double x, const FloatFormat& f, RoundMode mode) {
  if (std::isnan(x) || std::isinf(x) || x == 0.0) return x;
  bool neg = std::signbit(x);
  double a = std::fabs(x);
  int e;
  std::frexp(a, &e);
  int exp = std::max(e - 1, f.emin);
  double q = std::ldexp(1.0, exp - f.fracBits);
  // Rounding the magnitude: floor/ceil swap for negative values.
  RoundMode m = mode;
  if (neg && mode == RoundMode::CAST_FLOOR) m = RoundMode::CAST_CEIL;
  else if (neg && mode == RoundMode::CAST_CEIL) m = RoundMode::CAST_FLOOR;
  bool inexact;
  double r = RoundInteger(a / q, m, inexact) * q;
  if (r > f.maxFinite) {
    bool toInf = m == RoundMode::CAST_NONE || m == RoundMode::CAST_RINT || m == RoundMode::CAST_ROUND ||
                 m == RoundMode::CAST_CEIL;
    r = toInf ? std::numeric_limits<double>::infinity() : f.maxFinite;
  }
  return neg ? -r : r;
}

template <typename X> constexpr const char* TypeName() {
  if constexpr (std::is_same_v<X, float>) return "float";
  else if constexpr (std::is_same_v<X, half>) return "half";
  else if constexpr (std::is_same_v<X, bfloat16_t>) return "bfloat16_t";
  else if constexpr (std::is_same_v<X, int64_t>) return "int64_t";
  else if constexpr (std::is_same_v<X, int32_t>) return "int32_t";
  else if constexpr (std::is_same_v<X, int16_t>) return "int16_t";
  else if constexpr (std::is_same_v<X, int8_t>) return "int8_t";
  else if constexpr (std::is_same_v<X, uint8_t>) return "uint8_t";
  else return "another type";
}

// The vector Cast's conversions and round modes (Ascend C API "Cast", table of Atlas A2 parameters;
// docs/ascendc.md). "Five" is RINT, FLOOR, CEIL, ROUND and TRUNC. Anything else is refused, and on a
// SoC whose table we do not have, only half <-> float (which every product documents) is accepted.
template <typename TD, typename TS>
bool CastAllowed(RoundMode m) {
  bool none = m == RoundMode::CAST_NONE;
  bool five = m == RoundMode::CAST_RINT || m == RoundMode::CAST_FLOOR || m == RoundMode::CAST_CEIL ||
              m == RoundMode::CAST_ROUND || m == RoundMode::CAST_TRUNC;
  constexpr bool f2h = std::is_same_v<TS, float> && std::is_same_v<TD, half>;
  constexpr bool h2f = std::is_same_v<TS, half> && std::is_same_v<TD, float>;
  if (Cfg().soc != Soc::Ascend910B) return (f2h && (none || five || m == RoundMode::CAST_ODD)) || (h2f && none);
  if constexpr (f2h) return none || five || m == RoundMode::CAST_ODD;
  if constexpr (h2f) return none;
  if constexpr (std::is_same_v<TS, int64_t> && std::is_same_v<TD, float>) return five;
  if constexpr (std::is_same_v<TS, int32_t> && std::is_same_v<TD, float>) return none || five;
  if constexpr (std::is_same_v<TS, int64_t> && std::is_same_v<TD, int32_t>) return none;
  if constexpr (std::is_same_v<TS, int32_t> && std::is_same_v<TD, int64_t>) return none;
  if constexpr (std::is_same_v<TS, float> && (std::is_same_v<TD, int32_t> || std::is_same_v<TD, int64_t> ||
                                              std::is_same_v<TD, int16_t> || std::is_same_v<TD, bfloat16_t>))
    return five;
  if constexpr (std::is_same_v<TS, bfloat16_t> && std::is_same_v<TD, int32_t>) return five;
  if constexpr (std::is_same_v<TS, bfloat16_t> && std::is_same_v<TD, float>) return none;
  if constexpr ((std::is_same_v<TS, uint8_t> || std::is_same_v<TS, int8_t>) && std::is_same_v<TD, half>) return none;
  if constexpr (std::is_same_v<TS, half> && (std::is_same_v<TD, uint8_t> || std::is_same_v<TD, int8_t>))
    return none || five;
  if constexpr (std::is_same_v<TS, int16_t> && std::is_same_v<TD, half>) return none || five;
  if constexpr (std::is_same_v<TS, int16_t> && std::is_same_v<TD, float>) return none;
  if constexpr (std::is_same_v<TS, int32_t> && std::is_same_v<TD, int16_t>) return none;
  return false;
}

template <typename TD>
TD CastValue(double x, RoundMode mode) {
  if constexpr (std::is_same_v<TD, half>) {
    return static_cast<half>(RoundToFormat(x, {10, -14, 65504.0}, mode));
  } else if constexpr (std::is_same_v<TD, bfloat16_t>) {
    return bfloat16_t(static_cast<float>(RoundToFormat(x, {7, -126, 0x1.fep127}, mode)));
  } else if constexpr (std::is_same_v<TD, float>) {
    return static_cast<float>(RoundToFormat(x, {23, -126, static_cast<double>(std::numeric_limits<float>::max())}, mode));
  } else {
    static_assert(std::is_integral_v<TD>, "unsupported Cast destination type");
    if (mode == RoundMode::CAST_ODD) Fail("Cast", "CAST_ODD is only defined for floating-point destinations");
    if (std::isnan(x)) return TD(0);  // our choice
    bool inexact;
    double r = RoundInteger(x, mode, inexact);
    // Saturate (our choice; the doc does not say). >= max: for 64-bit TD, double(max) is 2^63 (2^64), which
    // TD cannot hold.
    if (r < static_cast<double>(std::numeric_limits<TD>::min())) return std::numeric_limits<TD>::min();
    if (r >= static_cast<double>(std::numeric_limits<TD>::max())) return std::numeric_limits<TD>::max();
    return static_cast<TD>(r);
  }
}

inline bool CompareOp(double a, double b, CMPMODE mode) {
  switch (mode) {
    case CMPMODE::LT: return a < b;
    case CMPMODE::GT: return a > b;
    case CMPMODE::EQ: return a == b;
    case CMPMODE::LE: return a <= b;
    case CMPMODE::GE: return a >= b;
    case CMPMODE::NE: return a != b;
  }
  return false;
}

// Compare result: one bit per element, LSB first, packed into bytes (ceil(count/8) bytes written).
template <typename T, typename U, typename GetB>
void CompareImpl(const char* api, const LocalTensor<U>& dst, const LocalTensor<T>& src0, CMPMODE cmpMode, uint32_t count,
                 const LocalMeta* m1, GetB getB) {
  static_assert(std::is_integral_v<U>, "Compare writes a bit mask into an integer tensor");
  if (count == 0) return;
  const LocalMeta &dm = dst.ShimMeta(), &m0 = src0.ShimMeta();
  RequireUb(api, "dst", dm);
  RequireUb(api, "src0", m0);
  if (m1) RequireUb(api, "src1", *m1);
  uint64_t maskBytes = (count + 7) / 8;
  Op op(api, PIPE_V);
  const uint8_t* s0 = op.Read("src0", m0, count * sizeof(T));
  const uint8_t* s1 = m1 ? op.Read("src1", *m1, count * sizeof(T)) : nullptr;
  uint8_t* d = op.Write("dst", dm, maskBytes);
  std::memset(d, 0, maskBytes);
  for (uint32_t i = 0; i < count; ++i) {
    double a = ToDouble(Load<T>(s0 + i * sizeof(T)));
    if (CompareOp(a, getB(s1, i), cmpMode)) d[i / 8] = static_cast<uint8_t>(d[i / 8] | (1u << (i % 8)));
  }
}

enum class ReduceKind { Sum, Max, Min };

// Result in dst[0]; for Max/Min with calIndex the index goes into dst[1] as the raw bits of an unsigned
// integer of sizeof(T) (our choice). The temporary buffer receives per-256-byte partial results, so code
// that relies on its contents afterwards shows up.
template <typename T>
void ReduceImpl(const char* api, ReduceKind kind, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                const LocalTensor<T>& tmp, int32_t count, bool calIndex) {
  CheckCount(api, count);
  if (count == 0) return;
  const LocalMeta &dm = dst.ShimMeta(), &sm = src.ShimMeta(), &tm = tmp.ShimMeta();
  RequireUb(api, "dst", dm);
  RequireUb(api, "src", sm);
  RequireUb(api, "sharedTmpBuffer", tm);
  constexpr int64_t perRepeat = 256 / sizeof(T);
  int64_t repeats = (count + perRepeat - 1) / perRepeat;
  int64_t tmpElems = std::min<int64_t>(repeats, tm.size);
  Op op(api, PIPE_V);
  const uint8_t* s = op.Read("src", sm, static_cast<uint64_t>(count) * sizeof(T));
  uint8_t* t = tmpElems > 0 ? op.Write("sharedTmpBuffer", tm, tmpElems * sizeof(T)) : nullptr;
  uint8_t* d = op.Write("dst", dm, (calIndex ? 2 : 1) * sizeof(T));
  double acc = kind == ReduceKind::Sum ? 0.0 : ToDouble(Load<T>(s));
  int64_t index = 0;
  for (int64_t r = 0; r < repeats; ++r) {
    double part = kind == ReduceKind::Sum ? 0.0 : ToDouble(Load<T>(s + r * perRepeat * sizeof(T)));
    for (int64_t i = r * perRepeat; i < std::min<int64_t>(count, (r + 1) * perRepeat); ++i) {
      double v = ToDouble(Load<T>(s + i * sizeof(T)));
      if (kind == ReduceKind::Sum) {
        part += v;
      } else {
        part = kind == ReduceKind::Max ? std::max(part, v) : std::min(part, v);
        if ((kind == ReduceKind::Max && v > acc) || (kind == ReduceKind::Min && v < acc)) {
          acc = v;
          index = i;
        }
      }
    }
    if (kind == ReduceKind::Sum) acc += part;
    if (r < tmpElems) Store<T>(t + r * sizeof(T), CastValue<T>(part, RoundMode::CAST_RINT));
  }
  Store<T>(d, CastValue<T>(acc, RoundMode::CAST_RINT));
  if (calIndex) {
    using Bits = std::conditional_t<sizeof(T) == 2, uint16_t, std::conditional_t<sizeof(T) == 4, uint32_t, uint8_t>>;
    Store<Bits>(d + sizeof(T), static_cast<Bits>(index));
  }
}

}  // namespace shim

// ---------------------------------------------------------------- binary

#define GE_SHIM_BINARY(NAME, EXPR)                                                                           \
  template <typename T>                                                                                       \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,              \
            const int32_t& count) {                                                                           \
    shim::Binary(#NAME, dst, src0, src1, count, [](auto a, auto b) { return EXPR; });                        \
  }
GE_SHIM_BINARY(Add, a + b)
GE_SHIM_BINARY(Sub, a - b)
GE_SHIM_BINARY(Mul, a * b)
GE_SHIM_BINARY(Max, a > b ? a : b)
GE_SHIM_BINARY(Min, a < b ? a : b)
#undef GE_SHIM_BINARY

template <typename T, const DivConfig& config = DEFAULT_DIV_CONFIG>
void Div(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const int32_t& count) {
  static_assert(shim::kIsFloat<T>, "Div is modelled for floating-point types only");
  shim::Binary("Div", dst, src0, src1, count, [](float a, float b) { return a / b; });
}

template <typename T>
void And(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const int32_t& count) {
  static_assert(std::is_integral_v<T>, "And needs an integer type");
  shim::Binary("And", dst, src0, src1, count, [](int64_t a, int64_t b) { return a & b; });
}

template <typename T>
void Or(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const int32_t& count) {
  static_assert(std::is_integral_v<T>, "Or needs an integer type");
  shim::Binary("Or", dst, src0, src1, count, [](int64_t a, int64_t b) { return a | b; });
}

// ---------------------------------------------------------------- tensor-scalar

#define GE_SHIM_SCALAR(NAME, EXPR)                                                                  \
  template <typename T, bool isSetMask = true>                                                       \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,             \
            const int32_t& count) {                                                                  \
    auto s = shim::ToCalc(scalarValue);                                                              \
    shim::Unary(#NAME, dst, src, count, [s](auto a) { return EXPR; });                              \
  }
GE_SHIM_SCALAR(Adds, a + s)
GE_SHIM_SCALAR(Muls, a * s)
GE_SHIM_SCALAR(Maxs, a > s ? a : s)
GE_SHIM_SCALAR(Mins, a < s ? a : s)
GE_SHIM_SCALAR(LeakyRelu, a >= 0 ? a : a * s)
#undef GE_SHIM_SCALAR

template <typename T, bool isSetMask = true>
void ShiftLeft(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, const int32_t& count) {
  static_assert(std::is_integral_v<T>, "ShiftLeft needs an integer type");
  if constexpr (std::is_signed_v<T>) {
    if (scalarValue < 0) shim::Fail("ShiftLeft", "negative shift count ", scalarValue);
  }
  auto s = static_cast<uint64_t>(scalarValue);
  shim::Unary("ShiftLeft", dst, src, count, [s](int64_t a) {
    return s >= 64 ? int64_t(0) : static_cast<int64_t>(static_cast<uint64_t>(a) << s);  // >= width: all bits out
  });
}

// ---------------------------------------------------------------- unary

#define GE_SHIM_UNARY_FLOAT(NAME, EXPR)                                                             \
  template <typename T>                                                                              \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) {          \
    static_assert(shim::kIsFloat<T>, #NAME " needs a floating-point type");                         \
    shim::Unary(#NAME, dst, src, count, [](float a) { return EXPR; });                             \
  }
GE_SHIM_UNARY_FLOAT(Exp, std::exp(a))
GE_SHIM_UNARY_FLOAT(Ln, std::log(a))
GE_SHIM_UNARY_FLOAT(Sqrt, std::sqrt(a))
GE_SHIM_UNARY_FLOAT(Rsqrt, 1.0f / std::sqrt(a))
GE_SHIM_UNARY_FLOAT(Reciprocal, 1.0f / a)
#undef GE_SHIM_UNARY_FLOAT

template <typename T>
void Abs(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) {
  shim::Unary("Abs", dst, src, count, [](auto a) { return a < 0 ? -a : a; });
}
template <typename T>
void Relu(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) {
  shim::Unary("Relu", dst, src, count, [](auto a) { return a > 0 ? a : decltype(a)(0); });
}
template <typename T>
void Not(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) {
  static_assert(std::is_integral_v<T>, "Not needs an integer type");
  shim::Unary("Not", dst, src, count, [](int64_t a) { return ~a; });
}

template <typename T>
void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, const int32_t& count) {
  const char* api = "Duplicate";
  shim::CheckCount(api, count);
  if (count == 0) return;
  shim::RequireUb(api, "dst", dst.ShimMeta());
  shim::Op op(api, PIPE_V);
  uint8_t* d = op.Write("dst", dst.ShimMeta(), static_cast<uint64_t>(count) * sizeof(T));
  for (int32_t i = 0; i < count; ++i) shim::Store<T>(d + i * sizeof(T), scalarValue);
}

template <typename T, typename U>
void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U& scalarValue, const int32_t& count) {
  float s = static_cast<float>(scalarValue);
  shim::MapBinary("Axpy", dst, dst, src, count, [s](T acc, U x) {
    return shim::FromCalc<T>(static_cast<float>(acc) + static_cast<float>(x) * s);
  });
}

// ---------------------------------------------------------------- cast / compare / select

template <typename T, typename U>
void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode, const uint32_t count) {
  RoundMode mode = roundMode;
  if (!shim::CastAllowed<T, U>(mode)) {
    shim::Fail("Cast", "converting ", shim::TypeName<U>(), " to ", shim::TypeName<T>(), " with round mode ",
               static_cast<int>(mode), " is not in the documented Cast table",
               shim::Cfg().soc == shim::Soc::Ascend910B ? " (Atlas A2)" : " (no table known for this SoC: only "
               "half <-> float are accepted)");
  }
  shim::MapUnary("Cast", dst, src, count, [mode](U v) { return shim::CastValue<T>(shim::ToDouble(v), mode); });
}

template <typename T, typename U>
void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
             uint32_t count) {
  shim::CompareImpl("Compare", dst, src0, cmpMode, count, &src1.ShimMeta(),
                    [](const uint8_t* s1, uint32_t i) { return shim::ToDouble(shim::Load<T>(s1 + i * sizeof(T))); });
}

template <typename T, typename U>
void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode,
              uint32_t count) {
  double b = shim::ToDouble(src1Scalar);
  shim::CompareImpl("Compares", dst, src0, cmpMode, count, nullptr, [b](const uint8_t*, uint32_t) { return b; });
}

// selMask bit i (LSB first) chooses src0[i], else src1[i]. VSEL_TENSOR_SCALAR_MODE takes src1[0] as the
// scalar (our reading); VSEL_CMPMASK_SPR reads a mask register this shim does not model.
template <typename T, typename U>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            const LocalTensor<T>& src1, SELMODE selMode, uint32_t count) {
  const char* api = "Select";
  static_assert(std::is_integral_v<U>, "Select mask must be an integer tensor");
  if (count == 0) return;
  if (selMode == SELMODE::VSEL_CMPMASK_SPR) shim::Fail(api, "VSEL_CMPMASK_SPR (mask register) is not modelled");
  bool scalar = selMode == SELMODE::VSEL_TENSOR_SCALAR_MODE;
  {
    // Modes 1 and 2 need 8 KB of unified buffer left free for the API's own use (Select docs).
    uint64_t used = 0;
    for (const auto& r : shim::Rt(api).Recs())
      if (r.hw == Hardware::UB) used = std::max<uint64_t>(used, uint64_t{r.start} + r.len);
    uint64_t cap = shim::Cfg().capacity[static_cast<int>(Hardware::UB)];
    if (used + 8192 > cap)
      shim::Fail(api, "modes 1 and 2 need 8 KB of the unified buffer reserved; the kernel's buffers end at ",
                 used, " of ", cap, " bytes");
  }
  const LocalMeta &dm = dst.ShimMeta(), &km = selMask.ShimMeta(), &m0 = src0.ShimMeta(), &m1 = src1.ShimMeta();
  shim::RequireUb(api, "dst", dm);
  shim::RequireUb(api, "selMask", km);
  shim::RequireUb(api, "src0", m0);
  shim::RequireUb(api, "src1", m1);
  uint64_t bytes = static_cast<uint64_t>(count) * sizeof(T);
  shim::CheckOverlap(api, dm, bytes, "src0", m0, bytes);
  if (!scalar) shim::CheckOverlap(api, dm, bytes, "src1", m1, bytes);
  shim::Op op(api, PIPE_V);
  const uint8_t* k = op.Read("selMask", km, (count + 7) / 8);
  const uint8_t* s0 = op.Read("src0", m0, bytes);
  const uint8_t* s1 = op.Read("src1", m1, scalar ? sizeof(T) : bytes);
  uint8_t* d = op.Write("dst", dm, bytes);
  for (uint32_t i = 0; i < count; ++i) {
    bool pick0 = (k[i / 8] >> (i % 8)) & 1u;
    T v = pick0 ? shim::Load<T>(s0 + i * sizeof(T)) : shim::Load<T>(s1 + (scalar ? 0 : i * sizeof(T)));
    shim::Store<T>(d + i * sizeof(T), v);
  }
}

// ---------------------------------------------------------------- reductions

template <typename T, bool isSetMask = true>
void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,
               const int32_t count) {
  shim::ReduceImpl("ReduceSum", shim::ReduceKind::Sum, dst, src, sharedTmpBuffer, count, false);
}
template <typename T>
void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,
               const int32_t count, bool calIndex = 0) {
  shim::ReduceImpl("ReduceMax", shim::ReduceKind::Max, dst, src, sharedTmpBuffer, count, calIndex);
}
template <typename T>
void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,
               const int32_t count, bool calIndex = 0) {
  shim::ReduceImpl("ReduceMin", shim::ReduceKind::Min, dst, src, sharedTmpBuffer, count, calIndex);
}

}  // namespace AscendC
