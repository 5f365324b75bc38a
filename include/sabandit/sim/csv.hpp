#pragma once
// Long-form CSV of regret curves: one row per (setting, policy, recorded round).
// Fixed formatting, so the same curves always give the same bytes.
#include <cstdio>
#include <ostream>
#include <string>
#include <string_view>

#include "sabandit/sim/simulate.hpp"

namespace sabandit {

/// The header line (without newline) matching write_regret_csv_rows(), for the file's first line.
inline constexpr std::string_view regret_csv_header =
    "setting,policy,round,mean_regret,std_error,optimal_fraction";

/// Appends one row per recorded round of `curve`, labelled with `setting` and `policy`, so
/// that the curves of many runs can share one long-form file (what plotting tools read).
/// The labels are written as given: they must not contain commas or newlines.
inline void write_regret_csv_rows(std::ostream& out, std::string_view setting,
                                  std::string_view policy, const regret_curve& curve) {
  char line[256];
  for (std::size_t i = 0; i < curve.rounds.size(); ++i) {
    std::snprintf(line, sizeof line, ",%lld,%.6f,%.6f,%.6f\n",
                  static_cast<long long>(curve.rounds[i]), curve.mean_regret[i],
                  curve.standard_error[i], curve.optimal_fraction[i]);
    out << setting << ',' << policy << line;
  }
}

}  // namespace sabandit
