"""Contextual TS-SA's default temperature, chosen on tuning problems and reported on others
(docs/contextual-temperature.md):

    PYTHONPATH=build/python/python python3 python/studies/contextual_temperature.py \\
        --out docs/contextual-temperature

Line 4 of contextual TS-SA samples theta ~ N(theta_SA, tau J^-1). At tau = 1 that is the
posterior's own spread, which in d dimensions explores more than a finite horizon repays
(Chapelle and Li, 2011, saw the same in display advertising). This study picks tau from a grid
by a rule fixed before it ran:

  on every *tuning* problem (their own theta* and seed), each candidate's mean regret at T is
  divided by the least candidate's on that problem; the default is the candidate whose largest
  ratio over the tuning problems is least (minimax: no tuning problem is far from its best),
  the larger tau on a tie (more exploration is the safer side).

It then reports every candidate, and the ridge baselines at their textbook defaults, on
*report* problems that the choice never saw (other shapes, rates, noise, theta* and seed), and
the largest ratio of each candidate there. On the report problem where the chosen tau loses
most to tau = 1, exact Laplace TS at v = sqrt(tau) and at v = 1 (the same spreads) tells whether
the loss is the Langevin approximation's or Thompson sampling's own. A trial "grows linearly"
when its regret over the second half of the rounds is at least that over the first half: the
sign of a policy that stopped learning.

Everything printed depends only on the arguments (contextual.simulate gives the same numbers
on any number of threads).
"""
import argparse
import math
import os

import numpy as np

import sabandit
from sabandit import contextual

CANDIDATES = [1.0, 0.3, 0.1, 0.03, 0.01]

# name, rewards, K, d (with the constant), rate (logistic: mean click rate at z = 0) or noise sd
# (Gaussian), the spread of theta*'s feature coefficients, the seed of theta*.
PROBLEMS = {
    "tuning": [
        ("clicks 3 %, K 5, d 5", "logistic", 5, 5, 0.03, 0.5, 101),
        ("clicks 1 %, K 3, d 3", "logistic", 3, 3, 0.01, 1.0, 102),
        ("clicks 20 %, K 10, d 8", "logistic", 10, 8, 0.20, 0.5, 103),
        ("Gaussian sd 1, K 5, d 5", "gaussian", 5, 5, 1.0, 1.0, 104),
        ("Gaussian sd 1, K 10, d 10, small effects", "gaussian", 10, 10, 1.0, 0.3, 105),
        ("Gaussian sd 0.3, K 4, d 6", "gaussian", 4, 6, 0.3, 1.0, 106),
    ],
    "report": [
        ("clicks 2 %, K 8, d 6", "logistic", 8, 6, 0.02, 0.7, 201),
        ("clicks 5 %, K 4, d 10", "logistic", 4, 10, 0.05, 0.5, 202),
        ("clicks 10 %, K 20, d 4", "logistic", 20, 4, 0.10, 1.0, 203),
        ("clicks 50 %, K 2, d 20", "logistic", 2, 20, 0.50, 0.3, 204),
        ("Gaussian sd 1, K 6, d 8", "gaussian", 6, 8, 1.0, 0.5, 205),
        ("Gaussian sd 2, K 3, d 4", "gaussian", 3, 4, 2.0, 1.0, 206),
        ("Gaussian sd 0.5, K 12, d 3", "gaussian", 12, 3, 0.5, 1.0, 207),
    ],
}


def environment(kind, k, d, level, spread, seed):
    """theta* (d x K): feature coefficients ~ N(0, spread^2); the constant's row is the logit of
    the click rate (logistic) or 0 (Gaussian)."""
    theta = np.random.default_rng(seed).normal(0.0, spread, size=(d, k))
    if kind == "logistic":
        theta[-1, :] = math.log(level / (1.0 - level))
        return contextual.LogisticEnv(theta)
    theta[-1, :] = 0.0
    return contextual.LinearGaussianEnv(theta, noise_sd=level)


def model_of(kind, level):
    """The rewards' model, as docs/contextual.md asks (the Gaussian noise's variance)."""
    return "bernoulli" if kind == "logistic" else sabandit.GaussianModel(level * level)


def ts_sa(kind, k, d, level, tau):
    """Contextual TS-SA told the rewards' model; everything else at its default but tau."""
    return contextual.ts_sa(k, d, model=model_of(kind, level), temperature=tau)


