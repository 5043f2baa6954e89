// The view switcher: one tab per row of the core's views table (Motion, Convergence, Stability,
// Phase cloud), an ARIA tablist with a roving tabindex. ←/→ (and Home/End) move between tabs and
// select at once; the selection goes through the config (view=…), so a link opens the same view.
// Text only through textContent.
import { viewRow } from './views.js';
import { t } from '../common/language.js';

// The element that shows a view, for its tab's aria-controls (an id that exists on the page).
const shownBy = { motion: 'view', cloud: 'cloud-panel', analysis: 'analysis' };

export class ViewTabs {
  // views: the core's table; select(id): switch to a view (through the config).
  constructor(root, views, select) {
    this.root = root;
    this.views = views;
    this.tabs = views.map((v) => {
      const tab = document.createElement('button');
      tab.type = 'button';
      tab.id = `tab-${v.id}`;
      tab.className = 'view-tab';
      tab.setAttribute('role', 'tab');
      tab.setAttribute('aria-controls', shownBy[viewRow(v.id).layout] || 'analysis');
      tab.textContent = v.name;
      tab.title = v.description;
      tab.dataset.view = v.id;
      tab.addEventListener('click', () => select(v.id));
      return tab;
    });
    root.setAttribute('role', 'tablist');
    root.setAttribute('aria-label', t('View'));
    root.replaceChildren(...this.tabs);
    root.addEventListener('keydown', (e) => {
      const at = this.tabs.indexOf(document.activeElement);
      if (at < 0) return;
      const n = this.tabs.length;
      const next = { ArrowRight: (at + 1) % n, ArrowLeft: (at + n - 1) % n, Home: 0, End: n - 1 }[e.key];
      if (next === undefined) return;
      e.preventDefault();
      e.stopPropagation();  // not the page's own arrow key (one step)
      this.tabs[next].focus();
      select(this.views[next].id);
    });
  }

  // Shows `id` as the selected tab; shownIn: the id of the element that shows it instead of its
  // own (the analysis region, where a game loop rules the view out and the page says why).
  show(id, shownIn = null) {
    this.tabs.forEach((tab) => {
      const on = tab.dataset.view === id;
      tab.setAttribute('aria-selected', String(on));
      tab.tabIndex = on ? 0 : -1;
      tab.setAttribute('aria-controls', (on && shownIn) || shownBy[viewRow(tab.dataset.view).layout] || 'analysis');
    });
  }
}
