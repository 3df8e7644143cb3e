// --perf-trace: the pipe timeline pto-isa's Perf-Sim measured, read from its JSON trace
// (the Chrome trace event format: a JSON array of events). Every complete event
// ("ph": "X") is an instruction: "name", start "ts" and duration "dur" in cycles, on the
// pipe its "tid" names ("[AIC-0/AIV-0] VEC"); other events (metadata, flow arrows) are
// skipped. Pipes keep the order in which the file first names them; pipes without an
// instruction are left out. Linear in the file.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "report/Timeline.h"

namespace tilec::report {

struct PerfTraceError {
  size_t offset = 0;    // the byte of the file the problem is at
  std::string message;  // what is wrong there, lower-case, no fix
};

std::optional<Timeline> readPerfTrace(std::string_view text, PerfTraceError& error);

}  // namespace tilec::report
