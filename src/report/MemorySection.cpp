// On-chip memory over the program, one chart per memory space that holds buffers: each
// buffer a bar over its live range, stacked in the order the buffers opened so that the
// top of the stack is the bytes live at that point; the target's capacity as a line and
// the peak marked. Every number is BufferLifetimes.h's, as check-capacity uses them.
// A bar is cut into one rectangle per stretch at one height: at most the buffers times
// the events below them. The x axis is program order; its ticks and every place named on the
// page give the source line of the op there.
#include <algorithm>
#include <cmath>

#include "passes/BufferLifetimes.h"
#include "report/Report.h"

namespace tilec::report {
namespace {

constexpr double kWidth = 920, kLeft = 88, kRight = 24, kTop = 34, kPlot = 220, kBottom = 56;

struct Segment {
  double from, to, offset;
};

// The rectangles of every buffer: between two events the open buffers are stacked in
// the order they opened.
std::vector<std::vector<Segment>> stack(const passes::SpaceUse& use) {
  std::vector<std::vector<Segment>> segments(use.buffers.size());
  struct Open {
    size_t buffer;
    double since, offset;
  };
  std::vector<Open> open;
  for (const passes::SpaceUse::Event& e : use.events) {
    if (e.opens) {
      const double top = open.empty() ? 0 : open.back().offset + double(use.buffers[open.back().buffer].alignedBytes);
      open.push_back({e.buffer, double(e.point), top});
      continue;
    }
    auto it = std::find_if(open.begin(), open.end(), [&](const Open& o) { return o.buffer == e.buffer; });
    const double freed = double(use.buffers[e.buffer].alignedBytes);
    segments[e.buffer].push_back({it->since, double(e.point), it->offset});
    for (auto above = it + 1; above != open.end(); ++above) {
      if (above->since < e.point) segments[above->buffer].push_back({above->since, double(e.point), above->offset});
      above->since = std::max(above->since, double(e.point));
      above->offset -= freed;
    }
    open.erase(it);
  }
  return segments;
}

// The top of the byte axis: the capacity when the peak is a fair part of it; otherwise the
// chart zooms in on the peak and the capacity line sits on the top edge, labelled.
double scaleTop(int64_t peak, int64_t capacity) {
  if (double(peak) * 4 >= double(capacity)) return double(std::max(peak, capacity)) * 1.08;
  return std::max(1.0, double(peak) * 1.3);
}

// Every op in pre-order, as MemoryUse::opPoints lists their points.
void preOrder(const ir::Block& b, std::vector<const ir::Op*>& out) {
  for (const auto& op : b.ops()) {
    out.push_back(op.get());
    for (unsigned r = 0; r < op->numRegions(); ++r) preOrder(op->body(r), out);
  }
}

class MemoryChart {
 public:
  MemoryChart(const KernelView& kernel, const passes::MemoryUse& use, const passes::SpaceUse& space,
              const ir::SpaceDesc& desc, const std::vector<const ir::Op*>& ops)
      : kernel_(kernel), use_(use), space_(space), desc_(desc), ops_(ops),
        top_(scaleTop(space.peakBytes, desc.capacityBytes)) {}

  Svg draw() const {
    Svg svg(kWidth, kTop + kPlot + kBottom,
            std::string(desc_.name) + " (" + desc_.memory + ") of kernel " + kernel_.function().name() +
                ": bytes live over the program");
    svg.text(kLeft, 18, std::string(desc_.name) + " (" + desc_.memory + ") bytes live, in program order", "title");
    for (double t : yTicks()) svg.line(kLeft, y(t), kWidth - kRight, y(t), "grid");
    drawLoops(svg);
    svg.group("memory-chart", "data-space=\"" + escape(desc_.name) + "\" data-peak-bytes=\"" +
                                  std::to_string(space_.peakBytes) + "\" data-capacity-bytes=\"" +
                                  std::to_string(desc_.capacityBytes) + "\"");
    const std::vector<std::vector<Segment>> segments = stack(space_);
    for (size_t b = 0; b < space_.buffers.size(); ++b) drawBuffer(svg, b, segments[b]);
    svg.endGroup();
    const bool onScale = double(desc_.capacityBytes) <= top_;
    const double capY = onScale ? y(double(desc_.capacityBytes)) : kTop;
    svg.line(kLeft, capY, kWidth - kRight, capY, "capacity");
    svg.text(kWidth - kRight - 4, capY - 5,
             "capacity " + bytesText(desc_.capacityBytes) +
                 (onScale ? "" : " (above this scale; the peak is " + percent() + " of it)"),
             "label", Svg::Anchor::End);
    const double px = x(space_.peakPoint);
    svg.line(px, kTop, px, kTop + kPlot, "peak");
    svg.text(px + 4, kTop + 12, "peak " + bytesText(space_.peakBytes) + " at " + lineAt(space_.peakPoint), "label");
    svg.yAxis(kLeft, kTop + kPlot, kTop, 0, top_, yTicks(), "bytes live", &yLabel);
    std::vector<double> ticks;
    const double ops = double(use_.opPoints.size());
    for (double t : niceTicks(1, ops, 8)) ticks.push_back(t);
    xAxisByOp(svg, ticks);
    return svg;
  }

