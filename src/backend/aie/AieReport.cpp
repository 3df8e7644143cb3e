// The AIE section of the report. The sequence runs on the host as the TXN writer runs it,
// loops and branches as the values decide: a runtime size has the value -D gave it (it is
// then a constant in the IR) or a representative that the sequence's seq.require
// conditions allow, named on the page. Each run of a transfer adds its walk to the
// transfer's two heatmaps and an entry to the queue timeline.
//
// Cost: the ops and iterations run (at most kMaxSteps); per transfer the pieces of its
// walks, a piece being a contiguous run cut at heatmap cells (at most its share of
// kWorkBudget); the cells drawn (at most kCellBudget per kind of map over the kernel,
// kMaxSide x kMaxSide per map) and the timeline entries (kMaxEvents).
#include "backend/aie/AieReport.h"

#include <algorithm>
#include <deque>
#include <map>
#include <optional>
#include <tuple>

#include "backend/aie/AieModel.h"
#include "backend/aie/SequenceRunner.h"
#include "backend/aie/ShimPattern.h"

namespace tilec::aie {
namespace {

using report::escape;
using report::num;
using report::Svg;

constexpr int64_t kMaxSide = 64;  // cells per heatmap side: a huge tensor stays a small figure
constexpr int64_t kMinSide = 8;   // however many transfers share the budget
constexpr int64_t kCellBudget = 12288;             // cells of one kind of map over the kernel (before
                                                   // the untouched are left out)
constexpr int64_t kWorkBudget = int64_t(1) << 24;  // walk pieces over the kernel
constexpr int64_t kMinWork = int64_t(1) << 16;     // per transfer, whatever its share
constexpr int64_t kMaxSteps = int64_t(1) << 20;    // ops and loop iterations run
constexpr size_t kMaxTransferFigures = 64;          // heatmap figures per kernel, so a page stays readable
constexpr size_t kMaxEvents = 400;                 // timeline entries drawn
constexpr int64_t kMaxElements = int64_t(1) << 48; // larger host tensors are not drawn
// A runtime size is drawn at the first value from kSizeFloor up that the conditions allow
// (a few tiles show a pattern better than one), else the first from 1 up.
constexpr int64_t kSizeFloor = 64, kSizeSearch = 4096;

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// The elements per cell along an axis: a power of two, so that cells line up with the
// power-of-two tiles patterns usually move (a cell half in a tile would show a fraction).
int64_t blockSize(int64_t elements, int64_t maxCells) {
  int64_t block = 1;
  while (block * maxCells < elements) block *= 2;
  return block;
}

std::string str(int64_t v) { return num(double(v)); }

// Scalar values by value id: a vector, so that nothing depends on addresses.
void collect(const ir::Block& b, AieForm form, std::vector<const ir::Op*>& out) {
  for (const auto& op : b.ops()) {
    if (aieOp(*op).form == form) out.push_back(op.get());
    for (unsigned r = 0; r < op->numRegions(); ++r) collect(op->body(r), form, out);
  }
}

std::vector<const ir::Op*> loopsAround(const ir::Op& op) {
  std::vector<const ir::Op*> loops;
  for (const ir::Op* p = op.parentOp(); p; p = p->parentOp())
    if (aieOp(*p).form == AieForm::Loop) loops.insert(loops.begin(), p);
  return loops;
}

// ---------------------------------------------------------------- runtime sizes

struct AssumedSize {
  const ir::Value* size;
  int64_t value;
  std::vector<const ir::Expr*> conditions;  // the seq.require conditions that chose it
  bool allowed;                             // all of them hold
};

// The conditions on `size` in which every other value is already known.
std::vector<const ir::Expr*> conditionsOn(const ir::Value* size, const std::vector<const ir::Op*>& requires,
                                          const SequenceValues& env) {
  std::vector<const ir::Expr*> out;
  for (const ir::Op* r : requires) {
    const ir::Expr& cond = r->get(ir::attr::cond);
    const std::vector<const ir::Value*> vars = cond.vars();
    const bool repeated = std::any_of(out.begin(), out.end(), [&](const ir::Expr* e) { return *e == cond; });
    if (cond.dependsOn(size) && !repeated &&
        std::all_of(vars.begin(), vars.end(), [&](const ir::Value* v) { return v == size || env.get(v); }))
      out.push_back(&cond);
  }
  return out;
}

// Tries at most kSizeSearch + kSizeFloor values per size, each against its conditions.
AssumedSize assume(const ir::Value* size, const std::vector<const ir::Op*>& requires, SequenceValues& env) {
  AssumedSize a{size, kSizeFloor, conditionsOn(size, requires, env), false};
  auto search = [&](int64_t from, int64_t to) {
    for (int64_t v = from; v < to && !a.allowed; ++v) {
      env.set(size, v);
      a.allowed = std::all_of(a.conditions.begin(), a.conditions.end(),
                              [&](const ir::Expr* c) { return env.eval(*c).value_or(0) != 0; });
      if (a.allowed) a.value = v;
    }
  };
  search(kSizeFloor, kSizeFloor + kSizeSearch);
  search(1, kSizeFloor);
  env.set(size, a.value);
  return a;
}

// Every scalar parameter still in the IR is a runtime size (-D makes a size a constant).
std::vector<AssumedSize> assumeSizes(const ir::Function& f, SequenceValues& env) {
  std::vector<const ir::Op*> requires;
  collect(f.body(), AieForm::Require, requires);
  std::vector<AssumedSize> out;
  for (unsigned i = 0; i < f.numParams(); ++i)
    if (f.paramDir(i) == ir::ParamDir::None) out.push_back(assume(f.param(i), requires, env));
  return out;
}

// ---------------------------------------------------------------- what the run records

// How large an element of a rows x columns map is drawn: square, as large as the map's
// box allows, but a map of a few rows still tall enough for its axis caption (a 1-D
// tensor is a band, not a line) and one of a few columns wide enough to see.
struct MapScale {
  static constexpr double kMapW = 340, kMapH = 260, kMinHeight = 120, kMinWidth = 40;
  static constexpr double kMinCell = 4;  // a cell narrower than this aggregates more elements
  double x, y;
  MapScale(int64_t rows, int64_t cols) {
    const double u = std::min(kMapW / double(cols), kMapH / double(rows));
    x = std::max(u, kMinWidth / double(cols));
    y = std::max(u, kMinHeight / double(rows));
  }
  // How many cells fit along an axis of `elements` drawn `unit` wide each.
  static int64_t cellsAlong(int64_t elements, double unit, int64_t side) {
    return std::max<int64_t>(1, std::min(side, int64_t(double(elements) * unit / kMinCell)));
  }
};

// A host tensor as rows x columns (leading axes flattened into rows), or why it is not drawn.
struct TensorShape {
  int64_t rows = 1, cols = 1;
  std::string problem;
};

TensorShape tensorShape(const ir::Op& op, const SequenceValues& env) {
  TensorShape s;
  const std::vector<ir::Expr>& dims = op.operand(0)->type().dims();
  for (size_t k = 0; k < dims.size(); ++k) {
    const std::optional<int64_t> d = env.eval(dims[k]);
    if (!d || *d <= 0 || s.rows > kMaxElements / std::max<int64_t>(1, *d * s.cols)) {
      s.problem = d ? "the tensor is too large to draw" : "the tensor's size is not known";
      return s;
    }
    (k + 1 == dims.size() ? s.cols : s.rows) *= *d;
  }
  return s;
}

// The cells of a shape's map: at most `side` along an axis, none thinner than kMinCell.
struct GridShape {
  int64_t blockRows, blockCols, cellRows, cellCols;
};

GridShape gridShape(const TensorShape& s, int64_t side) {
  const MapScale scale(s.rows, s.cols);
  const int64_t blockRows = blockSize(s.rows, MapScale::cellsAlong(s.rows, scale.y, side));
  const int64_t blockCols = blockSize(s.cols, MapScale::cellsAlong(s.cols, scale.x, side));
  return {blockRows, blockCols, ceilDiv(s.rows, blockRows), ceilDiv(s.cols, blockCols)};
}

// The largest side whose cells over every transfer's maps stay within kCellBudget: a few
// small tensors are drawn element by element, many large ones coarser. Tries at most
// kMaxSide sides, each over the transfers.
int64_t chooseSide(const std::vector<TensorShape>& shapes) {
  for (int64_t side = kMaxSide; side > kMinSide; --side) {
    int64_t cells = 0;
    for (const TensorShape& s : shapes) {
      const GridShape g = gridShape(s, side);
      if (s.problem.empty()) cells += g.cellRows * g.cellCols;
    }
    if (cells <= kCellBudget) return side;
  }
  return kMinSide;
}

// Visits of a tensor's elements, per cell of blockRows x blockCols elements.
class HeatGrid {
 public:
  HeatGrid(const TensorShape& s, const GridShape& g)
      : rows_(s.rows), cols_(s.cols), blockRows_(g.blockRows), blockCols_(g.blockCols), cellRows_(g.cellRows),
        cellCols_(g.cellCols), first_(size_t(cellRows_ * cellCols_), -1), visits_(size_t(cellRows_ * cellCols_), 0) {}

