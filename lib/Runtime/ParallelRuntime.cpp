//===- ParallelRuntime.cpp - the thread team multi-threaded CPU code runs on --===//
//
// The CPU target turns its parallel loops (the `scf.forall` around large matmul
// parts) into OpenMP dialect ops; LLVM's OpenMP IR builder then emits calls to the
// OpenMP runtime ABI: `__kmpc_fork_call` with one outlined microtask and one
// aggregate argument, `__kmpc_for_static_init_*` for the static work share,
// `__kmpc_barrier` at the end of the loop, `__kmpc_push_num_threads` and
// `__kmpc_global_thread_num`. These are exactly the entry points below, registered
// in every ExecutionEngine under those names (and renamed in saved artefacts), so
// no OpenMP runtime has to be installed: no PyPI package ships LLVM's libomp, and
// the MLIR async runtime the target used before costs tens of microseconds per
// parallel region (task objects, a condition-variable wake-up per worker), more
// than a ResNet stage's matmul takes on two cores.
//
// The team: the calling thread (thread 0) and up to hardware_concurrency - 1
// workers, started on first use (fewer if the system grants fewer threads). Between
// regions workers spin for a short while
// (regions of one model call follow each other within microseconds) and then
// sleep on a condition variable, so an idle process burns no CPU. A thread waiting
// for a worker (at the barrier ending a region's loop, or for the region's end) runs
// that worker's share itself when the worker has not started it: another runtime's
// spinning threads (torch's OpenMP team between eager ops) can keep a worker off the
// cores for a whole time slice, and a share is claimed once per region by whoever
// comes first. Work sharing is
// static and contiguous (the same iterations go to the same thread on every call;
// tasks never split a reduction, so results do not depend on the thread count).
// A fork from inside a region, or while another thread's call holds the team, runs
// its microtask on the calling thread alone: correct, never blocking. A child process
// of fork() starts a team of its own (it has none of the parent's threads).
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <pthread.h>
#include <thread>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define GE_PAUSE() _mm_pause()
#else
#define GE_PAUSE() std::this_thread::yield()
#endif

namespace {

/// The outlined region: (global thread id*, bound thread id*, captured args...).
using Microtask = void (*)(int32_t *, int32_t *, ...);

/// Most captured arguments a microtask may take. LLVM 22's OpenMP IR builder packs
/// every capture into one struct (argc 1); another LLVM passing more fails loudly
/// in fork_call rather than calling the microtask with arguments missing.
constexpr int kMaxArgs = 8;

/// Most threads a team has (slots with a claim each).
constexpr int kMaxTeam = 256;

/// How long a worker spins for the next region before it sleeps.
constexpr auto kSpin = std::chrono::microseconds(200);

/// The team the calling thread is running in (1 outside any region).
thread_local int32_t tlThread = 0;
thread_local int32_t tlTeam = 1;
/// `__kmpc_push_num_threads` for the next fork of this thread (0: all).
thread_local int32_t tlPushed = 0;

void invoke(Microtask fn, int32_t gtid, int argc, void *const *args) {
  int32_t btid = 0;
  using F0 = void (*)(int32_t *, int32_t *);
  using F1 = void (*)(int32_t *, int32_t *, void *);
  using F2 = void (*)(int32_t *, int32_t *, void *, void *);
  using F3 = void (*)(int32_t *, int32_t *, void *, void *, void *);
  using F4 = void (*)(int32_t *, int32_t *, void *, void *, void *, void *);
  using F5 = void (*)(int32_t *, int32_t *, void *, void *, void *, void *, void *);
  using F6 = void (*)(int32_t *, int32_t *, void *, void *, void *, void *, void *, void *);
  using F7 = void (*)(int32_t *, int32_t *, void *, void *, void *, void *, void *, void *, void *);
  using F8 = void (*)(int32_t *, int32_t *, void *, void *, void *, void *, void *, void *, void *, void *);
  void *const *a = args;
  switch (argc) {
  case 0: reinterpret_cast<F0>(fn)(&gtid, &btid); break;
  case 1: reinterpret_cast<F1>(fn)(&gtid, &btid, a[0]); break;
  case 2: reinterpret_cast<F2>(fn)(&gtid, &btid, a[0], a[1]); break;
  case 3: reinterpret_cast<F3>(fn)(&gtid, &btid, a[0], a[1], a[2]); break;
  case 4: reinterpret_cast<F4>(fn)(&gtid, &btid, a[0], a[1], a[2], a[3]); break;
  case 5: reinterpret_cast<F5>(fn)(&gtid, &btid, a[0], a[1], a[2], a[3], a[4]); break;
  case 6: reinterpret_cast<F6>(fn)(&gtid, &btid, a[0], a[1], a[2], a[3], a[4], a[5]); break;
  case 7: reinterpret_cast<F7>(fn)(&gtid, &btid, a[0], a[1], a[2], a[3], a[4], a[5], a[6]); break;
  default: reinterpret_cast<F8>(fn)(&gtid, &btid, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]); break;  // 8
  }
}

