#include "report/Report.h"

#include <algorithm>
#include <map>
#include <set>

#include "ir/Describe.h"
#include "passes/PassUtils.h"

namespace tilec::report {

std::string lineAnchor(FileId file, uint32_t line) {
  return "src-" + (file == 0 ? std::string() : std::to_string(file) + "-") + std::to_string(line);
}

std::string KernelView::expr(const ir::Expr& e) const {
  return e.str([&](const ir::Value* v) { return names_.base(v); });
}

std::string KernelView::exprs(const std::vector<ir::Expr>& list) const {
  return ir::shapeText(list, [&](const ir::Value* v) { return names_.base(v); });
}

std::string KernelView::anchor(std::string_view what) const { return f_.name() + "-" + std::string(what); }

namespace {

std::string link(const SourceManager& sm, SourceRange range, std::string_view html) {
  if (!range.valid()) return std::string(html);
  return "<a class=\"src\" href=\"#" + lineAnchor(range.file, sm.lineCol(range.file, range.begin).line) + "\">" +
         std::string(html) + "</a>";
}

// "k.tile:12:5", linked to the line in the listing; "" for a range without a file.
std::string sourceLink(const SourceManager& sm, SourceRange range) {
  if (!range.valid()) return "";
  const LineCol lc = sm.lineCol(range.file, range.begin);
  return link(sm, range, escape(sm.name(range.file)) + ":" + std::to_string(lc.line) + ":" + std::to_string(lc.column));
}

}  // namespace

std::string KernelView::lineLink(SourceRange range) const {
  if (!range.valid()) return "";
  const std::string line = std::to_string(sources_.lineCol(range.file, range.begin).line);
  return link(sources_, range, range.file == 0 ? "line " + line : escape(sources_.name(range.file)) + ":" + line);
}

std::string KernelView::linesHtml(const std::vector<SourceRange>& ranges) const {
  std::map<std::pair<FileId, uint32_t>, SourceRange> lines;
  for (SourceRange r : ranges)
    if (r.valid()) lines.emplace(std::make_pair(r.file, lineOf(r)), r);
  std::string out;
  for (const auto& [line, r] : lines) out += (out.empty() ? "" : ", ") + lineLink(r);
  return out;
}

std::string KernelView::nameLink(const ir::Value* v) const {
  return link(sources_, names_.where(v), "<code>" + escape(name(v)) + "</code>");
}

namespace {

// Each name once, in the order first met, with the source ranges of its values.
std::vector<std::pair<std::string, std::vector<SourceRange>>> byName(const SourceNames& names,
                                                                     const std::vector<const ir::Value*>& values) {
  std::vector<std::pair<std::string, std::vector<SourceRange>>> out;
  std::map<std::string, size_t> index;
  for (const ir::Value* v : values) {
    auto [it, fresh] = index.try_emplace(names.base(v), out.size());
    if (fresh) out.push_back({names.base(v), {}});
    out[it->second].second.push_back(names.where(v));
  }
  return out;
}

}  // namespace

std::string KernelView::namesText(const std::vector<const ir::Value*>& values) const {
  std::string out;
  for (const auto& [base, ranges] : byName(names_, values)) {
    std::set<uint32_t> lines;
    for (SourceRange r : ranges)
      if (r.valid()) lines.insert(sources_.lineCol(r.file, r.begin).line);
    std::string list;
    for (uint32_t l : lines) list += (list.empty() ? "" : ", ") + std::to_string(l);
    out += (out.empty() ? "" : "; ") + base +
           (lines.empty() ? "" : (lines.size() == 1 ? " (line " : " (lines ") + list + ")");
  }
  return out;
}

std::string KernelView::namesHtml(const std::vector<const ir::Value*>& values) const {
  std::string out;
  for (const auto& [base, ranges] : byName(names_, values)) {
    std::map<uint32_t, SourceRange> lines;
    for (SourceRange r : ranges)
      if (r.valid()) lines.emplace(sources_.lineCol(r.file, r.begin).line, r);
    std::string list;
    for (const auto& [line, r] : lines) list += (list.empty() ? "" : ", ") + lineLink(r);
    out += (out.empty() ? "" : "; ") + ("<code>" + escape(base) + "</code>") + (list.empty() ? "" : " (" + list + ")");
  }
  return out;
}

std::string KernelView::where(SourceRange range) const {
  if (!range.valid()) return "";
  const LineCol lc = sources_.lineCol(range.file, range.begin);
  return sources_.name(range.file) + ":" + std::to_string(lc.line) + ":" + std::to_string(lc.column);
}

std::string KernelView::sourceLink(SourceRange range) const { return report::sourceLink(sources_, range); }

void PassLog::runBeforePass(const Pass&, const ir::Module& m) {
  before_.clear();
  for (const auto& f : m.functions()) before_.push_back({f->name(), f->valueIdBound(), 0});
  if (timed_) start_ = std::chrono::steady_clock::now();
}

void PassLog::runAfterPass(const Pass& pass, const ir::Module& m) {
  PassRecord r{pass.info().arg, 0, -1, {}};
  if (timed_) r.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
  for (const auto& f : m.functions()) {
    r.opsAfter += size_t(f->numOps());
    // A function the pass made starts from id 0.
    auto it = std::find_if(before_.begin(), before_.end(), [&](const MadeIds& b) { return b.function == f->name(); });
    r.made.push_back({f->name(), it == before_.end() ? 0 : it->before, f->valueIdBound()});
  }
  records_.push_back(std::move(r));
}

namespace {

void writePipeline(const ReportInputs& in, Page& page) {
  page.section("pipeline", "Pass pipeline");
  if (in.passes.empty()) {
    page.paragraph("<span class=\"empty\">No pass ran.</span>");
    return;
  }
  const bool timed = in.passes.front().ms >= 0;
  std::vector<std::vector<std::string>> rows;
  for (size_t i = 0; i < in.passes.size(); ++i) {
    const PassRecord& p = in.passes[i];
    std::vector<std::string> row = {"<span class=\"num\">" + std::to_string(i + 1) + "</span>",
                                    "<code>" + escape(p.name) + "</code>", std::to_string(p.opsAfter)};
    if (timed) row.push_back(num(double(int64_t(p.ms * 1000 + 0.5)) / 1000));
    rows.push_back(row);
  }
  std::vector<std::string> header = {"#", "pass", "ops after it"};
  if (timed) header.push_back("wall time (ms)");
  page.table(header, rows, "passes");
  if (!timed)
    page.paragraph("Times are left out so that the page is the same on every run; compile with "
                   "<code>--time-passes</code> to include them.");
}

void writeDiagnostics(const ReportInputs& in, Page& page) {
  const SourceManager& sm = in.diags.sources();
  page.section("diagnostics", "Diagnostics and source");
  std::set<std::pair<FileId, uint32_t>> marked;
  std::vector<std::vector<std::string>> rows;
  for (const Diagnostic& d : in.diags.all()) {
    const char* level = levelName(d.level);
    std::string message = escape(d.message);
    for (const DiagNote& n : d.notes)
      message += "<br><span class=\"diag-note\">note</span> " + sourceLink(sm, n.range) + " " + escape(n.message);
    rows.push_back({"<span class=\"diag-" + std::string(level) + "\">" + level + "</span>",
                    std::string("<code>") + diagCode(d.id) + "</code>", sourceLink(sm, d.range), message});
    if (d.range.valid()) marked.insert({d.range.file, sm.lineCol(d.range.file, d.range.begin).line});
  }
  if (rows.empty()) page.paragraph("<span class=\"empty\">The compile reported no diagnostics.</span>");
  else page.table({"level", "code", "where", "message"}, rows, "diagnostics");
  for (FileId file = 0; file < sm.fileCount(); ++file) {
    page.heading(sm.name(file));
    page.raw("<div class=\"listing mono\">\n");
    const std::string_view text = sm.contents(file);
    for (size_t start = 0, line = 1; start < text.size(); ++line) {
      const size_t end = std::min(text.find('\n', start), text.size());
      page.raw("<div id=\"" + lineAnchor(file, uint32_t(line)) + "\"" +
               (marked.count({file, uint32_t(line)}) ? " class=\"marked\"" : "") + "><span class=\"ln\">" +
               std::to_string(line) + "</span>" + escape(text.substr(start, end - start)) + "</div>\n");
      start = end + 1;
    }
    page.raw("</div>\n");
  }
}

}  // namespace

void writeReport(const ReportInputs& in, OutputBuffer& out) {
  std::string kernels;
  for (const auto& f : in.module.functions()) kernels += (kernels.empty() ? "" : ", ") + f->name();
  Page page((kernels.empty() ? std::string("no kernel") : kernels) + " for " + in.targetName, out);
  for (const auto& f : in.module.functions()) {
    const KernelView kernel(*f, in.flags, in.diags.sources(), in.perfTrace, in.passes);
    writeMemorySection(kernel, page);
    writeAccessSection(kernel, page);
    writeAccumulatorSection(kernel, page);
    writeBlocksSection(kernel, page);
    for (const TargetSection& s : in.targetSections) s.write(kernel, page);
  }
  writePipeline(in, page);
  writeDiagnostics(in, page);
  page.finish();
}

}  // namespace tilec::report
