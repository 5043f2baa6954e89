// German texts of the page, by id. So far the core's integrator, view, scenario and loop-kind
// tables (the core and the CLI stay English; the page is to show these when lang=de). Imported
// only for German.
// Names that read the same in both languages are listed in sameInBothLanguages.

export const sameInBothLanguages = new Set([
  'Heun', 'Leapfrog', 'Störmer–Verlet', 'Yoshida 4 (Forest–Ruth)', 'Dormand–Prince 5(4)', 'Runge–Kutta 4',
]);

export const integrators = {
  explicit_euler: {
    name: 'Explizites Euler-Verfahren',
    description: 'x += v·h, v += a·h, beide Steigungen vom Anfang des Schritts; gewinnt bei Schwingern Energie.',
  },
  semi_implicit_euler: {
    name: 'Semi-implizites Euler-Verfahren',
    description: 'Symplektisches Euler-Verfahren, Geschwindigkeit zuerst: v += a·h, dann x += v_neu·h; ' +
      'die Energie bleibt beschränkt, die Phase driftet.',
  },
  semi_implicit_euler_x: {
    name: 'Semi-implizites Euler-Verfahren (x zuerst)',
    description: 'Symplektisches Euler-Verfahren, Ort zuerst: x += v·h, dann v += a(x_neu)·h.',
  },
  implicit_euler: {
    name: 'Implizites Euler-Verfahren',
    description: 'Rückwärts-Euler, gelöst mit dem Newton-Verfahren; für jede Schrittweite stabil, verliert aber Energie.',
  },
  newton: {
    name: 'Newton (konstante Beschleunigung)',
    description: 'x += v·h + ½a·h², v += a·h: exakt bei konstanten Kräften (ein Wurf ohne Luftwiderstand).',
  },
  heun: {
    name: 'Heun',
    description: 'Euler-Prädiktor, dann der Mittelwert der Steigungen an beiden Enden (Trapezregel).',
  },
  midpoint: {
    name: 'Mittelpunktregel (RK2)',
    description: 'Ein halber Euler-Schritt, dann ein ganzer Schritt mit den Steigungen in der Mitte.',
  },
  rk4: {
    name: 'Runge–Kutta 4',
    description: 'Das klassische Runge-Kutta-Verfahren vierter Ordnung: vier Steigungen, gewichtet 1, 2, 2, 1; ' +
      'verliert langsam Energie.',
  },
  leapfrog: {
    name: 'Leapfrog',
    description: 'Geschwindigkeiten zu halben Schritten, begonnen mit einem halben Stoß; die angezeigte ' +
      'Geschwindigkeit gehört zum ganzen Schritt.',
  },
  stormer_verlet: {
    name: 'Störmer–Verlet',
    description: 'x_neu = 2x − x_alt + a·h², erster Schritt aus der Taylor-Entwicklung, Geschwindigkeit aus dem ' +
      'zentralen Differenzenquotienten.',
  },
  velocity_verlet: {
    name: 'Geschwindigkeits-Verlet',
    description: 'x += v·h + ½a·h², dann v += ½(a + a_neu)·h.',
  },
  yoshida4: {
    name: 'Yoshida 4 (Forest–Ruth)',
    description: 'Symplektische Komposition vierter Ordnung aus drei Verlet-Schritten (einer mit negativem Gewicht).',
  },
  kinematic: {
    name: 'Kinematisch',
    description: 'Jede Kraft trägt ihr eigenes exaktes (dv, dx) über den Schritt bei: exakt für Schwerkraft, ' +
      'eine Feder oder eine Umlaufbahn allein.',
  },
  kinematic_avg: {
    name: 'Kinematisch (mittlere Beschleunigung)',
    description: 'Wie „Kinematisch“, aber dx = ½·dv·h für jede Kraft: stabil, wenn mehrere Kräfte zugleich wirken.',
  },
  rk45: {
    name: 'Dormand–Prince 5(4)',
    description: 'Adaptives Runge-Kutta-Verfahren mit Fehlerkontrolle (rtol 1e-9): die Referenz, wo es keine ' +
      'geschlossene Lösung gibt.',
  },
};

export const views = {
  motion: {
    name: 'Bewegung',
    description: 'die Körper nebeneinander in Bewegung, mit Energie-, Fehler- und Phasendiagramm',
  },
  convergence: {
    name: 'Konvergenz',
    description: 'Fehler über der Schrittweite und über den Kraftauswertungen (Aufwand und Genauigkeit), ' +
      'mit der gemessenen Ordnung jedes Verfahrens',
  },
  stability: {
    name: 'Stabilität',
    description: 'wo jedes Verfahren am Oszillator stabil ist (ωh, ζ), mit dem Punkt dieses Systems und seiner ' +
      'größten stabilen Schrittweite',
  },
  cloud: {
    name: 'Phasenwolke',
    description: 'eine Wolke von Startzuständen, von jedem Verfahren weitergetragen: Fläche erhalten oder nicht',
  },
};

export const scenarios = {
  projectile: {
    name: 'Wurf',
    description: 'Ein Ball, geworfen unter der Schwerkraft g entlang −y, wahlweise mit quadratischem ' +
      'Luftwiderstand F = −c·|v|·v.',
  },
  spring: {
    name: 'Feder',
    description: 'Eine Masse an einer Feder zu einem festen Aufhängepunkt: F = −k·(|d| − rest)·d/|d| − b·v, ' +
      'd = x − anchor.',
  },
  two_spring: {
    name: 'Zwei Federn',
    description: 'Eine Masse, von zwei Federn zu zwei Aufhängepunkten gehalten (zwei Kräfte zugleich), ' +
      'mit einem Dämpfer F = −b·v.',
  },
  spring_pair: {
    name: 'Federpaar',
    description: 'Zwei Massen, verbunden durch eine Feder (Federkonstante k, Ruhelänge, Dämpfung b), ' +
      'unter einem Schwerkraftvektor g.',
  },
  orbit: {
    name: 'Umlaufbahn',
    description: 'Ein Körper um eine feste Zentralmasse im Ursprung: F = −gm·m·r/|r|³ (das Kepler-Problem).',
  },
  elastic_pendulum: {
    name: 'Federpendel',
    description: 'Eine Masse an einer Feder mit Ruhelänge, unter der Schwerkraft an einem festen Punkt ' +
      'aufgehängt: Schwingen und Federn tauschen Energie aus, bei großen Auslenkungen chaotisch.',
  },
};

export const loopKinds = {
  fixed: {
    description: 'jedes Bild macht substeps Schritte von 1/(hz·substeps), gleich wie lang das Bild dauerte',
  },
  variable: {
    description: 'jedes Bild macht einen Schritt von der eigenen (schwankenden) Bilddauer, wie ein naives Spiel',
  },
  accumulator: {
    description: 'die Bilddauern füllen einen Akkumulator, ganze Schritte von 1/(hz·substeps) leeren ihn ' +
      '(höchstens max_steps je Bild, der Rest verfällt); angezeigt wird lerp(vorher, jetzt, Rest)',
  },
};