  int64_t rows() const { return rows_; }
  int64_t cols() const { return cols_; }
  int64_t blockRows() const { return blockRows_; }
  int64_t blockCols() const { return blockCols_; }
  int64_t cellRows() const { return cellRows_; }
  int64_t cellCols() const { return cellCols_; }
  int64_t elements() const { return rows_ * cols_; }

  // Of `count` contiguous elements from `element`, how many lie in its cell.
  int64_t pieceLength(int64_t element, int64_t count) const {
    const int64_t col = element % cols_;
    return std::min(count, std::min(cols_, (col / blockCols_ + 1) * blockCols_) - col);
  }
  // `count` visits at steps `step` on, of elements in the cell of `element`.
  void add(int64_t element, int64_t step, int64_t count) {
    const size_t c = size_t(element / cols_ / blockRows_ * cellCols_ + element % cols_ / blockCols_);
    if (first_[c] < 0) first_[c] = step;  // steps only grow
    visits_[c] += count;
  }

  int64_t first(int64_t r, int64_t c) const { return first_[size_t(r * cellCols_ + c)]; }
  int64_t visits(int64_t r, int64_t c) const { return visits_[size_t(r * cellCols_ + c)]; }
  int64_t cellElements(int64_t r, int64_t c) const {
    return (std::min(rows_, (r + 1) * blockRows_) - r * blockRows_) *
           (std::min(cols_, (c + 1) * blockCols_) - c * blockCols_);
  }

