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

// IR properties a pass may require or produce. A property holds until a pass
// that invalidates it runs.
enum Prop : uint32_t {
  PropSSA = 1u << 0,               // well-formed SSA (any verified IR)
  PropMemSpacesInferred = 1u << 1, // every tile has a memory space; moves inserted
  PropBuffersAssigned = 1u << 2,   // every tile result has a `buffer` attribute
  PropPtoLegal = 1u << 3,          // PTO target rules hold (ready to emit)
  PropTileOps2D = 1u << 4,         // every tile is 2-D (flatten-nd-to-2d: N-D collapsed, 1-D a row)
  PropNdLegalized = 1u << 5,       // tile-ops-2d verified: 2-D forms only, scratch present
  PropStoreWindows = 1u << 6,      // every store into a >2D tensor has its N-D `window`
  PropAccumulatorsPacked = 1u << 7,  // every batched accumulator has its layout (pack-accumulators)
  PropUnrolled = 1u << 8,          // no `unroll` loop is left (unroll-loops)
  PropResourceLoops = 1u << 9,     // loops that pick channels are unroll loops (mark-resource-loops)
  PropAieLegal = 1u << 10,         // AIE rules hold; transfers have descriptor-shaped patterns
  PropBdsAssigned = 1u << 11,      // every transfer has its descriptor and token (assign-bds)
  PropRegionsDerived = 1u << 12,   // tile arrays proven complete, slot writes phased (derive-regions)
  PropRegionsLowered = 1u << 13,   // no region op is left (lower-regions)
  PropLinxLegal = 1u << 14,        // linx rules hold: slots proven CELL ranges, ops with a block form
  PropLinxOffsets = 1u << 15,      // every region slot has its offset, immediate and register (linx-offsets)
  PropLinxHands = 1u << 16,        // every bound tile has its hand of the tile queue (linx-hands)
  PropLinxRowsAligned = 1u << 17,  // row-major tiles' rows padded to the linx row alignment (linx-align-rows)
};
std::string propNames(uint32_t props);  // "ssa,mem-spaces"

struct PassInfo {
  const char* arg;      // "infer-memory-space": used by --passes, --print-ir-after, dump file names
  const char* summary;  // one line for --list-passes
  uint32_t required;
  uint32_t produced;
  uint32_t invalidated;
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
