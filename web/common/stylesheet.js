// A stylesheet of the site, loaded once by a part of the page that is itself loaded on demand
// (the X-ray, the scene editor): resolves when it has applied (or failed: the part still works,
// unstyled). A <link> of the site's own origin: the Content-Security-Policy allows it.
import { el } from './dom.js';

export function loadStylesheet(href) {
  if (document.querySelector(`link[href="${CSS.escape(href)}"]`)) return Promise.resolve();
  return new Promise((resolve) => {
    const link = el('link');
    link.rel = 'stylesheet';
    link.href = href;
    link.addEventListener('load', resolve, { once: true });
    link.addEventListener('error', resolve, { once: true });
    document.head.append(link);
  });
}
