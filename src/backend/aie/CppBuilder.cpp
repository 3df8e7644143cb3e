// --emit=txn-cpp: a self-contained C++17 header with one builder function per sequence,
// taking the runtime sizes and returning the TXN words or the reason it refuses them. The
// header carries a verbatim copy of TxnRuntime.h, so the builder runs the encoder the
// static writer runs: for the same sizes the two give the same bytes (tests/lit/aie checks
// it by compiling the builder). Loops stay loops; what the compiler could not check for
// runtime sizes (descriptor fields, walks inside the buffers, tiler requirements,
// overflow) is checked at dispatch and refuses with the source location. Linear in the ops.
#include <cctype>
#include <ostream>
#include <sstream>
#include <unordered_map>

#include "backend/aie/AieTargets.h"
#include "backend/aie/AieOps.h"
#include "backend/aie/TxnRuntimeText.h"
#include "ir/Describe.h"

namespace tilec::aie {
namespace {

using namespace ir;

class BuilderWriter {
 public:
  BuilderWriter(const Function& f, NpuDevice npu, const target::FlagValues& flags, const SourceManager& sources,
                std::ostream& os)
      : f_(f),
        npu_(npu),
        fold_(flags.at(kDdrFold) ? "true" : "false"),
        task_(flagSet(flags, kDmaTask) ? "true" : "false"),
        sources_(sources),
        os_(os) {}

  void write() {
    const tilec_txn::Device d = npuDevice(npu_);
    std::string params, unpack;
    unsigned sizes = 0;
    for (unsigned i = 0; i < f_.numParams(); ++i) {
      const Value* p = f_.param(i);
      if (!p->type().isScalar()) continue;
      params += std::string(params.empty() ? "" : ", ") + "int64_t " + name(p);
      unpack += std::string(unpack.empty() ? "" : ", ") + "sizes[" + std::to_string(sizes++) + "]";
    }
    os_ << "// " << f_.name() << ": the TXN stream of this runtime sequence for " << npuName(npu_)
        << ", built at dispatch.\n// build_" << f_.name() << "(" << params
        << ") returns the words (header included), or why it refuses the sizes.\n";
    os_ << "inline std::variant<std::vector<uint32_t>, std::string> build_" << f_.name() << "(" << params << ") {\n";
    line(1, "tilec_txn::Arith a;");
    line(1, "tilec_txn::Stream s;");
    line(1, "const tilec_txn::Device device{" + std::to_string(d.devGen) + ", " + std::to_string(d.numRows) + ", " +
                std::to_string(d.numCols) + ", " + std::to_string(d.numMemTileRows) + "};");
    block(f_.body(), 1);
    line(1, "tilec_txn::finish(s, device);");
    line(1, "return s.words;");
    os_ << "}\n\n";
    os_ << "// The same, with the sizes in parameter order (" << sizes << " of them).\n";
    os_ << "inline std::variant<std::vector<uint32_t>, std::string> build_" << f_.name()
        << "_from(const std::vector<int64_t>& sizes) {\n";
    line(1, "if (sizes.size() != " + std::to_string(sizes) + ") return std::string(\"" + f_.name() + " takes " +
                std::to_string(sizes) + " sizes\");");
    line(1, "return build_" + f_.name() + "(" + unpack + ");");
    os_ << "}\n";
  }

 private:
  void line(int depth, const std::string& text) { os_ << std::string(size_t(depth) * 2, ' ') << text << '\n'; }

  // Every name has a prefix, so a source name cannot be a C++ keyword or one of the
  // builder's own variables (a, s, t, f, task, error, device, elements): sizes are
  // `size_<name>`, other values `v<id>_<name>`.
  std::string name(const Value* v) {
    auto it = names_.find(v);
    if (it != names_.end()) return it->second;
    const bool param = !v->definingOp() && v->ownerBlock() == &f_.body();
    std::string n = param ? "size_" : "v" + std::to_string(v->id()) + "_";
    for (char c : v->name()) n += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '_';
    return names_[v] = n;
  }

