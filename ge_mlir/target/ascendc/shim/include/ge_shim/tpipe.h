// TPipe / TQue / TQueBind / TBuf: linear on-chip allocation with capacity checks, and the queue protocol
// with its implicit synchronisation.
#pragma once

#include "ge_shim/tensor.h"

namespace AscendC {

template <TPosition pos>
class TBuf;

class TPipe {
 public:
  TPipe() { Init(); }
  void Init() {
    used_.fill(0);
    events_.fill(0);
  }
  template <class T>
  bool InitBuffer(T& que, uint8_t num, uint32_t len) {
    return que.ShimInitBuffer(*this, num, len);
  }
  template <TPosition pos>
  bool InitBuffer(TBuf<pos>& buf, uint32_t len) {
    return buf.ShimInitBuffer(*this, len);
  }
  template <HardEvent evt>
  TEventID AllocEventID() {
    uint8_t& mask = EventMask<evt>();
    for (int id = 0; id < 8; ++id) {
      if (!(mask & (1u << id))) {
        mask = static_cast<uint8_t>(mask | (1u << id));
        shim::Rt("TPipe::AllocEventID").IssueEventId(evt, id);
        return static_cast<TEventID>(id);
      }
    }
    shim::Fail("TPipe::AllocEventID", "all 8 event ids of HardEvent::", evt, " are allocated");
  }
  template <HardEvent evt>
  void ReleaseEventID(TEventID id) {
    uint8_t& mask = EventMask<evt>();
    if (id < 0 || id > 7 || !(mask & (1u << id))) {
      shim::Fail("TPipe::ReleaseEventID", "event id ", static_cast<int>(id), " of HardEvent::", evt,
                 " is not allocated");
    }
    mask = static_cast<uint8_t>(mask & ~(1u << id));
  }
  template <HardEvent evt>
  TEventID FetchEventID() {
    uint8_t mask = EventMask<evt>();
    for (int id = 0; id < 8; ++id) {
      if (!(mask & (1u << id))) {
        shim::Rt("TPipe::FetchEventID").IssueEventId(evt, id);
        return static_cast<TEventID>(id);
      }
    }
    shim::Fail("TPipe::FetchEventID", "all 8 event ids of HardEvent::", evt, " are allocated");
  }
  void Destroy() { Init(); }
  void Reset() { Init(); }

  // Linear allocation of `count` buffers of `len` bytes, each rounded up to the buffer's address alignment.
  uint32_t ShimAlloc(Hardware hw, uint32_t len, uint32_t count) {
    const char* api = "TPipe::InitBuffer";
    if (hw == Hardware::GM || hw == Hardware::MAX) shim::Fail(api, "the position has no on-chip buffer");
    if (len == 0 || count == 0) shim::Fail(api, "zero-sized buffer (num=", count, ", len=", len, ")");
    uint32_t align = shim::HwAlign(hw);
    uint64_t rounded = shim::AlignedLen(hw, len);
    uint64_t start = used_[static_cast<size_t>(hw)];
    uint64_t total = start + rounded * count;
    uint32_t cap = shim::Cfg().capacity[static_cast<size_t>(hw)];
    if (total > cap) {
      shim::Fail(api, hw, " overflow: ", total, " bytes requested, capacity ", cap, " (this call: ", count, " x ",
                 rounded, " bytes, len ", len, " rounded up to ", align, "; ", start, " bytes already allocated)");
    }
    used_[static_cast<size_t>(hw)] = static_cast<uint32_t>(total);
    return static_cast<uint32_t>(start);
  }

 private:
  // Allocated ids of one event, one bit each.
  template <HardEvent evt>
  uint8_t& EventMask() {
    static_assert(evt != HardEvent::MAX, "HardEvent::MAX is not an event");
    return events_[static_cast<size_t>(evt)];
  }

  std::array<uint32_t, shim::kHw> used_{};
  std::array<uint8_t, static_cast<size_t>(HardEvent::MAX)> events_{};
};

template <TPosition src, TPosition dst, int32_t depth, auto mask = 0>
class TQueBind {
  static_assert(depth >= 1, "TQue depth must be at least 1");
  // The buffer lives where the data is staged: the source side unless that is GM.
  static constexpr TPosition kPos = src == TPosition::GM ? dst : src;

