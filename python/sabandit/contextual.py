"""sabandit.contextual: contextual bandits from the C++ library (sabandit::contextual), where a
context (a vector of context_size floats) arrives every round: LinUCB, linear Thompson sampling,
epsilon-greedy over ridge estimates, Laplace-approximate TS, contextual TS-SA and TS-SGLD over
the Gaussian, Bernoulli (logistic) and Poisson (log-linear) models, and the uniform reference;
the linear and logistic environments, a classification dataset as a bandit, and the simulator.

    import numpy as np
    import sabandit
    from sabandit import contextual
    policy = contextual.ts_sa(3, 4, model="bernoulli")  # K = 3 arms, contexts of 4 floats
    engine = sabandit.Engine(2026)
    x = np.array([0.2, -1.0, 0.5, 1.0])
    arm = policy.select(x, engine)
    policy.update(x, arm, 1.0, engine)                   # C++'s order: context, arm, reward

Each arm has its own parameters (the disjoint feature map); a shared feature map is a C++
function, not offered here. docs/python.md ("Contextual bandits") is the guide, and
docs/contextual.md describes the policies and their defaults.
"""
import dataclasses as _dataclasses

import numpy as _numpy

from . import _FACTORY_MESSAGE, _arguments_checked, _check_number, _harden, _sabandit

_native = _sabandit.contextual
_PREFIX = "sabandit.contextual."  # how messages name this module's classes and functions

# The classes, one per (policy, model); each is made by its function below.
LinUCB = _native.LinUCB
LinearTS = _native.LinearTS
EpsilonGreedyRidge = _native.EpsilonGreedyRidge
UniformRandom = _native.UniformRandom
TSSAGaussian, TSSABernoulli, TSSAPoisson = (
    _native.TSSAGaussian, _native.TSSABernoulli, _native.TSSAPoisson)
TSSGLDGaussian, TSSGLDBernoulli, TSSGLDPoisson = (
    _native.TSSGLDGaussian, _native.TSSGLDBernoulli, _native.TSSGLDPoisson)
LaplaceTSGaussian, LaplaceTSBernoulli, LaplaceTSPoisson = (
    _native.LaplaceTSGaussian, _native.LaplaceTSBernoulli, _native.LaplaceTSPoisson)
LinearGaussianEnv = _native.LinearGaussianEnv
LogisticEnv = _native.LogisticEnv
ClassificationEnv = _native.ClassificationEnv

#: The contextual policy classes.
POLICY_TYPES = (LinUCB, LinearTS, EpsilonGreedyRidge, UniformRandom,
                TSSAGaussian, TSSABernoulli, TSSAPoisson,
                TSSGLDGaussian, TSSGLDBernoulli, TSSGLDPoisson,
                LaplaceTSGaussian, LaplaceTSBernoulli, LaplaceTSPoisson)
#: The contextual environments.
ENV_TYPES = (LinearGaussianEnv, LogisticEnv, ClassificationEnv)

# Which function makes each class (the class itself has no constructor).
_FACTORIES = (("TSSGLD", "ts_sgld"), ("TSSA", "ts_sa"), ("LaplaceTS", "laplace_ts"),
              ("LinUCB", "linucb"), ("LinearTS", "linear_ts"),
              ("EpsilonGreedyRidge", "epsilon_greedy_ridge"), ("UniformRandom", "uniform_random"))


def _made_by_its_function(self, *args, **kwargs):
    name = type(self).__name__
    prefix, factory = next((p, f) for p, f in _FACTORIES if name.startswith(p))
    model = name[len(prefix):].lower()
    keyword = f', model="{model}"' if model else ""
    call = f"sabandit.contextual.{factory}(num_arms, context_size{keyword})"
    raise TypeError(_FACTORY_MESSAGE.format(name=f"contextual.{name}", call=call))


for _type in POLICY_TYPES:
    _type.__init__ = _made_by_its_function
_harden(_native, _PREFIX)

linucb = _arguments_checked(_native.linucb, _PREFIX)
linear_ts = _arguments_checked(_native.linear_ts, _PREFIX)
epsilon_greedy_ridge = _arguments_checked(_native.epsilon_greedy_ridge, _PREFIX)
uniform_random = _arguments_checked(_native.uniform_random, _PREFIX)
laplace_ts = _arguments_checked(_native.laplace_ts, _PREFIX)
ts_sa = _arguments_checked(_native.ts_sa, _PREFIX)
ts_sgld = _arguments_checked(_native.ts_sgld, _PREFIX)


@_dataclasses.dataclass(frozen=True, eq=False)
class SimulationResult:
    """What contextual.simulate() returns: numpy arrays over the recorded rounds and per trial."""
    rounds: _numpy.ndarray            #: recorded rounds (int64, points; the last is the horizon)
    mean_regret: _numpy.ndarray       #: mean cumulative pseudo-regret over trials (float64, points)
    standard_error: _numpy.ndarray    #: its standard error (float64, points)
    optimal_fraction: _numpy.ndarray  #: mean fraction of rounds whose arm had the best mean
    final_regrets: _numpy.ndarray     #: each trial's cumulative regret at the horizon (trials)
    trial_regret: _numpy.ndarray      #: each trial's cumulative regret (points x trials)
    pulls: _numpy.ndarray             #: each trial's pulls of each arm (int64, trials x K)
    trials: int

    @property
    def final_regret(self):
        """mean_regret[-1]"""
        return float(self.mean_regret[-1])

    @property
    def final_standard_error(self):
        """standard_error[-1]"""
        return float(self.standard_error[-1])

    def __repr__(self):
        return (f"<sabandit.contextual.SimulationResult: {self.trials} trials of "
                f"{int(self.rounds[-1])} rounds, final regret {self.final_regret:.4g} +- "
                f"{self.final_standard_error:.2g}>")


def simulate(env, policy, *, horizon=10_000, trials=50, seed=1, threads=0, record_points=100,
             feedback_batch=1):
    """Runs `trials` independent trials of `horizon` rounds of copies of `policy` on `env` with
    the C++ simulator (sabandit::contextual::simulate), the GIL released, and returns a
    SimulationResult. Each round the environment draws a context, the policy selects an arm
    and learns its reward; the round's pseudo-regret is the best mean at that context minus the
    chosen arm's (for a ClassificationEnv, 1 per mistake).

    Trial r draws its contexts from Engine.stream(seed, r, 2), the policy's randomness from
    Engine.stream(seed, r, 1) and arm a's rewards from Engine.stream(seed, r, 2**32 + a), as in
    C++: the same seed gives the same numbers in both. threads = 0 uses one thread per hardware
    thread; the result does not depend on it. `policy` is copied once, when the run starts,
    and is not changed.
    """
    if not isinstance(policy, POLICY_TYPES):
        raise TypeError("sabandit.contextual.simulate: policy must be a sabandit.contextual "
                        f"policy, not {type(policy).__name__}")
    for name, value in (("horizon", horizon), ("trials", trials), ("record_points", record_points),
                        ("feedback_batch", feedback_batch)):
        _check_number(name, "int", value)
    rounds, mean, se, optimal, finals, per_trial, pulls, count = policy._simulate(
        env, horizon, trials, seed, threads, record_points, feedback_batch)
    return SimulationResult(rounds, mean, se, optimal, finals, per_trial, pulls, count)
