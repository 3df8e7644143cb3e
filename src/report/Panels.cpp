#include "report/Panels.h"

#include <algorithm>
#include <cmath>

namespace tilec::report {
namespace {

constexpr double kFigureWidth = 920, kMaxPanelWidth = 320, kMaxPanelHeight = 160, kGap = 26, kMargin = 40;

}  // namespace

Panels::Panels(std::vector<double> extent, std::vector<std::string> axisNames)
    : extent_(std::move(extent)), axisNames_(std::move(axisNames)) {
  // A 1-D extent is one row.
  if (extent_.size() == 1) extent_.insert(extent_.begin(), 1), axisNames_.insert(axisNames_.begin(), "1");
}

void Panels::add(std::string groupClass, std::string groupAttrs, std::vector<PanelBox> boxes) {
  for (PanelBox& b : boxes)
    if (b.offset.size() + 1 == extent_.size()) {  // a 1-D box in a 1-D extent
      b.offset.insert(b.offset.begin(), 0);
      b.size.insert(b.size.begin(), 1);
      if (!b.upTo.empty()) b.upTo.insert(b.upTo.begin(), 1);
    }
  groups_.push_back({std::move(groupClass), std::move(groupAttrs), std::move(boxes)});
}

std::vector<std::vector<double>> Panels::panelIndices() const {
  const size_t leading = extent_.size() - 2;
  double count = 1;
  for (size_t k = 0; k < leading; ++k) count *= extent_[k];
  if (count > kMaxPanels) return {std::vector<double>(leading, -1)};  // -1: any index
  std::vector<std::vector<double>> out;
  std::vector<double> index(leading, 0);
  for (double n = 0; n < count; ++n) {
    out.push_back(index);
    for (size_t k = leading; k-- > 0;) {
      if (++index[k] < extent_[k]) break;
      index[k] = 0;
    }
  }
  return out;
}

bool Panels::covers(const PanelBox& b, const std::vector<double>& index) const {
  for (size_t k = 0; k < index.size(); ++k) {
    const double reach = b.upTo.empty() ? b.size[k] : std::max(b.size[k], b.upTo[k]);
    if (index[k] >= 0 && (index[k] < b.offset[k] || index[k] >= b.offset[k] + reach)) return false;
  }
  return true;
}

Svg Panels::draw(const std::string& title) const {
  const size_t n = extent_.size();
  const double rows = std::max(1.0, extent_[n - 2]), cols = std::max(1.0, extent_[n - 1]);
  const std::vector<std::vector<double>> panels = panelIndices();
  const double perRow = std::max(1.0, std::floor((kFigureWidth - kMargin) / (kMaxPanelWidth + kGap)));
  // Rows and columns each scaled to fit, but never more than 4:1 apart, so a 32 x 512 tensor
  // is still a band one can see and a square stays nearly square.
  double sx = std::min({kMaxPanelWidth / cols, panels.size() > 1 ? (kFigureWidth - kMargin) / perRow / cols * 0.85 : 1e9, 16.0});
  double sy = std::min(kMaxPanelHeight / rows, 16.0);
  sy = std::min(sy, 4 * sx);
  sx = std::min(sx, 4 * sy);
  const double pw = cols * sx, ph = rows * sy;
  const double across = std::max(1.0, std::min(double(panels.size()), std::floor((kFigureWidth - kMargin) / (pw + kGap))));
  const double downs = std::ceil(double(panels.size()) / across);
  const double cellW = pw + kGap, cellH = ph + kGap + 14;
  // Wide enough for the title too (about 7.5 units per character of the title's font).
  Svg svg(std::max({kMargin + across * cellW + 10, 260.0, 8 + 7.5 * double(title.size())}), 30 + downs * cellH + 48, title);
  svg.text(4, 16, title, "title");
  auto origin = [&](size_t p) {
    return std::make_pair(kMargin + std::fmod(double(p), across) * cellW, 30 + 14 + std::floor(double(p) / across) * cellH);
  };
  for (size_t p = 0; p < panels.size(); ++p) {
    auto [x, y] = origin(p);
    std::string name;
    for (double i : panels[p]) name += (name.empty() ? "[" : ", ") + (i < 0 ? std::string("*") : num(i));
    if (!name.empty()) svg.text(x, y - 4, name + ", :, :]", "axis");
    svg.rect(x, y, pw, ph, "tensor");
  }
  for (const Group& g : groups_) {
    svg.group(g.cls, g.attrs);
    std::vector<char> labelled(g.boxes.size(), 0);  // each box's label once, in its first panel
    for (size_t p = 0; p < panels.size(); ++p) {
      auto [x0, y0] = origin(p);
      for (size_t i = 0; i < g.boxes.size(); ++i) {
        const PanelBox& b = g.boxes[i];
        if (!covers(b, panels[p])) continue;
        const double bx = x0 + b.offset[n - 1] * sx, by = y0 + b.offset[n - 2] * sy;
        const double bw = std::min(b.size[n - 1], cols - b.offset[n - 1]) * sx;
        const double bh = std::min(b.size[n - 2], rows - b.offset[n - 2]) * sy;
        svg.rect(bx, by, std::max(bw, 1.0), std::max(bh, 1.0), b.cls, b.tip);
        if (!b.upTo.empty()) {  // the part not known to be valid, as an L around the solid part
          const double uw = std::min(b.upTo[n - 1], cols - b.offset[n - 1]) * sx;
          const double uh = std::min(b.upTo[n - 2], rows - b.offset[n - 2]) * sy;
          if (uh > bh) svg.rect(bx, by + bh, uw, uh - bh, "invalid", "not known to be valid: " + b.tip);
          if (uw > bw) svg.rect(bx + bw, by, uw - bw, bh, "invalid", "not known to be valid: " + b.tip);
        }
        if (!labelled[i] && !b.label.empty() && bw > 6.5 * double(b.label.size()) && bh > 14) {
          svg.text(bx + 3, by + 12, b.label, "label");
          labelled[i] = 1;
        }
      }
    }
    svg.endGroup();
  }
  auto [x, y] = origin(0);
  svg.text(x + pw / 2, y + ph + 13, "columns (elements): " + axisNames_[n - 1], "axis", Svg::Anchor::Middle);
  // The rows' caption runs along the panel's side when it fits there (about 6 units a
  // character), else under the columns' caption.
  const std::string rowsCaption = "rows (elements): " + axisNames_[n - 2];
  if (6.0 * double(rowsCaption.size()) <= ph + 16) svg.verticalText(x - 8, y + ph / 2, rowsCaption, "axis");
  else svg.text(x + pw / 2, y + ph + 27, rowsCaption, "axis", Svg::Anchor::Middle);
  return svg;
}

}  // namespace tilec::report
