// tessera::verify from the installed package: a trace that records what a TV map says
// verifies; written out and read back it is the same trace; a displaced record fails.
#include <cstdio>
#include <sstream>

#include <tessera/verify/trace.hpp>

using namespace tessera;

int main() {
  // 32 threads x 4 values over an 8x16 tile, each thread a row segment.
  const verify::Map map = verify::make_map("A", rt::IntTuple::tuple({8, 16}),
                                           rt::Layout(rt::IntTuple::tuple({32, 4}), rt::IntTuple::tuple({4, 1})));
  verify::Trace trace;
  trace.kernel = "package consumer";
  trace.maps.push_back(map);
  trace.records = verify::expected_records(map);

  std::stringstream text;
  verify::write_trace(text, trace);
  const verify::Trace read = verify::parse_trace(text, "consumer.trace");
  const bool round_trip = read.records == trace.records && read.maps.size() == 1;
  const bool ok = verify::verify(read).ok;

  trace.records.front().col += 1;  // a record off its expected coordinate
  const bool caught = !verify::verify(trace).ok;
  std::printf("round trip %d, verified %d, displaced record caught %d\n", round_trip, ok, caught);
  return round_trip && ok && caught ? 0 : 1;
}
