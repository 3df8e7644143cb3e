// What the IR knows of a target: the names, roles and capacities of its memory spaces,
// its kernel kinds, and the layout a tile takes in each space unless stated otherwise. The IR
// refers to spaces and kernel kinds only by the ids a model defines; a backend defines
// the models of its targets (pto::ptoModel), and the module carries the one it compiles for.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/Type.h"

namespace tilec::ir {

// What target-neutral code may ask of a space: passes and op rules select spaces by
// role, never by name.
enum SpaceRole : uint32_t {
  kComputeSpace = 1u << 0,   // elementwise and reduction work runs on tiles here
  kMatrixSpace = 1u << 1,    // feeds or holds the matrix unit's work
  kMatmulStage = 1u << 2,    // matmul operands are loaded here before they move on
  kMatmulResult = 1u << 3,   // a matmul on placed operands writes its result here
};

struct SpaceDesc {
  const char* name;  // as written in .tile and .tir ("vec")
  uint32_t roles;
  const char* memory = "";     // the hardware buffer, for messages ("UB", "L0C")
  int64_t capacityBytes = 0;   // per kernel; 0 for kNoSpace
  int64_t alignment = 1;       // bytes each buffer is rounded up to
};

using DefaultLayoutFn = TileLayout (*)(SpaceId space, const std::vector<int64_t>& shape);

// A register-level operation a target's runtime sequences may use as is (seq.raw): its
// integer arguments, the first `required` of them required, and whether a list of data
// words follows the first argument.
struct RawOpDesc {
  const char* name;
  std::vector<const char*> args;
  unsigned required;
  bool data = false;
};

struct TargetModel {
  const char* name;
  std::vector<SpaceDesc> spaces;       // indexed by SpaceId; spaces[kNoSpace] is "none"
  std::vector<const char*> kernelKinds;  // indexed by KernelKind; [0] is the kind before inference
  DefaultLayoutFn defaultLayout;       // for spaces other than kNoSpace
  int64_t maxTileExtent = 0;           // the largest valid extent of a 2-D tile axis; 0: none
  // The kernel kind of runtime sequences (host-side programs that move data with dma.*
  // ops), when the target has them.
  std::optional<KernelKind> sequenceKind = std::nullopt;
  std::vector<RawOpDesc> rawOps = {};  // what seq.raw may name
  std::vector<const char*> layouts = {};  // the named layouts (ir::namedLayout) kernels may give a tile
  // Per KernelKind: how many blocks of a kernel of that kind run at once (the cores a launch
  // spreads them over); empty when the target runs one program and has no blocks.
  std::vector<int64_t> blockCores = {};
  // The kernel kind whose blocks may run as sub-blocks (the vector cores of one AI core).
  std::optional<KernelKind> subblockKind = std::nullopt;

  const RawOpDesc* rawOp(std::string_view name) const {
    for (const RawOpDesc& r : rawOps)
      if (name == r.name) return &r;
    return nullptr;
  }

  const char* spaceName(SpaceId s) const { return s < spaces.size() ? spaces[s].name : "?"; }
  std::optional<SpaceId> parseSpace(std::string_view name) const;
  bool hasRole(SpaceId s, SpaceRole r) const { return s < spaces.size() && (spaces[s].roles & r); }
  SpaceId spaceWithRole(SpaceRole r) const;  // the first; kNoSpace when none has it
  std::vector<std::string> spaceNames() const;  // the spaces a kernel may name, for messages
  const char* kernelKindName(KernelKind k) const { return k < kernelKinds.size() ? kernelKinds[k] : "?"; }
  std::optional<KernelKind> parseKernelKind(std::string_view name) const;
  std::vector<std::string> kernelKindNames() const;  // "incore", "aic", "aiv"
  bool hasBlocks() const { return !blockCores.empty(); }
  int64_t coresFor(KernelKind k) const { return k < blockCores.size() ? blockCores[k] : 1; }
};

// A model with no spaces and one kernel kind, for IR that never names a space (tests of
// target-neutral code).
const TargetModel& neutralModel();

}  // namespace tilec::ir
