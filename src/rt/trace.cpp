#include "tessera/rt/trace.hpp"

#include "tessera/rt/layout.hpp"

namespace tessera::rt {

namespace {
thread_local Trace* installed = nullptr;

TraceStep* innermost_failure_in(std::vector<TraceStep>& steps) {
  // The step that threw is the last failed operation, and within it the deepest one.
  for (auto it = steps.rbegin(); it != steps.rend(); ++it) {
    if (it->kind != TraceStep::Kind::operation || !it->failed) continue;
    if (TraceStep* inner = innermost_failure_in(it->steps)) return inner;
    return &*it;
  }
  return nullptr;
}
}  // namespace

std::string tiler_expression(const Tiler& t) {
  if (t.is_layout) return t.integral ? to_string(t.layout.shape) : to_string(t.layout);
  std::string r = "(";
  for (std::size_t i = 0; i < t.elems.size(); ++i) r += (i ? "," : "") + tiler_expression(t.elems[i]);
  return r + ")";
}

namespace detail {
std::atomic<int> open_trace_sessions{0};
Trace* installed_trace() noexcept { return installed; }
}  // namespace detail

// The count goes up before this thread's trace is set and down after it is restored, so a
// thread whose trace is set always sees a non-zero count.
TraceSession::TraceSession(Trace& t) : previous_(installed) {
  detail::open_trace_sessions.fetch_add(1, std::memory_order_relaxed);
  installed = &t;
}
TraceSession::~TraceSession() {
  installed = previous_;
  detail::open_trace_sessions.fetch_sub(1, std::memory_order_relaxed);
}

void Trace::open(const char* op) {
  // Only the innermost open step's list grows while it is open, so the pointers to its
  // ancestors (kept in their parents' lists, which do not change meanwhile) stay valid.
  std::vector<TraceStep>& list = open_.empty() ? steps : open_.back()->steps;
  TraceStep s;
  s.op = op;
  list.push_back(std::move(s));
  open_.push_back(&list.back());
}

void Trace::close(std::string result) {
  open_.back()->result = std::move(result);
  open_.pop_back();
}

void Trace::abandon() {
  open_.back()->failed = true;
  open_.pop_back();
}

void Trace::note(std::string label, std::string text, bool is_value) {
  if (open_.empty()) return;
  TraceStep s;
  s.kind = TraceStep::Kind::note;
  s.op = std::move(label);
  s.result = std::move(text);
  s.value = is_value;
  open_.back()->steps.push_back(std::move(s));
}

TraceStep* Trace::innermost_failure() { return innermost_failure_in(steps); }

}  // namespace tessera::rt