 private:
  int64_t rows_, cols_, blockRows_, blockCols_, cellRows_, cellCols_;
  std::vector<int64_t> first_, visits_;
};

using Lane = std::tuple<int64_t, bool, int64_t>;  // column, drain (S2MM), channel

// One transfer op over the whole run.
struct TransferRecord {
  const ir::Op* op = nullptr;
  std::optional<HeatGrid> grid;  // none when the tensor's size is unknown or too large
  std::string noGrid;            // why not
  int64_t runs = 0, steps = 0, planned = 0, outside = 0, work = 0, workCap = 0;
  bool truncated = false;                    // work reached workCap: steps < planned
  std::optional<tilec_txn::Transfer> first;  // the walk of its first run, as the encoder takes it
  std::optional<Lane> lane;
};

struct Event {
  std::optional<size_t> transfer;  // its record; none for a wait
  Lane lane;
  std::string where;  // the loop values it ran at
};

std::vector<TransferRecord> makeRecords(const std::vector<const ir::Op*>& transfers, const SequenceValues& env) {
  std::vector<TensorShape> shapes;
  for (const ir::Op* op : transfers) shapes.push_back(tensorShape(*op, env));
  const int64_t side = chooseSide(shapes);
  std::vector<TransferRecord> records(transfers.size());
  for (size_t i = 0; i < transfers.size(); ++i) {
    TransferRecord& t = records[i];
    t.op = transfers[i];
    t.workCap = std::max(kMinWork, kWorkBudget / int64_t(transfers.size()));
    if (shapes[i].problem.empty()) t.grid.emplace(shapes[i], gridShape(shapes[i], side));
    t.noGrid = shapes[i].problem;
  }
  return records;
}

// ---------------------------------------------------------------- the run

class SequenceRun final : public SequenceRunner {
 public:
  SequenceRun(const report::KernelView& kernel, SequenceValues known, std::vector<TransferRecord>& records)
      : SequenceRunner(kernel.function(), std::move(known), kMaxSteps), kernel_(kernel), records_(records) {
    for (size_t i = 0; i < records_.size(); ++i) index_[records_[i].op] = i;
  }

  using SequenceRunner::run;
  const std::vector<Event>& events() const { return events_; }
  size_t totalEvents() const { return totalEvents_; }
  const std::string& stoppedBecause() const { return why_; }  // empty when the run ended
  const std::vector<const ir::Op*>& failedRequires() const { return failedRequires_; }

 private:
  std::optional<int64_t> need(const ir::Expr& e, const ir::Op&) override {
    const std::optional<int64_t> v = eval(e);
    if (!v) stopBecause("a value of the sequence is not known on the host");
    return v;
  }

  void failed(const ir::Op&, Failure why) override {
    switch (why) {
      case Failure::LoopBounds: return stopBecause("a value of the sequence is not known on the host");
      case Failure::LoopStep: return stopBecause("a loop has a step that is not positive");
      case Failure::TooManySteps: return stopBecause("the sequence runs more than " + str(kMaxSteps) + " ops and iterations");
    }
  }

  void visit(const ir::Op& op, AieForm form) override {
    switch (form) {
      case AieForm::Transfer: return runTransfer(op);
      case AieForm::Wait:
        if (const std::optional<Lane> lane = laneOf(op)) record({std::nullopt, *lane, ""}, op);
        return;
      case AieForm::Require:
        if (need(op.get(ir::attr::cond), op) == std::optional<int64_t>(0) &&
            std::find(failedRequires_.begin(), failedRequires_.end(), &op) == failedRequires_.end())
          failedRequires_.push_back(&op);
        return;
      case AieForm::Raw:    // register writes: the compiler does not reason about them
      case AieForm::Const:  // control flow and values: the runner's
      case AieForm::Index:
      case AieForm::Loop:
      case AieForm::Branch:
      case AieForm::Yield:
        return;
    }
  }

  void stopBecause(std::string why) {
    if (why_.empty()) why_ = std::move(why);
    stop();
  }

  std::optional<Lane> laneOf(const ir::Op& op) {
    const auto& channel = op.get(ir::attr::channel);
    const std::optional<int64_t> column = need(channel.at(0), op), number = need(channel.at(1), op);
    if (!column || !number) return std::nullopt;
    return Lane{*column, drains(op), *number};
  }

  void runTransfer(const ir::Op& op) {
    TransferRecord& t = records_[index_.at(&op)];
    std::vector<int64_t> sizes, strides;
    const std::optional<int64_t> offset = need(op.get(ir::attr::offset), op);
    for (const ir::Expr& e : op.get(ir::attr::sizes)) sizes.push_back(need(e, op).value_or(0));
    for (const ir::Expr& e : op.get(ir::attr::strides)) strides.push_back(need(e, op).value_or(0));
    const std::optional<Lane> lane = laneOf(op);
    if (!offset || !lane || stopped()) return;
    ++t.runs;
    if (!t.first) {
      t.lane = lane;
      ir::AccessPattern p{op.get(ir::attr::offset), op.get(ir::attr::sizes),
                          op.get(ir::attr::strides)};
      const int64_t bits = int64_t(ir::dtypeBytes(op.operand(0)->type().dtype())) * 8;
      t.first = constantTransfer(p, bits, [&](const ir::Value* v) { return get(v); });
      if (const int64_t* pushes = op.find(ir::attr::pushes); pushes && t.first) t.first->pushes = *pushes;
    }
    walk(t, *offset, sizes, strides);
    record({index_.at(&op), *lane, ""}, op);
  }

  // One run's pattern: an odometer over the outer dimensions, the innermost as runs.
  static void walk(TransferRecord& t, int64_t offset, const std::vector<int64_t>& sizes,
                   const std::vector<int64_t>& strides) {
    int64_t total = 1;
    for (int64_t s : sizes) total = s <= 0 ? 0 : std::min(kMaxElements, total * s);
    t.planned += total;
    if (!t.grid || total == 0 || sizes.empty() || t.truncated) return;
    const size_t outer = sizes.size() - 1;
    std::vector<int64_t> index(outer, 0);
    for (;;) {
      int64_t start = offset;
      for (size_t k = 0; k < outer; ++k) start += index[k] * strides[k];
      if (!walkRun(t, start, sizes.back(), strides.back())) return;
      size_t k = outer;
      for (; k > 0; --k) {
        if (++index[k - 1] < sizes[k - 1]) break;
        index[k - 1] = 0;
      }
      if (k == 0) return;
    }
  }

