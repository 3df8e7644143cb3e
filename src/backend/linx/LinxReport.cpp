// Linx regions in the report. A parent is a tile that region ops cut into a grid of
// slots: the operand of region.part (a slot read through B.SUBVIEW) or a region.array (a
// tile built slot by slot through B.ASSEMBLE). It is drawn in element space, rows down and
// columns across, as its CELLs: the 128-byte units of its storage, each where the layout
// formula the slot proofs use (LinxLayout's byteOffset) puts its elements. Each slot is a
// box over the elements it covers and, under the drawing, a run on a strip of the
// parent's CELLs in storage order. Everything is read off the final IR: phases are
// derive-regions', offsets linx-offsets', SizeCodes those the encoder writes. Linear in
// the kernel plus the elements of the parents drawn.
#include "backend/linx/LinxReport.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "backend/linx/LinxLayout.h"
#include "backend/linx/LinxTargets.h"
#include "backend/linx/LinxWords.h"
#include "ir/Describe.h"
#include "passes/PassUtils.h"

namespace tilec::linx {
namespace {
using report::escape;
using report::num;
using report::Page;
using report::Svg;

// One slot of a parent: a grid index of one of its partitions.
struct Slot {
  const ir::Op* op;                       // the region op that names it (the first view, for reads)
  std::vector<const ir::Value*> readers;  // the region.part results naming it; empty for a write
};

struct Parent {
  const ir::Value* tile;
  std::vector<Slot> slots;
  std::map<std::string, size_t> readSlots;  // grid and index text -> slot: views of one slot share it
};

bool isRead(const Slot& s) { return s.op->kind() == ir::OpKind::RegionPart; }

const std::vector<int64_t>& gridOf(const Slot& s) { return s.op->get(ir::attr::grid); }
const std::vector<ir::Expr>& indexOf(const Slot& s) { return s.op->get(ir::attr::index); }

// The tile a slot's word sizes: the view a B.SUBVIEW narrows to, the writer of a B.ASSEMBLE.
const ir::Type& slotType(const Slot& s) { return isRead(s) ? s.op->result()->type() : s.op->operand(1)->type(); }

int64_t cellsOf(const ir::Type& t) {
  std::string why;
  return storageBytes(t, why).value_or(0) / kCellBytes;
}

// The parents of a kernel in program order, with their slots in program order.
class RegionCollector {
 public:
  explicit RegionCollector(const report::KernelView& kernel) : kernel_(kernel) {}

  std::vector<Parent> collect() {
    visit(kernel_.function().body());
    return std::move(parents_);
  }

 private:
  void visit(const ir::Block& b) {
    for (const auto& op : b.ops()) {
      if (op->kind() == ir::OpKind::RegionArray) parentAt(op->result());
      if (op->kind() == ir::OpKind::RegionPart) addRead(*op);
      if (op->kind() == ir::OpKind::RegionInsert) addWrite(*op);
      for (unsigned r = 0; r < op->numRegions(); ++r) visit(op->body(r));
    }
  }

  // The parent `v` is, or is a state of (a region.insert result); new on first sight.
  size_t parentAt(const ir::Value* v) {
    auto [it, fresh] = byValue_.try_emplace(v, parents_.size());
    if (fresh) parents_.push_back({v, {}, {}});
    return it->second;
  }

  void addRead(const ir::Op& part) {
    Parent& p = parents_[parentAt(part.operand(0))];
    const std::string key = ir::shapeText(part.get(ir::attr::grid)) +
                            kernel_.exprs(part.get(ir::attr::index));
    auto [it, fresh] = p.readSlots.try_emplace(key, p.slots.size());
    if (fresh) p.slots.push_back({&part, {}});
    p.slots[it->second].readers.push_back(part.result());
  }

  void addWrite(const ir::Op& insert) {
    const size_t at = parentAt(insert.operand(0));
    byValue_.emplace(insert.result(), at);
    parents_[at].slots.push_back({&insert, {}});
  }

