// Index arithmetic with MLIR's unsigned/rounding semantics.

__aicore__ inline int64_t CeilDivS(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return (a % b != 0 && ((a < 0) == (b < 0))) ? q + 1 : q;
}

__aicore__ inline int64_t CeilDivU(int64_t a, int64_t b) {
  return a == 0 ? 0 : static_cast<int64_t>((static_cast<uint64_t>(a) - 1) / static_cast<uint64_t>(b) + 1);
}

__aicore__ inline int64_t DivU(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) / static_cast<uint64_t>(b));
}

__aicore__ inline int64_t FloorDivS(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

__aicore__ inline int64_t MaxU(int64_t a, int64_t b) {
  return static_cast<uint64_t>(a) > static_cast<uint64_t>(b) ? a : b;
}

__aicore__ inline int64_t MinU(int64_t a, int64_t b) {
  return static_cast<uint64_t>(a) < static_cast<uint64_t>(b) ? a : b;
}

__aicore__ inline int64_t RemU(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) % static_cast<uint64_t>(b));
}
