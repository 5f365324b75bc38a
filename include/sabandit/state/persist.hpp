#pragma once
// Save and restore of whole objects (policies, engines) over the text format of archive.hpp.
// Only a program that saves includes it: the policies list their fields through a member
// template on the archive type and include nothing of state/ (detail/state_fields.hpp).
//
// A persistent type names itself (`state_name()`, written in the block's header, so that a
// stream saved by another type is rejected) and lists its fields once in
//   template <class Self, class Archive> static void persist(Self& self, Archive& ar);
// which, when reading, first rebuilds the object through its public constructor from the
// saved parameters (so every parameter check runs again) and then reads the state into it.
// restore() reads into a copy and swaps it in at the end: a stream that fails at any point
// leaves the target exactly as it was (strong guarantee). restore_all() does the same for
// several objects at once (a policy and its engines): all of them, or none.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <istream>
#include <limits>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "sabandit/detail/compiler.hpp"
#include "sabandit/errors.hpp"
#include "sabandit/kernels/schedules.hpp"
#include "sabandit/models/support.hpp"
#include "sabandit/random/xoshiro.hpp"
#include "sabandit/state/archive.hpp"

namespace sabandit::state {

/// A type whose objects can be saved: it names itself and lists its fields (see above).
template <class T>
concept Persistent = requires(const T& object, T& target, writer& w, reader& r) {
  { T::state_name() } -> std::convertible_to<std::string>;
  T::persist(object, w);
  T::persist(target, r);
};

namespace detail {

/// How one object is written and read as a block: its type's name and fields. The primary
/// template serves Persistent types; the engines have their own below.
template <class T>
struct block {
  [[nodiscard]] static std::string name() { return std::string(T::state_name()); }
  template <class Self, class Archive>
  static void persist(Self& self, Archive& ar) {
    T::persist(self, ar);
  }
};

/// xoshiro256++: its four 64-bit words; the all-zero state, which the engine never reaches,
/// is rejected.
template <>
struct block<xoshiro256pp> {
  [[nodiscard]] static std::string name() { return "xoshiro256pp"; }
  static void persist(const xoshiro256pp& engine, writer& ar) {
    for (std::size_t i = 0; i < 4; ++i) ar("word" + std::to_string(i), engine.state()[i]);
  }
  static void persist(xoshiro256pp& engine, reader& ar) {
    xoshiro256pp::state_type words{};
    for (std::size_t i = 0; i < 4; ++i) ar("word" + std::to_string(i), words[i]);
    ar.require(words != xoshiro256pp::state_type{}, "the all-zero xoshiro256++ state");
    engine = xoshiro256pp(words);
  }
};

template <class T>
concept has_block = Persistent<T> || std::same_as<T, xoshiro256pp>;

/// The check of save_all, restore_all, save_file and restore_file, a static_assert rather than
/// a constraint so that a standard engine passed by mistake gets a message that says what to
/// do instead of an unsatisfied has_block<std::mt19937_64>.
template <class... T>
constexpr void require_blocks() {
  static_assert((has_block<T> && ...),
                "sabandit::state saves policies (with persistent models: docs/state-format.md) "
                "and the xoshiro256pp engine; save a standard engine (std::mt19937_64) with its "
                "own operator<< and restore it with operator>>, or use sabandit::xoshiro256pp");
}

template <class T>
void write_block(std::ostream& out, const T& object) {
  writer ar(out, block<T>::name());
  block<T>::persist(object, ar);
  ar.finish();
}

// The shape a restore must keep (docs/state-format.md, "Shape"): K, d for a policy with
// features, and a contextual policy's context size. A policy's shape is fixed when it is
// built; restore() replaces its parameters and what it learned, never how many arms it serves.
template <class T>
void require_same_shape(const reader& ar, const T& restored, const T& target) {
  if constexpr (requires { target.num_arms(); }) {
    if (restored.num_arms() != target.num_arms())
      ar.fail("the state has " + std::to_string(restored.num_arms()) +
                  " arms, the policy restored into has " + std::to_string(target.num_arms()) +
                  " (restore needs a policy of the saved shape)",
              0);
  }
  if constexpr (requires { target.dimension(); }) {
    if (restored.dimension() != target.dimension())
      ar.fail("the state has features of dimension " + std::to_string(restored.dimension()) +
                  ", the policy restored into " + std::to_string(target.dimension()) +
                  " (restore needs a policy of the saved shape)",
              0);
  }
  if constexpr (requires { target.context_size(); }) {  // a contextual policy's x
    if (restored.context_size() != target.context_size())
      ar.fail("the state has contexts of size " + std::to_string(restored.context_size()) +
                  ", the policy restored into " + std::to_string(target.context_size()) +
                  " (restore needs a policy of the saved shape)",
              0);
  }
}

// Saturating arithmetic for the work estimate below: an overflow is "too much".
using sabandit::detail::saturating_mul;

// Every reward a state holds is one the policy's model accepts (a probe forged, with the
// checksum recomputed, a Bernoulli window holding -1 and a Poisson one holding 0.5: both were
// restored, and steered the chains with rewards that update() refuses).
template <class Model, class Rewards>
void require_supported(const reader& ar, const Model& model, const Rewards& rewards,
                       const std::string& where) {
  for (Eigen::Index i = 0; i < rewards.size(); ++i) {
    try {
      sabandit::detail::require_supported_reward(model, rewards(i));
    } catch (const std::exception& refused) {  // a user's model may throw its own type
      ar.fail("inconsistent state: " + where + " holds a reward the model refuses (" +
                  sabandit::detail::reason_of(refused) + ")",
              0);
    }
  }
}

// A wrapped TS-SA window's running sum (reward_windows.hpp: each push adds the new reward less
// the one it replaces; exact again once per turn) is one its rewards can have, for a model
// whose rewards are not negative (RangeDeclaringModel, lower >= 0). It differs from the
// buffer's sum by the rounding of at most B pushes since the last resynchronisation and of
// that sum: with u = eps / 2 and every reward <= M, at most 3 B^2 u M, and the sum taken here
// rounds by B^2 u M more; the bound allows twice that, 4 B^2 eps M. M is the smaller of the
// range's upper bound and the arm's statistics' sum, which no reward it ever had exceeds (a
// rounded sum of non-negative numbers is at least each of them), and which is at least the
// window's sum less its rounding. Whole-number rewards have whole running sums, exactly. (A
// probe's forged Bernoulli running sum of -1e6 starved the arm for good, without an error.)
template <class Model, class Windows>
void require_running_sum(const reader& ar, const Model& /*model*/, const Windows& windows,
                         Eigen::Index arm, double statistics_sum) {
  if constexpr (RangeDeclaringModel<Model>) {
    const reward_interval range = Model::reward_range();
    if (!(range.lower >= 0.0)) return;
    const auto rewards = windows.rewards(arm);
    double held = 0.0;
    for (Eigen::Index i = 0; i < rewards.size(); ++i) held += rewards(i);
    const double b = static_cast<double>(windows.capacity());
    const double largest = std::fmin(range.upper, statistics_sum);
    const double allowance = 4.0 * b * b * std::numeric_limits<double>::epsilon() * largest;
    const double sum = windows.running_sum(arm);
    const bool whole = !range.whole || sum == std::floor(sum);
    if (!(std::abs(sum - held) <= allowance) || !whole || !(statistics_sum >= held - allowance))
      ar.fail("inconsistent state: the window of arm " + std::to_string(arm) +
                  " has the running sum " + number_text(sum) + ", which its rewards (summing to " +
                  number_text(held) + ") and the arm's statistics' sum (" +
                  number_text(statistics_sum) + ") cannot have",
              0);
  }
}

// The checks a restored Langevin policy passes besides its fields' own (docs/state-format.md,
// "What restore checks"), through its public accessors, so that every policy built on the
// Langevin core gets them:
//  - the gradient source agrees with the statistics: a TS-SGLD history holds rewards within the
//    reward bound whose sum, taken in order, is the arm's sum to the bit; a TS-SA window that
//    has not wrapped (n_a <= B) holds the arm's rewards, the same way; one that has, for a model
//    of non-negative rewards, a running sum its rewards can have (require_running_sum);
//  - for every arm past its warm-up, the model's mean at its iterate is finite (a Poisson theta
//    of 1000 made every later round throw: a chain never stores such an iterate), and so are
//    its decision scores;
//  - the next round computes at most bounds::round_work gradient terms.
template <class T>
void check_restored(const reader& ar, const T& p) {
  if constexpr (requires { p.parameter_estimates(); p.features(); p.model(); p.statistics(); }) {
    const auto& stats = p.statistics();
    const Eigen::Index arms = p.num_arms();
    const Eigen::Index d = p.dimension();
    std::int64_t work = 0;
    for (Eigen::Index a = 0; a < arms; ++a) {
      const std::string arm = "arm " + std::to_string(a);
      const auto pulls = static_cast<Eigen::Index>(stats.count(a));
      if (pulls >= p.parameters().warmup) {  // the arm's chain has started
        const double mean = p.model().mean(p.features().col(a), p.parameter_estimates().col(a));
        if (!std::isfinite(mean))
          ar.fail("inconsistent state: the model's mean at the iterate of " + arm + " is " +
                      number_text(mean) + ", not finite",
                  0);
        if (!std::isfinite(p.decision_centers()(a)) || !std::isfinite(p.decision_spreads()(a)))
          ar.fail("inconsistent state: the decision score of " + arm + " is not finite", 0);
      }
      double sum = 0.0;
      if constexpr (requires { p.windows(); }) {
        const auto& windows = p.windows();
        require_supported(ar, p.model(), windows.rewards(a), "the window of " + arm);
        if (pulls <= windows.capacity()) {
          const auto rewards = windows.rewards(a);
          for (Eigen::Index i = 0; i < rewards.size(); ++i) sum += rewards(i);
          if (sum != stats.sums()(a) || (pulls > 0 && windows.mean(a) != sum / static_cast<double>(pulls)))
            ar.fail("inconsistent state: the window of " + arm +
                        " does not hold the rewards its statistics sum",
                    0);
        } else {
          require_running_sum(ar, p.model(), windows, a, stats.sums()(a));
        }
        const Eigen::Index steps =
            sabandit::inner_steps(p.parameters().sa_schedule, std::max<Eigen::Index>(pulls, 1),
                        p.parameters().inner_steps);
        work = std::max(work, saturating_mul(saturating_mul(steps, windows.capacity()), d));
      } else if constexpr (requires { p.history(a); }) {
        const auto history = p.history(a);
        for (Eigen::Index i = 0; i < history.size(); ++i) {
          if (!(std::abs(history(i)) <= bounds::reward))
            ar.fail("inconsistent state: the history of " + arm + " holds " +
                        number_text(history(i)) + ", beyond the reward bound 1e150",
                    0);
          sum += history(i);
        }
        require_supported(ar, p.model(), history, "the history of " + arm);
        if (sum != stats.sums()(a))
          ar.fail("inconsistent state: the history of " + arm +
                      " does not sum to its statistics' sum",
                  0);
        // Every arm's chain moves in select(): N steps over a batch each.
        work = saturating_mul(saturating_mul(p.parameters().inner_steps, p.parameters().batch_size),
                              saturating_mul(d, arms));
      }
    }
    constexpr bool windowed = requires { p.windows(); };
    if (work > bounds::round_work)
      ar.fail("the state's next round would compute " + std::to_string(work) +
                  " gradient terms (inner steps x window or batch x dimension" +
                  std::string(windowed ? "" : " x arms") +
                  "), beyond bounds::round_work = 2^28: check params.inner_steps, the "
                  "schedule's horizon, params.window or params.batch_size",
              0);
  }
}

// Reads the next block of `in` into a copy of `target` and returns it; `target` is untouched.
// `where` names the block in messages; `lines` advances past it.
template <class T>
T read_block(std::istream& in, const T& target, block_location where, std::size_t& lines) {
  reader ar(in, block<T>::name(), where);
  lines += ar.lines_read();
  T restored = target;  // rebuilt by persist from the saved parameters
  try {
    block<T>::persist(restored, ar);
  } catch (const sabandit::detail::state_size_error& e) {
    // The constructor's bound on K and the per-arm sizes: no policy could have saved such a
    // state, so the stream was altered.
    ar.fail("its sizes ask for more state than any policy has: " + sabandit::detail::reason_of(e), 0);
  } catch (const format_error&) {
    throw;
  } catch (const std::invalid_argument& e) {
    // The constructor's checks of the saved parameters (num_arms = 0, a negative step size):
    // no policy saved them either. A format_error like every other refusal, naming the block,
    // so that a caller who catches format_error for a bad checkpoint catches these too.
    std::string why = sabandit::detail::reason_of(e);  // "invalid argument: step_size (h) = -1 ..."
    if (why.starts_with("invalid argument: ")) why.erase(0, 18);
    ar.fail("its parameters are invalid: " + why, 0);
  }
  ar.finish();
  require_same_shape(ar, restored, target);
  check_restored(ar, restored);
  return restored;
}

}  // namespace detail

/// Writes `object`'s complete state as one block (docs/state-format.md). Throws
/// std::ios_base::failure if the stream fails.
template <Persistent T>
void save(std::ostream& out, const T& object) {
  detail::write_block(out, object);
}

/// Replaces `target`'s parameters and state by those saved in the next block of `in`: given the
/// same engine state it then makes exactly the saved policy's decisions. Throws format_error
/// (a std::invalid_argument), naming the block and the line, for an unreadable, truncated,
/// altered, wrong-version or wrong-type block, an impossible state (sizes beyond
/// bounds::state_doubles among them), or a state of another shape than `target`'s (K, and d
/// for a policy with features: docs/state-format.md, "Shape"), or invalid parameters (the
/// constructor's checks, whose message it quotes); `target` is then unchanged. Saved sizes
/// must be backed by the block's own numbers before the object is rebuilt from them
/// (reader::require_backed), except TS-SGLD's batch size, for which a restore may allocate
/// up to the bound: std::bad_alloc, `target` unchanged, when memory runs out
/// (docs/state-format.md).
template <Persistent T>
void restore(std::istream& in, T& target) {
  std::size_t lines = 0;
  T restored = detail::read_block(in, std::as_const(target), {}, lines);
  target = std::move(restored);
}

/// Saves an xoshiro256++ engine: its 256-bit state.
inline void save(std::ostream& out, const xoshiro256pp& engine) {
  detail::write_block(out, engine);
}

/// Restores an xoshiro256++ engine saved by save(); the all-zero state (which the engine can
/// never reach) is rejected. Strong guarantee.
inline void restore(std::istream& in, xoshiro256pp& engine) {
  std::size_t lines = 0;
  engine = detail::read_block(in, std::as_const(engine), {}, lines);
}

namespace detail {
/// restore_all() with a last check: `before_commit(lines)` runs once every block has been read
/// into a copy (`lines`: the stream's lines read), and may throw, leaving every object unchanged.
template <class BeforeCommit, class... T>
void restore_blocks(std::istream& in, BeforeCommit&& before_commit, T&... objects) {
  static_assert((std::is_nothrow_move_assignable_v<T> && ...),
                "restore_all commits by moving: every object must be nothrow move assignable");
  std::size_t lines = 0;
  int index = 0;
  constexpr int count = static_cast<int>(sizeof...(T));
  const auto next = [&](const auto& object) {
    ++index;
    return read_block(in, object, {index, count, lines + 1}, lines);
  };
  // Braced initialisation reads the blocks in order.
  std::tuple<T...> restored{next(std::as_const(objects))...};
  before_commit(lines);
  std::apply([&](auto&... read) { ((objects = std::move(read)), ...); }, restored);
}
}  // namespace detail

/// Writes several objects (policies and engines, in any mix) as consecutive blocks, in order:
/// a checkpoint that restore_all() reads back. Throws std::ios_base::failure if the stream
/// fails.
template <class... T>
  requires(sizeof...(T) >= 1)
void save_all(std::ostream& out, const T&... objects) {
  detail::require_blocks<T...>();
  (detail::write_block(out, objects), ...);
}

/// Restores every object from consecutive blocks of `in`, in the order save_all() wrote them,
/// all or nothing: each block is read into a copy, and the objects are replaced only once
/// every block has been read and checked. A failure in any block (the errors of restore())
/// throws, naming the block ("block 3 of 3 'xoshiro256pp', line 57"), and leaves every object
/// unchanged.
template <class... T>
  requires(sizeof...(T) >= 1)
void restore_all(std::istream& in, T&... objects) {
  detail::require_blocks<T...>();
  detail::restore_blocks(in, [](std::size_t /*lines*/) {}, objects...);
}

}  // namespace sabandit::state