  int opAt(int point) const {
    return int(std::upper_bound(use_.opPoints.begin(), use_.opPoints.end(), point) - use_.opPoints.begin());
  }
  // The source of the op at `point` ("line 23" for the text, the range for a link).
  SourceRange sourceAt(int point) const {
    const int k = opAt(point);
    return k >= 1 && size_t(k) <= ops_.size() ? ops_[size_t(k) - 1]->loc() : SourceRange{};
  }
  std::string lineAt(int point) const {
    const SourceRange r = sourceAt(point);
    return r.valid() ? "line " + std::to_string(kernel_.lineOf(r)) : std::string("the kernel's start");
  }

 private:
  static std::string yLabel(double v) { return bytesText(int64_t(v)); }
  std::string percent() const {
    return num(std::round(double(space_.peakBytes) * 1000 / double(desc_.capacityBytes)) / 10) + "%";
  }
  std::vector<double> yTicks() const {
    std::vector<double> ticks;
    const double unit = top_ >= 1024 ? 1024 : 1;  // ticks on (fractions of) KiB past one KiB
    for (double t : niceTicks(0, top_ / unit, 5)) ticks.push_back(t * unit);
    return ticks;
  }
  double x(double point) const {
    return kLeft + point / std::max(1, use_.lastPoint) * (kWidth - kLeft - kRight);
  }
  double y(double bytes) const { return kTop + kPlot - bytes / std::max(1.0, top_) * kPlot; }

  void xAxisByOp(Svg& svg, const std::vector<double>& ticks) const {
    const double base = kTop + kPlot;
    svg.line(kLeft, base, kWidth - kRight, base, "axis-line");
    for (double t : ticks) {
      const size_t k = size_t(t) - 1;  // ops are numbered from 1, as opAt() counts them
      const int point = k < use_.opPoints.size() ? use_.opPoints[k] : use_.lastPoint;
      const double px = x(point);
      svg.line(px, base, px, base + 4, "axis-line");
      const SourceRange r = sourceAt(point);
      svg.text(px, base + 16, r.valid() ? std::to_string(kernel_.lineOf(r)) : "", "axis", Svg::Anchor::Middle);
    }
    svg.text((kLeft + kWidth - kRight) / 2, base + 36,
             "program order (a loop body once); each tick names the source line of the op there",
             "axis-caption", Svg::Anchor::Middle);
  }

  // Loop bodies are drawn once, so a band marks each loop's ops: a buffer that spans a
  // whole band lives across iterations.
  void drawLoops(Svg& svg) const {
    for (const passes::MemoryUse::Loop& l : use_.loops) {
      const double x0 = x(l.enter), x1 = x(l.exit);
      const std::string var = kernel_.names().base(l.loop->body(0).arg(0));
      svg.rect(x0, kTop, x1 - x0, kPlot, "loop-band", "the body of " + kernel_.loopName(*l.loop));
      if (x1 - x0 > 7.0 * double(var.size() + 4)) svg.text(x0 + 3, kTop + kPlot - 4, "for " + var, "axis");
    }
  }

