// libFuzzer target: the contextual policies (LinUCB, linear TS, epsilon-greedy ridge, Laplace
// TS, TS-SA and TS-SGLD over the Gaussian, Bernoulli and Poisson models, and the uniform
// reference) on disjoint arms, with arbitrary parameters, contexts, arms and rewards. After each
// operation it checks docs/guarantees.md's promises, as policy_driver.hpp does for the
// multi-armed policies:
//   - construction succeeds or throws std::invalid_argument or std::length_error;
//   - select(x) throws std::invalid_argument for a context of the wrong size or with a
//     non-finite entry, else returns an arm in [0, K) or throws std::domain_error (a score or a
//     chain that is not finite; never the uniform reference); only TS-SGLD's select changes
//     the saved state (it moves the chains);
//   - update(x, arm, r) checks in that order: such a context (std::invalid_argument), an arm
//     outside [0, K) (std::out_of_range), a reward beyond the numeric contract
//     (std::invalid_argument); a valid call may throw only std::invalid_argument (the model's
//     support) or std::domain_error (numerics), and the uniform reference neither;
//   - every exception has a "sabandit: " message, and a throwing call leaves the saved text
//     and scores() unchanged and the decisions that follow those of a copy taken before it;
//   - a copy is a checkpoint: replaying the operations since it gives the same decisions and
//     the same saved text;
//   - restoring a saved text reproduces it and its decisions; an edited one (state_edits.hpp)
//     is rejected with std::invalid_argument (state::format_error) and changes nothing, or is a
//     state that saves and restores exactly, with the same decisions.
// The parameters that set work per call (N, the Newton iterations) and the rounds per input are
// kept small: Laplace TS re-solves its MAP over the whole history every update, as documented.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz_input.hpp"
#include "sabandit/contextual/policies.hpp"
#include "sabandit/models/bernoulli.hpp"
#include "sabandit/models/gaussian.hpp"
#include "sabandit/models/poisson.hpp"
#include "sabandit/random/xoshiro.hpp"
#include "sabandit/state/persist.hpp"
#include "state_edits.hpp"

