// Runs first (a classic, blocking script in <head>), so an embedded frame never flashes the full
// layout: reads the embed options from the address's QUERY part and sets classes on <html>.
//   embed.html?ui=none|compact|full&autoplay=1#CONFIG   (embed.html is a copy of index.html)
//   index.html?embed=1&ui=...#CONFIG                    (the same, on the main page's address)
// The config stays the whole hash: the core rejects unknown keys, so options never go there.
// Anything else in the query is ignored (with a console warning), never used as markup.
(function () {
  var uiLevels = ['none', 'compact', 'full'];
  var params;
  try { params = new URLSearchParams(location.search); } catch (e) { params = new URLSearchParams(''); }
  var path = location.pathname;
  var embed = /\/embed\.html$/.test(path) || params.get('embed') === '1';
  var ui = params.get('ui');
  if (ui !== null && uiLevels.indexOf(ui) < 0) {
    console.warn('Stepwise: ui must be none, compact or full; using compact');
    ui = null;
  }
  if (!embed) ui = 'full';
  else if (ui === null) ui = 'compact';
  var autoplay = params.get('autoplay') === '1';
  var root = document.documentElement;
  if (embed) root.classList.add('embed');
  root.classList.add('ui-' + ui);
  window.__stepwiseMode = Object.freeze({ embed: embed, ui: ui, autoplay: autoplay });
})();
