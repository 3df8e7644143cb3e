// Passes: small classes with a name, declared property contracts, and run().
// Every pass is listed once in Passes.def; the PassManager enforces contracts
// and runs instrumentation (printing, verifying, timing) around each pass.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ir/IR.h"
#include "support/Diagnostics.h"
#include "support/Limits.h"

namespace tilec {

// IR properties a pass may require, produce or invalidate: facts about the IR that hold
// until a pass that invalidates them runs. Each is registered once, by name, where the
// passes that produce it live: the target-neutral ones here, a backend's in its backend
// (registerProperty). A PropSet holds several, one bit each.
using PropSet = uint64_t;

// The bit of property `name`, registered at its first call; the same name always gives the
// same bit. At most 64 properties exist.
PropSet registerProperty(const char* name);
std::string propNames(PropSet props);  // "ssa,unrolled", in the order they were registered

// The target-neutral properties, registered first, in this order (PassRegistry.cpp).
constexpr PropSet PropSSA = 1u << 0;             // well-formed SSA (any verified IR)
constexpr PropSet PropUnrolled = 1u << 1;        // no `unroll` loop is left (unroll-loops)
constexpr PropSet PropResourceLoops = 1u << 2;   // loops that pick channels are unroll loops (mark-resource-loops)
constexpr PropSet PropRegionsDerived = 1u << 3;  // tile arrays proven complete, slot writes phased (derive-regions)

struct PassInfo {
  const char* arg;      // "unroll-loops": used by --passes, --print-ir-after, dump file names
  const char* summary;  // one line for --list-passes
  PropSet required;
  PropSet produced;
  PropSet invalidated;
};

// What a pass gets besides the module (whose target() says the target).
struct PassContext {
  DiagnosticEngine& diags;
  const Limits& limits = defaultLimits();
};

class Pass {
 public:
  virtual ~Pass() = default;
  virtual const PassInfo& info() const = 0;
  // Returns false when the pass reported errors (the pipeline stops).
  // Must not keep state between calls.
  virtual bool run(ir::Module& m, PassContext& ctx) = 0;
};

// Factories, one per entry of Passes.def.
#define TILEC_PASS(ARG, FACTORY) std::unique_ptr<Pass> FACTORY();
#include "passes/Passes.def"
#undef TILEC_PASS

// Pass names and factories: the target-neutral passes of Passes.def, and each target's
// set (those plus its own, see target/Target.h).
using PassFactory = std::unique_ptr<Pass> (*)();
class PassRegistry {
 public:
  void add(const char* arg, PassFactory factory) { entries_.push_back({arg, factory}); }
  void addAll(const PassRegistry& other) {
    entries_.insert(entries_.end(), other.entries_.begin(), other.entries_.end());
  }
  std::unique_ptr<Pass> create(const std::string& arg) const;  // null when unknown
  std::vector<std::unique_ptr<Pass>> all() const;              // in registration order

 private:
  std::vector<std::pair<const char*, PassFactory>> entries_;
};

// The passes of Passes.def, which every target shares.
const PassRegistry& targetNeutralPasses();

}  // namespace tilec