namespace {

using namespace sabandit;
using namespace sabandit_fuzz;
using engine = xoshiro256pp;
using context = Eigen::VectorXd;

constexpr Eigen::Index max_arms = 5;
constexpr Eigen::Index max_dimension = 4;

template <class Policy>
constexpr bool select_moves_chains = false;
template <class Model>
constexpr bool select_moves_chains<contextual::ts_sgld<Model>> = true;

template <class Policy>
constexpr bool is_uniform = std::is_same_v<Policy, contextual::uniform_random>;

template <class Policy>
constexpr bool refits_history = false;  // Laplace TS: a Newton solve over every pair, every update
template <class Model>
constexpr bool refits_history<contextual::laplace_ts<Model>> = true;

template <class Policy>
[[nodiscard]] std::string saved_text(const Policy& policy) {
  std::ostringstream out;
  state::save(out, policy);
  return out.str();
}

// A context of `size` entries: mostly moderate values (multiples of 1/4), sometimes any double
// (NaN, infinities, 1e300), and sometimes the wrong size.
[[nodiscard]] context any_context(input& in, Eigen::Index size) {
  Eigen::Index n = size;
  if (in.in_range<int>(0, 15) == 0) n = in.in_range<Eigen::Index>(0, size + 1);
  context x(n);
  for (Eigen::Index i = 0; i < n; ++i)
    x(i) = in.in_range<int>(0, 7) == 0 ? in.any_double() : 0.25 * in.in_range<int>(-12, 12);
  return x;
}

struct operation {
  enum kind_t { select, update_last, update_any, rounds, checkpoint, restore_checkpoint,
                save_restore, restore_corrupted, last = restore_corrupted } kind = select;
  context x;                   // select, update_any
  Eigen::Index arm = 0;        // update_any
  double reward = 0.0;         // update_last, update_any
  std::vector<context> xs;     // rounds: a context per round
  std::vector<double> rewards; // rounds: a reward per round
  std::string edits;           // restore_corrupted (state_edits.hpp)
};

[[nodiscard]] std::vector<operation> decode(input& in, Eigen::Index num_arms, Eigen::Index d,
                                            std::size_t max_updates) {
  std::vector<operation> ops;
  std::size_t updates = 0;
  while (!in.empty() && ops.size() < 64 && updates < max_updates) {
    operation op;
    op.kind = static_cast<operation::kind_t>(in.in_range<int>(0, operation::last));
    switch (op.kind) {
      case operation::select:
        op.x = any_context(in, d);
        break;
      case operation::update_last:
        op.reward = in.reward();
        ++updates;
        break;
      case operation::update_any:
        op.arm = in.arm(num_arms);
        op.x = any_context(in, d);
        op.reward = in.reward();
        ++updates;
        break;
      case operation::rounds: {
        const auto n = in.in_range<std::size_t>(1, 16);
        for (std::size_t i = 0; i < n; ++i) {
          op.xs.push_back(any_context(in, d));
          op.rewards.push_back(in.reward());
        }
        updates += n;
        break;
      }
      case operation::restore_corrupted:
        op.edits = in.bytes(48);
        break;
      default:
        break;
    }
    ops.push_back(std::move(op));
  }
  return ops;
}

// The decisions of a few fixed rounds (fixed engine, contexts and rewards) and the saved text
// after them: two policies in the same state, hidden parts included, give the same string.
template <class Policy>
[[nodiscard]] std::string behaviour(Policy policy) {
  engine gen(20261129);
  std::string trace;
  // Past the warm-ups (K x warm-up rounds, small in this target) and four more.
  Eigen::Index rounds = 4 + policy.num_arms() * 4;
  if constexpr (requires { policy.parameters().warmup; })
    rounds = 4 + policy.num_arms() * std::min<Eigen::Index>(policy.parameters().warmup, 4);
  for (Eigen::Index round = 0; round < rounds; ++round) {
    context x = context::Constant(policy.context_size(), 0.5 * static_cast<double>(round % 4 - 1));
    Eigen::Index arm = 0;
    if (throws_documented(invalid_argument | domain_error, "select() in a probe",
                          [&] { arm = policy.select(x, gen); })) {
      trace += "s!";
      continue;
    }
    trace += std::to_string(arm) + ";";
    if (throws_documented(invalid_argument | domain_error, "update() in a probe",
                          [&] { policy.update(x, arm, round % 2 == 0 ? 1.0 : 0.0, gen); }))
      trace += "u!";
  }
  return trace + saved_text(policy);
}

template <class Policy>
class driver {
 public:
  driver(Policy policy, std::uint64_t seed) : policy_(std::move(policy)), gen_(seed) {}

  void run(const std::vector<operation>& ops) {
    for (std::size_t i = 0; i < ops.size(); ++i) {
      if (ops[i].kind == operation::checkpoint) {
        if (checkpoint_) {
          *checkpoint_ = policy_;  // copy assignment
        } else {
          checkpoint_.emplace(policy_);  // copy construction
        }
        if (saved_text(*checkpoint_) != saved_text(policy_)) fail("a copy differs from its original");
        checkpoint_gen_ = gen_;
        checkpoint_at_ = i;
        checkpoint_last_ = last_;
        trace_.clear();
      } else if (ops[i].kind == operation::restore_checkpoint) {
        if (!checkpoint_) continue;
        std::istringstream in(saved_text(*checkpoint_));
        state::restore(in, policy_);
        if (saved_text(policy_) != saved_text(*checkpoint_))
          fail("restore() of a checkpoint's text gave another text");
        gen_ = checkpoint_gen_;
        checkpoint_at_ = i;
        last_ = checkpoint_last_;
        trace_.clear();
      } else {
        execute(policy_, gen_, ops[i], last_, trace_);
      }
    }
    if (!checkpoint_) return;
    // The operations since the checkpoint, replayed on it (docs/guarantees.md, a copy is a
    // checkpoint, and shares nothing with its original).
    Policy replayed = *checkpoint_;
    engine gen = checkpoint_gen_;
    last_decision last = checkpoint_last_;
    std::string trace;
    for (std::size_t i = checkpoint_at_ + 1; i < ops.size(); ++i) execute(replayed, gen, ops[i], last, trace);
    if (trace != trace_) fail("a copy replayed different decisions: " + trace + " vs " + trace_);
    if (saved_text(replayed) != saved_text(policy_)) fail("a copy replayed to another state");
  }

 private:
  struct last_decision {
    context x;
    Eigen::Index arm = 0;
  };