def summary(result):
    """Mean and s.e. of the regret at T, and the trials whose regret grows linearly."""
    half = int(np.searchsorted(result.rounds, result.rounds[-1] // 2))
    first = result.trial_regret[half, :]
    second = result.trial_regret[-1, :] - first
    return result.final_regret, result.final_standard_error, int(np.sum(second >= first))


def run_problem(problem, horizon, trials, seed, threads, with_baselines):
    name, kind, k, d, level, spread, theta_seed = problem
    env = environment(kind, k, d, level, spread, theta_seed)
    # record_points = 2: the regret at T/2 (rounded down to a recorded round) and at T.
    rows = []
    for tau in CANDIDATES:
        result = contextual.simulate(env, ts_sa(kind, k, d, level, tau), horizon=horizon,
                                     trials=trials, seed=seed, threads=threads, record_points=2)
        rows.append((f"TS-SA tau = {tau:g}", tau) + summary(result))
    if with_baselines:
        for label, policy in (("LinUCB alpha = 1", contextual.linucb(k, d)),
                              ("linear TS v = 1", contextual.linear_ts(k, d))):
            result = contextual.simulate(env, policy, horizon=horizon, trials=trials, seed=seed,
                                         threads=threads, record_points=2)
            rows.append((label, None) + summary(result))
    return rows


def ratios(rows):
    """{tau: mean regret / the least candidate's} on one problem."""
    best = min(r[2] for r in rows if r[1] is not None)
    return {r[1]: r[2] / best for r in rows if r[1] is not None}


def worst_ratios(tables):
    """{tau: its largest ratio over the problems of `tables` ({problem: rows})}."""
    return {tau: max(ratios(rows)[tau] for rows in tables.values()) for tau in CANDIDATES}


def choose(tables):
    """The minimax rule of the module's docstring."""
    worst = worst_ratios(tables)
    least = min(worst.values())
    return max(tau for tau in CANDIDATES if worst[tau] == least), worst


def laplace_check(problem, tau, horizon, trials, seed, threads):
    """Exact Laplace TS at v = sqrt(tau) and at v = 1 on `problem`: rows like run_problem's."""
    name, kind, k, d, level, spread, theta_seed = problem
    env = environment(kind, k, d, level, spread, theta_seed)
    rows = []
    for v in (math.sqrt(tau), 1.0):
        policy = contextual.laplace_ts(k, d, model=model_of(kind, level), v=v)
        result = contextual.simulate(env, policy, horizon=horizon, trials=trials, seed=seed,
                                     threads=threads, record_points=2)
        rows.append((f"Laplace TS v = {v:.4g}", None) + summary(result))
    return rows


def cell(row):
    mean, se, linear = row[2], row[3], row[4]
    return f"{mean:.1f} ± {se:.1f}" + (f" ({linear} lin.)" if linear else "")


def table(tables, mark):
    labels = [r[0] for r in next(iter(tables.values()))]
    out = "| problem | " + " | ".join(labels) + " |\n|---|" + "---|" * len(labels) + "\n"
    for name, rows in tables.items():
        best = min(r[2] for r in rows if r[1] is not None)
        cells = [cell(r) + (f" [{r[2] / best:.2f}]" if r[1] is not None else "") for r in rows]
        cells = [f"**{c}**" if r[1] == mark else c for c, r in zip(cells, rows)]
        out += f"| {name} | " + " | ".join(cells) + " |\n"
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--horizon", type=int, default=10000, help="rounds per trial (T)")
    p.add_argument("--trials", type=int, default=50, help="trials per problem and policy")
    p.add_argument("--tuning-seed", type=int, default=11, help="simulate's seed, tuning problems")
    p.add_argument("--seed", type=int, default=2026, help="simulate's seed, report problems")
    p.add_argument("--threads", type=int, default=0, help="0: one per hardware thread")
    p.add_argument("--out", help="folder for temperature.md and temperature.csv")
    a = p.parse_args()

    tuning = {prob[0]: run_problem(prob, a.horizon, a.trials, a.tuning_seed, a.threads, False)
              for prob in PROBLEMS["tuning"]}
    chosen, worst = choose(tuning)
    report = {prob[0]: run_problem(prob, a.horizon, a.trials, a.seed, a.threads, True)
              for prob in PROBLEMS["report"]}

    report_worst = worst_ratios(report)
    name = max(report, key=lambda n: ratios(report[n])[chosen] / ratios(report[n])[1.0])
    problem = next(p for p in PROBLEMS["report"] if p[0] == name)
    check = laplace_check(problem, chosen, a.horizon, a.trials, a.seed, a.threads)
    run = f"T = {a.horizon}, {a.trials} trials per problem and policy"
    md = ("# Contextual TS-SA's default temperature\n\n"
          "Command: `python3 python/studies/contextual_temperature.py --horizon "
          f"{a.horizon} --trials {a.trials} --tuning-seed {a.tuning_seed} --seed {a.seed}`\n\n"
          f"Tuning problems ({run}, seed {a.tuning_seed}): regret at T, mean ± s.e., "
          "[ratio to the problem's least candidate], (trials whose regret grows linearly):\n\n"
          + table(tuning, chosen) +
          "\nLargest ratio over the tuning problems: " +
          ", ".join(f"tau = {t:g}: {worst[t]:.2f}" for t in CANDIDATES) +
          f". Chosen (least largest ratio): **tau = {chosen:g}**.\n\n"
          f"Report problems ({run}, seed {a.seed}; not seen by the choice), with the ridge "
          "baselines at their textbook defaults:\n\n" + table(report, chosen) +
          "\nLargest ratio over the report problems: " +
          ", ".join(f"tau = {t:g}: {report_worst[t]:.2f}" for t in CANDIDATES) + ".\n\n"
          f"Where tau = {chosen:g} loses most to tau = 1 ({name}), exact Laplace TS with the same "
          "spreads (v = sqrt(tau)):\n\n| policy | regret at T |\n|---|---|\n" +
          "".join(f"| {r[0]} | {cell(r)} |\n" for r in check))
    csv = "set,problem,policy,tau,mean_regret,std_error,linear_trials\n"
    for label, tables in (("tuning", tuning), ("report", report), ("check", {name: check})):
        for name, rows in tables.items():
            for r in rows:
                tau = "" if r[1] is None else f"{r[1]:g}"
                csv += f"{label},{name},{r[0]},{tau},{r[2]:.6f},{r[3]:.6f},{r[4]}\n"
    print(md, end="")
    if a.out:
        os.makedirs(a.out, exist_ok=True)
        with open(os.path.join(a.out, "temperature.md"), "w", encoding="utf-8") as f:
            f.write(md)
        with open(os.path.join(a.out, "temperature.csv"), "w", encoding="utf-8") as f:
            f.write(csv)


if __name__ == "__main__":
    main()