  // C++ for an Expr, through the checked arithmetic.
  std::string cpp(const Expr& e) {
    const std::vector<Expr>* ops = e.kind() == ExprKind::Const || e.kind() == ExprKind::Var ? nullptr : &e.operands();
    auto fold = [&](const char* fn) {
      std::string acc = cpp((*ops)[0]);
      for (size_t i = 1; i < ops->size(); ++i) acc = std::string(fn) + "(" + acc + ", " + cpp((*ops)[i]) + ")";
      return acc;
    };
    auto binary = [&](const char* fn) { return std::string(fn) + "(" + cpp((*ops)[0]) + ", " + cpp((*ops)[1]) + ")"; };
    switch (e.kind()) {
      case ExprKind::Const:
        return e.constValue() == INT64_MIN ? "INT64_MIN" : "int64_t(" + std::to_string(e.constValue()) + ")";
      case ExprKind::Var: return name(e.var());
      case ExprKind::Add: return fold("a.add");
      case ExprKind::Mul: return fold("a.mul");
      case ExprKind::FloorDiv: return binary("a.floorDiv");
      case ExprKind::CeilDiv: return binary("a.ceilDiv");
      case ExprKind::Mod: return binary("a.floorMod");
      case ExprKind::Min: return fold("tilec_txn::Arith::min");
      case ExprKind::Max: return fold("tilec_txn::Arith::max");
      case ExprKind::Cmp: {
        static const char* kOps[] = {"==", "!=", "<", "<=", ">", ">="};
        return "int64_t(" + cpp((*ops)[0]) + " " + kOps[int(e.cmpKind())] + " " + cpp((*ops)[1]) + ")";
      }
      case ExprKind::And: {
        std::string out = "int64_t(";
        for (size_t i = 0; i < ops->size(); ++i) out += (i ? " && " : "") + cpp((*ops)[i]) + " != 0";
        return out + ")";
      }
      case ExprKind::Or: {
        std::string out = "int64_t(";
        for (size_t i = 0; i < ops->size(); ++i) out += (i ? " || " : "") + cpp((*ops)[i]) + " != 0";
        return out + ")";
      }
      case ExprKind::Not: return "int64_t(" + cpp((*ops)[0]) + " == 0)";
      case ExprKind::Select:
        return "(" + cpp((*ops)[0]) + " != 0 ? " + cpp((*ops)[1]) + " : " + cpp((*ops)[2]) + ")";
    }
    return "0";
  }

  static std::string quoted(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    return out + "\"";
  }

  // The op as its source spelled it ('fill(...)'), and where.
  std::string where(const Op& op) const { return quoted(describe(op, sources_) + " at " + location(op) + ": "); }

  // file:line:column, with the file's base name: the header does not depend on where it was built.
  std::string location(const Op& op) const {
    const SourceRange r = op.loc();
    if (!r.valid()) return "an unknown place";
    const LineCol lc = sources_.lineCol(r.file, r.begin);
    std::string file = sources_.name(r.file);
    file = file.substr(file.find_last_of('/') + 1);
    return file + ":" + std::to_string(lc.line) + ":" + std::to_string(lc.column);
  }

  // Refuses the dispatch when the checked arithmetic failed since the last check.
  void checkArith(int depth, const Op& op) {
    line(depth, "if (a.failed) return std::string(" + where(op) +
                    " \"a size or offset overflows, or divides by zero, for these sizes\");");
  }

  void block(const Block& b, int depth) {
    for (const auto& op : b.ops()) emitOp(*op, depth);
  }

