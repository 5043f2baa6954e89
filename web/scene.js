// What the canvas shows besides the bodies, read from the normalised config: anchors, springs
// (which body pairs or anchor-body pairs are joined), the ground and the gravity vector.
// Only geometry given in the config; no physics is computed here.

function vec(params, key) {
  const [x, y] = (params.get(key) || '0,0').split(',').map(Number);
  return { x, y };
}

export function sceneGeometry(config) {
  const params = new URLSearchParams(config);
  const scenario = params.get('scenario');
  // size: how big the mechanism itself is (anchors, springs, bodies), 0 for a lone body. When
  // the whole motion is much larger (a spring pair falling for seconds) the view follows it.
  const geometry = { scenario, anchors: [], springs: [], ground: null, gravity: null, start: [], size: 0 };
  const distance = (a, b) => Math.hypot(a.x - b.x, a.y - b.y);
  if (scenario === 'projectile') {
    geometry.ground = 0;  // y = 0
    geometry.gravity = { x: 0, y: -Number(params.get('g')) };
    geometry.start = [vec(params, 'x0')];
  } else if (scenario === 'spring') {
    geometry.anchors = [vec(params, 'anchor')];
    geometry.springs = [{ anchor: 0, body: 0 }];
    geometry.start = [vec(params, 'x0')];
  } else if (scenario === 'two_spring') {
    geometry.anchors = [vec(params, 'anchor1'), vec(params, 'anchor2')];
    geometry.springs = [{ anchor: 0, body: 0 }, { anchor: 1, body: 0 }];
    geometry.start = [vec(params, 'x0')];
  } else if (scenario === 'spring_pair') {
    geometry.springs = [{ bodies: [0, 1] }];
    geometry.gravity = vec(params, 'g');
    geometry.start = [vec(params, 'x1'), vec(params, 'x2')];
    geometry.size = Math.max(distance(geometry.start[0], geometry.start[1]), Number(params.get('rest')));
  }
  if (geometry.anchors.length > 0) {
    const points = [...geometry.anchors, ...geometry.start];
    for (const a of points) for (const b of points) geometry.size = Math.max(geometry.size, distance(a, b));
  }
  return geometry;
}
