"""sabandit: multi-armed bandit policies (TS-SA, TS-SGLD, Thompson, epsilon-TS, UCB, KL-UCB)
from the header-only C++ library, with its seeded engine, environments and simulator.

    import sabandit
    policy = sabandit.ts_sa(5, model="bernoulli")
    engine = sabandit.Engine(2026)
    arm = policy.select(engine)
    policy.update(arm, 1.0, engine)

docs/python.md is the guide; every function and class has its docstring.
"""
from ._sabandit import (  # noqa: F401  (the public API)
    __version__,
    Engine,
    GaussianModel, BernoulliModel, PoissonModel,
    NormalEnv, NormalMixtureEnv, BernoulliEnv, PoissonEnv,
    sgr, mgr, bernoulli_gap, poisson_gap, linear_gaussian, logistic,
    random_features, parameters_with_predictors,
    ts_sa, ts_sgld, thompson, epsilon_ts, ucb, kl_ucb,
    SimulationResult,
)
from . import _sabandit
import copyreg as _copyreg
import numbers as _numbers

#: The policy classes, one per (policy, model): e.g. TSSABernoulli, ThompsonPoisson, UCB.
POLICY_TYPES = tuple(
    getattr(_sabandit, name) for name in dir(_sabandit)
    if name.startswith(("TSSA", "TSSGLD", "Thompson", "EpsilonTS", "KLUCB")) or name == "UCB")
globals().update({t.__name__: t for t in POLICY_TYPES})


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
    # The C++ integer types, checked here so that the error names the argument (pybind11's
    # conversion says only "incompatible function arguments"); C++ checks the values' meaning.
    for name, value, limit in (("seed", seed, 2**64), ("threads", threads, 2**32)):
        if isinstance(value, bool) or not isinstance(value, _numbers.Integral) or not 0 <= value < limit:
            raise ValueError(f"sabandit.simulate: {name} = {value!r} (must be an int in [0, 2**{limit.bit_length() - 1}))")
    return policy._simulate(env, horizon, trials, seed, threads, record_points)
