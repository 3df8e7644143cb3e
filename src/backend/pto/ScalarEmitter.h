// Scalar side of a PTO function: arith constants (collected into one block at
// the top of the function, deduplicated), index and i1 arithmetic for Exprs
// (memoized per region scope, so an expression is computed once where it
// dominates its uses), and the SSA names of scalar values.
#pragma once
#include <algorithm>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "backend/pto/PtoSyntax.h"
#include "ir/Expr.h"
#include "ir/IR.h"
#include "support/PointerMap.h"

namespace tilec::pto {

// Writes the lines of a function body, at its current indentation, straight to the output.
class BodyWriter {
 public:
  void attach(std::ostream& os) { os_ = &os; }
  void line(const std::string& text) { start() << text << '\n'; }
  // Starts a line: writes the indentation and returns the stream for the rest of it.
  std::ostream& start() {
    static const std::string spaces(64, ' ');
    os_->write(spaces.data(), std::streamsize(std::min<size_t>(indent_, spaces.size())));
    return *os_;
  }
  void indent() { indent_ += 2; }
  void dedent() { indent_ -= 2; }

 private:
  std::ostream* os_ = nullptr;
  unsigned indent_ = 4;
};

class ScalarEmitter {
 public:
  ScalarEmitter(NameTable& names, BodyWriter& body) : names_(names), body_(body) {}

  // The constant block, one `arith.constant` per line, in order of first use.
  std::string constants() const { return constants_.str(); }

  void bind(const ir::Value* v, std::string name) { values_[v] = std::move(name); }
  bool bound(const ir::Value* v) const { return values_.contains(v); }
  // The SSA name of a scalar value (empty if it has none yet).
  std::string value(const ir::Value* v) const;

  std::string indexConstant(int64_t v);
  std::string boolConstant(bool v);
  // A constant of scalar dtype `d` from an integer or float attribute payload.
  std::string constant(ir::DType d, const ir::AttrValue& value);

  // SSA values computing `e`; `hint` names the op that yields the result if one is emitted.
  std::string index(const ir::Expr& e, const std::string& hint = "");
  std::string boolean(const ir::Expr& e, const std::string& hint = "");
  // `index` converted to scalar type `d` (index_cast for integers, i1 via compare).
  std::string cast(const std::string& indexValue, ir::DType d, const std::string& hint);
  // The same for a conversion at a use: emitted once where it dominates the later uses.
  std::string castAtUse(const std::string& indexValue, ir::DType d);

  void pushScope() { scopes_.emplace_back(); }
  void popScope() { scopes_.pop_back(); }

 private:
  std::string constantNamed(const std::string& key, const std::string& hint,
                            const std::string& literal, const std::string& type);
  std::string op(const std::string& text, const std::string& type, const std::string& hint);
  std::string binary(const char* opName, const std::string& a, const std::string& b,
                     const char* type, const std::string& hint);
  std::string memoized(const std::string& key, const std::function<std::string()>& build);
  std::string keyOf(const ir::Expr& e) const;
  std::string varIndex(const ir::Value* v);
  std::string buildIndex(const ir::Expr& e, const std::string& hint);
  std::string buildSum(const ir::Expr& e, const std::string& hint);
  std::string buildProduct(const ir::Expr& e, const std::string& hint);
  std::string buildMod(const ir::Expr& e, const std::string& hint);
  std::string buildBool(const ir::Expr& e, const std::string& hint);
  std::string chain(const char* opName, const std::vector<ir::Expr>& operands, const char* type,
                    const std::string& hint, bool asBool);

  NameTable& names_;
  BodyWriter& body_;
  std::ostringstream constants_;
  std::map<std::string, std::string> constantNames_;            // key -> name
  PointerMap<ir::Value, std::string> values_;
  std::vector<std::unordered_map<std::string, std::string>> scopes_;  // lookup only
};

}  // namespace tilec::pto
