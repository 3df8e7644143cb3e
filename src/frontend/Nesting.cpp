#include "frontend/Nesting.h"

#include "TileLexer.h"

namespace tilec::frontend {
namespace {

using grammar::TileLexer;

bool isBinaryOperator(size_t type) {
  switch (type) {
    case TileLexer::EQ: case TileLexer::NE: case TileLexer::LE: case TileLexer::GE: case TileLexer::AND:
    case TileLexer::OR: case TileLexer::LT: case TileLexer::GT: case TileLexer::PLUS: case TileLexer::MINUS:
    case TileLexer::STAR: case TileLexer::SLASH: case TileLexer::PERCENT: case TileLexer::DOTDOT:
    case TileLexer::AMP: case TileLexer::PIPE: case TileLexer::CARET: case TileLexer::SHL: case TileLexer::SHR:
      return true;
    default:
      return false;
  }
}

}  // namespace

bool NestingCounter::add(size_t type) {
  const bool prefix =
      (type == TileLexer::MINUS && !afterOperand_) || type == TileLexer::NOT || type == TileLexer::TILDE;
  switch (type) {
    case TileLexer::LPAREN:
    case TileLexer::LBRACK:
    case TileLexer::LBRACE:
      ++brackets_;
      chains_.push_back(0);
      break;
    case TileLexer::RPAREN:
    case TileLexer::RBRACK:
    case TileLexer::RBRACE:
      if (brackets_) --brackets_;
      if (chains_.size() > 1) chained_ -= chains_.back(), chains_.pop_back();
      break;
    case TileLexer::SEMI:
    case TileLexer::COMMA:
      chained_ -= chains_.back();
      chains_.back() = 0;
      break;
    default:
      if (!prefix && isBinaryOperator(type)) ++chains_.back(), ++chained_;
      break;
  }
  afterOperand_ = type == TileLexer::INT || type == TileLexer::FLOAT || type == TileLexer::ID ||
                  type == TileLexer::TRUE || type == TileLexer::FALSE || type == TileLexer::RPAREN ||
                  type == TileLexer::RBRACK;
  prefixRun_ = prefix ? prefixRun_ + 1 : 0;
  return brackets_ + prefixRun_ + chained_ <= kMaxNesting;
}

}  // namespace tilec::frontend
