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
#include "support/Source.h"

namespace tilec::report {

struct Timeline;

class KernelView {
 public:
  // `flags`: the target's flags the compile ran with (tilec --target-flag), which a
  // target's section reads where the output depends on them. `perfTrace`: the pipe
  // timeline --perf-trace gave, or null.
  KernelView(const ir::Function& f, const std::map<std::string, bool>& flags, const SourceManager& sources,
             const Timeline* perfTrace)
      : f_(f),
        flags_(flags),
        sources_(sources),
        perfTrace_(perfTrace),
        names_(f),
        memory_(passes::memoryUse(f, /*listTiles=*/true)) {}
  const ir::Function& function() const { return f_; }
  bool flag(const std::string& name) const {
    auto it = flags_.find(name);
    return it != flags_.end() && it->second;
  }
  const passes::MemoryUse& memory() const { return memory_; }
  const Timeline* perfTrace() const { return perfTrace_; }
  // "k.tile:12:5"; "" for a range without a file.
  std::string where(SourceRange range) const;
  // The same as a link to the line in the page's listing of the source.
  std::string sourceLink(SourceRange range) const;
  // "%acc_2", as --emit-ir prints it.
  std::string name(const ir::Value* v) const;
  std::string expr(const ir::Expr& e) const;
  std::string exprs(const std::vector<ir::Expr>& list) const;  // "[0, %d, 16]"
  // An element id unique on the page: the kernel's name, then `what`.
  std::string anchor(std::string_view what) const;

 private:
  const ir::Function& f_;
  const std::map<std::string, bool>& flags_;
  const SourceManager& sources_;
  const Timeline* perfTrace_;
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