 public:
  template <typename T>
  LocalTensor<T> AllocTensor() {
    const char* api = "TQue::AllocTensor";
    shim::BlockRt& rt = shim::Rt(api);
    shim::QueRec& q = Que(api);
    size_t n = q.bufs.size();
    for (size_t i = 0; i < n; ++i) {
      size_t k = (q.next + i) % n;
      shim::BufRec& r = rt.Recs()[static_cast<size_t>(q.bufs[k])];
      if (r.state != shim::BufState::Free) continue;
      r.state = shim::BufState::Allocated;
      q.next = k + 1;
      if (r.hasFreeSnap) rt.Join(q.producer, r.freeSnap);  // = WaitFlag of the consumer->producer event
      return LocalTensor<T>::ShimMake(
          LocalMeta{kPos, r.hw, r.start, static_cast<uint32_t>(len_ / sizeof(T)), q.bufs[k], r.gen, rt.Epoch()});
    }
    shim::Fail(api, "alloc beyond depth: all ", n, " buffers of the ", kPos,
               " queue (InitBuffer num=", n, ", depth=", depth, ") are in use; FreeTensor one first");
  }

  template <typename T>
  bool EnQue(const LocalTensor<T>& tensor) {
    const char* api = "TQue::EnQue";
    shim::BlockRt& rt = shim::Rt(api);
    shim::QueRec& q = Que(api);
    shim::BufRec& r = Own(api, tensor.ShimMeta());
    if (r.state == shim::BufState::Enqueued) shim::Fail(api, "the tensor is already enqueued");
    if (static_cast<int32_t>(q.fifo.size()) >= depth) {
      shim::Fail(api, "queue full: ", q.fifo.size(), " tensors already enqueued, depth ", depth);
    }
    r.state = shim::BufState::Enqueued;
    r.enqSnap = rt.SnapOf(q.producer);  // = SetFlag of the producer->consumer event
    q.fifo.push_back(tensor.ShimMeta().rec);
    return true;
  }

  template <typename T>
  LocalTensor<T> DeQue() {
    const char* api = "TQue::DeQue";
    shim::BlockRt& rt = shim::Rt(api);
    shim::QueRec& q = Que(api);
    if (q.fifo.empty()) {
      shim::Fail(api, "DeQue on an empty ", kPos, " queue: no tensor was enqueued (on NPU this waits forever)");
    }
    int b = q.fifo.front();
    q.fifo.pop_front();
    shim::BufRec& r = rt.Recs()[static_cast<size_t>(b)];
    r.state = shim::BufState::Dequeued;
    rt.Join(q.consumer, r.enqSnap);  // = WaitFlag of the producer->consumer event
    return LocalTensor<T>::ShimMake(
        LocalMeta{kPos, r.hw, r.start, static_cast<uint32_t>(len_ / sizeof(T)), b, r.gen, rt.Epoch()});
  }

  template <typename T>
  void FreeTensor(LocalTensor<T>& tensor) {
    const char* api = "TQue::FreeTensor";
    shim::BlockRt& rt = shim::Rt(api);
    shim::QueRec& q = Que(api);
    shim::BufRec& r = Own(api, tensor.ShimMeta(), true);
    if (r.state == shim::BufState::Enqueued) shim::Fail(api, "the tensor is still enqueued; DeQue it first");
    r.state = shim::BufState::Free;
    ++r.gen;
    r.freeSnap = rt.SnapOf(q.consumer);  // = SetFlag of the consumer->producer event
    r.hasFreeSnap = true;
  }

  bool VacantInQue() { return static_cast<int32_t>(Que("TQue::VacantInQue").fifo.size()) < depth; }
  bool HasTensorInQue() { return !Que("TQue::HasTensorInQue").fifo.empty(); }
  int32_t GetTensorCountInQue() { return static_cast<int32_t>(Que("TQue::GetTensorCountInQue").fifo.size()); }
  bool HasIdleBuffer() {
    const char* api = "TQue::HasIdleBuffer";
    shim::BlockRt& rt = shim::Rt(api);
    for (int b : Que(api).bufs) {
      if (rt.Recs()[static_cast<size_t>(b)].state == shim::BufState::Free) return true;
    }
    return false;
  }

  bool ShimInitBuffer(TPipe& pipe, uint8_t num, uint32_t len) {
    const char* api = "TPipe::InitBuffer";
    shim::BlockRt& rt = shim::Rt(api);
    if (que_ >= 0 && epoch_ == rt.Epoch()) shim::Fail(api, "this queue was already initialised");
    Hardware hw = shim::HwOf(kPos);
    if (hw == Hardware::GM) shim::Fail(api, "queue position ", kPos, " has no on-chip buffer");
    uint32_t start = pipe.ShimAlloc(hw, len, num);
    auto stride = static_cast<uint32_t>(shim::AlignedLen(hw, len));  // fits: ShimAlloc checked the capacity
    shim::QueRec q;
    q.src = src;
    q.dst = dst;
    q.producer = shim::ProducerOf(src == TPosition::GM ? dst : src);
    q.consumer = shim::ConsumerOf(dst == TPosition::GM ? src : dst);
    que_ = static_cast<int>(rt.Ques().size());
    for (uint32_t i = 0; i < num; ++i) {
      shim::BufRec r;
      r.hw = hw;
      r.pos = kPos;
      r.start = start + i * stride;
      r.len = stride;
      r.que = que_;
      r.state = shim::BufState::Free;
      q.bufs.push_back(rt.AddRec(r));
    }
    rt.Ques().push_back(std::move(q));
    epoch_ = rt.Epoch();
    len_ = len;
    return true;
  }

