#pragma once
// Shared pieces of the sabandit Python module (_sabandit): the binding of one policy type
// (select/update, save/restore, pickling, simulate) and the reward model written in Python.
// The library's headers are used as they are; nothing here changes what a policy decides.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <sabandit/sabandit.hpp>
#include <sabandit/sim.hpp>

namespace sabandit::python {

namespace py = pybind11;

/// The engine type of the Python API: sabandit::default_engine (xoshiro256++).
using engine = default_engine;

// ----------------------------------------------------------------------------- environments

/// The five environment types the module can simulate. Every function that takes an
/// environment tries them in this order.
using normal_env = bandit_env<normal_arm>;
using mixture_env = bandit_env<normal_mixture_arm>;
using bernoulli_env = bandit_env<bernoulli_arm>;
using poisson_env = bandit_env<poisson_arm>;
using exponential_env = bandit_env<exponential_arm>;

/// Calls `f(env)` with the C++ environment held by `obj`; TypeError if it holds none.
template <class F>
decltype(auto) with_env(const py::handle& obj, F&& f) {
  if (py::isinstance<normal_env>(obj)) return f(obj.cast<const normal_env&>());
  if (py::isinstance<mixture_env>(obj)) return f(obj.cast<const mixture_env&>());
  if (py::isinstance<bernoulli_env>(obj)) return f(obj.cast<const bernoulli_env&>());
  if (py::isinstance<poisson_env>(obj)) return f(obj.cast<const poisson_env&>());
  if (py::isinstance<exponential_env>(obj)) return f(obj.cast<const exponential_env&>());
  throw py::type_error("sabandit: env must be a NormalEnv, NormalMixtureEnv, BernoulliEnv, "
                       "PoissonEnv or ExponentialEnv, not " + std::string(py::str(py::type::of(obj))));
}

/// The reward model of a policy type (void for UCB, which has none).
template <class P>
struct policy_model {
  using type = void;
};
template <template <class...> class Policy, class Model, class... Rest>
struct policy_model<Policy<Model, Rest...>> {
  using type = Model;
};
/// Whether the module compiles sabandit.simulate of policy P on Env: a policy over durations
/// plays an ExponentialEnv only, and policies over outcomes and counts play every environment
/// but that one (every other environment can have rewards <= 0, and durations are neither
/// outcomes nor counts: each such pairing raises at its first reward outside the model's
/// support). Compiling them would add a fifth of the module's build time for nothing.
/// SABANDIT_PYTHON_CONJUGATE_SIMULATIONS lists the same pairs, which its instantiations check.
template <class P, class Env>
inline constexpr bool simulated =
    std::is_same_v<typename policy_model<P>::type, exponential_model>
        ? std::is_same_v<Env, exponential_env>
        : !(std::is_same_v<Env, exponential_env> &&
            (std::is_same_v<typename policy_model<P>::type, bernoulli_model> ||
             std::is_same_v<typename policy_model<P>::type, poisson_model>));

// ------------------------------------------------------------------- a model written in Python

/// A Python object shared by copies of a policy. Copies and the last release may happen on the
/// simulator's threads, without the GIL: the shared_ptr's count is atomic, and the deleter takes
/// the GIL before it drops the Python reference.
class shared_object {
 public:
  explicit shared_object(py::object obj)
      : ptr_(new py::object(std::move(obj)), [](py::object* p) {
          py::gil_scoped_acquire gil;
          delete p;
        }) {}
  [[nodiscard]] const py::object& get() const noexcept { return *ptr_; }

 private:
  std::shared_ptr<py::object> ptr_;
};

/// A RewardModel whose methods are those of a Python object (see docs/python.md):
///   mean(phi, theta) -> float, log_likelihood(x, phi, theta) -> float,
///   grad_log_likelihood(xs, phi, theta) -> array of d floats (the gradient of the MEAN
///   log-likelihood over the window xs), and optionally validate_reward(x) (raise ValueError)
///   and information(phi, theta) -> float (the Fisher information of one reward about eta);
///   a default_prior() -> (mean, variance) is read by the policies' functions (langevin.cpp).
/// It always has an information member (a FisherInformationModel): the object's method, or,
/// where it has none, the observed information that fisher_information would compute, the same
/// calls and the same bits.
/// Every call takes the GIL and copies its vectors into new numpy arrays: slow, but it works
/// from the simulator's threads too.
class python_model {
 public:
  explicit python_model(py::object obj)
      : obj_(std::move(obj)),
        validates_(py::hasattr(obj_.get(), "validate_reward")),
        informs_(py::hasattr(obj_.get(), "information")) {
    for (const char* name : {"mean", "log_likelihood", "grad_log_likelihood"}) {
      if (!py::hasattr(obj_.get(), name))
        throw py::type_error(std::string("sabandit: a reward model written in Python needs a "
                                         "method ") + name + "; see docs/python.md");
    }
    warn_unused_methods();
  }

