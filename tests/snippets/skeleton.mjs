// The structural check of the GDScript snippets (docs/snippets.md): with no Godot to run them, a
// GDScript snippet must do the same arithmetic in the same order as its JavaScript twin, which
// does run against the core. Both files are reduced mechanically to their arithmetic skeleton:
// the sequence of numeric literals (by value: 2 and 2.0 alike) and arithmetic operators
// (+ - * / and their compound assignments), left to right. Not compared, because the two
// languages write them differently: comments, strings, loop headers, integer subscripts (a[0],
// which stands for JavaScript's destructuring), comparisons with a number (if i == 3, x > 700;
// ternaries put their condition on either side), initialisations to a bare literal
// (var x := 0.0; the object literal of newCarry), the stage arrays' and the buffers' allocation
// (the acceleration, the derivatives, the increments), functions whose
// name starts with an underscore (GDScript's stand-ins for built-ins JavaScript has: _expm1), the
// return-type arrow -> and the lambda arrow =>.

const NUMBER = String.raw`(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?`;
const COMPARISON = String.raw`(?:===|!==|==|!=|<=|>=|<|>)`;

export function skeleton(text, language) {
  let s = text;
  if (language === 'gd') {
    s = s.replace(/"[^"\n]*"/g, '""').replace(/#.*$/gm, '');
    // Private helpers (name starts with _): the function and its indented body.
    s = s.replace(/^static func _\w+\([^)]*\)[^\n]*\n(?:(?:\t[^\n]*)?\n)*/gm, '');
    s = s.replace(/^\s*for\b[^:\n]*:/gm, '').replace(/->/g, ' ');
    s = s.replace(/^.*(?:PackedFloat64Array|\.resize\().*$/gm, '');
    // The buffers made once (the acceleration accel writes, implicit Euler's derivatives, the
    // kinematic pair's increments, rk4's axis state: JavaScript's Float64Array(n)).
    s = s.replace(/^static var \w+: Array = \[0\.0(?:, 0\.0)*\]$/gm, '');
  } else {
    s = s.replace(/'[^'\n]*'|"[^"\n]*"/g, '""').replace(/\/\/.*$/gm, '');
    s = s.replace(/\bfor\s*\([^)]*\)/g, '').replace(/=>/g, ' ');
    s = s.replace(/^.*Float64Array.*$/gm, '');
    s = s.replace(/(\w[\w.]*)\+\+/g, '$1 += 1');
  }
  s = s.replace(/\[\d+\]/g, '');
  s = s.replace(new RegExp(String.raw`${COMPARISON}\s*-?${NUMBER}`, 'g'), ' ');
  s = s.replace(new RegExp(String.raw`${NUMBER}\s*${COMPARISON}`, 'g'), ' ');
  // name = literal, name := literal, name: type = literal, key: literal, up to , ; ) } or the line's end.
  s = s.replace(new RegExp(String.raw`\w+\s*(?::\s*\w+\s*)?(?::=|=|:)\s*(?:-?${NUMBER}|true|false|null)\s*(?=[,;)}\n]|$)`, 'gm'), ' ');
  const tokens = [];
  const re = new RegExp(String.raw`([A-Za-z_]\w*)|(${NUMBER})|(\+=|-=|\*=|\/=|[-+*/])`, 'g');
  for (const m of s.matchAll(re)) {
    if (m[2] !== undefined) tokens.push(String(Number(m[2])));
    else if (m[3] !== undefined) tokens.push(m[3]);
  }
  return tokens;
}
