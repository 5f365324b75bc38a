"""sabandit: multi-armed bandit policies (TS-SA, TS-SGLD, Thompson, epsilon-TS, UCB, KL-UCB)
from the header-only C++ library, with its seeded engine, environments and simulator.

    import sabandit
    policy = sabandit.ts_sa(5, model="bernoulli")
    engine = sabandit.Engine(2026)
    arm = policy.select(engine)
    policy.update(arm, 1.0, engine)

docs/python.md is the guide; every function and class has its docstring.
"""
import difflib as _difflib
import functools as _functools
import operator as _operator
import re as _re
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
    check_model, ModelCheck, ModelCheckReport,
    restored,
)
from . import _sabandit

#: The policy classes, one per (policy, model): e.g. TSSABernoulli, ThompsonPoisson, UCB.
POLICY_TYPES = tuple(
    getattr(_sabandit, name) for name in dir(_sabandit)
    if name.startswith(("TSSA", "TSSGLD", "Thompson", "EpsilonTS", "KLUCB")) or name == "UCB")
globals().update({t.__name__: t for t in POLICY_TYPES})

# The classes have no constructor of their own (pybind11 said only "No constructor defined!"):
# each is made by its function, which takes the model as a keyword.
_FACTORIES = (("TSSGLD", "ts_sgld"), ("TSSA", "ts_sa"), ("Thompson", "thompson"),
              ("EpsilonTS", "epsilon_ts"), ("KLUCB", "kl_ucb"), ("UCB", "ucb"))


_FACTORY_MESSAGE = "sabandit.{name} has no constructor: make one with {call}"


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
    raise TypeError(_FACTORY_MESSAGE.format(name=name, call=call))


for _type in POLICY_TYPES:
    _type.__init__ = _made_by_its_function


# Construction and pickling without a half-made object. pybind11 2.10 lets cls.__new__(cls)
# return an object whose C++ value was never constructed, and its methods then ran on
# uninitialised memory (a probe: UCB.__new__(UCB).select(engine) crashed the interpreter; pybind11
# issue 6153, fixed upstream after the 2.10 Debian ships). So every class's __new__ also runs its
# constructor (or raises, for the classes made by their functions), __init__ has nothing left to
# do, and a pickle rebuilds its object in one call, _unpickle, instead of copyreg's __new__ and then
# __setstate__. The same reduction serves every protocol (for 0 and 1, copyreg's fallback made
# the object without pybind11, and the interpreter aborted). __setstate__ is not a method to call:
# on a live object pybind11's did nothing and said nothing; a policy changes state by restore().
_RAW_NEW = Engine.__base__.__new__  # pybind11's storage for a C++ value, not yet constructed
_RAW_SETSTATE = {}


def _unpickle(cls, state):
    obj = _RAW_NEW(cls)
    # A Python subclass pickles as its class, and rebuilds with its sabandit base's state.
    next(_RAW_SETSTATE[base] for base in cls.__mro__ if base in _RAW_SETSTATE)(obj, state)
    return obj


def _reduce_ex(self, protocol):
    return _unpickle, (type(self), self.__getstate__())


def _no_setstate(self, state):
    raise TypeError(f"sabandit.{type(self).__name__}.__setstate__ is pickle's, on a new object: "
                    "to change a policy's state call restore(state), an engine's Engine.from_state")


# A class that does not pickle says so at every protocol: at 0 and 1, copyreg's fallback pickled
# a ModelCheckReport or a contextual environment, and loading it aborted the interpreter.
def _not_picklable(prefix):
    def __reduce_ex__(self, protocol):
        cls = type(self)
        if cls.__reduce__ is not object.__reduce__:  # a Python subclass's own way to pickle
            return self.__reduce__()
        name = (f"{prefix}{cls.__name__}" if cls.__module__.startswith("sabandit")
                else f"{cls.__module__}.{cls.__qualname__}")
        raise TypeError(f"cannot pickle '{name}' object")
    return __reduce_ex__


# A Python subclass keeps pybind11's way: its own __init__ chain reaches the constructor (and
# pybind11 says so when it does not); only the sabandit classes themselves build in __new__.
# Both keep the constructor's docstring, whose first line is its signature: help(NormalEnv)
# showed only (*args, **kwargs). Only the docstring: functools.wraps's __wrapped__ led
# inspect.signature to pybind11's built-in, which has none (ValueError; a review's finding).
def _constructing(base, raw_init):
    def __new__(cls, *args, **kwargs):
        obj = _RAW_NEW(cls)
        if cls is base:
            raw_init(obj, *args, **kwargs)  # the constructor, or a TypeError naming the factory
        return obj

    def __init__(self, *args, **kwargs):
        if type(self) is not base:
            raw_init(self, *args, **kwargs)
    __new__.__doc__ = __init__.__doc__ = raw_init.__doc__
    return staticmethod(__new__), __init__


def _harden(namespace, prefix="sabandit."):
    """The above for every class of an extension module (_sabandit; _sabandit.contextual, whose
    classes `prefix` "sabandit.contextual." names)."""
    for cls in list(vars(namespace).values()):
        if isinstance(cls, type) and issubclass(cls, Engine.__base__):
            cls.__new__, cls.__init__ = _constructing(cls, cls.__init__)
            if "__setstate__" in vars(cls):
                _RAW_SETSTATE[cls] = cls.__setstate__
                cls.__setstate__ = _no_setstate
                cls.__reduce_ex__ = _reduce_ex
            else:
                cls.__reduce_ex__ = _not_picklable(prefix)


_harden(_sabandit)


# e.__init__(s) on a live engine reseeds it, as random.Random's __init__ does (it did nothing);
# Engine(s)'s own __init__ call then seeds again what __new__ seeded, to the same state.
_ENGINE_INIT = Engine.__init__