  [[nodiscard]] const py::object& object() const noexcept { return obj_.get(); }

  [[nodiscard]] double mean(const vector_cref& phi, const vector_cref& theta) const {
    py::gil_scoped_acquire gil;
    return finite("mean", returned<double>("mean", obj_.get().attr("mean")(array(phi), array(theta)),
                                           "a float"));
  }
  [[nodiscard]] double log_likelihood(double x, const vector_cref& phi,
                                      const vector_cref& theta) const {
    py::gil_scoped_acquire gil;
    return returned<double>("log_likelihood",
                            obj_.get().attr("log_likelihood")(x, array(phi), array(theta)), "a float");
  }
  void grad_log_likelihood(const vector_cref& xs, const vector_cref& phi,
                           const vector_cref& theta, vector_ref grad) const {
    py::gil_scoped_acquire gil;
    const py::object result =
        obj_.get().attr("grad_log_likelihood")(array(xs), array(phi), array(theta));
    // Real numbers only: the cast to doubles dropped a complex gradient's imaginary part with
    // only numpy's ComplexWarning (a probe's finding), and took bools and objects as numbers.
    if (py::isinstance<py::array>(result)) {
      const py::dtype dtype = result.cast<py::array>().dtype();
      if (dtype.kind() != 'f' && dtype.kind() != 'i' && dtype.kind() != 'u')
        throw py::type_error("sabandit: the model's grad_log_likelihood returned an array of dtype " +
                             std::string(py::str(static_cast<const py::handle&>(dtype))) +
                             ", not a 1-D array of d floats");
    }
    const auto g = returned<Eigen::VectorXd>("grad_log_likelihood", result, "a 1-D array of d floats");
    if (g.size() != grad.size())
      detail::throw_invalid("grad_log_likelihood(...).size", g.size(),
                            "must equal the dimension d = " + std::to_string(grad.size()));
    grad = g;
  }
  [[nodiscard]] double information(const vector_cref& phi, const vector_cref& theta) const {
    if (!informs_) {
      // Scratch of its own: a Python call costs microseconds, these allocations far less.
      Eigen::VectorXd shifted(phi.size()), grad(phi.size());
      return detail::observed_information(*this, phi, theta, shifted, grad);
    }
    py::gil_scoped_acquire gil;
    return returned<double>("information",
                            obj_.get().attr("information")(array(phi), array(theta)), "a float");
  }
  /// Whether the object has its own information method.
  [[nodiscard]] bool informs() const noexcept { return informs_; }
  void validate_reward(double x) const {
    if (!validates_) return;
    py::gil_scoped_acquire gil;
    obj_.get().attr("validate_reward")(x);
  }

  /// "python": the model's own state stays in Python (pickled beside the policy's text).
  [[nodiscard]] static std::string state_name() { return "python"; }
  template <class Self, class Archive>
  static void persist(Self& /*self*/, Archive& /*ar*/) {}

 private:
  // A UserWarning naming the methods of C++'s optional model members that the object has and
  // no policy reads from Python: a probe's model defined `information`, which was then never
  // called, and nothing said so (it is read now; these are not).
  void warn_unused_methods() const {
    std::string unused;
    for (const char* name : {"default_pseudo_rewards",
                             "grad_log_likelihood_at_mean", "link", "map_estimate",
                             "reward_range", "divergence"}) {
      if (py::hasattr(obj_.get(), name)) unused += (unused.empty() ? "" : ", ") + std::string(name);
    }
    if (unused.empty()) return;
    const std::string message =
        "sabandit: a reward model written in Python is read through mean, log_likelihood, "
        "grad_log_likelihood, validate_reward, information and default_prior only; its " +
        unused +
        " will not be called (docs/python.md, \"A reward model written in Python\")";
    // stacklevel 2: the caller of sabandit's wrapper (python/sabandit/__init__.py), the user's line.
    if (PyErr_WarnEx(PyExc_UserWarning, message.c_str(), 2) != 0) throw py::error_already_set();
  }

