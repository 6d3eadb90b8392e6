// Clean-room CPU shim of the Ascend C API subset: qualifiers, scalar types, enums, error reporting.
// Written from /work/shared/ASCENDC_API.md only (interface facts); no CANN code was used.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <type_traits>

#ifndef ASCENDC_CPU_DEBUG
#define ASCENDC_CPU_DEBUG 1
#endif
// Host code can tell ge-mlir's shim from other CPU builds (its extra host helpers, e.g. GmTensorBegin).
#define GE_ASCENDC_SHIM 1

// Address-space and kernel-kind qualifiers are compiler keywords on NPU; on CPU they carry no meaning.
#define __global__
#define __aicore__
#define __vector__
#define __cube__
#define __mix__(a, b)
#define __gm__
#define __ubuf__
#define __cbuf__
#define __ca__
#define __cb__
#define __cc__
#define __fbuf__
#define GM_ADDR __gm__ uint8_t*

#if !defined(__FLT16_MAX__)
#error "ge ascendc shim: half needs _Float16 (GCC >= 12 on x86-64)"
#endif
using half = _Float16;

// Soft bfloat16: storage only, arithmetic goes through float. Conversion from float rounds to nearest even.
struct bfloat16_t {
  uint16_t bits = 0;
  bfloat16_t() = default;
  bfloat16_t(float f) {  // NOLINT: implicit like a builtin floating type
    uint32_t u;
    std::memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u) {
      bits = static_cast<uint16_t>((u >> 16) | 0x40u);  // keep NaN a (quiet) NaN
    } else {
      u += 0x7fffu + ((u >> 16) & 1u);
      bits = static_cast<uint16_t>(u >> 16);
    }
  }
  operator float() const {
    uint32_t u = static_cast<uint32_t>(bits) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  }
  static bfloat16_t FromBits(uint16_t b) {
    bfloat16_t r;
    r.bits = b;
    return r;
  }
};

// pipe_t and the event ids are compiler builtins on NPU (global scope). Values are ours; never rely on them.
enum pipe_t : uint8_t { PIPE_S, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_FIX, PIPE_ALL };
enum event_t : uint8_t { EVENT_ID0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7 };

// Declared outside namespace AscendC, as the public headers do (documented uses write
// QuantMode_t::F322F16; AscendC::QuantMode_t does not compile on CANN, so it must not here).
enum QuantMode_t : uint8_t { NoQuant = 0, F322F16, F322BF16, DEQF16, VDEQF16, QF322B8_PRE, VQF322B8_PRE, REQ8, VREQ8 };

namespace AscendC {

enum class TPosition : uint8_t {
  GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM = VECCALC, SPM, SHM = SPM, TSCM,
  C2PIPE2GM, C2PIPE2LOCAL, MAX
};
using QuePosition = TPosition;

enum class HardEvent : uint8_t {
  MTE2_MTE1, MTE1_MTE2, MTE1_M, M_MTE1, MTE2_V, V_MTE2, MTE3_V, V_MTE3, M_V, V_M, V_V, MTE3_MTE1, MTE1_MTE3,
  MTE1_V, MTE2_M, M_MTE2, V_MTE1, M_FIX, FIX_M, MTE3_MTE2, MTE2_MTE3, S_V, V_S, S_MTE2, MTE2_S, S_MTE3, MTE3_S,
  MTE2_FIX, FIX_MTE2, FIX_S, M_S, FIX_MTE3, MTE1_FIX, FIX_MTE1, FIX_FIX, MAX
};

enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };

// Only the documented modes; the real enum has more after CAST_ODD.
enum class RoundMode : uint8_t { CAST_NONE = 0, CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC, CAST_ODD };
enum class CMPMODE : uint8_t { LT = 0, GT, EQ, LE, GE, NE };
enum class SELMODE : uint8_t { VSEL_CMPMASK_SPR = 0, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };

// ASCENDC_API.md names these enums without listing their members: the members below are our choice.
enum class CubeFormat : uint8_t { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR };
enum class CacheMode : uint8_t { CACHE_MODE_NORMAL = 0, CACHE_MODE_DISABLE, CACHE_MODE_LAST };

using TEventID = int8_t;
template <typename T>
using PrimT = T;

