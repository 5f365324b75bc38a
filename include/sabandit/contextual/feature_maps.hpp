#pragma once
// Feature maps of the contextual policies (issue 21): how a context x and an arm a become the
// feature vector phi(x, a) in R^d that a linear or generalised linear model scores, and which
// parameter vector scores it.
//  - disjoint_features: one theta_a per arm and phi(x, a) = x (Li et al. 2010's "disjoint"
//    LinUCB): K parameter blocks of dimension d = the context size.
//  - shared_features<F>: one theta for every arm and a user-supplied phi(x, a) in R^d: one
//    parameter block.
// Every contextual policy is a template over its map, so each policy runs with either: it keeps
// its per-block statistics (ridge statistics, an iterate and its information factor) for
// `map.blocks(K)` blocks, and scores arm a with block `map.block(a)` and `map.features(x, a)`.
#include <concepts>
#include <functional>
#include <string>
#include <string_view>
#include <utility>

#include <Eigen/Core>

#include "sabandit/concepts.hpp"
#include "sabandit/errors.hpp"

namespace sabandit::detail {
/// A context size or feature dimension: >= 1, and <= bounds::state_doubles (2^31), beyond
/// which no policy's state could be allocated anyway (and d x d would overflow).
inline void require_feature_size(std::string_view name, Eigen::Index value) {
  require_at_least<Eigen::Index>(name, value, 1);
  if (value > bounds::state_doubles)
    throw_invalid(name, value, "must be <= 2^31 (bounds::state_doubles)");
}
}  // namespace sabandit::detail

namespace sabandit::contextual {

/// A feature map (see the header comment):
///  - `m.context_size()`              the length of every context;
///  - `m.dimension()`                 d, the length of phi(x, a);
///  - `m.blocks(K)`                   the number of parameter vectors for K arms (K or 1);
///  - `m.block(a)`                    the parameter vector that scores arm a;
///  - `m.features(x, a, scratch)`     phi(x, a), either x itself or written into `scratch`
///                                    (size d); throws std::invalid_argument if it is not finite.
template <class M>
concept FeatureMap =
    std::copy_constructible<M> &&
    requires(const M& map, const vector_cref& x, Eigen::Index arm, Eigen::VectorXd& scratch) {
      { map.context_size() } -> std::convertible_to<Eigen::Index>;
      { map.dimension() } -> std::convertible_to<Eigen::Index>;
      { map.blocks(arm) } -> std::convertible_to<Eigen::Index>;
      { map.block(arm) } -> std::convertible_to<Eigen::Index>;
      { map.features(x, arm, scratch) } -> std::convertible_to<vector_cref>;
    };

/// phi(x, a) = x with one parameter vector per arm (the "disjoint" model of Li et al. 2010).
class disjoint_features {
 public:
  /// Contexts of `context_size` >= 1 entries. Implicit, so that every policy's constructor
  /// `policy(K, map, ...)` reads `policy(K, d, ...)` for disjoint arms with contexts of size d.
  disjoint_features(Eigen::Index context_size)  // NOLINT(google-explicit-constructor)
      : context_size_(context_size) {
    detail::require_feature_size("context_size", context_size);
  }
  /// The length of every context.
  [[nodiscard]] Eigen::Index context_size() const noexcept { return context_size_; }
  /// d = the context size.
  [[nodiscard]] Eigen::Index dimension() const noexcept { return context_size_; }
  /// One block per arm.
  [[nodiscard]] static Eigen::Index blocks(Eigen::Index num_arms) noexcept { return num_arms; }
  /// Arm a has block a.
  [[nodiscard]] static Eigen::Index block(Eigen::Index arm) noexcept { return arm; }
  /// x itself (no copy): the caller has checked it (require_context).
  [[nodiscard]] static vector_cref features(const vector_cref& x, Eigen::Index /*arm*/,
                                            Eigen::VectorXd& /*scratch*/) {
    return x;
  }
  /// "disjoint", the map's name in a saved policy's type.
  [[nodiscard]] static std::string state_name() { return "disjoint"; }

 private:
  Eigen::Index context_size_;
};

/// One parameter vector for every arm and a user-supplied phi(x, a) in R^d: `phi(x, a, out)`
/// writes it into `out` (size d), e.g. x's outer product with a one-hot arm, or an arm's
/// embedding concatenated with x.
template <class Phi = std::function<void(const vector_cref&, Eigen::Index, vector_ref)>>
  requires std::invocable<const Phi&, const vector_cref&, Eigen::Index, vector_ref>
class shared_features {
 public:
  /// Contexts of `context_size` >= 1 entries mapped to R^dimension (dimension >= 1) by phi.
  shared_features(Eigen::Index context_size, Eigen::Index dimension, Phi phi)
      : context_size_(context_size), dimension_(dimension), phi_(std::move(phi)) {
    detail::require_feature_size("context_size", context_size);
    detail::require_feature_size("dimension", dimension);
  }
  /// The length of every context.
  [[nodiscard]] Eigen::Index context_size() const noexcept { return context_size_; }
  /// d, the length of phi(x, a).
  [[nodiscard]] Eigen::Index dimension() const noexcept { return dimension_; }
  /// One block for every arm.
  [[nodiscard]] static Eigen::Index blocks(Eigen::Index /*num_arms*/) noexcept { return 1; }
  /// Every arm has block 0.
  [[nodiscard]] static Eigen::Index block(Eigen::Index /*arm*/) noexcept { return 0; }
  /// phi(x, a) written into scratch; throws std::invalid_argument naming "features" if the
  /// user's map wrote a non-finite entry (it would poison the statistics for good).
  [[nodiscard]] vector_cref features(const vector_cref& x, Eigen::Index arm,
                                     Eigen::VectorXd& scratch) const {
    scratch.resize(dimension_);
    phi_(x, arm, vector_ref(scratch));
    if (!scratch.allFinite())
      detail::throw_invalid("features(x, " + std::to_string(arm) + ")", "non-finite entry",
                            "the feature map must write finite values");
    return scratch;
  }

 private:
  Eigen::Index context_size_;
  Eigen::Index dimension_;
  Phi phi_;
};

static_assert(FeatureMap<disjoint_features>);
static_assert(FeatureMap<shared_features<>>);

}  // namespace sabandit::contextual