  static py::array_t<double> array(const vector_cref& v) {
    return py::array_t<double>(v.size(), v.data());  // a copy the Python code may keep
  }
  // What a model method returned, as T; TypeError naming the method where it is not one
  // (pybind11's own cast_error is a RuntimeError that names neither).
  template <class T>
  static T returned(const char* method, const py::object& result, const char* expected) {
    try {
      return result.cast<T>();
    } catch (const py::cast_error&) {
      throw py::type_error(std::string("sabandit: the model's ") + method + " returned " +
                           std::string(py::repr(result)) + ", not " + expected);
    }
  }
  static double finite(const char* what, double value) {
    if (!std::isfinite(value)) detail::throw_invalid(std::string(what) + "(...)", value, "must be finite");
    return value;
  }

  shared_object obj_;
  bool validates_;
  bool informs_;
};

static_assert(RewardModel<python_model> && FisherInformationModel<python_model>);

// ------------------------------------------------------------------------- policy bindings

/// sabandit.simulate's result: numpy arrays (docs/python.md).
struct simulation_result {
  py::array_t<std::int64_t> rounds;
  py::array_t<double> mean_regret, standard_error, optimal_fraction, final_regrets;
  py::array_t<std::int64_t> pulls;  // trials x K
  std::int64_t trials = 0;
};

/// Refuses a call into a policy while another call into it runs (RuntimeError; the policy is then
/// unchanged). A call can be interleaved only where it runs Python code, a reward model written in
/// Python: the interpreter may then hand the GIL to another thread, or the model may call the
/// policy itself. Without this, a restore() there frees the buffers the running update writes to.
/// Marked and checked under the GIL, which every entry point holds.
class exclusive_use {
 public:
  explicit exclusive_use(const void* policy) : policy_(policy) {
    auto& busy = in_use();
    if (std::find(busy.begin(), busy.end(), policy) != busy.end())
      throw std::runtime_error(
          "sabandit: this policy is in use by another call (another thread, or its reward "
          "model's own code); a policy serves one caller at a time: give each thread a copy()");
    busy.push_back(policy);
  }
  ~exclusive_use() {
    auto& busy = in_use();
    *std::find(busy.begin(), busy.end(), policy_) = busy.back();
    busy.pop_back();
  }
  exclusive_use(const exclusive_use&) = delete;
  exclusive_use& operator=(const exclusive_use&) = delete;

