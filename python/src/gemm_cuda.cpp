// The `tessera._gemm_cuda` extension: tessera::gemm (the C++ GEMM host API, target
// tessera::kernels) for tessera.gemm, and tessera::attention for tessera.attention. Built only where the build has CUDA; a second
// extension beside _core so that _core, and `import tessera`, never need the CUDA runtime.
// tessera::gemm_grouped (contiguous form) for tessera.gemm_grouped.
// Python has mapped the arrays onto a flat description (gemm_spec.hpp, a tuple); run() checks
// it (check_arguments, then can_implement), finds the device the pointers live on, orders the
// launch after the producers' streams, lends the split-K scratch and launches, in one call.
#include <cuda_runtime_api.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "attention_spec.hpp"
#include "fastcall.hpp"
#include "gemm_spec.hpp"
#include "grouped_spec.hpp"
#include "tessera/kernels/attention.hpp"
#include "tessera/kernels/gemm.hpp"
#include "tessera/kernels/gemm_grouped.hpp"

namespace py = pybind11;
namespace k = tessera::kernels;
using tessera::python::gemm_arguments_of;
using tessera::python::status_tuple;

namespace {

std::string hex(const void* p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%#llx", static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(p)));
  return buf;
}

std::string cuda_error(const char* what, cudaError_t e) {
  return std::string(what) + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")";
}

// The device every pointer lives on; an error names the pointer that is not device memory
// (host memory given through an interface that does not say where its memory is) or the two
// that are on different devices.
struct Placement {
  int device = -1;
  std::string status, message;
};

using NamedPointer = std::pair<const char*, const void*>;

Placement place(const NamedPointer* first, std::size_t count_of_pointers, const char* what) {
  Placement p;
  int count = 0;
  if (cudaError_t e = cudaGetDeviceCount(&count); e != cudaSuccess || count == 0) {
    cudaGetLastError();
    p.status = k::to_string(k::GemmStatus::NoDevice);
    p.message = e != cudaSuccess ? cuda_error("cudaGetDeviceCount", e) : "no CUDA device is available";
    return p;
  }
  const char* first_name = nullptr;
  for (std::size_t i = 0; i < count_of_pointers; ++i) {
    const auto [name, ptr] = first[i];
    if (ptr == nullptr) continue;
    cudaPointerAttributes attr{};
    const cudaError_t e = cudaPointerGetAttributes(&attr, ptr);
    if (e != cudaSuccess) cudaGetLastError();
    if (e != cudaSuccess || (attr.type != cudaMemoryTypeDevice && attr.type != cudaMemoryTypeManaged)) {
      p.status = "not device memory";
      p.message = std::string(name) + " = " + hex(ptr) + " is " +
                  (e != cudaSuccess ? cuda_error("not a pointer CUDA knows", e)
                   : attr.type == cudaMemoryTypeHost ? std::string("pinned host memory")
                                                     : std::string("not memory CUDA allocated (host memory?)")) +
                  "; the kernels read and write CUDA device memory";
      return p;
    }
    if (p.device < 0) {
      p.device = attr.device;
      first_name = name;
    } else if (attr.device != p.device) {
      p.status = "not device memory";
      p.message = std::string(first_name) + " is on device " + std::to_string(p.device) + " and " + name + " on device " +
                  std::to_string(attr.device) + "; one " + what + " runs on one device";
      return p;
    }
  }
  return p;
}

Placement place(std::initializer_list<NamedPointer> pointers, const char* what) {
  return place(pointers.begin(), pointers.size(), what);
}

Placement place(const k::GemmArguments& g) {
  return place({{"a", g.a.ptr}, {"b", g.b.ptr}, {"c", g.c.ptr}, {"out", g.d}, {"bias", g.epilogue.bias_ptr},
                {"workspace", g.workspace}, {"scale_a", g.scale_a}, {"scale_b", g.scale_b}},
               "GEMM");
}

Placement place(const k::AttentionArguments& a) {
  return place({{"q", a.q}, {"k", a.k}, {"v", a.v}, {"out", a.o}, {"lse", a.lse}, {"cu_seqlens_q", a.cu_seqlens_q},
                {"cu_seqlens_k", a.cu_seqlens_k}, {"workspace", a.workspace}},
               "attention");
}

// Makes `device` current for the call and restores the caller's device after it.
// (Nothing to set or restore, the usual case, when it is current already.)
struct DeviceScope {
  int saved = -1;
  bool switched = false;
  explicit DeviceScope(int device) {
    if (cudaGetDevice(&saved) != cudaSuccess) {
      cudaGetLastError();
      saved = -1;
    }
    if (device >= 0 && device != saved) switched = cudaSetDevice(device) == cudaSuccess;
  }
  ~DeviceScope() {
    if (switched && saved >= 0) cudaSetDevice(saved);
  }
};

cudaStream_t as_stream(std::uintptr_t s) { return reinterpret_cast<cudaStream_t>(s); }

// The split-K scratch comes from a memory pool of this module's own per device, which keeps up
// to 256 MiB between calls: the default pool would hand its memory back to the driver at every
// synchronisation (release threshold 0) and the next call would map it again, and changing the
// default pool's threshold would change it for every library in the process. Null when the
// device has no memory pools.
cudaMemPool_t scratch_pool(int device) {
  static std::mutex lock;
  static std::map<int, cudaMemPool_t> pools;
  std::lock_guard<std::mutex> guard(lock);
  if (auto it = pools.find(device); it != pools.end()) return it->second;
  cudaMemPool_t pool = nullptr;
  cudaMemPoolProps props{};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = device;
  if (cudaMemPoolCreate(&pool, &props) == cudaSuccess) {
    std::uint64_t keep = std::uint64_t(256) << 20;
    cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
  } else {
    cudaGetLastError();
    pool = nullptr;
  }
  pools.emplace(device, pool);
  return pool;
}

// Events for the stream handshake, reused: created once per device, taken by one call at a
// time (a call records one and has the launch stream wait on it; the wait takes the event's
// state at that moment, so the event may be recorded again at once). Never destroyed: the
// pool holds as many as calls ever ran at once on each device.
class EventPool {
 public:
  cudaEvent_t take(int device) {
    {
      std::lock_guard<std::mutex> guard(lock_);
      auto& free = free_[device];
      if (!free.empty()) {
        cudaEvent_t ev = free.back();
        free.pop_back();
        return ev;
      }
    }
    cudaEvent_t ev = nullptr;
    if (cudaEventCreateWithFlags(&ev, cudaEventDisableTiming) != cudaSuccess) return nullptr;
    return ev;
  }
  void give(int device, cudaEvent_t ev) {
    std::lock_guard<std::mutex> guard(lock_);
    free_[device].push_back(ev);
  }

