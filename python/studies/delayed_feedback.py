"""Rewards that arrive late: every policy's regret when it learns the rewards of each batch of
B rounds only after the batch (docs/delayed-feedback.md):

    PYTHONPATH=build/python/python python3 python/studies/delayed_feedback.py \\
        --out docs/delayed-feedback

A service rarely learns a reward before its next request: it updates its policy every few
minutes, or a click is known seconds later. The simulator's feedback_batch = B models both
(sabandit::run_config::feedback_batch): the rewards of rounds (k-1)B+1..kB reach the policy,
in order, after it has selected the arm of round kB. Chapelle and Li (2011, "An Empirical
Evaluation of Thompson Sampling") measured Thompson sampling and UCB this way in their
simulations; this study measures the library's six policies, at their defaults with the model
of the rewards, on problems of the kinds the library's users have (click-through rates of
1-5 %, counts, durations, Gaussian rewards), for B = 1 (the paper's protocol) to 1,000.

No parameter is chosen here: every policy runs at its default, on every problem, with one
seed per problem. The ratio to B = 1 is each policy's own; the table also gives each cell's
standard error (sd / sqrt(R)).

Outputs: delayed.md (the tables) and delayed.csv (one row per problem, policy and B).
Everything depends only on the arguments, not on --threads.
"""
import argparse
import csv
import io
import os

import sabandit

BATCHES = [1, 10, 100, 1000]

# name, model, environment, seed
PROBLEMS = [
    ("clicks 1-5 %, K 10", "bernoulli",
     lambda: sabandit.BernoulliEnv([0.010, 0.015, 0.020, 0.025, 0.030,
                                    0.035, 0.040, 0.045, 0.048, 0.050]), 11),
    ("clicks 2 % vs 3 %, K 2", "bernoulli",
     lambda: sabandit.BernoulliEnv([0.02, 0.03]), 12),
    ("Bernoulli, the paper's means, K 10", "bernoulli",
     lambda: sabandit.BernoulliEnv([0.9] + [0.8] * 9), 13),
    ("counts, means 2-3, K 5", "poisson",
     lambda: sabandit.PoissonEnv([2.0, 2.2, 2.5, 2.7, 3.0]), 14),
    ("durations, means 1-2, K 5", "exponential",
     lambda: sabandit.ExponentialEnv([2.0, 1.8, 1.5, 1.2, 1.0]), 15),
    ("Gaussian sd 1, gap 0.2, K 10", "gaussian",
     lambda: sabandit.NormalEnv([0.2] + [0.0] * 9), 16),
]


def policies(model, k):
    """The six policies at their defaults over `model` (UCB has none; KL-UCB's divergence is
    the model's)."""
    kw = {"model": model}
    if model == "gaussian":
        kw = {}
    return [
        ("TS-SA", lambda: sabandit.ts_sa(k, **kw)),
        ("TS-SGLD", lambda: sabandit.ts_sgld(k, **kw)),
        ("TS", lambda: sabandit.thompson(k, **kw)),
        ("eps-TS", lambda: sabandit.epsilon_ts(k, **kw)),
        ("UCB", lambda: sabandit.ucb(k)),
        ("KL-UCB", lambda: sabandit.kl_ucb(k, model=model)),
    ]


def run(horizon, trials, threads, batches, problems):
    rows = []
    for name, model, make_env, seed in problems:
        env = make_env()
        for policy_name, make in policies(model, env.num_arms):
            for batch in batches:
                result = sabandit.simulate(env, make(), horizon=horizon, trials=trials, seed=seed,
                                           threads=threads, record_points=1,
                                           feedback_batch=batch)
                rows.append({"problem": name, "policy": policy_name, "feedback_batch": batch,
                             "regret": result.final_regret,
                             "standard_error": result.final_standard_error})
    return rows


def tables(rows, horizon, trials, batches, problems):
    out = io.StringIO()
    out.write(f"Regret at T = {horizon:,} (mean over {trials} trials, standard error in "
              "parentheses) and its ratio to the same policy's at B = 1, by feedback batch B.\n")
    for name, _, make_env, seed in problems:
        out.write(f"\n**{name}** (seed {seed})\n\n")
        out.write("| policy | " + " | ".join(f"B = {b:,}" for b in batches) + " |\n")
        out.write("|---|" + "---|" * len(batches) + "\n")
        for policy_name in dict.fromkeys(r["policy"] for r in rows if r["problem"] == name):
            cells = {r["feedback_batch"]: r for r in rows
                     if r["problem"] == name and r["policy"] == policy_name}
            base = cells[batches[0]]["regret"]
            line = []
            for b in batches:
                r = cells[b]
                ratio = "" if b == batches[0] or base == 0 else f", {r['regret'] / base:.2f}x"
                line.append(f"{r['regret']:,.1f} ({r['standard_error']:,.1f}){ratio}")
            out.write(f"| {policy_name} | " + " | ".join(line) + " |\n")
        first = [f"{first_batch_regret(make_env(), min(b, horizon)):,.1f}" for b in batches]
        out.write("| *the first batch alone* | " + " | ".join(first) + " |\n")
    out.write("\n*The first batch alone*: the regret of rounds 1..B, which every policy here plays "
              "round-robin (its warm-up: no reward has arrived yet), about B times the arms' mean "
              "gap. It is part of every cell of its column.\n")
    return out.getvalue()


def first_batch_regret(env, rounds):
    """The regret of `rounds` rounds played round-robin from arm 0, as the warm-up plays them."""
    means = [env.mean(a) for a in range(env.num_arms)]
    return sum(max(means) - means[t % len(means)] for t in range(rounds))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, help="folder for delayed.md and delayed.csv")
    parser.add_argument("--horizon", type=int, default=10_000)
    parser.add_argument("--trials", type=int, default=100)
    parser.add_argument("--threads", type=int, default=0, help="0: one per hardware thread")
    parser.add_argument("--problems", type=int, default=len(PROBLEMS),
                        help="run the first N problems only (a short run)")
    args = parser.parse_args(argv)
    problems = PROBLEMS[:args.problems]
    batches = [b for b in BATCHES if b <= args.horizon]
    rows = run(args.horizon, args.trials, args.threads, batches, problems)
    os.makedirs(args.out, exist_ok=True)
    text = tables(rows, args.horizon, args.trials, batches, problems)
    print(text, end="")
    with open(os.path.join(args.out, "delayed.md"), "w", encoding="utf-8") as f:
        f.write(text)
    with open(os.path.join(args.out, "delayed.csv"), "w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        for r in rows:
            writer.writerow({**r, "regret": repr(r["regret"]),
                             "standard_error": repr(r["standard_error"])})


if __name__ == "__main__":
    main()
