// The whole compile of a .tile runtime sequence for npu1: the frontend, the default
// pipeline with the verifier and the print-parse round trip after each pass, the static
// TXN writer, the C++ builder writer and the report page; a stream the writer produces must decode, and its
// listing encode back to the same words.
#include <sstream>

#include "FuzzSupport.h"
#include "backend/aie/AieTargets.h"
#include "backend/aie/TxnFormat.h"
#include "report/Report.h"
#include "support/OutputBuffer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return tilec::fuzz::fuzzText(data, size, [](const std::string& text) {
    using namespace tilec;
    SourceManager sm;
    DiagnosticEngine diags(sm);
    const target::TargetDesc& target = *aie::npuTargets().front();
    std::unique_ptr<ir::Module> m = fuzz::lowerTile(text, sm, diags, *target.model);
    if (!m) return;
    if (!fuzz::runPipeline(*m, target, diags)) return;
    OutputBuffer builder;
    const target::FlagValues flags = target::defaultFlags(target);
    aie::emitTxnCpp(*m, builder, diags, flags);
    OutputBuffer page;
    report::writeReport({*m, diags, target.name, {}, target.reportSections}, page);
    if (m->functions().size() != 1) return;
    OutputBuffer text_;
    if (!aie::emitTxnText(*m, text_, diags, flags)) return;
    std::vector<uint32_t> words;
    std::istringstream in(text_.str());
    std::string w;
    while (in >> w) words.push_back(uint32_t(std::stoul(w, nullptr, 16)));
    aie::TxnError e;
    std::optional<aie::TxnStream> s = aie::decodeTxn(words, e);
    if (!s) fuzz::bug("the TXN writer wrote a stream that does not decode: " + e.message);
    std::optional<aie::TxnStream> back = aie::parseTxnListing(aie::printTxnListing(*s), e);
    if (!back || aie::encodeTxn(*back) != words) fuzz::bug("the written stream's listing does not encode back to it");
  });
}
