#include "backend/pto/PtoReport.h"

#include <map>

#include "ir/OpDefs.h"
#include "report/Html.h"

namespace tilec::pto {
namespace {

using namespace ir;

struct PipeRow {
  int64_t slots = 0, slotBytes = 0;
  const char* from = "?";
  const char* to = "?";
  int pushes = 0, pops = 0;
};

const char* coreOf(const Op& section) { return section.kind() == OpKind::CoreCube ? "cube" : "vector"; }

// Each op of a section (loops and branches by their headers), and the pipe ops counted.
void walk(const report::KernelView& kernel, const Block& b, const char* core, std::map<int64_t, PipeRow>& pipes,
          std::vector<std::vector<std::string>>& rows) {
  for (const auto& op : b.ops()) {
    if (op->kind() == OpKind::Yield) continue;
    if (op->kind() == OpKind::PipePush) {
      PipeRow& p = pipes[op->get(attr::pipe)];
      ++p.pushes;
      p.from = core;
    }
    if (op->kind() == OpKind::PipePop) {
      PipeRow& p = pipes[op->get(attr::pipe)];
      ++p.pops;
      p.to = core;
    }
    std::string results;
    for (const Value* r : op->results()) results += (results.empty() ? "" : ", ") + kernel.name(r);
    std::string pipe = op->has(attr::pipe) ? " (pipe " + std::to_string(op->get(attr::pipe)) + ")" : "";
    rows.push_back({core, "<code>" + report::escape(op->name()) + "</code>" + report::escape(pipe),
                    "<code>" + report::escape(results) + "</code>"});
    for (unsigned r = 0; r < op->numRegions(); ++r) walk(kernel, op->body(r), core, pipes, rows);
  }
}

}  // namespace

bool writeCoresSection(const report::KernelView& kernel, report::Page& page) {
  const Function& f = kernel.function();
  std::map<int64_t, PipeRow> pipes;
  std::vector<std::vector<std::string>> ops;
  for (const auto& op : f.body().ops()) {
    if (op->kind() == OpKind::PipeInit) {
      PipeRow& p = pipes[op->get(attr::pipe)];
      p.slots = op->get(attr::slots);
      p.slotBytes = op->get(attr::slot_bytes);
    }
    if (op->kind() == OpKind::CoreCube || op->kind() == OpKind::CoreVector)
      walk(kernel, op->body(), coreOf(*op), pipes, ops);
  }
  if (ops.empty()) return false;
  page.section(kernel.anchor("cores"), f.name() + ": cube and vector cores", "cores");
  page.paragraph("split-cube-vector runs this kernel on both cores of an AI core at once: the cube section (written "
                 "as <code>" + report::escape(f.name()) + "_aic</code>) and the vector section (<code>" +
                 report::escape(f.name()) + "_aiv</code>), passing tiles through the pipes below.");
  std::vector<std::vector<std::string>> rows;
  for (const auto& [id, p] : pipes)
    rows.push_back({std::to_string(id), p.from, p.to, std::to_string(p.slots), std::to_string(p.slotBytes),
                    std::to_string(p.pushes), std::to_string(p.pops)});
  page.table({"pipe", "from", "to", "slots", "slot bytes", "pushes", "pops"}, rows, "pipes");
  page.table({"core", "op", "results"}, ops, "core-ops");
  return true;
}

}  // namespace tilec::pto