def _reseeding_init(self, *args, **kwargs):
    if type(self) is Engine:
        self.seed(*args, **kwargs)
    else:
        _ENGINE_INIT(self, *args, **kwargs)


_reseeding_init.__doc__ = _ENGINE_INIT.__doc__
Engine.__init__ = _reseeding_init


# Keywords and numbers checked by name before pybind11 converts them. Its conversion took a
# bool for a number (thompson(True) had K = 1, while arms and seeds refuse bools) and answered
# an int past 64 bits, a float where an int belongs, or a misspelt keyword, with "incompatible
# function arguments" and the whole signature, naming no argument (probes' findings). The
# parameters' names, and which are ints and which floats, are read from the signature pybind11
# writes on the first line of each function's docstring.
_INT64 = 2**63


def _shown(value):
    text = repr(value)
    return text if len(text) <= 40 else f"an int of {value.bit_length()} bits"


def _check_number(name, kind, value):
    if value is None:
        return
    if isinstance(value, (bool, _numpy.bool_)):
        raise TypeError(f"sabandit: {name} = {value!r} (must be a number, not a bool)")
    if kind == "int":
        try:
            index = _operator.index(value)
        except TypeError:
            raise TypeError(f"sabandit: {name} = {value!r} (must be an int, not "
                            f"{type(value).__name__})") from None
        if not -_INT64 <= index < _INT64:
            raise ValueError(f"sabandit: invalid argument: {name} = {_shown(index)} "
                             "(must fit a signed 64-bit integer)")
    elif kind.startswith("numpy"):
        # pybind11 casts any array to float64: complex numbers lost their imaginary part with only
        # numpy's ComplexWarning, and bools and objects passed as numbers (a probe's findings).
        dtype = _numpy.asarray(value).dtype
        if dtype.kind not in "iuf":
            raise TypeError(f"sabandit: {name} has dtype {dtype} (must hold real numbers: ints or "
                            "floats)")
    elif isinstance(value, int):
        try:
            float(value)
        except OverflowError:
            raise ValueError(f"sabandit: invalid argument: {name} = {_shown(value)} "
                             "(beyond a double's range)") from None


def _arguments_checked(function, prefix="sabandit."):
    line = (function.__doc__ or "").split("\n", 1)[0]
    if "(" not in line or ") ->" not in line:
        return function  # no signature to read (another pybind11's docstrings): pybind11 checks
    inner = line[line.index("(") + 1:line.rindex(") ->")]
    starts = [(m.group(1), m.end()) for m in _re.finditer(r"(?:^|, )(\w+): ", inner)]
    keywords_only = inner.find(", *,")  # parameters past the `*` take no positional argument
    order, kinds = [], {}
    for i, (name, start) in enumerate(starts):
        end = starts[i + 1][1] if i + 1 < len(starts) else len(inner)
        kind = _re.match(r"(?:Optional\[)?(int|float|numpy\.ndarray\[numpy\.float64)", inner[start:end])
        if keywords_only < 0 or start < keywords_only:
            order.append(name)
        if kind:
            kinds[name] = kind.group(1)

    known = [name for name, _ in starts]

    @_functools.wraps(function)
    def checked(*args, **kwargs):
        # A misspelt keyword is named, with the nearest one (pybind11 printed the whole
        # signature as "incompatible function arguments": a probe's temprature=0.5).
        for name in kwargs:
            if name not in known:
                near = _difflib.get_close_matches(name, known, n=1)
                hint = f" (did you mean {near[0]!r}?)" if near else ""
                raise TypeError(f"{prefix}{function.__name__}() got an unexpected keyword "
                                f"argument {name!r}{hint}")
        for name, value in list(zip(order, args)) + list(kwargs.items()):
            if name in kinds:
                _check_number(name, kinds[name], value)
        return function(*args, **kwargs)
    return checked


for _name in ("ts_sa", "ts_sgld", "thompson", "epsilon_ts", "kl_ucb", "ucb", "sgr", "mgr",
              "bernoulli_gap", "poisson_gap", "exponential_gap", "linear_gaussian", "logistic",
              "random_features", "parameters_with_predictors", "check_model"):
    globals()[_name] = _arguments_checked(getattr(_sabandit, _name))


def simulate(env, policy, *, horizon=10_000, trials=50, seed=1, threads=0, record_points=100,
             feedback_batch=1):
    """Runs `trials` independent trials of `horizon` rounds of copies of `policy` on `env`
    with the C++ simulator (sabandit::simulate), the GIL released, and returns a
    SimulationResult of numpy arrays: rounds, mean_regret, standard_error, optimal_fraction
    (one per recorded round), final_regrets (one per trial) and pulls (trials x K).

    Trial r draws the policy's randomness from Engine.stream(seed, r, 1) and arm a's rewards
    from Engine.stream(seed, r, 2**32 + a), as in C++: the same seed gives the same numbers in
    both. threads = 0 uses one thread per hardware thread; the result does not depend on it.
    `policy` is copied once, when the run starts, and is not changed.

    feedback_batch = B holds rewards back: the policy learns the rewards of each B rounds, in
    order, only after it has selected the arm of the batch's last round (a service updated
    every B requests, or whose rewards arrive late); 1 is the paper's protocol.
    """
    if not isinstance(policy, POLICY_TYPES):
        raise TypeError(f"sabandit.simulate: policy must be a sabandit policy, not {type(policy).__name__}")
    for name, value in (("horizon", horizon), ("trials", trials), ("record_points", record_points),
                        ("feedback_batch", feedback_batch)):
        _check_number(name, "int", value)
    return policy._simulate(env, horizon, trials, seed, threads, record_points, feedback_batch)


from . import contextual  # noqa: E402  (sabandit.contextual: after the names it imports from here)