  // `count` elements `stride` apart: a contiguous run in one piece per cell it crosses.
  static bool walkRun(TransferRecord& t, int64_t element, int64_t count, int64_t stride) {
    HeatGrid& g = *t.grid;
    while (count > 0) {
      if (++t.work > t.workCap) {
        t.truncated = true;
        return false;
      }
      const bool inside = element >= 0 && element < g.elements();
      const int64_t piece = stride == 1 && inside ? g.pieceLength(element, count) : 1;
      if (inside) g.add(element, t.steps, piece);
      else t.outside += piece;
      t.steps += piece;
      element += piece * stride;
      count -= piece;
    }
    return true;
  }

  void record(Event e, const ir::Op& op) {
    if (totalEvents_++ >= kMaxEvents) return;
    for (const ir::Op* loop : loopsAround(op)) {
      const ir::Value* iv = loop->body().arg(0);
      e.where += (e.where.empty() ? "" : ", ") + kernel_.name(iv) + " = " + str(get(iv).value_or(0));
    }
    events_.push_back(std::move(e));
  }

  const report::KernelView& kernel_;
  std::vector<TransferRecord>& records_;
  std::map<const ir::Op*, size_t> index_;  // looked up only, never iterated
  std::vector<Event> events_;
  size_t totalEvents_ = 0;
  std::string why_;
  std::vector<const ir::Op*> failedRequires_;
};

// ---------------------------------------------------------------- text

std::string laneText(const Lane& lane) {
  const auto& [column, drain, channel] = lane;
  return "column " + str(column) + ", " + (drain ? "S2MM " : "MM2S ") + str(channel);
}

std::string transferText(const report::KernelView& kernel, const ir::Op& op) {
  const ir::Value* tensor = op.operand(0);
  return std::string(op.name()) + " " + kernel.name(tensor) + " " + ir::dtypeName(tensor->type().dtype()) +
         kernel.exprs(tensor->type().dims());
}

// The transfer's descriptor, then those reserved for a split at dispatch ("0,1").
std::string bdText(const ir::Op& op) {
  const int64_t* bd = op.find(ir::attr::bd);
  if (!bd) return "none";
  std::string text = str(*bd);
  if (const auto* spare = op.find(ir::attr::spare_bds))
    for (int64_t b : *spare) text += "," + str(b);
  return text;
}

std::string rowCaption(const ir::Op& op) {
  const size_t rank = op.operand(0)->type().dims().size();
  if (rank == 1) return "one row (1-D tensor)";
  if (rank == 2) return "row (elements)";
  return "row (axes 0-" + str(int64_t(rank) - 2) + " flattened)";
}

// "row 3, col 4-7: step 12, 1 visit/element": short, since every cell carries one.
std::string cellTip(const HeatGrid& g, int64_t r, int64_t c) {
  auto span = [](const char* what, int64_t from, int64_t to) {
    return std::string(what) + " " + str(from) + (to - from == 1 ? "" : "-" + str(to - 1));
  };
  const int64_t elements = g.cellElements(r, c);
  return span("row", r * g.blockRows(), std::min(g.rows(), (r + 1) * g.blockRows())) + ", " +
         span("col", c * g.blockCols(), std::min(g.cols(), (c + 1) * g.blockCols())) + ": step " +
         str(g.first(r, c)) + ", " + num(double(g.visits(r, c)) / double(elements)) +
         (elements > 1 ? " visits/element" : g.visits(r, c) == 1 ? " visit" : " visits");
}

std::string integerLabel(double v) { return num(v); }

std::vector<double> integerTicks(double hi) {
  std::vector<double> ticks;
  for (double t : report::niceTicks(0, hi, 4))
    if (t == double(int64_t(t))) ticks.push_back(t);
  return ticks;
}

// ---------------------------------------------------------------- heatmaps

class Heatmaps {
 public:
  static constexpr double kWidth = 920, kTop = 62;
  static constexpr double kLefts[2] = {80, 540};
  static constexpr int kRampSteps = 32;

  Heatmaps(const report::KernelView& kernel, const TransferRecord& t, size_t number)
      : kernel_(kernel), t_(t), g_(*t.grid), number_(number) {
    const MapScale scale(g_.rows(), g_.cols());
    unitX_ = scale.x;
    unitY_ = scale.y;
    for (int64_t r = 0; r < g_.cellRows(); ++r)
      for (int64_t c = 0; c < g_.cellCols(); ++c)
        if (g_.visits(r, c) > 0) {
          const double perElement = double(g_.visits(r, c)) / double(g_.cellElements(r, c));
          countLo_ = std::min(countLo_, perElement);
          countHi_ = std::max(countHi_, perElement);
        }
  }

  Svg draw() const {
    const double mapH = double(g_.rows()) * unitY_;
    Svg svg(kWidth, kTop + mapH + 84, "transfer " + str(int64_t(number_)) + ": " + title());
    svg.text(16, 20, "transfer " + str(int64_t(number_)) + ": " + title(), "title");
    svg.group("transfer", "id=\"" + escape(kernel_.anchor("transfer-" + str(int64_t(number_)))) + "\" data-op=\"" +
                              (drains(*t_.op) ? "drain" : "fill") + "\" data-index=\"" + str(int64_t(number_)) +
                              "\" data-bd=\"" + bdText(*t_.op) + "\" data-visits=\"" + str(t_.steps) + "\"");
    drawMap(svg, kLefts[0], true);
    drawMap(svg, kLefts[1], false);
    svg.endGroup();
    return svg;
  }

