// Runs first (a classic, blocking script in <head>; in dist/ the head of the page's bundle, render-blocking
// in embed.html: scripts/build-dist.mjs), so an embedded frame never flashes the full
// layout: reads the embed options from the address's QUERY part and sets classes on <html>.
//   embed.html?ui=none|compact|full&autoplay=1|0&edit=1|0#CONFIG   (embed.html is a copy of index.html)
//   index.html?embed=1&ui=...#CONFIG                    (the same, on the main page's address)
// The config stays the whole hash: the core rejects unknown keys, so options never go there.
// Anything else in the query is ignored (with a console warning), never used as markup.
(function () {
  var uiLevels = ['none', 'compact', 'full'];
  // Every option this script reads from the query (web/app/errors.js names them when a link puts one in the hash).
  var optionNames = ['embed', 'ui', 'autoplay', 'edit'];
  var params;
  try { params = new URLSearchParams(location.search); } catch (e) { params = new URLSearchParams(''); }
  var path = location.pathname;
  var embed = /\/embed\.html$/.test(path) || params.get('embed') === '1';
  var problems = [];  // shown in the page's message banner, and sent to the host with the errors
  var ui = params.get('ui');
  if (ui !== null && uiLevels.indexOf(ui) < 0) {
    problems.push("ui must be none, compact or full; got '" + ui.slice(0, 40) + "', so compact is used");
    console.warn('Stepwise: ' + problems[0]);
    ui = null;
  }
  if (!embed) ui = 'full';
  else if (ui === null) ui = 'compact';
  // autoplay=1 plays while the frame can be seen (a frame scrolled out of view or in a hidden tab
  // waits, web/engine/runner.js); autoplay=0, or none, starts paused on its first frame.
  var autoplay = params.get('autoplay');
  if (autoplay !== null && autoplay !== '0' && autoplay !== '1') {
    // The value is quoted as text only (the banner sets textContent), cut to a readable length.
    problems.push("autoplay must be 1 (play while the frame is in view) or 0 (start paused); got '" +
      autoplay.slice(0, 40) + "', so the frame starts paused");
    console.warn('Stepwise: ' + problems[problems.length - 1]);
  }
  // edit=1: a built scene in the frame can be edited (its Edit button shows; web/editor/entry.js);
  // without it (or edit=0) an embedded scene is read-only. The full page always has the button.
  var edit = params.get('edit');
  if (edit !== null && edit !== '0' && edit !== '1') {
    problems.push("edit must be 1 (the scene can be edited in the frame) or 0 (read-only); got '" +
      edit.slice(0, 40) + "', so the frame is read-only");
    console.warn('Stepwise: ' + problems[problems.length - 1]);
  }
  // A config longer than the core reads (its limits().max_query_length: 64 key=value pairs, each
  // key and value at most 1,024 characters, a scene 16,000, 3 per %XX escape; tests/web/longtasks.test.mjs checks
  // the two agree) is refused here, before anything else reads the address: the browser's own
  // handling of a long address grows with it (a 2,000,000-character one: 40 ms tasks on a page
  // with no script at all, when it looks for the fragment's element), so it is taken off the
  // address at once, and main.js says why and runs the default system.
  var maxQueryLength = 438272;
  var refusedLength = 0;
  if (location.hash.length - 1 > maxQueryLength) {
    refusedLength = location.hash.length - 1;
    try { history.replaceState(history.state, '', location.pathname + location.search); } catch (e) { /* kept */ }
  }
  var root = document.documentElement;
  if (embed) root.classList.add('embed');
  root.classList.add('ui-' + ui);
  window.__stepwiseMode = Object.freeze({
    embed: embed, ui: ui, autoplay: autoplay === '1', edit: edit === '1', problems: Object.freeze(problems), options: Object.freeze(optionNames),
    maxQueryLength: maxQueryLength, refusedLength: refusedLength,
  });
})();