 private:
  std::mutex lock_;
  std::map<int, std::vector<cudaEvent_t>> free_;
};

EventPool& event_pool() {
  static EventPool* pool = new EventPool;  // leaked on purpose: at exit the runtime may be gone first
  return *pool;
}

// Orders `launch` after the work already queued on each producer stream (the CUDA Array
// Interface's v3 `stream`; Python leaves out the launch stream itself): an event recorded
// there, waited on here.
std::string wait_for(const std::vector<std::uintptr_t>& producers, cudaStream_t launch, int device) {
  for (std::uintptr_t s : producers) {
    cudaEvent_t ev = event_pool().take(device);
    cudaError_t e = ev != nullptr ? cudaSuccess : cudaGetLastError();
    if (e == cudaSuccess) e = cudaEventRecord(ev, as_stream(s));
    if (e == cudaSuccess) e = cudaStreamWaitEvent(launch, ev, 0);
    if (ev != nullptr) event_pool().give(device, ev);
    if (e != cudaSuccess) {
      cudaGetLastError();
      return cuda_error(("ordering the launch after stream " + hex(reinterpret_cast<const void*>(s))).c_str(), e);
    }
  }
  return {};
}

// A stream handle (a cudaStream_t as a Python int).
std::uintptr_t stream_handle_of(py::handle h) {
  const unsigned long long v = PyLong_AsUnsignedLongLong(h.ptr());
  if (v == static_cast<unsigned long long>(-1) && PyErr_Occurred()) throw py::error_already_set();
  return std::uintptr_t(v);
}

// The producer streams: a tuple or list of handles.
std::vector<std::uintptr_t> stream_handles(py::handle seq) {
  std::vector<std::uintptr_t> out;
  if (!PyTuple_Check(seq.ptr()) && !PyList_Check(seq.ptr()))
    throw py::type_error("producer_streams: a tuple or list of stream handles");
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq.ptr());
  out.reserve(std::size_t(n));
  for (Py_ssize_t i = 0; i < n; ++i) {
    out.push_back(stream_handle_of(PySequence_Fast_GET_ITEM(seq.ptr(), i)));
  }
  return out;
}

