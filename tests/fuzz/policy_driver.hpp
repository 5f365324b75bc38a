#pragma once
// Drives one policy through an arbitrary sequence of operations decoded from the fuzzer's
// bytes, checking after each the guarantees of docs/guarantees.md:
//   - every exception is a documented one for its operation, with a "sabandit: " message;
//   - an update with an arm outside [0, K) or a reward beyond the numeric contract is rejected;
//   - select() returns an arm in [0, K), and changes no observable state except in TS-SGLD;
//   - a throwing call leaves the state bit-identical (state_snapshot.hpp) and the policy makes
//     the same decisions afterwards as a copy taken before the call (hidden state such as the
//     warm-up's cursor shows there);
//   - a copy is a checkpoint: replaying the operations since the last copy on it, from the
//     engine state of that moment, gives the same decisions and the same final state;
//   - save and restore (policies and engine): restoring a saved text reproduces the state and
//     the decisions; a corrupted text is rejected with std::invalid_argument and changes
//     nothing, or, if accepted, is a state that saves and restores exactly.
#include <cmath>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "fuzz_input.hpp"
#include "sabandit/sabandit.hpp"
#include "sabandit/state/persist.hpp"
#include "state_edits.hpp"
#include "state_snapshot.hpp"

namespace sabandit_fuzz {

template <class Policy>
inline constexpr bool is_langevin = false;
template <class Model, class Schedule>
inline constexpr bool is_langevin<sabandit::ts_sa<Model, Schedule>> = true;
template <class Model>
inline constexpr bool is_langevin<sabandit::ts_sgld<Model>> = true;

/// TS-SGLD moves its chains in select() (docs/guarantees.md: the only policy whose select() may throw).
template <class Policy>
inline constexpr bool select_moves_chains = false;
template <class Model>
inline constexpr bool select_moves_chains<sabandit::ts_sgld<Model>> = true;

using engine = sabandit::xoshiro256pp;

/// One decoded operation.
struct operation {
  enum kind_t { select, update_last, update_any, rounds, checkpoint, save_restore,
                restore_corrupted, restore_bytes, restore_checkpoint, engine_save_restore,
                engine_restore_corrupted, last = engine_restore_corrupted } kind = select;
  Eigen::Index arm = 0;          // update_any
  double reward = 0.0;           // update_last, update_any
  std::vector<double> rewards;   // rounds: one reward per round
  std::string bytes;             // restore_*: the edits (state_edits.hpp) or the stream
};

[[nodiscard]] inline std::vector<operation> decode_operations(input& in, Eigen::Index num_arms) {
  std::vector<operation> ops;
  while (!in.empty() && ops.size() < 256) {
    operation op;
    op.kind = static_cast<operation::kind_t>(in.in_range<int>(0, operation::last));
    switch (op.kind) {
      case operation::update_last:
        op.reward = in.reward();
        break;
      case operation::update_any:
        op.arm = in.arm(num_arms);
        op.reward = in.reward();
        break;
      case operation::rounds:
        op.rewards.resize(in.in_range<std::size_t>(1, 48));
        for (double& r : op.rewards) r = in.reward();
        break;
      case operation::restore_corrupted:
      case operation::restore_bytes:
      case operation::engine_restore_corrupted:
        op.bytes = in.bytes(64);
        break;
      default:
        break;
    }
    ops.push_back(std::move(op));
  }
  return ops;
}

/// The decisions and exceptions of a few rounds with a fixed engine and fixed rewards, then the
/// state: two policies with the same observable and hidden state give the same text.
template <class Policy>
[[nodiscard]] std::string behaviour(Policy policy) {
  engine gen(20261126);
  std::string trace;
  for (int round = 0; round < 6; ++round) {
    Eigen::Index arm = 0;
    const bool threw = throws_documented(
        select_moves_chains<Policy> ? domain_error : none, "select() in a probe",
        [&] { arm = policy.select(gen); });
    if (threw) {
      trace += "select threw;";
      continue;
    }
    trace += std::to_string(arm) + ";";
    const bool update_threw =
        throws_documented(invalid_argument | domain_error, "update() in a probe",
                          [&] { policy.update(arm, round % 2 == 0 ? 1.0 : 0.0, gen); });
    if (update_threw) trace += "update threw;";
  }
  return trace + state_of(policy).bytes();
}

template <class Policy>
class driver {
 public:
  driver(Policy policy, std::uint64_t seed) : policy_(std::move(policy)), gen_(seed) {}

