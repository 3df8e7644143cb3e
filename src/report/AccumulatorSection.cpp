// Packed accumulators: a matmul-result buffer whose tile is addressed through several
// windows (pack-accumulators' pages, or row windows), drawn as the packed tile with every
// page's window and, outlined, the windows that drain to a tensor with the store's target.
// Read off the IR: the buffer's tiles (BufferLifetimes.h), its tile.slice windows and their
// tile.store users.
#include <algorithm>
#include <map>

#include "ir/Describe.h"
#include "passes/PassUtils.h"
#include "report/Panels.h"
#include "report/Report.h"

namespace tilec::report {
namespace {

struct Window {
  std::vector<ir::Expr> offsets;
  std::vector<int64_t> shape;
  std::vector<const ir::Value*> pages;  // the slices at this window
  std::vector<const ir::Op*> drains;    // stores of those slices
};

// The distinct windows of a buffer's slices of its own tiles, in program order.
std::vector<Window> windowsOf(const KernelView& kernel, const passes::LiveBuffer& buffer) {
  std::vector<Window> windows;
  std::map<std::string, size_t> byKey;
  for (const ir::Value* v : buffer.tiles) {
    const ir::Op* def = v->definingOp();
    if (!def || def->kind() != ir::OpKind::Slice) continue;
    const auto& offsets = def->get(ir::attr::offsets);
    const std::string key = kernel.exprs(offsets) + ir::shapeText(v->type().shape());
    auto [it, fresh] = byKey.try_emplace(key, windows.size());
    if (fresh) windows.push_back({offsets, v->type().shape(), {}, {}});
    Window& w = windows[it->second];
    w.pages.push_back(v);
    for (const ir::Use& u : v->uses())
      if (u.user->kind() == ir::OpKind::Store && u.index == 0) w.drains.push_back(u.user);
  }
  return windows;
}

double at(const ir::Expr& e) { return e.isConst() ? double(std::max<int64_t>(0, e.constValue())) : 0; }

void drawBuffer(const KernelView& kernel, const passes::LiveBuffer& buffer, const std::vector<Window>& windows,
                Page& page) {
  const ir::Value* packed = *std::max_element(buffer.tiles.begin(), buffer.tiles.end(), [](auto* a, auto* b) {
    return a->type().byteSize() < b->type().byteSize();
  });
  const std::vector<int64_t>& shape = packed->type().shape();
  std::vector<double> extent(shape.begin(), shape.end());
  std::vector<std::string> axes;
  for (int64_t d : shape) axes.push_back(std::to_string(d));
  std::vector<PanelBox> pages, drains;
  std::vector<std::vector<std::string>> rows;
  for (size_t i = 0; i < windows.size(); ++i) {
    const Window& w = windows[i];
    PanelBox box{{}, {}, {}, "window " + categoryClass(i), "", "page " + std::to_string(i)};
    for (size_t k = 0; k < w.shape.size() && k < w.offsets.size(); ++k) {
      box.offset.push_back(at(w.offsets[k]));
      box.size.push_back(double(w.shape[k]));
    }
    box.tip = "page " + std::to_string(i) + " at " + kernel.exprs(w.offsets) + ", " + ir::shapeText(w.shape) +
              ": " + kernel.namesText(w.pages);
    std::string drainText, drainHtml;
    for (const ir::Op* store : w.drains) {
      const std::string text = kernel.names().base(store->operand(1)) + " at " + kernel.exprs(store->get(ir::attr::offsets));
      drainText += (drainText.empty() ? "" : "; ") + text;
      drainHtml += (drainHtml.empty() ? "" : "; ") + ("<code>" + escape(text) + "</code> (" + kernel.lineLink(store->loc()) + ")");
      PanelBox outline = box;
      outline.cls = "outline";
      outline.label.clear();
      outline.tip = "drained by a store into " + drainText;
      drains.push_back(outline);
    }
    pages.push_back(box);
    rows.push_back({std::to_string(i), "<code>" + escape(kernel.exprs(w.offsets)) + "</code>",
                    ir::shapeText(w.shape), kernel.namesHtml(w.pages), drainHtml});
  }
  Panels panels(extent, axes);
  panels.add("pages", "data-buffer=\"" + std::to_string(buffer.id) + "\" data-pages=\"" +
                          std::to_string(windows.size()) + "\"",
             pages);
  if (!drains.empty()) panels.add("drains", "data-drains=\"" + std::to_string(drains.size()) + "\"", drains);
  const std::string title = "buffer " + std::to_string(buffer.id) + ": " + kernel.names().base(packed) + " " +
                            ir::shapeText(shape) + ", " + std::to_string(windows.size()) + " windows";
  page.heading(title);
  page.figure(panels.draw(title), "accumulator", "", "The packed tile comes from " + kernel.namesHtml({packed}) + ".");
  page.table({"page", "offsets", "shape", "tiles", "drained to"}, rows, "pages");
}

}  // namespace

bool writeAccumulatorSection(const KernelView& kernel, Page& page) {
  const ir::TargetModel& model = kernel.function().module().target();
  bool opened = false;
  for (const passes::SpaceUse& space : kernel.memory().spaces) {
    if (!(model.spaces[space.space].roles & ir::kMatmulResult)) continue;
    for (const passes::LiveBuffer& buffer : space.buffers) {
      const std::vector<Window> windows = windowsOf(kernel, buffer);
      if (windows.size() < 2) continue;
      if (!opened)
        page.section(kernel.anchor("accumulators"), kernel.function().name() + ": packed accumulators", "accumulators");
      if (!opened) {
        page.paragraph("Accumulator buffers addressed through several windows: the packed tile with each page's "
                       "window; outlined windows are stored to a tensor (drained). Tiles are named as in the source, "
                       "with the lines they come from.");
        page.legend({{"k0", "a page's window (each page its own colour)"},
                     {"outline-swatch", "drained to a tensor by a store"}});
      }
      opened = true;
      drawBuffer(kernel, buffer, windows, page);
    }
  }
  return opened;
}

}  // namespace tilec::report
