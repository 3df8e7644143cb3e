// NumPy .npy files (format version 1.0 and 2.0, C order, little-endian) as tensors of the
// interpreter. Element types: <f4 <f2 <i1 <i2 <i4 <i8 <u1 <u2 <u4 |b1, and bf16 as <V2 (the
// raw 16 bits, as ml_dtypes stores it). A tensor of a float dtype also reads an array of
// another float type, rounded to nearest even (an f32 array for a bf16 tensor, say).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "interp/Interpreter.h"

namespace tilec::interp {

// Reads `path` as a tensor of `dtype`; on failure returns false with the reason in `error`.
bool readNpy(const std::string& path, ir::DType dtype, Tensor& out, std::string& error);
// The .npy bytes of a tensor (bf16 as <V2).
std::string npyBytes(const Tensor& t);

// One element as a device buffer holds it: little-endian, as wide as its dtype (bf16 its
// 16 bits, bool a byte), and back.
unsigned elementBytes(ir::DType d);
uint64_t elementBits(Num n, ir::DType d);
Num elementFromBytes(const uint8_t* p, ir::DType d);

// A tensor's elements as a device buffer holds them, which is also the data of its .npy
// file: C order, little-endian, each as wide as its dtype (bf16 its 16 bits, bool a byte).
std::vector<uint8_t> tensorBytes(const Tensor& t);
// Sets every element from such bytes, which must be as many as tensorBytes gives.
void setTensorBytes(Tensor& t, const std::vector<uint8_t>& bytes);

}  // namespace tilec::interp
