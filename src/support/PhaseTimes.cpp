#include "support/PhaseTimes.h"

#include <malloc.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <ostream>

namespace tilec {
namespace {
PhaseTimes* gActive = nullptr;
ScopedPhase* gInnermost = nullptr;
}  // namespace

void PhaseTimes::add(const std::string& name, double ms) {
  // The phase of the last call first (the frontend times every token), then a linear
  // search: a compilation has a few dozen phases.
  if (last_ < rows_.size() && rows_[last_].name == name) {
    rows_[last_].ms += ms;
    return;
  }
  for (size_t i = 0; i < rows_.size(); ++i)
    if (rows_[i].name == name) {
      rows_[i].ms += ms;
      last_ = i;
      return;
    }
  last_ = rows_.size();
  rows_.push_back({name, ms, -1, -1});
}

void PhaseTimes::notePeak(const std::string& name) {
  add(name, 0.0);
  struct rusage usage {};
  ::getrusage(RUSAGE_SELF, &usage);
  rows_[last_].peakKiB = usage.ru_maxrss;  // kilobytes on Linux
  struct mallinfo2 heap = ::mallinfo2();
  rows_[last_].heapKiB = static_cast<long>((heap.uordblks + heap.hblkhd) / 1024);
}

void PhaseTimes::print(std::ostream& os, const std::string& title) const {
  double total = 0;
  size_t width = 5;  // "total"
  for (const Row& row : rows_) {
    total += row.ms;
    width = std::max(width, row.name.size());
  }
  long peak = -1;
  for (const Row& row : rows_) peak = std::max(peak, row.peakKiB);
  auto mib = [](long kib, char (&text)[32]) {
    if (kib >= 0) std::snprintf(text, sizeof text, "%.1f", double(kib) / 1024);
    else std::snprintf(text, sizeof text, "-");
  };
  auto line = [&](const std::string& name, double ms, long peakKiB, long heapKiB) {
    double percent = total > 0 ? 100.0 * ms / total : 0.0;
    char peakText[32], heapText[32];
    mib(peakKiB, peakText);
    mib(heapKiB, heapText);
    char buffer[256];
    std::snprintf(buffer, sizeof buffer, "  %-*s %10.3f %7.1f%% %9s %9s\n", static_cast<int>(width), name.c_str(),
                  ms, percent, peakText, heapText);
    os << buffer;
  };
  os << "===-- " << title << " --===\n";
  char header[256];
  std::snprintf(header, sizeof header, "  %-*s %10s %8s %9s %9s\n", static_cast<int>(width), "phase", "wall ms",
                "percent", "peak MiB", "heap MiB");
  os << header;
  for (const Row& row : rows_) line(row.name, row.ms, row.peakKiB, row.heapKiB);
  line("total", total, peak, -1);
  os.flush();
}

void PhaseTimes::listInOrder(std::initializer_list<const char*> names) {
  if (gActive)
    for (const char* name : names) gActive->add(name, 0.0);
}

PhaseTimes* PhaseTimes::active() { return gActive; }
void PhaseTimes::setActive(PhaseTimes* times) { gActive = times; }

ScopedPhase::ScopedPhase(const char* name) : times_(PhaseTimes::active()), name_(name) {
  if (!times_) return;
  start_ = std::chrono::steady_clock::now();
  outer_ = gInnermost;
  if (outer_) outer_->pause(start_);
  gInnermost = this;
}

ScopedPhase::~ScopedPhase() {
  if (!times_) return;
  const auto now = std::chrono::steady_clock::now();
  pause(now);
  gInnermost = outer_;
  if (outer_) outer_->start_ = now;
  else times_->notePeak(name_);
}

void ScopedPhase::pause(std::chrono::steady_clock::time_point now) {
  const std::chrono::duration<double, std::milli> elapsed = now - start_;
  times_->add(name_, elapsed.count());
}

}  // namespace tilec