  std::string caption() const {
    const std::vector<const ir::Op*> around = loopsAround(*t_.op);
    std::string loops;
    for (const ir::Op* loop : around) loops += (loops.empty() ? "" : " and ") + kernel_.name(loop->body().arg(0));
    std::string text = str(t_.runs) + (t_.runs == 1 ? " run" : " runs") +
                       (loops.empty() ? "" : std::string(" (every iteration of the ") +
                                                 (around.size() > 1 ? "loops" : "loop") + " over " + loops + ")") +
                       ", " +
                       str(t_.planned) + " element visits in all";
    if (t_.truncated) text += "; the first " + str(t_.steps) + " are drawn (a cap on the work per figure)";
    if (t_.outside > 0) text += "; " + str(t_.outside) + " fall outside the tensor and are not drawn";
    if (g_.blockRows() * g_.blockCols() > 1)
      text += ". Each cell is " + str(g_.blockRows()) + " x " + str(g_.blockCols()) +
              " elements: its first visit, and its visits per element on average";
    return text + ".";
  }

 private:
  std::string title() const {
    return transferText(kernel_, *t_.op) + ", " + (t_.lane ? laneText(*t_.lane) : "not run") + ", bd " + bdText(*t_.op);
  }

  double orderColour(int64_t r, int64_t c) const { return double(g_.first(r, c)) / double(std::max<int64_t>(1, t_.steps - 1)); }
  double countColour(double perElement) const {
    return countHi_ > countLo_ ? (perElement - countLo_) / (countHi_ - countLo_) : 0.5;
  }

  void drawMap(Svg& svg, double x0, bool order) const {
    const double mapW = double(g_.cols()) * unitX_, mapH = double(g_.rows()) * unitY_;
    svg.text(x0, kTop - 10, order ? "access order (first visit)" : "access count (visits per element)", "label");
    svg.rect(x0, kTop, mapW, mapH, "hm-ground", "not visited");
    svg.group(order ? "heatmap order" : "heatmap count");
    for (int64_t r = 0; r < g_.cellRows(); ++r)
      for (int64_t c = 0; c < g_.cellCols(); ++c)
        if (g_.visits(r, c) > 0) drawCell(svg, x0, r, c, order);
    svg.endGroup();
    drawSlabs(svg, x0, mapW);
    svg.xAxis(x0, x0 + mapW, kTop + mapH, 0, double(g_.cols()), integerTicks(double(g_.cols())),
              "column (elements)", &integerLabel);
    svg.yAxis(x0, kTop, kTop + mapH, 0, double(g_.rows()), integerTicks(double(g_.rows())), rowCaption(*t_.op),
              &integerLabel);
    const double legendY = kTop + mapH + 48;
    if (order) rampLegend(svg, x0, legendY, "step", "0", str(std::max<int64_t>(0, t_.steps - 1)));
    else if (countHi_ > countLo_) rampLegend(svg, x0, legendY, "visits/element", num(countLo_), num(countHi_));
    else uniformLegend(svg, x0, legendY);
  }

  void drawCell(Svg& svg, double x0, int64_t r, int64_t c, bool order) const {
    const double x = x0 + double(c * g_.blockCols()) * unitX_, y = kTop + double(r * g_.blockRows()) * unitY_;
    const double w = double(std::min(g_.cols(), (c + 1) * g_.blockCols()) - c * g_.blockCols()) * unitX_;
    const double h = double(std::min(g_.rows(), (r + 1) * g_.blockRows()) - r * g_.blockRows()) * unitY_;
    const double perElement = double(g_.visits(r, c)) / double(g_.cellElements(r, c));
    const double colour = order ? orderColour(r, c) : countColour(perElement);
    // Where the cell starts is the same in both maps: the order map says it (pages stay smaller).
    const std::string attrs = "fill=\"" + report::rampColour(colour) + "\" " +
                              (order ? "data-row=\"" + str(r * g_.blockRows()) + "\" data-col=\"" +
                                           str(c * g_.blockCols()) + "\" data-order=\"" + str(g_.first(r, c)) + "\""
                                     : "data-count=\"" + num(perElement) + "\"");
    svg.rect(x, y, w, h, "hm", cellTip(g_, r, c), attrs);
  }

  // The leading axes of an N-D tensor: a white line where one slab of rows ends.
  void drawSlabs(Svg& svg, double x0, double mapW) const {
    const std::vector<ir::Expr>& dims = t_.op->operand(0)->type().dims();
    if (dims.size() < 3) return;
    const int64_t slab = dims[dims.size() - 2].asConst().value_or(0);
    if (slab <= 0 || g_.rows() / slab > 32) return;
    for (int64_t row = slab; row < g_.rows(); row += slab)
      svg.line(x0, kTop + double(row) * unitY_, x0 + mapW, kTop + double(row) * unitY_, "slab");
  }

  void rampLegend(Svg& svg, double x, double y, const std::string& title, const std::string& lo,
                  const std::string& hi) const {
    svg.text(x, y + 9, title, "axis-caption");
    const double bar = x + 92, step = 5;
    for (int i = 0; i < kRampSteps; ++i)
      svg.rect(bar + i * step, y, step, 10, "hm", "", "fill=\"" + report::rampColour(i / double(kRampSteps - 1)) + "\"");
    svg.text(bar, y + 22, lo, "axis");
    svg.text(bar + kRampSteps * step, y + 22, hi, "axis", Svg::Anchor::End);
    notVisitedKey(svg, bar + kRampSteps * step + 18, y);
  }

