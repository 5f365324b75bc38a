#pragma once
// A policy's complete observable state as bytes, compared bit for bit (NaN payloads and signed
// zeros included), for the strong guarantee: a throwing call must leave these bytes unchanged.
// Built from the policy's saved text and its public accessors (which show the scores derived
// from the saved state). What neither shows (the warm-up's cursor, scratch) is covered by
// behaviour instead: see policy_driver.hpp, which compares the decisions that follow.
#include <cstring>
#include <sstream>
#include <string>

#include <Eigen/Core>

#include "sabandit/sabandit.hpp"

namespace sabandit_fuzz {

class snapshot {
 public:
  void add(double value) { append(&value, sizeof value); }
  void add(long long value) { append(&value, sizeof value); }
  template <class Derived>
  void add(const Eigen::DenseBase<Derived>& values) {
    add(static_cast<long long>(values.rows()));
    add(static_cast<long long>(values.cols()));
    for (Eigen::Index j = 0; j < values.cols(); ++j)
      for (Eigen::Index i = 0; i < values.rows(); ++i) add(static_cast<double>(values(i, j)));
  }
  void add_text(const std::string& text) {
    add(static_cast<long long>(text.size()));
    bytes_ += text;
  }
  [[nodiscard]] const std::string& bytes() const noexcept { return bytes_; }
  friend bool operator==(const snapshot&, const snapshot&) = default;

 private:
  void append(const void* data, std::size_t size) {
    bytes_.append(static_cast<const char*>(data), size);
  }
  std::string bytes_;
};

namespace detail {

inline void add(snapshot& s, const sabandit::arm_statistics& stats) {
  s.add(stats.counts());
  s.add(stats.sums());
  s.add(stats.total());
}
inline void add(snapshot& s, const sabandit::normal_posterior& p) {
  s.add(p.count());
  s.add(p.sum());
  s.add(p.mean());
  s.add(p.variance());
}
inline void add(snapshot& s, const sabandit::beta_posterior& p) {
  s.add(p.alpha());
  s.add(p.beta());
}
inline void add(snapshot& s, const sabandit::gamma_posterior& p) {
  s.add(p.shape());
  s.add(p.rate());
}
inline void add(snapshot& s, const sabandit::inverse_gamma_posterior& p) {
  s.add(p.shape());
  s.add(p.scale());
}

inline void add_state(snapshot& s, const sabandit::ucb& p) {
  s.add(p.parameters().bonus_scale);
  s.add(static_cast<long long>(p.parameters().warmup));
  add(s, p.statistics());
}
template <class Model>
void add_state(snapshot& s, const sabandit::thompson<Model>& p) {
  s.add(p.parameters().temperature);
  s.add(static_cast<long long>(p.parameters().warmup));
  add(s, p.statistics());
  s.add(p.posterior_means());
  for (Eigen::Index a = 0; a < p.num_arms(); ++a) add(s, p.posterior(a));
  if constexpr (requires { p.posterior_stddevs(); }) s.add(p.posterior_stddevs());
}
template <class Model>
void add_state(snapshot& s, const sabandit::epsilon_ts<Model>& p) {
  s.add(p.epsilon());
  add_state(s, p.posterior());
}
// indices() is left out: it is the output of the last select(), which may change it.
template <class Model>
void add_state(snapshot& s, const sabandit::kl_ucb<Model>& p) {
  s.add(p.parameters().log_log_coefficient);
  s.add(static_cast<long long>(p.parameters().warmup));
  add(s, p.statistics());
}
template <class Policy>
void add_langevin_state(snapshot& s, const Policy& p) {
  s.add(p.features());
  s.add(p.parameter_estimates());
  s.add(p.linear_predictors());
  add(s, p.statistics());
}
template <class Model, class Schedule>
void add_state(snapshot& s, const sabandit::ts_sa<Model, Schedule>& p) {
  add_langevin_state(s, p);
  const auto& windows = p.windows();
  s.add(windows.storage());
  for (Eigen::Index a = 0; a < p.num_arms(); ++a) {
    s.add(static_cast<long long>(windows.size(a)));
    s.add(windows.mean(a));
  }
}
template <class Model>
void add_state(snapshot& s, const sabandit::ts_sgld<Model>& p) {
  add_langevin_state(s, p);
  for (Eigen::Index a = 0; a < p.num_arms(); ++a) s.add(p.history(a));
}

}  // namespace detail

/// The policy's saved text (docs/state-format.md): its complete state, hidden parts included.
template <class Policy>
[[nodiscard]] std::string saved_text(const Policy& policy) {
  std::ostringstream out;
  sabandit::state::save(out, policy);
  return out.str();
}

/// Every observable piece of `policy`'s state.
template <class Policy>
[[nodiscard]] snapshot state_of(const Policy& policy) {
  snapshot s;
  s.add(static_cast<long long>(policy.num_arms()));
  detail::add_state(s, policy);
  s.add_text(saved_text(policy));
  return s;
}

}  // namespace sabandit_fuzz