  const report::KernelView& kernel_;
  std::vector<Parent> parents_;
  std::unordered_map<const ir::Value*, size_t> byValue_;  // lookups only, never iterated
};

// How a slot is drawn and named: its assembly phase, or a read.
struct PhaseStyle {
  const char* data;  // data-phase
  const char* text;
  const char* cls;
  const char* legend;
};

constexpr PhaseStyle kInit{"init", "INIT", "k0", "INIT: the first write, whose binder allocates the parent"};
constexpr PhaseStyle kMiddle{"middle", "MIDDLE", "k1", "MIDDLE: a write between the first and the last"};
constexpr PhaseStyle kLast{"last", "LAST", "k2", "LAST: the write that completes the parent"};
constexpr PhaseStyle kInitLast{"init_last", "INIT_LAST", "k3", "INIT_LAST: the one write of a one-slot array"};
constexpr PhaseStyle kUnphased{"unphased", "no phase", "k6", "a write derive-regions did not phase"};
constexpr PhaseStyle kRead{"read", "read", "linx-read", "read through a partition view (B.SUBVIEW)"};
const PhaseStyle* const kStyles[] = {&kInit, &kMiddle, &kLast, &kInitLast, &kUnphased, &kRead};

const PhaseStyle& styleOf(const Slot& s) {
  if (isRead(s)) return kRead;
  const ir::RegionPhase* phase = s.op->find(ir::attr::phase);
  if (!phase) return kUnphased;
  switch (*phase) {
    case ir::RegionPhase::Init: return kInit;
    case ir::RegionPhase::Middle: return kMiddle;
    case ir::RegionPhase::Last: return kLast;
    case ir::RegionPhase::InitLast: return kInitLast;
  }
  return kUnphased;
}

// What the slot's modifier word carries, as text.
struct SlotWord {
  std::string index;   // "[0, 1]"
  std::string offset;  // CELLs: "16", "%j * 16"
  std::string imm;     // uimm11
  std::string reg;     // RegSrc: "zero", "a0"
  int sizeCode;        // the range's: the view's, or the writer's
  // Revision A's B.ASSEMBLE field 5 (the parent's SizeCode on INIT, 0 after), which is
  // not the writer's size: that is on the writer's binder there. -1 when not shown.
  int parentField = -1;
};

SlotWord wordOf(const report::KernelView& kernel, const Slot& s) {
  const ir::Expr* offset = s.op->find(ir::attr::offset);
  const int64_t* imm = s.op->find(ir::attr::imm);
  const int64_t* reg = s.op->find(ir::attr::reg);
  const char* regName = reg ? gprName(int(*reg)) : "zero";
  const bool revA = kernel.flag(kAssembleRevA);
  const bool phased = s.op->find(ir::attr::phase) != nullptr;
  return {kernel.exprs(indexOf(s)), offset ? kernel.expr(*offset) : "not assigned",
          imm ? std::to_string(*imm) : "not assigned", regName ? regName : std::to_string(*reg),
          sizeCodeOf(slotType(s)), revA && phased ? assembleSizeField(*s.op, AssembleRev::A) : -1};
}

std::string sizeCodeText(int code) {
  const std::string name = sizeName(code);
  return std::to_string(code) + (name.empty() ? "" : " (" + name + ")");
}

// "SizeCode 4 (1KB)", with revision A's field 5 after it when shown.
std::string sizesText(const SlotWord& word) {
  return "SizeCode " + sizeCodeText(word.sizeCode) +
         (word.parentField < 0 ? "" : ", ParentSizeCode " + sizeCodeText(word.parentField));
}

// Where a CELL's elements are: the box of rows and columns they span.
struct CellBox {
  int64_t row0 = INT64_MAX, col0 = INT64_MAX, row1 = 0, col1 = 0, elements = 0;
};

// Every CELL's box, by the layout formula; `rectangles` says whether each CELL's elements
// fill their box exactly (they do in every layout whose slots prove).
std::vector<CellBox> cellBoxes(const ir::Type& t, int64_t cells, bool& rectangles) {
  std::vector<CellBox> boxes(static_cast<size_t>(cells));
  for (int64_t r = 0; r < t.shape()[0]; ++r)
    for (int64_t c = 0; c < t.shape()[1]; ++c) {
      const int64_t k = byteOffset(t, r, c) / kCellBytes;
      if (k < 0 || k >= cells) continue;
      CellBox& b = boxes[size_t(k)];
      b.row0 = std::min(b.row0, r), b.col0 = std::min(b.col0, c);
      b.row1 = std::max(b.row1, r + 1), b.col1 = std::max(b.col1, c + 1);
      ++b.elements;
    }
  rectangles = std::all_of(boxes.begin(), boxes.end(), [](const CellBox& b) {
    return b.elements > 0 && (b.row1 - b.row0) * (b.col1 - b.col0) == b.elements;
  });
  return boxes;
}

// The grid positions a slot may take along one axis: its index, or every position when
// the index varies at run time.
std::pair<int64_t, int64_t> reach(const ir::Expr& index, int64_t positions) {
  if (!index.isConst()) return {0, positions};
  return {index.constValue(), index.constValue() + 1};
}

bool varies(const Slot& s) {
  const auto& index = indexOf(s);
  return std::any_of(index.begin(), index.end(), [](const ir::Expr& e) { return !e.isConst(); });
}

std::string cellsUnit(const std::string& count) { return count == "1" ? " CELL" : " CELLs"; }

constexpr double kLeft = 84, kTop = 40, kPlotWidth = 720, kPlotHeight = 420, kRight = 24;
constexpr double kMinWidth = 240, kMinHeight = 120, kStripHeight = 18, kCharWidth = 6.3, kLineHeight = 13;

// Up to `count` whole-number ticks from 0 to `hi`.
std::vector<double> wholeTicks(double hi, int count) {
  return report::niceTicks(0, hi, std::max(1, std::min(count, int(hi))));
}

class ParentFigure {
 public:
  ParentFigure(const report::KernelView& kernel, const Parent& parent, std::vector<CellBox> cells)
      : kernel_(kernel), parent_(parent), cells_(std::move(cells)),
        rows_(double(parent.tile->type().shape()[0])), cols_(double(parent.tile->type().shape()[1])) {
    // Elements stay close to square within the plot's bounds; axes say what is stretched.
    const double aspect = rows_ / cols_;
    width_ = kPlotWidth * aspect <= kPlotHeight ? kPlotWidth : std::max(kMinWidth, kPlotHeight / aspect);
    height_ = std::max(kMinHeight, std::min(kPlotHeight, width_ * aspect));
  }