 private:
  // The policies in a call now: one per thread inside a call, a handful at most, so a vector
  // (no allocation per call once it has grown) searched linearly. One for the whole module.
  static std::vector<const void*>& in_use() {
    static std::vector<const void*> policies;
    return policies;
  }
  const void* policy_;
};

/// `call(copy of gen)`, keeping the copy's draws only if it returns: a call that raises (a
/// reward model written in Python that fails midway, a diverging chain) leaves the engine as it
/// was too, so a retry makes the decisions of a run without the error.
template <class Call>
decltype(auto) drawing_on_success(engine& gen, Call&& call) {
  engine draws = gen;
  if constexpr (std::is_void_v<decltype(call(draws))>) {
    call(draws);
    gen = draws;
  } else {
    auto result = call(draws);
    gen = draws;
    return result;
  }
}

/// A copy of `policy`, taken under exclusive_use.
template <class P>
P copy_of(const P& policy) {
  const exclusive_use use(&policy);
  return policy;
}

/// `run(config)` (a simulate call) on a thread of its own, with the GIL released, while this one
/// checks for Python's signals every 50 ms: Ctrl-C stops the run within a round (run_config::
/// stop) and raises KeyboardInterrupt, where it used to wait for the run's end.
template <class Run>
std::invoke_result_t<Run&, const run_config&> simulate_interruptibly(Run run, run_config config) {
  std::stop_source stop;
  config.stop = stop.get_token();
  bool interrupted = false;
  auto result = std::async(std::launch::async, [&] { return run(config); });
  {
    py::gil_scoped_release release;
    while (result.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready) {
      py::gil_scoped_acquire gil;
      if (!interrupted && PyErr_CheckSignals() != 0) {  // a handler raised (KeyboardInterrupt)
        interrupted = true;
        stop.request_stop();
      }
    }
  }
  if (interrupted) {
    try {
      (void)result.get();  // stopped, finished or failed meanwhile: the signal wins either way
    } catch (...) {  // NOLINT(bugprone-empty-catch): what the run threw is superseded
    }
    throw py::error_already_set();
  }
  return result.get();
}

/// Pull counts as both simulators' results hold them: int64, trials x K, `count(t, a)` the pulls
/// of arm a in trial t.
template <class Count>
py::array_t<std::int64_t> pull_counts(Eigen::Index trials, Eigen::Index arms, Count count) {
  py::array_t<std::int64_t> pulls({static_cast<py::ssize_t>(trials), static_cast<py::ssize_t>(arms)});
  for (Eigen::Index t = 0; t < trials; ++t) {
    for (Eigen::Index a = 0; a < arms; ++a) {
      pulls.mutable_at(static_cast<py::ssize_t>(t), static_cast<py::ssize_t>(a)) = count(t, a);
    }
  }
  return pulls;
}

/// A regret curve as numpy arrays: rounds (int64), mean_regret, standard_error,
/// optimal_fraction, final_regrets, and trials (pulls left empty). Shared by both simulators.
inline simulation_result curve_arrays(const regret_curve& curve) {
  simulation_result r;
  const auto n = static_cast<py::ssize_t>(curve.rounds.size());
  r.rounds = py::array_t<std::int64_t>(n);
  for (py::ssize_t i = 0; i < n; ++i) r.rounds.mutable_at(i) = curve.rounds[static_cast<std::size_t>(i)];
  r.mean_regret = py::array_t<double>(n, curve.mean_regret.data());
  r.standard_error = py::array_t<double>(n, curve.standard_error.data());
  r.optimal_fraction = py::array_t<double>(n, curve.optimal_fraction.data());
  r.final_regrets = py::array_t<double>(static_cast<py::ssize_t>(curve.final_regrets.size()),
                                        curve.final_regrets.data());
  r.trials = curve.trials;
  return r;
}

/// Runs sabandit::simulate for copies of `prototype` on `env`, with the GIL released.
/// `prototype` is the caller's own copy (copy_of): the Python object it came from may change,
/// or be restored, by another thread while this runs.
template <class P, class Env>
simulation_result simulate_copies(const P& prototype, const Env& env, Eigen::Index horizon,
                                  Eigen::Index trials, std::uint64_t seed, unsigned threads,
                                  Eigen::Index record_points, Eigen::Index feedback_batch) {
  const run_config config{.horizon = horizon, .trials = trials, .seed = seed, .threads = threads,
                          .record_points = record_points, .feedback_batch = feedback_batch};
  detail::validate(config);
  if (prototype.num_arms() != env.num_arms())
    detail::throw_invalid("policy.num_arms", prototype.num_arms(),
                          "must equal env.num_arms = " + std::to_string(env.num_arms()));
  regret_curve curve = simulate_interruptibly([&](const run_config& c) {
    return simulate(env, [&](Eigen::Index) { return prototype; }, c);
  }, config);
  simulation_result r = curve_arrays(curve);
  // Each trial's pulls (trial_record::pulls), a row of the trials x K array.
  r.pulls = pull_counts(static_cast<Eigen::Index>(curve.per_trial.size()), env.num_arms(),
                        [&](Eigen::Index t, Eigen::Index a) {
                          return curve.per_trial[static_cast<std::size_t>(t)]
                              .pulls[static_cast<std::size_t>(a)];
                        });
  r.trials = curve.trials;
  return r;
}

/// X(P, Env) for each policy bound in conjugate.cpp and each environment type: the
/// simulate_copies that conjugate_simulations.cpp compiles and conjugate.cpp declares extern, so
/// that their round loops are compiled apart from the bindings (see python/CMakeLists.txt).
#define SABANDIT_PYTHON_CONJUGATE_SIMULATIONS(X)                                         \
  SABANDIT_PYTHON_FOR_MODELS(X, thompson)                                                \
  SABANDIT_PYTHON_FOR_MODELS(X, epsilon_ts)                                              \
  SABANDIT_PYTHON_FOR_MODELS(X, kl_ucb)
#define SABANDIT_PYTHON_FOR_MODELS(X, Policy)                                            \
  SABANDIT_PYTHON_FOR_ENVS(X, Policy<gaussian_model>)                                    \
  X(Policy<gaussian_model>, exponential_env)                                             \
  SABANDIT_PYTHON_FOR_ENVS(X, Policy<bernoulli_model>)                                   \
  SABANDIT_PYTHON_FOR_ENVS(X, Policy<poisson_model>)                                     \
  X(Policy<exponential_model>, exponential_env)
#define SABANDIT_PYTHON_FOR_ENVS(X, P) \
  X(P, normal_env) X(P, mixture_env) X(P, bernoulli_env) X(P, poisson_env)
/// The explicit instantiation of simulate_copies<P, Env>; `extern` before it declares it.
#define SABANDIT_PYTHON_SIMULATE_COPIES(P, Env)                                          \
  template simulation_result simulate_copies(const P&, const Env&, Eigen::Index,         \
                                             Eigen::Index, std::uint64_t, unsigned,      \
                                             Eigen::Index, Eigen::Index);                \
  static_assert(simulated<P, Env>);

/// Per-arm counts that the C++ policies keep as doubles (whole numbers, exact below 2^53) as
/// numpy's int64, as SimulationResult.pulls.
inline py::array_t<std::int64_t> int64_array(const Eigen::ArrayXd& counts) {
  py::array_t<std::int64_t> out(counts.size());
  for (Eigen::Index a = 0; a < counts.size(); ++a)
    out.mutable_at(a) = static_cast<std::int64_t>(counts(a));
  return out;
}

/// Whether `value` is a bool, Python's or numpy's: both index as 0 or 1, and neither is an
/// arm or a seed.
inline bool is_bool(const py::handle& value) {
  static const py::handle numpy_bool =  // numpy is loaded with the module; never released
      py::object(py::module_::import("numpy").attr("bool_")).release();
  return PyBool_Check(value.ptr()) || py::isinstance(value, numpy_bool);
}

/// operator.index(value) for the integer argument `name`: TypeError naming it for a bool or a
/// value that is not an integer. Another error of __index__ (an OverflowError of its own, a
/// KeyboardInterrupt) goes on as it was raised. Shared by arm_of and unsigned_of.
inline py::object index_of(std::string_view name, const py::handle& value) {
  const auto shown = [&] {
    return "sabandit: " + std::string(name) + " = " + std::string(py::repr(value));
  };
  if (is_bool(value)) throw py::type_error(shown() + " (must be an int, not a bool)");
  auto index = py::reinterpret_steal<py::object>(PyNumber_Index(value.ptr()));
  if (!index) {
    if (PyErr_Occurred() != nullptr && !PyErr_ExceptionMatches(PyExc_TypeError))
      throw py::error_already_set();
    PyErr_Clear();
    throw py::type_error(shown() + " (must be an int, not " +
                         std::string(py::str(py::type::of(value).attr("__name__"))) + ")");
  }
  return index;
}

/// A d x K array argument (features, theta): a 1-D array is refused by name, since Eigen's
/// conversion made it one column, one arm of dimension its length, where a user meant one
/// value per arm (K arms of d = 1 is reshape(1, K)).
inline Eigen::MatrixXd matrix_of(const std::string& name,
                                 const py::array_t<double, py::array::forcecast>& array) {
  if (array.ndim() != 2)
    detail::throw_invalid(name + ".ndim", static_cast<Eigen::Index>(array.ndim()),
                          "must be 2: a d x K array (K arms of d = 1: reshape(1, K))");
  return array.cast<Eigen::MatrixXd>();
}

/// An arm from Python: an int, or what stands for one (a numpy integer, a 0-d integer array:
/// operator.index). pybind11's own conversion, int(x), also took True as arm 1, 1.0 and
/// np.array([1]): a swapped argument (update(clicked, arm, ...)) then played on silently.
inline Eigen::Index arm_of(const py::handle& arm) {
  const py::object index = index_of("arm", arm);
  int overflow = 0;
  const long long value = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
  if (overflow != 0)
    throw py::index_error("sabandit: arm = " + std::string(py::repr(index)) + " (out of range)");
  return static_cast<Eigen::Index>(value);
}

/// An unsigned integer argument from Python (a seed, a count), named `name`, of `bits` bits:
/// index_of's int; ValueError naming the range for a value outside [0, 2**bits). pybind11's own
/// conversion said only "incompatible function arguments" and named no argument.
inline std::uint64_t unsigned_of(std::string_view name, const py::handle& value, int bits = 64) {
  const py::object index = index_of(name, value);
  const auto limit = py::reinterpret_steal<py::object>(
      PyNumber_Lshift(py::int_(1).ptr(), py::int_(bits).ptr()));
  if (index < py::int_(0) || !(index < limit)) {
    // An int of thousands of digits is shown by its size (repr would pass Python's limit).
    const auto length = index.attr("bit_length")().cast<std::size_t>();
    const std::string shown = length <= 256 ? std::string(py::repr(index))
                                            : "an int of " + std::to_string(length) + " bits";
    throw py::value_error("sabandit: invalid argument: " + std::string(name) + " = " + shown +
                          " (must be an int in [0, 2**" + std::to_string(bits) + "))");
  }
  return index.cast<std::uint64_t>();
}

/// A reward from Python: a number, or a 0-d array (a bool is 0 or 1); an array of one reward
/// or more is refused, where float() took np.array([1.0]) as 1.0.
inline double reward_of(const py::handle& reward) {
  if (py::isinstance<py::array>(reward) && reward.cast<py::array>().ndim() != 0)
    throw py::type_error("sabandit: reward = " + std::string(py::repr(reward)) +
                         " (must be one number, not an array)");
  const double value = PyFloat_AsDouble(reward.ptr());
  if (value == -1.0 && PyErr_Occurred()) {
    // An int past a double's range is a number, just too large (10**400 was "not a number",
    // with its 400 digits): a ValueError, as for inf, quoting the start of it.
    const bool too_large = PyErr_ExceptionMatches(PyExc_OverflowError) != 0;
    PyErr_Clear();
    const std::string text = sabandit::printable(std::string(py::repr(reward)));
    if (too_large)
      throw py::value_error("sabandit: reward = " + text +
                            " is beyond a double's range (must be finite)");
    throw py::type_error("sabandit: reward = " + text + " (must be a number, not " +
                         std::string(py::str(py::type::of(reward).attr("__name__"))) + ")");
  }
  return value;
}

/// The saved text of a policy (docs/state-format.md), under exclusive_use.
template <class P>
std::string saved_text(const P& policy) {
  const exclusive_use use(&policy);
  std::ostringstream out;
  sabandit::state::save(out, policy);
  return out.str();
}

/// A str or bytes argument as text.
inline std::string text_of(const py::handle& state) {
  if (py::isinstance<py::bytes>(state)) return std::string(state.cast<py::bytes>());
  if (py::isinstance<py::str>(state)) return state.cast<std::string>();
  throw py::type_error("sabandit: a saved state is str or bytes, not " +
                       std::string(py::str(py::type::of(state))));
}

/// Restores `policy` from `text`, which holds one saved state and nothing after it (C++'s
/// restore reads a stream, where more may follow; a str holds one state). Lines may end in
/// CRLF, as after a Windows editor or transfer: the state was saved with LF, which its checksum
/// covers. `policy` is unchanged on any error (ValueError).
template <class P>
void restore_text(P& policy, std::string text) {
  for (std::size_t at = text.find("\r\n"); at != std::string::npos; at = text.find("\r\n", at))
    text.erase(at, 1);
  std::istringstream in(text);
  P candidate = policy;
  sabandit::state::restore(in, candidate);
  in >> std::ws;
  if (!in.eof())
    throw std::invalid_argument("sabandit: cannot restore: the text goes on after the saved state (" +
                                std::to_string(text.size() - static_cast<std::size_t>(in.tellg())) +
                                " more characters); restore() takes one state");
  policy = std::move(candidate);
}

/// The shape (d, K) of the policy saved in `text`: from its `features d K ...` field (the
/// Langevin policies), else its `num_arms K` field, nested or not, with d its `context_size`
/// (the contextual policies) or 1. Restore accepts only a target of the saved shape
/// (docs/state-format.md), so unpickling and sabandit.restored build their blank with it; 1
/// for a field that is not there (restore then reports what is wrong with the text).
inline std::pair<Eigen::Index, Eigen::Index> saved_shape(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  long long d = 1, k = 0;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string name;
    long long first = 0, second = 0;
    fields >> name;
    if (name == "features" && (fields >> first >> second) && first >= 1 && second >= 1)
      return {first, second};
    const bool arms = name == "num_arms" || name.ends_with(".num_arms");  // epsilon_ts: ts.
    if (arms && k == 0 && (fields >> first) && first >= 1) k = first;
    if (name == "context_size" && (fields >> first) && first >= 1) d = first;
  }
  return {d, k == 0 ? 1 : k};
}

