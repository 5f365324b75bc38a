// A checkpoint takes sabandit's policies and its own engine: a standard engine has no block in
// the state format (it saves itself with operator<<). Passing one must fail with the message
// that says so, not with an unsatisfied constraint (a newcomer's report).
#include <random>
#include <sstream>

#include "sabandit/random/xoshiro.hpp"
#include "sabandit/state/persist.hpp"

int main() {
  sabandit::xoshiro256pp engine(1);
  std::mt19937_64 standard(1);
  std::ostringstream out;
  sabandit::state::save_all(out, engine, standard);
  return static_cast<int>(out.str().size());
}
