// Exact Thompson sampling, epsilon-TS and KL-UCB over the built-in models.
#include "bindings.hpp"

namespace sabandit::python {

// sabandit.simulate of these policies is compiled in conjugate_simulations.cpp.
#define SABANDIT_PYTHON_EXTERN_SIMULATE_COPIES(P, Env) extern SABANDIT_PYTHON_SIMULATE_COPIES(P, Env)
SABANDIT_PYTHON_CONJUGATE_SIMULATIONS(SABANDIT_PYTHON_EXTERN_SIMULATE_COPIES)
#undef SABANDIT_PYTHON_EXTERN_SIMULATE_COPIES

namespace {

/// The conjugate prior from a (a, b) pair: normal (mean, variance), beta (alpha, beta),
/// gamma (shape, rate), inverse gamma (shape, scale).
template <class Prior>
Prior prior_of(const std::pair<double, double>& ab) {
  if constexpr (std::is_same_v<Prior, normal_prior>) return {ab.first, ab.second};
  else if constexpr (std::is_same_v<Prior, beta_prior>) return {ab.first, ab.second};
  else return {ab.first, ab.second};
}
inline std::pair<double, double> pair_of(const normal_prior& p) { return {p.mean, p.variance}; }
inline std::pair<double, double> pair_of(const beta_prior& p) { return {p.alpha, p.beta}; }
inline std::pair<double, double> pair_of(const gamma_prior& p) { return {p.shape, p.rate}; }
inline std::pair<double, double> pair_of(const inverse_gamma_prior& p) { return {p.shape, p.scale}; }

template <class Model>
Model model_from(const py::object& model) {
  if constexpr (std::is_same_v<Model, gaussian_model>) return gaussian_of(model);
  else return Model{};
}

template <class Model>
typename thompson<Model>::params thompson_params(std::optional<double> temperature,
                                                 std::optional<std::pair<double, double>> prior,
                                                 std::optional<Eigen::Index> warmup) {
  typename thompson<Model>::params p;
  set_if(p.temperature, temperature);
  if (prior) p.prior = prior_of<typename Model::conjugate_prior_type>(*prior);
  set_if(p.warmup, warmup);
  return p;
}

template <class Model>
py::dict thompson_dict(const typename thompson<Model>::params& p) {
  return py::dict(py::arg("temperature") = p.temperature, py::arg("prior") = pair_of(p.prior),
                  py::arg("warmup") = p.warmup);
}

template <class Model>
void bind_model(py::module_& m, const std::string& suffix) {
  using ts = thompson<Model>;
  using eps = epsilon_ts<Model>;
  using kl = kl_ucb<Model>;
  bind_policy<ts>(m, ("Thompson" + suffix).c_str(), "Exact Thompson sampling (conjugate posterior).",
                  text_pickle<ts>([](Eigen::Index, Eigen::Index k) { return ts(k); }))
      .def_property_readonly("parameters", [](const ts& p) { return thompson_dict<Model>(p.parameters()); })
      .def_property_readonly("posterior_means", &ts::posterior_means);
  bind_policy<eps>(m, ("EpsilonTS" + suffix).c_str(),
                   "epsilon-TS: the posterior mean's argmax with probability epsilon, else a TS draw.",
                   text_pickle<eps>([](Eigen::Index, Eigen::Index k) { return eps(k); }))
      .def_property_readonly("parameters", [](const eps& p) {
        py::dict d = thompson_dict<Model>(p.posterior().parameters());
        d["epsilon"] = p.epsilon();
        return d;
      });
  bind_policy<kl>(m, ("KLUCB" + suffix).c_str(), "KL-UCB (Cappe et al. 2013).", text_pickle<kl>([](Eigen::Index, Eigen::Index k) { return kl(k); }))
      .def_property_readonly("parameters", [](const kl& p) {
        return py::dict(py::arg("log_log_coefficient") = p.parameters().log_log_coefficient,
                        py::arg("warmup") = p.parameters().warmup);
      })
      .def_property_readonly("indices", &kl::indices);
}

/// Calls f(Model{}) for the built-in model `model` names; ValueError for a Python model.
template <class F>
py::object dispatch_builtin(const py::object& model, const char* policy, F&& f) {
  switch (kind_of(model)) {
    case model_kind::gaussian: return f(gaussian_model{});
    case model_kind::bernoulli: return f(bernoulli_model{});
    case model_kind::poisson: return f(poisson_model{});
    case model_kind::exponential: return f(exponential_model{});
    case model_kind::python: break;
  }
  detail::throw_invalid("model", std::string(py::str(py::type::of(model))),
                        std::string("must be a built-in model for ") + policy +
                            " (a model written in Python works with ts_sa and ts_sgld only)");
}

}  // namespace

void bind_conjugate(py::module_& m) {
  bind_model<gaussian_model>(m, "Gaussian");
  bind_model<bernoulli_model>(m, "Bernoulli");
  bind_model<poisson_model>(m, "Poisson");
  bind_model<exponential_model>(m, "Exponential");

  const auto prior_doc =
      "prior: (mean, variance) of a normal prior for 'gaussian' (default (0, inf), the flat prior), (alpha, beta) "
      "of a beta prior for 'bernoulli' (default (1, 1)), (shape, rate) of a gamma prior for "
      "'poisson' (default (1, 1e-4)), (shape, scale) of an inverse gamma prior on the mean for "
      "'exponential' (default (0, 0), Jeffreys').";
  const thompson<>::params tsd;
  m.def("thompson", [](Eigen::Index num_arms, const py::object& model, std::optional<double> temperature,
                       std::optional<std::pair<double, double>> prior, std::optional<Eigen::Index> warmup) {
    return dispatch_builtin(model, "thompson", [&](auto tag) -> py::object {
      using Model = decltype(tag);
      return py::cast(thompson<Model>(num_arms, thompson_params<Model>(temperature, prior, warmup),
                                      model_from<Model>(model)));
    });
  }, py::arg("num_arms"), py::kw_only(), py::arg("model") = "gaussian",
     py::arg("temperature") = py::none(), py::arg("prior") = py::none(), py::arg("warmup") = py::none(),
     ("Exact Thompson sampling over K arms (C++ thompson<Model>). model: 'gaussian' (or "
      "GaussianModel(noise_variance)), 'bernoulli', 'poisson', 'exponential'. Omitted keywords keep the C++ "
      "defaults: temperature (tau, multiplies the posterior variance; the rate's for 'exponential') = " + detail::value_text(tsd.temperature) +
      ", warmup = " + std::to_string(tsd.warmup) + ", " + prior_doc).c_str());

  m.def("epsilon_ts", [](Eigen::Index num_arms, const py::object& model, std::optional<double> epsilon,
                         std::optional<double> temperature, std::optional<std::pair<double, double>> prior,
                         std::optional<Eigen::Index> warmup) {
    return dispatch_builtin(model, "epsilon_ts", [&](auto tag) -> py::object {
      using Model = decltype(tag);
      typename epsilon_ts<Model>::params p;
      p.epsilon = epsilon;
      p.posterior = thompson_params<Model>(temperature, prior, warmup);
      return py::cast(epsilon_ts<Model>(num_arms, p, model_from<Model>(model)));
    });
  }, py::arg("num_arms"), py::kw_only(), py::arg("model") = "gaussian", py::arg("epsilon") = py::none(),
     py::arg("temperature") = py::none(), py::arg("prior") = py::none(), py::arg("warmup") = py::none(),
     ("epsilon-TS over K arms (C++ epsilon_ts<Model>). epsilon in [0, 1), default 1/K; the other "
      "keywords as for thompson(): temperature = " + detail::value_text(tsd.temperature) + ", warmup = " +
      std::to_string(tsd.warmup) + ", " + prior_doc).c_str());

  const kl_ucb<>::params kld;
  m.def("kl_ucb", [](Eigen::Index num_arms, const py::object& model, std::optional<double> log_log_coefficient,
                     std::optional<Eigen::Index> warmup) {
    return dispatch_builtin(model, "kl_ucb", [&](auto tag) -> py::object {
      using Model = decltype(tag);
      typename kl_ucb<Model>::params p;
      set_if(p.log_log_coefficient, log_log_coefficient);
      set_if(p.warmup, warmup);
      return py::cast(kl_ucb<Model>(num_arms, p, model_from<Model>(model)));
    });
  }, py::arg("num_arms"), py::kw_only(), py::arg("model") = "bernoulli",
     py::arg("log_log_coefficient") = py::none(), py::arg("warmup") = py::none(),
     ("KL-UCB over K arms (C++ kl_ucb<Model>; the C++ default model is Bernoulli). Omitted "
      "keywords keep the C++ defaults: log_log_coefficient (c of log t + c log log t) = " +
      detail::value_text(kld.log_log_coefficient) + ", warmup = " + std::to_string(kld.warmup) + ".").c_str());
}

}  // namespace sabandit::python