  Svg draw(const std::string& title) const {
    const double stripTop = kTop + height_ + 64;
    Svg svg(kLeft + kPlotWidth + kRight, stripTop + kStripHeight + 44, title);
    svg.text(kLeft, 20, title, "title");
    drawCells(svg);
    drawStrip(svg, stripTop);
    // Slots that may be anywhere along an axis go under the ones with a fixed place.
    for (const Slot& s : parent_.slots)
      if (varies(s)) drawSlot(svg, s, stripTop);
    for (const Slot& s : parent_.slots)
      if (!varies(s)) drawSlot(svg, s, stripTop);
    if (cellsNumbered()) numberCells(svg);
    svg.xAxis(kLeft, kLeft + width_, kTop + height_, 0, cols_, wholeTicks(cols_, int(width_ / 50)),
              "column (elements)", &num);
    svg.yAxis(kLeft, kTop, kTop + height_, 0, rows_, wholeTicks(rows_, int(height_ / 40)), "row (elements)", &num);
    const double cells = double(cells_.size());
    svg.xAxis(kLeft, kLeft + kPlotWidth, stripTop + kStripHeight, 0, cells, wholeTicks(cells, 12),
              "offset in the parent's storage (CELLs of " + std::to_string(kCellBytes) + " bytes)", &num);
    svg.text(kLeft - 7, stripTop + 13, "CELLs", "axis", Svg::Anchor::End);
    return svg;
  }

 private:
  double x(double col) const { return kLeft + col / cols_ * width_; }
  double y(double row) const { return kTop + row / rows_ * height_; }
  double stripX(double cell) const { return kLeft + cell / double(cells_.size()) * kPlotWidth; }

  // Cell numbers go on top of the slots, in each CELL's top left corner (clear of the slot
  // labels in the middle), when every CELL has room for its number.
  bool cellsNumbered() const {
    const double digits = double(std::to_string(cells_.size() - 1).size());
    return std::all_of(cells_.begin(), cells_.end(), [&](const CellBox& b) {
      return x(double(b.col1)) - x(double(b.col0)) >= digits * 5.5 + 5 && y(double(b.row1)) - y(double(b.row0)) >= 12;
    });
  }

  void numberCells(Svg& svg) const {
    svg.group("cell-numbers");
    for (size_t k = 0; k < cells_.size(); ++k)
      svg.text(x(double(cells_[k].col0)) + 2, y(double(cells_[k].row0)) + 10, std::to_string(k), "linx-cell-label");
    svg.endGroup();
  }

