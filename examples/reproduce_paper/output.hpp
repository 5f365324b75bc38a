#pragma once
// Files the reproduction writes, always whole: content goes to "<name>.tmp" first and is
// renamed into place, so an interrupted run never leaves a truncated CSV, table or PNG.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace repro {

namespace fs = std::filesystem;

inline void write_file_atomically(const fs::path& path, const std::string& content) {
  if (path.has_parent_path()) fs::create_directories(path.parent_path());
  const fs::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << content;
    out.flush();
    if (!out) throw std::runtime_error("cannot write " + tmp.string());
  }
  fs::rename(tmp, path);
}

/// One line of a plot: a regret curve with its +-1 s.e. band.
struct series {
  std::string label;
  std::string color;     ///< "#rrggbb"
  int dash_type = 1;     ///< gnuplot dashtype: 1 solid, 2 dashed
  std::vector<long long> x;
  std::vector<double> y;
  std::vector<double> se;
};

/// The paper's colours (Experiments section): TS blue dashed, eps-TS green dashed,
/// TS-SGLD orange, TS-SA purple solid; UCB grey.
struct policy_style {
  const char* color;
  int dash_type;
};
inline policy_style style_of(const std::string& policy) {
  if (policy == "TS") return {"#1f77b4", 2};
  if (policy == "eps-TS") return {"#2ca02c", 2};
  if (policy == "TS-SGLD") return {"#ff7f0e", 1};
  if (policy == "TS-SA") return {"#7b3294", 1};
  return {"#7f7f7f", 1};  // UCB
}

/// Renders `lines` to a PNG with gnuplot (pngcairo), atomically.
inline void plot_png(const fs::path& png, const std::string& title, const std::string& xlabel,
                     const std::string& ylabel, const std::vector<series>& lines) {
  fs::create_directories(png.parent_path());
  const fs::path data = png.string() + ".dat.tmp";
  const fs::path script = png.string() + ".gp.tmp";
  const fs::path tmp_png = png.string() + ".tmp";
  {
    std::ofstream out(data);
    for (const auto& s : lines) {
      for (std::size_t i = 0; i < s.x.size(); ++i) {
        char row[128];
        std::snprintf(row, sizeof row, "%lld %.6f %.6f\n", s.x[i], s.y[i], s.se[i]);
        out << row;
      }
      out << "\n\n";  // gnuplot index separator
    }
  }
  std::ostringstream gp;
  gp << "set terminal pngcairo size 800,560 font 'Sans,11' noenhanced\n"
     << "set output '" << tmp_png.string() << "'\n"
     << "set title '" << title << "'\nset xlabel '" << xlabel << "'\nset ylabel '" << ylabel
     << "'\nset key top left\nset grid\nplot ";
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto& s = lines[i];
    gp << (i ? ", " : "") << "'" << data.string() << "' index " << i
       << " using 1:($2-$3):($2+$3) with filledcurves fc rgb '" << s.color
       << "' fs transparent solid 0.15 noborder notitle, '" << data.string() << "' index " << i
       << " using 1:2 with lines lw 2 dt " << s.dash_type << " lc rgb '" << s.color << "' title '"
       << s.label << "'";
  }
  gp << "\n";
  { std::ofstream(script) << gp.str(); }
  const std::string command = "gnuplot '" + script.string() + "'";
  const int status = std::system(command.c_str());
  fs::remove(data);
  fs::remove(script);
  if (status != 0) {
    fs::remove(tmp_png);
    throw std::runtime_error("gnuplot failed (exit " + std::to_string(status) + ") for " +
                             png.string() + "; is gnuplot installed? (scripts/demo installs it)");
  }
  fs::rename(tmp_png, png);
}

}  // namespace repro
