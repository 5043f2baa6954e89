// Labels on a plot that never overlap: each goes to the first of its candidate places (beside its
// mark, then rows further away) that stays inside the plot area and clear of the marks and of the
// labels placed before it; one with no such place is left out (the legend says the same). No DOM.

// Height of a label's box (11 px text) and the step between its candidate rows; the space kept
// between a label and what is beside it. CSS pixels.
const rowHeight = 14;
const gap = 6;

// labels: [{text, x, y, rows: [dy…], width}] in drawing order, each at its mark (x, y) with the
// rows it may move to (offsets from y); obstacles: boxes [x0, y0, x1, y1] to keep clear of (the
// marks). Returns the labels placed: {text, x, y, align ('left' | 'right'), box}, y the middle of
// the text.
export function placeLabels(labels, area, obstacles = []) {
  const taken = obstacles.slice();
  const placed = [];
  const inside = (b) => b[0] >= area.x + 1 && b[2] <= area.x + area.w - 1 && b[1] >= area.y && b[3] <= area.y + area.h;
  const clear = (b) => taken.every((o) => b[2] + gap <= o[0] || b[0] >= o[2] + gap || b[3] <= o[1] || b[1] >= o[3]);
  for (const label of labels) {
    let found = null;
    for (const dy of label.rows) {
      const y = label.y + dy;
      // After the mark where it fits, else before it.
      for (const align of ['left', 'right']) {
        const x = align === 'left' ? label.x + 8 : label.x - 8;
        const x0 = align === 'left' ? x : x - label.width;
        const box = [x0, y - rowHeight / 2, x0 + label.width, y + rowHeight / 2];
        if (inside(box) && clear(box)) { found = { ...label, x, y, align, box }; break; }
      }
      if (found) break;
    }
    if (!found) continue;
    taken.push(found.box);
    placed.push(found);
  }
  return placed;
}

// The rows a label may take, nearest first: from its own row (0) outwards in steps of a row, on
// one side (+1: down, −1: up) or both (0), up to `most` rows away.
export function rowsAround(side, most = 8) {
  const rows = [0];
  for (let k = 1; k <= most; ++k) {
    if (side >= 0) rows.push(k * rowHeight);
    if (side <= 0) rows.push(-k * rowHeight);
  }
  return rows;
}