  void drawBuffer(Svg& svg, size_t b, const std::vector<Segment>& segments) const {
    const passes::LiveBuffer& buf = space_.buffers[b];
    const std::string tip = "buffer " + std::to_string(buf.id) + ": " + bytesText(buf.alignedBytes) + ", live from " +
                            lineAt(buf.start) + " to " + lineAt(buf.end) + " in program order; tiles of " +
                            kernel_.namesText(buf.tiles);
    svg.group("buffer " + categoryClass(b), "data-buffer=\"" + std::to_string(buf.id) + "\" data-bytes=\"" +
                                                std::to_string(buf.alignedBytes) + "\"");
    const double height = std::max(2.0, double(buf.alignedBytes) / std::max(1.0, top_) * kPlot);
    for (const Segment& s : segments) {
      const double x0 = x(s.from), width = std::max(1.5, x(s.to) - x0);
      svg.rect(x0, y(s.offset) - height, width, height, "bar", tip);
    }
    svg.endGroup();
  }

  const KernelView& kernel_;
  const passes::MemoryUse& use_;
  const passes::SpaceUse& space_;
  const ir::SpaceDesc& desc_;
  const std::vector<const ir::Op*>& ops_;
  double top_;
};

std::vector<std::string> bufferRow(const KernelView& kernel, const MemoryChart& chart, const passes::SpaceUse& space,
                                   size_t b) {
  const passes::LiveBuffer& buf = space.buffers[b];
  const bool atPeak = std::find(space.liveAtPeak.begin(), space.liveAtPeak.end(), b) != space.liveAtPeak.end();
  return {std::to_string(buf.id), kernel.namesHtml(buf.tiles), bytesText(buf.alignedBytes),
          kernel.lineLink(chart.sourceAt(buf.start)) + " to " + kernel.lineLink(chart.sourceAt(buf.end)),
          atPeak ? "yes" : ""};
}

}  // namespace

bool writeMemorySection(const KernelView& kernel, Page& page) {
  const ir::Function& f = kernel.function();
  const passes::MemoryUse& use = kernel.memory();
  const ir::TargetModel& model = f.module().target();
  bool any = false;
  for (const passes::SpaceUse& space : use.spaces) any |= !space.buffers.empty();
  if (!any) return false;
  page.section(kernel.anchor("memory"), f.name() + ": on-chip memory", "memory");
  page.paragraph("Each bar is one buffer over the ops where one of its tiles is live; bars are stacked in the "
                 "order the buffers open, so the top edge is the bytes live at that op (sizes rounded up to "
                 "the space's alignment). These are the numbers <code>check-capacity</code> holds against "
                 "the target's capacity. The x axis is program order, not time: the compiled kernel's ops "
                 "one after another, a loop's body once; each tick and each place named below gives the "
                 "source line of the op there (a line can recur: a loop the compiler doubled or split holds "
                 "its lines more than once). Tiles are named as in the source, with the lines they come "
                 "from.");
  page.legend({{"k0", "buffer (colours only tell neighbours apart; hover a bar for its tiles)"},
               {"capacity-swatch", "capacity of the space"},
               {"peak-swatch", "peak"},
               {"loop-swatch", "a loop's body (drawn once)"}});
  std::vector<const ir::Op*> ops;
  preOrder(f.body(), ops);
  for (const passes::SpaceUse& space : use.spaces) {
    if (space.buffers.empty()) continue;
    const ir::SpaceDesc& desc = model.spaces[space.space];
    const MemoryChart chart(kernel, use, space, desc, ops);
    page.heading(std::string(desc.name) + " (" + desc.memory + "): peak " + bytesText(space.peakBytes) + " of " +
                 bytesText(desc.capacityBytes));
    std::vector<const ir::Value*> live;
    for (size_t b : space.liveAtPeak) live.push_back(space.buffers[b].first);
    page.figure(chart.draw(), "memory-figure", "",
                "The peak is at " + kernel.lineLink(chart.sourceAt(space.peakPoint)) + "; live there: " +
                    kernel.namesHtml(live) + ".");
    std::vector<std::vector<std::string>> rows;
    for (size_t b = 0; b < space.buffers.size(); ++b) rows.push_back(bufferRow(kernel, chart, space, b));
    page.table({"buffer", "tiles", "bytes", "live (source lines, in program order)", "live at the peak"}, rows,
               "buffers");
  }
  return true;
}

}  // namespace tilec::report
