#pragma once
// An optional observer of the runtime algebra. While a Trace is installed on a thread
// (TraceSession), every traced operation reports a step to it: its name, an expression that
// `tessera eval` evaluates to the same result, its intermediates (notes) and the operations
// it calls, in the order they ran, and its result or its failure. With no Trace installed a
// traced operation costs one thread-local pointer test: nothing is formatted or stored.
// `tessera explain` prints these steps, so the derivation it shows is the computation that
// ran, never a second implementation that could drift from it.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "tessera/rt/error.hpp"

namespace tessera::rt {

struct Tiler;
// A tiler as `tessera eval` reads it back to the same tiler: an integer tiler N (CuTe's
// integral tiler, composed as N:1) is written N, not as the layout it holds.
std::string tiler_expression(const Tiler& t);

struct TraceStep {
  enum class Kind { operation, note };
  Kind kind = Kind::operation;
  // operation: its name ("complement"); note: what the intermediate is ("sorted modes").
  std::string op;
  // operation: an eval expression giving `result` (empty where eval has no spelling for the
  // step, e.g. CuTe's internal zip of (tile, rest) pairs).
  std::string expr;
  // operation: the value in eval's notation; note: the intermediate, in notation or words.
  std::string result;
  // note: `result` is a value in eval's notation (a layout, tuple, ...) that reads back.
  bool value = false;
  std::vector<TraceStep> steps;  // operation: its notes and inner operations, in order
  bool failed = false;           // the operation threw (it or an operation inside it)
  std::string error;             // on the innermost failed operation: why (set by the caller)
  std::size_t pos = npos;        // operations of the evaluator: the call's byte offset in the input
};

class Trace {
 public:
  std::vector<TraceStep> steps;  // the top-level operations, in order

  // Used by TraceScope.
  void open(const char* op);
  TraceStep& current() { return *open_.back(); }
  void close(std::string result);
  void abandon();  // the open operation threw
  // A note on the innermost open operation (ignored at top level).
  void note(std::string label, std::string text, bool is_value);
  bool muted() const { return muted_ > 0; }
  void mute(int d) { muted_ += d; }

  // The innermost failed operation (the one that threw first), or nullptr.
  TraceStep* innermost_failure();

 private:
  std::vector<TraceStep*> open_;  // ancestors of the operation being recorded
  int muted_ = 0;
};

namespace detail {
// How many TraceSessions are open, on any thread: while none is, no thread has a trace and
// active_trace() answers without reading thread-local storage (which, in a shared library
// such as the Python module, is a call per read).
extern std::atomic<int> open_trace_sessions;
Trace* installed_trace() noexcept;
}  // namespace detail

// The trace installed on this thread, or nullptr.
inline Trace* active_trace() noexcept {
  return detail::open_trace_sessions.load(std::memory_order_relaxed) == 0 ? nullptr : detail::installed_trace();
}

// Installs `t` on this thread for the session's lifetime (the previous one comes back after).
class TraceSession {
 public:
  explicit TraceSession(Trace& t);
  ~TraceSession();
  TraceSession(const TraceSession&) = delete;
  TraceSession& operator=(const TraceSession&) = delete;

 private:
  Trace* previous_;
};

// One traced operation: opened on construction, closed by result(); an exception leaving
// the scope marks the step failed. Everything else is a no-op when no trace is installed
// (test `if (scope)` before formatting anything).
class TraceScope {
 public:
  explicit TraceScope(const char* op) : t_(active_trace()) {
    if (t_ && t_->muted()) t_ = nullptr;
    if (t_) t_->open(op);
  }
  ~TraceScope() {
    if (t_ && !closed_) t_->abandon();
  }
  TraceScope(const TraceScope&) = delete;
  TraceScope& operator=(const TraceScope&) = delete;

  explicit operator bool() const { return t_ != nullptr; }
  void expr(std::string e) {
    if (t_) t_->current().expr = std::move(e);
  }
  void set_pos(std::size_t p) {
    if (t_) t_->current().pos = p;
  }
  // An intermediate in words, or a value in notation (is_value).
  void note(std::string label, std::string text, bool is_value = false) {
    if (t_) t_->note(std::move(label), std::move(text), is_value);
  }
  // Closes the step with `text` as its result.
  void close(std::string text) {
    if (t_ && !closed_) {
      t_->close(std::move(text));
      closed_ = true;
    }
  }

 private:
  Trace* t_;
  bool closed_ = false;
};

// Hides the operations called inside it from the trace (a helper computation whose value
// the caller notes itself).
class TraceMute {
 public:
  TraceMute() : t_(active_trace()) {
    if (t_) t_->mute(1);
  }
  ~TraceMute() {
    if (t_) t_->mute(-1);
  }
  TraceMute(const TraceMute&) = delete;
  TraceMute& operator=(const TraceMute&) = delete;

 private:
  Trace* t_;
};

// A note on the innermost open operation of the installed trace, if any.
inline bool tracing() noexcept {
  const Trace* t = active_trace();
  return t != nullptr && !t->muted();
}
inline void trace_note(std::string label, std::string text, bool is_value = false) {
  if (Trace* t = active_trace(); t && !t->muted()) t->note(std::move(label), std::move(text), is_value);
}

}  // namespace tessera::rt