/// A policy restored from `text` into a copy of `blank` (restore rebuilds it from the saved
/// parameters, so any blank of the right type and shape will do).
template <class P>
P restored(P blank, const std::string& text) {
  restore_text(blank, text);
  return blank;
}

/// What sabandit.restored reads: for each policy class pickled by its saved text (text_pickle),
/// its saved type name (P::state_name(), the header's last token) and a function that makes the
/// policy a saved text describes. One table for the module (an inline function's static).
inline std::unordered_map<std::string, std::function<py::object(const std::string&)>>&
restorers() {
  static std::unordered_map<std::string, std::function<py::object(const std::string&)>> table;
  return table;
}

/// Pickling by the saved text: `blank(d, K)` makes a policy of type P and of the saved shape
/// (saved_shape) to restore into. Also registers P with sabandit.restored (restorers), which
/// rebuilds it the same way.
template <class P, class Blank>
auto text_pickle(Blank blank) {
  restorers()[P::state_name()] = [blank](const std::string& text) {
    const auto [d, k] = saved_shape(text);
    return py::cast(restored(blank(d, k), text));
  };
  return py::pickle([](const P& p) { return py::make_tuple(saved_text(p)); },
                    [blank](const py::tuple& t) {
                      if (t.size() != 1) throw std::invalid_argument("sabandit: bad pickled state");
                      const std::string text = text_of(t[0]);
                      const auto [d, k] = saved_shape(text);
                      return restored(blank(d, k), text);
                    });
}