class Team {
public:
  static Team &get() {
    // Never destroyed: workers may still be parked when the process exits.
    Team *team = current_.load(std::memory_order_acquire);
    if (!team) {
      std::lock_guard<std::mutex> lock(creating_);
      team = current_.load(std::memory_order_acquire);
      if (!team) {
        static const bool registered = [] {
          // A child of fork() has none of the parent's workers: it must not wait for them.
          // It starts a team of its own on first use (the parent's, possibly mid-region with
          // its mutexes held, is abandoned).
          pthread_atfork(nullptr, nullptr, [] { current_.store(nullptr, std::memory_order_release); });
          return true;
        }();
        (void)registered;
        team = new Team();
        current_.store(team, std::memory_order_release);
      }
    }
    return *team;
  }

  int32_t maxThreads() const { return workers_ + 1; }

  /// Runs `fn` on `n` threads (the caller is thread 0); false if the team is busy.
  bool run(int32_t n, Microtask fn, int argc, void *const *args) {
    std::unique_lock<std::mutex> owner(owner_, std::try_to_lock);
    if (!owner.owns_lock())
      return false;
    n = std::max<int32_t>(1, std::min(n, maxThreads()));
    fn_ = fn;
    argc_ = argc;
    std::copy(args, args + argc, args_);
    size_ = n;
    pending_.store(n - 1, std::memory_order_relaxed);
    barrierCount_.store(0, std::memory_order_relaxed);
    {
      // The team size travels in the ticket itself: a worker left out of the last region may
      // read it late, and must not see the next region's size with the last one's number.
      std::lock_guard<std::mutex> lock(sleep_);
      const uint64_t generation = (ticket_.load(std::memory_order_relaxed) >> 16) + 1;
      ticket_.store(generation << 16 | static_cast<uint64_t>(n), std::memory_order_release);
    }
    if (sleepers_.load(std::memory_order_acquire))
      wake_.notify_all();
    runAs(0);
    for (unsigned spins = 0; pending_.load(std::memory_order_acquire); ++spins) {
      if (stealOne())
        continue;
      if (spins < 4096)
        GE_PAUSE();
      else
        std::this_thread::yield();  // a worker was descheduled (more threads than cores)
    }
    return true;
  }

  /// Runs, on this thread, the share of one thread of the running region that no thread has
  /// taken on yet; false when there is none. A worker descheduled by another process's (or
  /// another runtime's) threads on the same cores then costs the region nothing: its share is
  /// the same iterations whoever runs it (static schedule), so results do not change.
  bool stealOne() {
    const uint64_t ticket = ticket_.load(std::memory_order_acquire);
    const uint64_t generation = ticket >> 16;
    const int32_t n = static_cast<int32_t>(ticket & 0xffff);
    for (int32_t k = 1; k < n; ++k) {
      if (claim(k, generation)) {
        runAs(k);
        pending_.fetch_sub(1, std::memory_order_acq_rel);
        return true;
      }
    }
    return false;
  }

  /// Takes slot `k`'s share of region `generation` (once: the first caller wins).
  bool claim(int32_t k, uint64_t generation) {
    uint64_t seen = claimed_[k].load(std::memory_order_acquire);
    while (seen < generation)
      if (claimed_[k].compare_exchange_weak(seen, generation, std::memory_order_acq_rel))
        return true;
    return false;
  }

