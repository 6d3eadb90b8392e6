//===- CpuRuntime.cpp - helpers the CPU target's JIT code may call ---------===//
//
// LLVM turns an fptrunc/fpext between f32/f64 and f16/bf16 into a call to a
// compiler-rt helper (__truncsfbf2, __truncdfhf2, ...) whenever the CPU it
// compiles for has no instruction for it: bf16 without AVX512-BF16, f64->f16
// without AVX512-FP16, any f16 conversion without F16C. Which helpers are
// needed therefore depends on the machine, and the process may not export
// them (libgcc 12 has no bf16 helpers at all). The CPU runner registers these
// implementations in every ExecutionEngine under the compiler-rt names, so the
// same module runs on any x86-64 CPU.
//
// Exact IEEE round-to-nearest-even from the wider type in one step (no double
// rounding through f32), NaN stays NaN (quieted), overflow gives infinity,
// results below the smallest subnormal give signed zero. The 16-bit results
// travel in XMM0 like _Float16, as the x86-64 psABI and LLVM have it for both
// half and bfloat.
//
//===----------------------------------------------------------------------===//

#include <cstdint>
#include <cstring>

namespace {

/// `x` rounded to a binary format with `E` exponent and `M` mantissa bits,
/// as the bit pattern of that format.
template <int E, int M>
uint16_t roundDouble(double x) {
  uint64_t u;
  std::memcpy(&u, &x, sizeof u);
  const uint16_t sign = static_cast<uint16_t>((u >> 63) << (E + M));
  const uint64_t a = u & 0x7fffffffffffffffULL;
  constexpr int bias = (1 << (E - 1)) - 1;
  constexpr uint32_t maxExp = (1u << E) - 1;
  if (a > 0x7ff0000000000000ULL) // NaN: keep the top payload bits, quiet it
    return sign | (maxExp << M) | (1u << (M - 1)) |
           static_cast<uint16_t>((a >> (52 - M)) & ((1u << M) - 1));
  if (a == 0x7ff0000000000000ULL)
    return sign | (maxExp << M);
  if ((a >> 52) == 0) // zero or a double subnormal: far below every target's range
    return sign;
  const uint64_t m = (a & ((1ULL << 52) - 1)) | (1ULL << 52);
  int te = static_cast<int>(a >> 52) - 1023 + bias;
  int shift = 52 - M + (te >= 1 ? 0 : 1 - te);
  if (shift >= 54) // below half the smallest subnormal
    return sign;
  uint64_t r = m >> shift;
  const uint64_t rem = m & ((1ULL << shift) - 1), half = 1ULL << (shift - 1);
  if (rem > half || (rem == half && (r & 1)))
    ++r;
  if (te < 1) // subnormal; a carry into bit M encodes the smallest normal
    return sign | static_cast<uint16_t>(r);
  if (r == (1ULL << (M + 1))) {
    r >>= 1;
    ++te;
  }
  if (te >= static_cast<int>(maxExp))
    return sign | (maxExp << M);
  return sign | static_cast<uint16_t>((static_cast<uint32_t>(te) << M) | (r & ((1u << M) - 1)));
}

_Float16 fromBits(uint16_t bits) {
  _Float16 h;
  std::memcpy(&h, &bits, sizeof h);
  return h;
}

uint16_t toBits(_Float16 h) {
  uint16_t bits;
  std::memcpy(&bits, &h, sizeof bits);
  return bits;
}

/// IEEE half to float, exactly (every half is a float).
float halfToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h >> 15) << 31;
  const uint32_t e = (h >> 10) & 0x1f, m = h & 0x3ff;
  uint32_t bits;
  if (e == 0x1f) {
    bits = sign | 0x7f800000u | (m << 13) | (m ? 0x400000u : 0);
  } else if (e != 0) {
    bits = sign | ((e - 15 + 127) << 23) | (m << 13);
  } else if (m == 0) {
    bits = sign;
  } else { // subnormal half: normalize
    int shift = 0;
    uint32_t mm = m;
    while (!(mm & 0x400)) {
      mm <<= 1;
      ++shift;
    }
    bits = sign | (static_cast<uint32_t>(127 - 15 + 1 - shift) << 23) | ((mm & 0x3ff) << 13);
  }
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

} // namespace

extern "C" {
__attribute__((visibility("default"))) _Float16 ge_rt_truncsfbf2(float x) {
  return fromBits(roundDouble<8, 7>(x));
}
__attribute__((visibility("default"))) _Float16 ge_rt_truncdfbf2(double x) {
  return fromBits(roundDouble<8, 7>(x));
}
__attribute__((visibility("default"))) _Float16 ge_rt_truncsfhf2(float x) {
  return fromBits(roundDouble<5, 10>(x));
}
__attribute__((visibility("default"))) _Float16 ge_rt_truncdfhf2(double x) {
  return fromBits(roundDouble<5, 10>(x));
}
__attribute__((visibility("default"))) float ge_rt_extendhfsf2(_Float16 h) {
  return halfToFloat(toBits(h));
}
__attribute__((visibility("default"))) double ge_rt_extendhfdf2(_Float16 h) {
  return halfToFloat(toBits(h));
}
__attribute__((visibility("default"))) float ge_rt_extendbfsf2(_Float16 h) {
  const uint32_t bits = static_cast<uint32_t>(toBits(h)) << 16;
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}
}