  void drawCells(Svg& svg) const {
    svg.group("cells", "data-parent=\"" + escape(kernel_.name(parent_.tile)) + "\" data-cells=\"" +
                           std::to_string(cells_.size()) + "\"");
    for (size_t k = 0; k < cells_.size(); ++k) {
      const CellBox& b = cells_[k];
      const double x0 = x(double(b.col0)), y0 = y(double(b.row0));
      const double w = x(double(b.col1)) - x0, h = y(double(b.row1)) - y0;
      const std::string id = std::to_string(k);
      svg.group("cell-box", "data-cell=\"" + id + "\"");
      svg.rect(x0, y0, w, h, "linx-cell",
               "CELL " + id + ": bytes " + std::to_string(int64_t(k) * kCellBytes) + " to " +
                   std::to_string(int64_t(k + 1) * kCellBytes) + ", rows " + std::to_string(b.row0) + " to " +
                   std::to_string(b.row1 - 1) + ", columns " + std::to_string(b.col0) + " to " +
                   std::to_string(b.col1 - 1));
      svg.endGroup();
    }
    svg.endGroup();
  }

  // The parent's CELLs in storage order, one divider between neighbours when they are
  // far enough apart to tell.
  void drawStrip(Svg& svg, double top) const {
    svg.rect(kLeft, top, kPlotWidth, kStripHeight, "linx-track");
    if (kPlotWidth / double(cells_.size()) < 3) return;
    for (size_t k = 1; k < cells_.size(); ++k) svg.line(stripX(double(k)), top, stripX(double(k)), top + kStripHeight, "linx-divider");
  }

  void drawSlot(Svg& svg, const Slot& s, double stripTop) const {
    const PhaseStyle& style = styleOf(s);
    const SlotWord word = wordOf(kernel_, s);
    const auto& grid = gridOf(s);
    const auto& index = indexOf(s);
    const auto [i0, i1] = reach(index[0], grid[0]);
    const auto [j0, j1] = reach(index[1], grid[1]);
    const double h = rows_ / double(grid[0]), w = cols_ / double(grid[1]);
    const bool anywhere = varies(s);
    const std::string cls = std::string("linx-slot ") + style.cls + (anywhere ? " linx-sweep" : "");
    const std::string tip = word.index + " " + style.text + ": offset " + word.offset + cellsUnit(word.offset) +
                            " (RegSrc " + word.reg + ", imm " + word.imm + "), " + sizesText(word) +
                            (anywhere ? "; its index varies at run time: any of the places drawn" : "");
    svg.group("slot", "data-phase=\"" + std::string(style.data) + "\" data-index=\"" + escape(word.index) +
                          "\" data-offset=\"" + escape(word.offset) + "\" data-size-code=\"" +
                          std::to_string(word.sizeCode) + "\"" +
                          (word.parentField < 0 ? "" : " data-parent-size-code=\"" + std::to_string(word.parentField) + "\""));
    // A slot that may be anywhere is an outline inset from the boxes it spans, labelled
    // at its bottom, so the slots with a place stay readable over it.
    const double inset = anywhere ? 4 : 0;
    const double x0 = x(double(j0) * w) + inset, y0 = y(double(i0) * h) + inset;
    const double bw = x(double(j1) * w) - x0 - inset, bh = y(double(i1) * h) - y0 - inset;
    svg.rect(x0, y0, bw, bh, cls, tip);
    std::vector<std::string> lines = {word.index + " " + style.text, "offset " + word.offset + offsetParts(word),
                                      "SizeCode " + sizeCodeText(word.sizeCode)};
    if (word.parentField >= 0) lines.push_back("ParentSizeCode " + sizeCodeText(word.parentField));
    const double band = anywhere ? std::min(bh, double(lines.size()) * kLineHeight + 10) : bh;
    label(svg, x0, y0 + bh - band, bw, band, lines, word.index + " @" + word.offset + " SC" + std::to_string(word.sizeCode));
    const int64_t cells = cellsOf(slotType(s));
    for (int64_t i = i0; i < i1; ++i)
      for (int64_t j = j0; j < j1; ++j) {
        const double from = double((i * grid[1] + j) * cells);
        svg.rect(stripX(from), stripTop + inset / 2, stripX(from + double(cells)) - stripX(from), kStripHeight - inset,
                 cls, tip);
      }
    svg.endGroup();
  }

