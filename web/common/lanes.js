// A lane's id is the core's written form (core/config.hpp lane_id): a method's id, with its
// settings when it has any: "xpbd@20x1" (20 substeps of 1 iteration each), "semi_implicit_euler@20".
// Everything the page knows about a lane's method it finds through methodOf.
import { t } from './language.js';
import { withoutKeys } from './query.js';

// "xpbd" of "xpbd@20x1".
export const methodOf = (laneId) => String(laneId).split('@')[0];

// The lane's own settings: {substeps, iterations} (iterations 0: the method's default), or null
// for a lane of one substep at the default iterations.
export function laneSettings(laneId) {
  const at = String(laneId).indexOf('@');
  if (at < 0) return null;
  const [substeps, iterations] = String(laneId).slice(at + 1).split('x').map(Number);
  return { substeps, iterations: iterations || 0 };
}

// A lane's written form from its parts: "xpbd@20x1", "semi_implicit_euler@20", "rk4" (iterations
// 0: the method's default; the core writes iterations equal to the default as 0 too).
export function laneIdOf(method, substeps, iterations = 0) {
  if (substeps === 1 && !iterations) return method;
  return `${method}@${substeps}${iterations ? `x${iterations}` : ''}`;
}

// The core's row of the lane's method (core.integrators), or undefined.
export const methodInfo = (integrators, laneId) => integrators.find((i) => i.id === methodOf(laneId));

// The lane's name: its method's, then its settings in words when it has any
// ("XPBD · 20 substeps × 1 iteration", "Semi-implicit Euler · 20 substeps").
export function laneName(integrators, laneId) {
  const info = methodInfo(integrators, laneId);
  const name = info ? info.name : laneId;
  const settings = laneSettings(laneId);
  if (!settings) return name;
  const substeps = settings.substeps === 1 ? t('1 substep') : t('{n} substeps', { n: settings.substeps });
  const iterations = settings.iterations || (info && info.default_iterations) || 0;
  if (!iterations) return `${name} · ${substeps}`;
  return `${name} · ${substeps} × ${iterationsText(iterations)}`;
}

// "1 iteration", "20 iterations".
export const iterationsText = (n) => (n === 1 ? t('1 iteration') : t('{n} iterations', { n }));

// The methods that step a rigid link (the core's solves_constraints: the game-physics solvers),
// in the table's order.
export const rodSolvers = (integrators) => integrators.filter((i) => i.solves_constraints);

// `config`, or where it carries over lanes none of which can step its system, the same without
// them: the core's default lanes for that system (core/config.hpp default_lanes), which step it.
// System → Chain after the spring's force-based four, or a rod added in the editor, opens with
// the lanes a link to that system opens with (the solvers, beside the reference) instead of
// lanes that never start. Whether the lanes step the system is the core's (parse().noLaneSteps).
export function withRodLanes(core, config) {
  return core.parse(config).noLaneSteps ? withoutKeys(config, ['integrators']) : config;
}

// What a force-based lane on rigid links says besides the core's reason: the methods that step
// rods, by name ("the solvers that step rods: PBD, XPBD, …").
export const rodSolversText = (integrators) =>
  t('methods that step rods: {names}', { names: rodSolvers(integrators).map((i) => i.name).join(', ') });
