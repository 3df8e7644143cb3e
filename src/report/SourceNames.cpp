#include "report/SourceNames.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <tuple>

#include "ir/Describe.h"
#include "ir/OpDefs.h"

namespace tilec::report {
namespace {

enum Slot { kLine, kCore, kIteration, kForm, kShape, kPass, kSlots };

bool isIdentifier(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// A declaration's name: "x" of "x: in f32[N]" (a tensor view a pass made of a parameter).
std::string declaredName(std::string_view text) {
  const size_t colon = text.find(':');
  if (colon == std::string_view::npos) return {};
  std::string_view name = text.substr(0, colon);
  while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
  return isIdentifier(name) ? std::string(name) : std::string();
}

std::string ordinal(int64_t n) {
  const char* suffix = (n % 100 >= 11 && n % 100 <= 13) ? "th" : n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
  return std::to_string(n) + suffix;
}

std::string joined(const std::string& a, const std::string& b) { return a.empty() ? b : b.empty() ? a : a + ", " + b; }

}  // namespace

SourceNames::SourceNames(const ir::Function& f, const SourceManager& sources, const std::vector<PassRecord>& passes)
    : f_(f), sources_(sources) {
  for (const PassRecord& p : passes)
    for (const MadeIds& m : p.made) {
      if (m.function != f.name()) continue;
      sourceIds_ = std::min(sourceIds_, m.before);
      if (m.after > m.before) made_.push_back({m.before, p.name});
    }
  for (unsigned i = 0; i < f.numParams(); ++i) addValue(f.param(i), {});
  walkBlock(f.body(), {});
  qualify();
}

std::string SourceNames::madeBy(const ir::Value* v) const {
  if (v->id() < sourceIds_) return {};
  auto it = std::upper_bound(made_.begin(), made_.end(), v->id(),
                             [](uint32_t id, const std::pair<uint32_t, std::string>& m) { return id < m.first; });
  return it == made_.begin() ? std::string() : std::prev(it)->second;
}

// A loop carries its values without a name of their own (a copied loop's results stand at
// the loop): such a value is named as the value the loop starts it from.
const ir::Value* SourceNames::carriedFrom(const ir::Value* v, SourceRange origin) const {
  if (const ir::Op* def = v->definingOp())
    return def->kind() == ir::OpKind::For && origin == def->loc() && v->index() < def->numOperands()
               ? def->operand(v->index())
               : nullptr;
  const ir::Op* owner = v->ownerBlock() ? v->ownerBlock()->parentOp() : nullptr;
  return owner && owner->kind() == ir::OpKind::For && !origin.valid() && v->index() >= 1 &&
                 v->index() - 1 < owner->numOperands()
             ? owner->operand(v->index() - 1)
             : nullptr;
}

SourceRange SourceNames::where(const ir::Value* v) const {
  if (const ir::Value* carried = carriedFrom(v, v->origin())) return where(carried);
  if (v->origin().valid()) return v->origin();
  if (const ir::Op* def = v->definingOp()) return def->loc();
  const ir::Op* owner = v->ownerBlock() ? v->ownerBlock()->parentOp() : nullptr;
  return owner ? owner->loc() : f_.loc();
}

std::string SourceNames::lineText(SourceRange r) const {
  if (!r.valid()) return {};
  const std::string line = std::to_string(sources_.lineCol(r.file, r.begin).line);
  return r.file == 0 ? "line " + line : sources_.name(r.file) + ":" + line;
}

std::string SourceNames::baseOf(const ir::Value* v) const {
  const SourceRange origin = v->origin();
  const ir::Op* def = v->definingOp();
  const std::string pass = madeBy(v);
  auto made = [&](const std::string& what) {
    const std::string at = lineText(def ? def->loc() : where(v));
    return what + " made by " + (pass.empty() ? std::string("the compiler") : pass) +
           (at.empty() || (def && def->loc() == f_.loc()) ? "" : " for " + at);
  };
  if (origin.valid() && !(origin == f_.loc())) {
    std::string_view text = sources_.contents(origin.file).substr(origin.begin, origin.end - origin.begin);
    if (!text.empty() && text[0] == '%' && isIdentifier(text.substr(1))) text.remove_prefix(1);  // .tir input
    if (isIdentifier(text)) return std::string(text);
    if (std::string declared = declaredName(text); !declared.empty()) return declared;
    if (const ir::Value* carried = carriedFrom(v, origin)) return base(carried);
    return ir::sourceText(v, sources_);
  }
  if (const ir::Value* carried = carriedFrom(v, origin)) return base(carried);
  if (def) return made(std::string(ir::opInfo(def->kind()).spelling) + (v->type().isTile() ? " tile" : ""));
  return made("a value");
}

void SourceNames::addValue(const ir::Value* v, const Context& context) {
  const std::string base = baseOf(v);
  bases_[v] = base;
  std::vector<std::string> slots(kSlots);
  slots[kLine] = lineText(where(v));
  slots[kCore] = context.core;
  slots[kIteration] = context.iteration;
  if (v->type().isTile()) {
    slots[kForm] = std::string("in ") + v->type().spaceName();
    slots[kShape] = ir::shapeText(v->type().shape());
  }
  const std::string pass = madeBy(v);
  if (!pass.empty()) slots[kPass] = "made by " + pass;
  candidates_.push_back({base, std::move(slots), v, nullptr});
}

void SourceNames::addLoop(const ir::Op& loop, const Context& context, const std::string& role) {
  std::vector<std::string> slots(kSlots);
  slots[kLine] = lineText(loop.loc());
  slots[kCore] = context.core;
  slots[kIteration] = context.iteration;
  slots[kForm] = role;
  candidates_.push_back({"loop " + bases_.at(loop.body().arg(0)), std::move(slots), nullptr, &loop});
}

void SourceNames::walkBlock(const ir::Block& b, const Context& context) {
  // A multi-buffered loop's body holds `copies` copies of the source body in order (each
  // op's copies keep their order however the pass staged the body): the k-th of n ops from
  // one source op and of one kind belongs to copy k * copies / n.
  const ir::Op* parent = b.parentOp();
  const int64_t* copies = parent && parent->kind() == ir::OpKind::For ? parent->find(ir::attr::copies) : nullptr;
  std::map<std::tuple<FileId, uint32_t, uint32_t, int>, std::pair<int64_t, int64_t>> seen;  // (count, next)
  if (copies)
    for (const auto& op : b.ops()) ++seen[{op->loc().file, op->loc().begin, op->loc().end, int(op->kind())}].first;
  std::vector<SourceRange> doubled;  // the multi-buffered loops met so far in this block
  for (const auto& op : b.ops()) {
    Context inner = context;
    if (copies && op->kind() != ir::OpKind::Yield) {
      auto& [count, next] = seen[{op->loc().file, op->loc().begin, op->loc().end, int(op->kind())}];
      if (count % *copies == 0)
        inner.iteration = joined(context.iteration, bases_.at(parent->body().arg(0)) + "'s " +
                                                        ordinal(next * *copies / count + 1) + " of " +
                                                        std::to_string(*copies) + " buffered iterations");
      ++next;
    }
    if (op->kind() == ir::OpKind::CoreCube) inner.core = "cube core";
    if (op->kind() == ir::OpKind::CoreVector) inner.core = "vector core";
    Context body = inner;
    if (op->kind() == ir::OpKind::For) {
      // The loop variable first: the loop and its left-over iterations are named by it.
      addValue(op->body().arg(0), inner);
      const std::string var = bases_.at(op->body().arg(0));
      std::string role;
      if (const int64_t* n = op->find(ir::attr::copies)) {
        role = std::to_string(*n) + " iterations a step";
        doubled.push_back(op->loc());
      } else if (std::find(doubled.begin(), doubled.end(), op->loc()) != doubled.end()) {
        role = "the left-over iterations";
        body.iteration = joined(inner.iteration, var + "'s left-over iterations");
        candidates_.back().slots[kIteration] = body.iteration;
      }
      addLoop(*op, inner, role);
      for (unsigned i = 1; i < op->body().numArgs(); ++i) addValue(op->body().arg(i), body);
    } else {
      for (unsigned r = 0; r < op->numRegions(); ++r)
        for (const auto& arg : op->body(r).args()) addValue(arg.get(), inner);
    }
    for (unsigned r = 0; r < op->numRegions(); ++r) walkBlock(op->body(r), body);
    for (const ir::Value* result : op->results()) addValue(result, inner);
  }
}

// Per name, the qualifiers that tell its values apart: each slot in turn splits the groups
// still holding several values, and is shown for the values of a group it splits.
void SourceNames::qualify() {
  std::map<std::string, std::vector<size_t>> byBase;
  for (size_t i = 0; i < candidates_.size(); ++i) byBase[candidates_[i].base].push_back(i);
  std::vector<std::vector<char>> shown(candidates_.size(), std::vector<char>(kSlots, 0));
  std::vector<std::string> rank(candidates_.size());
  for (const auto& [base, members] : byBase) {
    std::vector<std::vector<size_t>> groups = {members};
    for (int s = 0; s < kSlots; ++s) {
      std::vector<std::vector<size_t>> next;
      for (const std::vector<size_t>& g : groups) {
        std::map<std::string, std::vector<size_t>> parts;
        for (size_t i : g) parts[candidates_[i].slots[s]].push_back(i);
        if (parts.size() < 2) {
          next.push_back(g);
          continue;
        }
        for (auto& [value, part] : parts) {
          for (size_t i : part) shown[i][s] = 1;
          next.push_back(std::move(part));
        }
      }
      groups = std::move(next);
    }
    for (const std::vector<size_t>& g : groups)
      for (size_t k = 0; g.size() > 1 && k < g.size(); ++k)
        rank[g[k]] = ordinal(int64_t(k) + 1) + " of " + std::to_string(g.size()) + " in program order";
  }
  for (size_t i = 0; i < candidates_.size(); ++i) {
    std::string qualifiers;
    for (int s = 0; s < kSlots; ++s)
      if (shown[i][s]) qualifiers = joined(qualifiers, candidates_[i].slots[s]);
    qualifiers = joined(qualifiers, rank[i]);
    const std::string text = candidates_[i].base + (qualifiers.empty() ? "" : " (" + qualifiers + ")");
    if (candidates_[i].loop) loops_[candidates_[i].loop] = text;
    else names_[candidates_[i].value] = text;
  }
}

std::string SourceNames::base(const ir::Value* v) const {
  const std::string* b = bases_.find(v);
  return b && v->function() == &f_ ? *b : baseOf(v);
}

std::string SourceNames::name(const ir::Value* v) const {
  const std::string* n = names_.find(v);
  return n && v->function() == &f_ ? *n : baseOf(v);
}

std::string SourceNames::loop(const ir::Op& op) const {
  auto it = loops_.find(&op);
  return it != loops_.end() ? it->second : "loop at " + lineText(op.loc());
}

}  // namespace tilec::report
