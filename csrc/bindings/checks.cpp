#include "checks.h"

#include <cmath>

namespace dsv4::binding {

namespace {
std::string sizes_string(const std::vector<int64_t>& sizes) {
  std::ostringstream s;
  s << '[';
  for (size_t i = 0; i < sizes.size(); ++i) s << (i ? ", " : "") << sizes[i];
  s << ']';
  return s.str();
}

std::string device_string(const Tensor& t) {
  return t.is_cpu() ? std::string("cpu") : "cuda:" + std::to_string(t.get_device_index());
}
}  // namespace

std::string shape_string(const Tensor& t) { return sizes_string(t.sizes().vec()); }

void ArgCheck::dtype(const Tensor& t, const char* name, ScalarType want) const {
  require(t.scalar_type() == want, name, " must have dtype ", torch::headeronly::toString(want),
          ", got ", torch::headeronly::toString(t.scalar_type()));
}

void ArgCheck::dim(const Tensor& t, const char* name, int64_t want) const {
  require(t.dim() == want, name, " must be ", want, "-D, got shape ", shape_string(t));
}

void ArgCheck::shape(const Tensor& t, const char* name, const std::vector<int64_t>& want) const {
  require(t.sizes().vec() == want, name, " must have shape ", sizes_string(want), ", got ",
          shape_string(t));
}

void ArgCheck::contiguous(const Tensor& t, const char* name) const {
  require(t.is_contiguous(), name, " must be contiguous, got shape ", shape_string(t), " with strides ",
          sizes_string(t.strides().vec()));
}

void ArgCheck::same_device(const Tensor& t, const char* name, const Tensor& ref,
                           const char* ref_name) const {
  require(t.is_cpu() == ref.is_cpu() && t.get_device_index() == ref.get_device_index(), name,
          " must be on the same device as ", ref_name, " (", device_string(ref), "), got ",
          device_string(t));
}

void ArgCheck::non_negative(double v, const char* name) const {
  require(std::isfinite(v) && v >= 0.0, name, " must be a finite value >= 0, got ", v);
}

}  // namespace dsv4::binding
