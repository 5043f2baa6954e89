// The page's one way to make an element from text: a tag, a class and text content, never markup
// (no text from a link or a message is ever parsed as HTML).
export function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}
