#pragma once
// Independent streams from (seed, trial, role). One experiment seed fans out into one engine
// per trial and per purpose (the policy's own randomness, each arm's rewards, ...), so that a
// trial's result does not depend on which thread ran it, nor on how many trials ran before.
#include <cstdint>

#include "sabandit/random/xoshiro.hpp"

namespace sabandit {

/// Well-known roles; arm a's reward stream is `stream_role::arm_rewards + a`.
struct stream_role {
  /// The policy's own randomness (its samples, its exploration coin flips).
  static constexpr std::uint64_t policy = 1;
  /// Randomness of the environment that belongs to no single arm.
  static constexpr std::uint64_t environment = 2;
  /// The first arm's reward stream; far above the other roles so that no arm index can make
  /// an arm share a stream with them (common random numbers across policies need this).
  static constexpr std::uint64_t arm_rewards = 1ULL << 32U;
};

/// A 64-bit stream key: each coordinate passes through the SplitMix64 finaliser before the
/// next is folded in, so nearby (seed, trial, role) triples give unrelated keys.
[[nodiscard]] constexpr std::uint64_t stream_key(std::uint64_t seed, std::uint64_t trial,
                                                 std::uint64_t role) noexcept {
  std::uint64_t key = splitmix64::mix(seed + 0x9e3779b97f4a7c15ULL);
  key = splitmix64::mix(key ^ (trial + 0x632be59bd9b4e019ULL));
  key = splitmix64::mix(key ^ (role + 0x8cb92ba72f3d8dd7ULL));
  return key;
}

/// An engine on the stream (seed, trial, role). Streams of xoshiro256++ seeded from distinct
/// keys overlap with negligible probability (2^-256 state space, Vigna's analysis).
template <class Engine = default_engine>
[[nodiscard]] constexpr Engine make_stream(std::uint64_t seed, std::uint64_t trial,
                                           std::uint64_t role) noexcept {
  return Engine(stream_key(seed, trial, role));
}

}  // namespace sabandit