  static void execute(Policy& policy, engine& gen, const operation& op, last_decision& last,
                      std::string& trace) {
    switch (op.kind) {
      case operation::select:
        select(policy, gen, op.x, last, trace);
        break;
      case operation::update_last:
        if (last.x.size() == policy.context_size()) update(policy, gen, last.x, last.arm, op.reward, trace);
        break;
      case operation::update_any:
        update(policy, gen, op.x, op.arm, op.reward, trace);
        break;
      case operation::rounds:
        for (std::size_t i = 0; i < op.xs.size(); ++i)
          if (select(policy, gen, op.xs[i], last, trace))
            update(policy, gen, op.xs[i], last.arm, op.rewards[i], trace);
        break;
      case operation::save_restore:
        save_restore(policy);
        break;
      case operation::restore_corrupted:
        restore_corrupted(policy, op.edits, trace);
        break;
      default:
        break;
    }
  }

  // scores() as bytes (NaN payloads and signed zeros included), where the policy has it: public
  // state that the saved text does not hold, and that a throwing select keeps.
  [[nodiscard]] static std::string scores_of(const Policy& policy) {
    if constexpr (requires { policy.scores(); }) {
      const Eigen::ArrayXd& scores = policy.scores();
      return {reinterpret_cast<const char*>(scores.data()),
              static_cast<std::size_t>(scores.size()) * sizeof(double)};
    } else {
      (void)policy;
      return {};
    }
  }

  // Runs `call`, which may throw only the `expected` exceptions (documented ones, else fail);
  // if it throws, the policy must be as before: the same saved text and scores(), and the same
  // decisions afterwards as a copy taken before the call. Returns the kind thrown, or none.
  template <class Call>
  static allowed strong(Policy& policy, allowed expected, const char* name, Call&& call) {
    const Policy before = policy;
    const std::string text = saved_text(policy);
    const std::string scores = scores_of(policy);
    const allowed thrown = thrown_kind(expected, name, call);
    if (thrown == none) return none;
    if (saved_text(policy) != text) fail(std::string(name) + " threw and changed the state");
    if (scores_of(policy) != scores) fail(std::string(name) + " threw and changed scores()");
    if (behaviour(policy) != behaviour(before))
      fail(std::string(name) + " threw and changed the decisions that follow");
    return thrown;
  }

  [[nodiscard]] static bool valid_context(const Policy& policy, const context& x) {
    return x.size() == policy.context_size() && x.allFinite();
  }

  // The warm-up's selections awaiting their rewards (the Langevin policies'; none else), and
  // whether select() plays the warm-up.
  static Eigen::ArrayXd awaited_of(const Policy& policy) {
    if constexpr (requires { policy.awaiting(); }) return policy.awaiting();
    return Eigen::ArrayXd::Zero(policy.num_arms());
  }
  static bool warming_up(const Policy& policy) {
    if constexpr (requires { policy.awaiting(); }) {
      return (policy.pulls() < static_cast<double>(policy.parameters().warmup)).any();
    }
    return false;
  }

  static bool select(Policy& policy, engine& gen, const context& x, last_decision& last,
                     std::string& trace) {
    const std::string text = without_awaiting(saved_text(policy));
    const Eigen::ArrayXd awaited = awaited_of(policy);
    const bool warming = warming_up(policy);
    const bool valid = valid_context(policy, x);
    // A bad context is named first; a valid one may overflow a score or a chain.
    const allowed expected = !valid ? invalid_argument : is_uniform<Policy> ? none : domain_error;
    Eigen::Index arm = -1;
    if (strong(policy, expected, "select()", [&] { arm = policy.select(x, gen); }) != none) {
      trace += "s!";
      return false;
    }
    if (!valid) fail("select() accepted a context of the wrong size or not finite");
    if (!(arm >= 0 && arm < policy.num_arms()))
      fail("select() returned arm " + std::to_string(arm) + " of " + std::to_string(policy.num_arms()));
    if (!select_moves_chains<Policy> && without_awaiting(saved_text(policy)) != text)
      fail("select() changed the state");
    // In the warm-up a select() records its arm as awaiting a reward; after it, nothing.
    Eigen::ArrayXd recorded = awaited;
    if (warming) recorded(arm) += 1.0;
    if (!(awaited_of(policy) == recorded).all())
      fail("select() changed the awaited selections otherwise than by its warm-up arm");
    last = {x, arm};
    trace += "s" + std::to_string(arm);
    return true;
  }

