// What a target is, to the driver: its name, its IR model (memory spaces and their
// capacities, kernel kinds, layouts), its passes and default pipeline, and the output formats it offers with
// their emitters. A backend describes its targets (src/backend/pto/PtoTargets.cpp); the
// registry (Registry.h) lists them; the driver asks the registry and names no target.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

#include "ir/IR.h"
#include "ir/OpDefs.h"
#include "passes/Pass.h"
#include "report/Section.h"
#include "support/Diagnostics.h"
#include "support/OutputBuffer.h"

namespace tilec::target {


// A switch a target's output formats read (tilec --target-flag NAME=true|false).
struct TargetFlag {
  const char* name;
  const char* help;
  bool byDefault;
};
using FlagValues = std::map<std::string, bool>;  // every flag of the target, with its value

// Writes the module in the format; false after reporting errors.
using Emitter = bool (*)(const ir::Module& m, OutputBuffer& os, DiagnosticEngine& diags, const FlagValues& flags);

struct OutputFormat {
  const char* name;        // the --emit= value ("pto")
  const char* summary;
  const char* extension;   // of the default output file (".pto")
  PropSet requiredProps;  // what the pipeline must have produced
  bool oneKernel;          // the format holds one kernel (several need --kernel)
  Emitter emit;
};

// A binary format a backend can turn into a readable listing and back (tilec --decode,
// tilec --encode): the listing's first word names the codec.
struct BinaryCodec {
  const char* name;      // "txn"
  const char* summary;
  bool (*recognizes)(const std::vector<uint8_t>& bytes);
  // The listing, or false with a message and the byte offset where reading stopped.
  bool (*decode)(const std::vector<uint8_t>& bytes, std::string& listing, std::string& error, size_t& offset);
  // The bytes, or false with a message and the listing line at fault.
  bool (*encode)(const std::string& listing, std::vector<uint8_t>& bytes, std::string& error, size_t& line);
};

struct TargetDesc {
  const char* name;        // the --target= value
  const char* summary;
  const ir::TargetModel* model;  // its spaces and capacities, kernel kinds and default layouts
  PassRegistry passes;     // every pass usable for the target: target-neutral and its own
  std::vector<std::string> pipeline;  // the default
  std::vector<OutputFormat> formats;  // formats[0] is the default
  std::vector<TargetFlag> flags = {};
  std::vector<report::TargetSection> reportSections = {};  // --emit=report's sections of its own
  ir::OpGroups groups = 0;  // the op groups it compiles (ir::OpGroup)
  // Whether its backend's op table has a row for op kind `k`: exactly the ops of `groups`
  // (tests/unit/target_ops_test.cpp checks every registered target).
  bool (*hasOpRow)(ir::OpKind k) = nullptr;

  const OutputFormat* format(const std::string& name) const {
    for (const OutputFormat& f : formats)
      if (name == f.name) return &f;
    return nullptr;
  }
};

// Every flag of `t` at its default value, as a compile without --target-flag has them.
inline FlagValues defaultFlags(const TargetDesc& t) {
  FlagValues values;
  for (const TargetFlag& f : t.flags) values[f.name] = f.byDefault;
  return values;
}

}  // namespace tilec::target
