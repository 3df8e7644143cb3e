#include "support/PhaseTimes.h"

#include <algorithm>
#include <cstdio>
#include <ostream>

namespace tilec {
namespace {
PhaseTimes* gActive = nullptr;
}  // namespace

void PhaseTimes::add(const std::string& name, double ms) {
  // A linear search: a compilation has a few dozen phases.
  for (Row& row : rows_)
    if (row.name == name) {
      row.ms += ms;
      return;
    }
  rows_.push_back({name, ms});
}

void PhaseTimes::print(std::ostream& os, const std::string& title) const {
  double total = 0;
  size_t width = 5;  // "total"
  for (const Row& row : rows_) {
    total += row.ms;
    width = std::max(width, row.name.size());
  }
  auto line = [&](const std::string& name, double ms) {
    double percent = total > 0 ? 100.0 * ms / total : 0.0;
    char buffer[256];
    std::snprintf(buffer, sizeof buffer, "  %-*s %10.3f %7.1f%%\n", static_cast<int>(width), name.c_str(), ms,
                  percent);
    os << buffer;
  };
  os << "===-- " << title << " --===\n";
  char header[256];
  std::snprintf(header, sizeof header, "  %-*s %10s %8s\n", static_cast<int>(width), "phase", "wall ms", "percent");
  os << header;
  for (const Row& row : rows_) line(row.name, row.ms);
  line("total", total);
  os.flush();
}

PhaseTimes* PhaseTimes::active() { return gActive; }
void PhaseTimes::setActive(PhaseTimes* times) { gActive = times; }

ScopedPhase::ScopedPhase(const char* name) : times_(PhaseTimes::active()), name_(name) {
  if (times_) start_ = std::chrono::steady_clock::now();
}

ScopedPhase::~ScopedPhase() {
  if (!times_) return;
  std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - start_;
  times_->add(name_, elapsed.count());
}

}  // namespace tilec