  void run(const std::vector<operation>& ops) {
    for (std::size_t i = 0; i < ops.size(); ++i) {
      if (ops[i].kind == operation::checkpoint) {
        take_checkpoint(i);
      } else if (ops[i].kind == operation::restore_checkpoint) {
        if (restore_checkpoint(i)) continue;
      } else {
        execute(policy_, gen_, ops[i], last_arm_, trace_);
      }
    }
    check_replay(ops);
  }

 private:
  // The operations after the last checkpoint, replayed on it, must give the same trace and
  // state: a copy is a checkpoint (docs/guarantees.md, "Reproducibility") and shares nothing with the original.
  void check_replay(const std::vector<operation>& ops) {
    if (!checkpoint_) return;
    Policy replayed = *checkpoint_;
    engine gen = checkpoint_engine_;
    Eigen::Index last_arm = checkpoint_last_arm_;
    std::string trace;
    for (std::size_t i = checkpoint_index_ + 1; i < ops.size(); ++i)
      execute(replayed, gen, ops[i], last_arm, trace);
    if (trace != trace_) fail("a copy replayed different decisions: " + trace + " vs " + trace_);
    if (!(state_of(replayed) == state_of(policy_)))
      fail("a copy replayed to a different state");
  }

  void take_checkpoint(std::size_t index) {
    if (checkpoint_) {
      *checkpoint_ = policy_;  // copy assignment
    } else {
      checkpoint_.emplace(policy_);  // copy construction
    }
    if (!(state_of(*checkpoint_) == state_of(policy_))) fail("a copy differs from its original");
    checkpoint_engine_ = gen_;
    checkpoint_last_arm_ = last_arm_;
    checkpoint_index_ = index;
    trace_.clear();
  }

  // Restores the policy from the checkpoint's saved text and rewinds the engine: the policy is
  // then the checkpoint again, so the replay check covers the operations after this one.
  bool restore_checkpoint(std::size_t index) {
    if (!checkpoint_) return false;
    std::istringstream in(saved_text(*checkpoint_));
    sabandit::state::restore(in, policy_);
    if (!(state_of(policy_) == state_of(*checkpoint_)))
      fail("restore() of a checkpoint's text gave a different state");
    gen_ = checkpoint_engine_;
    last_arm_ = checkpoint_last_arm_;
    checkpoint_index_ = index;
    trace_.clear();
    return true;
  }

  static void execute(Policy& policy, engine& gen, const operation& op, Eigen::Index& last_arm,
                      std::string& trace) {
    switch (op.kind) {
      case operation::select:
        select(policy, gen, last_arm, trace);
        break;
      case operation::update_last:
        update(policy, gen, last_arm, op.reward, trace);
        break;
      case operation::update_any:
        update(policy, gen, op.arm, op.reward, trace);
        break;
      case operation::rounds:
        for (const double reward : op.rewards) {
          if (select(policy, gen, last_arm, trace)) update(policy, gen, last_arm, reward, trace);
        }
        break;
      case operation::save_restore:
        save_restore(policy, gen);
        break;
      case operation::restore_corrupted:
      case operation::restore_bytes:
        restore_from(policy, op, trace);
        break;
      case operation::engine_save_restore:
        engine_save_restore(gen);
        break;
      case operation::engine_restore_corrupted:
        engine_restore_from(gen, op, trace);
        break;
      default:
        break;
    }
  }

  // Runs `call` on `policy`; if it throws (a documented exception, else fail), the policy must
  // be exactly as before: the same state and the same behaviour as a copy taken before.
  // `state` is state_of(policy), which the caller may need too (each costs a save()).
  template <class Call>
  static bool strong(Policy& policy, const snapshot& state, allowed expected, const char* name,
                     Call&& call) {
    const Policy before = policy;
    if (!throws_documented(expected, name, call)) return false;
    if (!(state_of(policy) == state)) fail(std::string(name) + " threw and changed the state");
    if (behaviour(policy) != behaviour(before))
      fail(std::string(name) + " threw and changed the decisions that follow");
    return true;
  }
  template <class Call>
  static bool strong(Policy& policy, allowed expected, const char* name, Call&& call) {
    return strong(policy, state_of(policy), expected, name, call);
  }

