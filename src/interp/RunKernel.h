// tilec --run: a kernel's parameters bound from the command line (--arg NAME=FILE.npy or
// NAME=NUMBER, --random-inputs), the run on the interpreter, the --out tensors written as
// .npy files (docs/cli.md, "Running kernels on the host").
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "interp/Interpreter.h"
#include "ir/IR.h"
#include "support/Diagnostics.h"

namespace tilec::interp {

struct RunRequest {
  std::vector<std::pair<std::string, std::string>> args;     // --arg NAME=VALUE, in order
  std::vector<std::pair<std::string, std::string>> outputs;  // --out NAME=FILE, in order
  std::optional<uint64_t> randomSeed;                         // --random-inputs[=SEED]
  RunLimits limits;
  // Runs in place of the interpreter, on the bound parameters (tilec txn-run: a TXN stream
  // on the executor); false once it has reported why it cannot.
  std::function<bool(std::vector<RtValue>& args, DiagnosticEngine& diags)> execute;
};

// How a run ended. Faults and unreadable arrays are diagnostics (already reported); a flag
// that does not fit the kernel (a name that is no parameter, a value missing) is a usage
// error, whose message the caller prints as it prints its own usage errors.
struct RunOutcome {
  enum class Kind { Ran, Failed, Usage };
  Kind kind;
  std::string usage;  // the message of a Usage outcome
};

// `written` gets each --out file once it is written, so that a crash later in the run can
// remove them; when one cannot be written, those written before it are removed here.
RunOutcome runKernel(const ir::Function& f, const RunRequest& request, DiagnosticEngine& diags,
                     std::vector<std::string>& written);

}  // namespace tilec::interp
