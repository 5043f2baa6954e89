// On a narrow screen (one column: a phone, a small frame) the plots come right after the canvas
// and its tools, before the share buttons and the legend: a student sees the motion and its
// energy change together (issue 31 §2: the energy plot was 877 px below the canvas on the German
// page, the legend and the share buttons between them). On a wide screen the plots are a column
// of their own (the layout's grid area), back where the page's HTML has them. Moving the section
// keeps its canvases and their listeners; only the order (and so the Tab order) changes.
const narrow = '(max-width: 819px)';

export function keepPlotsByCanvas(plots, after) {
  const home = plots.parentNode;
  const next = plots.nextSibling;
  const screen = window.matchMedia(narrow);
  const place = () => {
    if (screen.matches) after.after(plots);
    else if (plots.parentNode !== home) home.insertBefore(plots, next);
  };
  place();
  screen.addEventListener('change', place);
}