  /// All `tlTeam` threads of the running region meet here.
  void barrier() {
    const uint32_t phase = barrierPhase_.load(std::memory_order_acquire);
    if (barrierCount_.fetch_add(1, std::memory_order_acq_rel) + 1 == size_) {
      barrierCount_.store(0, std::memory_order_relaxed);
      barrierPhase_.store(phase + 1, std::memory_order_release);
      return;
    }
    for (unsigned spins = 0; barrierPhase_.load(std::memory_order_acquire) == phase; ++spins) {
      // A region's only barrier ends its loop (one omp.wsloop per omp.parallel, as
      // convert-scf-to-openmp makes them): a share run here, nested, reaches this same barrier
      // and completes it.
      if (stealOne())
        continue;
      if (spins < 4096)
        GE_PAUSE();
      else
        std::this_thread::yield();
    }
  }

private:
  Team() {
    // pthread_create, not std::thread: this library is built without exceptions, and a thread
    // that cannot be had (ulimit, cgroup) must make a smaller team, not terminate the process.
    unsigned hw = std::thread::hardware_concurrency();
    for (unsigned i = 1; i < std::min(std::max(hw, 1u), static_cast<unsigned>(kMaxTeam)); ++i) {
      pthread_t thread;
      auto *worker = new Worker{this, static_cast<int32_t>(i)};
      if (pthread_create(&thread, nullptr, &Team::start, worker) != 0) {
        delete worker;
        break;
      }
      pthread_detach(thread);
      ++workers_;
    }
  }

  struct Worker {
    Team *team;
    int32_t id;
  };

  static void *start(void *arg) {
    Worker w = *static_cast<Worker *>(arg);
    delete static_cast<Worker *>(arg);
    w.team->work(w.id);
    return nullptr;
  }

  void runAs(int32_t thread) {
    const int32_t savedThread = tlThread, savedTeam = tlTeam;
    tlThread = thread;
    tlTeam = size_;
    invoke(fn_, thread, argc_, args_);
    tlThread = savedThread;
    tlTeam = savedTeam;
  }

  void work(int32_t me) {
    uint64_t seen = 0;
    for (;;) {
      uint64_t now = ticket_.load(std::memory_order_acquire);
      if (now == seen) {
        const auto until = std::chrono::steady_clock::now() + kSpin;
        for (unsigned spins = 0; (now = ticket_.load(std::memory_order_acquire)) == seen; ++spins) {
          GE_PAUSE();
          if ((spins & 255) == 0 && std::chrono::steady_clock::now() > until)
            break;
        }
      }
      if (now == seen) {
        std::unique_lock<std::mutex> lock(sleep_);
        sleepers_.fetch_add(1, std::memory_order_acq_rel);
        wake_.wait(lock, [&] { return ticket_.load(std::memory_order_acquire) != seen; });
        sleepers_.fetch_sub(1, std::memory_order_acq_rel);
        now = ticket_.load(std::memory_order_acquire);
      }
      seen = now;
      if (me < static_cast<int32_t>(now & 0xffff) && claim(me, now >> 16)) {
        runAs(me);
        pending_.fetch_sub(1, std::memory_order_acq_rel);
      }
    }
  }

  static inline std::atomic<Team *> current_{nullptr};
  static inline std::mutex creating_;
  int32_t workers_ = 0;
  std::mutex owner_;
  std::mutex sleep_;
  std::condition_variable wake_;
  std::atomic<int> sleepers_{0};
  /// Region number << 16 | team size of the region.
  std::atomic<uint64_t> ticket_{0};
  std::atomic<int32_t> pending_{0};
  /// Per thread slot, the last region generation whose share someone (the worker, or a thread
  /// waiting for it) took on: a share runs exactly once per region.
  std::atomic<uint64_t> claimed_[kMaxTeam] = {};
  std::atomic<int32_t> barrierCount_{0};
  std::atomic<uint32_t> barrierPhase_{0};
  // The region being run: written by thread 0 before the generation moves on.
  Microtask fn_ = nullptr;
  int argc_ = 0;
  void *args_[kMaxArgs] = {};
  int32_t size_ = 1;
};