/// The checkpoint members of every policy class, multi-armed and contextual: save, save_bytes,
/// restore, copy, copy.copy and copy.deepcopy (`copy_doc` says what a copy replays).
template <class P>
void def_checkpoints(py::class_<P>& cls, const char* copy_doc) {
  cls.def("save", [](const P& p) { return saved_text(p); },
          "The complete state as versioned text (docs/state-format.md).")
      .def("save_bytes", [](const P& p) { return py::bytes(saved_text(p)); }, "save() as bytes.")
      .def("restore", [](P& p, const py::handle& state) {
        const std::string text = text_of(state);
        const exclusive_use use(&p);
        restore_text(p, text);
      },
           py::arg("state"),
           "Becomes the policy saved in `state` (str or bytes). ValueError for a truncated, "
           "altered or other-type state; the policy is then unchanged.")
      .def("copy", [](const P& p) { return copy_of(p); }, copy_doc)
      .def("__copy__", [](const P& p) { return copy_of(p); })
      .def("__deepcopy__", [](const P& p, const py::handle&) { return copy_of(p); }, py::arg("memo"));
}

/// The members every policy class has: num_arms, select, update, pulls, save/restore, copy,
/// _simulate, and pickling by `pickling` (text_pickle for the built-in models).
template <class P, class Pickling>
py::class_<P> bind_policy(py::module_& m, const char* name, const char* doc, Pickling pickling) {
  py::class_<P> cls(m, name, doc);
  def_checkpoints(cls, "A checkpoint: the same decisions for the same engine state.");
  cls.def_property_readonly("num_arms", [](const P& p) { return p.num_arms(); }, "K, the number of arms")
      .def("select", [](P& p, engine& gen) {
        const exclusive_use use(&p);
        return drawing_on_success(gen, [&](engine& g) { return p.select(g); });
      }, py::arg("engine"),
           "The arm to play, in [0, K), drawing from `engine` (unchanged if it raises).")
      .def("update", [](P& p, const py::handle& arm, const py::handle& reward, engine& gen) {
        const Eigen::Index a = arm_of(arm);
        const double x = reward_of(reward);
        const exclusive_use use(&p);
        drawing_on_success(gen, [&](engine& g) { p.update(a, x, g); });
      },
           py::arg("arm"), py::arg("reward"), py::arg("engine"),
           "Learns `reward` of `arm`. IndexError for a bad arm, ValueError for a reward that is "
           "not finite or outside the model's support; the policy and the engine are then unchanged.")
      .def_property_readonly("pulls", [](const P& p) {
        return int64_array(p.statistics().counts());
      }, "Pulls per arm so far (int64 array of K).")
      .def_property_readonly("awaiting", [](const P& p) {
        const arm_statistics& stats = p.statistics();
        Eigen::ArrayXd awaiting(stats.num_arms());
        for (Eigen::Index a = 0; a < stats.num_arms(); ++a) awaiting(a) = stats.awaiting(a);
        return int64_array(awaiting);
      }, "Warm-up selections per arm whose rewards have not arrived (int64 array of K): the "
         "warm-up plays the arm with the fewest rewards and awaited selections, so a batch of "
         "selections before any reward plays every arm.")
      .def("__repr__", [name = std::string(name)](const P& p) {
        return "<sabandit." + name + ": K = " + std::to_string(p.num_arms()) + ", " +
               std::to_string(p.statistics().total()) + " pulls>";
      })
      .def(std::move(pickling))
      .def("_simulate", [](const P& p, const py::object& env, Eigen::Index horizon, Eigen::Index trials,
                           const py::handle& seed, const py::handle& threads,
                           Eigen::Index record_points, Eigen::Index feedback_batch) {
        const std::uint64_t s = unsigned_of("seed", seed);
        const auto n = static_cast<unsigned>(unsigned_of("threads", threads, 32));
        return with_env(env, [&](const auto& e) -> simulation_result {
          if constexpr (simulated<P, std::decay_t<decltype(e)>>) {
            return simulate_copies(copy_of(p), e, horizon, trials, s, n, record_points,
                                   feedback_batch);
          } else {
            throw py::type_error("sabandit: " + std::string(py::str(py::type::of(env))) +
                                 " has rewards this policy's model refuses: a policy over "
                                 "durations plays an ExponentialEnv, and one over outcomes or "
                                 "counts any other environment");
          }
        });
      }, py::arg("env"), py::arg("horizon"), py::arg("trials"), py::arg("seed"), py::arg("threads"),
         py::arg("record_points"), py::arg("feedback_batch"));
  return cls;
}

