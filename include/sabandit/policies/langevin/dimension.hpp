#pragma once
// The paper's experiments have d = 1: theta, phi and each gradient are vectors of length one.
// Eigen's run-time-sized code runs a loop, a size check and a reduction for each of them, which
// at d = 1 costs more than the arithmetic. The Langevin policies' inner loops are therefore
// templates on a compile-time dimension D, instantiated for 1 and for Eigen::Dynamic (any d):
// at D = 1 they see fixed-size 1 x 1 views of the same storage and compile to scalar code. The
// operations and their order are the same, hence the same bits (the committed outputs, all at
// d = 1 or d = 3, 5 through Dynamic, are unchanged; tests/unit/langevin_test.cpp runs both
// Langevin policies over a model whose gradient only takes Eigen::Ref, against the built-in
// model's fixed-size path).
#include <type_traits>

#include <Eigen/Core>

namespace sabandit::langevin {

/// Runs `body(std::integral_constant<int, D>{})` with D = 1 when d = 1, else Eigen::Dynamic.
template <class Body>
decltype(auto) for_dimension(Eigen::Index d, Body&& body) {
  if (d == 1) return body(std::integral_constant<int, 1>{});
  return body(std::integral_constant<int, Eigen::Dynamic>{});
}

/// Column `col` of a column-major matrix or vector as a d-vector view of compile-time size D
/// (1 or Eigen::Dynamic); read-only when `m` is const.
template <int D, class Plain>
[[nodiscard]] auto column_view(Plain& m, Eigen::Index col = 0) {
  using vector = Eigen::Matrix<double, D, 1>;
  using mapped = std::conditional_t<std::is_const_v<Plain>, const vector, vector>;
  return Eigen::Map<mapped>(m.data() + col * m.rows(), m.rows());
}

}  // namespace sabandit::langevin
