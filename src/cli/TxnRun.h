// tilec txn-run: a TXN stream, read from a file in any of its forms, run by the executor
// (backend/aie/TxnExecutor.h) on a kernel's tensors in place of the interpreter, so that a
// stream and --run can be compared on the same .npy files (docs/cli.md, "Running TXN
// streams on the host").
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "backend/aie/TxnFormat.h"
#include "interp/Interpreter.h"
#include "support/Diagnostics.h"
#include "support/Source.h"

namespace tilec::cli {

// The stream in `path`: the binary, txn-text words or a --decode listing. nullopt after
// reporting why not: E0001 when it cannot be read, E0010 when it is no stream (at the byte
// offset of a binary, at the line of a text form).
std::optional<aie::TxnStream> readStreamFile(const std::string& path, SourceManager& sources,
                                             DiagnosticEngine& diags);

// True when the header of `stream` names the device of `target`; else reports E0011 with
// the target that has that device, if one has.
bool streamFitsTarget(const aie::TxnStream& stream, const std::string& streamName, const ir::TargetModel& target,
                      DiagnosticEngine& diags);

// Runs `stream` on `args`, kernel `f`'s parameters: tensor parameter i is host buffer i (the
// argument index its address patches name), as bytes; the other parameters have none.
// false after reporting the executor's refusal (E0805).
bool runStream(const aie::TxnStream& stream, const std::string& streamName, const ir::Function& f,
               std::vector<interp::RtValue>& args, DiagnosticEngine& diags);

}  // namespace tilec::cli
