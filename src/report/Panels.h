// An N-D box drawn as 2-D panels: the last two axes are rows and columns, and every index
// of the leading axes is a panel of its own (small multiples), up to kMaxPanels; more
// leading slices than that share one representative panel. Boxes inside the extent (a
// load's window, a packed accumulator's pages) are drawn in each panel their leading
// indices cover.
#pragma once
#include <string>
#include <vector>

#include "report/Html.h"

namespace tilec::report {

struct PanelBox {
  std::vector<double> offset;   // per axis of the extent, elements
  std::vector<double> size;     // elements; solid part
  std::vector<double> upTo;     // elements; the part from `size` to `upTo` is hatched (not
                                // known to be valid); empty when all of it is valid
  std::string cls;              // "window k0", "sweep", ...
  std::string tip;
  std::string label;            // written inside the box's first panel when it fits
};

class Panels {
 public:
  static constexpr int kMaxPanels = 16;
  // `extent`: the drawing size of every axis; `axisNames`: how each axis is labelled.
  Panels(std::vector<double> extent, std::vector<std::string> axisNames);

  // Each group is drawn as one <g class="..."> holding its boxes in every panel.
  void add(std::string groupClass, std::string groupAttrs, std::vector<PanelBox> boxes);
  Svg draw(const std::string& title) const;

 private:
  struct Group {
    std::string cls, attrs;
    std::vector<PanelBox> boxes;
  };
  std::vector<std::vector<double>> panelIndices() const;
  bool covers(const PanelBox& b, const std::vector<double>& index) const;

  std::vector<double> extent_;
  std::vector<std::string> axisNames_;
  std::vector<Group> groups_;
};

}  // namespace tilec::report