  // Every visited cell has the same count: one swatch says it.
  void uniformLegend(Svg& svg, double x, double y) const {
    svg.text(x, y + 9, "visits/element", "axis-caption");
    svg.rect(x + 92, y, 10, 10, "hm", "", "fill=\"" + report::rampColour(countColour(countHi_)) + "\"");
    svg.text(x + 106, y + 9, countHi_ > 0 ? num(countHi_) + " in every visited cell" : "none visited", "axis");
    notVisitedKey(svg, x + 92 + 178, y);
  }

  static void notVisitedKey(Svg& svg, double x, double y) {
    svg.rect(x, y, 10, 10, "hm-ground");
    svg.text(x + 14, y + 9, "not visited", "axis");
  }

  const report::KernelView& kernel_;
  const TransferRecord& t_;
  const HeatGrid& g_;
  size_t number_;
  double unitX_ = 1, unitY_ = 1;
  double countLo_ = 1e300, countHi_ = 0;
};

// ---------------------------------------------------------------- queue timeline

// Each transfer holds a slot of its channel's queue (4 deep) from its push to the wait
// that retires it: a channel completes in order, so a wait retires its oldest transfer.
class QueueTimeline {
 public:
  static constexpr double kWidth = 920, kLeft = 176, kRight = 20, kTop = 34, kSlot = 16;

  QueueTimeline(const report::KernelView& kernel, const std::vector<TransferRecord>& records,
                const std::vector<Event>& events)
      : kernel_(kernel), records_(records), events_(events) {
    std::map<Lane, std::deque<size_t>> open;
    for (size_t i = 0; i < events_.size(); ++i) {
      LaneState& lane = lanes_[events_[i].lane];
      std::deque<size_t>& queue = open[events_[i].lane];
      if (events_[i].transfer) {
        size_t slot = 0;
        while (slot < lane.busy.size() && lane.busy[slot]) ++slot;
        if (slot == lane.busy.size()) lane.busy.push_back(false);
        lane.busy[slot] = true;
        boxes_.push_back({i, events_.size(), slot});
        queue.push_back(boxes_.size() - 1);
      } else if (!queue.empty()) {
        Box& retired = boxes_[queue.front()];
        queue.pop_front();
        retired.end = i;
        lane.busy[retired.slot] = false;
        retiredBy_[i] = retired.event;
      }
    }
  }

  Svg draw() const {
    double y = kTop;
    std::map<Lane, double> laneTop;
    for (const auto& [lane, state] : lanes_) {
      laneTop[lane] = y;
      y += laneHeight(state);
    }
    Svg svg(kWidth, y + 56, "the channel queues of " + kernel_.function().name() + " over the sequence");
    svg.text(16, 20, "channel queues over the sequence: each transfer from its push to the wait that retires it",
             "title");
    svg.group("queue-timeline", "data-events=\"" + str(int64_t(events_.size())) + "\"");
    for (const auto& [lane, state] : lanes_) drawLane(svg, lane, laneTop.at(lane), laneHeight(state));
    svg.endGroup();
    std::vector<double> ticks;
    for (double t : report::niceTicks(0, double(events_.size()), 10))
      if (t == double(int64_t(t))) ticks.push_back(t);
    svg.xAxis(kLeft, kWidth - kRight, y + 4, 0, double(events_.size()), ticks,
              "position in the sequence (transfers and waits in the order they run, loops run out)", &integerLabel);
    return svg;
  }

 private:
  struct Box {
    size_t event, end, slot;  // end: the retiring wait's position, or events_.size() if none
  };
  struct LaneState {
    std::vector<bool> busy;  // queue slots; as many as the lane ever held at once
  };

  static double laneHeight(const LaneState& s) { return 10 + kSlot * double(std::max<size_t>(1, s.busy.size())); }
  double x(double position) const {
    return kLeft + position / double(std::max<size_t>(1, events_.size())) * (kWidth - kLeft - kRight);
  }

  void drawLane(Svg& svg, const Lane& lane, double top, double height) const {
    const auto& [column, drain, channel] = lane;
    svg.rect(kLeft, top + 2, kWidth - kLeft - kRight, height - 4, "lane-band");
    svg.text(kLeft - 8, top + height / 2 + 4, laneText(lane) + (drain ? " (drain)" : " (fill)"), "label",
             Svg::Anchor::End);
    svg.group("lane", "data-column=\"" + str(column) + "\" data-channel=\"" + str(channel) + "\" data-dir=\"" +
                          (drain ? "s2mm" : "mm2s") + "\"");
    for (const Box& b : boxes_)
      if (events_[b.event].lane == lane) drawBox(svg, b, top);
    for (size_t i = 0; i < events_.size(); ++i)
      if (!events_[i].transfer && events_[i].lane == lane) drawWait(svg, i, top, height);
    svg.endGroup();
  }

