"""The cost per round of a reward model written in Python (docs/python.md): TS-SA and TS-SGLD over an
exponential model in Python (and TS-SA over the same model with its information method),
select + update called from Python, against a built-in model.

    PYTHONPATH=build/python/python python3 python/bench/python_model_cost.py
"""
import math, time, sabandit
class ExponentialModel:
    def mean(self, phi, theta): return math.exp(phi @ theta)
    def log_likelihood(self, x, phi, theta):
        eta = phi @ theta; return -eta - x * math.exp(-eta)
    def grad_log_likelihood(self, xs, phi, theta): return phi * (xs.mean() * math.exp(-(phi @ theta)) - 1.0)
class Counting(ExponentialModel):
    calls = 0
    def mean(self, *a): Counting.calls += 1; return super().mean(*a)
    def log_likelihood(self, *a): Counting.calls += 1; return super().log_likelihood(*a)
    def grad_log_likelihood(self, *a): Counting.calls += 1; return super().grad_log_likelihood(*a)
class Informed(ExponentialModel):  # i(eta) = 1 for exponential rewards with a log link
    def information(self, phi, theta): return 1.0
class CountingInformed(Counting):
    def information(self, phi, theta): Counting.calls += 1; return 1.0
K, T = 10, 3000
for name, models in [("ts_sa", [ExponentialModel(), Counting()]),
                     ("ts_sgld", [ExponentialModel(), Counting()]),
                     ("ts_sa with information", [Informed(), CountingInformed()])]:
    for model in models:
        p, g, w = getattr(sabandit, name.split()[0])(K, model=model), sabandit.Engine(1), sabandit.Engine(2)
        means = [1.0 + 0.1 * a for a in range(K)]
        Counting.calls = 0
        start = time.perf_counter()
        for t in range(T):
            a = p.select(g); p.update(a, -means[a] * math.log1p(-w.uniform()), g)
        dt = (time.perf_counter() - start) / T
        if isinstance(model, Counting): print(f"{name}: {Counting.calls / T:.1f} Python calls per round")
        else: print(f"{name}: {dt * 1e6:.1f} us per round (K = {K}, Python exponential model)")
p, g = sabandit.ts_sa(K, model="poisson"), sabandit.Engine(1)
start = time.perf_counter()
for t in range(T):
    a = p.select(g); p.update(a, 1.0, g)
print(f"built-in poisson ts_sa: {(time.perf_counter() - start) / T * 1e6:.2f} us per round")
