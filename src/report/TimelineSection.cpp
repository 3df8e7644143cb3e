// The section "pipe timeline": one lane per pipe, a bar per instruction, the busy cycles of
// every pipe, the total and the busiest pipe. A pipe with more than kMaxBars instructions
// has its neighbours closer than a drawing unit merged into one bar, so the figure stays
// under a few hundred kilobytes at kMaxInstances.
#include <algorithm>
#include <cmath>

#include "report/Report.h"

namespace tilec::report {
namespace {

constexpr size_t kMaxBars = 800;  // per pipe, before neighbours merge
constexpr double kWidth = 1000, kLeft = 170, kRight = 20, kTop = 8, kLane = 24, kBottom = 46;

struct Totals {
  std::vector<int64_t> busy;      // per pipe: the cycles at least one of its instructions runs
  std::vector<size_t> count;      // per pipe: instructions
  int64_t total = 0;              // the last end
  size_t busiest = 0;
};

Totals totalsOf(const Timeline& t) {
  Totals out{std::vector<int64_t>(t.pipes.size(), 0), std::vector<size_t>(t.pipes.size(), 0)};
  std::vector<int64_t> reached(t.pipes.size(), 0);
  for (const Timeline::Span& s : t.spans) {  // per pipe by start, so the union is one sweep
    out.busy[s.pipe] += std::max<int64_t>(0, s.end - std::max(s.start, reached[s.pipe]));
    reached[s.pipe] = std::max(reached[s.pipe], s.end);
    ++out.count[s.pipe];
    out.total = std::max(out.total, s.end);
  }
  for (size_t p = 0; p < t.pipes.size(); ++p)
    if (out.busy[p] > out.busy[out.busiest]) out.busiest = p;
  return out;
}

// Spans [first, first + count) of one pipe drawn as one bar.
struct Bar {
  size_t first, count;
  int64_t start, end;
};

std::vector<Bar> barsOf(const Timeline& t, const Totals& totals) {
  std::vector<Bar> bars;
  const double unit = double(std::max<int64_t>(1, totals.total)) / (kWidth - kLeft - kRight);
  for (size_t i = 0; i < t.spans.size(); ++i) {
    const Timeline::Span& s = t.spans[i];
    const bool merge = totals.count[s.pipe] > kMaxBars && !bars.empty() && t.spans[bars.back().first].pipe == s.pipe &&
                       double(s.start - bars.back().end) < unit;
    if (merge) {
      ++bars.back().count;
      bars.back().end = std::max(bars.back().end, s.end);
    } else {
      bars.push_back({i, 1, s.start, s.end});
    }
  }
  return bars;
}

std::string cyclesLabel(double v) { return num(v); }

Svg draw(const Timeline& t, const Totals& totals, const std::vector<uint32_t>& lanes, const std::string& axis) {
  const double plot = kWidth - kLeft - kRight, height = kTop + kLane * double(lanes.size()) + kBottom;
  const double span = double(std::max<int64_t>(1, totals.total));
  auto x = [&](int64_t c) { return kLeft + double(c) / span * plot; };
  Svg svg(kWidth, height, "Pipe timeline: the instructions on each pipe over " + axis);
  std::vector<int> laneOf(t.pipes.size(), -1);
  for (size_t l = 0; l < lanes.size(); ++l) {
    laneOf[lanes[l]] = int(l);
    const double y = kTop + kLane * double(l);
    svg.line(kLeft, y + kLane, kWidth - kRight, y + kLane, "grid");
    svg.text(kLeft - 6, y + kLane / 2 + 4, t.pipes[lanes[l]] + " (" + std::to_string(totals.busy[lanes[l]]) + ")",
             "label", Svg::Anchor::End);
  }
  uint32_t open = UINT32_MAX;
  for (const Bar& b : barsOf(t, totals)) {
    const Timeline::Span& s = t.spans[b.first];
    if (s.pipe != open) {
      if (open != UINT32_MAX) svg.endGroup();
      open = s.pipe;
      svg.group("pipe-lane " + categoryClass(size_t(laneOf[s.pipe])),
                "data-pipe=\"" + escape(t.pipes[s.pipe]) + "\" data-busy=\"" + std::to_string(totals.busy[s.pipe]) + "\"");
    }
    const std::string tip = b.count == 1 ? t.labels[s.what] + ": cycles " + std::to_string(b.start) + " to " +
                                               std::to_string(b.end) + " (" + std::to_string(b.end - b.start) + ")"
                                         : std::to_string(b.count) + " instructions from cycle " + std::to_string(b.start) +
                                               " to " + std::to_string(b.end) + ", the first " + t.labels[s.what];
    const double y = kTop + kLane * laneOf[s.pipe] + 3;
    svg.rect(x(b.start), y, std::max(0.5, x(b.end) - x(b.start)), kLane - 6, "bar", tip);
  }
  if (open != UINT32_MAX) svg.endGroup();
  svg.xAxis(kLeft, kWidth - kRight, kTop + kLane * double(lanes.size()), 0, span, niceTicks(0, span, 8), axis,
            &cyclesLabel);
  return svg;
}

std::string ratio(int64_t a, int64_t b) { return num(std::round(double(a) * 100 / double(std::max<int64_t>(1, b))) / 100); }

std::string summary(const Timeline& t, const Totals& totals) {
  const int64_t busiest = totals.busy[totals.busiest];
  return "Total: <b>" + std::to_string(totals.total) + "</b> cycles. Busiest pipe: <b>" + escape(t.pipes[totals.busiest]) +
         "</b>, busy " + std::to_string(busiest) + " cycles; the total is " + ratio(totals.total, busiest) +
         " times that (1 would mean that pipe never waits).";
}

void pipeTable(const Timeline& t, const Totals& totals, const std::vector<uint32_t>& lanes, Page& page) {
  std::vector<std::vector<std::string>> rows;
  for (uint32_t p : lanes)
    rows.push_back({escape(t.pipes[p]), "<span class=\"num\">" + std::to_string(totals.count[p]) + "</span>",
                    "<span class=\"num\">" + std::to_string(totals.busy[p]) + "</span>",
                    ratio(totals.busy[p], totals.total)});
  page.table({"pipe", "instructions", "busy cycles", "busy / total"}, rows, "pipe-busy");
}

// Per op of the estimate: its pipe, the cycles of one instance, how many ran.
void opTable(const KernelView& kernel, const Timeline& t, Page& page) {
  struct Row {
    uint32_t pipe = 0;
    int64_t each = 0;
    size_t count = 0;
  };
  std::vector<Row> rows(t.labels.size());
  for (const Timeline::Span& s : t.spans) rows[s.what] = {s.pipe, s.end - s.start, rows[s.what].count + 1};
  std::vector<std::vector<std::string>> cells;
  for (size_t i = 0; i < rows.size(); ++i)
    cells.push_back({"<code>" + escape(t.labels[i]) + "</code>", escape(t.pipes[rows[i].pipe]),
                     std::to_string(rows[i].each), std::to_string(rows[i].count),
                     i < t.sources.size() ? kernel.lineLink(t.sources[i]) : std::string()});
  page.table({"op", "pipe", "cycles each", "instances", "source"}, cells, "pipe-ops");
}

std::string blocksText(int64_t blocks) {
  return blocks > 1 ? std::to_string(blocks) + " blocks" : std::string("1 block");
}

std::vector<uint32_t> busyLanes(const Totals& totals) {
  std::vector<uint32_t> lanes;
  for (size_t p = 0; p < totals.count.size(); ++p)
    if (totals.count[p]) lanes.push_back(uint32_t(p));
  return lanes;
}

}  // namespace

bool writeTimelineSection(const KernelView& kernel, Page& page, const PipeModel& model) {
  const Timeline estimate = estimateTimeline(kernel, model);
  const Timeline* trace = kernel.perfTrace();
  const Timeline& shown = trace ? *trace : estimate;
  if (shown.spans.empty()) return false;
  const ir::Function& f = kernel.function();
  page.section(kernel.anchor("timeline"), f.name() + ": pipe timeline", "timeline");
  if (trace)
    page.paragraph("The instructions as pto-isa's Perf-Sim ran them, from the trace <code>--perf-trace</code> "
                   "named: one lane per pipe of the trace, a bar per instruction (hover for its name and cycles).");
  else
    page.paragraph("An <b>estimate</b>, not a measurement: block 0 of the launch (" + blocksText(f.blocks()) +
                   "), each op of the final IR at the cycles the target's model gives it, on the pipe that "
                   "runs it. Pipes are in-order queues: an instruction starts once its pipe is free, its inputs "
                   "are done and every earlier instruction that read or wrote one of its buffers is done. Hover a "
                   "bar for the op and its source position; <code>--perf-trace</code> draws a Perf-Sim trace "
                   "instead. How far the estimate is from Perf-Sim: docs/report.md.");
  for (const std::string& note : shown.notes) page.paragraph(note);
  const Totals totals = totalsOf(shown);
  const std::vector<uint32_t> lanes = busyLanes(totals);
  const bool merged = std::any_of(totals.count.begin(), totals.count.end(), [](size_t n) { return n > kMaxBars; });
  page.figure(draw(shown, totals, lanes,
                   trace ? "time in cycles, as Perf-Sim measured it (its trace)"
                         : "time in cycles, estimated by the model (not measured; not program order)"),
              "timeline-figure",
              std::string("Each lane is a pipe, labelled with its busy cycles; each bar an instruction") +
                  (merged ? " (on a pipe of more than " + std::to_string(kMaxBars) +
                                ", neighbours closer than the drawing resolves are merged into one bar)"
                          : "") +
                  ".",
              trace ? "The trace is of the kernel at " + kernel.lineLink(f.loc()) + "; its instructions do not name "
                      "their source lines."
                    : "Its ops come from " + kernel.linesHtml(estimate.sources) + ".");
  page.paragraph(summary(shown, totals));
  pipeTable(shown, totals, lanes, page);
  if (trace && !estimate.spans.empty()) {
    const Totals est = totalsOf(estimate);
    page.paragraph("The static estimate for this kernel: " + std::to_string(est.total) + " cycles, busiest pipe " +
                   escape(estimate.pipes[est.busiest]) + " (" + std::to_string(est.busy[est.busiest]) + " cycles).");
  }
  if (!trace) opTable(kernel, estimate, page);
  return true;
}

}  // namespace tilec::report