// The launch tessera.gemm and tessera.attention share: the arguments' own refusals first, as in
// a build without CUDA (the Python side skips its own checks when it has this module), then
// where the pointers live; without the GIL, on that device: can_implement, the producers'
// streams, and `launch(args, stream, device)`; (status, message) through `to_tuple`.
template <class Args, class ToTuple, class Launch>
py::tuple checked_launch(Args& args, py::handle stream_handle, py::handle producer_streams, ToTuple to_tuple, Launch launch) {
  const std::uintptr_t stream = stream_handle_of(stream_handle);
  const std::vector<std::uintptr_t> producers = stream_handles(producer_streams);
  if (auto r = k::check_arguments(args); !r) return to_tuple(r);
  const Placement where = place(args);
  if (!where.status.empty()) return py::make_tuple(where.status, where.message);
  decltype(k::check_arguments(args)) r;
  {
    py::gil_scoped_release unlocked;
    DeviceScope scope(where.device);
    r = k::can_implement(args);
    if (r) {
      const cudaStream_t on = as_stream(stream);
      if (std::string e = wait_for(producers, on, where.device); !e.empty())
        r = {decltype(r.status)::LaunchFailed, e};
      else
        r = launch(args, on, where.device);
    }
  }
  return to_tuple(r);
}

py::tuple run(py::handle spec, py::handle stream_handle, py::handle producer_streams, py::handle auto_workspace_flag) {
  k::GemmArguments g = gemm_arguments_of(spec);
  const int auto_workspace = PyObject_IsTrue(auto_workspace_flag.ptr());
  if (auto_workspace < 0) throw py::error_already_set();
  return checked_launch(g, stream_handle, producer_streams, status_tuple, [&](k::GemmArguments& args, cudaStream_t on, int device) {
    // Split-K scratch from the stream-ordered allocator: allocated and freed on the launch
    // stream, so calls on other streams never share it. Without it nothing is split (the
    // result is the same), so an allocation failure only costs the split.
    void* scratch = nullptr;
    if (auto_workspace && args.workspace == nullptr) {
      const std::size_t bytes = k::gemm_workspace_size(args);
      if (cudaMemPool_t pool = bytes > 0 ? scratch_pool(device) : nullptr; pool != nullptr) {
        if (cudaMallocFromPoolAsync(&scratch, bytes, pool, on) == cudaSuccess) {
          args.workspace = scratch;
          args.workspace_bytes = bytes;
        } else {
          cudaGetLastError();
          scratch = nullptr;
        }
      }
    }
    const k::GemmResult r = k::gemm(args, on);
    if (scratch != nullptr) cudaFreeAsync(scratch, on);
    return r;
  });
}