namespace shim {

constexpr int kExitCode = 86;

inline thread_local int64_t tlsBlockIdx = -1;
inline thread_local int64_t tlsBlockNum = 0;
inline const char* gKernelName = nullptr;

inline const char* Name(TPosition p) {
  switch (p) {
    case TPosition::GM: return "GM";
    case TPosition::A1: return "A1";
    case TPosition::A2: return "A2";
    case TPosition::B1: return "B1";
    case TPosition::B2: return "B2";
    case TPosition::C1: return "C1";
    case TPosition::C2: return "C2";
    case TPosition::CO1: return "CO1";
    case TPosition::CO2: return "CO2";
    case TPosition::VECIN: return "VECIN";
    case TPosition::VECOUT: return "VECOUT";
    case TPosition::VECCALC: return "VECCALC";
    case TPosition::SPM: return "SPM";
    case TPosition::TSCM: return "TSCM";
    case TPosition::C2PIPE2GM: return "C2PIPE2GM";
    case TPosition::C2PIPE2LOCAL: return "C2PIPE2LOCAL";
    default: return "MAX";
  }
}

inline const char* Name(Hardware h) {
  static const char* const names[] = {"GM", "UB", "L1", "L0A", "L0B", "L0C", "BIAS", "FIXBUF", "MAX"};
  return names[static_cast<int>(h)];
}

inline const char* Name(pipe_t p) {
  static const char* const names[] = {"PIPE_S",    "PIPE_V",    "PIPE_M",   "PIPE_MTE1",
                                      "PIPE_MTE2", "PIPE_MTE3", "PIPE_FIX", "PIPE_ALL"};
  return names[static_cast<int>(p)];
}

inline const char* Name(HardEvent e) {
  static const char* const names[] = {
      "MTE2_MTE1", "MTE1_MTE2", "MTE1_M",   "M_MTE1",    "MTE2_V",    "V_MTE2",   "MTE3_V",    "V_MTE3",  "M_V",
      "V_M",       "V_V",       "MTE3_MTE1", "MTE1_MTE3", "MTE1_V",   "MTE2_M",   "M_MTE2",    "V_MTE1",  "M_FIX",
      "FIX_M",     "MTE3_MTE2", "MTE2_MTE3", "S_V",       "V_S",      "S_MTE2",   "MTE2_S",    "S_MTE3",  "MTE3_S",
      "MTE2_FIX",  "FIX_MTE2",  "FIX_S",     "M_S",       "FIX_MTE3", "MTE1_FIX", "FIX_MTE1",  "FIX_FIX", "MAX"};
  return names[static_cast<int>(e)];
}

template <typename X>
auto Printable(const X& x) {
  if constexpr (std::is_same_v<X, half> || std::is_same_v<X, bfloat16_t>) {
    return static_cast<float>(x);
  } else if constexpr (std::is_same_v<X, int8_t> || std::is_same_v<X, uint8_t> || std::is_same_v<X, bool>) {
    return static_cast<int>(x);
  } else if constexpr (std::is_enum_v<X>) {
    if constexpr (std::is_same_v<X, TPosition> || std::is_same_v<X, Hardware> || std::is_same_v<X, pipe_t> ||
                  std::is_same_v<X, HardEvent>) {
      return Name(x);
    } else {
      return static_cast<int>(x);
    }
  } else {
    return x;
  }
}

// Every check failure ends here: one line on stderr, then a distinct exit code. _Exit because other
// block threads may be parked on the scheduler's condition variable; destructors must not run.
[[noreturn]] inline void Report(const std::string& msg) {
  std::fflush(stdout);
  if (tlsBlockIdx >= 0) {
    std::fprintf(stderr, "ascendc-shim: error [%s block %lld/%lld]: %s\n", gKernelName ? gKernelName : "kernel",
                 static_cast<long long>(tlsBlockIdx), static_cast<long long>(tlsBlockNum), msg.c_str());
  } else {
    std::fprintf(stderr, "ascendc-shim: error: %s\n", msg.c_str());
  }
  std::fflush(stderr);
  std::_Exit(kExitCode);
}

template <typename... A>
[[noreturn]] void Fail(const char* api, const A&... parts) {
  std::ostringstream os;
  os << api << ": ";
  (os << ... << Printable(parts));
  Report(os.str());
}

template <typename T>
inline T Load(const void* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
template <typename T>
inline void Store(void* p, const T& v) {
  std::memcpy(p, &v, sizeof(T));
}

template <typename T>
constexpr bool kIsFloat = std::is_floating_point_v<T> || std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>;

}  // namespace shim
}  // namespace AscendC
