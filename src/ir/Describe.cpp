#include "ir/Describe.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>

#include "ir/IRText.h"
#include "ir/OpDefs.h"

namespace tilec::ir {

namespace {

// A piece of source as a message shows it: its first line; a longer call shortened to
// its callee, `load(...)`; anything else longer cut to its start and "...".
constexpr size_t kLongestSource = 40;

std::string shortSource(std::string_view text) {
  const size_t newline = text.find('\n');
  bool cut = newline != std::string_view::npos;
  text = text.substr(0, newline);
  while (!text.empty() && (std::isspace(static_cast<unsigned char>(text.back())) || text.back() == '{')) {
    text.remove_suffix(1);
    cut = true;
  }
  if (!cut && text.size() <= kLongestSource) return std::string(text);
  size_t callee = 0;
  while (callee < text.size() && (std::isalnum(static_cast<unsigned char>(text[callee])) || text[callee] == '_'))
    ++callee;
  if (callee > 0 && callee < kLongestSource && callee < text.size() && (text[callee] == '(' || text[callee] == '<'))
    return std::string(text.substr(0, callee)) + "(...)";
  size_t end = std::min(text.size(), kLongestSource - 3);
  while (end > 0 && end < text.size() && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;  // whole UTF-8 characters
  return std::string(text.substr(0, end)) + "...";
}

std::string textOf(SourceRange r, const SourceManager& sm) {
  std::string_view all = sm.contents(r.file);
  if (r.begin >= r.end || r.end > all.size()) return {};
  return std::string(all.substr(r.begin, r.end - r.begin));
}

std::string exprName(const Value* v) {
  if (!v->name().empty()) return v->name();
  if (const Op* def = v->definingOp()) {
    if (const Expr* e = def->find(attr::expr)) return "(" + exprText(*e) + ")";
    if (const AttrValue* c = def->find(attr::value); c && std::holds_alternative<int64_t>(*c))
      return std::to_string(std::get<int64_t>(*c));
  }
  return "?";
}

}  // namespace

std::string sourceText(const Value* v, const SourceManager& sm) {
  const SourceRange origin = v->origin();
  std::string text = origin.valid() ? textOf(origin, sm) : std::string();
  return text.empty() ? shortSource(v->name()) : shortSource(text);
}

std::string describe(const Value* v, const SourceManager& sm) {
  const std::string text = sourceText(v, sm);
  if (!text.empty()) return "'" + text + "'";
  if (const Op* def = v->definingOp()) return "the result of " + spellingOf(def->kind());
  return "a value with no name";
}

std::string describe(const Op& op, const SourceManager& sm) {
  const std::string text = op.loc().valid() ? textOf(op.loc(), sm) : std::string();
  if (text.empty()) return spellingOf(op.kind());
  // An op of IR text (%y = tile.add %x, %x : ...) goes by its IR name, as its author wrote it.
  const std::string irName = opInfo(op.kind()).name;
  const size_t at = text.find(irName);
  const size_t end = at + irName.size();
  if (at != std::string::npos && (end == text.size() || !(std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')))
    return "'" + irName + "'";
  return "'" + shortSource(text) + "'";
}

std::string spellingOf(OpKind k) {
  const std::string spelling = opInfo(k).spelling;
  return spelling.find(' ') == std::string::npos ? "'" + spelling + "'" : spelling;  // code, or words ("for loop")
}

const char* scanBuiltin(ScanKind k) {
  static const char* kNames[] = {"cumsum", "cummax", "cummin"};
  return kNames[size_t(k)];
}

std::string exprText(const Expr& e) { return e.str(exprName); }

std::string typeText(const Type& t) { return t.str(exprName); }

std::string annotationText(const Type& t) {
  switch (t.kind()) {
    case TypeKind::None: return "none";
    case TypeKind::Scalar: return dtypeName(t.dtype());
    case TypeKind::Tensor: return std::string(dtypeName(t.dtype())) + shapeText(t.dims());
    case TypeKind::Tile: break;
  }
  std::string s = std::string("tile<") + dtypeName(t.dtype()) + ", " + shapeText(t.shape());
  if (t.space() != kNoSpace) s += std::string(", ") + t.spaceName();
  s += ", valid = " + shapeText(t.valid());
  if (!t.hasDefaultLayout())
    if (const char* layout = layoutName(t.layout())) s += std::string(", layout = ") + layout;
  return s + ">";
}

std::string describeByName(const Value* v) { return "'" + exprName(v) + "'"; }

std::string irName(const Value* v, const ValueNames& names) { return "%" + names(v); }

std::string shapeText(const std::vector<int64_t>& xs) {
  std::string s = "[";
  for (size_t i = 0; i < xs.size(); ++i) s += (i ? ", " : "") + std::to_string(xs[i]);
  return s + "]";
}

std::string shapeText(const std::vector<Expr>& es) { return shapeText(es, exprName); }

std::string shapeText(const std::vector<Expr>& es, const std::function<std::string(const Value*)>& name) {
  std::string s = "[";
  for (size_t i = 0; i < es.size(); ++i) s += (i ? ", " : "") + es[i].str(name);
  return s + "]";
}

std::string numberText(double d) {
  char buf[32];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, d);
    if (std::strtod(buf, nullptr) == d) break;
  }
  return buf;
}

}  // namespace tilec::ir
