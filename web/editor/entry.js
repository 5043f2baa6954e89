// The scene editor's button, the one part of it that loads with the page: "Edit scene" among the
// buttons over the canvas's top-right corner (beside Methods: in every embed layout, and no room
// taken from the page's rows). The editor itself (web/editor/editor.js) and the full module it needs load
// the first time it is pressed, so the first frame carries none of it. On a system that is not a
// built scene the button starts one (the core's default scene). An embedded frame shows it only
// on a built scene and only when the embed asks for editing (edit=1, web/app/mode.js).
import { el } from '../common/dom.js';
import { t, coreMessage } from '../common/language.js';
import { formatValue } from '../common/text.js';
import { valueOf, withKey } from '../common/query.js';
import { withRodLanes } from '../common/lanes.js';
import { ClippedPath, niceStep, stepMultiples } from '../motion/coords.js';
import { anchorMark } from '../motion/scene-drawing.js';
import { arrowMark } from '../motion/lane-drawing.js';

// What the editor uses of the page (handed over, not imported: see web/editor/editor.js).
const shared = { el, t, coreMessage, formatValue, valueOf, withKey, withRodLanes, ClippedPath, niceStep, stepMultiples, anchorMark, arrowMark };

// page: {core, sim(), runner(), view, apply(query), redraw(), notify(text), mode, after (the
// element the button follows)}. Returns the page's panel contract (setSimulation, frame, report).
export function installSceneEditor(page) {
  const button = el('button', { type: 'button', id: 'edit-scene', class: 'edit-scene', text: t('Edit scene') });
  page.after.after(button);
  const allowed = !page.mode.embed || page.mode.edit;
  // The scenario row of a built scene carries its default scene (the core's table).
  const rowOf = (sim) => page.core.scenarios.find((s) => s.id === valueOf(sim.config, 'scenario'));
  const built = (sim) => Boolean(rowOf(sim)?.scene);
  let editor = null, loading = null;
  const load = () => {
    loading ||= Promise.all([import('./editor.js'), page.core.full()])
      .then(([m]) => m.createEditor({ ...page, button, shared }))
      .then((made) => { editor = made; editor.setSimulation(page.sim()); return made; });
    return loading;
  };
  button.addEventListener('click', () => {
    const config = page.sim().config, motion = page.core.views[0].id;
    // Another system: a new scene (the core's default one); an analysis view: the motion's.
    if (!built(page.sim())) {
      const fresh = `scenario=${page.core.scenarios.find((s) => s.scene).id}`, lang = valueOf(config, 'lang');
      page.apply(lang ? withKey(fresh, 'lang', lang) : fresh);
    }
    else if ((valueOf(config, 'view') ?? motion) !== motion) page.apply(withKey(config, 'view', motion));
    // The full module again each time: it may have been let go since (core.releaseFull).
    Promise.all([load(), page.core.full()]).then(([e]) => e.enter()).catch((error) => {
      loading = null;
      page.notify(t('The scene editor could not load: {error}', { error: error.message }));
    });
  });
  return {
    name: 'editor',
    setSimulation(sim) {
      const scene = built(sim);
      button.hidden = !allowed || (page.mode.embed && !scene);
      button.title = scene ? t('Place bodies, anchors, springs and rods on the canvas (pauses at t = 0)')
        : t('Start a scene of your own and edit it on the canvas');
      if (editor) editor.setSimulation(sim);
    },
    frame: (snapshot) => { if (editor) editor.frame(snapshot); },
    report: () => (editor ? editor.report() : { open: false, loaded: false }),
  };
}