  /// state_of(policy), its saved text as without_awaiting leaves it.
  static snapshot state_but_awaiting(const Policy& policy) {
    snapshot s;
    s.add(static_cast<long long>(policy.num_arms()));
    detail::add_state(s, policy);
    s.add_text(without_awaiting(saved_text(policy)));
    return s;
  }
  // The warm-up's selections awaiting their rewards, per arm.
  static Eigen::ArrayXd awaited_of(const Policy& policy) {
    Eigen::ArrayXd awaited(policy.num_arms());
    for (Eigen::Index a = 0; a < policy.num_arms(); ++a) awaited(a) = policy.statistics().awaiting(a);
    return awaited;
  }
  // Whether select() plays the warm-up: some arm has fewer than Omega rewards.
  static bool warming_up(const Policy& policy) {
    Eigen::Index omega = 0;
    if constexpr (requires { policy.parameters().warmup; }) {
      omega = policy.parameters().warmup;
    } else {
      omega = policy.posterior().parameters().warmup;  // epsilon_ts: its Thompson sampler's
    }
    return (policy.statistics().counts() < static_cast<double>(omega)).any();
  }

  static bool select(Policy& policy, engine& gen, Eigen::Index& last_arm, std::string& trace) {
    const snapshot state = state_of(policy);
    const snapshot kept = state_but_awaiting(policy);
    const Eigen::ArrayXd awaited = awaited_of(policy);
    const bool warming = warming_up(policy);
    Eigen::Index arm = -1;
    if (strong(policy, state, select_moves_chains<Policy> ? domain_error : none, "select()",
               [&] { arm = policy.select(gen); })) {
      trace += "s!";
      return false;
    }
    if (!(arm >= 0 && arm < policy.num_arms()))
      fail("select() returned arm " + std::to_string(arm) + " of " +
           std::to_string(policy.num_arms()));
    if (!select_moves_chains<Policy> && !(state_but_awaiting(policy) == kept))
      fail("select() changed the observable state");
    // In the warm-up a select() records its arm as awaiting a reward; after it, nothing.
    Eigen::ArrayXd expected = awaited;
    if (warming) expected(arm) += 1.0;
    if (!(awaited_of(policy) == expected).all())
      fail("select() changed the awaited selections otherwise than by its warm-up arm");
    last_arm = arm;
    trace += "s" + std::to_string(arm);
    return true;
  }

  static void update(Policy& policy, engine& gen, Eigen::Index arm, double reward,
                     std::string& trace) {
    const allowed expected =
        out_of_range | invalid_argument | (is_langevin<Policy> ? domain_error : none);
    const bool threw = strong(policy, expected, "update()", [&] { policy.update(arm, reward, gen); });
    const bool valid = arm >= 0 && arm < policy.num_arms() &&
                       std::abs(reward) <= sabandit::bounds::reward;
    if (!threw && !valid) fail("update() accepted an arm or reward outside the contract");
    trace += threw ? "u!" : "u";
  }

  // A policy restored from its own saved text has the same state and behaviour, also when the
  // engine's block follows it in the same stream (docs/state-format.md's example).
  static void save_restore(const Policy& policy, const engine& gen) {
    std::ostringstream out;
    sabandit::state::save(out, policy);
    sabandit::state::save(out, gen);
    Policy copy = policy;
    engine gen_copy(1);
    std::istringstream in(out.str());
    sabandit::state::restore(in, copy);
    sabandit::state::restore(in, gen_copy);
    if (!(state_of(copy) == state_of(policy))) fail("save() then restore() changed the state");
    if (behaviour(copy) != behaviour(policy)) fail("save() then restore() changed decisions");
    if (gen_copy.state() != gen.state()) fail("an engine restored to another state");
  }