/// This thread's contiguous share of the iterations [*lower, *upper] (inclusive,
/// step `incr`) in a team of `tlTeam`: the first `trip % team` threads take one
/// iteration more. An empty share is upper = lower - step.
template <typename T, typename S>
void staticInit(int32_t *lastIter, T *lower, T *upper, S *stride, S incr) {
  const int64_t team = tlTeam, me = tlThread;
  if (team <= 1 || incr == 0) {
    if (lastIter)
      *lastIter = 1;
    if (stride)
      *stride = static_cast<S>(*upper - *lower) + incr;
    return;
  }
  using U = std::make_unsigned_t<T>;
  const U span = incr > 0 ? static_cast<U>(*upper - *lower) : static_cast<U>(*lower - *upper);
  const U step = static_cast<U>(incr > 0 ? incr : -incr);
  if ((incr > 0 && *upper < *lower) || (incr < 0 && *upper > *lower)) {
    if (lastIter)
      *lastIter = 0;
    return;  // no iterations at all: every share is the empty range given
  }
  const U trip = span / step + 1;
  const U small = trip / static_cast<U>(team), extra = trip % static_cast<U>(team);
  const U mine = small + (static_cast<U>(me) < extra ? 1 : 0);
  const U first = small * static_cast<U>(me) + std::min<U>(static_cast<U>(me), extra);
  const T base = *lower;
  *lower = static_cast<T>(base + static_cast<T>(first) * static_cast<T>(incr));
  *upper = static_cast<T>(*lower + (static_cast<T>(mine) - 1) * static_cast<T>(incr));
  if (lastIter)
    *lastIter = mine != 0 && first + mine == trip;
  if (stride)
    *stride = static_cast<S>(trip) * incr;
}

} // namespace

extern "C" {
#define GE_EXPORT __attribute__((visibility("default")))

GE_EXPORT int32_t ge_rt_kmpc_global_thread_num(void *) { return tlThread; }

GE_EXPORT void ge_rt_kmpc_push_num_threads(void *, int32_t, int32_t n) { tlPushed = n; }

GE_EXPORT void ge_rt_kmpc_fork_call(void *, int32_t argc, Microtask fn, ...) {
  if (argc < 0 || argc > kMaxArgs) {
    std::fprintf(stderr, "ge-mlir thread team: a parallel region with %d captured arguments (at most %d: "
                         "LLVM's OpenMP IR builder passes one struct); this LLVM is not supported\n",
                 static_cast<int>(argc), kMaxArgs);
    std::abort();
  }
  void *args[kMaxArgs] = {};
  va_list ap;
  va_start(ap, fn);
  for (int i = 0; i < argc; ++i)
    args[i] = va_arg(ap, void *);
  va_end(ap);
  int32_t n = tlPushed > 0 ? tlPushed : Team::get().maxThreads();
  tlPushed = 0;
  // Nested, single-threaded, or the team is serving another caller: run here alone.
  if (tlTeam > 1 || n <= 1 || !Team::get().run(n, fn, argc, args)) {
    const int32_t savedThread = tlThread, savedTeam = tlTeam;
    tlThread = 0;
    tlTeam = 1;
    invoke(fn, 0, argc, args);
    tlThread = savedThread;
    tlTeam = savedTeam;
  }
}

GE_EXPORT void ge_rt_kmpc_barrier(void *, int32_t) {
  if (tlTeam > 1)
    Team::get().barrier();
}

GE_EXPORT void ge_rt_kmpc_for_static_fini(void *, int32_t) {}

GE_EXPORT void ge_rt_kmpc_for_static_init_4(void *, int32_t, int32_t, int32_t *last, int32_t *lo, int32_t *hi,
                                            int32_t *stride, int32_t incr, int32_t) {
  staticInit<int32_t, int32_t>(last, lo, hi, stride, incr);
}
GE_EXPORT void ge_rt_kmpc_for_static_init_4u(void *, int32_t, int32_t, int32_t *last, uint32_t *lo, uint32_t *hi,
                                             int32_t *stride, int32_t incr, int32_t) {
  staticInit<uint32_t, int32_t>(last, lo, hi, stride, incr);
}
GE_EXPORT void ge_rt_kmpc_for_static_init_8(void *, int32_t, int32_t, int32_t *last, int64_t *lo, int64_t *hi,
                                            int64_t *stride, int64_t incr, int64_t) {
  staticInit<int64_t, int64_t>(last, lo, hi, stride, incr);
}
GE_EXPORT void ge_rt_kmpc_for_static_init_8u(void *, int32_t, int32_t, int32_t *last, uint64_t *lo, uint64_t *hi,
                                             int64_t *stride, int64_t incr, int64_t) {
  staticInit<uint64_t, int64_t>(last, lo, hi, stride, incr);
}

/// Threads a region may use in this process (the caller and the workers).
GE_EXPORT int32_t ge_rt_parallel_max_threads() { return Team::get().maxThreads(); }
}
