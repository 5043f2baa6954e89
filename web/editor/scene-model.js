// The scene editor's model and its edits, with no DOM and no text: the core's own objects
// (core.sceneModel: {anchors: [{x, y}], bodies: [{x, y, m, vx, vy}], springs: [{a, b, k, rest,
// d}], links: [{a, b, rest, alpha, d}]}, an end {anchor, index}, rest null for "the ends'
// distance at the start"). Every edit returns a new model and leaves the old one as it was; the
// core writes and checks the text of each (core.sceneText), so no grammar lives here.
//
// An element of the scene is {list, index}: list one of 'anchors', 'bodies', 'springs', 'links'.

export const pointLists = ['anchors', 'bodies'];
export const joinLists = ['springs', 'links'];
export const allLists = ['anchors', 'bodies', 'springs', 'links'];

// A deep copy (the model is plain numbers, booleans and null).
export function copyModel(model) {
  const end = (e) => ({ anchor: Boolean(e.anchor), index: e.index });
  return {
    anchors: model.anchors.map((p) => ({ x: p.x, y: p.y })),
    bodies: model.bodies.map((p) => ({ x: p.x, y: p.y, m: p.m, vx: p.vx, vy: p.vy })),
    springs: model.springs.map((s) => ({ a: end(s.a), b: end(s.b), k: s.k, rest: s.rest, d: s.d })),
    links: model.links.map((s) => ({ a: end(s.a), b: end(s.b), rest: s.rest, alpha: s.alpha, d: s.d })),
  };
}

// Each kind's defaults from the core's grammar table (core.sceneGrammar.kinds: id 'b', 's', 'l').
export function defaultsOf(grammar) {
  const fields = (id) => {
    const kind = grammar.kinds.find((k) => k.id === id);
    return Object.fromEntries((kind ? kind.fields : []).map((f) => [f.name, f.default]));
  };
  return { body: fields('b'), spring: fields('s'), link: fields('l') };
}

// The end an element is, when it is a point: {anchor, index}; null for a join.
export function endOf(element) {
  if (!element || !pointLists.includes(element.list)) return null;
  return { anchor: element.list === 'anchors', index: element.index };
}
export const elementOfEnd = (end) => ({ list: end.anchor ? 'anchors' : 'bodies', index: end.index });
export const sameEnd = (a, b) => Boolean(a && b) && Boolean(a.anchor) === Boolean(b.anchor) && a.index === b.index;
export const sameElement = (a, b) => Boolean(a && b) && a.list === b.list && a.index === b.index;

// Where an end is: its point of the model, or null when it names nothing.
export function pointOf(model, end) {
  return (end.anchor ? model.anchors : model.bodies)[end.index] || null;
}

// Whether an element still names something in the model.
export function exists(model, element) {
  return Boolean(element && model[element.list] && model[element.list][element.index]);
}

// Every element in one order (anchors, bodies, springs, links): what [ and ] step through.
export function elements(model) {
  return allLists.flatMap((list) => model[list].map((_, index) => ({ list, index })));
}

// The element after (step 1) or before (step −1) `from` in that order, wrapping; only points
// when `pointsOnly`, leaving out `skip` (a join's first end).
export function stepElement(model, from, step, { pointsOnly = false, skip = null } = {}) {
  const list = elements(model).filter((e) => (!pointsOnly || pointLists.includes(e.list)) && !sameElement(e, skip));
  if (list.length === 0) return null;
  const at = from ? list.findIndex((e) => sameElement(e, from)) : -1;
  if (at < 0) return step > 0 ? list[0] : list[list.length - 1];
  return list[(at + step + list.length) % list.length];
}

export function addBody(model, x, y, defaults) {
  const next = copyModel(model);
  next.bodies.push({ x, y, m: defaults.body.m, vx: defaults.body.vx, vy: defaults.body.vy });
  return { model: next, element: { list: 'bodies', index: next.bodies.length - 1 } };
}

export function addAnchor(model, x, y) {
  const next = copyModel(model);
  next.anchors.push({ x, y });
  return { model: next, element: { list: 'anchors', index: next.anchors.length - 1 } };
}

// A spring (kind 'springs') or a rod (kind 'links': a link of compliance 0) between two ends,
// its rest length left to their distance at the start.
export function join(model, kind, a, b, defaults) {
  const next = copyModel(model);
  const ends = { a: { anchor: Boolean(a.anchor), index: a.index }, b: { anchor: Boolean(b.anchor), index: b.index } };
  if (kind === 'links') next.links.push({ ...ends, rest: null, alpha: 0, d: defaults.link.d });
  else next.springs.push({ ...ends, k: defaults.spring.k, rest: null, d: defaults.spring.d });
  return { model: next, element: { list: kind, index: next[kind].length - 1 } };
}

// Sets fields of one element ({x: 1.5}, {rest: null}, …).
export function setFields(model, element, fields) {
  const next = copyModel(model);
  Object.assign(next[element.list][element.index], fields);
  return next;
}

// The joins' ends renamed after points were taken out or moved between lists: rename(end) gives
// the new end, or null when that end is gone (its joins go with it).
function renameEnds(model, rename) {
  for (const list of joinLists) {
    model[list] = model[list].filter((s) => {
      const a = rename(s.a), b = rename(s.b);
      if (!a || !b) return false;
      s.a = a;
      s.b = b;
      return true;
    });
  }
}

// Takes an element out; a point takes its joins with it.
export function remove(model, element) {
  const next = copyModel(model);
  next[element.list].splice(element.index, 1);
  if (pointLists.includes(element.list)) {
    const anchor = element.list === 'anchors';
    renameEnds(next, (e) => {
      if (Boolean(e.anchor) !== anchor) return e;
      if (e.index === element.index) return null;
      return e.index > element.index ? { anchor: e.anchor, index: e.index - 1 } : e;
    });
  }
  return { model: next, element: null };
}

// A body becomes an anchor at its place (pinned), or an anchor a body (unpinned, with the
// default mass and at rest); its joins follow it. Returns the element it became.
export function togglePin(model, element, defaults) {
  const next = copyModel(model);
  if (element.list === 'bodies') {
    const [p] = next.bodies.splice(element.index, 1);
    next.anchors.push({ x: p.x, y: p.y });
    const anchorIndex = next.anchors.length - 1;
    renameEnds(next, (e) => {
      if (e.anchor) return e;
      if (e.index === element.index) return { anchor: true, index: anchorIndex };
      return e.index > element.index ? { anchor: false, index: e.index - 1 } : e;
    });
    return { model: next, element: { list: 'anchors', index: anchorIndex } };
  }
  if (element.list === 'anchors') {
    const [p] = next.anchors.splice(element.index, 1);
    next.bodies.push({ x: p.x, y: p.y, m: defaults.body.m, vx: defaults.body.vx, vy: defaults.body.vy });
    const bodyIndex = next.bodies.length - 1;
    renameEnds(next, (e) => {
      if (!e.anchor) return e;
      if (e.index === element.index) return { anchor: false, index: bodyIndex };
      return e.index > element.index ? { anchor: true, index: e.index - 1 } : e;
    });
    return { model: next, element: { list: 'bodies', index: bodyIndex } };
  }
  return { model: next, element };
}

// The box (metres) of every point, or null for an empty scene.
export function extent(model) {
  const points = [...model.anchors, ...model.bodies].filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y));
  if (points.length === 0) return null;
  return {
    minX: Math.min(...points.map((p) => p.x)), maxX: Math.max(...points.map((p) => p.x)),
    minY: Math.min(...points.map((p) => p.y)), maxY: Math.max(...points.map((p) => p.y)),
  };
}
