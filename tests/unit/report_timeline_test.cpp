// The pipe timeline's scheduler against the rule written out by brute force, and the
// Perf-Sim trace reader on well-formed and malformed traces.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "report/PerfTrace.h"
#include "report/Timeline.h"
#include "test_rng.h"

using namespace tilec;
using namespace tilec::report;

namespace {

struct Task {
  size_t pipe;
  int64_t cycles;
  std::vector<size_t> inputs;   // earlier tasks whose results it reads
  std::vector<size_t> buffers;  // the buffers it reads or writes
};

// The rule as docs/report.md states it, quadratic: a task starts once every earlier task on
// its pipe, every task it reads from and every earlier task on another pipe that touched
// one of its buffers is done.
std::vector<int64_t> bruteForce(const std::vector<Task>& tasks) {
  std::vector<int64_t> start(tasks.size()), end(tasks.size());
  for (size_t i = 0; i < tasks.size(); ++i) {
    int64_t s = 0;
    for (size_t j = 0; j < i; ++j) {
      bool shares = false;
      for (size_t b : tasks[i].buffers) shares |= std::count(tasks[j].buffers.begin(), tasks[j].buffers.end(), b) > 0;
      const bool reads = std::count(tasks[i].inputs.begin(), tasks[i].inputs.end(), j) > 0;
      if (tasks[j].pipe == tasks[i].pipe || reads || (shares && tasks[j].pipe != tasks[i].pipe)) s = std::max(s, end[j]);
    }
    start[i] = s;
    end[i] = s + tasks[i].cycles;
  }
  return start;
}

std::vector<int64_t> scheduled(const std::vector<Task>& tasks, size_t pipes, size_t buffers) {
  PipeSchedule schedule(pipes, buffers);
  std::vector<int64_t> start, end;
  for (const Task& t : tasks) {
    int64_t ready = 0;
    for (size_t j : t.inputs) ready = std::max(ready, end[j]);
    start.push_back(schedule.place(t.pipe, t.cycles, ready, t.buffers));
    end.push_back(start.back() + t.cycles);
  }
  return start;
}

}  // namespace

TEST_CASE("pipe schedule: equals the brute-force rule on random op sequences") {
  testing::Rng rng{20261205};
  for (int c = 0; c < 2000; ++c) {
    CAPTURE(c);
    const size_t pipes = size_t(rng.in(1, 4)), buffers = size_t(rng.in(1, 5));
    std::vector<Task> tasks(size_t(rng.in(1, 14)));
    for (size_t i = 0; i < tasks.size(); ++i) {
      tasks[i].pipe = size_t(rng.below(int64_t(pipes)));
      tasks[i].cycles = rng.in(0, 9);
      for (size_t j = 0; j < i; ++j)
        if (rng.chance(20)) tasks[i].inputs.push_back(j);
      for (size_t b = 0; b < buffers; ++b)
        if (rng.chance(30)) tasks[i].buffers.push_back(b);
    }
    CHECK(scheduled(tasks, pipes, buffers) == bruteForce(tasks));
  }
}

TEST_CASE("perf trace: complete events become spans on their pipes, in the order the file names them") {
  PerfTraceError error;
  const auto t = readPerfTrace(R"([
    {"ph": "M", "pid": 0, "tid": "[AIC-0] MTE2", "name": "thread_name"},
    {"name": "TLOAD", "ph": "X", "ts": 1, "dur": 139, "pid": 0, "tid": "[AIC-0/AIV-0] MTE2"},
    {"name": "dep", "ph": "s", "id": 1, "tid": 3},
    {"name": "TEXP", "ph": "X", "ts": 140.4, "dur": 40, "tid": 7}])",
                               error);
  REQUIRE(t);
  CHECK(t->pipes == std::vector<std::string>{"[AIC-0/AIV-0] MTE2", "7"});  // MTE2 and 3 have no instruction
  REQUIRE(t->spans.size() == 2);
  CHECK(t->spans[1].pipe == 1);
  CHECK(t->spans[1].start == 140);
  CHECK(t->spans[1].end == 180);
  CHECK(t->labels[t->spans[1].what] == "TEXP");
}

TEST_CASE("perf trace: a malformed trace is refused at the byte of the problem") {
  struct Case {
    const char* text;
    size_t offset;
    const char* says;
  };
  const Case cases[] = {
      {"[{\"ph\": \"X\", \"ts\": 1, \"dur\": 2, \"tid\": \"a\"},\n {\"ph\": \"X\", \"ts\": 1, \"tid\": \"a\"}]", 46,
       "event 2's \"dur\" is missing"},
      {"[{\"ph\": \"X\", \"ts\": -1, \"dur\": 2, \"tid\": \"a\"}]", 1, "event 1's \"ts\""},
      {"[1]", 1, "event 1 is not an object"},
      {"[{\"ph\": \"X\", \"ts\": 0, \"dur\": 2, \"tid\": [1]}]", 1, "names no pipe"},
      {"  {\"traceEvents\": []}", 2, "not a JSON array"},
      {"[{\"ph\": \"M\"}]", 0, "no complete event"},
      {"[{\"ph\": \"X\",, }]", 12, "not JSON: syntax error"},
      {R"([{"ph": "M", "n": "a]}\""}, {"ph": 3}])", 28, "event 2 has no \"ph\" string"},  // brackets in a string
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    PerfTraceError error;
    CHECK_FALSE(readPerfTrace(c.text, error));
    CHECK(error.offset == c.offset);
    CHECK(error.message.find(c.says) != std::string::npos);
  }
  PerfTraceError error;
  CHECK_FALSE(readPerfTrace(std::string(100, '[') + std::string(100, ']'), error));
  CHECK(error.offset == 64);
}