  static std::string offsetParts(const SlotWord& word) {
    const std::string unit = cellsUnit(word.offset);
    return word.reg == "zero" ? unit : unit + " = " + word.reg + " + " + word.imm;
  }

  // The lines centred in the box when they fit, else the one short line, else nothing
  // (the tooltip and the table still say it all).
  static void label(Svg& svg, double left, double top, double w, double h, const std::vector<std::string>& lines,
                    const std::string& brief) {
    size_t longest = 0;
    for (const std::string& l : lines) longest = std::max(longest, l.size());
    if (w >= double(longest) * kCharWidth + 8 && h >= double(lines.size()) * kLineHeight + 6) {
      const double first = top + h / 2 - double(lines.size() - 1) * kLineHeight / 2 + 4;
      for (size_t k = 0; k < lines.size(); ++k)
        svg.text(left + w / 2, first + double(k) * kLineHeight, lines[k], "linx-slot-label", Svg::Anchor::Middle);
    } else if (w >= double(brief.size()) * kCharWidth + 8 && h >= kLineHeight) {
      svg.text(left + w / 2, top + h / 2 + 4, brief, "linx-slot-label", Svg::Anchor::Middle);
    }
  }

  const report::KernelView& kernel_;
  const Parent& parent_;
  std::vector<CellBox> cells_;
  double rows_, cols_, width_ = kPlotWidth, height_ = kPlotHeight;
};

std::vector<std::string> slotRow(const report::KernelView& kernel, const Slot& s) {
  const SlotWord word = wordOf(kernel, s);
  std::string values;
  for (const ir::Value* v : s.readers) values += (values.empty() ? "" : ", ") + kernel.name(v);
  if (!isRead(s)) values = kernel.name(s.op->operand(1)) + " \u2192 " + kernel.name(s.op->result());
  auto code = [](const std::string& text) { return "<code>" + escape(text) + "</code>"; };
  return {code(word.index),
          styleOf(s).text,
          code(word.offset),
          word.imm,
          code(word.reg),
          std::to_string(cellsOf(slotType(s))),
          word.parentField < 0 ? sizeCodeText(word.sizeCode)
                               : sizeCodeText(word.sizeCode) + "; ParentSizeCode " + sizeCodeText(word.parentField),
          code(values)};
}

void legendFor(const Parent& parent, Page& page) {
  std::set<std::string> present;
  for (const Slot& s : parent.slots) present.insert(styleOf(s).data);
  std::vector<std::pair<std::string, std::string>> entries = {
      {"linx-cell-swatch", "CELL: " + std::to_string(kCellBytes) + " bytes of the parent's storage"}};
  for (const PhaseStyle* style : kStyles)
    if (present.count(style->data)) entries.push_back({style->cls, style->legend});
  if (std::any_of(parent.slots.begin(), parent.slots.end(), varies))
    entries.push_back({"linx-sweep", "dotted: a slot whose index varies at run time, over every place it may take"});
  page.legend(entries);
}

std::string describe(const report::KernelView& kernel, const Parent& parent, int64_t bytes) {
  const ir::Type& t = parent.tile->type();
  return kernel.name(parent.tile) + ": " + ir::shapeText(t.shape()) + " " + ir::dtypeName(t.dtype()) + " " +
         layoutText(t.layout()) + ", " + report::bytesText(bytes) + " in " + std::to_string(bytes / kCellBytes) +
         " CELLs, SizeCode " + sizeCodeText(sizeCodeOf(t));
}

std::string summary(const Parent& parent) {
  size_t reads = 0, views = 0;
  for (const Slot& s : parent.slots) {
    reads += isRead(s) ? 1 : 0;
    views += s.readers.size();
  }
  const size_t writes = parent.slots.size() - reads;
  std::string text;
  if (writes) text = std::to_string(writes) + " slot writes (B.ASSEMBLE)";
  if (reads)
    text += (text.empty() ? "" : "; ") + std::to_string(reads) + " slots read by " + std::to_string(views) +
            " views (B.SUBVIEW)";
  return text + ".";
}

// Why a parent cannot be drawn as CELLs, or "" when it can.
std::string undrawable(const Parent& parent) {
  const ir::Type& t = parent.tile->type();
  std::string why;
  if (!t.isTile() || t.rank() != 2) return "it is not a 2-D tile";
  for (const Slot& s : parent.slots)
    if (gridOf(s).size() != 2 || indexOf(s).size() != 2) return "a slot's grid is not 2-D";
  const std::optional<int64_t> bytes = storageBytes(t, why);
  if (!bytes) return why;
  if (*bytes < kCellBytes) return "its storage is less than one CELL";
  return "";
}

void writeParent(const report::KernelView& kernel, const Parent& parent, Page& page) {
  const std::string problem = undrawable(parent);
  std::string why;
  const int64_t bytes = problem.empty() ? *storageBytes(parent.tile->type(), why) : 0;
  const std::string title = problem.empty() ? describe(kernel, parent, bytes) : kernel.name(parent.tile);
  page.heading(title);
  if (!problem.empty()) {
    page.paragraph("<span class=\"empty\">Not drawn: " + escape(problem) + ".</span>");
  } else {
    bool rectangles = true;
    std::vector<CellBox> cells = cellBoxes(parent.tile->type(), bytes / kCellBytes, rectangles);
    legendFor(parent, page);
    const ParentFigure figure(kernel, parent, std::move(cells));
    page.figure(figure.draw(title), "linx-regions",
                summary(parent) + (rectangles ? "" : " Some CELLs do not fill a rectangle of elements; each is drawn as the box around its elements."));
  }
  std::vector<std::vector<std::string>> rows;
  for (const Slot& s : parent.slots) rows.push_back(slotRow(kernel, s));
  page.table({"slot", "phase", "offset (CELLs)", "imm", "RegSrc", "CELLs", "SizeCode", "values"}, rows, "linx-slots");
}

const char* const kStyle = R"css(
svg .linx-cell { fill: #d9dde2; stroke: #ffffff; stroke-width: 1; }
svg .linx-cell-label { font-size: 9px; fill: #3c4043; paint-order: stroke; stroke: #ffffff; stroke-width: 2px; }
svg .linx-track { fill: #d9dde2; }
svg .linx-divider { stroke: #ffffff; stroke-width: 1; }
svg .linx-slot { fill-opacity: 0.5; stroke: #1b1b1b; stroke-width: 1.5; }
svg .linx-read { fill: url(#hatch); fill-opacity: 0.22; stroke-dasharray: 6 3; }
svg .linx-sweep { fill: none; stroke-dasharray: 2 3; }
svg .linx-slot-label { font-size: 11px; paint-order: stroke; stroke: #ffffff; stroke-width: 3px; stroke-linejoin: round; }
.legend .linx-cell-swatch { background: #d9dde2; }
.legend .linx-sweep { background: #ffffff; border-style: dotted; }
.legend .linx-read { background: repeating-linear-gradient(45deg, #fff 0 3px, #b4b8bd 3px 5px); border-style: dashed; }
)css";

}  // namespace

bool writeRegionsSection(const report::KernelView& kernel, Page& page) {
  const std::vector<Parent> parents = RegionCollector(kernel).collect();
  if (parents.empty()) return false;
  page.addStyle("linx-regions", kStyle);
  page.section(kernel.anchor("linx-regions"), kernel.function().name() + ": Linx regions", "linx-regions");
  page.paragraph(
      "Each tile that regions cut into slots, drawn as its CELLs (" + std::to_string(kCellBytes) +
      "-byte units of its storage, placed where the "
      "layout puts their elements), with every slot over the CELLs it covers: coloured by its assembly phase when "
      "a tile array is built slot by slot (B.ASSEMBLE), hatched with a dashed outline when it is read through a "
      "partition view (B.SUBVIEW), a dotted outline over every place it may take when its index varies at run "
      "time. The strip under each drawing is the same CELLs in storage order. A slot's offset is in CELLs "
      "of the parent (the constant part in the word's immediate, the rest in RegSrc); its SizeCode is its range's: "
      "the view's for B.SUBVIEW, the writer's for B.ASSEMBLE (the word's field 5; with "
      "<code>--target-flag assemble-rev-a=true</code> the destination of the writer's binder, and the word's field 5, "
      "its ParentSizeCode, is shown beside it: the parent's on INIT, 0 after it).");
  for (const Parent& parent : parents) writeParent(kernel, parent, page);
  return true;
}

}  // namespace tilec::linx
