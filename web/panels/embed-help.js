// The Embed dialog's list of the messages a host page sends its frame and gets back (the whole
// protocol: docs/embedding.md), made when the dialog first opens: a module loaded then, so the
// first frame's bytes stay the motion's (it imports only the page's el: t, the page's translation,
// comes from the caller). Text only through textContent.
import { el } from '../common/dom.js';

// An item: the lead text, then message names (code) and text between them.
function item(parts) {
  const li = el('li');
  for (const p of parts) li.append(p.code ? el('code', { text: p.code }) : p);
  return li;
}

export function messagesList(t) {
  const names = (list) => list.flatMap((name, i) => (i ? [', ', { code: `stepwise:${name}` }] : [{ code: `stepwise:${name}` }]));
  const details = el('details', { class: 'embed-api' });
  const list = el('ul', { class: 'hint' });
  list.append(
    item([`${t('To the frame, after')} `, { code: 'stepwise:ready' }, ': ', { code: 'stepwise:set' }, ` ${t('(with')} `,
      { code: 'query' }, '), ', ...names(['play', 'pause', 'step', 'reset']), '.']),
    item([`${t('From the frame:')} `, { code: 'stepwise:ready' }, ', ', { code: 'stepwise:state' },
      ` ${t("(t and each integrator's energy drift, error and divergence, at most 4 a second),")} `, { code: 'stepwise:diverged' }, '.']),
  );
  details.append(el('summary', { text: t('The messages') }), list);
  return details;
}
