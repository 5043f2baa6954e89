// The page's one way to make an element: el(tag, props, children). props: `class`, `text` (the
// text content, never markup: no text from a link or a message is ever parsed as HTML), and any
// other key as a property where the element has one and the value is not a string (checked,
// disabled, a number's value), else as an attribute (id, for, aria-*, title). An undefined value
// sets nothing. children: elements or strings, appended in order.
export function el(tag, props = {}, children = []) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined) continue;
    if (k === 'text') e.textContent = v;
    else if (k === 'class') { if (v) e.className = v; }
    else if (k in e && typeof v !== 'string') e[k] = v;
    else e.setAttribute(k, v);
  }
  e.append(...children);
  return e;
}
