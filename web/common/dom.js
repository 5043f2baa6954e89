import { readableNumber, plainNumber, exactNumberTitle } from './text.js';

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

// An element's box (getBoundingClientRect's width and height), measured again only when it may have
// changed: a ResizeObserver on its border box says so, the window was resized (its event comes
// before the frame's callbacks, the observer's after them), or the device pixel ratio changed.
// Reading the box in every frame, after the frame before wrote to the page (the legend, the
// readouts), forced a layout of the whole page inside the frame's script. A change of the page's
// own layout while it plays reaches the box one frame late, when the observer reports it.
export class MeasuredBox {
  constructor(element) {
    this.element = element;
    this.stale = true;
    this.ratio = 0;
    this.width = 0;
    this.height = 0;
    if (typeof ResizeObserver === 'function') {
      new ResizeObserver(() => { this.stale = true; }).observe(element, { box: 'border-box' });
    }
    window.addEventListener('resize', () => { this.stale = true; });
  }

  // {width, height} in CSS pixels.
  size() {
    const ratio = window.devicePixelRatio || 1;
    if (this.stale || ratio !== this.ratio || typeof ResizeObserver !== 'function') {
      const rect = this.element.getBoundingClientRect();
      this.width = rect.width;
      this.height = rect.height;
      this.ratio = ratio;
      this.stale = false;
    }
    return { width: this.width, height: this.height };
  }

  // The element's size was set by the caller: measure it at the next size().
  invalidate() { this.stale = true; }
}

// Saves a Blob as a file named `name` (the browser's download): the exports and the X-ray's table.
export function download(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

// Copies text to the clipboard (Copy link, the embed snippet, the X-ray's table, the step code);
// resolves to whether it did (the caller says so). The fallback selects a hidden field and copies it.
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const field = document.createElement('textarea');
    field.value = text;
    field.setAttribute('readonly', '');
    field.style.position = 'fixed';
    field.style.opacity = '0';
    document.body.append(field);
    field.select();
    let ok = false;
    try { ok = document.execCommand('copy'); } catch { ok = false; }
    field.remove();
    return ok;
  }
}

// Shows x (in `unit`) in `element` as a number for people (readableNumber: "1/60 s", "0.0167 s"),
// every digit in its title and one click away: a click on it shows the exact value
// ("0.016666666666666666 s"), the next the readable one again (a title alone never shows on a
// touch screen).
export function showNumber(element, x, unit = '', digits = 3) {
  const tail = unit ? ` ${unit}` : '';
  const exact = `${plainNumber(x)}${tail}`;
  element.dataset.readable = `${readableNumber(x, digits)}${tail}`;
  element.dataset.exact = exact;
  element.title = exactNumberTitle(x, unit);
  element.textContent = element.dataset.exactShown === 'true' ? exact : element.dataset.readable;
  if (!element.dataset.toggles) {
    element.dataset.toggles = 'true';
    element.addEventListener('click', () => {
      element.dataset.exactShown = String(element.dataset.exactShown !== 'true');
      element.textContent = element.dataset.exactShown === 'true' ? element.dataset.exact : element.dataset.readable;
    });
  }
}