  // A saved text with edits (state_edits.hpp), or any bytes with a valid checksum: restore()
  // accepts it or throws std::invalid_argument (format_error) leaving everything as it was. A
  // state it accepts must save and restore again exactly.
  // Texts asking for more memory than the fuzzer has (asks_for_large_state) are skipped, and
  // an accepted state whose parameters cost more time per call than the targets construct
  // with (beyond_fuzzed_work) is put back: both are valid and cost what is documented.
  static void restore_from(Policy& policy, const operation& op, std::string& trace) {
    std::string text = op.bytes;
    if (op.kind == operation::restore_corrupted) {
      text = edited(saved_text(policy), op.bytes);
    } else {
      detail::reseal(text);
    }
    if (asks_for_large_state(text)) {
      trace += "r-";
      return;
    }
    const Policy before = policy;
    std::istringstream in(text);
    const bool threw =
        strong(policy, invalid_argument, "restore()", [&] { sabandit::state::restore(in, policy); });
    if (!threw && beyond_fuzzed_work(policy)) {
      // Too slow to drive, but the accepted state must still save and restore exactly.
      Policy copy = policy;
      std::istringstream again(saved_text(policy));
      sabandit::state::restore(again, copy);
      if (!(state_of(copy) == state_of(policy))) fail("save() then restore() changed the state");
      policy = before;
      trace += "r~";
      return;
    }
    if (!threw) save_restore(policy, engine(2));
    trace += threw ? "r!" : "r";
  }

  // Whether the parameters ask for more work per call than the fuzz targets construct with
  // (langevin_policies_fuzzer.cpp: N <= 3, at most 200 warm-start iterations, B <= 16, a
  // horizon schedule's T <= 12); an altered text may ask N = 2^62, valid and slow as documented.
  [[nodiscard]] static bool beyond_fuzzed_work(const Policy& policy) {
    if constexpr (is_langevin<Policy>) {
      const auto& p = policy.parameters();
      if (p.inner_steps > 3 || p.warm_start.max_iterations > 200) return true;
      if constexpr (requires { p.batch_size; }) {
        return p.batch_size > 16;
      } else if constexpr (requires { p.sa_schedule.inner_steps(Eigen::Index{1}); }) {
        return p.window > 16 || p.sa_schedule.inner_steps(1) > 12;
      } else {
        return p.window > 16;
      }
    } else {
      (void)policy;
      return false;
    }
  }

  static void engine_save_restore(const engine& gen) {
    std::ostringstream out;
    sabandit::state::save(out, gen);
    engine copy(3);
    std::istringstream in(out.str());
    sabandit::state::restore(in, copy);
    if (copy.state() != gen.state()) fail("an engine restored to another state");
  }

  // The engine's restore has the strong guarantee too.
  static void engine_restore_from(engine& gen, const operation& op, std::string& trace) {
    std::ostringstream out;
    sabandit::state::save(out, gen);
    std::istringstream in(edited(out.str(), op.bytes));
    const auto before = gen.state();
    const bool threw = throws_documented(invalid_argument, "restore() of an engine",
                                         [&] { sabandit::state::restore(in, gen); });
    if (threw && gen.state() != before) fail("a rejected engine restore changed the engine");
    trace += threw ? "e!" : "e";
  }

  Policy policy_;
  engine gen_;
  Eigen::Index last_arm_ = 0;
  std::string trace_;  // since the last checkpoint
  std::optional<Policy> checkpoint_;
  engine checkpoint_engine_{0};
  Eigen::Index checkpoint_last_arm_ = 0;
  std::size_t checkpoint_index_ = 0;
};

/// Builds a policy with `make` (which reads its parameters from `in`): it succeeds or throws
/// std::invalid_argument or std::length_error (docs/guarantees.md); then drives it with the
/// rest of the input.
template <class Make>
void construct_and_drive(input& in, Make&& make) {
  using Policy = std::decay_t<decltype(make())>;
  std::optional<Policy> policy;
  throws_documented(invalid_argument | length_error, "construction",
                    [&] { policy.emplace(make()); });
  if (!policy) return;
  const auto seed = in.any_integer<std::uint64_t>();
  const auto ops = decode_operations(in, policy->num_arms());
  driver<Policy>(std::move(*policy), seed).run(ops);
}

}  // namespace sabandit_fuzz
