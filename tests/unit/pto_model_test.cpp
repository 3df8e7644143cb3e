// The PTO model: the architecture of a module's target, and the hardware numbers the PTO
// passes take from it.
#include <doctest/doctest.h>

#include <stdexcept>

#include "backend/pto/PtoModel.h"

using namespace tilec;
using namespace tilec::pto;

TEST_CASE("pto model: a model is a2a3's, a5's, or no PTO target's (an internal error, not a2a3)") {
  CHECK(archOf(ptoModel(Arch::A2A3)) == Arch::A2A3);
  CHECK(archOf(ptoModel(Arch::A5)) == Arch::A5);
  const ir::TargetModel other{"other", {{"none", 0}}, {"kernel"}, nullptr};
  CHECK_THROWS_AS(archOf(other), std::logic_error);
}

TEST_CASE("pto model: fractal shapes per layout and element type") {
  const ir::TileLayout nz = ptoModel(Arch::A2A3).defaultLayout(Mat, {32, 32});
  const ir::TileLayout zn = ptoModel(Arch::A2A3).defaultLayout(Right, {32, 32});
  const ir::TileLayout acc = ptoModel(Arch::A2A3).defaultLayout(Acc, {32, 32});
  CHECK(fractalShape(nz, ir::DType::F16).rows == 16);
  CHECK(fractalShape(nz, ir::DType::F16).cols == 16);
  CHECK(fractalShape(nz, ir::DType::I8).cols == 32);
  CHECK(fractalShape(nz, ir::DType::F32).cols == 8);
  CHECK(fractalShape(zn, ir::DType::F32).rows == 8);
  CHECK(fractalShape(zn, ir::DType::F32).cols == 16);
  CHECK(fractalShape(acc, ir::DType::F32).rows == 16);
  CHECK(fractalShape(acc, ir::DType::F32).cols == 16);
}

TEST_CASE("pto model: a row window of acc is addressable inside one block column") {
  CHECK(inOneAccBlockColumn(0, 16));
  CHECK(inOneAccBlockColumn(20, 8));
  CHECK_FALSE(inOneAccBlockColumn(8, 16));
  CHECK_FALSE(inOneAccBlockColumn(0, 32));
}

TEST_CASE("pto model: moves and stores per architecture") {
  CHECK(movable(Arch::A5, Acc, Vec));
  CHECK_FALSE(movable(Arch::A2A3, Acc, Vec));
  CHECK(movable(Arch::A2A3, Mat, Scaling));
  CHECK_FALSE(movable(Arch::A5, Left, Mat));
  CHECK(storeSources(Arch::A2A3) == std::vector<ir::SpaceId>{Vec, Mat, Acc});
  CHECK(storeSources(Arch::A5) == std::vector<ir::SpaceId>{Vec, Acc});
}
