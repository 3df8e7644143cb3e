#include "interp/Npy.h"

#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>

namespace tilec::interp {
using ir::DType;

namespace {

struct Descr {
  const char* code;  // the .npy descr
  DType dtype;       // what its elements are
};

// F16 arrays are '<f2'; bf16 has no NumPy type of its own: ml_dtypes writes its 16 bits as
// '<V2', plain NumPy (np.void of 2 bytes, or uint16 words .view('V2')) as '|V2'. Written as '<V2'.
const Descr kDescrs[] = {
    {"<f4", DType::F32}, {"<f2", DType::F16}, {"<V2", DType::BF16}, {"|V2", DType::BF16}, {"|i1", DType::I8}, {"<i1", DType::I8},
    {"<i2", DType::I16}, {"<i4", DType::I32}, {"<i8", DType::I64},  {"|u1", DType::U8}, {"<u1", DType::U8},
    {"<u2", DType::U16}, {"<u4", DType::U32}, {"|b1", DType::Bool},
};

const char* descrOf(DType d) {
  for (const Descr& x : kDescrs)
    if (x.dtype == d) return x.code;
  return nullptr;
}

uint64_t loadLE(const unsigned char* p, unsigned n) {
  uint64_t v = 0;
  for (unsigned i = n; i-- > 0;) v = (v << 8) | p[i];
  return v;
}

void storeLE(std::string& out, uint64_t v, unsigned n) {
  for (unsigned i = 0; i < n; ++i) out += char((v >> (8 * i)) & 0xff);
}

// The value of `key` in the header dict: the text after "'key':" up to its end.
std::string field(const std::string& header, const std::string& key) {
  size_t at = header.find("'" + key + "'");
  if (at == std::string::npos) return {};
  at = header.find(':', at);
  if (at == std::string::npos) return {};
  size_t end = at + 1;
  if (key == "shape") end = header.find(')', at) + 1;
  else end = header.find_first_of(",}", at);
  if (end == std::string::npos || end == 0) return {};
  std::string v = header.substr(at + 1, end - at - 1);
  size_t b = v.find_first_not_of(" '"), e = v.find_last_not_of(" '");
  return b == std::string::npos ? "" : v.substr(b, e - b + 1);
}

}  // namespace

unsigned elementBytes(DType d) { return d == DType::Bool ? 1 : ir::dtypeBytes(d); }

Num elementFromBytes(const unsigned char* p, DType d) {
  Num n;
  uint64_t bits = loadLE(p, elementBytes(d));
  if (isFloatType(d)) n.f = bitsToFloat(bits, d);
  else n.i = wrapInt(int64_t(bits), d);
  return n;
}

uint64_t elementBits(Num n, DType d) { return isFloatType(d) ? floatBits(n.f, d) : uint64_t(n.i); }

bool readNpy(const std::string& path, DType dtype, Tensor& out, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot open it";
    return false;
  }
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0) {
    error = "it is not a .npy file (no \\x93NUMPY magic)";
    return false;
  }
  const auto* u = reinterpret_cast<const unsigned char*>(bytes.data());
  unsigned major = u[6];
  size_t lenBytes = major == 1 ? 2 : 4;
  if (major < 1 || major > 3 || bytes.size() < 8 + lenBytes) {
    error = "its .npy version " + std::to_string(major) + " is not one tilec reads (1, 2 or 3)";
    return false;
  }
  size_t headerLen = size_t(loadLE(u + 8, unsigned(lenBytes)));
  size_t dataAt = 8 + lenBytes + headerLen;
  if (dataAt > bytes.size()) {
    error = "its header runs past the end of the file";
    return false;
  }
  std::string header = bytes.substr(8 + lenBytes, headerLen);
  std::string descr = field(header, "descr"), order = field(header, "fortran_order");
  if (order != "False") {
    error = "it is not in C order (fortran_order is " + order + "); save it with np.ascontiguousarray";
    return false;
  }
  const Descr* found = nullptr;
  for (const Descr& d : kDescrs)
    if (descr == d.code) found = &d;
  if (!found) {
    error = "its element type '" + descr + "' is none tilec reads";
    return false;
  }
  bool floats = isFloatType(found->dtype) && isFloatType(dtype);
  if (found->dtype != dtype && !floats) {
    error = "it holds " + std::string(ir::dtypeName(found->dtype)) + " elements but the tensor is " +
            ir::dtypeName(dtype);
    return false;
  }
  std::string shape = field(header, "shape");
  std::vector<int64_t> dims;
  for (size_t i = 0; i < shape.size();) {
    if (!std::isdigit(static_cast<unsigned char>(shape[i]))) {
      ++i;
      continue;
    }
    size_t end = shape.find_first_not_of("0123456789", i);
    if (end - i > 15) {
      error = "its shape " + shape + " is too large";
      return false;
    }
    dims.push_back(std::stoll(shape.substr(i, end - i)));
    i = end;
  }
  int64_t count = cappedCount(dims, RunLimits::kMaxTensorElements);
  if (count > RunLimits::kMaxTensorElements) {
    error = "its shape " + shape + " holds more than the " + std::to_string(RunLimits::kMaxTensorElements) +
            " elements --run reads";
    return false;
  }
  size_t width = elementBytes(found->dtype);
  if (bytes.size() - dataAt < size_t(count) * width) {
    error = "it holds fewer bytes than its shape " + shape + " needs";
    return false;
  }
  out.data = std::make_shared<TensorData>();
  out.data->dtype = dtype;
  out.dims = dims;
  out.data->elems.reserve(size_t(count));
  for (int64_t i = 0; i < count; ++i) {
    Num n = elementFromBytes(u + dataAt + size_t(i) * width, found->dtype);
    if (floats) n.f = roundFloat(n.f, dtype);
    out.data->elems.push_back(n);
  }
  return true;
}

std::string npyBytes(const Tensor& t) {
  DType d = t.data->dtype;
  std::string shape = "(";
  for (size_t i = 0; i < t.dims.size(); ++i) shape += std::to_string(t.dims[i]) + (t.dims.size() == 1 ? "," : i + 1 < t.dims.size() ? ", " : "");
  shape += ")";
  const char* descr = descrOf(d);
  std::string header = "{'descr': '" + std::string(descr ? descr : "<i8") + "', 'fortran_order': False, 'shape': " + shape + ", }";
  size_t total = 10 + header.size() + 1;
  header += std::string((64 - total % 64) % 64, ' ') + "\n";
  std::string out = "\x93NUMPY";
  out += char(1);
  out += char(0);
  storeLE(out, header.size(), 2);
  out += header;
  const std::vector<uint8_t> data = tensorBytes(t);
  out.append(data.begin(), data.end());
  return out;
}

std::vector<uint8_t> tensorBytes(const Tensor& t) {
  const DType d = t.data->dtype;
  const unsigned width = elementBytes(d);
  std::vector<uint8_t> out;
  out.reserve(t.data->elems.size() * width);
  for (const Num& n : t.data->elems) {
    const uint64_t bits = elementBits(n, d);
    for (unsigned i = 0; i < width; ++i) out.push_back(uint8_t(bits >> (8 * i)));
  }
  return out;
}

void setTensorBytes(Tensor& t, const std::vector<uint8_t>& bytes) {
  const DType d = t.data->dtype;
  const unsigned width = elementBytes(d);
  for (size_t i = 0; i < t.data->elems.size() && (i + 1) * width <= bytes.size(); ++i)
    t.data->elems[i] = elementFromBytes(bytes.data() + i * width, d);
}

}  // namespace tilec::interp
