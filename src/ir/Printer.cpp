// The .tir printer. One op per line; scf.for / scf.if have custom forms with
// indented regions; everything else uses the generic form
//   [%r, ... =] op.name %a, %b [{key = value, ...}] [: type, ...]
// Values are named by ValueNames (program order), so the output is deterministic.
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ostream>
#include <sstream>

#include "ir/Describe.h"
#include "ir/IRText.h"
#include "ir/OpDefs.h"

namespace tilec::ir {

// ---- value names ----

namespace {

// Hints become lexable names; a purely numeric hint would collide with the numbering.
std::string sanitizedHint(const std::string& hint) {
  std::string s = hint;
  bool numeric = !s.empty();
  for (char& c : s) {
    bool ok = std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$';
    if (!ok) c = '_';
    numeric = numeric && std::isdigit(static_cast<unsigned char>(c));
  }
  return numeric ? std::string() : s;
}

}  // namespace

ValueNames::ValueNames(const Function& f) { assignBlock(f.body()); }

void ValueNames::assign(const Value* v) {
  names_[v] = {v, uniqueName(v)};
}

std::string ValueNames::uniqueName(const Value* v) {
  std::string base = sanitizedHint(v->name());
  if (base.empty()) return std::to_string(nextNumber_++);
  auto it = used_.find(base);
  if (it == used_.end()) {
    used_[base] = 1;
    return base;
  }
  unsigned n = it->second;
  while (used_.count(base + "_" + std::to_string(n))) ++n;
  std::string name = base + "_" + std::to_string(n);
  used_[base] = n + 1;
  used_[name] = 1;
  return name;
}

// Textual order: an op's results, then its regions' arguments and ops.
void ValueNames::assignBlock(const Block& b) {
  for (const auto& a : b.args()) assign(a.get());
  for (const auto& op : b.ops()) {
    for (unsigned i = 0; i < op->numResults(); ++i) assign(op->result(i));
    for (unsigned r = 0; r < op->numRegions(); ++r) assignBlock(op->body(r));
  }
}

const std::string& ValueNames::operator()(const Value* v) const {
  static const std::string kUnknown = "?";
  const Named* named = names_.find(v);
  return named && named->value == v ? named->name : kUnknown;
}

// ---- printing ----

namespace {

// The shortest decimal text that reads back as exactly `d`, always with a float marker.
std::string formatDouble(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d < 0 ? "-inf" : "inf";
  std::string s = numberText(d);
  if (s.find_first_of(".eE") == std::string::npos) s += ".0";
  return s;
}

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// A loop mode the scf.for syntax spells as a keyword (serial: none); a name no mode has
// (the verifier rejects it) stays an attribute so the text shows what the IR holds.
bool isKeywordMode(const AttrValue& v) { return std::holds_alternative<LoopMode>(v); }

// Attributes the custom syntax of scf.for / scf.if already shows.
bool shownInSyntax(OpKind k, std::string_view key, const AttrValue& v) {
  if (k == OpKind::For) return key == "lb" || key == "ub" || key == "step" || (key == "mode" && isKeywordMode(v));
  if (k == OpKind::If) return key == "cond";
  return false;
}

// A trailing operand-less scf.yield is implied by the region syntax.
bool isImplicitYield(const Op& op) {
  return op.kind() == OpKind::Yield && op.numOperands() == 0 && op.attrs().empty();
}

bool isEmptyRegion(const Block& b) {
  return b.numArgs() == 0 && (b.empty() || (b.ops().size() == 1 && isImplicitYield(*b.back())));
}

class FunctionPrinter {
 public:
  FunctionPrinter(const Function& f, std::ostream& os, const PrintOptions& opts)
      : f_(f), os_(os), opts_(opts), names_(f) {
    nameFn_ = [this](const Value* v) { return irName(v, names_); };
  }

  void print() {
    os_ << "func @" << f_.name() << "(";
    for (unsigned i = 0; i < f_.numParams(); ++i) {
      if (i) os_ << ", ";
      os_ << ref(f_.param(i)) << ": " << type(f_.param(i)->type());
      if (f_.paramDir(i) != ParamDir::None) os_ << " " << paramDirName(f_.paramDir(i));
    }
    os_ << ") " << f_.module().target().kernelKindName(f_.kind());
    if (f_.blocks() > 0) {
      os_ << " blocks(" << f_.blocks();
      if (f_.subblocks() != 1) os_ << ", " << f_.subblocks();
      os_ << ")";
    }
    os_ << " {\n";
    printOps(f_.body(), 1);
    os_ << "}\n";
  }

 private:
  std::string ref(const Value* v) const { return nameFn_(v); }
  std::string type(const Type& t) const { return t.str(nameFn_); }
  std::string expr(const Expr& e) const { return e.str(nameFn_); }

  std::string refs(const std::vector<Value*>& vs) const {
    std::string s;
    for (size_t i = 0; i < vs.size(); ++i) s += (i ? ", " : "") + ref(vs[i]);
    return s;
  }

  std::string types(const std::vector<Value*>& vs) const {
    std::string s;
    for (size_t i = 0; i < vs.size(); ++i) s += (i ? ", " : "") + type(vs[i]->type());
    return s;
  }

