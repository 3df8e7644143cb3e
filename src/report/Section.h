// What a section of the report is given: one kernel, with the names --emit-ir prints for
// its values, and the page to write into. Target-neutral sections live in src/report; a
// target adds its own (AIE transfers, Linx regions) through TargetDesc::reportSections.
#pragma once
#include <map>
#include <string>
#include <string_view>

#include "ir/Expr.h"
#include "ir/IR.h"
#include "ir/IRText.h"
#include "passes/BufferLifetimes.h"
#include "report/Html.h"

namespace tilec::report {

class KernelView {
 public:
  // `flags`: the target's flags the compile ran with (tilec --target-flag), which a
  // target's section reads where the output depends on them.
  KernelView(const ir::Function& f, const std::map<std::string, bool>& flags)
      : f_(f), flags_(flags), names_(f), memory_(passes::memoryUse(f, /*listTiles=*/true)) {}
  const ir::Function& function() const { return f_; }
  bool flag(const std::string& name) const {
    auto it = flags_.find(name);
    return it != flags_.end() && it->second;
  }
  const passes::MemoryUse& memory() const { return memory_; }
  // "%acc_2", as --emit-ir prints it.
  std::string name(const ir::Value* v) const;
  std::string expr(const ir::Expr& e) const;
  std::string exprs(const std::vector<ir::Expr>& list) const;  // "[0, %d, 16]"
  // An element id unique on the page: the kernel's name, then `what`.
  std::string anchor(std::string_view what) const;

 private:
  const ir::Function& f_;
  const std::map<std::string, bool>& flags_;
  ir::ValueNames names_;
  passes::MemoryUse memory_;
};

// A section a target writes for each kernel. `write` opens its section (Page::section, id
// from KernelView::anchor(id)) only when the kernel has something for it, and returns
// whether it wrote one.
struct TargetSection {
  const char* id;     // unique among the sections ("transfers")
  const char* title;  // "AIE transfers"
  bool (*write)(const KernelView& kernel, Page& page);
};

}  // namespace tilec::report
