// The transport: Play/Pause, Step, Restart and the speed, with their keys (web/app/keyboard.js),
// and the buttons over the canvas (web/motion/framecontrols.js). Its panel (createTransport().panel) says
// what Step steps and when the run is slowed. Made once, by web/app/main.js (createTransport).
import { bindKeyboard } from './keyboard.js';
import { installFrameControls } from '../motion/framecontrols.js';
import { t } from '../common/language.js';

const $ = (id) => document.getElementById(id);

// page: the PageState (web/app/state.js). Returns {install(…), changed(), panel}.
export function createTransport(page) {
  let legend = null;         // its numbers show at once when the run pauses, steps or resets
  let frameControls = null;

  // The buttons and keys, on the page's runner (page.runner). pageLegend: web/panels/legend.js;
  // openKeys(): the keyboard help; onFullscreen(on): the canvas is laid out again.
  function install({ pageLegend, openKeys, onFullscreen }) {
    legend = pageLegend;
    const runner = page.runner;
    frameControls = installFrameControls({ runner, mode: page.mode, stage: document.querySelector('.stage'), onFullscreen });
    $('play').addEventListener('click', () => runner.toggle());
    // The Step button and → stop at the duration (t = 10 of 10 s stays there; Reset or Play starts
    // again). stepwise.step() and the embed's message still step exactly one dt, as before.
    const stepInDuration = () => { if (page.sim.snapshot.steps < runner.endSteps()) runner.step(); };
    $('step').addEventListener('click', stepInDuration);
    $('reset').addEventListener('click', () => runner.reset());
    $('speed').addEventListener('input', () => setSpeed(Number($('speed').value)));
    setSpeed(Number($('speed').value));
    bindKeyboard({ toggle: () => runner.toggle(), step: stepInDuration, reset: () => runner.reset(), help: openKeys });
  }

  function setSpeed(exponent) {
    const runner = page.runner;
    runner.setSpeed(Number(Math.pow(10, exponent).toPrecision(2)));
    $('speed-out').textContent = `${runner.speed}×`;
    $('speed').setAttribute('aria-valuetext', `${runner.speed}×`);  // not the slider's log10 "0"
  }

  // The run played, paused, stepped, reset or was replaced: the buttons say what a click does now.
  // A pause or a reset draws once more, and shows its numbers at once (the legend's, updated a few
  // times a second while playing), not at the next frame: nothing on screen is the state of a
  // frame ago.
  function changed() {
    const runner = page.runner;
    const play = $('play');
    play.textContent = runner.playing ? t('Pause') : t('Play');
    play.setAttribute('aria-pressed', String(runner.playing));
    play.classList.toggle('playing', runner.playing);
    frameControls.sync();
    runner.redraw();
    if (!runner.playing && page.sim && legend.rows.length) legend.showNumbers(true);
  }

  const panel = {
    // With a game loop the page steps whole frames (a frame may hold several physics steps).
    setSimulation(sim) {
      $('step').title = sim.loop.kind ? t('Advance one game frame (→)') : t('Advance exactly one dt (→)');
    },
    frame() {
      const capped = $('capped');
      capped.hidden = !page.runner.capped;
      const title = page.runner.midStep
        ? t('A step takes longer than a frame here: the picture shows the last whole step while the next one is computed')
        : t('More steps per frame than the cap: the simulation runs slower than asked');
      if (capped.title !== title) capped.title = title;
    },
    report: () => ({ playing: page.runner.playing, speed: page.runner.speed, capped: page.runner.capped }),
  };

  return { install, changed, panel };
}
