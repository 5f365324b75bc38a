"""sabandit.contextual from Python: what a round costs when select() and update() are called
from Python, against contextual.simulate(), whose rounds run in C++ (docs/python.md,
"Contextual bandits"):

    PYTHONPATH=build/python/python python3 python/bench/contextual_bench.py

Per round (wall time, best of --repeats, one thread) on a LogisticEnv of --dimension d
(the last coordinate the constant 1) and --arms K:
  per-call   select(x) + update(x, arm, reward) called from Python, on contexts and rewards
             drawn from the same environment beforehand (every arm's reward each round);
  simulate   contextual.simulate(), one trial of --rounds rounds: the environment's draws too.
Laplace TS is left out: its round is a Newton solve over the arm's whole history, which costs
tens of microseconds in C++ (docs/contextual.md, "Cost"), so Python adds nothing to see.
"""
import argparse
import time

import numpy as np

import sabandit
from sabandit import contextual

POLICIES = {
    "LinUCB": lambda k, d: contextual.linucb(k, d),
    "linear TS": lambda k, d: contextual.linear_ts(k, d),
    "TS-SA (Bernoulli)": lambda k, d: contextual.ts_sa(k, d, model="bernoulli"),
}


def best_of(repeats, run):
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        rounds = run()
        best = min(best, (time.perf_counter() - start) * 1e9 / rounds)
    return best


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--arms", type=int, default=10)
    p.add_argument("--dimension", type=int, default=5)
    p.add_argument("--rounds", type=int, default=20_000)
    p.add_argument("--repeats", type=int, default=9)
    a = p.parse_args()
    rng = np.random.default_rng(2026)
    env = contextual.LogisticEnv(rng.normal(size=(a.dimension, a.arms)))
    world = sabandit.Engine(2)
    contexts, rewards = np.empty((a.rounds, a.dimension)), np.empty((a.rounds, a.arms))
    for t in range(a.rounds):
        contexts[t] = env.next_context(world)  # the context stays current for its rewards
        rewards[t] = [env.pull(arm, world) for arm in range(a.arms)]
    print(f"ns per round, K = {a.arms}, d = {a.dimension}, {a.rounds} rounds, best of {a.repeats}")
    print("| policy | per call from Python | contextual.simulate | per call / simulate |")
    print("|---|---|---|---|")
    for name, make in POLICIES.items():
        def per_call():
            policy, engine = make(a.arms, a.dimension), sabandit.Engine(1)
            for x, r in zip(contexts, rewards):
                arm = policy.select(x, engine)
                policy.update(x, arm, r[arm], engine)
            return a.rounds

        def simulate():
            contextual.simulate(env, make(a.arms, a.dimension), horizon=a.rounds, trials=1,
                                seed=1, threads=1, record_points=1)
            return a.rounds
        calls, whole = best_of(a.repeats, per_call), best_of(a.repeats, simulate)
        print(f"| {name} | {calls:,.0f} | {whole:,.0f} | {calls / whole:.2f} |")


if __name__ == "__main__":
    main()
