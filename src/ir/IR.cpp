#include "ir/IR.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <mutex>
#include <set>
#include <stdexcept>

#include "ir/Builder.h"
#include "ir/OpDefs.h"
#include "support/Wording.h"

namespace tilec::ir {

namespace {

// The stored copy of `key`: Attrs.def's string when it is one of its keys, else a copy kept
// for the process (only IR text with unknown attributes, which the verifier rejects, makes one).
std::string_view storedKey(std::string_view key) {
  static constexpr std::string_view kKnown[] = {
#define TILEC_ATTR(NAME, KEY, KIND) KEY,
#include "ir/Attrs.def"
#undef TILEC_ATTR
  };
  for (std::string_view known : kKnown)
    if (known == key) return known;
  static std::mutex guard;
  static std::set<std::string, std::less<>> others;
  std::lock_guard<std::mutex> lock(guard);
  auto it = others.find(key);
  if (it == others.end()) it = others.insert(std::string(key)).first;
  return *it;
}

}  // namespace

AttrMap::AttrMap(std::initializer_list<value_type> items) {
  for (const value_type& item : items) (*this)[item.first] = item.second;
}

AttrMap::iterator AttrMap::lowerBound(std::string_view key) {
  return std::lower_bound(items_.begin(), items_.end(), key,
                          [](const value_type& item, std::string_view k) { return item.first < k; });
}

AttrMap::iterator AttrMap::find(std::string_view key) {
  auto it = lowerBound(key);
  return it != items_.end() && it->first == key ? it : items_.end();
}

AttrMap::const_iterator AttrMap::find(std::string_view key) const {
  return const_cast<AttrMap&>(*this).find(key);
}

AttrValue& AttrMap::operator[](std::string_view key) {
  auto it = lowerBound(key);
  if (it == items_.end() || it->first != key) {
    // Grown by one, not doubled: an op carries a few attributes and a kernel 10^5 ops.
    const size_t at = size_t(it - items_.begin());
    items_.reserve(items_.size() + 1);
    it = items_.insert(items_.begin() + ptrdiff_t(at), {storedKey(key), AttrValue()});
  }
  return it->second;
}

const AttrValue& AttrMap::at(std::string_view key) const {
  auto it = find(key);
  if (it == end()) throw std::out_of_range("no attribute '" + std::string(key) + "'");
  return it->second;
}

size_t AttrMap::erase(std::string_view key) {
  auto it = find(key);
  if (it == items_.end()) return 0;
  items_.erase(it);
  return 1;
}

Block* Value::block() const { return def_ ? def_->parentBlock() : block_; }

SourceRange Value::origin() const {
  if (origin_.valid() || !def_) return origin_;
  return def_->loc();
}

Function* Value::function() const { return def_ ? def_->function() : block_ ? block_->function() : nullptr; }

namespace {

void removeUse(Value* v, Op* user, unsigned index) {
  auto& uses = const_cast<std::vector<Use>&>(v->uses());
  auto it = std::find_if(uses.begin(), uses.end(),
                         [&](const Use& u) { return u.user == user && u.index == index; });
  assert(it != uses.end() && "use list out of sync");
  uses.erase(it);
}

void addUse(Value* v, Op* user, unsigned index) {
  const_cast<std::vector<Use>&>(v->uses()).push_back({user, index});
}

template <class E, size_t N>
std::optional<E> byName(const std::array<const char*, N>& names, std::string_view s) {
  for (size_t i = 0; i < N; ++i)
    if (s == names[i]) return E(i);
  return std::nullopt;
}

template <size_t N>
std::string nameList(const std::array<const char*, N>& names) {
  return listText({names.begin(), names.end()}, "or");
}

// Indexed by the enums' values.
constexpr std::array<const char*, 4> kLoopModes = {"serial", "unroll", "parallel", "parallel_cyclic"};
constexpr std::array<const char*, 8> kRoundModes = {"cast_rint", "round", "rint", "floor",
                                                    "ceil",      "trunc", "odd",  "none"};
constexpr std::array<const char*, 4> kRegionPhases = {"init", "middle", "last", "init_last"};
constexpr std::array<const char*, 6> kCmpKinds = {"eq", "ne", "lt", "le", "gt", "ge"};
constexpr std::array<const char*, 3> kScanKinds = {"add", "max", "min"};

}  // namespace

const char* loopModeName(LoopMode m) { return kLoopModes[size_t(m)]; }
const char* roundModeName(RoundMode m) { return kRoundModes[size_t(m)]; }
std::optional<LoopMode> parseLoopMode(std::string_view s) { return byName<LoopMode>(kLoopModes, s); }
std::optional<RoundMode> parseRoundMode(std::string_view s) { return byName<RoundMode>(kRoundModes, s); }
const char* regionPhaseName(RegionPhase p) { return kRegionPhases[size_t(p)]; }
std::optional<RegionPhase> parseRegionPhase(std::string_view s) { return byName<RegionPhase>(kRegionPhases, s); }
std::string regionPhaseList() { return nameList(kRegionPhases); }
const char* cmpKindName(CmpKind k) { return kCmpKinds[size_t(k)]; }
std::optional<CmpKind> parseCmpKind(std::string_view s) { return byName<CmpKind>(kCmpKinds, s); }
std::string cmpKindList() { return nameList(kCmpKinds); }
const char* scanKindName(ScanKind k) { return kScanKinds[size_t(k)]; }
std::optional<ScanKind> parseScanKind(std::string_view s) { return byName<ScanKind>(kScanKinds, s); }
std::string scanKindList() { return nameList(kScanKinds); }
std::string loopModeList() { return nameList(kLoopModes); }
std::string roundModeList() { return nameList(kRoundModes); }

// ---- Value ----

void Value::replaceAllUsesWith(Value* other) {
  assert(other != this);
  // setOperand edits uses_, so iterate over a snapshot.
  std::vector<Use> uses = uses_;
  for (const Use& u : uses) u.user->setOperand(u.index, other);
  // Scalars also appear inside expressions (offsets, bounds, valid extents), which keep no
  // use lists: those are found by one walk over the function. Tiles and tensors never do.
  if (!type_.isScalar()) return;
  Function* f = function();
  if (!f) return;
  const ValueMapping mapping{{this, other}};
  auto retypeArgs = [&](Block& b) {
    for (const auto& arg : b.args()) arg->setType(remap(arg->type(), mapping));
  };
  retypeArgs(f->body());
  f->walk([&](Op& op) {
    for (auto& [key, value] : op.attrs()) value = remap(value, mapping);
    for (Value* r : op.results()) r->setType(remap(r->type(), mapping));
    for (unsigned i = 0; i < op.numRegions(); ++i) retypeArgs(op.body(i));
  });
}

// ---- Op ----

int64_t Function::numOps() const {
  int64_t n = 0;
  for (size_t c : opCounts_) n += int64_t(c);
  return n;
}

Op::~Op() {
  if (fn_->dying()) return;
  --fn_->opCounts_[size_t(kind_)];
  for (unsigned i = 0; i < operands_.size(); ++i)
    if (operands_[i]) removeUse(operands_[i], this, i);
}

const char* Op::name() const { return opInfo(kind_).name; }

void Op::missingAttr(const char* key) const {
  throw std::logic_error(std::string(name()) + " has no '" + key + "' attribute, which its passes rely on");
}

void Op::setOperand(unsigned i, Value* v) {
  if (operands_[i]) removeUse(operands_[i], this, i);
  operands_[i] = v;
  if (v) addUse(v, this, i);
}

void Op::addOperand(Value* v) {
  operands_.push_back(v);
  if (v) addUse(v, this, unsigned(operands_.size() - 1));
}

void Op::setOperands(const std::vector<Value*>& vs) {
  for (unsigned i = 0; i < operands_.size(); ++i)
    if (operands_[i]) removeUse(operands_[i], this, i);
  operands_.clear();
  for (Value* v : vs) addOperand(v);
}

std::vector<Value*> Op::results() const {
  std::vector<Value*> out;
  out.reserve(results_.size());
  for (const auto& r : results_) out.push_back(r.get());
  return out;
}

Value* Op::addResult(Type t, std::string name) {
  auto v = std::make_unique<Value>();
  v->type_ = std::move(t);
  v->name_ = std::move(name);
  v->id_ = fn_->nextValueId();
  v->def_ = this;
  v->index_ = unsigned(results_.size());
  results_.push_back(std::move(v));
  return results_.back().get();
}

Region& Op::addRegion() {
  auto r = std::make_unique<Region>();
  r->parent_ = this;
  r->block_ = std::make_unique<Block>();
  r->block_->fn_ = fn_;
  r->block_->region_ = r.get();
  regions_.push_back(std::move(r));
  return *regions_.back();
}

Op* Op::nextOp() const {
  if (!parent_) return nullptr;
  auto it = std::next(self_);
  return it == parent_->ops().end() ? nullptr : it->get();
}

Op* Op::parentOp() const { return parent_ ? parent_->parentOp() : nullptr; }

Function* Op::function() const { return fn_; }

void Op::walk(const std::function<void(Op&)>& f) {
  f(*this);
  for (auto& r : regions_)
    for (auto& op : r->block().ops()) op->walk(f);
}

// ---- Block ----

Value* Block::addArg(Type t, std::string name) {
  auto v = std::make_unique<Value>();
  v->type_ = std::move(t);
  v->name_ = std::move(name);
  v->id_ = fn_->nextValueId();
  v->block_ = this;
  v->index_ = unsigned(args_.size());
  args_.push_back(std::move(v));
  return args_.back().get();
}

Op* Block::terminator() const {
  Op* last = back();
  return last && last->kind() == OpKind::Yield ? last : nullptr;
}

Op* Block::create(OpKind k, SourceRange loc, Op* before) {
  std::unique_ptr<Op> op(new Op(*fn_, k, loc));
  ++fn_->opCounts_[size_t(k)];
  op->parent_ = this;
  auto pos = before ? before->self_ : ops_.end();
  assert(!before || before->parent_ == this);
  auto it = ops_.insert(pos, std::move(op));
  (*it)->self_ = it;
  return it->get();
}

void Block::erase(Op* op) {
  assert(op->parent_ == this);
  for (const auto& r : op->results_) {
    (void)r;
    assert(!r->hasUses() && "erasing an op whose results are still used");
  }
  ops_.erase(op->self_);
}

void Block::moveHere(Op* op, Op* before) {
  Block* from = op->parent_;
  auto pos = before ? before->self_ : ops_.end();
  ops_.splice(pos, from->ops_, op->self_);
  op->parent_ = this;
}

// ---- Function / Module ----

namespace {
constexpr std::array<const char*, 4> kParamDirNames{"", "in", "out", "inout"};
}  // namespace

const char* paramDirName(ParamDir d) { return kParamDirNames[size_t(d)]; }

Function::Function(Module& module, std::string name, KernelKind kind)
    : module_(&module), name_(std::move(name)), kind_(kind) {
  body_ = std::make_unique<Block>();
  body_->fn_ = this;
}

Value* Function::addParam(Type t, std::string name, ParamDir dir, SourceRange loc) {
  dirs_.push_back(dir);
  paramLocs_.push_back(loc);
  return body_->addArg(std::move(t), std::move(name));
}

void Function::walk(const std::function<void(Op&)>& f) {
  for (auto& op : body_->ops()) op->walk(f);
}

Function& Module::addFunction(std::string name, KernelKind kind) {
  functions_.push_back(std::make_unique<Function>(*this, std::move(name), kind));
  return *functions_.back();
}

Function* Module::lookup(const std::string& name) const {
  for (const auto& f : functions_)
    if (f->name() == name) return f.get();
  return nullptr;
}

}  // namespace tilec::ir