// gemm_tune on the arguments `spec` describes (tessera.gemm_tune): (status, message, chosen,
// microseconds, ((configuration, microseconds), ...), cache_file, note, rule, rounds).
py::tuple tune(py::handle spec, std::uintptr_t stream, int reps, bool record, const std::string& cache_file) {
  const k::GemmArguments g = gemm_arguments_of(spec);
  if (k::GemmResult r = k::check_arguments(g); !r) {
    const py::tuple st = status_tuple(r);
    return py::make_tuple(st[0], st[1], "", 0.0, py::tuple(), "", "", "", 0);
  }
  const Placement where = place(g);
  if (!where.status.empty()) return py::make_tuple(where.status, where.message, "", 0.0, py::tuple(), "", "", "", 0);
  k::GemmTuneResult t;
  {
    py::gil_scoped_release unlocked;
    DeviceScope scope(where.device);
    k::GemmTuneOptions o;
    o.reps = reps;
    o.record = record;
    o.cache_file = cache_file;
    t = k::gemm_tune(g, o, as_stream(stream));
  }
  const py::tuple st = status_tuple(t.status);
  py::tuple timings(t.timings.size());
  for (std::size_t i = 0; i < t.timings.size(); ++i) timings[i] = py::make_tuple(t.timings[i].configuration, t.timings[i].microseconds);
  return py::make_tuple(st[0], st[1], t.chosen, t.microseconds, timings, t.cache_file, t.note, t.rule, t.rounds);
}

// The tile counters tessera.attention lends where the caller passes no workspace
// (workspace="auto"): one per (device, stream), so that calls that may run at the same time
// never share one (AttentionArguments::workspace's rule) while the calls of one stream, which
// run one after another, reuse theirs: each launch leaves its counter zeroed for the next, so
// only a counter's first use costs anything (a memset of 8 bytes, queued on its stream ahead of
// the launch). Streams are told apart by cudaStreamGetId, which never names two streams alike
// in a process, so a new stream whose handle an old one had gets a counter of its own. Counters
// are slots of 128 bytes (an L2 line each: the atomics of concurrent streams never share one)
// in chunks of 256 slots from cudaMalloc, at most 4096 slots (512 KiB) per device; never freed
// (at exit the runtime may be gone first). Where none can be lent the call runs without a
// counter, which gives the same bits: a stream capturing a graph (a graph may be replayed
// beside the stream's own calls, so it needs a workspace of its own: pass one), a stream CUDA
// cannot name, a device whose slots are used up, a failed allocation.
class AttentionCounters {
 public:
  static constexpr std::size_t slot_bytes = 128, slots_per_chunk = 256, max_slots = 4096;
  static_assert(k::attention_counter_bytes <= slot_bytes, "a slot holds the tile counter");

  // The counter of `stream` on `device` (the current device), or null.
  void* of(int device, cudaStream_t stream) {
    cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    if (cudaStreamIsCapturing(stream, &capture) != cudaSuccess) {
      cudaGetLastError();
      return nullptr;
    }
    if (capture != cudaStreamCaptureStatusNone) return nullptr;
    unsigned long long id = 0;
    if (cudaStreamGetId(stream, &id) != cudaSuccess) {
      cudaGetLastError();
      return nullptr;
    }
    std::lock_guard<std::mutex> guard(lock_);
    if (auto it = slots_.find({device, id}); it != slots_.end()) return it->second;
    Chunks& c = devices_[device];
    if (c.used % slots_per_chunk == 0) {  // (the last chunk is full, or there is none)
      if (c.used >= max_slots) return nullptr;
      // cudaMalloc is refused while another thread captures a graph in the global mode; in the
      // relaxed mode it is not (and it touches no stream, so no capture can miss it).
      cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
      cudaThreadExchangeStreamCaptureMode(&mode);
      void* chunk = nullptr;
      const cudaError_t e = cudaMalloc(&chunk, slots_per_chunk * slot_bytes);
      cudaThreadExchangeStreamCaptureMode(&mode);
      if (e != cudaSuccess) {
        cudaGetLastError();
        return nullptr;
      }
      c.last = static_cast<unsigned char*>(chunk);
    }
    void* slot = c.last + (c.used % slots_per_chunk) * slot_bytes;
    // Zeroed on the stream itself: ordered before its launch, and after nothing of another
    // stream's (a memset on another stream could land while this one's counter is in use).
    if (cudaMemsetAsync(slot, 0, k::attention_counter_bytes, stream) != cudaSuccess) {
      cudaGetLastError();
      return nullptr;  // (the slot stays free)
    }
    ++c.used;
    slots_.emplace(std::make_pair(device, id), slot);
    return slot;
  }

