#pragma once
// contextual_benchmark's data sets: Statlog Shuttle and Satellite (R package mlbench) and the
// handwritten digits (python3-sklearn's bundled copy), as scripts/contextual-data exports them
// into its cache folder. Each CSV is one example per line, comma-separated numbers, the class
// last as an integer in [0, K); a first line that starts with a letter names the columns.
// Reading is strict: a field that is not a finite number, a row of another width or a class
// outside [0, K) is an error naming the file, the line and the column.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>

#include <sabandit/contextual/classification_env.hpp>

#include "common/checked.hpp"

namespace repro {

namespace fs = std::filesystem;

/// One of the job's data sets: its file in the cache folder and its published shape.
struct dataset_spec {
  std::string name;        ///< "shuttle": the file is <name>.csv
  std::string title;       ///< "Statlog Shuttle", for tables and plots
  Eigen::Index features;   ///< p, before the protocol's constant 1
  Eigen::Index classes;    ///< K
};

/// Shuttle (58,000 x 9, 7 classes), Satellite (6,435 x 36, 6 classes), digits (1,797 x 64, 10).
inline const std::vector<dataset_spec>& contextual_datasets() {
  static const std::vector<dataset_spec> specs{{"shuttle", "Statlog Shuttle", 9, 7},
                                               {"satellite", "Statlog Satellite", 36, 6},
                                               {"digits", "digits", 64, 10}};
  return specs;
}

/// scripts/contextual-data's cache folder: $SABANDIT_DATA, else
/// ${XDG_CACHE_HOME:-$HOME/.cache}/sabandit/contextual (the script's default too).
inline fs::path default_data_folder() {
  const auto nonempty = [](const char* name) -> const char* {
    const char* value = std::getenv(name);
    return value != nullptr && *value != '\0' ? value : nullptr;
  };
  if (const char* data = nonempty("SABANDIT_DATA")) return data;
  if (const char* cache = nonempty("XDG_CACHE_HOME")) return fs::path(cache) / "sabandit/contextual";
  if (const char* home = nonempty("HOME")) return fs::path(home) / ".cache/sabandit/contextual";
  return "sabandit-contextual-data";
}

/// A labelled table as read: features n x p (a row per example) and the n labels.
struct labelled_table {
  Eigen::MatrixXd features;
  std::vector<Eigen::Index> labels;
};

/// Parses a labelled CSV's `text` with `features` columns then the label in [0, `classes`);
/// `source` names it in errors ("digits.csv:12: column 3: ..."). Throws std::runtime_error.
inline labelled_table parse_labelled_csv(std::string_view text, Eigen::Index features,
                                         Eigen::Index classes, const std::string& source) {
  std::vector<double> values;
  std::vector<Eigen::Index> labels;
  std::size_t line_number = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    const char first = line.front();
    if (line_number == 1 && ((first >= 'A' && first <= 'Z') || (first >= 'a' && first <= 'z'))) {
      continue;  // the column names
    }
    const std::string where = source + ":" + std::to_string(line_number) + ": ";
    Eigen::Index column = 0;
    std::size_t field_start = 0;
    for (;;) {
      const std::size_t comma = line.find(',', field_start);
      const std::string_view field =
          line.substr(field_start, comma == std::string_view::npos ? std::string_view::npos : comma - field_start);
      ++column;
      if (column > features + 1) {
        throw std::runtime_error(where + "more than " + std::to_string(features + 1) +
                                 " columns (" + std::to_string(features) + " features and the class)");
      }
      if (column <= features) {
        const auto value = parse_real(field);
        if (!value) {
          throw std::runtime_error(where + "column " + std::to_string(column) + ": '" +
                                   sabandit::printable(field) + "' is not a finite number");
        }
        values.push_back(*value);
      } else {
        const auto label = parse_integer(field);
        if (!label || *label < 0 || *label >= classes) {
          throw std::runtime_error(where + "column " + std::to_string(column) + " (the class): '" +
                                   sabandit::printable(field) + "' is not an integer in [0, " +
                                   std::to_string(classes) + ")");
        }
        labels.push_back(static_cast<Eigen::Index>(*label));
      }
      if (comma == std::string_view::npos) break;
      field_start = comma + 1;
    }
    if (column != features + 1) {
      throw std::runtime_error(where + std::to_string(column) + " columns, expected " +
                               std::to_string(features + 1) + " (" + std::to_string(features) +
                               " features and the class)");
    }
  }
  if (labels.empty()) throw std::runtime_error(source + ": no example");
  labelled_table table;
  const auto n = static_cast<Eigen::Index>(labels.size());
  table.features = Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
      values.data(), n, features);
  table.labels = std::move(labels);
  return table;
}

/// Reads `path` whole; throws std::runtime_error naming it when it cannot.
inline std::string read_text_file(const fs::path& path, const std::string& hint) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string() + hint);
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw std::runtime_error("cannot read " + path.string());
  return text.str();
}

/// `spec`'s CSV from `folder`, through the protocol (prepare_classification_data).
inline std::shared_ptr<const sabandit::contextual::classification_data> load_dataset(
    const dataset_spec& spec, const fs::path& folder) {
  const fs::path path = folder / (spec.name + ".csv");
  const auto table = parse_labelled_csv(
      read_text_file(path, " (run scripts/contextual-data, or pass --data FOLDER)"), spec.features,
      spec.classes, path.string());
  return std::make_shared<const sabandit::contextual::classification_data>(
      sabandit::contextual::prepare_classification_data(table.features, table.labels, spec.classes));
}

}  // namespace repro