 private:
  shim::QueRec& Que(const char* api) {
    shim::BlockRt& rt = shim::Rt(api);
    if (que_ < 0 || epoch_ != rt.Epoch()) shim::Fail(api, "queue used before TPipe::InitBuffer");
    return rt.Ques()[static_cast<size_t>(que_)];
  }
  // The live buffer record of a tensor of this queue; a released buffer is a double free when freeing.
  shim::BufRec& Own(const char* api, const LocalMeta& m, bool freeing = false) {
    shim::BlockRt& rt = shim::Rt(api);
    if (m.rec < 0 || m.epoch != rt.Epoch()) shim::Fail(api, "the tensor does not come from this queue");
    shim::BufRec& r = rt.Recs()[static_cast<size_t>(m.rec)];
    if (r.que != que_) shim::Fail(api, "the tensor does not come from this queue");
    if (r.gen != m.gen || r.state == shim::BufState::Free) {
      if (freeing) {
        shim::Fail(api, "double free: the buffer (", r.hw, " offset ", r.start, ") was already released by FreeTensor");
      }
      shim::Fail(api, "use after free: the tensor's buffer was released by FreeTensor");
    }
    return r;
  }

  int que_ = -1;
  uint64_t epoch_ = 0;
  uint32_t len_ = 0;
};

template <TPosition pos, int32_t depth, auto mask = 0>
class TQue : public TQueBind<pos, pos, depth, mask> {};

template <TPosition pos = TPosition::LCM>
class TBuf {
 public:
  template <typename T>
  LocalTensor<T> Get() {
    return Make<T>("TBuf::Get", 0, static_cast<uint32_t>(len_ / sizeof(T)));
  }
  // len is in elements of T.
  template <typename T>
  LocalTensor<T> Get(uint32_t len) {
    return Make<T>("TBuf::Get", 0, len);
  }
  // size in elements of T, bufOffset in bytes (our reading; the doc gives no units).
  template <typename T>
  LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset) {
    return Make<T>("TBuf::GetWithOffset", bufOffset, size);
  }

  bool ShimInitBuffer(TPipe& pipe, uint32_t len) {
    const char* api = "TPipe::InitBuffer";
    shim::BlockRt& rt = shim::Rt(api);
    if (rec_ >= 0 && epoch_ == rt.Epoch()) shim::Fail(api, "this TBuf was already initialised");
    Hardware hw = shim::HwOf(pos);
    if (hw == Hardware::GM) shim::Fail(api, "TBuf position ", pos, " has no on-chip buffer");
    shim::BufRec r;
    r.hw = hw;
    r.pos = pos;
    r.start = pipe.ShimAlloc(hw, len, 1);
    r.len = static_cast<uint32_t>(shim::AlignedLen(hw, len));
    rec_ = rt.AddRec(r);
    epoch_ = rt.Epoch();
    len_ = len;
    return true;
  }

 private:
  template <typename T>
  LocalTensor<T> Make(const char* api, uint32_t byteOffset, uint32_t count) {
    shim::BlockRt& rt = shim::Rt(api);
    if (rec_ < 0 || epoch_ != rt.Epoch()) shim::Fail(api, "TBuf used before TPipe::InitBuffer");
    const shim::BufRec& r = rt.Recs()[static_cast<size_t>(rec_)];
    uint64_t bytes = static_cast<uint64_t>(count) * sizeof(T);
    if (byteOffset + bytes > len_) {
      shim::Fail(api, "requested [", byteOffset, ", ", byteOffset + bytes, ") bytes of a TBuf of ", len_, " bytes");
    }
    LocalMeta m{pos, r.hw, r.start + byteOffset, count, rec_, r.gen, rt.Epoch()};
    shim::RequireAlign(api, "tensor", m, 32);  // every buffer start is at least 32-byte aligned
    return LocalTensor<T>::ShimMake(m);
  }

  int rec_ = -1;
  uint64_t epoch_ = 0;
  uint32_t len_ = 0;
};

}  // namespace AscendC
