// libFuzzer target: the policies that keep per-arm statistics or a conjugate posterior (UCB,
// Thompson sampling, epsilon-TS and KL-UCB over the Gaussian, Bernoulli and Poisson models),
// built with arbitrary parameters and driven by policy_driver.hpp.
#include <cstddef>
#include <cstdint>

#include "policy_driver.hpp"

namespace {

using namespace sabandit;
using sabandit_fuzz::input;

constexpr Eigen::Index max_arms = 8;

gaussian_model any_gaussian(input& in) { return gaussian_model(in.any_double()); }

// Normal, beta and gamma priors are all two doubles: (mean, variance), (alpha, beta),
// (shape, rate).
template <class Model>
typename Model::conjugate_prior_type any_conjugate_prior(input& in) {
  return {in.any_double(), in.any_double()};
}

template <class Model>
Model any_model(input& in) {
  if constexpr (std::is_same_v<Model, gaussian_model>) {
    return any_gaussian(in);
  } else {
    (void)in;
    return Model{};
  }
}

template <class Model>
typename thompson<Model>::params any_thompson_params(input& in) {
  return {.temperature = in.any_double(),
          .prior = in.coin() ? Model::default_conjugate_prior() : any_conjugate_prior<Model>(in),
          .warmup = in.any_count(4)};
}

template <class Model>
void drive_thompson(input& in) {
  sabandit_fuzz::construct_and_drive(in, [&] {
    const Eigen::Index k = in.size(max_arms, true);
    if (in.coin()) return thompson<Model>(k);
    auto p = any_thompson_params<Model>(in);
    return thompson<Model>(k, p, any_model<Model>(in));
  });
}

template <class Model>
void drive_epsilon_ts(input& in) {
  sabandit_fuzz::construct_and_drive(in, [&] {
    const Eigen::Index k = in.size(max_arms, true);
    if (in.coin()) return epsilon_ts<Model>(k);
    typename epsilon_ts<Model>::params p{.posterior = any_thompson_params<Model>(in)};
    if (in.coin()) p.epsilon = in.any_double();
    return epsilon_ts<Model>(k, p, any_model<Model>(in));
  });
}

template <class Model>
void drive_kl_ucb(input& in) {
  sabandit_fuzz::construct_and_drive(in, [&] {
    const Eigen::Index k = in.size(max_arms, true);
    if (in.coin()) return kl_ucb<Model>(k);
    const typename kl_ucb<Model>::params p{.log_log_coefficient = in.any_double(),
                                           .warmup = in.any_count(4)};
    return kl_ucb<Model>(k, p, any_model<Model>(in));
  });
}

void drive_ucb(input& in) {
  sabandit_fuzz::construct_and_drive(in, [&] {
    const Eigen::Index k = in.size(max_arms, true);
    if (in.coin()) return ucb(k);
    return ucb(k, {.bonus_scale = in.any_double(), .warmup = in.any_count(4)});
  });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  input in(data, size);
  switch (in.in_range<int>(0, 12)) {
    case 0: drive_ucb(in); break;
    case 1: drive_thompson<gaussian_model>(in); break;
    case 2: drive_thompson<bernoulli_model>(in); break;
    case 3: drive_thompson<poisson_model>(in); break;
    case 4: drive_epsilon_ts<gaussian_model>(in); break;
    case 5: drive_epsilon_ts<bernoulli_model>(in); break;
    case 6: drive_epsilon_ts<poisson_model>(in); break;
    case 7: drive_kl_ucb<bernoulli_model>(in); break;
    case 8: drive_kl_ucb<gaussian_model>(in); break;
    case 9: drive_thompson<exponential_model>(in); break;
    case 10: drive_epsilon_ts<exponential_model>(in); break;
    case 11: drive_kl_ucb<exponential_model>(in); break;
    default: drive_kl_ucb<poisson_model>(in); break;
  }
  return 0;
}
