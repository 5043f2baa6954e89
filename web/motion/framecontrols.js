// The small controls over the canvas's corner (#frame-controls):
// - in an embedded frame without controls (ui=none): Play/Pause and Restart, so a reader can
//   always start again, whatever the host page does; the play button stands out while paused;
// - in every frame and on the full page: Restart once the run reached its end, and Full screen
//   (the canvas area on the full page, the whole frame in an embed), hidden where the browser
//   offers no full screen (an iframe without allowfullscreen, some phones).
import { t } from '../common/language.js';
const $ = (id) => document.getElementById(id);

// runner: web/engine/runner.js's Runner; stage: the element the full page puts in full screen;
// onFullscreen(on): the page lays the canvas out again.
export function installFrameControls({ runner, mode, stage, onFullscreen = () => {} }) {
  const box = $('frame-controls');
  const play = $('frame-play');
  const restart = $('frame-restart');
  const full = $('fullscreen');
  box.classList.toggle('with-transport', !(mode.embed && mode.ui === 'none'));

  play.addEventListener('click', () => runner.toggle());
  restart.addEventListener('click', () => { runner.reset(); runner.play(); });

  // Full screen: the whole document in a frame (its layout already fills the window), the
  // canvas area on the full page.
  const target = mode.embed ? document.documentElement : stage;
  const available = Boolean(document.fullscreenEnabled && target.requestFullscreen);
  full.hidden = !available;
  const syncFull = () => {
    const on = document.fullscreenElement === target;
    full.setAttribute('aria-pressed', String(on));
    full.setAttribute('aria-label', on ? t('Leave full screen') : t('Full screen'));
    full.title = on ? t('Leave full screen (Esc)') : t('Full screen');
    document.documentElement.classList.toggle('in-fullscreen', on);
    onFullscreen(on);
  };
  full.addEventListener('click', () => {
    if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
    else target.requestFullscreen().catch(() => { full.hidden = true; });
  });
  document.addEventListener('fullscreenchange', syncFull);
  syncFull();

  return {
    // After every change of the run's state: the labels say what a click does now.
    sync() {
      const end = runner.atEnd();
      const label = runner.playing ? t('Pause') : end ? t('Replay') : t('Play');
      // Words, not ▶ / ❚❚: the same for every reader, and a contrast axe can check.
      play.textContent = label;
      play.title = label;
      play.dataset.state = runner.playing ? 'playing' : 'paused';
      box.classList.toggle('at-end', end && !runner.playing);
    },
  };
}
