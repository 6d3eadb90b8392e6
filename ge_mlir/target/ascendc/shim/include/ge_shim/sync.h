// Intra-core flags and barriers, and the cross-core barrier. On CPU they drive the sync checker only.
#pragma once

#include "ge_shim/runtime.h"

namespace AscendC {

namespace shim {
inline void CheckEventId(const char* api, HardEvent e, int32_t id) {
  if (id < 0 || id > 7) Fail(api, "event id ", id, " of HardEvent::", e, " is outside 0..7");
  // With TQue queues in use, their own synchronization takes event ids from the pipe: a
  // hand-written flag must use an id from TPipe::AllocEventID/FetchEventID, never a literal.
  BlockRt& rt = Rt(api);
  if (!rt.Ques().empty() && !rt.EventIdIssued(e, id)) {
    Fail(api, "event id ", id, " of HardEvent::", e, " was not obtained from TPipe::AllocEventID/FetchEventID, "
         "but TQue queues are in use (their synchronization allocates event ids from the pipe)");
  }
}
}  // namespace shim

template <HardEvent event>
void SetFlag(int32_t eventID) {
  static_assert(event != HardEvent::MAX, "HardEvent::MAX is not an event");
  shim::CheckEventId("SetFlag", event, eventID);
  shim::Rt("SetFlag").SetFlag(event, eventID);
}

template <HardEvent event>
void WaitFlag(int32_t eventID) {
  static_assert(event != HardEvent::MAX, "HardEvent::MAX is not an event");
  shim::CheckEventId("WaitFlag", event, eventID);
  shim::Rt("WaitFlag").WaitFlag(event, eventID);
}

// A barrier on one pipe orders that pipe with itself, which in-order pipes already are; only PIPE_ALL
// orders pipes with each other.
template <pipe_t pipe>
void PipeBarrier() {
  shim::BlockRt& rt = shim::Rt("PipeBarrier");
  if (pipe == PIPE_ALL) rt.BarrierAll();
}

// Blocks run one at a time; SyncAll parks this block until every block has reached it.
template <bool isAIVOnly = true>
void SyncAll() {
  shim::BlockRt& rt = shim::Rt("SyncAll");
  rt.BarrierAll();
  if (rt.Num() > 1 && shim::gBaton != nullptr) shim::gBaton->Barrier(rt.Idx());
}

template <uint8_t modeId, pipe_t pipe>
void CrossCoreSetFlag(uint16_t flagId) {
  (void)flagId;
  shim::Fail("CrossCoreSetFlag", "cross-core flags (mix AIC/AIV kernels) are not modelled");
}
template <uint8_t modeId = 0, pipe_t pipe = PIPE_S>
void CrossCoreWaitFlag(uint16_t flagId) {
  (void)flagId;
  shim::Fail("CrossCoreWaitFlag", "cross-core flags (mix AIC/AIV kernels) are not modelled");
}

}  // namespace AscendC
