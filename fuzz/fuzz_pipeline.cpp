// The whole compile from .tile to PTO text for a2a3: the frontend, every pass of the
// default pipeline with the verifier and the print-parse round trip after each pass, and
// the emitter.
#include <sstream>

#include "FuzzSupport.h"
#include "backend/pto/PtoEmitter.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return tilec::fuzz::fuzzText(data, size, [](const std::string& text) {
    using namespace tilec;
    SourceManager sm;
    DiagnosticEngine diags(sm);
    std::unique_ptr<ir::Module> m = fuzz::lowerTile(text, sm, diags);
    if (!m) return;
    if (!fuzz::runPipeline(*m, pto::a2a3Target(), diags)) return;
    // Only single-kernel modules are emitted, as tilec does without --kernel.
    if (m->functions().size() != 1) return;
    std::ostringstream out;
    pto::emitModule(*m, out, diags);
  });
}