// ---------------------------------------------------------------- keyword-argument helpers

/// `target = *value` when the keyword was given.
template <class T, class U>
void set_if(T& target, const std::optional<U>& value) {
  if (value) target = static_cast<T>(*value);
}

inline initialisation parse_init(const std::string& s) {
  if (s == "warm_start") return initialisation::warm_start;
  if (s == "prior") return initialisation::prior;
  detail::throw_invalid("init", s, "must be 'warm_start' or 'prior'");
}
inline step_metric parse_metric(const std::string& s) {
  if (s == "fisher") return step_metric::fisher;
  if (s == "identity") return step_metric::identity;
  detail::throw_invalid("metric", s, "must be 'fisher' or 'identity'");
}
inline const char* init_name(initialisation i) {
  return i == initialisation::prior ? "prior" : "warm_start";
}
inline const char* metric_name(step_metric s) {
  return s == step_metric::fisher ? "fisher" : "identity";
}

/// Which built-in model a `model=` argument names: a string or a GaussianModel, BernoulliModel,
/// PoissonModel or ExponentialModel; any other object is a model written in Python.
enum class model_kind { gaussian, bernoulli, poisson, exponential, python };
inline model_kind kind_of(const py::object& model) {
  if (py::isinstance<py::str>(model)) {
    const auto name = model.cast<std::string>();
    if (name == "gaussian") return model_kind::gaussian;
    if (name == "bernoulli") return model_kind::bernoulli;
    if (name == "poisson") return model_kind::poisson;
    if (name == "exponential") return model_kind::exponential;
    detail::throw_invalid("model", name,
                          "must be 'gaussian', 'bernoulli', 'poisson', 'exponential' or a model object");
  }
  if (py::isinstance<gaussian_model>(model)) return model_kind::gaussian;
  if (py::isinstance<bernoulli_model>(model)) return model_kind::bernoulli;
  if (py::isinstance<poisson_model>(model)) return model_kind::poisson;
  if (py::isinstance<exponential_model>(model)) return model_kind::exponential;
  return model_kind::python;
}
/// The Gaussian model a `model=` argument names ("gaussian": noise variance 1).
inline gaussian_model gaussian_of(const py::object& model) {
  return py::isinstance<py::str>(model) ? gaussian_model{} : model.cast<gaussian_model>();
}

/// Registration functions, one per translation unit (compiled apart: each instantiates many
/// policies).
void bind_core(py::module_& m);
void bind_conjugate(py::module_& m);
void bind_langevin(py::module_& m);
void bind_check_model(py::module_& m);
void bind_contextual(py::module_& m);

}  // namespace sabandit::python
