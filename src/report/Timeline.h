// The pipe timeline of --emit=report: when each instruction of one block of a kernel runs
// on its hardware pipe, estimated from a cost per op (a target's model) by list scheduling
// the final IR, or read from a simulator's trace (PerfTrace.h). The scheduling and the
// drawing are target-neutral; a target gives the pipes and each op's pipe and cycles.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ir/IR.h"
#include "report/Section.h"

namespace tilec::report {

// Pipes are in-order queues: an instance starts once its pipe is free, its inputs are done
// (`ready`: the latest end among them) and every earlier instance that read or wrote one of
// its buffers is done (the buffer may be reused only then). An earlier instance on the same
// pipe is done by the time the pipe is free, so one end time per buffer is enough: O(1)
// per buffer an instance touches.
class PipeSchedule {
 public:
  PipeSchedule(size_t pipes, size_t buffers) : pipeFree_(pipes, 0), bufferDone_(buffers, 0) {}
  // Places an instance of `cycles` on `pipe`; returns its start.
  int64_t place(size_t pipe, int64_t cycles, int64_t ready, const std::vector<size_t>& buffers);

 private:
  std::vector<int64_t> pipeFree_, bufferDone_;
};

// What a target says about an op: the pipe that runs it and for how many cycles; pipe -1
// for an op that is no instruction (views, allocations, control), which takes no time.
struct PipeCost {
  int pipe = -1;
  int64_t cycles = 0;
};

struct PipeModel {
  std::vector<std::string> pipes;  // names, in drawing order
  std::function<PipeCost(const ir::Op&)> cost;
};

// Instances placed on pipes: what the figure draws, from an estimate or from a trace.
struct Timeline {
  struct Span {
    uint32_t pipe;
    int64_t start, end;
    uint32_t what;  // index into labels: the op (estimate) or the instruction name (trace)
  };
  std::vector<std::string> pipes;
  std::vector<std::string> labels;
  std::vector<SourceRange> sources;  // per label, the op's source (the estimate's only)
  std::vector<Span> spans;    // by pipe, each pipe's by start
  std::vector<std::string> notes;  // what the estimate assumed, as HTML sentences
};

// The instances simulated before the estimate stops (and says so).
inline constexpr size_t kMaxInstances = 200000;

// One block's estimate (block 0 of the launch): every op instance in program order, loops
// run out when their trip count is a constant, once otherwise; a branch whose condition is
// not a constant takes its then-branch. Ops are labelled by kind and source position.
Timeline estimateTimeline(const KernelView& kernel, const PipeModel& model, size_t maxInstances = kMaxInstances);

// The section "pipe timeline": the kernel's trace (KernelView::perfTrace) when there is one,
// else the estimate; per-pipe busy cycles, the total and the busiest pipe.
bool writeTimelineSection(const KernelView& kernel, Page& page, const PipeModel& model);

}  // namespace tilec::report
