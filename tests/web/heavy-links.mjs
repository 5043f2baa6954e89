// The heaviest links the limits accept (issue 31 §4), one table for tests/web/longtasks.test.mjs
// and scripts/measure-heavy.mjs: eight solver lanes at 10,000 passes a step each (1,000 substeps
// of 10 iterations, 10 of 1,000) on a 64-link chain, a 64-link rope bridge, the 8 × 8 cloth and a
// 64-body scene of 256 rods, each with its constrained reference; and a stiff written law on the
// cloth with an rk45 lane and the rk45 reference at their substep cap (2,000 a step).
const heavyLanes = ['xpbd', 'pbd', 'soft_step', 'vbd'].flatMap((m) => [`${m}@10x1000`, `${m}@1000x10`]).join(',');

// 8 × 8 bodies 0.25 m apart hanging from two anchors by rods: the grid's 112 rods, its 98
// diagonals, and rods to the body two along a row, to 256 joins in all.
function rodScene() {
  const items = ['a:0,0.25', 'a:1.75,0.25'];
  for (let r = 0; r < 8; ++r) for (let c = 0; c < 8; ++c) items.push(`b:${c * 0.25},${-r * 0.25}`);
  const b = (r, c) => `b${8 * r + c}`;
  const joins = ['l:a0,b0', 'l:a1,b7'];
  for (let r = 0; r < 8; ++r) {
    for (let c = 0; c < 8; ++c) {
      if (c < 7) joins.push(`l:${b(r, c)},${b(r, c + 1)}`);
      if (r < 7) joins.push(`l:${b(r, c)},${b(r + 1, c)}`);
    }
  }
  for (let r = 0; r < 7; ++r) for (let c = 0; c < 7; ++c) joins.push(`l:${b(r, c)},${b(r + 1, c + 1)}`, `l:${b(r, c + 1)},${b(r + 1, c)}`);
  for (let r = 0; r < 8; ++r) for (let c = 0; c < 6; ++c) joins.push(`l:${b(r, c)},${b(r, c + 2)}`);
  return [...items, ...joins.slice(0, 256)].join(';');
}

export const heavyLinks = [
  { name: 'chain64', title: '64-link chain, 8 solver lanes of 10,000 passes', hash: `scenario=chain&links=64&integrators=${heavyLanes},reference` },
  { name: 'bridge64', title: '64-link rope bridge, the same lanes',
    hash: `scenario=scene&scene=a:-3,0;a:3,0;rope:a0,a1,n:64,len:0.1,m:0.05&g=0,-9.81&integrators=${heavyLanes},reference` },
  { name: 'cloth', title: '8 × 8 cloth, the same lanes', hash: `preset=scene_cloth&integrators=${heavyLanes},reference` },
  { name: 'rods256', title: '64 bodies, 256 rods, the same lanes', hash: `scenario=scene&scene=${rodScene()}&g=0,-9.81&integrators=${heavyLanes},reference` },
  { name: 'cloth_written', title: 'stiff written law on the cloth, rk45 lane and reference at their cap',
    hash: 'preset=scene_cloth&integrators=rk45,xpbd@10x1,reference&fx=-c1*x-c2*x^3&c1=1000000&c2=1000000' },
];
