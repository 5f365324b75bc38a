// The contextual policies (docs/contextual.md) from Python: the submodule _sabandit.contextual,
// which python/sabandit/contextual.py wraps. The same conventions as the multi-armed classes
// (bindings.hpp): one class per (policy, model), made by a function that takes the model as a
// keyword; exclusive_use; engines that advance only when a call succeeds; pickling by the saved
// text. The simulations are compiled apart, in contextual_simulations.cpp.
#include "contextual_bindings.hpp"

namespace sabandit::python {

// sabandit.contextual.simulate of these policies is compiled in contextual_simulations.cpp.
#define SABANDIT_PYTHON_EXTERN_CONTEXTUAL_SIMULATION(P, Env) \
  extern SABANDIT_PYTHON_CONTEXTUAL_SIMULATION(P, Env)
SABANDIT_PYTHON_CONTEXTUAL_SIMULATIONS(SABANDIT_PYTHON_EXTERN_CONTEXTUAL_SIMULATION)
#undef SABANDIT_PYTHON_EXTERN_CONTEXTUAL_SIMULATION

namespace {

namespace cx = sabandit::contextual;

/// `value` as a numpy array of real numbers with `ndim` dimensions, for the argument `name`
/// that `what` describes: TypeError for bools, complex numbers, objects and strings (a cast to
/// float64 took them, complex ones with only a warning), ValueError naming `name.ndim` for
/// another number of dimensions.
py::array real_array_of(const std::string& name, const py::handle& value, py::ssize_t ndim,
                        const char* what) {
  // numpy.asarray drops a masked array's mask, and the masked values were used (a probe's
  // finding): refused, since no mask has a meaning here.
  static const py::handle masked =  // numpy is loaded with the module; never released
      py::object(py::module_::import("numpy.ma").attr("MaskedArray")).release();
  if (py::isinstance(value, masked))
    throw py::type_error("sabandit: " + name +
                         " is a masked array: fill or drop the masked entries (the mask would be "
                         "ignored)");
  const py::array array = py::array::ensure(value);
  if (!array)
    throw py::type_error("sabandit: " + name + " = " +
                         sabandit::printable(std::string(py::repr(value))) + " (must be " + what +
                         ")");
  const char kind = array.dtype().kind();
  if (kind != 'f' && kind != 'i' && kind != 'u')
    throw py::type_error("sabandit: " + name + " has dtype " +
                         std::string(py::str(static_cast<const py::handle&>(array.dtype()))) +
                         " (must hold real numbers: ints or floats)");
  if (array.ndim() != ndim)
    detail::throw_invalid(name + ".ndim", static_cast<Eigen::Index>(array.ndim()),
                          std::string("must be ") + std::to_string(ndim) + ": " + what +
                              (array.ndim() == 0 && name == "context"
                                   ? "; update takes (context, arm, reward, engine), the context "
                                     "first, as C++'s"
                                   : ""));
  return array;
}

/// A d x K (theta) or n x p (features) matrix argument of real numbers (real_array_of).
Eigen::MatrixXd real_matrix_of(const std::string& name, const py::handle& value, const char* what) {
  return real_array_of(name, value, 2, what)
      .cast<py::array_t<double, py::array::forcecast>>()
      .cast<Eigen::MatrixXd>();
}

/// Class labels: a 1-D array-like of integers (not bools, not floats), each as an index.
std::vector<Eigen::Index> labels_of(const py::handle& value) {
  const py::array array = real_array_of("labels", value, 1, "a 1-D array of class indices");
  if (array.dtype().kind() == 'f' && array.size() > 0)  // [] is float64: the sizes are named
    throw py::type_error("sabandit: labels has dtype " +
                         std::string(py::str(static_cast<const py::handle&>(array.dtype()))) +
                         " (must hold ints: class indices)");
  const auto values = array.cast<py::array_t<std::int64_t, py::array::forcecast>>();
  const auto view = values.unchecked<1>();
  std::vector<Eigen::Index> labels(static_cast<std::size_t>(view.shape(0)));
  for (py::ssize_t i = 0; i < view.shape(0); ++i) labels[static_cast<std::size_t>(i)] = view(i);
  return labels;
}

/// A float argument of an environment: any real number but a bool (as the functions' floats).
double real_of(const char* name, const py::handle& value) {
  if (is_bool(value))
    throw py::type_error(std::string("sabandit: ") + name + " = " + std::string(py::repr(value)) +
                         " (must be a number, not a bool)");
  const double x = PyFloat_AsDouble(value.ptr());
  if (x == -1.0 && PyErr_Occurred()) {
    const bool too_large = PyErr_ExceptionMatches(PyExc_OverflowError) != 0;  // 10**400
    PyErr_Clear();
    const std::string shown = sabandit::printable(std::string(py::repr(value)));
    if (too_large)
      throw py::value_error(std::string("sabandit: invalid argument: ") + name + " = " + shown +
                            " (beyond a double's range)");
    throw py::type_error(std::string("sabandit: ") + name + " = " + shown + " (must be a number)");
  }
  return x;
}

/// An int keyword of a C++ int member (the Newton iterations): ValueError naming it past int's
/// range, where pybind11 said only "incompatible function arguments".
std::optional<int> int_keyword(const char* name, std::optional<Eigen::Index> value) {
  if (!value) return std::nullopt;
  if (*value < std::numeric_limits<int>::min() || *value > std::numeric_limits<int>::max())
    detail::throw_invalid(name, *value, "must be in [1, 2147483647]");
  return static_cast<int>(*value);
}

/// A context from Python: a 1-D array-like of real numbers (a list, a numpy array of ints or
/// floats), copied. A 2-D array (a batch, or a column vector), bools and complex numbers are
/// refused by name, where a cast to float64 would take them; the policy then checks its size
/// and that it is finite (require_context: ValueError naming context).
Eigen::VectorXd context_of(const py::handle& context) {
  const auto values =
      real_array_of("context", context, 1,
                    "one round's context, a 1-D array of context_size numbers (select and "
                    "update take one context, not a batch)")
          .cast<py::array_t<double, py::array::forcecast>>();
  const auto view = values.unchecked<1>();
  Eigen::VectorXd x(view.shape(0));
  for (py::ssize_t i = 0; i < view.shape(0); ++i) x(i) = view(i);
  return x;
}

// The parameters as a dict of the factory's keywords.
py::dict parameters_dict(const cx::linucb_params& p) {
  return py::dict(py::arg("alpha") = p.alpha);
}
py::dict parameters_dict(const cx::linear_ts_params& p) { return py::dict(py::arg("v") = p.v); }
py::dict parameters_dict(const cx::epsilon_greedy_ridge_params& p) {
  return py::dict(py::arg("epsilon") = p.epsilon);
}
py::dict parameters_dict(const cx::laplace_ts_params& p) {
  return py::dict(py::arg("v") = p.v, py::arg("prior_variance") = p.prior_variance,
                  py::arg("newton_max_iterations") = p.newton.max_iterations,
                  py::arg("newton_tolerance") = p.newton.tolerance);
}
template <class Params>
py::dict langevin_dict(const Params& p) {
  return py::dict(py::arg("warmup") = p.warmup, py::arg("inner_steps") = p.inner_steps,
                  py::arg("step_size") = p.step_size, py::arg("temperature") = p.temperature,
                  py::arg("prior_variance") = p.prior_variance,
                  py::arg("warm_start_max_iterations") = p.warm_start.max_iterations,
                  py::arg("warm_start_tolerance") = p.warm_start.tolerance);
}
py::dict parameters_dict(const cx::ts_sa_params& p) {
  py::dict d = langevin_dict(p);
  d["window"] = p.window;
  d["refit_per_dimension"] = p.refit_per_dimension;
  return d;
}
py::dict parameters_dict(const cx::ts_sgld_params& p) {
  py::dict d = langevin_dict(p);
  d["batch_size"] = p.batch_size;
  return d;
}

/// What contextual.py's simulate() makes its SimulationResult of: the curve's arrays (as
/// sabandit.simulate's, curve_arrays), trial_regret (points x trials) and pulls (trials x K,
/// as sabandit.simulate's: run_result's K x trials, transposed).
py::tuple result_tuple(const cx::run_result& r) {
  const simulation_result c = curve_arrays(r.curve);
  const auto pulls = pull_counts(r.trial_pulls.cols(), r.trial_pulls.rows(),
                                 [&](Eigen::Index t, Eigen::Index a) { return r.trial_pulls(a, t); });
  return py::make_tuple(c.rounds, c.mean_regret, c.standard_error, c.optimal_fraction,
                        c.final_regrets, py::cast(r.trial_regret), pulls, c.trials);
}

/// The members every contextual policy class has: num_arms, context_size, select, update,
/// save/restore, copy, pickling and _simulate.
template <class P, class Blank>
py::class_<P> bind_contextual_policy(py::module_& m, const char* name, const char* doc,
                                     Blank blank) {
  py::class_<P> cls(m, name, doc);
  def_checkpoints(cls, "A checkpoint: the same decisions for the same engine state and contexts.");
  cls.def_property_readonly(
         "num_arms", [](const P& p) { return p.num_arms(); }, "K, the number of arms")
      .def_property_readonly(
          "context_size", [](const P& p) { return p.context_size(); },
          "d, the length of every context")
      .def(
          "select",
          [](P& p, const py::handle& context, engine& gen) {
            const Eigen::VectorXd x = context_of(context);
            const exclusive_use use(&p);
            return drawing_on_success(gen, [&](engine& g) { return p.select(x, g); });
          },
          py::arg("context"), py::arg("engine"),
          "The arm to play at `context` (1-D, context_size floats), in [0, K), drawing from "
          "`engine` (unchanged if it raises).")
      .def(
          "update",
          [](P& p, const py::handle& context, const py::handle& arm, const py::handle& reward,
             engine& gen) {
            const Eigen::VectorXd x = context_of(context);
            const Eigen::Index a = arm_of(arm);
            const double r = reward_of(reward);
            const exclusive_use use(&p);
            drawing_on_success(gen, [&](engine& g) { p.update(x, a, r, g); });
          },
          py::arg("context"), py::arg("arm"), py::arg("reward"), py::arg("engine"),
          "Learns `reward` of `arm` at `context` (C++'s argument order). IndexError for a bad "
          "arm, ValueError for a context of the wrong size or not finite, or a reward the "
          "model refuses; the policy and the engine are then unchanged.")
      .def("__repr__",
           [name = std::string(name)](const P& p) {
             return "<sabandit.contextual." + name + ": K = " + std::to_string(p.num_arms()) +
                    ", context_size = " + std::to_string(p.context_size()) + ">";
           })
      .def(text_pickle<P>(std::move(blank)))
      .def(
          "_simulate",
          [](const P& p, const py::object& env, Eigen::Index horizon, Eigen::Index trials,
             const py::handle& seed, const py::handle& threads, Eigen::Index record_points,
             Eigen::Index feedback_batch) {
            const run_config config{
                .horizon = horizon,
                .trials = trials,
                .seed = unsigned_of("seed", seed),
                .threads = static_cast<unsigned>(unsigned_of("threads", threads, 32)),
                .record_points = record_points,
                .feedback_batch = feedback_batch};
            return with_contextual_env(env, [&](const auto& e) -> py::tuple {
              if constexpr (contextually_simulated<P, std::decay_t<decltype(e)>>) {
                // Copies of both, made under the GIL: the run's threads read them without it,
                // while another Python thread may draw the next context from `env`.
                const auto env_copy = e;
                return result_tuple(simulate_contextual_copies(copy_of(p), env_copy, config));
              } else {
                throw py::type_error(
                    "sabandit: " + std::string(py::str(py::type::of(env))) +
                    " has rewards this policy's model refuses: a policy over "
                    "outcomes or counts plays a LogisticEnv or a ClassificationEnv");
              }
            });
          },
          py::arg("env"), py::arg("horizon"), py::arg("trials"), py::arg("seed"),
          py::arg("threads"), py::arg("record_points"), py::arg("feedback_batch"));
  if constexpr (requires(const P& p) { p.scores(); }) {
    cls.def_property_readonly(
        "scores", [](const P& p) -> Eigen::ArrayXd { return p.scores(); },
        "The scores of the last select: each arm's index or sampled score.");
  }
  if constexpr (requires(const P& p) { p.awaiting(); }) {
    cls.def_property_readonly(
        "awaiting",
        [](const P& p) { return int64_array(p.awaiting()); },
        "Warm-up selections per arm whose rewards have not arrived (int64 array of K): the "
        "warm-up plays the arm with the fewest pulls and awaited selections.");
  }
  if constexpr (requires(const P& p) { p.model(); }) {
    cls.def_property_readonly(
        "model", [](const P& p) { return p.model(); },
        "The reward model (GaussianModel(noise_variance), BernoulliModel() or PoissonModel()), "
        "which restore() replaces with the saved one.");
  }
  if constexpr (requires(const P& p) { p.parameters(); }) {
    cls.def_property_readonly(
        "parameters", [](const P& p) { return parameters_dict(p.parameters()); },
        "The parameters, as validated at construction.");
  }
  return cls;
}

/// The function `name`(num_arms, context_size, *, `keyword`) that makes a ridge policy P, whose
/// one parameter is the member `member` of its parameters.
template <class P, class Params = typename P::params>
void def_ridge_factory(py::module_& m, const char* name, const char* keyword,
                       double Params::*member, const std::string& doc) {
  m.def(
      name,
      [member](Eigen::Index num_arms, Eigen::Index context_size, std::optional<double> value) {
        Params p;
        set_if(p.*member, value);
        return P(num_arms, context_size, p);
      },
      py::arg("num_arms"), py::arg("context_size"), py::kw_only(), py::arg(keyword) = py::none(),
      doc.c_str());
}

/// Sets the keywords contextual TS-SA and TS-SGLD share (validate_langevin checks them) that
/// were given.
template <class Params>
void apply_langevin(Params& p, std::optional<Eigen::Index> warmup,
                    std::optional<Eigen::Index> inner_steps, std::optional<double> step_size,
                    std::optional<double> temperature, std::optional<double> prior_variance,
                    std::optional<Eigen::Index> warm_start_max_iterations,
                    std::optional<double> warm_start_tolerance) {
  set_if(p.warmup, warmup);
  set_if(p.inner_steps, inner_steps);
  set_if(p.step_size, step_size);
  set_if(p.temperature, temperature);
  set_if(p.prior_variance, prior_variance);
  set_if(p.warm_start.max_iterations,
         int_keyword("warm_start_max_iterations", warm_start_max_iterations));
  set_if(p.warm_start.tolerance, warm_start_tolerance);
}

/// Calls f(Model{}) for the model `model` names: 'gaussian' (or a GaussianModel), 'bernoulli',
/// 'poisson'. ValueError for another (the contextual policies are GLMs of these three).
template <class F>
py::object dispatch_glm(const py::object& model, const char* policy, F&& f) {
  const auto refuse = [&](const std::string& shown) {
    detail::throw_invalid("model", shown,
                          std::string("must be 'gaussian' (or a GaussianModel), 'bernoulli' or "
                                      "'poisson' for contextual.") +
                              policy);
  };
  // A name is read here, not by kind_of, whose message lists the multi-armed models.
  if (py::isinstance<py::str>(model)) {
    const auto name = model.cast<std::string>();
    if (name != "gaussian" && name != "bernoulli" && name != "poisson") refuse(name);
  }
  switch (kind_of(model)) {
    case model_kind::gaussian:
      return f(gaussian_of(model));
    case model_kind::bernoulli:
      return f(bernoulli_model{});
    case model_kind::poisson:
      return f(poisson_model{});
    case model_kind::exponential:
    case model_kind::python:
      break;
  }
  refuse(std::string(py::str(py::type::of(model).attr("__name__"))));
  std::abort();  // refuse throws
}

template <class Model>
void bind_glm_policies(py::module_& m, const std::string& suffix) {
  using sa = cx::ts_sa<Model>;
  using sgld = cx::ts_sgld<Model>;
  using laplace = cx::laplace_ts<Model>;
  bind_contextual_policy<sa>(m, ("TSSA" + suffix).c_str(),
                             "Contextual TS-SA (docs/contextual.md; C++ contextual::ts_sa<Model>).",
                             [](Eigen::Index d, Eigen::Index k) { return sa(k, d); });
  bind_contextual_policy<sgld>(m, ("TSSGLD" + suffix).c_str(),
                               "Contextual TS-SGLD (C++ contextual::ts_sgld<Model>).",
                               [](Eigen::Index d, Eigen::Index k) { return sgld(k, d); });
  bind_contextual_policy<laplace>(m, ("LaplaceTS" + suffix).c_str(),
                                  "Laplace-approximate TS (C++ contextual::laplace_ts<Model>).",
                                  [](Eigen::Index d, Eigen::Index k) { return laplace(k, d); });
}

/// Environments: theta* is d x K (matrix_of refuses a 1-D array).
template <class Env>
void bind_contextual_env(py::class_<Env>& cls) {
  cls.def_property_readonly("num_arms", &Env::num_arms, "K")
      .def_property_readonly("context_size", &Env::context_size, "d")
      .def(
          "next_context",
          [](Env& e, engine& gen) {
            return drawing_on_success(
                gen, [&](engine& g) -> Eigen::VectorXd { return e.next_context(g); });
          },
          py::arg("engine"),
          "Draws the next round's context, which stays current until the next call (the engine "
          "is unchanged if it raises).")
      .def(
          "mean", [](const Env& e, const py::handle& arm) { return e.mean(arm_of(arm)); },
          py::arg("arm"), "The expected reward of `arm` at the current context.")
      .def(
          "pull",
          [](Env& e, const py::handle& arm, engine& gen) {
            const Eigen::Index a = arm_of(arm);
            return drawing_on_success(gen, [&](engine& g) { return e.pull(a, g); });
          },
          py::arg("arm"), py::arg("engine"), "A reward of `arm` at the current context.");
}

}  // namespace

/// How real_matrix_of's messages describe theta*.
constexpr const char* kThetaShape = "a d x K array of numbers (K arms of d = 1: reshape(1, K))";

void bind_contextual(py::module_& parent) {
  py::module_ m = parent.def_submodule(
      "contextual", "Contextual bandits (docs/contextual.md): a context arrives every round.");

  using linucb = cx::linucb<>;
  using linear_ts = cx::linear_ts<>;
  using greedy = cx::epsilon_greedy_ridge<>;
  bind_contextual_policy<linucb>(m, "LinUCB",
                                 "LinUCB (Li et al. 2010, disjoint; C++ contextual::linucb).",
                                 [](Eigen::Index d, Eigen::Index k) { return linucb(k, d); });
  bind_contextual_policy<linear_ts>(
      m, "LinearTS",
      "Linear Thompson sampling (Agrawal and Goyal 2013; C++ contextual::linear_ts).",
      [](Eigen::Index d, Eigen::Index k) { return linear_ts(k, d); });
  bind_contextual_policy<greedy>(
      m, "EpsilonGreedyRidge",
      "epsilon-greedy over ridge estimates (C++ contextual::epsilon_greedy_ridge).",
      [](Eigen::Index d, Eigen::Index k) { return greedy(k, d); });
  bind_contextual_policy<cx::uniform_random>(
      m, "UniformRandom",
      "A uniformly random arm each round: the reference (C++ contextual::uniform_random).",
      [](Eigen::Index d, Eigen::Index k) { return cx::uniform_random(k, d); });
  bind_glm_policies<gaussian_model>(m, "Gaussian");
  bind_glm_policies<bernoulli_model>(m, "Bernoulli");
  bind_glm_policies<poisson_model>(m, "Poisson");

  const cx::linucb_params lud;
  def_ridge_factory<linucb>(m, "linucb", "alpha", &cx::linucb_params::alpha,
                            "LinUCB over K arms with contexts of context_size floats (disjoint: a "
                            "ridge regression per arm, A = I + sum x x^T). alpha = " +
                                detail::value_text(lud.alpha) +
                                " multiplies the confidence width (0: greedy).");
  const cx::linear_ts_params ltd;
  def_ridge_factory<linear_ts>(m, "linear_ts", "v", &cx::linear_ts_params::v,
                               "Linear Thompson sampling over K arms (disjoint ridge posteriors; "
                               "theta ~ N(A^-1 b, v^2 A^-1)). v = " +
                                   detail::value_text(ltd.v) + ".");
  const cx::epsilon_greedy_ridge_params egd;
  def_ridge_factory<greedy>(m, "epsilon_greedy_ridge", "epsilon",
                            &cx::epsilon_greedy_ridge_params::epsilon,
                            "epsilon-greedy over K disjoint ridge estimates: a uniformly random "
                            "arm with probability epsilon = " +
                                detail::value_text(egd.epsilon) + ", else the best estimate.");
  m.def(
      "uniform_random",
      [](Eigen::Index num_arms, Eigen::Index context_size) {
        return cx::uniform_random(num_arms, context_size);
      },
      py::arg("num_arms"), py::arg("context_size"),
      "A uniformly random arm each round (the reference a policy must beat).");

  const cx::laplace_ts_params lpd;
  m.def(
      "laplace_ts",
      [](Eigen::Index num_arms, Eigen::Index context_size, const py::object& model,
         std::optional<double> v, std::optional<double> prior_variance,
         std::optional<Eigen::Index> newton_max_iterations,
         std::optional<double> newton_tolerance) {
        cx::laplace_ts_params p;
        set_if(p.v, v);
        set_if(p.prior_variance, prior_variance);
        set_if(p.newton.max_iterations,
               int_keyword("newton_max_iterations", newton_max_iterations));
        set_if(p.newton.tolerance, newton_tolerance);
        return dispatch_glm(model, "laplace_ts", [&](auto model_value) -> py::object {
          using Model = decltype(model_value);
          return py::cast(cx::laplace_ts<Model>(num_arms, context_size, p, model_value));
        });
      },
      py::arg("num_arms"), py::arg("context_size"), py::kw_only(), py::arg("model") = "bernoulli",
      py::arg("v") = py::none(), py::arg("prior_variance") = py::none(),
      py::arg("newton_max_iterations") = py::none(), py::arg("newton_tolerance") = py::none(),
      ("Laplace-approximate Thompson sampling over K arms (a GLM per arm, its MAP by Newton's "
       "method after every update; theta ~ N(m, v^2 H^-1)). model: 'bernoulli' (logistic), "
       "'poisson' (log-linear) or 'gaussian' (or GaussianModel(noise_variance)). Omitted keywords "
       "keep the C++ defaults: v = " +
       detail::value_text(lpd.v) + ", prior_variance = " + detail::value_text(lpd.prior_variance) +
       " (the prior N(0, prior_variance I)), "
       "newton_max_iterations = " +
       std::to_string(lpd.newton.max_iterations) +
       ", newton_tolerance = " + detail::value_text(lpd.newton.tolerance) + ".")
          .c_str());

  const cx::ts_sa_params sad;
  m.def(
      "ts_sa",
      [](Eigen::Index num_arms, Eigen::Index context_size, const py::object& model,
         std::optional<Eigen::Index> warmup, std::optional<Eigen::Index> window,
         std::optional<Eigen::Index> inner_steps, std::optional<double> step_size,
         std::optional<double> temperature, std::optional<double> prior_variance,
         std::optional<Eigen::Index> refit_per_dimension,
         std::optional<Eigen::Index> warm_start_max_iterations,
         std::optional<double> warm_start_tolerance) {
        cx::ts_sa_params p;
        apply_langevin(p, warmup, inner_steps, step_size, temperature, prior_variance,
                       warm_start_max_iterations, warm_start_tolerance);
        set_if(p.window, window);
        set_if(p.refit_per_dimension, refit_per_dimension);
        return dispatch_glm(model, "ts_sa", [&](auto model_value) -> py::object {
          using Model = decltype(model_value);
          return py::cast(cx::ts_sa<Model>(num_arms, context_size, p, model_value));
        });
      },
      py::arg("num_arms"), py::arg("context_size"), py::kw_only(), py::arg("model") = "gaussian",
      py::arg("warmup") = py::none(), py::arg("window") = py::none(),
      py::arg("inner_steps") = py::none(), py::arg("step_size") = py::none(),
      py::arg("temperature") = py::none(), py::arg("prior_variance") = py::none(),
      py::arg("refit_per_dimension") = py::none(),
      py::arg("warm_start_max_iterations") = py::none(),
      py::arg("warm_start_tolerance") = py::none(),
      ("Contextual TS-SA over K arms (Alg. 1 per arm over a GLM, Fisher-preconditioned; "
       "docs/contextual.md). model: 'gaussian' (or GaussianModel(noise_variance)), 'bernoulli' "
       "(logistic) or 'poisson' (log-linear). Omitted keywords keep the C++ defaults: warmup "
       "(Omega) = " +
       std::to_string(sad.warmup) + ", window (B) = " + std::to_string(sad.window) +
       ", inner_steps (N) = " + std::to_string(sad.inner_steps) +
       ", step_size (h) = " + detail::value_text(sad.step_size) +
       ", temperature (tau) = " + detail::value_text(sad.temperature) +
       ", prior_variance = " + detail::value_text(sad.prior_variance) +
       ", refit_per_dimension = " + std::to_string(sad.refit_per_dimension) +
       ", warm_start_max_iterations = " + std::to_string(sad.warm_start.max_iterations) +
       ", warm_start_tolerance = " + detail::value_text(sad.warm_start.tolerance) + ".")
          .c_str());

  const cx::ts_sgld_params sgd;
  m.def(
      "ts_sgld",
      [](Eigen::Index num_arms, Eigen::Index context_size, const py::object& model,
         std::optional<Eigen::Index> warmup, std::optional<Eigen::Index> batch_size,
         std::optional<Eigen::Index> inner_steps, std::optional<double> step_size,
         std::optional<double> temperature, std::optional<double> prior_variance,
         std::optional<Eigen::Index> warm_start_max_iterations,
         std::optional<double> warm_start_tolerance) {
        cx::ts_sgld_params p;
        apply_langevin(p, warmup, inner_steps, step_size, temperature, prior_variance,
                       warm_start_max_iterations, warm_start_tolerance);
        set_if(p.batch_size, batch_size);
        return dispatch_glm(model, "ts_sgld", [&](auto model_value) -> py::object {
          using Model = decltype(model_value);
          return py::cast(cx::ts_sgld<Model>(num_arms, context_size, p, model_value));
        });
      },
      py::arg("num_arms"), py::arg("context_size"), py::kw_only(), py::arg("model") = "gaussian",
      py::arg("warmup") = py::none(), py::arg("batch_size") = py::none(),
      py::arg("inner_steps") = py::none(), py::arg("step_size") = py::none(),
      py::arg("temperature") = py::none(), py::arg("prior_variance") = py::none(),
      py::arg("warm_start_max_iterations") = py::none(),
      py::arg("warm_start_tolerance") = py::none(),
      ("Contextual TS-SGLD over K arms (Langevin moves on a uniform mini-batch of each arm's "
       "history). model as for ts_sa(). Omitted keywords keep the C++ defaults: warmup = " +
       std::to_string(sgd.warmup) + ", batch_size = " + std::to_string(sgd.batch_size) +
       ", inner_steps = " + std::to_string(sgd.inner_steps) +
       ", step_size (h) = " + detail::value_text(sgd.step_size) +
       " (stable below 2 / the largest Fisher information "
       "of one reward: 1 / noise_variance, the mean count for 'poisson'), temperature = " +
       detail::value_text(sgd.temperature) +
       ", prior_variance = " + detail::value_text(sgd.prior_variance) + ".")
          .c_str());

  // ------------------------------------------------------------------------ environments
  py::class_<linear_gaussian_env> gaussian_env(
      m, "LinearGaussianEnv",
      "Rewards <x, theta*_a> + noise_sd N(0, 1) at contexts x = (z, 1), z ~ N(0, I).");
  gaussian_env.def(py::init([](const py::handle& theta, const py::handle& noise_sd) {
                     return cx::make_linear_gaussian_env(
                         real_matrix_of("theta", theta, kThetaShape),
                         real_of("noise_sd", noise_sd));
                   }),
                   py::arg("theta"), py::kw_only(), py::arg("noise_sd") = 1.0,
                   "theta: a d x K array of finite numbers (d >= 2: the last context coordinate is the "
      "constant 1); noise_sd: a float > 0, a keyword.");
  bind_contextual_env(gaussian_env);
  gaussian_env.def_property_readonly(
      "theta", [](const linear_gaussian_env& e) -> Eigen::MatrixXd { return e.theta(); });
  gaussian_env.def_property_readonly(
      "noise_sd", [](const linear_gaussian_env& e) { return e.rewards().noise_sd; });

  py::class_<logistic_env> logistic(
      m, "LogisticEnv",
      "Clicks of probability sigmoid(<x, theta*_a>) at contexts x = (z, 1), z ~ N(0, I).");
  logistic.def(py::init([](const py::handle& theta) {
                 return cx::make_logistic_env(real_matrix_of("theta", theta, kThetaShape));
               }),
               py::arg("theta"),
               "theta: a d x K array of finite numbers (d >= 2: the last context coordinate is the "
               "constant 1).");
  bind_contextual_env(logistic);
  logistic.def_property_readonly(
      "theta", [](const logistic_env& e) -> Eigen::MatrixXd { return e.theta(); });

  py::class_<classification_env> classification(
      m, "ClassificationEnv",
      "A classification dataset as a bandit: one arm per class, reward 1 for the label's arm; "
      "each trial plays the examples in its own random order.");
  classification.def(
      py::init([](const py::handle& features, const py::handle& labels,
                  const py::handle& num_classes) {
        const Eigen::MatrixXd x =
            real_matrix_of("features", features, "an n x p array of numbers, one row per example");
        const auto k = static_cast<Eigen::Index>(unsigned_of("num_classes", num_classes, 62));
        return classification_env(std::make_shared<const cx::classification_data>(
            cx::prepare_classification_data(x, labels_of(labels), k)));
      }),
      py::arg("features"), py::arg("labels"), py::arg("num_classes"),
      "features: an n x p array of finite numbers, one row per example (standardised, and the "
      "constant 1 appended, so context_size = p + 1); labels: n ints in [0, num_classes); "
      "num_classes: an int >= 2. Each trial plays the rows in a random order of its own, and a "
      "new one after every n rounds.");
  bind_contextual_env(classification);
}

}  // namespace sabandit::python
