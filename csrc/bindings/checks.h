// Argument validation for the torch entry points. Every failure is a RuntimeError that names the
// op, the argument, what was expected and what was given.
#pragma once

#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <torch/csrc/stable/tensor.h>
#include <torch/headeronly/core/ScalarType.h>

namespace dsv4::binding {

using torch::stable::Tensor;
using torch::headeronly::ScalarType;

std::string shape_string(const Tensor& t);

class ArgCheck {
 public:
  explicit ArgCheck(const char* op) : op_(op) {}

  template <class... Parts>
  [[noreturn]] void fail(const Parts&... parts) const {
    std::ostringstream msg;
    msg << "dsv4ext." << op_ << ": ";
    (msg << ... << parts);
    throw std::runtime_error(msg.str());
  }
  template <class... Parts>
  void require(bool ok, const Parts&... parts) const {
    if (!ok) fail(parts...);
  }

  void dtype(const Tensor& t, const char* name, ScalarType want) const;
  void dim(const Tensor& t, const char* name, int64_t want) const;
  void shape(const Tensor& t, const char* name, const std::vector<int64_t>& want) const;
  void contiguous(const Tensor& t, const char* name) const;
  void same_device(const Tensor& t, const char* name, const Tensor& ref, const char* ref_name) const;
  void non_negative(double v, const char* name) const;

 private:
  const char* op_;
};

}  // namespace dsv4::binding
