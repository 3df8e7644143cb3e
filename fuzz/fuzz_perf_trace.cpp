// --perf-trace's reader (src/report/PerfTrace.h) on any bytes: a trace it takes is drawn in
// the pipe timeline of a small compiled kernel; one it refuses has a position inside the
// file and a message of printable ASCII (no bytes of the file, which a diagnostic in JSON
// or SARIF must be able to carry).
#include "FuzzSupport.h"
#include "report/PerfTrace.h"
#include "report/Report.h"
#include "support/OutputBuffer.h"

namespace {

using namespace tilec;

const char* const kKernel = R"(kernel k(x: in f32[32, 128], y: out f32[32, 128]) {
  for r in 0 .. 32 step 16 {
    let t = load(x, [r, 0], [16, 128]);
    store(y, [r, 0], exp(row_expand_sub(t, row_max(t))));
  }
}
)";

struct Compiled {
  SourceManager sm;
  DiagnosticEngine diags{sm};
  std::unique_ptr<ir::Module> module;
  Compiled() {
    module = fuzz::lowerTile(kKernel, sm, diags);
    if (!module || !fuzz::runPipeline(*module, pto::a2a3Target(), diags)) fuzz::bug("the fixed kernel does not compile");
  }
};

void check(const std::string& text) {
  report::PerfTraceError error;
  const std::optional<report::Timeline> trace = report::readPerfTrace(text, error);
  if (!trace) {
    if (error.offset > text.size()) fuzz::bug("a trace error past the end of the file");
    if (error.message.empty()) fuzz::bug("a trace error without a message");
    for (char c : error.message)
      if (c < 0x20 || c > 0x7e) fuzz::bug("a trace error message with a byte that is no printable ASCII: " + error.message);
    return;
  }
  static Compiled compiled;
  const target::TargetDesc& target = pto::a2a3Target();
  OutputBuffer page;
  report::writeReport({*compiled.module, compiled.diags, target.name, {}, target.reportSections, {}, &*trace}, page);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return tilec::fuzz::fuzzText(data, size, check);
}