  void drawBox(Svg& svg, const Box& b, double top) const {
    const Event& e = events_[b.event];
    const TransferRecord& t = records_[*e.transfer];
    const bool retired = b.end < events_.size();
    const double x0 = x(double(b.event)) + 1, x1 = retired ? x(double(b.end) + 0.5) : x(double(events_.size()));
    const double y = top + 6 + kSlot * double(b.slot);
    const std::string tip = "transfer " + str(int64_t(*e.transfer + 1)) + ": " + transferText(kernel_, *t.op) + ", bd " +
                            bdText(*t.op) + (e.where.empty() ? "" : " at " + e.where) + "; pushed at " +
                            str(int64_t(b.event)) +
                            (retired ? ", retired by the wait at " + str(int64_t(b.end))
                                     : ", not waited for here (it completes on its own)");
    svg.rect(x0, y, std::max(2.0, x1 - x0), kSlot - 3, std::string("queued ") + (drains(*t.op) ? "k1" : "k0") +
                                                            (retired ? "" : " open"),
             tip, "data-transfer=\"" + str(int64_t(*e.transfer + 1)) + "\" data-bd=\"" + bdText(*t.op) + "\"");
    if (x1 - x0 >= 30) svg.text(x0 + 3, y + kSlot - 6, "bd " + bdText(*t.op), "box-label");
  }

  void drawWait(Svg& svg, size_t i, double top, double height) const {
    const auto retired = retiredBy_.find(i);
    const std::string tip = "dma.wait on " + laneText(events_[i].lane) +
                            (events_[i].where.empty() ? "" : " at " + events_[i].where) + ", position " +
                            str(int64_t(i)) +
                            (retired == retiredBy_.end() ? "" : ": retires the transfer pushed at " + str(int64_t(retired->second)));
    svg.rect(x(double(i) + 0.5) - 1.5, top + 3, 3, height - 6, "wait-mark", tip, "data-wait=\"" + str(int64_t(i)) + "\"");
  }

