// The whole compile from .tile to target code: for a2a3, the frontend, every pass of the
// default pipeline with the verifier and the print-parse round trip after each pass, the
// PTO emitter and the report page; for linx the same, then both outputs and the report,
// and the listing must encode to exactly the binary (one list of blocks, one word encoder).
#include "FuzzSupport.h"
#include "backend/linx/LinxCodec.h"
#include "backend/linx/LinxTargets.h"
#include "backend/pto/PtoEmitter.h"
#include "report/Report.h"
#include "support/OutputBuffer.h"

namespace {

using namespace tilec;

void compileForPto(const std::string& text) {
  SourceManager sm;
  DiagnosticEngine diags(sm);
  std::unique_ptr<ir::Module> m = fuzz::lowerTile(text, sm, diags);
  if (!m) return;
  if (!fuzz::runPipeline(*m, pto::a2a3Target(), diags)) return;
  // Only single-kernel modules are emitted, as tilec does without --kernel.
  if (m->functions().size() != 1) return;
  OutputBuffer out;
  pto::emitModule(*m, out, diags, /*fixedAddresses=*/true);
  const target::TargetDesc& target = pto::a2a3Target();
  OutputBuffer page;
  report::writeReport({*m, diags, target.name, {}, target.reportSections}, page);
}

void compileForLinx(const std::string& text) {
  SourceManager sm;
  DiagnosticEngine diags(sm);
  std::unique_ptr<ir::Module> m = fuzz::lowerTile(text, sm, diags, linx::linxModel());
  if (!m || !fuzz::runPipeline(*m, linx::linxTarget(), diags) || m->functions().size() != 1) return;
  const target::FlagValues flags = target::defaultFlags(linx::linxTarget());  // B.ASSEMBLE rev. B, no pseudo-instructions
  OutputBuffer listing, binary;
  if (!linx::emitListing(*m, listing, diags, flags) || !linx::emitBinary(*m, binary, diags, flags))
    fuzz::bug("the linx writer failed after linx-legality passed");
  std::vector<uint8_t> bytes;
  std::string error;
  size_t line = 0;
  if (!linx::linxCodec().encode(listing.str(), bytes, error, line))
    fuzz::bug("the linx listing does not encode (line " + std::to_string(line) + ": " + error + "):\n" + listing.str());
  const std::string written = binary.str();
  if (std::string(bytes.begin(), bytes.end()) != written)
    fuzz::bug("the linx listing encodes to other bytes than the binary:\n" + listing.str());
  OutputBuffer page;
  report::writeReport({*m, diags, linx::linxTarget().name, {}, linx::linxTarget().reportSections}, page);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return tilec::fuzz::fuzzText(data, size, [](const std::string& text) {
    compileForPto(text);
    compileForLinx(text);
  });
}
