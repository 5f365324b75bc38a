"""Python and C++ make bit-identical decisions for the same seed (decisions.cpp is the C++ side)."""
import numpy as np
import pytest

import sabandit

SEED, ROUNDS, ARMS = 2026, 300, 5

ENVS = {
    "gaussian": lambda: sabandit.sgr(num_arms=ARMS, gap=0.5),
    "bernoulli": lambda: sabandit.bernoulli_gap(ARMS, best=0.3, gap=0.1),
    "poisson": lambda: sabandit.poisson_gap(ARMS, best=3.0, gap=0.5),
}

# case -> (environment, policy factory): the same as decisions.cpp's main().
CASES = {
    "ts_sa-gaussian": ("gaussian", lambda: sabandit.ts_sa(ARMS)),
    "ts_sa-gaussian-paper": ("gaussian", lambda: sabandit.ts_sa(ARMS, preset="paper")),
    "ts_sa-bernoulli": ("bernoulli", lambda: sabandit.ts_sa(ARMS, model="bernoulli")),
    "ts_sa-poisson": ("poisson", lambda: sabandit.ts_sa(ARMS, model="poisson")),
    "ts_sgld-gaussian": ("gaussian", lambda: sabandit.ts_sgld(ARMS)),
    "ts_sgld-bernoulli": ("bernoulli", lambda: sabandit.ts_sgld(ARMS, model="bernoulli")),
    "thompson-gaussian": ("gaussian", lambda: sabandit.thompson(ARMS)),
    "thompson-bernoulli": ("bernoulli", lambda: sabandit.thompson(ARMS, model="bernoulli")),
    "thompson-poisson": ("poisson", lambda: sabandit.thompson(ARMS, model="poisson")),
    "epsilon_ts-gaussian": ("gaussian", lambda: sabandit.epsilon_ts(ARMS)),
    "ucb-gaussian": ("gaussian", lambda: sabandit.ucb(ARMS)),
    "kl_ucb-bernoulli": ("bernoulli", lambda: sabandit.kl_ucb(ARMS)),
    "kl_ucb-poisson": ("poisson", lambda: sabandit.kl_ucb(ARMS, model="poisson")),
    "ts_sa-bernoulli-tau": ("bernoulli",
                            lambda: sabandit.ts_sa(ARMS, model="bernoulli", window=3, temperature=0.5)),
}


def python_decisions(env, policy):
    gen, world = sabandit.Engine(SEED), sabandit.Engine(SEED + 1)
    arms = []
    for _ in range(ROUNDS):
        arm = policy.select(gen)
        policy.update(arm, env.pull(arm, world), gen)
        arms.append(arm)
    return arms


@pytest.mark.parametrize("case", sorted(CASES))
def test_same_decisions_as_cpp(case, cpp_reference):
    env_name, make = CASES[case]
    env = ENVS[env_name]()
    expected = [int(a) for a in cpp_reference[case]["decisions"]]
    assert python_decisions(env, make()) == expected
    # Not a trivial sequence: the policies explore.
    assert len(set(expected)) > 1


@pytest.mark.parametrize("case", sorted(CASES))
def test_same_simulation_as_cpp(case, cpp_reference):
    env_name, make = CASES[case]
    result = sabandit.simulate(ENVS[env_name](), make(), horizon=500, trials=4, seed=SEED,
                               threads=2, record_points=10)
    expected = np.array([float(r) for r in cpp_reference[case]["simulate"]])
    np.testing.assert_array_equal(result.final_regrets, expected)  # exact: the same doubles
    delayed = sabandit.simulate(ENVS[env_name](), make(), horizon=500, trials=4, seed=SEED,
                                threads=2, record_points=10, feedback_batch=7)
    np.testing.assert_array_equal(delayed.final_regrets,
                                  [float(r) for r in cpp_reference[case]["delayed"]])


def test_cases_cover_every_policy_and_model():
    names = {type(make()).__name__ for _, make in CASES.values()}
    assert {"TSSAGaussian", "TSSABernoulli", "TSSAPoisson", "TSSGLDGaussian", "TSSGLDBernoulli",
            "ThompsonGaussian", "ThompsonBernoulli", "ThompsonPoisson", "EpsilonTSGaussian",
            "UCB", "KLUCBBernoulli", "KLUCBPoisson"} <= names


@pytest.mark.parametrize("name, model, draw", [
    ("bernoulli", "bernoulli", lambda mean, e: 1.0 if e.uniform() < mean else 0.0),
    ("gaussian", sabandit.GaussianModel(4.0), lambda mean, e: mean + 2.0 * e.normal()),
])
def test_same_model_check_as_cpp(name, model, draw, cpp_reference):
    # The sampler gets each check's stream as a Python Engine and the stream goes on from its
    # state: the same draws as C++'s sampler, hence the same report to the last bit.
    report = sabandit.check_model(model, draw, points=5, samples=2000)
    expected = [float(w) for w in cpp_reference[f"check_model-{name}"]["worst"]]
    assert [c.worst for c in report.checks] == expected