  void emitOp(const Op& op, int depth) {
    switch (aieOp(op).form) {
      case AieForm::Const:
        if (const auto* i = std::get_if<int64_t>(&op.get(attr::value)))
          line(depth, "const int64_t " + name(op.result()) + " = int64_t(" + std::to_string(*i) + ");");
        return;
      case AieForm::Index:
        line(depth, "const int64_t " + name(op.result()) + " = " + cpp(op.get(attr::expr)) + ";");
        return;
      case AieForm::Loop: return emitFor(op, depth);
      case AieForm::Branch: return emitIf(op, depth);
      case AieForm::Yield: return;  // emitFor and emitIf assign the yielded values
      case AieForm::Require:
        line(depth, "if (" + cpp(op.get(attr::cond)) + " == 0) return std::string(" + where(op) + " " +
                        quoted(op.get(attr::message)) + ");");
        checkArith(depth, op);
        return;
      case AieForm::Transfer: return emitTransfer(op, depth);
      case AieForm::Raw: {
        std::string args, data;
        for (const Expr& e : op.get(attr::args)) args += (args.empty() ? "" : ", ") + cpp(e);
        if (const auto* words = op.find(attr::data))
          for (const Expr& e : *words) data += (data.empty() ? "uint32_t(" : ", uint32_t(") + cpp(e) + ")";
        line(depth, "{");
        checkArith(depth + 1, op);
        line(depth + 1, "const std::string error = tilec_txn::appendRaw(s, " + quoted(op.get(attr::op)) +
                            ", {" + args + "}, {" + data + "}, /*fold=*/" + fold_ + ");");
        line(depth + 1, "if (!error.empty()) return std::string(" + where(op) + ") + error;");
        line(depth, "}");
        return;
      }
      case AieForm::Wait: {
        const auto& c = op.get(attr::channel);
        line(depth, "tilec_txn::sync(s, uint32_t(" + cpp(c[0]) + "), 0, " +
                        (drains(op) ? "tilec_txn::kS2MM" : "tilec_txn::kMM2S") + ", uint32_t(" + cpp(c[1]) +
                        "), 1, 1);");
        return;
      }
    }
  }

  void emitFor(const Op& op, int depth) {
    const Block& body = op.body();
    // Carried scalars live in variables declared before the loop; the results name them.
    for (unsigned i = 0; i < op.numOperands(); ++i) {
      line(depth, "int64_t " + name(op.result(i)) + " = " + name(op.operand(i)) + ";");
      names_[body.arg(i + 1)] = name(op.result(i));
    }
    const std::string iv = name(body.arg(0)), end = iv + "_end", step = iv + "_step";
    line(depth, "const int64_t " + end + " = " + cpp(op.get(attr::ub)) + ", " + step + " = " +
                    cpp(op.get(attr::step)) + ";");
    checkArith(depth, op);
    line(depth, "if (" + step + " <= 0) return std::string(" + where(op) + " \"the loop step is not positive\");");
    line(depth, "for (int64_t " + iv + " = " + cpp(op.get(attr::lb)) + "; " + iv + " < " + end + "; " + iv +
                    " = a.add(" + iv + ", " + step + ")) {");
    block(body, depth + 1);
    assignYield(body, op, depth + 1);
    checkArith(depth + 1, op);
    line(depth, "}");
  }

  void emitIf(const Op& op, int depth) {
    for (unsigned i = 0; i < op.numResults(); ++i) line(depth, "int64_t " + name(op.result(i)) + " = 0;");
    line(depth, "if (" + cpp(op.get(attr::cond)) + " != 0) {");
    block(op.body(0), depth + 1);
    assignYield(op.body(0), op, depth + 1);
    line(depth, "} else {");
    block(op.body(1), depth + 1);
    assignYield(op.body(1), op, depth + 1);
    line(depth, "}");
  }

  void assignYield(const Block& body, const Op& owner, int depth) {
    const Op* y = body.terminator();
    if (!y) return;
    // Through temporaries: a yield may swap carried values.
    for (unsigned i = 0; i < y->numOperands() && i < owner.numResults(); ++i)
      line(depth, "const int64_t " + name(owner.result(i)) + "_next = " + name(y->operand(i)) + ";");
    for (unsigned i = 0; i < y->numOperands() && i < owner.numResults(); ++i)
      line(depth, name(owner.result(i)) + " = " + name(owner.result(i)) + "_next;");
  }