  // For the tests: counters lent so far on `device`, and the one lent to `stream` (null: none).
  std::size_t lent(int device) {
    std::lock_guard<std::mutex> guard(lock_);
    auto it = devices_.find(device);
    return it == devices_.end() ? 0 : it->second.used;
  }
  void* lent_to(int device, cudaStream_t stream) {
    unsigned long long id = 0;
    if (cudaStreamGetId(stream, &id) != cudaSuccess) {
      cudaGetLastError();
      return nullptr;
    }
    std::lock_guard<std::mutex> guard(lock_);
    auto it = slots_.find({device, id});
    return it == slots_.end() ? nullptr : it->second;
  }

 private:
  struct Chunks {
    unsigned char* last = nullptr;  // the newest chunk
    std::size_t used = 0;           // slots lent, over all the device's chunks
  };
  std::mutex lock_;
  std::map<std::pair<int, unsigned long long>, void*> slots_;
  std::map<int, Chunks> devices_;
};

AttentionCounters& attention_counters() {
  static AttentionCounters* counters = new AttentionCounters;  // leaked on purpose, as event_pool()
  return *counters;
}

// tessera.attention's launch (checked_launch: the same checks and waits as tessera.gemm's), with
// the stream's tile counter from attention_counters() where `auto_workspace` is true, the
// caller gave no workspace and the grid would use one.
py::tuple run_attention(py::handle spec, py::handle stream_handle, py::handle producer_streams, py::handle auto_workspace_flag) {
  k::AttentionArguments a = tessera::python::attention_arguments_of(spec);
  const int auto_workspace = PyObject_IsTrue(auto_workspace_flag.ptr());
  if (auto_workspace < 0) throw py::error_already_set();
  return checked_launch(a, stream_handle, producer_streams, tessera::python::attention_status_tuple,
                        [&](k::AttentionArguments& args, cudaStream_t on, int device) {
                          if (auto_workspace && args.workspace == nullptr && k::attention_workspace_size(args) > 0)
                            if (void* counter = attention_counters().of(device, on)) {
                              args.workspace = counter;
                              args.workspace_bytes = k::attention_counter_bytes;
                            }
                          return k::attention(args, on);
                        });
}

