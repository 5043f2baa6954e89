// Reading a plot at a time: hovering (mouse), touching or, with the plot focused, ← / → (Shift:
// ten samples, Home / End, Escape) put the shared time cursor (web/motion/cursor.js) on the history
// sample nearest the pointer, and the plot shows a readout: each lane's value there, in its
// colour, with units. Every plot draws the cursor line wherever the cursor was set (the timeline
// too). The readout's text is also announced (aria-live). Attached to the plots after the page's
// first frame (web/app/later-parts.js: Plots.attachReadouts), which a readout never is part of.
import { setCursor, cursorTime, cursorSource } from '../motion/cursor.js';
import { nearestSample } from './plots.js';
import { el } from '../common/dom.js';

export const cursorSourceName = 'plots';

export class PlotReadout {
  // plot: a PlotLayer (web/plots/plot-layer.js); host: {sample(): {count, time}, pick(plot, x, y): a sample
  // index under the pointer (CSS pixels in the plot), entries(plot, i): [{colour, name, text}]}.
  constructor(plot, host, label) {
    this.plot = plot;
    this.host = host;
    this.active = false;  // the pointer or the focus is on this plot
    // The canvas takes the focus and says how to read it from the start (web/plots/plots.js plotFigure).
    const canvas = plot.canvas;
    this.box = el('div', { class: 'plot-readout' });
    this.box.hidden = true;
    this.box.setAttribute('aria-hidden', 'true');
    // The announced text: one sentence, plain.
    this.live = el('p', { class: 'visually-hidden' });
    this.live.setAttribute('aria-live', 'polite');
    this.live.dataset.readout = label;
    plot.frame.append(this.box, this.live);
    const frame = plot.frame;
    const at = (event) => {
      const r = canvas.getBoundingClientRect();
      return this.host.pick(plot, event.clientX - r.left, event.clientY - r.top);
    };
    frame.addEventListener('pointermove', (event) => {
      if (event.pointerType === 'touch' && event.buttons === 0) return;
      this.active = true;
      this.show(at(event));
    });
    frame.addEventListener('pointerdown', (event) => {
      this.active = true;
      if (event.pointerType === 'touch') {
        try { frame.setPointerCapture(event.pointerId); } catch { /* a pointer already gone */ }
      }
      this.show(at(event));
    });
    frame.addEventListener('pointerleave', (event) => {
      if (event.pointerType === 'touch') return;  // a touch readout stays until a tap elsewhere
      this.leave();
    });
    document.addEventListener('pointerdown', (event) => {
      if (this.active && !frame.contains(event.target)) this.leave();
    });
    const focused = () => {
      this.active = true;
      const { count, time } = this.host.sample();
      const t = cursorTime();
      this.show(t === null ? count - 1 : nearestSample(t, count, time));
    };
    canvas.addEventListener('focus', focused);
    // Focused before the readout was there (it arrives after the page's first frame).
    if (document.activeElement === canvas) focused();
    canvas.addEventListener('blur', () => this.leave());
    canvas.addEventListener('keydown', (event) => {
      const { count, time } = this.host.sample();
      if (count === 0) return;
      const t = cursorTime();
      const i = t === null ? count - 1 : nearestSample(t, count, time);
      const by = event.shiftKey ? 10 : 1;
      let next = null;
      if (event.key === 'ArrowLeft') next = Math.max(0, i - by);
      else if (event.key === 'ArrowRight') next = Math.min(count - 1, i + by);
      else if (event.key === 'Home') next = 0;
      else if (event.key === 'End') next = count - 1;
      else if (event.key === 'Escape') { this.leave(); return; }
      else return;
      // The page's own → (step) must not act while the plot has the keys.
      event.preventDefault();
      event.stopPropagation();
      this.active = true;
      this.show(next);
    });
  }

  show(i) {
    const { count, time } = this.host.sample();
    if (i === null || i < 0 || i >= count) return;
    setCursor(time(i), cursorSourceName);
  }

  leave() {
    this.active = false;
    this.box.hidden = true;
    if (cursorSource() === cursorSourceName) setCursor(null, cursorSourceName);
  }

  // Fills the readout for sample i (on the active plot only), or hides it.
  update(i, timeText) {
    if (!this.active || i < 0) {
      this.box.hidden = true;
      return;
    }
    const entries = this.host.entries(this.plot, i);
    const rows = entries.map((e) => {
      const row = el('div', { class: 'plot-readout-row' });
      const swatch = el('span', { class: 'plot-readout-swatch' });
      swatch.style.background = e.colour;
      const name = el('span', { class: 'plot-readout-name' });
      name.textContent = e.name;
      const value = el('span', { class: 'plot-readout-value' });
      value.textContent = e.text;
      row.append(swatch, name, value);
      return row;
    });
    const head = el('div', { class: 'plot-readout-time' });
    head.textContent = timeText;
    this.box.replaceChildren(head, ...rows);
    this.box.hidden = false;
    // Beside the cursor line, on the side with more room.
    const x = this.plot.px(cursorTime() ?? 0);
    const left = Number.isFinite(x) && x < this.plot.cssWidth / 2;
    this.box.classList.toggle('right', left);
    // Many lanes: under the plot, which then stays in view (cursor line and all).
    this.box.classList.toggle('below', entries.length > 6);
    this.live.textContent = `${timeText}: ${entries.map((e) => `${e.name} ${e.text}`).join('; ')}`;
  }
}
