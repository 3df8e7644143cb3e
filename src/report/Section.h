// What a section of the report is given: one kernel, with its values, loops and ops named
// in source terms (SourceNames.h) and linked to their lines in the page's source listing,
// and the page to write into. Target-neutral sections live in src/report; a
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
#include "report/SourceNames.h"
#include "support/Source.h"

namespace tilec::report {

struct Timeline;

// The id of line `line` of `file` in the page's source listing: "src-23" in the compiled
// file, "src-F-23" in the file of id F (an import).
std::string lineAnchor(FileId file, uint32_t line);

class KernelView {
 public:
  // `flags`: the target's flags the compile ran with (tilec --target-flag), which a
  // target's section reads where the output depends on them. `perfTrace`: the pipe
  // timeline --perf-trace gave, or null.
  // `passes`: the compile's passes, which tell the values a pass made.
  KernelView(const ir::Function& f, const std::map<std::string, bool>& flags, const SourceManager& sources,
             const Timeline* perfTrace, const std::vector<PassRecord>& passes = {})
      : f_(f),
        flags_(flags),
        sources_(sources),
        perfTrace_(perfTrace),
        names_(f, sources, passes),
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
  // The line `range` starts on (0 without a file).
  uint32_t lineOf(SourceRange range) const { return range.valid() ? sources_.lineCol(range.file, range.begin).line : 0; }
  // "line 23" (or "lib.tile:4" in an imported file) linked to the line; "" without a file.
  std::string lineLink(SourceRange range) const;
  // "line 19, line 35": each line once, in order, linked.
  std::string linesHtml(const std::vector<SourceRange>& ranges) const;
  // "kt", "kt (j's 2nd of 2 buffered iterations)": the value in source terms (SourceNames).
  std::string name(const ir::Value* v) const { return names_.name(v); }
  // The same as HTML, linked to the line the value comes from.
  std::string nameLink(const ir::Value* v) const;
  // Values as a list: each name once with the lines it comes from, "acc (lines 22, 32), l";
  // the HTML form links the lines.
  std::string namesText(const std::vector<const ir::Value*>& values) const;
  std::string namesHtml(const std::vector<const ir::Value*>& values) const;
  // "loop j (line 23)", as SourceNames names it.
  std::string loopName(const ir::Op& loop) const { return names_.loop(loop); }
  const SourceNames& names() const { return names_; }
  std::string expr(const ir::Expr& e) const;                   // values by their names alone
  std::string exprs(const std::vector<ir::Expr>& list) const;  // "[0, d, 16]"
  // An element id unique on the page: the kernel's name, then `what`.
  std::string anchor(std::string_view what) const;

 private:
  const ir::Function& f_;
  const std::map<std::string, bool>& flags_;
  const SourceManager& sources_;
  const Timeline* perfTrace_;
  SourceNames names_;
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