// The launch both forms of tessera.gemm_grouped share, on `on` (the device current): the
// producers' streams, then one allocation from the module's pool on the stream (the workspace,
// then for the list form the ptr-array form's device arrays, filled from `arrays` by an
// asynchronous copy, which stages pageable host bytes before it returns), gemm_grouped, and the
// allocation freed on the stream after it, so calls on other streams never share it. The host
// never waits for the device.
k::GemmResult launch_grouped(k::GemmGroupedArguments& g, const std::vector<std::uintptr_t>& producers, cudaStream_t on,
                             int device, const std::vector<unsigned char>* arrays) {
  if (std::string e = wait_for(producers, on, device); !e.empty()) return {k::GemmStatus::LaunchFailed, e};
  const std::size_t workspace_bytes = k::gemm_grouped_workspace_size(g);
  const std::size_t bytes = workspace_bytes + (arrays != nullptr ? arrays->size() : 0);
  void* base = nullptr;
  cudaMemPool_t pool = scratch_pool(device);
  const cudaError_t got =
      pool != nullptr ? cudaMallocFromPoolAsync(&base, bytes, pool, on) : cudaMallocAsync(&base, bytes, on);
  if (got != cudaSuccess) {
    cudaGetLastError();
    return {k::GemmStatus::LaunchFailed,
            cuda_error(("allocating the grouped GEMM's workspace (" + std::to_string(bytes) + " bytes) on the stream").c_str(),
                       got)};
  }
  g.workspace = base;
  g.workspace_bytes = workspace_bytes;
  k::GemmResult r;
  if (arrays != nullptr) {
    unsigned char* dev = static_cast<unsigned char*>(base) + workspace_bytes;  // (128-byte aligned: the workspace's size is)
    if (const cudaError_t e = cudaMemcpyAsync(dev, arrays->data(), arrays->size(), cudaMemcpyHostToDevice, on); e != cudaSuccess) {
      cudaGetLastError();
      r = {k::GemmStatus::LaunchFailed, cuda_error("copying the groups' arrays to the device", e)};
    } else {
      const std::size_t n = std::size_t(g.groups), table = k::grouped_round128(n * sizeof(k::GemmGroupShape));
      auto at = [&](int i) { return dev + table + std::size_t(i) * n * 8; };
      k::GemmGroupedPtrArray& p = g.ptr_array;
      p.shapes = reinterpret_cast<const k::GemmGroupShape*>(dev);
      p.a = reinterpret_cast<const void* const*>(at(0));
      p.b = reinterpret_cast<const void* const*>(at(1));
      p.c = reinterpret_cast<const void* const*>(at(2));
      p.d = reinterpret_cast<void* const*>(at(3));
      p.lda = reinterpret_cast<const std::int64_t*>(at(4));
      p.ldb = reinterpret_cast<const std::int64_t*>(at(5));
      p.ldc = reinterpret_cast<const std::int64_t*>(at(6));
      p.ldd = reinterpret_cast<const std::int64_t*>(at(7));
      if (g.bias == k::Bias::PerColumn) p.bias = reinterpret_cast<const void* const*>(at(8));
    }
  }
  if (r) r = k::gemm_grouped(g, on);
  cudaFreeAsync(base, on);
  return r;
}

// tessera.gemm_grouped's launch, contiguous form: check_grouped_arguments (the workspace
// standing in), where the pointers live (offs among them: the kernel reads it on the device,
// the host never does), then without the GIL on that device launch_grouped.
py::tuple run_grouped(py::handle spec, py::handle stream_handle, py::handle producer_streams) {
  k::GemmGroupedArguments g = tessera::python::grouped_arguments_of(spec);
  const std::uintptr_t stream = stream_handle_of(stream_handle);
  const std::vector<std::uintptr_t> producers = stream_handles(producer_streams);
  if (auto r = tessera::python::check_grouped_without_workspace(g); !r) return status_tuple(r);
  const k::GemmGroupedContiguous& c = g.contiguous;
  const Placement where =
      place({{"a", c.a}, {"b", c.b}, {"c", c.c}, {"out", c.d}, {"offs", c.offs}, {"bias", c.bias}}, "grouped GEMM");
  if (!where.status.empty()) return py::make_tuple(where.status, where.message);
  k::GemmResult r;
  {
    py::gil_scoped_release unlocked;
    DeviceScope scope(where.device);
    r = launch_grouped(g, producers, as_stream(stream), where.device, nullptr);
  }
  return status_tuple(r);
}

