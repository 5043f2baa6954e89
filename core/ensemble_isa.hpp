// The instruction sets the ensemble's vectorised methods are compiled for: "default" (the
// build's own, SSE2 on x86-64) everywhere, and on x86-64 with GCC "avx2" and "avx512f" besides,
// chosen at run time. All give the same bits; the widest the processor runs is used. For the
// tests (every one is checked) and the benchmark.
#pragma once
#include <string>
#include <vector>

namespace stepwise::ensemble_isa {

// Those this build has and this processor runs, narrowest first.
std::vector<std::string> available();
std::string current();
// Makes every Ensemble use `name` from its next step; false (nothing changes) when not available.
bool choose(const std::string& name);

}  // namespace stepwise::ensemble_isa
