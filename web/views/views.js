// How the page shows each row of the core's views table (core/config.hpp views()): which parts
// of the page it uses, and for an analysis its own module, loaded on demand (the motion view's
// first frame never pays for them). A view the core adds without a row here shows as motion.
//   layout: motion   the canvas, its legend and the plots
//           cloud    the phase-space cloud panel as the main view (started with cloudPoints per
//                    integrator when the config has no cloud), the legend and the plots
//           analysis the module's panel in place of the canvas and the plots
export const viewRows = {
  motion: { layout: 'motion' },
  cloud: { layout: 'cloud', cloudPoints: 20000 },
  convergence: { layout: 'analysis', load: () => import('./convergence.js') },
  stability: { layout: 'analysis', load: () => import('./stability.js') },
};

export const viewRow = (id) => viewRows[id] || viewRows.motion;