  std::string attrValue(const AttrValue& v) const {
    struct Visitor {
      const FunctionPrinter& p;
      std::string operator()(int64_t x) const { return std::to_string(x); }
      std::string operator()(double x) const { return formatDouble(x); }
      std::string operator()(bool x) const { return x ? "true" : "false"; }
      std::string operator()(const std::string& x) const { return quoted(x); }
      std::string operator()(const Expr& x) const { return p.expr(x); }
      std::string operator()(const std::vector<Expr>& xs) const { return shapeText(xs, p.nameFn_); }
      std::string operator()(const std::vector<int64_t>& xs) const { return shapeText(xs); }
      std::string operator()(const TypeAttr& t) const { return p.type(t.type()); }
      std::string operator()(LoopMode m) const { return quoted(loopModeName(m)); }
      std::string operator()(RoundMode m) const { return quoted(roundModeName(m)); }
      std::string operator()(RegionPhase p) const { return quoted(regionPhaseName(p)); }
      std::string operator()(CmpKind k) const { return quoted(cmpKindName(k)); }
      std::string operator()(ScanKind k) const { return quoted(scanKindName(k)); }
    };
    return std::visit(Visitor{*this}, v);
  }

  // ` {key = value, ...}` for the attributes the op syntax does not show, or "".
  std::string attrDict(const Op& op) const {
    std::string s;
    for (const auto& [key, value] : op.attrs()) {
      if (shownInSyntax(op.kind(), key, value)) continue;
      s += (s.empty() ? " {" : ", ") + std::string(key) + " = " + attrValue(value);
    }
    return s.empty() ? s : s + "}";
  }

  std::string location(const Op& op) const {
    if (!opts_.locations || !opts_.sources || !op.loc().valid()) return "";
    LineCol lc = opts_.sources->lineCol(op.loc().file, op.loc().begin);
    return " loc(" + quoted(opts_.sources->name(op.loc().file)) + ":" + std::to_string(lc.line) + ":" +
           std::to_string(lc.column) + ")";
  }

  void indent(int depth) { os_ << std::string(size_t(depth) * 2, ' '); }

  void printOps(const Block& b, int depth) {
    for (const auto& op : b.ops()) {
      if (op.get() == b.back() && isImplicitYield(*op) && b.parentOp()) continue;
      printOp(*op, depth);
    }
  }

  void printResults(const Op& op) {
    if (op.numResults()) os_ << refs(op.results()) << " = ";
  }

  void printOp(const Op& op, int depth) {
    indent(depth);
    printResults(op);
    if (op.kind() == OpKind::For) return printFor(op, depth);
    if (op.kind() == OpKind::If) return printIf(op, depth);
    if (op.numRegions() == 1) return printSection(op, depth);
    os_ << op.name();
    if (op.numOperands()) os_ << " " << refs(op.operands());
    os_ << attrDict(op);
    if (op.numResults()) os_ << " : " << types(op.results());
    os_ << location(op) << "\n";
  }

  void printFor(const Op& op, int depth) {
    os_ << "scf.for";
    if (const auto* mode = op.find(attr::mode); mode && *mode != LoopMode::Serial)
      os_ << " " << loopModeName(*mode);
    const Block& body = op.body();
    auto bound = [&](AttrKey<AttrKind::Expr> a) {
      const Expr* e = op.find(a);
      return e ? expr(*e) : std::string("<missing ") + a.key + ">";
    };
    os_ << " " << (body.numArgs() ? ref(body.arg(0)) : std::string("%<missing>")) << " = " << bound(attr::lb)
        << " to " << bound(attr::ub) << " step " << bound(attr::step);
    if (op.numOperands()) {
      os_ << " iter_args(";
      for (unsigned i = 0; i < op.numOperands(); ++i) {
        if (i) os_ << ", ";
        os_ << (i + 1 < body.numArgs() ? ref(body.arg(i + 1)) : std::string("%<missing>")) << " = "
            << ref(op.operand(i));
      }
      os_ << ") -> (" << types(op.results()) << ")";
    }
    os_ << " {\n";
    printOps(body, depth + 1);
    indent(depth);
    os_ << "}" << attrDict(op) << location(op) << "\n";
  }

  // A section of a split kernel: `core.cube {` its ops `}`.
  void printSection(const Op& op, int depth) {
    os_ << op.name() << " {\n";
    printOps(op.body(), depth + 1);
    indent(depth);
    os_ << "}" << attrDict(op) << location(op) << "\n";
  }

  void printIf(const Op& op, int depth) {
    const Expr* cond = op.find(attr::cond);
    os_ << "scf.if " << (cond ? expr(*cond) : std::string("<missing cond>"));
    if (op.numResults()) os_ << " -> (" << types(op.results()) << ")";
    os_ << " {\n";
    printOps(op.body(0), depth + 1);
    indent(depth);
    os_ << "}";
    if (op.numResults() || !isEmptyRegion(op.body(1))) {
      os_ << " else {\n";
      printOps(op.body(1), depth + 1);
      indent(depth);
      os_ << "}";
    }
    os_ << attrDict(op) << location(op) << "\n";
  }

  const Function& f_;
  std::ostream& os_;
  const PrintOptions& opts_;
  ValueNames names_;
  std::function<std::string(const Value*)> nameFn_;
};

}  // namespace

void printFunction(const Function& f, std::ostream& os, const PrintOptions& opts) {
  FunctionPrinter(f, os, opts).print();
}

void printModule(const Module& m, std::ostream& os, const PrintOptions& opts) {
  for (size_t i = 0; i < m.functions().size(); ++i) {
    if (i) os << "\n";
    FunctionPrinter(*m.functions()[i], os, opts).print();
  }
}

std::string printToString(const Module& m, const PrintOptions& opts) {
  std::ostringstream os;
  printModule(m, os, opts);
  return os.str();
}

}  // namespace tilec::ir
