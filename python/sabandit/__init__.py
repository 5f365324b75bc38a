"""sabandit: multi-armed bandit policies (TS-SA, TS-SGLD, Thompson, epsilon-TS, UCB, KL-UCB)
from the header-only C++ library, with its seeded engine, environments and simulator.

    import sabandit
    policy = sabandit.ts_sa(5, model="bernoulli")
    engine = sabandit.Engine(2026)
    arm = policy.select(engine)
    policy.update(arm, 1.0, engine)

docs/python.md is the guide; every function and class has its docstring.
"""
import sys as _sys

try:  # before the extension, which imports numpy as it loads and then says only "initialization failed"
    import numpy as _numpy  # noqa: F401
except ImportError as _error:
    raise ImportError(
        f"sabandit needs numpy, which {_sys.executable} cannot import ({_error}): install "
        "python3-numpy (Debian) and use the python3 it belongs to, /usr/bin/python3 "
        "(docs/python.md, \"Build and import\")") from _error

from ._sabandit import (  # noqa: F401  (the public API)
    __version__,
    Engine,
    GaussianModel, BernoulliModel, PoissonModel, ExponentialModel,
    NormalEnv, NormalMixtureEnv, BernoulliEnv, PoissonEnv, ExponentialEnv,
    sgr, mgr, bernoulli_gap, poisson_gap, exponential_gap, linear_gaussian, logistic,
    random_features, parameters_with_predictors,
    ts_sa, ts_sgld, thompson, epsilon_ts, ucb, kl_ucb,
    SimulationResult,
)
from . import _sabandit
import copyreg as _copyreg

#: The policy classes, one per (policy, model): e.g. TSSABernoulli, ThompsonPoisson, UCB.
POLICY_TYPES = tuple(
    getattr(_sabandit, name) for name in dir(_sabandit)
    if name.startswith(("TSSA", "TSSGLD", "Thompson", "EpsilonTS", "KLUCB")) or name == "UCB")
globals().update({t.__name__: t for t in POLICY_TYPES})

# The classes have no constructor of their own (pybind11 said only "No constructor defined!"):
# each is made by its function, which takes the model as a keyword.
_FACTORIES = (("TSSGLD", "ts_sgld"), ("TSSA", "ts_sa"), ("Thompson", "thompson"),
              ("EpsilonTS", "epsilon_ts"), ("KLUCB", "kl_ucb"), ("UCB", "ucb"))


def _made_by_its_function(self, *args, **kwargs):
    name = type(self).__name__
    prefix, factory = next((p, f) for p, f in _FACTORIES if name.startswith(p))
    model = name[len(prefix):].lower()
    if model == "python":  # a model written in Python (docs/python.md)
        call = f"sabandit.{factory}(num_arms, model=your_model)"
    elif model:
        call = f'sabandit.{factory}(num_arms, model="{model}")'
    else:
        call = f"sabandit.{factory}(num_arms)"
    raise TypeError(f"sabandit.{name} has no constructor: make one with {call}")


for _type in POLICY_TYPES:
    _type.__init__ = _made_by_its_function


def _reduce_ex(self, protocol):
    # pybind11's pickling (__getstate__ / __setstate__) serves protocol 2 and up: for 0 and 1,
    # copyreg's fallback made the object without pybind11, and the interpreter aborted. The same
    # reduction for every protocol: a blank from cls.__new__, then __setstate__ (what protocol 2
    # does anyway).
    return _copyreg.__newobj__, (type(self),), self.__getstate__()


for _type in vars(_sabandit).values():
    if isinstance(_type, type) and hasattr(_type, "__setstate__"):
        _type.__reduce_ex__ = _reduce_ex


def simulate(env, policy, *, horizon=10_000, trials=50, seed=1, threads=0, record_points=100):
    """Runs `trials` independent trials of `horizon` rounds of copies of `policy` on `env`
    with the C++ simulator (sabandit::simulate), the GIL released, and returns a
    SimulationResult of numpy arrays: rounds, mean_regret, standard_error, optimal_fraction
    (one per recorded round), final_regrets (one per trial) and pulls (trials x K).

    Trial r draws the policy's randomness from Engine.stream(seed, r, 1) and arm a's rewards
    from Engine.stream(seed, r, 2**32 + a), as in C++: the same seed gives the same numbers in
    both. threads = 0 uses one thread per hardware thread; the result does not depend on it.
    `policy` is copied once, when the run starts, and is not changed.
    """
    if not isinstance(policy, POLICY_TYPES):
        raise TypeError(f"sabandit.simulate: policy must be a sabandit policy, not {type(policy).__name__}")
    return policy._simulate(env, horizon, trials, seed, threads, record_points)
