// What tilec txn-run does with a --stream file (src/cli/TxnRun.cpp): read it in whichever
// form it is (binary, txn-text words, listing), then run it on host buffers with the TXN
// executor. Arbitrary input must be refused with a message or run, within the byte budget,
// never read or write outside a buffer (ASan), and run the same way twice.
#include <cstdint>
#include <string>
#include <vector>

#include "FuzzSupport.h"
#include "backend/aie/TxnExecutor.h"
#include "backend/aie/TxnFormat.h"

namespace {

using namespace tilec::aie;

// Eight argument buffers of 64 KiB: room for the walks of the seed streams, small enough
// that every run is quick.
std::vector<std::vector<uint8_t>> buffers() {
  std::vector<std::vector<uint8_t>> out(8, std::vector<uint8_t>(size_t(64) << 10));
  for (size_t a = 0; a < out.size(); ++a)
    for (size_t i = 0; i < out[a].size(); ++i) out[a][i] = uint8_t(a * 31 + i * 7);
  return out;
}

void runTwice(const TxnStream& s) {
  constexpr uint64_t kBudget = uint64_t(1) << 20;
  std::vector<std::vector<uint8_t>> first = buffers(), second = buffers();
  size_t failedFirst = 0, failedSecond = 0;
  const std::string a = executeTxn(s, first, kBudget, &failedFirst);
  const std::string b = executeTxn(s, second, kBudget, &failedSecond);
  if (a != b || failedFirst != failedSecond || first != second) tilec::fuzz::bug("two runs of one stream differ");
  for (const std::vector<uint8_t>& buffer : first)
    if (buffer.size() != size_t(64) << 10) tilec::fuzz::bug("the executor resized a host buffer");
  if (!a.empty() && failedFirst >= s.ops.size() && !s.ops.empty())
    tilec::fuzz::bug("a refusal names op " + std::to_string(failedFirst) + " of " + std::to_string(s.ops.size()));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  TxnForm form;
  TxnError error;
  std::optional<TxnStream> s = readTxnAnyForm(std::string(reinterpret_cast<const char*>(data), size), form, error);
  if (s) runTwice(*s);
  return 0;
}
