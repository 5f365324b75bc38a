"""sabandit from Python against straightforward numpy Thompson sampling, and against the C++
simulator, in one run (docs/python.md, "Speed"):

    python3 python/bench/bench.py --cpp build/python/python/bench/sabandit_python_bench_cpp

Per round at K = 10 (wall time, best of --repeats, one thread):
  numpy      Gaussian TS and Beta-Bernoulli TS written with numpy, select + update from Python
             (what pure-Python libraries such as SMPyBandits do per round);
  per-call   sabandit's select() + update() called from Python;
  simulate   sabandit.simulate(), the whole run in C++ (GIL released);
  C++        sabandit::simulate from C++ on the same run (--cpp), to show the Python cost.
Every loop draws its rewards the same way: per-call and numpy from one precomputed array.
"""
import argparse
import subprocess
import time

import numpy as np

import sabandit


class NumpyGaussianTS:
    """Gaussian TS, known unit variance, prior N(0, 1e4): the posterior is N(m, 1 / (1e-4 + n)).

    sabandit.thompson's default prior is flat (N(m, 1 / n) after a warm-up pull of each arm):
    the same work per round, which is what this loop is timed for.
    """

    def __init__(self, k, rng):
        self.n, self.s, self.rng = np.zeros(k), np.zeros(k), rng

    def select(self):
        precision = 1e-4 + self.n
        return int(np.argmax(self.rng.normal(self.s / precision, 1.0 / np.sqrt(precision))))

    def update(self, arm, reward):
        self.n[arm] += 1
        self.s[arm] += reward


class NumpyBetaTS:
    """Beta-Bernoulli TS with a Beta(1, 1) prior."""

    def __init__(self, k, rng):
        self.a, self.b, self.rng = np.ones(k), np.ones(k), rng

    def select(self):
        return int(np.argmax(self.rng.beta(self.a, self.b)))

    def update(self, arm, reward):
        self.a[arm] += reward
        self.b[arm] += 1.0 - reward


def best_of(repeats, run):
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        rounds = run()
        best = min(best, (time.perf_counter() - start) / rounds)
    return best * 1e9  # ns per round


def numpy_loop(policy, rewards):
    def run():
        for reward_row in rewards:
            arm = policy.select()
            policy.update(arm, reward_row[arm])
        return len(rewards)
    return run


def sabandit_loop(make, rewards):
    def run():
        policy, gen = make(), sabandit.Engine(1)
        select, update = policy.select, policy.update
        for reward_row in rewards.tolist():
            arm = select(gen)
            update(arm, reward_row[arm], gen)
        return len(rewards)
    return run


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--arms", type=int, default=10)
    p.add_argument("--rounds", type=int, default=20_000, help="rounds of the per-call loops")
    p.add_argument("--horizon", type=int, default=10_000, help="simulate(): rounds per trial")
    p.add_argument("--trials", type=int, default=20, help="simulate(): trials")
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--cpp", help="the C++ program sabandit_python_bench_cpp (cmake --build <build> --target sabandit_python_bench_cpp)")
    args = p.parse_args()
    k, rng = args.arms, np.random.default_rng(1)
    means = np.full(k, 2.5)
    means[-1] = 3.0
    gaussian = rng.normal(means, 1.0, size=(args.rounds, k))
    clicks = (rng.random((args.rounds, k)) < np.linspace(0.4, 0.5, k)).astype(float)
    cases = [
        ("Gaussian TS", "gaussian_ts", gaussian, lambda: NumpyGaussianTS(k, np.random.default_rng(2)),
         lambda: sabandit.thompson(k), lambda: sabandit.sgr(num_arms=k)),
        ("Beta-Bernoulli TS", "bernoulli_ts", clicks, lambda: NumpyBetaTS(k, np.random.default_rng(2)),
         lambda: sabandit.thompson(k, model="bernoulli"), lambda: sabandit.bernoulli_gap(k, best=0.5, gap=0.1)),
        ("TS-SA (default)", "ts_sa", gaussian, None, lambda: sabandit.ts_sa(k), lambda: sabandit.sgr(num_arms=k)),
    ]
    print(f"K = {k}; ns per round, best of {args.repeats}; per-call loops {args.rounds} rounds; "
          f"simulate {args.trials} x {args.horizon} rounds, 1 thread")
    print("| policy | numpy, per call | sabandit, per call | sabandit.simulate | C++ simulate | "
          "simulate / C++ | numpy / simulate |")
    print("|---|---|---|---|---|---|---|")
    for name, cpp_name, rewards, make_numpy, make_sabandit, make_env in cases:
        numpy_ns = best_of(args.repeats, numpy_loop(make_numpy(), rewards)) if make_numpy else float("nan")
        call_ns = best_of(args.repeats, sabandit_loop(make_sabandit, rewards))
        env, prototype = make_env(), make_sabandit()

        def simulate_run():
            sabandit.simulate(env, prototype, horizon=args.horizon, trials=args.trials, seed=1, threads=1)
            return args.horizon * args.trials
        sim_ns = best_of(args.repeats, simulate_run)
        cpp_ns = float("nan")
        if args.cpp:
            out = subprocess.run([args.cpp, cpp_name, str(k), str(args.horizon), str(args.trials), str(args.repeats)],
                                 check=True, capture_output=True, text=True).stdout
            cpp_ns = float(out)
        print(f"| {name} | {numpy_ns:,.0f} | {call_ns:,.0f} | {sim_ns:,.1f} | {cpp_ns:,.1f} | "
              f"{sim_ns / cpp_ns:.3f} | {numpy_ns / sim_ns:,.0f}x |")


if __name__ == "__main__":
    main()