  const report::KernelView& kernel_;
  const std::vector<TransferRecord>& records_;
  const std::vector<Event>& events_;
  std::map<Lane, LaneState> lanes_;
  std::vector<Box> boxes_;
  std::map<size_t, size_t> retiredBy_;  // wait position -> the push it retires
};

// ---------------------------------------------------------------- descriptor table

// The fields the encoder writes for the first run (TxnRuntime.h's shimBdFields), one per line.
std::string fieldsCell(const TransferRecord& t) {
  if (!t.first) return "not run";
  std::string error;
  const tilec_txn::ShimBdFields f = tilec_txn::shimBdFields(*t.first, error);
  if (!error.empty()) return escape(error);
  std::string cell = f.linear ? "linear: " + str(f.bufferLength) + " words"
                              : "d0: wrap " + str(f.d0Wrap) + ", step " + str(f.d0Step) + "<br>d1: wrap " +
                                    str(f.d1Wrap) + ", step " + str(f.d1Step) + "<br>d2: step " + str(f.d2Step) +
                                    "<br>" + str(f.bufferLength) + " words";
  if (f.iterWrap > 0) cell += "<br>iteration: wrap " + str(f.iterWrap) + ", step " + str(f.iterStep);
  if (f.repeat > 0) cell += "<br>repeat: " + str(f.repeat);
  if (tilec_txn::shimPushes(f) > 1) cell += " in " + str(tilec_txn::shimPushes(f)) + " queue pushes";
  return cell + "<br>byte offset " + str(f.byteOffset);
}

std::vector<std::string> descriptorRow(const report::KernelView& kernel, const TransferRecord& t, size_t number) {
  const ir::Op& op = *t.op;
  const bool* token = op.find(ir::attr::token);
  const std::string pattern = "offset " + escape(kernel.expr(op.get(ir::attr::offset))) + "<br>sizes " +
                              escape(kernel.exprs(op.get(ir::attr::sizes))) + "<br>strides " +
                              escape(kernel.exprs(op.get(ir::attr::strides)));
  return {"<a href=\"#" + escape(kernel.anchor("transfer-" + str(int64_t(number)))) + "\">" + str(int64_t(number)) + "</a>",
          "<code>" + escape(transferText(kernel, op)) + "</code>",
          t.lane ? laneText(*t.lane) : "not run",
          bdText(op),
          token && *token ? "yes" : "no",
          str(t.runs),
          "<code>" + pattern + "</code>",
          fieldsCell(t)};
}

// ---------------------------------------------------------------- the section

const char* const kStyle = R"css(
svg .hm { stroke: none; shape-rendering: crispEdges; }
svg .hm-ground { fill: #e4e6e9; stroke: #8a8f95; stroke-width: 1; shape-rendering: crispEdges; }
svg .slab { stroke: #ffffff; stroke-width: 2; }
svg .lane-band { fill: #f3f4f6; }
svg .queued { fill-opacity: 0.75; stroke: #1b1b1b; stroke-width: 0.75; }
svg .queued.open { fill-opacity: 0.3; stroke-dasharray: 3 2; }
svg .wait-mark { fill: #1b1b1b; }
svg .box-label { font-size: 9px; }
.legend .wait-swatch { background: #1b1b1b; }
.legend .open-swatch { background: #b3d4ea; border-style: dashed; }
table.descriptors td:nth-child(2), table.descriptors td:nth-child(3) { white-space: nowrap; }
)css";

void writeSizes(const std::vector<AssumedSize>& assumed, const SequenceRun& run, report::Page& page) {
  for (const AssumedSize& a : assumed) {
    std::string conditions;
    for (const ir::Expr* c : a.conditions)
      conditions += (conditions.empty() ? "" : "; ") + c->str([](const ir::Value* v) { return v->name(); });
    const std::string name = "<code>" + escape(a.size->name()) + "</code>";
    std::string why = a.conditions.empty() ? "no seq.require condition constrains it, so the figures use " + str(kSizeFloor)
                      : a.allowed ? "the figures use the first value from " + str(kSizeFloor) + " up (else from 1 up) that " +
                                        "<code>" + escape(conditions) + "</code> allows"
                                  : "no value up to " + str(kSizeFloor + kSizeSearch) + " meets <code>" + escape(conditions) +
                                        "</code>; the figures use " + str(kSizeFloor) + " regardless";
    page.paragraph(name + " is a runtime size: " + why + ", <strong>" + name + " = " + str(a.value) +
                   "</strong>. Compile with <code>-D " + escape(a.size->name()) + "=...</code> to draw another size.");
  }
  if (!run.stoppedBecause().empty())
    page.paragraph("The run stopped early: " + escape(run.stoppedBecause()) + "; the figures show what ran before.");
  for (const ir::Op* r : run.failedRequires())
    page.paragraph("With these sizes a condition fails: <code>" + escape(r->get(ir::attr::message)) + "</code>.");
}

void writeTimeline(const report::KernelView& kernel, const std::vector<TransferRecord>& records,
                   const SequenceRun& run, report::Page& page) {
  page.heading("Channel queues");
  page.legend({{"k0", "dma.fill: host to NPU (MM2S)"},
               {"k1", "dma.drain: NPU to host (S2MM)"},
               {"wait-swatch", "dma.wait"},
               {"open-swatch", "not waited for in the sequence"}});
  std::string caption = "One lane per shim column, direction and channel; a channel queues at most " +
                        str(int64_t(kShimQueueDepth)) +
                        " transfers, each in a row of its lane from its push to the wait that retires it.";
  if (run.totalEvents() > run.events().size())
    caption += " The first " + str(int64_t(run.events().size())) + " of " + str(int64_t(run.totalEvents())) +
               " transfers and waits are drawn.";
  page.figure(QueueTimeline(kernel, records, run.events()).draw(), "queue-figure", caption);
}

void writeDescriptors(const report::KernelView& kernel, const std::vector<TransferRecord>& records,
                      report::Page& page) {
  page.heading("Buffer descriptors");
  page.paragraph("Each transfer is one shim buffer descriptor (<code>bd</code>, from assign-bds). The pattern is the "
                 "IR's, in elements, outermost first (the outermost is the descriptor's iteration); the fields are "
                 "the ones the encoder writes for its first run, in " + str(kDmaWordBits) +
                 "-bit words, dimension 0 fastest, steps and the "
                 "iteration wrap minus one, as the hardware holds them. A linear descriptor walks one run of "
                 "<em>words</em>.");
  std::vector<std::vector<std::string>> rows;
  for (size_t i = 0; i < records.size(); ++i) rows.push_back(descriptorRow(kernel, records[i], i + 1));
  page.table({"#", "transfer", "channel", "bd", "token", "runs", "pattern (elements, outermost first)",
              "descriptor fields (words, first run)"},
             rows, "descriptors");
}

void writeHeatmaps(const report::KernelView& kernel, const std::vector<TransferRecord>& records, report::Page& page) {
  page.heading("Access order and count");
  page.paragraph("Every transfer over its host tensor, as mlir-aie's taplib draws an access pattern, over all the "
                 "runs the loops around it make: rows by columns (the leading axes of an N-D tensor flattened into "
                 "rows, a white line between slabs), the order as the step of an element's first visit (taplib "
                 "records the last; they differ only where the count is above 1) and the count as visits per "
                 "element. A large tensor is drawn in cells of several elements, at most 64 x 64 per map.");
  if (records.size() > kMaxTransferFigures)
    page.paragraph("The first " + str(int64_t(kMaxTransferFigures)) + " of " + str(int64_t(records.size())) +
                   " transfers are drawn; the descriptor table lists them all.");
  for (size_t i = 0; i < records.size() && i < kMaxTransferFigures; ++i) {
    const TransferRecord& t = records[i];
    if (t.grid) {
      const Heatmaps maps(kernel, t, i + 1);
      page.figure(maps.draw(), "transfer-figure", maps.caption());
      continue;
    }
    Svg svg(Heatmaps::kWidth, 60, "transfer " + str(int64_t(i + 1)) + ": " + transferText(kernel, *t.op));
    svg.group("transfer", std::string("data-op=\"") + (drains(*t.op) ? "drain" : "fill") + "\"");
    svg.text(16, 30, "transfer " + str(int64_t(i + 1)) + ": " + transferText(kernel, *t.op) + ": " + t.noGrid, "label");
    svg.endGroup();
    page.figure(svg, "transfer-figure", "");
  }
}

}  // namespace

bool writeTransferSection(const report::KernelView& kernel, report::Page& page) {
  const ir::Function& f = kernel.function();
  std::vector<const ir::Op*> transfers;
  collect(f.body(), AieForm::Transfer, transfers);
  if (transfers.empty()) return false;
  SequenceValues env(f);
  const std::vector<AssumedSize> assumed = assumeSizes(f, env);
  std::vector<TransferRecord> records = makeRecords(transfers, env);
  SequenceRun run(kernel, env, records);
  run.run();

  page.addStyle("aie-transfers", kStyle);
  page.section(kernel.anchor("transfers"), f.name() + ": AIE transfers", "aie-transfers");
  page.paragraph("The sequence run on the host with every loop and branch taken as its values decide: each "
                 "<code>dma.fill</code> moves a walk over a host tensor to the NPU through a shim MM2S channel, each "
                 "<code>dma.drain</code> one back through S2MM.");
  writeSizes(assumed, run, page);
  writeTimeline(kernel, records, run, page);
  writeDescriptors(kernel, records, page);
  writeHeatmaps(kernel, records, page);
  return true;
}

}  // namespace tilec::aie