// The list (ptr-array) form: `header` (GROUPED_LIST_FIELDS) and `records`, the groups' sizes,
// pointers and leading dimensions packed by Python (grouped_spec.hpp). check_grouped_arguments
// (the arrays standing in), where every group's pointers live, then launch_grouped with the
// records laid out as the device arrays: the sizes' table (rounded to 128 bytes), then the
// nine arrays of G 8-byte values (the last the bias pointers).
py::tuple run_grouped_list(py::handle header, py::handle records, py::handle stream_handle, py::handle producer_streams) {
  k::GemmGroupedArguments g = tessera::python::grouped_list_arguments_of(header);
  const std::uintptr_t stream = stream_handle_of(stream_handle);
  const std::vector<std::uintptr_t> producers = stream_handles(producer_streams);
  if (auto r = tessera::python::check_grouped_list_without_arrays(g); !r) return status_tuple(r);
  const std::size_t n = std::size_t(g.groups);
  char* raw = nullptr;
  Py_ssize_t size = 0;
  if (!PyBytes_Check(records.ptr()) || PyBytes_AsStringAndSize(records.ptr(), &raw, &size) != 0 ||
      std::size_t(size) != n * tessera::python::grouped_list_record_bytes) {
    PyErr_Clear();
    throw py::type_error("gemm_grouped list description: the records are bytes of " +
                         std::to_string(tessera::python::grouped_list_record_bytes) + " per group");
  }
  const std::size_t shapes = n * sizeof(k::GemmGroupShape), table = k::grouped_round128(shapes);
  const std::size_t values = n * 8 * tessera::python::grouped_list_arrays;
  std::vector<unsigned char> arrays(table + values, 0);
  std::memcpy(arrays.data(), raw, shapes);
  std::memcpy(arrays.data() + table, raw + shapes, values);
  // Every group's pointers, named as Python names them (a[g], b[g], c[g], out[g], bias[g]).
  std::vector<std::string> names;
  std::vector<NamedPointer> pointers;
  names.reserve(5 * n);
  pointers.reserve(5 * n);
  // (the arrays a, b, c, d, then lda .. ldd, then bias: array 8)
  static constexpr const char* kOperands[5] = {"a", "b", "c", "out", "bias"};
  static constexpr int kArray[5] = {0, 1, 2, 3, 8};
  for (int i = 0; i < 5; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      std::uint64_t v = 0;
      std::memcpy(&v, raw + shapes + (std::size_t(kArray[i]) * n + j) * 8, 8);
      if (v != 0) names.push_back(std::string(kOperands[i]) + "[" + std::to_string(j) + "]");
      if (v != 0) pointers.emplace_back(nullptr, reinterpret_cast<const void*>(std::uintptr_t(v)));
    }
  for (std::size_t i = 0; i < pointers.size(); ++i) pointers[i].first = names[i].c_str();
  const Placement where = place(pointers.data(), pointers.size(), "grouped GEMM");
  if (!where.status.empty()) return py::make_tuple(where.status, where.message);
  k::GemmResult r;
  {
    py::gil_scoped_release unlocked;
    DeviceScope scope(where.device);
    r = launch_grouped(g, producers, as_stream(stream), where.device, &arrays);
  }
  return status_tuple(r);
}

}  // namespace