  void emitTransfer(const Op& op, int depth) {
    const Value* tensor = op.operand(0);
    const auto& sizes = op.get(attr::sizes);
    const auto& strides = op.get(attr::strides);
    const auto& channel = op.get(attr::channel);
    const int64_t* bd = op.find(attr::bd);
    if (!bd || sizes.size() != kDescriptorDims)
      throw std::logic_error(std::string(op.name()) + " reached the builder writer unlowered");
    line(depth, "{  // " + std::string(op.name()) + " '" + tensor->name() + "'");
    line(depth + 1, "tilec_txn::Transfer t;");
    line(depth + 1, "t.elemBits = " + std::to_string(dtypeBytes(tensor->type().dtype()) * 8) + ";");
    line(depth + 1, "t.offset = " + cpp(op.get(attr::offset)) + ";");
    for (size_t i = 0; i < kDescriptorDims; ++i) {  // the IR's outermost first, the encoder's fastest first
      line(depth + 1, "t.sizes[" + std::to_string(i) + "] = " + cpp(sizes[kDescriptorDims - 1 - i]) + ";");
      line(depth + 1, "t.strides[" + std::to_string(i) + "] = " + cpp(strides[kDescriptorDims - 1 - i]) + ";");
    }
    std::string elements = "int64_t(1)";
    for (const Expr& d : tensor->type().dims()) elements = "a.mul(" + elements + ", " + cpp(d) + ")";
    if (const int64_t entries = queueEntries(op); entries > 1) line(depth + 1, "t.pushes = " + std::to_string(entries) + ";");
    line(depth + 1, "const int64_t elements = " + elements + ";");
    checkArith(depth + 1, op);
    line(depth + 1, "tilec_txn::ShimTask task;");
    line(depth + 1, "task.col = uint32_t(" + cpp(channel[0]) + ");");
    line(depth + 1, std::string("task.dir = ") + (drains(op) ? "tilec_txn::kS2MM;" : "tilec_txn::kMM2S;"));
    line(depth + 1, "task.chan = uint32_t(" + cpp(channel[1]) + ");");
    line(depth + 1, "task.bd = " + std::to_string(*bd) + ";");
    line(depth + 1, "task.argIdx = " + std::to_string(tensor->index()) + ";");
    const bool* token = op.find(attr::token);
    line(depth + 1, std::string("task.token = ") + (token && *token ? "true;" : "false;"));
    line(depth + 1, "task.task = " + task_ + ";");
    if (const int64_t* burst = op.find(attr::burst)) line(depth + 1, "task.burstBytes = " + std::to_string(*burst) + ";");
    if (const auto* packet = op.find(attr::packet))
      line(depth + 1, "task.packet = {true, " + std::to_string((*packet)[0]) + ", " + std::to_string((*packet)[1]) + "};");
    if (const auto* spare = op.find(attr::spare_bds)) {
      std::string list;
      for (int64_t b : *spare) list += (list.empty() ? "" : ", ") + std::to_string(b);
      line(depth + 1, "task.spareBds = {" + list + "};");
    }
    line(depth + 1, "const std::string error = tilec_txn::dispatchTransfer(s, device, task, t, elements, /*fold=*/" +
                        fold_ + ");");
    line(depth + 1, "if (!error.empty()) return std::string(" + where(op) + ") + error;");
    line(depth, "}");
  }

  const Function& f_;
  NpuDevice npu_;
  std::string fold_, task_;  // the DDR aperture fold and the dma_configure_task words, as C++
  const SourceManager& sources_;
  std::ostream& os_;
  std::unordered_map<const Value*, std::string> names_;
};

}  // namespace

bool emitTxnCpp(const Module& m, OutputBuffer& os, DiagnosticEngine& diags, const target::FlagValues& flags) {
  const NpuDevice npu = npuOf(m.target());
  os << "// Generated by tilec " << TILEC_VERSION << " for " << npuName(npu)
     << ": TXN stream builders for runtime sequences. Do not edit; C++17, standard library only.\n";
  os << "#pragma once\n#include <string>\n#include <variant>\n#include <vector>\n\n";
  os << "// ---- the encoder tilec's static writer runs (src/backend/aie/TxnRuntime.h) ----\n";
  os << kTxnRuntimeText << "\n// ---- the builders ----\n\n";
  for (const auto& f : m.functions()) BuilderWriter(*f, npu, flags, diags.sources(), os).write();
  return true;
}

}  // namespace tilec::aie