  static void update(Policy& policy, engine& gen, const context& x, Eigen::Index arm, double reward,
                     std::string& trace) {
    // The checks' order (policy_core's checked_pull): the context, the arm, then the reward;
    // a valid call may still meet the model's support or a numerical limit.
    allowed expected = is_uniform<Policy> ? none : invalid_argument | domain_error;
    if (!valid_context(policy, x)) {
      expected = invalid_argument;
    } else if (!(arm >= 0 && arm < policy.num_arms())) {
      expected = out_of_range;
    } else if (!(std::abs(reward) <= bounds::reward)) {
      expected = invalid_argument;
    }
    const bool valid = valid_context(policy, x) && arm >= 0 && arm < policy.num_arms() &&
                       std::abs(reward) <= bounds::reward;
    const allowed thrown = strong(policy, expected, "update()", [&] { policy.update(x, arm, reward, gen); });
    if (thrown == none && !valid) fail("update() accepted an arm, context or reward outside the contract");
    trace += thrown != none ? "u!" : "u";
  }

  // A policy restored from its own saved text saves the same text and decides the same.
  static void save_restore(const Policy& policy) {
    Policy copy = policy;
    std::istringstream in(saved_text(policy));
    state::restore(in, copy);
    if (saved_text(copy) != saved_text(policy)) fail("save() then restore() changed the state");
    if (behaviour(copy) != behaviour(policy)) fail("save() then restore() changed the decisions");
  }

  // An edited saved text (state_edits.hpp): rejected with std::invalid_argument and nothing
  // changed, or accepted as a state that saves and restores exactly. An accepted state whose
  // parameters cost more work per call than this target constructs with is put back (valid,
  // and as slow as documented).
  static void restore_corrupted(Policy& policy, const std::string& edits, std::string& trace) {
    const Policy before = policy;
    std::istringstream in(edited(saved_text(policy), edits));
    if (strong(policy, invalid_argument, "restore()", [&] { state::restore(in, policy); }) != none) {
      trace += "r!";
      return;
    }
    if (beyond_fuzzed_work(policy)) {  // too slow to drive, but it must save and restore exactly
      Policy copy = policy;
      std::istringstream again(saved_text(policy));
      state::restore(again, copy);
      if (saved_text(copy) != saved_text(policy)) fail("an accepted state did not save and restore exactly");
      policy = before;
      trace += "r~";
      return;
    }
    save_restore(policy);
    trace += "r";
  }

  [[nodiscard]] static bool beyond_fuzzed_work(const Policy& policy) {
    if constexpr (requires { policy.parameters().inner_steps; }) {
      const auto& p = policy.parameters();
      if (p.inner_steps > 3 || p.warm_start.max_iterations > 30) return true;
      if constexpr (requires { p.batch_size; }) return p.batch_size > 64;
      if constexpr (requires { p.window; }) return p.window > 64;
      return false;
    } else if constexpr (requires { policy.parameters().newton; }) {
      return policy.parameters().newton.max_iterations > 30;
    } else {
      (void)policy;
      return false;
    }
  }