PYBIND11_MODULE(_gemm_cuda, m) {
  m.doc() = "tessera::gemm for tessera.gemm (use tessera.gemm)";
  tessera::python::def_fastcall<&run, 4>(
      m, "run",
      "run(spec, stream, producer_streams, auto_workspace): checks (check_arguments, can_implement) and launches one "
      "GEMM (`spec`: a tuple of GEMM_SPEC_FIELDS) on `stream` after the `producer_streams`; (status, message), "
      "('', '') on success.");
  tessera::python::def_fastcall<&run_attention, 4>(
      m, "run_attention",
      "run_attention(spec, stream, producer_streams, auto_workspace): checks (check_arguments, can_implement) and "
      "launches one attention forward pass (`spec`: a tuple of ATTENTION_SPEC_FIELDS) on `stream` after the "
      "`producer_streams`, with the module's tile counter for that stream when `auto_workspace` is true and the spec "
      "has no workspace; (status, message), ('', '') on success.");
  m.def(
      "attention_workspace_size",
      [](const std::string& grid, bool causal, bool varlen) {
        // (attention_workspace_size reads the grid, the mask and whether cu_seqlens are given,
        // never through the pointers: a stand-in marks varlen)
        k::AttentionArguments a;
        a.grid = tessera::python::attention_grid_of(grid.c_str());
        a.mask = causal ? k::AttentionMask::Causal : k::AttentionMask::None;
        static const int stand_in[1] = {0};
        a.cu_seqlens_q = a.cu_seqlens_k = varlen ? stand_in : nullptr;
        return k::attention_workspace_size(a);
      },
      py::arg("grid"), py::arg("causal"), py::arg("varlen"),
      "attention_workspace_size(grid, causal, varlen): bytes of workspace tessera::attention uses for such a call "
      "(attention_workspace_size).");
  m.def("attention_counters_lent", [](int device) { return attention_counters().lent(device); }, py::arg("device"),
        "attention_counters_lent(device): how many streams' tile counters tessera.attention has lent on `device`.");
  m.def(
      "attention_counter_of",
      [](int device, std::uintptr_t stream) {
        DeviceScope scope(device);
        return reinterpret_cast<std::uintptr_t>(attention_counters().lent_to(device, as_stream(stream)));
      },
      py::arg("device"), py::arg("stream"),
      "attention_counter_of(device, stream): the address of the tile counter lent to `stream` (a handle) on `device`, "
      "0 when none is.");
  tessera::python::def_fastcall<&run_grouped, 3>(
      m, "run_grouped",
      "run_grouped(spec, stream, producer_streams): checks (check_grouped_arguments) and launches one grouped GEMM "
      "(`spec`: a tuple of GROUPED_SPEC_FIELDS, the contiguous form) on `stream` after the `producer_streams`, its "
      "workspace allocated and freed on that stream; (status, message), ('', '') on success.");
  tessera::python::def_fastcall<&run_grouped_list, 4>(
      m, "run_grouped_list",
      "run_grouped_list(header, records, stream, producer_streams): checks (check_grouped_arguments) and launches one "
      "grouped GEMM in the ptr-array form (`header`: a tuple of GROUPED_LIST_FIELDS; `records`: the groups' sizes, "
      "pointers, leading dimensions and bias pointers, packed) on `stream` after the `producer_streams`; (status, message).");
  m.def("attention_can_implement", [](py::handle spec) -> py::tuple {
    const k::AttentionArguments a = tessera::python::attention_arguments_of(spec);
    const Placement where = place(a);
    if (!where.status.empty()) return py::make_tuple(where.status, where.message);
    DeviceScope scope(where.device);
    return tessera::python::attention_status_tuple(k::can_implement(a));
  });
  m.def("can_implement", [](py::handle spec) -> py::tuple {
    const k::GemmArguments g = gemm_arguments_of(spec);
    const Placement where = place(g);
    if (!where.status.empty()) return py::make_tuple(where.status, where.message);
    DeviceScope scope(where.device);
    return status_tuple(k::can_implement(g));
  });
  m.def("workspace_size", [](py::handle spec) {
    const k::GemmArguments g = gemm_arguments_of(spec);
    const Placement where = place(g);
    DeviceScope scope(where.device);
    return k::gemm_workspace_size(g);
  });
  m.def("tune", &tune, py::arg("spec"), py::arg("stream"), py::arg("reps"), py::arg("record"), py::arg("cache_file"),
        "tune(spec, stream, reps, record, cache_file): tessera::gemm_tune on the arguments `spec` describes; (status, message, "
        "chosen, microseconds, ((configuration, microseconds), ...), cache_file, note, rule, rounds).");
  m.def("device_count", [] {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
      cudaGetLastError();
      return 0;
    }
    return n;
  });
}
