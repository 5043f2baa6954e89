#include "convergence.hpp"

namespace stepwise {
// Implemented by the convergence work (see convergence.hpp).
}  // namespace stepwise