  Policy policy_;
  engine gen_;
  last_decision last_;
  std::string trace_;  // since the last checkpoint
  std::optional<Policy> checkpoint_;
  engine checkpoint_gen_{0};
  std::size_t checkpoint_at_ = 0;
  last_decision checkpoint_last_;
};

template <class Model>
Model any_model(input& in) {
  if constexpr (std::is_same_v<Model, gaussian_model>) {
    if (in.coin()) return gaussian_model(in.any_double());
  }
  (void)in;
  return Model{};
}

contextual::newton_options any_newton(input& in) {
  return {.max_iterations = static_cast<int>(in.size(30, false)), .tolerance = in.any_double()};
}

// Builds a policy with `make` (reading its parameters from `in`): it succeeds or throws
// std::invalid_argument or std::length_error; then drives it with the rest of the input.
template <class Make>
void construct_and_drive(input& in, Make&& make) {
  using Policy = std::decay_t<decltype(make(Eigen::Index{1}, Eigen::Index{1}))>;
  const Eigen::Index k = in.size(max_arms, true);
  const Eigen::Index d = in.size(max_dimension, true);
  std::optional<Policy> policy;
  throws_documented(invalid_argument | length_error, "construction",
                    [&] { policy.emplace(make(k, d)); });
  // The uniform reference keeps nothing per arm or dimension, so it accepts K = 2^63 - 1 and
  // d = 2^31, whose contexts this driver cannot allocate: such a policy is constructed, not
  // driven.
  if (!policy || policy->num_arms() > max_arms || policy->context_size() > max_dimension) return;
  const auto seed = in.any_integer<std::uint64_t>();
  const auto ops = decode(in, policy->num_arms(), policy->context_size(),
                          refits_history<Policy> ? 120 : 400);
  driver<Policy>(std::move(*policy), seed).run(ops);
}

template <class Model>
void drive_laplace_ts(input& in) {
  construct_and_drive(in, [&](Eigen::Index k, Eigen::Index d) {
    const contextual::laplace_ts_params p{
        .v = in.any_double(), .prior_variance = in.any_double(), .newton = any_newton(in)};
    return contextual::laplace_ts<Model>(k, contextual::disjoint_features(d), p, any_model<Model>(in));
  });
}

// The parameters both Langevin policies have (or, on a coin, their defaults), then the policy.
template <template <class, class> class Policy, class Model, class Extra>
void drive_langevin(input& in, Extra&& extra) {
  construct_and_drive(in, [&](Eigen::Index k, Eigen::Index d) {
    typename Policy<Model, contextual::disjoint_features>::params p;
    if (in.coin()) {
      // Small, invalid, or so large that construction refuses it: TS-SA's window holds the
      // warm-up's pairs, allocated up front (2^26 of them, valid, pass the fuzzer's memory).
      p.warmup = in.size(4, true);
      p.inner_steps = in.size(3, false);
      p.step_size = in.any_double();
      p.temperature = in.any_double();
      p.prior_variance = in.any_double();
      p.warm_start = any_newton(in);
      extra(p);
    }
    return Policy<Model, contextual::disjoint_features>(k, contextual::disjoint_features(d), p,
                                                        any_model<Model>(in));
  });
}

template <class Model>
void drive_ts_sa(input& in) {
  drive_langevin<contextual::ts_sa, Model>(in, [&](contextual::ts_sa_params& p) {
    p.window = in.size(8, true);
    p.refit_per_dimension = in.in_range<Eigen::Index>(-1, 3);
  });
}

template <class Model>
void drive_ts_sgld(input& in) {
  drive_langevin<contextual::ts_sgld, Model>(in, [&](contextual::ts_sgld_params& p) {
    // Not huge: the batch allocates nothing, so a batch of 2^31 is accepted and is as slow as
    // its owner chose (bounds::round_work: constructors do not bound the work, restore does).
    p.batch_size = in.size(8, false);
  });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  input in(data, size);
  switch (in.in_range<int>(0, 12)) {
    case 0:
      construct_and_drive(in, [&](Eigen::Index k, Eigen::Index d) {
        return contextual::linucb<>(k, d, {.alpha = in.any_double()});
      });
      break;
    case 1:
      construct_and_drive(in, [&](Eigen::Index k, Eigen::Index d) {
        return contextual::linear_ts<>(k, d, {.v = in.any_double()});
      });
      break;
    case 2:
      construct_and_drive(in, [&](Eigen::Index k, Eigen::Index d) {
        return contextual::epsilon_greedy_ridge<>(k, d, {.epsilon = in.any_double()});
      });
      break;
    case 3:
      construct_and_drive(in, [](Eigen::Index k, Eigen::Index d) { return contextual::uniform_random(k, d); });
      break;
    case 4: drive_laplace_ts<bernoulli_model>(in); break;
    case 5: drive_laplace_ts<gaussian_model>(in); break;
    case 6: drive_laplace_ts<poisson_model>(in); break;
    case 7: drive_ts_sa<gaussian_model>(in); break;
    case 8: drive_ts_sa<bernoulli_model>(in); break;
    case 9: drive_ts_sa<poisson_model>(in); break;
    case 10: drive_ts_sgld<gaussian_model>(in); break;
    case 11: drive_ts_sgld<bernoulli_model>(in); break;
    default: drive_ts_sgld<poisson_model>(in); break;
  }
  return 0;
}
