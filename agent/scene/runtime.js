// Koda scene runtime: plays window.__scene (see agent/scene) on one full-window canvas.
// Every pixel is a pure function of the time t, so the renderer can seek to any frame
// (export protocol: __exportReady, __exportSeekTo(t), __exportMeta); opened normally it
// loops with requestAnimationFrame for a human preview.
(function () {
  'use strict';
  var S = window.__scene;
  var canvas = document.getElementById('stage');
  if (!canvas) {
    canvas = document.createElement('canvas');
    document.body.appendChild(canvas);
  }
  var ctx = canvas.getContext('2d');
  var W = 0, H = 0, U = 0, DPR = 1;
  // RX, RY, RW, RH: the rectangle element positions span (the frame, or its safe area in
  // portrait frames; agent/scene ContentRect computes the same).
  var RX = 0, RY = 0, RW = 0, RH = 0;
  var FONT = '"DejaVu Sans", "Liberation Sans", Arial, sans-serif';
  // A project's own typeface (a brand's font) goes first: declared with @font-face in
  // the page, set on the body (so the page's computed font says it) and on every text
  // the canvas draws. Its family name is checked by agent/scene (letters, digits,
  // spaces, _ and -), so it needs no escaping inside quotes.
  var fontLoad = Promise.resolve();
  if (S && S.font && S.font.family && S.font.src) {
    var ff = document.createElement('style');
    ff.textContent = '@font-face { font-family: "' + S.font.family + '"; src: url("' + encodeURI(S.font.src) + '"); font-display: block; }';
    document.head.appendChild(ff);
    FONT = '"' + S.font.family + '", ' + FONT;
    document.body.style.fontFamily = FONT;
    if (document.fonts && document.fonts.load) {
      // Canvas text does not make the browser fetch a font: ask for it, in the
      // weights the runtime draws with, before the first frame.
      fontLoad = Promise.all([400, 600, 700, 800].map(function (w) {
        return document.fonts.load(w + ' 16px "' + S.font.family + '"');
      })).catch(function () {});
    }
  }
  var layoutCache = {};

  function resize() {
    var w = window.innerWidth || 640, h = window.innerHeight || 360, r = window.devicePixelRatio || 1;
    if (w === W && h === H && r === DPR) return;
    W = w; H = h; DPR = r;
    RX = 0; RY = 0; RW = W; RH = H;
    var sa = S && S.safe_area;
    if (sa && H > W) { RX = sa.left * W; RY = sa.top * H; RW = W * (1 - sa.left - sa.right); RH = H * (1 - sa.top - sa.bottom); }
    U = Math.min(RW, RH);
    canvas.width = Math.max(1, Math.round(w * r));
    canvas.height = Math.max(1, Math.round(h * r));
    layoutCache = {};
  }

  // ---- maths -------------------------------------------------------------------------
  function clamp(v, a, b) { return v < a ? a : v > b ? b : v; }
  function lerp(a, b, u) { return a + (b - a) * u; }
  var c1 = 1.70158, c2 = c1 * 1.525, c3 = c1 + 1, c4 = 2 * Math.PI / 3;
  function pw(n) {
    return {
      i: function (t) { return Math.pow(t, n); },
      o: function (t) { return 1 - Math.pow(1 - t, n); },
      io: function (t) { return t < 0.5 ? Math.pow(2, n - 1) * Math.pow(t, n) : 1 - Math.pow(-2 * t + 2, n) / 2; }
    };
  }
  var q2 = pw(2), q3 = pw(3), q4 = pw(4), q5 = pw(5);
  function outBounce(t) {
    var n1 = 7.5625, d1 = 2.75;
    if (t < 1 / d1) return n1 * t * t;
    if (t < 2 / d1) return n1 * (t -= 1.5 / d1) * t + 0.75;
    if (t < 2.5 / d1) return n1 * (t -= 2.25 / d1) * t + 0.9375;
    return n1 * (t -= 2.625 / d1) * t + 0.984375;
  }
  var EASE = {
    linear: function (t) { return t; },
    easeInSine: function (t) { return 1 - Math.cos(t * Math.PI / 2); },
    easeOutSine: function (t) { return Math.sin(t * Math.PI / 2); },
    easeInOutSine: function (t) { return -(Math.cos(Math.PI * t) - 1) / 2; },
    easeInQuad: q2.i, easeOutQuad: q2.o, easeInOutQuad: q2.io,
    easeInCubic: q3.i, easeOutCubic: q3.o, easeInOutCubic: q3.io,
    easeInQuart: q4.i, easeOutQuart: q4.o, easeInOutQuart: q4.io,
    easeInQuint: q5.i, easeOutQuint: q5.o, easeInOutQuint: q5.io,
    easeInExpo: function (t) { return t === 0 ? 0 : Math.pow(2, 10 * t - 10); },
    easeOutExpo: function (t) { return t === 1 ? 1 : 1 - Math.pow(2, -10 * t); },
    easeInOutExpo: function (t) {
      if (t === 0 || t === 1) return t;
      return t < 0.5 ? Math.pow(2, 20 * t - 10) / 2 : (2 - Math.pow(2, -20 * t + 10)) / 2;
    },
    easeInBack: function (t) { return c3 * t * t * t - c1 * t * t; },
    easeOutBack: function (t) { return 1 + c3 * Math.pow(t - 1, 3) + c1 * Math.pow(t - 1, 2); },
    easeInOutBack: function (t) {
      return t < 0.5 ? (Math.pow(2 * t, 2) * ((c2 + 1) * 2 * t - c2)) / 2
        : (Math.pow(2 * t - 2, 2) * ((c2 + 1) * (t * 2 - 2) + c2) + 2) / 2;
    },
    easeOutElastic: function (t) {
      return t === 0 ? 0 : t === 1 ? 1 : Math.pow(2, -10 * t) * Math.sin((t * 10 - 0.75) * c4) + 1;
    },
    easeOutBounce: outBounce
  };
  function bezier(x1, y1, x2, y2) {
    function bx(t) { return ((1 - 3 * x2 + 3 * x1) * t + (3 * x2 - 6 * x1)) * t * t + 3 * x1 * t; }
    function by(t) { return ((1 - 3 * y2 + 3 * y1) * t + (3 * y2 - 6 * y1)) * t * t + 3 * y1 * t; }
    function dx(t) { return 3 * (1 - 3 * x2 + 3 * x1) * t * t + 2 * (3 * x2 - 6 * x1) * t + 3 * x1; }
    return function (x) {
      var t = x;
      for (var i = 0; i < 8; i++) {
        var d = dx(t);
        if (Math.abs(d) < 1e-6) break;
        t -= (bx(t) - x) / d;
      }
      var lo = 0, hi = 1;
      if (t < 0 || t > 1 || Math.abs(bx(t) - x) > 1e-4) {
        t = x;
        for (var j = 0; j < 30; j++) { if (bx(t) < x) lo = t; else hi = t; t = (lo + hi) / 2; }
      }
      return by(t);
    };
  }
  function ease(name) {
    if (!name) return EASE.linear;
    if (EASE[name]) return EASE[name];
    var m = /^cubic-bezier\(\s*(-?[0-9.]+)\s*,\s*(-?[0-9.]+)\s*,\s*(-?[0-9.]+)\s*,\s*(-?[0-9.]+)\s*\)$/.exec(name);
    EASE[name] = m ? bezier(+m[1], +m[2], +m[3], +m[4]) : EASE.linear;
    return EASE[name];
  }
  // mulberry32: a seeded generator, so particles sit in the same place on every frame.
  function rng(seed) {
    var a = (seed >>> 0) || 1;
    return function () {
      a |= 0; a = a + 0x6D2B79F5 | 0;
      var t = Math.imul(a ^ a >>> 15, 1 | a);
      t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t;
      return ((t ^ t >>> 14) >>> 0) / 4294967296;
    };
  }
  function idSeed(id) {
    var h = 2166136261;
    id = String(id || '');
    for (var i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 16777619);
    return h >>> 0;
  }
  function track(kfs, t, def) {
    if (!kfs || !kfs.length) return def;
    if (t <= kfs[0].t) return kfs[0].v;
    for (var i = 1; i < kfs.length; i++) {
      var b = kfs[i];
      if (t <= b.t) {
        var a = kfs[i - 1], span = b.t - a.t;
        var u = span > 0 ? (t - a.t) / span : 1;
        return a.v + (b.v - a.v) * ease(b.ease)(u);
      }
    }
    return kfs[kfs.length - 1].v;
  }

  // ---- colour ------------------------------------------------------------------------
  function rgb(hex) {
    hex = (hex || '#ffffff').replace('#', '');
    if (hex.length === 3) hex = hex[0] + hex[0] + hex[1] + hex[1] + hex[2] + hex[2];
    var n = parseInt(hex, 16);
    return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  }
  function rgba(hex, a) { var c = rgb(hex); return 'rgba(' + c[0] + ',' + c[1] + ',' + c[2] + ',' + a + ')'; }
  // mix blends two colours: k = 0 is a, 1 is b.
  function mix(a, b, k) {
    var p = rgb(a), q = rgb(b);
    return 'rgb(' + Math.round(lerp(p[0], q[0], k)) + ',' + Math.round(lerp(p[1], q[1], k)) + ',' + Math.round(lerp(p[2], q[2], k)) + ')';
  }
  // shade mixes towards white (amt > 0) or black (amt < 0).
  function shade(hex, amt) {
    var c = rgb(hex), tgt = amt > 0 ? 255 : 0, k = Math.abs(amt);
    return 'rgb(' + Math.round(lerp(c[0], tgt, k)) + ',' + Math.round(lerp(c[1], tgt, k)) + ',' + Math.round(lerp(c[2], tgt, k)) + ')';
  }

  // mixHex: a hex colour k of the way from a to b (hex, so shade and rgba read it).
  function mixHex(a, b, k) {
    var ca = rgb(a), cb = rgb(b), out = '#';
    for (var i = 0; i < 3; i++) out += ('0' + Math.round(lerp(ca[i], cb[i], k)).toString(16)).slice(-2);
    return out;
  }

  // mixHue: k of the way from a to b around the hue circle's shorter arc, saturation and
  // lightness in step, so blue to red passes through violet, not through a grey that
  // neither end has.
  function mixHue(a, b, k) {
    function hsl(c) {
      var r = c[0] / 255, g = c[1] / 255, bl = c[2] / 255, mx = Math.max(r, g, bl), mn = Math.min(r, g, bl), l = (mx + mn) / 2, d = mx - mn, h = 0;
      if (d > 0) h = mx === r ? ((g - bl) / d + 6) % 6 : mx === g ? (bl - r) / d + 2 : (r - g) / d + 4;
      return [h * 60, d === 0 ? 0 : d / (1 - Math.abs(2 * l - 1)), l];
    }
    var p = hsl(rgb(a)), q = hsl(rgb(b)), dh = q[0] - p[0];
    if (dh > 180) dh -= 360; else if (dh < -180) dh += 360;
    if (p[1] < 0.05) p[0] = q[0] - dh; // a grey end has no hue of its own
    var h = ((p[0] + dh * k) % 360 + 360) % 360, s = lerp(p[1], q[1], k), l = lerp(p[2], q[2], k);
    var c = (1 - Math.abs(2 * l - 1)) * s, x = c * (1 - Math.abs((h / 60) % 2 - 1)), m = l - c / 2;
    var seg = [[c, x, 0], [x, c, 0], [0, c, x], [0, x, c], [x, 0, c], [c, 0, x]][Math.floor(h / 60) % 6], out = '#';
    for (var i = 0; i < 3; i++) out += ('0' + Math.round(clamp(seg[i] + m, 0, 1) * 255).toString(16)).slice(-2);
    return out;
  }

  // ---- state of an element at t --------------------------------------------------------
  function envelope(t, m) {
    var r = Math.min(0.3, (m.end - m.start) / 4);
    return clamp(Math.min((t - m.start) / r, (m.end - t) / r), 0, 1);
  }
  function frac(v) { return v - Math.floor(v); }
  // Motions that drive an element's progress (text typed, path drawn, list checked,
  // outline morphed): the latest one begun wins; before the first begins nothing shows.
  var PROGRESS_MOTIONS = { type: 1, draw: 1, steps: 1, morph: 1 };
  function progressOf(m, p) {
    switch (m.type) {
      case 'steps': {
        // count discrete steps; each eases in during the first 30% of its share of time.
        var n = Math.max(1, Math.round(m.count || 1)), u = p * n, k = Math.min(Math.floor(u), n - 1), f = u - k;
        if (p >= 1) return 1;
        return (k + ease(m.ease || 'easeOutCubic')(clamp(f / 0.3, 0, 1))) / n;
      }
      case 'morph': {
        // count+1 shapes: each change takes 60% of its share, the rest holds the shape.
        var segs = Math.max(1, Math.round(m.count || 1)), v = p * segs, j = Math.min(Math.floor(v), segs - 1), g = v - j;
        return (j + clamp((g - 0.2) / 0.6, 0, 1)) / segs;
      }
      case 'draw': return ease(m.ease || 'easeInOutSine')(p);
    }
    return p; // type: characters at an even pace
  }
  // Flight path of a 'fly' motion at u (0..1), in frame units relative to its base.
  function flyAt(m, u) {
    var x = lerp(m.from_x || 0, m.to_x || 0, u), y = lerp(m.from_y || 0, m.to_y || 0, u), a = m.amp || 0.25;
    if (m.curve === 'arc') y -= a * 4 * u * (1 - u);
    else if (m.curve === 'wave') y += a * 0.5 * Math.sin(2 * Math.PI * (m.count || 2) * u);
    return [x, y];
  }
  // tri folds a coordinate moving freely into [lo, hi] as if it bounced off both ends;
  // hits is how many ends it has met.
  function tri(v, lo, hi) {
    var L = Math.max(1e-6, hi - lo), q = ((v - lo) % (2 * L) + 2 * L) % (2 * L);
    return { v: q < L ? lo + q : hi - (q - L), hits: Math.abs(Math.floor((v - lo) / L)) };
  }
  // EXTENT: how far an element reaches from its centre, in sizes: sideways, up, down.
  var EXTENT = { logo: [1.3, 1.3, 2.15], counter: [1.6, 0.6, 1.2], card: [0.85, 1.05, 1.05], icon: [1.05, 1.05, 1.05] };
  function pick(list, n) { return list && list.length ? list[((n % list.length) + list.length) % list.length] : null; }
  function state(e, t) {
    var tr = e.tracks || {};
    var s = {
      x: track(tr.x, t, e.x || 0), y: track(tr.y, t, e.y || 0),
      scale: track(tr.scale, t, 1), sx: track(tr.sx, t, 1), sy: track(tr.sy, t, 1),
      rot: track(tr.rotation, t, 0), op: track(tr.opacity, t, 1), prog: track(tr.progress, t, 1),
      px: 0, py: 0, lift: 0, bounce: null, color: null, offY: 0, cord: 0, events: 0,
      fly: null, fill: null, rise: null, typing: false, back: false
    };
    var ms = e.motions || [], popK = -1, progM = null, firstProg = null;
    for (var i = 0; i < ms.length; i++) {
      var m = ms[i], span = Math.max(1e-6, m.end - m.start);
      var p = clamp((t - m.start) / span, 0, 1), inside = t >= m.start && t <= m.end;
      var cyc = (m.count || 1), env = inside ? envelope(t, m) : 0;
      if (PROGRESS_MOTIONS[m.type]) {
        if (!firstProg || m.start < firstProg.start) firstProg = m;
        if (t >= m.start && (!progM || m.start >= progM.start)) progM = m;
        if (m.type === 'type') s.typing = true;
        if (m.type === 'steps') s.stepped = Math.max(1, Math.round(m.count || 1));
      }
      switch (m.type) {
        case 'bounce': {
          var tp = ease(m.ease)(p);
          s.x += lerp(m.from_x || 0, m.to_x || 0, tp);
          s.y += lerp(m.from_y || 0, m.to_y || 0, tp);
          s.bounce = m;
          var sq = m.squash || 0, dec = m.decay || 0.7, nh = Math.ceil(cyc), first = nh - cyc;
          // Hops last as long as a body thrown that high stays up (√height), so the
          // rhythm quickens as the bounces die down; a fractional count starts at the top
          // of the first arc (the element drops in).
          var tot = 0, wts = [];
          for (var hk = 0; hk < nh; hk++) { var w = Math.sqrt(Math.pow(dec, hk)) * (hk === 0 ? 1 - first : 1); wts.push(w); tot += w; }
          var at = p * tot, k = 0;
          while (k < nh - 1 && at > wts[k]) { at -= wts[k]; k++; }
          var u = (k === 0 ? first : 0) + (wts[k] > 0 ? at / Math.sqrt(Math.pow(dec, k)) : 1);
          u = clamp(u, 0, 1);
          // Every ground contact passed is an event (a colour change, for instance).
          s.events += t < m.start ? 0 : k + (p >= 1 ? 1 : 0);
          if (m.colors && t >= m.start) s.color = pick(m.colors, k + (p >= 1 ? 1 : 0));
          if (!inside) {
            if (t > m.end && t < m.end + 0.6 && sq > 0) {
              // Settle: the landing squash rings down once the hops are over.
              var st = t - m.end, wob = Math.exp(-st * 7) * Math.cos(st * 22);
              s.sy *= 1 - sq * 0.3 * wob; s.sx *= 1 + sq * 0.24 * wob;
            }
            break;
          }
          var h = (m.amp || 0.5) * Math.pow(dec, k);
          s.lift = h * 4 * u * (1 - u);
          var c = Math.min(u, 1 - u), near = c < 0.12 ? 1 - c / 0.12 : 0;
          var stretch = sq * 0.18 * Math.abs(1 - 2 * u) * (1 - near);
          s.sy *= (1 - sq * 0.38 * near) * (1 + stretch);
          s.sx *= (1 + sq * 0.32 * near) / (1 + stretch * 0.6);
          break;
        }
        case 'float': s.y += (m.amp || 0.03) * Math.sin(2 * Math.PI * cyc * p) * env; break;
        case 'bob':
          // Floating on a surface: up and down with a rock that leads the bob.
          s.y += (m.amp || 0.03) * Math.sin(2 * Math.PI * cyc * p) * env;
          s.rot += (m.angle || 6) * Math.sin(2 * Math.PI * cyc * p + Math.PI / 2) * env;
          break;
        case 'spin': s.rot += 360 * cyc * ease(m.ease)(p); break;
        case 'pulse': s.scale *= 1 + (m.amp || 0.06) * 0.5 * (1 - Math.cos(2 * Math.PI * cyc * p)) * env; break;
        case 'orbit':
          if (m.around || m.steady) {
            // A steady circle (radius amp of the shorter side) around another element or
            // the base position, starting at angle 'angle' (degrees, 0 = right).
            var oa = ((m.angle || 0) * Math.PI / 180) + 2 * Math.PI * cyc * ease(m.ease)(p) * ((m.amp || 0.1) < 0 ? -1 : 1);
            var orr = Math.abs(m.amp || 0.1) * U;
            if (m.around) s.around = m.around;
            s.px += orr * Math.cos(oa); s.py += orr * Math.sin(oa);
            break;
          }
          s.px += (m.amp || 0.1) * U * Math.cos(2 * Math.PI * cyc * p) * env;
          s.py += (m.amp || 0.1) * U * Math.sin(2 * Math.PI * cyc * p) * env;
          break;
        case 'wiggle': s.rot += (m.amp || 8) * Math.sin(2 * Math.PI * cyc * p) * env; break;
        case 'drift': case 'slide': {
          var dp = m.type === 'slide' ? ease(m.ease || 'easeInOutCubic')(p) : p;
          s.x += lerp(m.from_x || 0, m.to_x || 0, dp);
          s.y += lerp(m.from_y || 0, m.to_y || 0, dp);
          break;
        }
        case 'fly': {
          var fu = ease(m.ease || 'easeInOutSine')(p), fp = flyAt(m, fu);
          s.fly = { m: m, u: fu, bx: s.x, by: s.y };
          s.x += fp[0]; s.y += fp[1];
          if (m.orient) {
            // Face the direction of travel (in pixels: frame units are not square).
            var d1 = flyAt(m, clamp(fu - 0.01, 0, 1)), d2 = flyAt(m, clamp(fu + 0.01, 0, 1));
            s.rot += Math.atan2((d2[1] - d1[1]) * H, (d2[0] - d1[0]) * W) * 180 / Math.PI - (m.heading || 0);
          }
          break;
        }
        case 'sweep':
          // A clock hand: turns about its lower end, count full turns.
          s.offY = -1;
          s.rot += 360 * cyc * ease(m.ease)(p);
          break;
        case 'swing': {
          // A pendulum or hanging tag: hangs from a pivot at (x, y) on a cord and swings,
          // damped to 'decay' of its first amplitude by the end.
          var sa = m.amp || 30, keep = clamp(m.decay || 0.15, 0.01, 1);
          s.cord = m.length === undefined ? 0.5 : m.length;
          s.offY = 1 + s.cord;
          if (inside) s.rot += sa * Math.pow(keep, p) * Math.sin(2 * Math.PI * cyc * p);
          break;
        }
        case 'slam': {
          // Comes at the camera: from far away to full size in the first third with an
          // overshoot, then (shake > 0) the frame-shake of the impact.
          var sg = clamp(p / 0.35, 0, 1);
          if (t < m.start) { s.op = 0; break; }
          var grow = m.ease ? ease(m.ease)(sg) : 1 + 2.9 * Math.pow(sg - 1, 3) + 1.9 * Math.pow(sg - 1, 2);
          s.scale *= lerp(0.06, 1, grow) * (m.amp || 1);
          s.op *= clamp(sg * 5, 0, 1);
          if (m.shake && p > 0.3 && p < 0.75) {
            var sk = (1 - (p - 0.3) / 0.45) * m.shake * U;
            s.px += sk * Math.sin(t * 71); s.py += sk * Math.cos(t * 53);
          }
          break;
        }
        case 'pop': {
          // Appears with an overshoot at start and, unless it lasts to the end, shrinks
          // away at end; several pops on one element make it come and go.
          var pin = Math.min(0.35, span / 3), v = t < m.start ? 0 : ease('easeOutBack')(clamp((t - m.start) / pin, 0, 1));
          if (m.end < S.duration - 1e-3 && t > m.end - 0.2) v *= ease('easeInQuad')(clamp((m.end - t) / 0.2, 0, 1));
          if (t > m.end && m.end < S.duration - 1e-3) v = 0;
          popK = Math.max(popK, v);
          break;
        }
        case 'twinkle': {
          var tw = 0.5 - 0.5 * Math.cos(2 * Math.PI * (m.count || 3) * p);
          s.op *= 1 - (m.amp || 0.7) * tw * (inside ? 1 : 0);
          s.scale *= 1 - 0.25 * tw * (inside ? 1 : 0);
          s.rot += 20 * tw * (inside ? 1 : 0);
          break;
        }
        case 'flip': {
          // count half-turns about the vertical axis; the back shows color (or color2).
          var fl = p * cyc, fk = Math.floor(fl), ff = fl - fk;
          if (p >= 1) { fk = Math.round(cyc); ff = 0; }
          var fa = Math.PI * ease(m.ease || 'easeInOutCubic')(ff);
          if (m.angle === 90) {
            // End over end about the horizontal axis: each half-turn leaves it upside down.
            var ud = fk % 2 === 1 ? -1 : 1, cs = Math.cos(fa) * ud;
            s.sy *= Math.abs(cs) < 0.02 ? (cs < 0 ? -0.02 : 0.02) : cs;
            s.events += t >= m.start ? fk + (fa > Math.PI / 2 ? 1 : 0) : 0;
            break;
          }
          s.sx *= Math.max(0.02, Math.abs(Math.cos(fa)));
          var turned = fk + (fa > Math.PI / 2 ? 1 : 0);
          if (t >= m.start && turned % 2 === 1) { s.back = true; s.color = m.color || e.color2 || s.color; }
          s.events += t >= m.start ? turned : 0;
          break;
        }
        case 'rise':
          s.rise = m;
          break;
        case 'recolor':
          // Turns from its colour to color over [start, end] (a switch going green, a
          // like turning red), in eight steps so tinted drawings are recoloured few times.
          if (t >= m.start && m.color) s.color = mixHex(s.color || e.color || '#ffffff', m.color, Math.round(ease(m.ease || 'easeInOutSine')(p) * 8) / 8);
          break;
        case 'fill':
          s.fill = { level: t < m.start ? 0 : ease(m.ease || 'easeInOutSine')(p), color: m.color || e.color2 || '#ffffff' };
          break;
        case 'glitch': {
          // Bursts in slots of a fifteenth of a second, some resting, weaker as it goes
          // and none in the last fifth: the element snaps clean. The slot and the
          // element's id seed each burst, so a seek draws the same frame every time.
          if (!inside || p > 0.8) break;
          var gslot = Math.floor(t * 15), gseed = idSeed(e.id) + gslot * 7919, gr = rng(gseed);
          if (p > 0.1 && gr() < 0.35) break;
          s.glitch = { k: (m.amp || 1) * (1 - 0.6 * p / 0.8), seed: gseed };
          break;
        }
        case 'ricochet': {
          // The DVD logo: straight lines at constant speed, reflected by the frame's edges;
          // each edge hit is an event that steps through 'colors'.
          if (t < m.start) break;
          // The element's whole extent stays inside the frame (a logo's ring and name
          // included) and clear of letterbox bars.
          var rt = Math.min(t, m.end) - m.start, rr = (e.size || 0.1) * U * s.scale, ext = EXTENT[e.type] || [1.05, 1.05, 1.05];
          var lb = (S.effects && S.effects.letterbox && W > H * 1.2) ? S.effects.letterbox * H : 0;
          var mx = rr * ext[0] * (e.type === 'rect' ? (e.aspect || 1) : 1) / (RW / 2);
          var ax = tri(s.x + (m.vx || 0.4) * rt, -1 + mx, 1 - mx);
          var ay = tri(s.y + (m.vy || 0.3) * rt, -1 + (rr * ext[1] + lb) / (RH / 2), 1 - (rr * ext[2] + lb) / (RH / 2));
          s.x = ax.v; s.y = ay.v;
          s.events += ax.hits + ay.hits;
          if (m.colors) s.color = pick(m.colors, ax.hits + ay.hits);
          break;
        }
      }
    }
    if (popK >= 0) s.scale *= popK;
    if (progM) s.prog = progressOf(progM, clamp((t - progM.start) / Math.max(1e-6, progM.end - progM.start), 0, 1));
    else if (firstProg) s.prog = 0;
    return s;
  }

  // ---- shapes --------------------------------------------------------------------------
  function roundRect(x, y, w, h, r) {
    r = Math.min(r, w / 2, h / 2);
    ctx.beginPath();
    ctx.moveTo(x + r, y);
    ctx.arcTo(x + w, y, x + w, y + h, r);
    ctx.arcTo(x + w, y + h, x, y + h, r);
    ctx.arcTo(x, y + h, x, y, r);
    ctx.arcTo(x, y, x + w, y, r);
    ctx.closePath();
  }
  function bodyFill(color, r) {
    var g = ctx.createRadialGradient(-r * 0.35, -r * 0.4, r * 0.05, 0, 0, r * 1.15);
    g.addColorStop(0, shade(color, 0.45));
    g.addColorStop(0.45, color);
    g.addColorStop(1, shade(color, -0.35));
    return g;
  }
  function starPath(r, n, inner) {
    ctx.beginPath();
    for (var i = 0; i < n * 2; i++) {
      var a = -Math.PI / 2 + i * Math.PI / n, rr = i % 2 ? r * inner : r;
      ctx.lineTo(Math.cos(a) * rr, Math.sin(a) * rr);
    }
    ctx.closePath();
  }
  function heartPath(r) {
    ctx.beginPath();
    ctx.moveTo(0, r * 0.9);
    ctx.bezierCurveTo(-r * 1.6, -r * 0.1, -r * 0.7, -r * 1.2, 0, -r * 0.45);
    ctx.bezierCurveTo(r * 0.7, -r * 1.2, r * 1.6, -r * 0.1, 0, r * 0.9);
    ctx.closePath();
  }
  function shadowOn(e, r) {
    if (e.shadow) {
      ctx.shadowColor = 'rgba(0,0,0,0.35)';
      ctx.shadowBlur = r * 0.35;
      ctx.shadowOffsetY = r * 0.12;
    }
    if (e.glow) {
      ctx.shadowColor = rgba(e.color || '#ffffff', clamp(e.glow, 0, 1));
      ctx.shadowBlur = r * (0.4 + e.glow);
      ctx.shadowOffsetY = 0;
    }
  }
  function shadowOff() { ctx.shadowColor = 'transparent'; ctx.shadowBlur = 0; ctx.shadowOffsetY = 0; }

  function font(size, weight) { return (weight || 800) + ' ' + Math.max(1, size).toFixed(1) + 'px ' + FONT; }

  var segmenter = typeof Intl !== 'undefined' && Intl.Segmenter ? new Intl.Segmenter(undefined, { granularity: 'grapheme' }) : null;
  function graphemes(str) {
    if (!segmenter) return Array.from(str);
    var out = [];
    for (var it = segmenter.segment(str)[Symbol.iterator](), r = it.next(); !r.done; r = it.next()) out.push(r.value.segment);
    return out;
  }

  // layout fits text into maxW: one line if it fits, else word-wrapped lines, shrinking
  // the font until every line fits; it never overflows the frame.
  function layout(text, size, weight, maxW, maxLines) {
    maxLines = maxLines || 3;
    var key = text + '|' + size.toFixed(1) + '|' + weight + '|' + maxW.toFixed(0) + '|' + maxLines;
    if (layoutCache[key]) return layoutCache[key];
    var words = String(text).split(/\s+/).filter(Boolean), fs = size, lines;
    for (var guard = 0; guard < 40; guard++) {
      ctx.font = font(fs, weight);
      if (ctx.measureText(text).width <= maxW) { lines = [text]; break; }
      lines = [];
      var cur = '';
      for (var i = 0; i < words.length; i++) {
        var next = cur ? cur + ' ' + words[i] : words[i];
        if (cur && ctx.measureText(next).width > maxW) { lines.push(cur); cur = words[i]; } else cur = next;
      }
      if (cur) lines.push(cur);
      var ok = lines.length <= maxLines;
      for (var j = 0; ok && j < lines.length; j++) ok = ctx.measureText(lines[j]).width <= maxW;
      if (ok) break;
      fs *= 0.92;
    }
    // Letters are grapheme clusters, not UTF-16 units: an emoji, a flag or an accent
    // split in two is drawn as two boxes.
    var out = { lines: lines, size: fs, offsets: [], glyphs: [] };
    ctx.font = font(fs, weight);
    for (var l = 0; l < lines.length; l++) {
      var g = graphemes(lines[l]), offs = [0], upto = '';
      for (var c = 0; c < g.length; c++) { upto += g[c]; offs.push(ctx.measureText(upto).width); }
      out.glyphs.push(g);
      out.offsets.push(offs);
    }
    layoutCache[key] = out;
    return out;
  }

  function drawText(e, s, t, cx) {
    var weight = e.weight || 800, maxW = Math.max(U * 0.3, 2 * Math.min(cx - RX, RX + RW - cx) * 0.9);
    if (e.wrap > 0) maxW = Math.min(maxW, e.wrap * U);
    var L = layout(e.text, e.size * U, weight, maxW / Math.max(0.2, s.scale * s.sx));
    var fs = L.size, lh = fs * 1.15, n = 0, total = 0;
    for (var a = 0; a < L.lines.length; a++) total += L.glyphs[a].length;
    var mode = s.typing ? 'type' : (e.reveal || 'rise'), prog = clamp(s.prog, 0, 1), overlap = mode === 'type' ? 0.001 : 4;
    var caretX = null, caretY = 0;
    ctx.font = font(fs, weight);
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'left';
    ctx.shadowColor = 'rgba(0,0,0,0.45)';
    ctx.shadowBlur = fs * 0.12;
    ctx.shadowOffsetY = fs * 0.04;
    var top = -lh * (L.lines.length - 1) / 2;
    var spacing = mode === 'track' ? fs * 0.25 * (1 - ease('easeOutCubic')(prog)) : 0;
    // 'words': each word fades and rises in after the one before, whole.
    var words = 0, wi = -1;
    for (var wl = 0; wl < L.lines.length; wl++) words += L.lines[wl].split(' ').filter(function (w) { return w; }).length;
    for (var l = 0; l < L.lines.length; l++) {
      var line = L.glyphs[l], offs = L.offsets[l];
      var width = offs[line.length] + spacing * (line.length - 1), x0 = -width / 2, y = top + l * lh;
      for (var i = 0; i < line.length; i++, n++) {
        var ch = line[i];
        if (ch !== ' ' && (i === 0 || line[i - 1] === ' ')) wi++;
        if (ch === ' ') continue;
        var u = mode === 'karaoke' ? 1 : mode === 'fade' ? prog : mode === 'words' ? clamp(prog * (words + 0.8) - wi, 0, 1)
          : clamp(prog * (total + overlap) - n, 0, overlap) / overlap;
        if (u <= 0) continue;
        var x = x0 + offs[i] + spacing * i, cw = offs[i + 1] - offs[i];
        caretX = x + cw; caretY = y;
        ctx.save();
        // Two colours (color2) blend across the words, left to right.
        // Two colours (color2) split the line: the first half of the letters (the middle
        // one included) in one, the rest in the other. A blend across every letter leaves
        // the middle a third colour (pink and orange read as coral).
        var c0 = offs[1] / 2, c1 = (offs[line.length - 1] + offs[line.length]) / 2;
        var second = (offs[i] + cw / 2 - c0) / Math.max(1, c1 - c0) > 0.5 + 1e-6;
        ctx.fillStyle = e.color2 && second ? e.color2 : (e.color || '#ffffff');
        // 'karaoke': the whole line shows, and its letters take the sung colour (color2)
        // as progress sweeps across them, letter by letter as it is sung.
        if (mode === 'karaoke') ctx.fillStyle = e.color2 && (n + 0.5) / Math.max(1, total) <= prog ? e.color2 : (e.color || '#ffffff');
        var alpha = 1, dy = 0, sc = 1;
        if (mode === 'pop') { sc = ease('easeOutBack')(u); alpha = clamp(u * 2, 0, 1); dy = (1 - u) * fs * 0.2; }
        else if (mode === 'rise') { var eu = ease('easeOutCubic')(u); alpha = eu; dy = (1 - eu) * fs * 0.45; }
        else if (mode === 'track') { alpha = ease('easeInOutQuad')(u); }
        else if (mode === 'words') { var wu = ease('easeOutCubic')(u); alpha = wu; dy = (1 - wu) * fs * 0.25; }
        else if (mode === 'type') { alpha = u > 0 ? 1 : 0; }
        else { alpha = u; }
        ctx.globalAlpha *= alpha;
        ctx.translate(x + cw / 2, y + dy);
        ctx.scale(sc, sc);
        ctx.fillText(ch, -cw / 2, 0);
        ctx.restore();
      }
    }
    if (mode === 'type') {
      // The caret follows the last typed letter and blinks (steady while typing, as
      // editors do), until the element's last second.
      if (caretX === null) { caretX = -(L.offsets[0][L.glyphs[0].length] || 0) / 2; caretY = top; }
      var typingNow = prog > 0 && prog < 1;
      if (typingNow || Math.floor(t * 2.5) % 2 === 0) {
        ctx.fillStyle = e.color || '#ffffff';
        ctx.fillRect(caretX + fs * 0.06, caretY - fs * 0.5, fs * 0.07, fs);
      }
    }
    shadowOff();
  }

  function fmtNumber(v, decimals) {
    var s = v.toFixed(decimals), parts = s.split('.');
    parts[0] = parts[0].replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    return parts.join('.');
  }

  function drawParticles(e, s, t) {
    var r = rng(e.seed || 7), n = e.count || 60, v = e.variant || 'stars';
    var pal = [e.color || '#ffffff', e.color2 || '#ffd54f', '#ff6b6b', '#4dd0e1', '#b388ff', '#69f0ae'];
    var prog = clamp(s.prog, 0, 1);
    if (v === 'fireworks') { drawFireworks(e, s, t, r, pal); return; }
    if (v === 'popcorn') { drawPopcorn(e, s, t, r); return; }
    for (var i = 0; i < n; i++) {
      var rx = r(), ry = r(), rs = r(), rp = r(), rc = r();
      var x, y, size = U * (e.size || 0.01) * (0.4 + rs), a = 1;
      if (v === 'confetti' || v === 'snow') {
        var fall = (v === 'snow' ? 0.08 : 0.22) * (0.6 + rs);
        x = (rx * 2.2 - 1.1) * W / 2 + Math.sin(t * 1.3 + rp * 6.28) * U * 0.03;
        y = (((ry * 2.4 + t * fall) % 2.4) - 1.2) * H / 2;
        ctx.save();
        ctx.translate(x, y);
        ctx.globalAlpha *= (v === 'snow' ? 0.8 : 1);
        if (v === 'snow') {
          ctx.fillStyle = e.color || '#ffffff';
          ctx.beginPath(); ctx.arc(0, 0, size * 0.6, 0, 6.283); ctx.fill();
        } else {
          ctx.rotate(t * (2 + rs * 4) + rp * 6.28);
          ctx.scale(1, Math.cos(t * 3 + rp * 6.28));
          ctx.fillStyle = pal[Math.floor(rc * pal.length)];
          ctx.fillRect(-size, -size * 0.5, size * 2, size);
        }
        ctx.restore();
        continue;
      }
      if (v === 'spiral') {
        // Arms of glowing dots turning about the centre, the inner ones in the first
        // colour and the outer in the second.
        var arm = Math.floor(rc * 3), rr = Math.sqrt(ry) * 0.46 * U;
        var ang = arm * 2.094 + ry * 7.5 + t * 0.9 + (rx - 0.5) * 0.3;
        x = s.cx + Math.cos(ang) * rr; y = s.cy + Math.sin(ang) * rr;
        ctx.save(); ctx.globalAlpha *= 0.55 + 0.45 * Math.sin(t * 2 + rp * 6.28);
        ctx.fillStyle = ry + rs * 0.25 < 0.6 ? pal[0] : pal[1];
        ctx.shadowColor = ctx.fillStyle; ctx.shadowBlur = size * 4;
        ctx.beginPath(); ctx.arc(x, y, size * (1.3 - ry * 0.6), 0, 6.283); ctx.fill(); ctx.restore();
        continue;
      }
      if (v === 'rain') {
        // Streaks falling fast and slightly slanted, wrapping from the bottom to the top.
        var rfall = 0.9 * (0.7 + rs), len = U * (0.03 + rs * 0.03);
        x = (rx * 2.2 - 1.1) * W / 2;
        y = (((ry * 2.4 + t * rfall) % 2.4) - 1.2) * H / 2;
        ctx.strokeStyle = rgba(e.color || '#9ecbff', 0.75);
        ctx.lineWidth = Math.max(1, size * 0.35);
        ctx.lineCap = 'round';
        ctx.beginPath(); ctx.moveTo(x, y); ctx.lineTo(x - len * 0.18, y + len); ctx.stroke();
        continue;
      }
      if (v === 'bubbles') {
        x = (rx * 2 - 1) * W / 2 + Math.sin(t * 1.1 + rp * 6.28) * U * 0.02;
        y = ((((1 - ry) * 2.4 - t * 0.12 * (0.5 + rs)) % 2.4 + 2.4) % 2.4 - 1.2) * H / 2;
        ctx.strokeStyle = rgba(e.color || '#ffffff', 0.7);
        ctx.lineWidth = Math.max(1, size * 0.15);
        ctx.beginPath(); ctx.arc(x, y, size * 1.5, 0, 6.283); ctx.stroke();
        continue;
      }
      if (v === 'sparkles') {
        // A burst around the element driven by progress.
        var ang = rx * 6.283, dist = (0.15 + ry * 0.35) * U * ease('easeOutCubic')(prog);
        x = s.cx + Math.cos(ang) * dist; y = s.cy + Math.sin(ang) * dist;
        a = prog < 1 ? (1 - prog * 0.6) : 0.4 + 0.3 * Math.sin(t * 4 + rp * 6.28);
        ctx.save(); ctx.globalAlpha *= clamp(a, 0, 1); ctx.translate(x, y); ctx.rotate(t + rp);
        ctx.fillStyle = pal[Math.floor(rc * 2)];
        starPath(size * 1.6, 4, 0.3); ctx.fill(); ctx.restore();
        continue;
      }
      // stars and dust: a field across the frame that twinkles and drifts slowly.
      var speed = v === 'dust' ? 0.015 : 0.006;
      x = ((((rx + t * speed * (0.5 + rs)) % 1) + 1) % 1 * 2.2 - 1.1) * W / 2;
      y = (ry * 2.2 - 1.1) * H / 2;
      a = v === 'dust' ? 0.25 + 0.25 * Math.sin(t * 0.8 + rp * 6.28) : 0.45 + 0.55 * Math.abs(Math.sin(t * (1 + rs * 2) + rp * 6.28));
      ctx.save(); ctx.globalAlpha *= a; ctx.translate(x, y);
      ctx.fillStyle = pal[v === 'dust' ? 0 : (rc < 0.8 ? 0 : 1)];
      if (v === 'stars' && rs > 0.7) { ctx.rotate(t * 0.3); starPath(size * 1.8, 4, 0.28); ctx.fill(); }
      else { ctx.beginPath(); ctx.arc(0, 0, size * 0.6, 0, 6.283); ctx.fill(); }
      ctx.restore();
    }
  }

  // drawPopcorn: kernels popping out of the top of what they are in, at the element's
  // point: one after another each jumps up on an arc with a quick puff of scale, and
  // falls back in or, thrown wider, lands beside it, fading; the pops repeat every period
  // until the element ends. count is the kernels per period, size a kernel's size (the
  // arcs scale with it, so a bigger bucket pops higher); color is the popped kernel,
  // color2 its buttery hull.
  function drawPopcorn(e, s, t, r) {
    var n = clamp(Math.round(e.count || 8), 1, 40), period = 1.6, k = U * (e.size || 0.03);
    var since = t - (e.start || 0), light = e.color || '#fff8e1', hull = e.color2 || '#ffc107';
    if (since < 0) return;
    for (var i = 0; i < n; i++) {
      var rx = r(), rd = r(), rh = r(), rt = r(), rp = r();
      // In turn, a little out of step, so it never reads as a fountain.
      var at = (i + 0.6 * (rp - 0.5)) / n * period + 0.05;
      if (since < at) continue;
      var flight = period * (0.55 + 0.3 * rt), u = ((since - at) % period) / flight;
      if (u >= 1) continue;
      // The highest arc stays in the frame over a drawing at the middle.
      var wide = Math.abs(rd - 0.5) > 0.3, peak = k * (3.5 + 4 * rh);
      var x = s.cx + (rx - 0.5) * k * 3 + (rd - 0.5) * k * (wide ? 9 : 3.5) * u;
      var y = s.cy - 4 * peak * u * (1 - u) + (wide ? k * 7 : k * 0.8) * u * u;
      var puff = clamp(u / 0.08, 0, 1), sz = k * (0.45 + 0.55 * puff) * (0.85 + 0.3 * rh);
      ctx.save();
      ctx.globalAlpha *= clamp(u / 0.04, 0, 1) * clamp((1 - u) / 0.15, 0, 1);
      ctx.translate(x, y); ctx.rotate((rp - 0.5) * 8 * u + rp * 6.28);
      var lobes = [[-0.35, 0.05], [0.32, -0.08], [0, -0.38], [0.05, 0.3]];
      ctx.fillStyle = rgba('#8d6e63', 0.55);
      for (var j = 0; j < lobes.length; j++) { ctx.beginPath(); ctx.arc(lobes[j][0] * sz, lobes[j][1] * sz, sz * 0.52, 0, 6.283); ctx.fill(); }
      ctx.fillStyle = light;
      for (j = 0; j < lobes.length; j++) { ctx.beginPath(); ctx.arc(lobes[j][0] * sz, lobes[j][1] * sz, sz * 0.44, 0, 6.283); ctx.fill(); }
      ctx.fillStyle = hull;
      ctx.beginPath(); ctx.arc(sz * 0.05, sz * 0.08, sz * 0.16, 0, 6.283); ctx.fill();
      ctx.restore();
    }
  }

  // drawFireworks: shells rise from below the frame on a fading streak and burst into a
  // ring of sparks that spread, fall under gravity and fade, one after another across the
  // upper two thirds, so at any moment one is climbing and one or two are in bloom. count
  // is the number of shells in flight at once (2–6), size the spark size.
  function drawFireworks(e, s, t, r, pal) {
    var live = clamp(Math.round(e.count && e.count <= 8 ? e.count : 3), 1, 8), period = 1.9, rise = 0.55, bloom = period - rise;
    var cols = e.color && e.color2 ? [e.color, e.color2, '#ff5d8f', '#ffd54f', '#7cf4ff', '#b388ff', '#69f0ae'] : ['#ff5d8f', '#ffd54f', '#7cf4ff', '#b388ff', '#69f0ae', '#ff8a3d'];
    if (e.color && !e.color2) cols.unshift(e.color);
    var sz = U * clamp(e.size || 0.012, 0.004, 0.03), ga = ctx.globalAlpha;
    ctx.save(); ctx.globalCompositeOperation = 'lighter'; ctx.translate(W / 2, H / 2); // (the camera leaves the origin top left)
    // Shell k launches at k*period/live; the first ones are already in bloom at t=0.
    var first = Math.floor((t - period) * live / period) - 1, last = Math.floor(t * live / period);
    for (var k = first; k <= last; k++) {
      var t0 = k * period / live - period * 0.35, age = t - t0;
      if (age < 0 || age > period) continue;
      var hr = rng((e.seed || 7) * 131 + k * 977 + 13);
      var bx = (hr() * 1.5 - 0.75) * Math.min(W, U * 1.6) / 2, by = (-0.55 + hr() * 0.5) * H / 2;
      var col = cols[Math.floor(hr() * cols.length)], col2 = cols[Math.floor(hr() * cols.length)];
      var radius = U * (0.16 + hr() * 0.12), sparks = 36 + Math.floor(hr() * 20);
      if (age < rise) {
        // The climbing shell and its streak.
        var u = ease('easeOutQuad')(age / rise), sy = H / 2 + sz * 4, yy = sy + (by - sy) * u;
        var gr = ctx.createLinearGradient(bx, yy, bx, yy + U * 0.12);
        gr.addColorStop(0, rgba('#fff3c4', 0.9)); gr.addColorStop(1, rgba('#fff3c4', 0));
        ctx.strokeStyle = gr; ctx.lineWidth = Math.max(1, sz * 0.5);
        ctx.beginPath(); ctx.moveTo(bx, yy); ctx.lineTo(bx, yy + U * 0.12); ctx.stroke();
        ctx.fillStyle = '#fff8e1'; ctx.beginPath(); ctx.arc(bx, yy, sz * 0.7, 0, 6.283); ctx.fill();
        continue;
      }
      var b = (age - rise) / bloom, spread = ease('easeOutCubic')(clamp(b * 1.6, 0, 1)), fade = clamp(1.15 - b, 0, 1);
      if (b < 0.12) {
        // The flash of the burst.
        var fl = ctx.createRadialGradient(bx, by, 0, bx, by, radius * 0.6);
        fl.addColorStop(0, rgba('#ffffff', 0.7 * (1 - b / 0.12))); fl.addColorStop(1, rgba(col, 0));
        ctx.fillStyle = fl; ctx.beginPath(); ctx.arc(bx, by, radius * 0.6, 0, 6.283); ctx.fill();
      }
      var drop = b * b * U * 0.12;
      for (var j = 0; j < sparks; j++) {
        var ang = j / sparks * 6.283 + hr() * 0.1, sp = 0.75 + hr() * 0.3, c = j % 3 === 0 ? col2 : col;
        var px = bx + Math.cos(ang) * radius * sp * spread, py = by + Math.sin(ang) * radius * sp * spread + drop;
        var tx = bx + Math.cos(ang) * radius * sp * spread * 0.7, ty = by + Math.sin(ang) * radius * sp * spread * 0.7 + drop * 0.8;
        ctx.globalAlpha = ga * fade * (0.75 + 0.25 * Math.sin(t * 25 + j));
        ctx.strokeStyle = c; ctx.lineWidth = Math.max(1, sz * 0.45); ctx.lineCap = 'round';
        ctx.beginPath(); ctx.moveTo(tx, ty); ctx.lineTo(px, py); ctx.stroke();
        ctx.fillStyle = c; ctx.beginPath(); ctx.arc(px, py, sz * 0.55, 0, 6.283); ctx.fill();
      }
    }
    ctx.restore();
  }

  // ---- icons, paths, morphs, lists --------------------------------------------------------
  // Icons are drawn in a 2×2 box centred on 0,0: a filled body, stroked details, dots.
  var ICONS = {
    rocket: { fill: 'M0,-1 C0.45,-0.6 0.45,0.2 0.3,0.55 L-0.3,0.55 C-0.45,0.2 -0.45,-0.6 0,-1 Z M-0.3,0.15 L-0.65,0.75 L-0.28,0.62 Z M0.3,0.15 L0.65,0.75 L0.28,0.62 Z', dots: [[0, -0.3, 0.16]], flame: true },
    bird: { fill: 'M-1,-0.25 C-0.6,-0.75 -0.25,-0.5 0,-0.1 C0.25,-0.5 0.6,-0.75 1,-0.25 C0.6,-0.2 0.3,0.15 0,0.55 C-0.3,0.15 -0.6,-0.2 -1,-0.25 Z', flap: true },
    cloud: { fill: 'M-0.8,0.45 A0.35,0.35 0 0,1 -0.6,-0.15 A0.45,0.45 0 0,1 0.15,-0.4 A0.4,0.4 0 0,1 0.75,-0.05 A0.3,0.3 0 0,1 0.8,0.45 Z' },
    bolt: { fill: 'M0.2,-1 L-0.6,0.15 L-0.05,0.15 L-0.25,1 L0.6,-0.2 L0.05,-0.2 Z' },
    check: { fill: 'M0,-0.95 A0.95,0.95 0 1,1 -0.001,-0.95 Z', stroke: 'M-0.45,0 L-0.12,0.33 L0.5,-0.35', draw: true },
    bell: { fill: 'M0,-0.8 C0.5,-0.8 0.6,-0.3 0.6,0.2 L0.8,0.55 L-0.8,0.55 L-0.6,0.2 C-0.6,-0.3 -0.5,-0.8 0,-0.8 Z', dots: [[0, 0.72, 0.14]], swing: true },
    mail: { fill: 'M-0.9,-0.6 H0.9 V0.6 H-0.9 Z', stroke: 'M-0.9,-0.6 L0,0.1 L0.9,-0.6' },
    pin: { fill: 'M0,1 C-0.2,0.5 -0.7,0.1 -0.7,-0.3 A0.7,0.7 0 1,1 0.7,-0.3 C0.7,0.1 0.2,0.5 0,1 Z', dots: [[0, -0.3, 0.25]] },
    leaf: { fill: 'M-0.8,0.8 C-0.8,-0.4 0,-0.9 0.9,-0.9 C0.9,0 0.4,0.8 -0.8,0.8 Z', stroke: 'M-0.8,0.8 L0.5,-0.5' },
    flame: { fill: 'M0,-1 C0.3,-0.5 0.7,-0.2 0.7,0.3 A0.7,0.7 0 0,1 -0.7,0.3 C-0.7,-0.1 -0.4,-0.3 -0.3,-0.6 C-0.1,-0.3 0,-0.3 0,-1 Z', flicker: true },
    music: { fill: 'M-0.35,-0.75 L0.65,-0.95 L0.65,0.45 A0.3,0.25 0 1,1 0.45,0.2 L0.45,-0.6 L-0.15,-0.48 L-0.15,0.65 A0.3,0.25 0 1,1 -0.35,0.4 Z' },
    chat: { fill: 'M-0.9,-0.7 H0.9 V0.4 H-0.2 L-0.6,0.8 L-0.5,0.4 H-0.9 Z', dots: [[-0.4, -0.15, 0.1], [0, -0.15, 0.1], [0.4, -0.15, 0.1]] },
    gift: { fill: 'M-0.8,-0.2 H0.8 V0.9 H-0.8 Z M-0.9,-0.55 H0.9 V-0.2 H-0.9 Z', stroke: 'M0,-0.55 V0.9 M0,-0.55 C-0.3,-1 -0.6,-0.7 0,-0.55 C0.3,-1 0.6,-0.7 0,-0.55' },
    cup: { fill: 'M-0.6,-0.35 H0.45 V0.35 C0.45,0.8 -0.6,0.8 -0.6,0.35 Z', stroke: 'M0.45,-0.15 C0.85,-0.15 0.85,0.35 0.45,0.35 M-0.3,-0.55 C-0.4,-0.7 -0.2,-0.8 -0.3,-0.95 M0.1,-0.55 C0,-0.7 0.2,-0.8 0.1,-0.95' },
    car: { fill: 'M-0.95,0.3 V-0.05 L-0.6,-0.1 L-0.35,-0.5 H0.35 L0.6,-0.1 L0.95,0 V0.3 Z', dots: [[-0.5, 0.35, 0.22], [0.5, 0.35, 0.22]], dark: true },
    house: { fill: 'M0,-0.9 L0.9,-0.1 H0.65 V0.85 H-0.65 V-0.1 H-0.9 Z', stroke: 'M-0.15,0.85 V0.35 H0.15 V0.85' },
    trophy: { fill: 'M-0.55,-0.85 H0.55 V-0.3 C0.55,0.15 0.2,0.3 0.1,0.35 V0.6 H0.4 V0.85 H-0.4 V0.6 H-0.1 V0.35 C-0.2,0.3 -0.55,0.15 -0.55,-0.3 Z', stroke: 'M-0.55,-0.7 C-0.95,-0.7 -0.95,-0.2 -0.5,-0.15 M0.55,-0.7 C0.95,-0.7 0.95,-0.2 0.5,-0.15' },
    tree: { fill: 'M0,-1 L0.7,0.3 H0.15 V0.9 H-0.15 V0.3 H-0.7 Z' },
    fish: { fill: 'M-0.9,0 C-0.5,-0.55 0.3,-0.55 0.55,0 C0.3,0.55 -0.5,0.55 -0.9,0 Z M0.5,0 L0.95,-0.4 L0.95,0.4 Z', dots: [[-0.5, -0.08, 0.07]], dark: true },
    flower: { fill: 'M0,-0.25 A0.38,0.38 0 1,1 0.001,-0.25 Z M0.25,0 A0.38,0.38 0 1,1 0.251,0 Z M0,0.25 A0.38,0.38 0 1,1 0.001,0.25 Z M-0.25,0 A0.38,0.38 0 1,1 -0.249,0 Z', dots: [[0, 0, 0.25]] },
    sun: { fill: 'M0,-0.55 A0.55,0.55 0 1,1 -0.001,-0.55 Z', stroke: 'M0,-0.75 V-1 M0,0.75 V1 M-0.75,0 H-1 M0.75,0 H1 M0.53,0.53 L0.7,0.7 M-0.53,0.53 L-0.7,0.7 M0.53,-0.53 L0.7,-0.7 M-0.53,-0.53 L-0.7,-0.7', spin: true },
    moon: { fill: 'M0.3,-0.9 A0.9,0.9 0 1,0 0.9,0.3 A0.7,0.7 0 1,1 0.3,-0.9 Z' },
    camera: { fill: 'M-0.9,-0.5 H-0.4 L-0.25,-0.75 H0.25 L0.4,-0.5 H0.9 V0.75 H-0.9 Z', dots: [[0, 0.1, 0.38]] },
    cart: { stroke: 'M-0.95,-0.7 H-0.65 L-0.4,0.3 H0.7 L0.9,-0.45 H-0.55', dots: [[-0.3, 0.62, 0.14], [0.55, 0.62, 0.14]], dark: true }
  };
  // Library assets: the generator writes each one's SVG at assets/lib/<set>/<name>.svg
  // (assets.File). Line-icon sets (assets.Set.Stroke) are drawn in the element's colour;
  // illustrations keep their own.
  var STROKE_SETS = { tabler: true };
  // A tinted illustration (e.tint) is its own file, painted by the generator
  // (assets.TintFile): assets/lib/<set>/<name>-<rrggbb>.svg.
  function assetSrc(id, tint) {
    id = String(id || ''); var k = id.indexOf(':');
    if (k < 0) return '';
    var t = tint && !assetStroke(id) ? '-' + String(tint).replace('#', '').toLowerCase() : '';
    return 'assets/lib/' + id.slice(0, k) + '/' + id.slice(k + 1) + t + '.svg';
  }
  function assetStroke(id) { return !!STROKE_SETS[String(id || '').split(':')[0]]; }
  var tintCache = {};
  function tinted(img, id, color, w, h) {
    // Rasterise once per colour and size, then recolour every drawn pixel (source-in).
    w = Math.max(1, Math.ceil(w / 16) * 16); h = Math.max(1, Math.ceil(h / 16) * 16);
    var key = id + color + w + 'x' + h, c = tintCache[key];
    if (c) return c;
    c = document.createElement('canvas'); c.width = w; c.height = h;
    var g = c.getContext('2d');
    g.drawImage(img, 0, 0, w, h);
    g.globalCompositeOperation = 'source-in'; g.fillStyle = color; g.fillRect(0, 0, w, h);
    return (tintCache[key] = c);
  }
  var pathCache = {};
  function pathOf(d) { return pathCache[d] || (pathCache[d] = new Path2D(d)); }
  var lengthCache = {};
  function pathLength(d) {
    if (lengthCache[d] === undefined) {
      var el = document.createElementNS('http://www.w3.org/2000/svg', 'path'), len = 0;
      el.setAttribute('d', d);
      try { len = el.getTotalLength(); } catch (err) { len = 0; }
      lengthCache[d] = len > 0 ? len : 20;
    }
    return lengthCache[d];
  }
  function drawIcon(e, s, t, r, color, c2) {
    var ic = ICONS[e.variant] || ICONS.check, prog = clamp(s.prog, 0, 1);
    ctx.save();
    if (ic.flap) ctx.scale(1, 0.55 + 0.45 * Math.cos(t * 9));
    if (ic.swing) ctx.rotate(Math.sin(t * 7) * 0.25 * (1 - prog * 0.5));
    if (ic.flicker) ctx.scale(1 + 0.04 * Math.sin(t * 17), 1 + 0.07 * Math.sin(t * 13 + 1));
    if (ic.spin) ctx.rotate(t * 0.4);
    ctx.scale(r, r);
    if (ic.flame) {
      var fl = 0.35 + 0.12 * Math.sin(t * 23) + 0.08 * Math.sin(t * 31);
      ctx.fillStyle = '#ffb300'; ctx.beginPath(); ctx.moveTo(-0.2, 0.6); ctx.lineTo(0, 0.6 + fl + 0.2); ctx.lineTo(0.2, 0.6); ctx.closePath(); ctx.fill();
      ctx.fillStyle = '#ff7043'; ctx.beginPath(); ctx.moveTo(-0.1, 0.6); ctx.lineTo(0, 0.6 + fl); ctx.lineTo(0.1, 0.6); ctx.closePath(); ctx.fill();
    }
    shadowOn(e, 1);
    if (ic.fill) { ctx.fillStyle = bodyFill(color, 1); ctx.fill(pathOf(ic.fill), 'nonzero'); }
    shadowOff();
    var detail = e.color2 || (ic.fill ? '#ffffff' : color);
    if (ic.stroke) {
      ctx.lineWidth = 0.11; ctx.lineCap = 'round'; ctx.lineJoin = 'round'; ctx.strokeStyle = detail;
      if (ic.draw) { ctx.setLineDash([3, 3]); ctx.lineDashOffset = 3 * (1 - prog); }
      ctx.stroke(pathOf(ic.stroke)); ctx.setLineDash([]);
    }
    var dots = (e.text && e.variant === 'chat') ? [] : (ic.dots || []);
    for (var i = 0; i < dots.length; i++) {
      ctx.fillStyle = ic.dark ? '#263238' : detail;
      ctx.beginPath(); ctx.arc(dots[i][0], dots[i][1], dots[i][2], 0, 6.283); ctx.fill();
    }
    ctx.restore();
  }
  // morphPoints samples the shapes' outlines at the same 96 angles and blends between
  // consecutive shapes as progress goes 0→1.
  var MORPH_N = 96;
  function shapePoint(name, k, t) {
    var a = -Math.PI / 2 + 2 * Math.PI * k / MORPH_N, c = Math.cos(a), sn = Math.sin(a), rr = 1;
    switch (name) {
      case 'square': rr = 0.85 / Math.max(Math.abs(c), Math.abs(sn)); break;
      case 'star': { var seg = ((a + Math.PI / 2) / (2 * Math.PI) * 10) % 2, f = seg < 1 ? seg : 2 - seg; rr = 1 - 0.55 * f; break; }
      case 'triangle': { var th = ((a + Math.PI / 2) % (2 * Math.PI / 3) + 2 * Math.PI / 3) % (2 * Math.PI / 3); rr = 0.5 / Math.cos(th - Math.PI / 3); break; }
      case 'heart': {
        var u = 2 * Math.PI * k / MORPH_N, hx = 16 * Math.pow(Math.sin(u), 3), hy = -(13 * Math.cos(u) - 5 * Math.cos(2 * u) - 2 * Math.cos(3 * u) - Math.cos(4 * u));
        return [hx / 17, hy / 17 + 0.1];
      }
      case 'blob': rr = 0.85 + 0.12 * Math.sin(3 * a + t * 1.3) + 0.08 * Math.sin(5 * a - t * 0.9); break;
    }
    return [c * rr, sn * rr];
  }
  function morphPoints(shapes, prog, t) {
    var n = shapes.length, pos = clamp(prog, 0, 1) * (n - 1), i = Math.min(Math.floor(pos), n - 2), u = ease('easeInOutCubic')(pos - i);
    var out = [];
    for (var k = 0; k < MORPH_N; k++) {
      var p = shapePoint(shapes[i], k, t), q = shapePoint(shapes[i + 1], k, t);
      out.push([lerp(p[0], q[0], u), lerp(p[1], q[1], u)]);
    }
    return out;
  }
  // drawItems lays a staggered list out as centred lines, each revealed after the last.
  function drawItems(e, s, t, cx) {
    var n = e.items.length, lh = e.size * U * 1.45, st = e.stagger || 0.35;
    for (var i = 0; i < n; i++) {
      // A steps motion reveals the lines one per step; otherwise they follow each other
      // stagger seconds apart.
      var u = s.stepped ? clamp(s.prog * s.stepped - i, 0, 1)
        : clamp((t - (e.start || 0) - i * st) / 0.6, 0, 1) * clamp(s.prog * 4, 0, 1);
      if (u <= 0) continue;
      ctx.save(); ctx.translate(0, (i - (n - 1) / 2) * lh);
      drawText({ text: e.items[i], size: e.size, color: e.color, weight: e.weight, reveal: e.reveal }, { scale: s.scale, sx: s.sx, prog: u }, t, cx);
      ctx.restore();
    }
  }

  function drawShape(e, s, t, cx) {
    var r = (e.size || 0.1) * U, color = s.color || e.color || '#ffffff', c2 = e.color2 || shade(color, -0.3);
    var prog = clamp(s.prog, 0, 1);
    switch (e.type) {
      case 'circle':
        shadowOn(e, r); ctx.fillStyle = bodyFill(color, r);
        ctx.beginPath(); ctx.arc(0, 0, r, 0, 6.283); ctx.fill(); shadowOff();
        ctx.fillStyle = 'rgba(255,255,255,0.35)';
        ctx.beginPath(); ctx.ellipse(-r * 0.35, -r * 0.45, r * 0.28, r * 0.16, -0.5, 0, 6.283); ctx.fill();
        break;
      case 'rect': {
        if (e.variant === 'ground') {
          // The ground of a place: from the element's y down past the frame's bottom and
          // across its whole width, whatever the frame's shape (the same scene plays in
          // 16:9 and 9:16, whose safe areas differ). A thin lighter lip marks its edge.
          var gl = -cx - W * 0.1, gw = W * 1.2;
          ctx.fillStyle = color; ctx.fillRect(gl, 0, gw, H * 2);
          ctx.fillStyle = rgba(shade(color, 0.18), 0.9); ctx.fillRect(gl, 0, gw, Math.max(2, U * 0.012));
          break;
        }
        var w = r * (e.aspect || 1);
        shadowOn(e, r); ctx.fillStyle = bodyFill(color, Math.max(w, r));
        roundRect(-w, -r, w * 2, r * 2, r * 0.22); ctx.fill(); shadowOff();
        break;
      }
      case 'star': shadowOn(e, r); ctx.fillStyle = bodyFill(color, r); starPath(r, e.count || 5, 0.46); ctx.fill(); shadowOff(); break;
      case 'heart': shadowOn(e, r); ctx.fillStyle = bodyFill(color, r); heartPath(r); ctx.fill(); shadowOff(); break;
      case 'triangle':
        shadowOn(e, r); ctx.fillStyle = bodyFill(color, r);
        ctx.beginPath(); ctx.moveTo(0, -r); ctx.lineTo(r * 0.95, r * 0.7); ctx.lineTo(-r * 0.95, r * 0.7); ctx.closePath(); ctx.fill(); shadowOff();
        break;
      case 'ring': {
        // With a percent (to, suffix %) the arc fills to it and the number counts up in
        // the middle, what it measures under the number, both inside the ring.
        // A spinner (variant) is an open arc, turned by its spin motion.
        var pct = e.variant === 'spinner' ? 0.7 : e.suffix === '%' && e.to > 0 ? clamp(e.to / 100, 0, 1) : 1;
        // A spinner's arc is its whole body, so it is drawn thicker than a progress ring's.
        ctx.lineWidth = r * (e.variant === 'spinner' ? 0.3 : 0.2); ctx.lineCap = 'round';
        ctx.strokeStyle = rgba(color, 0.2); ctx.beginPath(); ctx.arc(0, 0, r, 0, 6.283); ctx.stroke();
        shadowOn(e, r); ctx.strokeStyle = color; ctx.beginPath();
        ctx.arc(0, 0, r, -Math.PI / 2, -Math.PI / 2 + 6.283 * Math.max(0.001, prog * pct)); ctx.stroke(); shadowOff();
        if (e.variant !== 'spinner' && (pct < 1 || e.suffix === '%')) {
          var rtc = e.text_color || color, inner = r * 1.5;
          label(fmtNumber(e.to * prog, decimalsOf([e.to])) + '%', 0, e.sub ? -r * 0.14 : 0, r * 0.62, rtc, 'center', 800, inner);
          if (e.sub) label(e.sub, 0, r * 0.4, r * 0.2, rgba(rtc, 0.8), 'center', 600, r * 1.35);
        }
        break;
      }
      case 'wave': {
        if (e.variant === 'fill') {
          // Layered swells across the whole frame, filled down past its bottom edge; they
          // rise into place with progress and roll on with time.
          var left = -cx - W * 0.1, right = W - cx + W * 0.1, depth = H * 2, nsteps = 60;
          for (var L = 0; L < 3; L++) {
            var lift = (1 - ease('easeOutCubic')(prog)) * H * 0.6 + L * r * 1.1;
            ctx.fillStyle = L === 0 ? rgba(color, 0.45) : L === 1 ? rgba(color, 0.75) : shade(color, -0.25);
            ctx.beginPath(); ctx.moveTo(left, depth);
            for (var si = 0; si <= nsteps; si++) {
              var wx = left + (right - left) * si / nsteps;
              ctx.lineTo(wx, lift + Math.sin(wx / (U * 0.22) * (1 + L * 0.25) + t * (1.3 + 0.5 * L) + L * 1.7) * r * 0.8);
            }
            ctx.lineTo(right, depth); ctx.closePath(); ctx.fill();
          }
          break;
        }
        var hw = r * (e.aspect || 4), steps = 90;
        ctx.lineWidth = r * 0.2; ctx.lineCap = 'round'; ctx.strokeStyle = color; shadowOn(e, r);
        ctx.beginPath();
        for (var i = 0; i <= steps * prog; i++) {
          var u = i / steps, x = -hw + 2 * hw * u;
          var y = Math.sin(u * 6.283 * (e.count || 2) - t * 3) * r * 0.5;
          if (i === 0) ctx.moveTo(x, y); else ctx.lineTo(x, y);
        }
        ctx.stroke(); shadowOff();
        break;
      }
      case 'text':
        if (e.items && e.items.length) drawItems(e, s, t, cx); else drawText(e, s, t, cx);
        break;
      case 'icon': drawIcon(e, s, t, r, color, c2); break;
      case 'image': {
        var img = images[e.src];
        if (img && img.naturalWidth) {
          var ar = img.naturalWidth / img.naturalHeight, iw = ar >= 1 ? r * 2 : r * 2 * ar, ih = ar >= 1 ? r * 2 / ar : r * 2;
          shadowOn(e, r); ctx.globalAlpha *= clamp(prog * 1.5, 0, 1);
          ctx.drawImage(img, -iw / 2, -ih / 2, iw, ih); shadowOff();
        }
        break;
      }
      case 'asset': {
        var aimg = images[assetSrc(e.asset, e.tint)];
        if (aimg && aimg.naturalWidth) {
          var aar = aimg.naturalWidth / aimg.naturalHeight, aw = aar >= 1 ? r * 2 : r * 2 * aar, ah = aar >= 1 ? r * 2 / aar : r * 2;
          var src = assetStroke(e.asset) ? tinted(aimg, e.asset, color, aw * DPR * s.scale, ah * DPR * s.scale) : aimg;
          var wiping = prog < 1 && (e.motions || []).some(function (m) { return m.type === 'draw'; });
          if (wiping) {
            // Drawn in: a drawing with a draw motion is revealed left to right as it plays.
            ctx.save(); ctx.beginPath(); ctx.rect(-aw / 2 - r * 0.1, -ah / 2 - r * 0.1, (aw + r * 0.2) * Math.max(0, prog), ah + r * 0.2); ctx.clip();
          }
          shadowOn(e, r);
          if (e.hue && !assetStroke(e.asset)) ctx.filter = 'hue-rotate(' + e.hue + 'deg)';
          ctx.drawImage(src, -aw / 2, -ah / 2, aw, ah); ctx.filter = 'none'; shadowOff();
          if (wiping) ctx.restore();
        }
        break;
      }
      case 'path': {
        var pth = pathOf(e.path), stroke = e.variant === 'stroke';
        ctx.save();
        if (prog < 1 && !stroke) { ctx.beginPath(); ctx.rect(-r * 1.2, -r * 1.2, r * 2.4 * prog, r * 2.4); ctx.clip(); }
        ctx.scale(r, r); shadowOn(e, 1);
        if (stroke) {
          // Drawn as a pen would: the stroke's first prog of its length.
          ctx.lineWidth = 0.08; ctx.lineCap = 'round'; ctx.lineJoin = 'round'; ctx.strokeStyle = color;
          if (prog < 1) { var plen = pathLength(e.path); ctx.setLineDash([plen * prog, plen * 2]); }
          if (prog > 0) ctx.stroke(pth);
          ctx.setLineDash([]);
        }
        else { ctx.fillStyle = color; ctx.fill(pth); }
        shadowOff(); ctx.restore();
        break;
      }
      case 'morph': {
        var pts = morphPoints(e.shapes || ['circle', 'star'], prog, t);
        shadowOn(e, r); ctx.fillStyle = bodyFill(color, r); ctx.beginPath();
        for (var mi = 0; mi < pts.length; mi++) { if (mi === 0) ctx.moveTo(pts[mi][0] * r, pts[mi][1] * r); else ctx.lineTo(pts[mi][0] * r, pts[mi][1] * r); }
        ctx.closePath(); ctx.fill(); shadowOff();
        break;
      }
      case 'chart': drawChart(e, s, t, r); break;
      case 'countdown': drawCountdown(e, s, t, r); break;
      case 'checklist': drawChecklist(e, s, t, r); break;
      case 'clock': drawClock(e, s, t, r); break;
      case 'progress': drawProgressBar(e, s, t, r); break;
      case 'counter': {
        var v = lerp(e.from || 0, e.to || 100, ease('easeOutCubic')(prog));
        // As many decimals as the target is written with (a price's two), at most two.
        var dec = Math.max(decimalsOf([e.to || 0]), Math.min(2, e.decimals || 0));
        drawText({ text: (e.prefix || '') + fmtNumber(v, dec) + (e.suffix || ''), size: e.size, color: color, weight: 800, reveal: 'fade' },
          { scale: s.scale, sx: s.sx, prog: 1 }, t, cx);
        if (e.sub) {
          ctx.save(); ctx.translate(0, r * 0.95);
          drawText({ text: e.sub, size: e.size * 0.32, color: e.text_color || e.color2 || '#e2e8f0', weight: 600, reveal: 'fade' },
            { scale: s.scale, sx: s.sx, prog: 1 }, t, cx);
          ctx.restore();
        }
        break;
      }
      case 'logo': {
        shadowOn(e, r); ctx.fillStyle = bodyFill(color, r);
        ctx.beginPath(); ctx.arc(0, 0, r, 0, 6.283); ctx.fill(); shadowOff();
        var limg = e.src && images[e.src];
        if (limg && limg.naturalWidth) {
          // The project's own logo file, fitted inside the badge.
          var la = limg.naturalWidth / limg.naturalHeight, lw = la >= 1 ? r * 1.5 : r * 1.5 * la, lh = la >= 1 ? r * 1.5 / la : r * 1.5;
          ctx.save(); ctx.beginPath(); ctx.arc(0, 0, r * 0.98, 0, 6.283); ctx.clip();
          ctx.drawImage(limg, -lw / 2, -lh / 2, lw, lh); ctx.restore();
        }
        ctx.lineWidth = r * 0.08; ctx.lineCap = 'round'; ctx.strokeStyle = e.color2 || '#ffffff';
        ctx.beginPath(); ctx.arc(0, 0, r * 1.18, -Math.PI / 2, -Math.PI / 2 + 6.283 * Math.max(0.001, prog)); ctx.stroke();
        if (e.text && !(limg && limg.naturalWidth)) {
          ctx.save();
          drawText({ text: e.text, size: e.size * (e.text.length <= 2 ? 0.9 : 0.5), color: '#ffffff', weight: 800, reveal: 'fade' },
            { scale: 1, sx: 1, prog: 1 }, t, r * 1.1);
          ctx.restore();
        }
        if (e.sub) {
          // The name stays level under a badge that spins: undo the turn, keep the scale.
          var ksx = s.scale * s.sx || 1, ksy = s.scale * s.sy || 1;
          ctx.save(); ctx.scale(1 / ksx, 1 / ksy); ctx.rotate(-(s.rot || 0) * Math.PI / 180); ctx.scale(ksx, ksy);
          ctx.translate(0, r * 1.8);
          drawText({ text: e.sub, size: e.size * 0.5, color: e.text_color || '#ffffff', weight: 700, reveal: 'rise' },
            { scale: s.scale, sx: s.sx, prog: prog }, t, cx);
          ctx.restore();
        }
        break;
      }
      case 'card': {
        var hw2 = r * 0.78, hh = r;
        shadowOn({ shadow: true }, r); ctx.fillStyle = '#ffffff';
        roundRect(-hw2, -hh, hw2 * 2, hh * 2, r * 0.1); ctx.fill(); shadowOff();
        ctx.save(); roundRect(-hw2, -hh, hw2 * 2, hh * 1.05, r * 0.1); ctx.clip();
        var gg = ctx.createLinearGradient(-hw2, -hh, hw2, 0);
        gg.addColorStop(0, shade(color, 0.2)); gg.addColorStop(1, shade(color, -0.25));
        ctx.fillStyle = gg; ctx.fillRect(-hw2, -hh, hw2 * 2, hh * 1.05);
        // The product the card shows (a library illustration), else a placeholder disc.
        var cimg = e.asset ? images[assetSrc(e.asset)] : null;
        if (cimg && cimg.naturalWidth) {
          var car = cimg.naturalWidth / cimg.naturalHeight, cs = r * 0.8 * (1 + 0.03 * Math.sin(t * 2));
          var cw = car >= 1 ? cs : cs * car, ch = car >= 1 ? cs / car : cs;
          ctx.restore();
          shadowOn({ shadow: true }, r * 0.5);
          ctx.drawImage(cimg, -cw / 2, -hh * 0.47 - ch / 2, cw, ch); shadowOff();
        } else {
          ctx.fillStyle = 'rgba(255,255,255,0.85)';
          ctx.beginPath(); ctx.arc(0, -hh * 0.47, r * 0.28 * (0.9 + 0.1 * Math.sin(t * 2)), 0, 6.283); ctx.fill();
          ctx.restore();
        }
        ctx.save(); ctx.translate(0, hh * 0.3);
        drawText({ text: e.text || 'New', size: e.size * 0.17, color: '#1f2937', weight: 800, reveal: 'fade' }, { scale: 1, sx: 1, prog: 1 }, t, hw2);
        ctx.restore();
        if (e.sub) {
          ctx.save(); ctx.translate(0, hh * 0.62);
          ctx.fillStyle = e.color2 || color; roundRect(-hw2 * 0.45, -r * 0.1, hw2 * 0.9, r * 0.2, r * 0.1); ctx.fill();
          drawText({ text: e.sub, size: e.size * 0.11, color: '#ffffff', weight: 800, reveal: 'fade' }, { scale: 1, sx: 1, prog: 1 }, t, hw2 * 0.45);
          ctx.restore();
        }
        break;
      }
    }
  }

  // ---- data elements: charts, countdowns, checklists, clocks, progress bars ----------------
  // Their numbers and words come from the prompt; every label is fitted to the room it
  // has (shrunk, never clipped), and text takes text_color so it reads on the background.
  var SERIES = ['#6366f1', '#f43f5e', '#f59e0b', '#10b981', '#0ea5e9', '#a855f7', '#84cc16', '#ec4899', '#14b8a6', '#f97316'];
  function lum(hex) { var c = rgb(hex); return (0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]) / 255; }
  function seriesColor(e, i) {
    if (e.colors && e.colors[i]) return e.colors[i];
    if (i === 0 && e.color) return e.color;
    return SERIES[i % SERIES.length];
  }
  function textColor(e) { return e.text_color || '#ffffff'; }
  // label draws one line of text at x,y, shrunk to fit maxW; it returns the width drawn.
  function label(text, x, y, size, color, align, weight, maxW) {
    var fs = size;
    ctx.font = font(fs, weight || 700);
    var w = ctx.measureText(text).width;
    if (maxW && w > maxW) { fs = Math.max(1, fs * maxW / w); ctx.font = font(fs, weight || 700); w = ctx.measureText(text).width; }
    ctx.textAlign = align || 'center';
    ctx.textBaseline = 'middle';
    ctx.fillStyle = color;
    ctx.fillText(text, x, y);
    return w;
  }
  function decimalsOf(vals) {
    var d = 0;
    for (var i = 0; i < vals.length; i++) {
      var s = String(vals[i]), k = s.indexOf('.');
      if (k >= 0) d = Math.max(d, Math.min(2, s.length - k - 1));
    }
    return d;
  }
  // fmtValue writes a chart value with its unit; six digits and more are shortened
  // (4,500,000 → 4.5M) so a label stays as wide as its bar.
  function fmtValue(e, v, dec) {
    var a = Math.abs(v), body = fmtNumber(v, dec);
    if (!e.suffix && a >= 1e5) {
      var units = [[1e9, 'B'], [1e6, 'M'], [1e3, 'k']];
      for (var i = 0; i < units.length; i++) {
        if (a >= units[i][0]) { var q = v / units[i][0]; body = fmtNumber(q, Math.abs(q) < 10 ? 1 : 0).replace(/\.0$/, '') + units[i][1]; break; }
      }
    }
    return (e.prefix || '') + body + (e.suffix || '');
  }
  // niceStep is a round tick step (1, 2 or 5 × 10^k) giving about n ticks over span.
  function niceStep(span, n) {
    var raw = span / n, p = Math.pow(10, Math.floor(Math.log(raw) / Math.LN10)), f = raw / p;
    return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * p;
  }
  // halfRoom is the half-width an element centred at s.cx may use, in its own units: a
  // wide chart narrows to fit a tall frame instead of spilling out of it.
  function halfRoom(s) { return Math.min(s.cx - RX, RX + RW - s.cx) * 0.94 / Math.max(0.05, s.scale * s.sx); }
  function chartTitle(e, y, r, cw, tc) {
    if (!e.text) return;
    label(e.text, 0, y, r * 0.13, tc, 'center', 700, cw * 2);
  }

  function drawBars(e, s, t, r) {
    var vals = e.values || [1], n = vals.length, cw = Math.min(r * (e.aspect || 1.6), halfRoom(s)), tc = textColor(e);
    var labels = e.labels || [], dec = decimalsOf(vals), max = 0;
    for (var k = 0; k < n; k++) max = Math.max(max, vals[k]);
    // A tall frame has height to spare: the bars stand taller.
    var tall = RH > RW * 1.3 ? 1.45 : 1;
    var base = r * 0.78 * tall, top = (e.text ? -r * 0.62 : -r * 0.8) * tall, span = base - top - r * 0.16;
    var gap = cw * 2 / n, bw = gap * Math.min(0.7, 0.45 + n * 0.03);
    var prog = clamp(s.prog, 0, 1), fs = Math.min(r * 0.12, gap * 0.34);
    var scale = e.color_scale && e.color_scale.length === 2 ? e.color_scale : null, lo = Infinity, hi = -Infinity;
    for (var q = 0; q < n; q++) { lo = Math.min(lo, vals[q]); hi = Math.max(hi, vals[q]); }
    chartTitle(e, -r * 0.92 * tall, r, cw, tc);
    // Faint gridlines, then the axis baseline.
    ctx.strokeStyle = rgba(tc, 0.12); ctx.lineWidth = Math.max(1, r * 0.008);
    for (var gl = 1; gl <= 3; gl++) { var gy = base - span * gl / 3; ctx.beginPath(); ctx.moveTo(-cw, gy); ctx.lineTo(cw, gy); ctx.stroke(); }
    ctx.strokeStyle = rgba(tc, 0.6); ctx.lineWidth = Math.max(1.5, r * 0.015);
    ctx.beginPath(); ctx.moveTo(-cw, base); ctx.lineTo(cw, base); ctx.stroke();
    for (var b = 0; b < n; b++) {
      // Bars grow in one after another, each overlapping the next.
      var bp = ease('easeOutCubic')(clamp(prog * (n + 2) / 3 - b / 3, 0, 1));
      var bh = span * (Math.max(0, vals[b]) / (max || 1)) * bp;
      var bx = -cw + gap * b + (gap - bw) / 2, col = seriesColor(e, (e.colors && e.colors.length) ? b : 0);
      var g = ctx.createLinearGradient(0, base - bh, 0, base);
      if (scale) {
        // The lowest value takes the scale's first colour and the highest its last, and
        // a bar's colour is flat enough to read as one: the value, not a shading.
        col = mixHue(scale[0], scale[1], hi > lo ? (vals[b] - lo) / (hi - lo) : 1);
        g.addColorStop(0, shade(col, 0.08)); g.addColorStop(1, shade(col, -0.08));
      } else {
        g.addColorStop(0, shade(col, 0.2)); g.addColorStop(1, (e.colors && e.colors[b]) ? shade(col, -0.2) : (e.color2 || shade(col, -0.25)));
      }
      ctx.fillStyle = g; shadowOn(e, r * 0.3);
      if (bh > 0.5) { roundRect(bx, base - bh, bw, bh, Math.min(bw * 0.16, bh / 2)); ctx.fill(); }
      shadowOff();
      if (bp > 0.02) {
        ctx.save(); ctx.globalAlpha *= clamp(bp * 3, 0, 1);
        label(fmtValue(e, vals[b] * bp, dec), bx + bw / 2, base - bh - fs * 0.8, fs, tc, 'center', 800, gap * 0.96);
        ctx.restore();
      }
      if (labels[b]) {
        ctx.save(); ctx.globalAlpha *= clamp(prog * 4, 0, 1);
        label(labels[b], bx + bw / 2, base + fs * 0.95, fs * 0.95, rgba(tc, 0.85), 'center', 600, gap * 0.96);
        ctx.restore();
      }
    }
  }

  // drawHBars: bars lying down, growing from a left axis one after another, each
  // category's name before its bar and the value after it (a poll, a ranking).
  function drawHBars(e, s, t, r) {
    var vals = e.values || [1], n = vals.length, cw = Math.min(r * (e.aspect || 1.6), halfRoom(s)), tc = textColor(e);
    var labels = e.labels || [], dec = decimalsOf(vals), max = 0;
    for (var k = 0; k < n; k++) max = Math.max(max, vals[k]);
    var tall = RH > RW * 1.3 ? 1.45 : 1;
    var top = (e.text ? -r * 0.62 : -r * 0.8) * tall, bottom = r * 0.8 * tall;
    var gap = (bottom - top) / n, bh = gap * 0.62, fs = Math.min(r * 0.12, gap * 0.4);
    var labW = cw * 0.5, left = -cw + labW, span = cw * 2 - labW - fs * 3.4;
    var prog = clamp(s.prog, 0, 1);
    chartTitle(e, -r * 0.92 * tall, r, cw, tc);
    ctx.strokeStyle = rgba(tc, 0.6); ctx.lineWidth = Math.max(1.5, r * 0.015);
    ctx.beginPath(); ctx.moveTo(left, top); ctx.lineTo(left, bottom); ctx.stroke();
    for (var b = 0; b < n; b++) {
      var bp = ease('easeOutCubic')(clamp(prog * (n + 2) / 3 - b / 3, 0, 1));
      var w = span * (Math.max(0, vals[b]) / (max || 1)) * bp;
      var y = top + gap * b + (gap - bh) / 2, col = seriesColor(e, (e.colors && e.colors.length) ? b : 0);
      var g = ctx.createLinearGradient(left, 0, left + Math.max(w, 1), 0);
      g.addColorStop(0, (e.colors && e.colors[b]) ? shade(col, -0.2) : (e.color2 || shade(col, -0.25))); g.addColorStop(1, shade(col, 0.2));
      ctx.fillStyle = g; shadowOn(e, r * 0.3);
      if (w > 0.5) { roundRect(left, y, w, bh, Math.min(bh * 0.3, w / 2)); ctx.fill(); }
      shadowOff();
      if (bp > 0.02) {
        ctx.save(); ctx.globalAlpha *= clamp(bp * 3, 0, 1);
        label(fmtValue(e, vals[b] * bp, dec), left + w + fs * 0.3, y + bh / 2, fs, tc, 'left', 800, fs * 3.2);
        ctx.restore();
      }
      if (labels[b]) {
        ctx.save(); ctx.globalAlpha *= clamp(prog * 4, 0, 1);
        label(labels[b], left - fs * 0.4, y + bh / 2, fs * 0.95, rgba(tc, 0.85), 'right', 600, labW * 0.92);
        ctx.restore();
      }
    }
  }

  function drawLine(e, s, t, r) {
    var vals = e.values || [1], n = vals.length, cw = Math.min(r * (e.aspect || 1.6), halfRoom(s)), tc = textColor(e);
    var labels = e.labels || [], dec = decimalsOf(vals), prog = clamp(s.prog, 0, 1), col = e.color || SERIES[0];
    var lo = Infinity, hi = -Infinity;
    for (var k = 0; k < n; k++) { lo = Math.min(lo, vals[k]); hi = Math.max(hi, vals[k]); }
    if (lo >= 0 && lo < (hi - lo) * 0.6) lo = 0;
    if (hi === lo) { hi += 1; lo = Math.max(0, lo - 1); }
    var step = niceStep(hi - lo, 4);
    lo = Math.floor(lo / step) * step; hi = Math.ceil(hi / step) * step;
    var tall = RH > RW * 1.3 ? 1.45 : 1;
    var fs = r * 0.105, left = -cw + fs * 3.2, right = cw - fs * 0.8, base = r * 0.72 * tall, top = (e.text ? -r * 0.6 : -r * 0.78) * tall;
    chartTitle(e, -r * 0.92 * tall, r, cw, tc);
    function px(i) { return n === 1 ? (left + right) / 2 : left + (right - left) * i / (n - 1); }
    function py(v) { return base - (base - top) * (v - lo) / (hi - lo); }
    // Y axis: gridlines with their values.
    ctx.lineWidth = Math.max(1, r * 0.008);
    var tdec = step < 1 ? decimalsOf([step]) : 0;
    for (var tv = lo; tv <= hi + step * 0.01; tv += step) {
      var ty = py(tv);
      ctx.strokeStyle = rgba(tc, tv === lo ? 0.6 : 0.12);
      ctx.beginPath(); ctx.moveTo(left, ty); ctx.lineTo(right, ty); ctx.stroke();
      label(fmtValue(e, tv, tdec), left - fs * 0.4, ty, fs * 0.85, rgba(tc, 0.7), 'right', 600, fs * 2.8);
    }
    // X axis labels: every one that fits, else every other.
    var every = 1;
    ctx.font = font(fs, 600);
    var widest = 0;
    for (var li = 0; li < labels.length; li++) widest = Math.max(widest, ctx.measureText(labels[li] || '').width);
    var slot = n > 1 ? (right - left) / (n - 1) : right - left;
    while (widest * 1.1 > slot * every && every < n) every++;
    for (var xi = 0; xi < n; xi += every) {
      if (labels[xi]) label(labels[xi], px(xi), base + fs * 1.0, fs, rgba(tc, 0.85), 'center', 600, slot * every * 0.98);
    }
    // The line is drawn progressively from left to right, with its area and a head dot.
    var pos = prog * (n - 1), last = Math.floor(pos), frac = pos - last;
    var pts = [];
    for (var i = 0; i <= Math.min(last, n - 1); i++) pts.push([px(i), py(vals[i])]);
    if (last < n - 1 && frac > 0) pts.push([lerp(px(last), px(last + 1), frac), py(lerp(vals[last], vals[last + 1], frac))]);
    if (pts.length > 1 || n === 1) {
      var ag = ctx.createLinearGradient(0, top, 0, base);
      // The area and a bold line carry the chart's colour: a hairline over a pale wash
      // reads as grey from across the room, not as the green (or any) colour asked for.
      ag.addColorStop(0, rgba(col, 0.55)); ag.addColorStop(1, rgba(col, 0.12));
      ctx.fillStyle = ag; ctx.beginPath(); ctx.moveTo(pts[0][0], base);
      for (var a = 0; a < pts.length; a++) ctx.lineTo(pts[a][0], pts[a][1]);
      ctx.lineTo(pts[pts.length - 1][0], base); ctx.closePath(); ctx.fill();
      ctx.strokeStyle = col; ctx.lineWidth = r * 0.06; ctx.lineJoin = 'round'; ctx.lineCap = 'round';
      shadowOn({ glow: 0.25, color: col }, r * 0.12);
      ctx.beginPath();
      for (var p = 0; p < pts.length; p++) { if (p === 0) ctx.moveTo(pts[p][0], pts[p][1]); else ctx.lineTo(pts[p][0], pts[p][1]); }
      ctx.stroke(); shadowOff();
    }
    // Every point's value when they fit side by side; else the first, last, highest and
    // lowest only, so labels never pile up.
    ctx.font = font(fs * 0.9, 800);
    var vw = 0, imax = 0, imin = 0;
    for (var q = 0; q < n; q++) {
      vw = Math.max(vw, ctx.measureText(fmtValue(e, vals[q], dec)).width);
      if (vals[q] > vals[imax]) imax = q;
      if (vals[q] < vals[imin]) imin = q;
    }
    var allValues = vw * 1.15 < slot;
    for (var d = 0; d <= Math.min(last, n - 1); d++) {
      var dx = px(d), dy = py(vals[d]);
      ctx.fillStyle = col; ctx.beginPath(); ctx.arc(dx, dy, r * 0.045, 0, 6.283); ctx.fill();
      ctx.fillStyle = e.color2 || '#ffffff'; ctx.beginPath(); ctx.arc(dx, dy, r * 0.02, 0, 6.283); ctx.fill();
      var above = d === 0 || d === n - 1 || vals[d] >= Math.max(vals[d - 1], vals[d + 1]) || vals[d] > vals[d - 1];
      if (!allValues && d !== 0 && d !== n - 1 && d !== imax && d !== imin) continue;
      label(fmtValue(e, vals[d], dec), dx, dy + (above ? -fs * 1.05 : fs * 1.05), fs * 0.9, tc, 'center', 800, slot * 1.1);
    }
    if (prog > 0 && prog < 1 && pts.length) {
      var hd = pts[pts.length - 1];
      ctx.fillStyle = rgba(col, 0.35); ctx.beginPath(); ctx.arc(hd[0], hd[1], r * 0.08 * (1 + 0.2 * Math.sin(t * 8)), 0, 6.283); ctx.fill();
    }
  }

  function drawPie(e, s, t, r) {
    var vals = e.values || [1], n = vals.length, tc = textColor(e), labels = e.labels || [];
    var donut = e.variant === 'donut', prog = clamp(s.prog, 0, 1), sum = 0, dec = decimalsOf(vals);
    for (var k = 0; k < n; k++) sum += Math.max(0, vals[k]);
    sum = sum || 1;
    // Legend beside the pie in wide frames, under it in tall or square ones.
    var wide = W > H * 1.2, pr = wide ? r : RH > RW * 1.4 ? r * 0.95 : r * 0.78;
    var pcx = wide ? -r * 0.8 : 0, pcy = wide ? 0 : -r * 0.42;
    var rows = n, rowH = Math.min(r * 0.3, (wide ? 2.1 * r : 1.1 * r) / rows), fs = rowH * 0.52;
    var inner = donut ? pr * 0.56 : 0, a0 = -Math.PI / 2, sweep = prog * 2 * Math.PI, acc = 0;
    shadowOn({ shadow: true }, pr * 0.5);
    ctx.fillStyle = 'rgba(0,0,0,0.001)'; ctx.beginPath(); ctx.arc(pcx, pcy, pr, 0, 6.283); ctx.fill();
    shadowOff();
    for (var i = 0; i < n; i++) {
      var ang = 2 * Math.PI * Math.max(0, vals[i]) / sum, s0 = a0 + acc, s1 = a0 + Math.min(acc + ang, sweep);
      acc += ang;
      if (s1 <= s0) continue;
      var col = seriesColor(e, i);
      ctx.fillStyle = col;
      ctx.beginPath();
      ctx.arc(pcx, pcy, pr, s0, s1);
      if (donut) ctx.arc(pcx, pcy, inner, s1, s0, true); else ctx.lineTo(pcx, pcy);
      ctx.closePath(); ctx.fill();
      // Thin gaps between slices in the background's colour.
      ctx.strokeStyle = e.color2 || 'rgba(255,255,255,0.9)'; ctx.lineWidth = Math.max(1, pr * 0.018); ctx.lineJoin = 'round';
      ctx.stroke();
    }
    acc = 0;
    for (var j = 0; j < n; j++) {
      var aj = 2 * Math.PI * Math.max(0, vals[j]) / sum, mid = a0 + acc + aj / 2, done = clamp((sweep - acc - aj * 0.6) / (aj * 0.4 + 0.01), 0, 1);
      acc += aj;
      var share = Math.max(0, vals[j]) / sum * 100, pct = (e.suffix === '%' ? fmtNumber(vals[j], dec) : fmtNumber(share, 0)) + '%';
      if (done > 0 && aj > 0.32) {
        var lr = donut ? (pr + inner) / 2 : pr * 0.62, col2 = seriesColor(e, j);
        ctx.save(); ctx.globalAlpha *= done;
        label(pct, pcx + Math.cos(mid) * lr, pcy + Math.sin(mid) * lr, pr * (donut ? 0.13 : 0.15), lum(col2) > 0.62 ? '#111827' : '#ffffff', 'center', 800, donut ? pr - inner : pr * 0.7);
        ctx.restore();
      }
      // Legend row: swatch, name, value.
      var lx, ly, lw;
      if (wide) { lx = r * 0.45; ly = -rowH * (rows - 1) / 2 + j * rowH; lw = r * 1.45; }
      else { lw = r * 1.7; lx = -lw / 2; ly = pr + pcy + rowH * 0.9 + j * rowH; }
      var appear = clamp(prog * (n + 1) - j, 0, 1);
      if (appear <= 0) continue;
      ctx.save(); ctx.globalAlpha *= appear; ctx.translate((1 - ease('easeOutCubic')(appear)) * r * 0.1, 0);
      ctx.fillStyle = seriesColor(e, j); roundRect(lx, ly - fs * 0.45, fs * 0.9, fs * 0.9, fs * 0.2); ctx.fill();
      var val = e.suffix === '%' ? pct : fmtValue(e, vals[j], dec);
      ctx.font = font(fs, 800);
      var vw = ctx.measureText(val).width;
      label(val, lx + lw, ly, fs, tc, 'right', 800, lw * 0.4);
      if (labels[j]) label(labels[j], lx + fs * 1.35, ly, fs, rgba(tc, 0.9), 'left', 600, Math.max(fs, lw - fs * 1.35 - Math.min(vw, lw * 0.4) - fs * 0.5));
      ctx.restore();
    }
    if (donut && e.text && prog > 0.5) {
      ctx.save(); ctx.globalAlpha *= clamp((prog - 0.5) * 3, 0, 1);
      label(e.text, pcx, pcy, inner * 0.32, tc, 'center', 800, inner * 1.6);
      ctx.restore();
    }
  }

  // itemTime is when item i of a countdown or checklist happens: its time, else spread
  // over the element's progress.
  function itemProgress(e, s, t, i, n, dur) {
    if (e.times && e.times[i] !== undefined) return clamp((t - e.times[i]) / dur, 0, 1);
    return clamp(s.prog * n - i, 0, 1);
  }

  function drawCountdown(e, s, t, r) {
    var items = e.items || [], n = items.length, cur = -1, since = 0, until = Infinity;
    for (var i = 0; i < n; i++) {
      var at = e.times && e.times[i] !== undefined ? e.times[i] : (e.start || 0) + i / n * ((e.end || S.duration) - (e.start || 0));
      if (t >= at) { cur = i; since = t - at; }
      else { until = Math.min(until, at - t); break; }
    }
    if (cur < 0) return;
    var next = cur + 1 < n ? (e.times && e.times[cur + 1] !== undefined ? e.times[cur + 1] : (e.start || 0) + (cur + 1) / n * ((e.end || S.duration) - (e.start || 0))) : Infinity;
    var span = next === Infinity ? 1 : next - (t - since), u = clamp(since / Math.min(0.35, span * 0.5), 0, 1);
    var out = next === Infinity ? 0 : clamp(1 - (next - t) / Math.min(0.2, span * 0.3), 0, 1);
    var txt = String(items[cur]), col = e.color || '#ffffff', last = cur === n - 1;
    // A ring that empties over each number's time, then bursts on the last item.
    if (!last && span < Infinity) {
      ctx.lineWidth = r * 0.07; ctx.lineCap = 'round';
      ctx.strokeStyle = rgba(e.color2 || col, 0.2); ctx.beginPath(); ctx.arc(0, 0, r * 1.05, 0, 6.283); ctx.stroke();
      ctx.strokeStyle = e.color2 || col; ctx.beginPath();
      ctx.arc(0, 0, r * 1.05, -Math.PI / 2, -Math.PI / 2 + 6.283 * Math.max(0.001, 1 - clamp(since / span, 0, 1))); ctx.stroke();
    }
    ctx.save();
    var sc = ease('easeOutBack')(u) * (1 + out * 0.4);
    ctx.globalAlpha *= clamp(u * 2, 0, 1) * (1 - out);
    ctx.scale(sc, sc);
    shadowOn({ shadow: true }, r * 0.4);
    // One digit fills the ring; two fit inside it; words may run wider on the last item.
    label(txt, 0, 0, r * (txt.length === 1 ? 1.25 : txt.length === 2 ? 0.95 : 0.6), col, 'center', 900, r * (last && txt.length > 2 ? 3.6 : 1.7));
    shadowOff();
    ctx.restore();
  }

  function drawChecklist(e, s, t, r) {
    var items = e.items || [], n = items.length, tc = textColor(e), acc = e.color || '#22c55e';
    var lh = Math.min(r * 0.62, 2.2 * r / Math.max(1, n)), fs = lh * 0.46, box = lh * 0.56, prog = clamp(s.prog, 0, 1);
    ctx.font = font(fs, 700);
    var widest = 0;
    for (var i = 0; i < n; i++) widest = Math.max(widest, ctx.measureText(items[i]).width);
    var maxText = Math.max(r * 0.8, Math.min(widest, 2 * Math.min(s.cx - RX, RX + RW - s.cx) * 0.92 / Math.max(0.2, s.scale) - box * 1.6));
    var bw = box + box * 0.6 + Math.min(widest, maxText), x0 = -bw / 2;
    for (var k = 0; k < n; k++) {
      var y = (k - (n - 1) / 2) * lh, enter = clamp((t - (e.start || 0) - k * 0.12) / 0.4, 0, 1) * clamp(prog * 8, 0, 1);
      if (e.tracks && e.tracks.progress) enter = clamp(prog * n * 2 - k * 0.5, 0, 1) > 0 ? Math.max(enter, clamp(prog * 6 - k * 0.3, 0, 1)) : enter;
      if (enter <= 0) continue;
      var c = itemProgress(e, s, t, k, n, 0.45);
      ctx.save(); ctx.globalAlpha *= ease('easeOutCubic')(enter); ctx.translate((1 - ease('easeOutCubic')(enter)) * -r * 0.15, y);
      // Box: outlined, then filled with the accent as its check is drawn.
      var bx = x0, by = -box / 2, pop = c > 0 && c < 1 ? 1 + 0.18 * Math.sin(c * Math.PI) : 1;
      ctx.save(); ctx.translate(bx + box / 2, 0); ctx.scale(pop, pop);
      roundRect(-box / 2, by, box, box, box * 0.22);
      if (c > 0) { ctx.fillStyle = rgba(acc, clamp(c * 3, 0, 1)); ctx.fill(); }
      ctx.lineWidth = Math.max(1.5, box * 0.1); ctx.strokeStyle = c > 0 ? acc : rgba(tc, 0.75); ctx.stroke();
      if (c > 0) {
        // The check mark is drawn as a stroke, short leg then long leg.
        var pts = [[-0.3, 0.02], [-0.08, 0.24], [0.32, -0.22]], L1 = Math.hypot(0.22, 0.22), L2 = Math.hypot(0.4, 0.46), d = c * (L1 + L2);
        ctx.strokeStyle = lum(acc) > 0.7 ? '#111827' : '#ffffff'; ctx.lineWidth = box * 0.14; ctx.lineCap = 'round'; ctx.lineJoin = 'round';
        ctx.beginPath(); ctx.moveTo(pts[0][0] * box, pts[0][1] * box);
        if (d <= L1) ctx.lineTo(lerp(pts[0][0], pts[1][0], d / L1) * box, lerp(pts[0][1], pts[1][1], d / L1) * box);
        else { ctx.lineTo(pts[1][0] * box, pts[1][1] * box); ctx.lineTo(lerp(pts[1][0], pts[2][0], (d - L1) / L2) * box, lerp(pts[1][1], pts[2][1], (d - L1) / L2) * box); }
        ctx.stroke();
      }
      ctx.restore();
      var tx = bx + box * 1.6, tw = label(items[k], tx, 0, fs, c >= 1 ? rgba(tc, 0.6) : tc, 'left', 700, maxText);
      if (c > 0.5) {
        // Done items are struck through.
        ctx.strokeStyle = rgba(tc, 0.6); ctx.lineWidth = Math.max(1, fs * 0.08);
        ctx.beginPath(); ctx.moveTo(tx, fs * 0.05); ctx.lineTo(tx + tw * clamp((c - 0.5) * 2, 0, 1), fs * 0.05); ctx.stroke();
      }
      ctx.restore();
    }
  }

  function drawClock(e, s, t, r) {
    var ink = e.color || '#111111', face = e.color2 || '#ffffff', prog = clamp(s.prog, 0, 1);
    shadowOn({ shadow: true }, r * 0.6);
    ctx.fillStyle = face; ctx.beginPath(); ctx.arc(0, 0, r, 0, 6.283); ctx.fill();
    shadowOff();
    ctx.strokeStyle = ink; ctx.lineWidth = r * 0.055; ctx.beginPath(); ctx.arc(0, 0, r * 0.97, 0, 6.283); ctx.stroke();
    ctx.lineCap = 'round';
    for (var i = 0; i < 60; i++) {
      var a = i / 60 * 2 * Math.PI, major = i % 5 === 0, r1 = r * (major ? 0.72 : 0.8), r2 = r * 0.86;
      ctx.lineWidth = r * (major ? 0.045 : 0.014);
      ctx.beginPath(); ctx.moveTo(Math.sin(a) * r1, -Math.cos(a) * r1); ctx.lineTo(Math.sin(a) * r2, -Math.cos(a) * r2); ctx.stroke();
    }
    var from = e.from !== undefined && e.from !== 0 ? e.from : 10 + 10 / 60, turns = e.count || 1;
    var minutes = from * 60 + prog * turns * 60;
    function hand(angle, len, width, col) {
      ctx.save(); ctx.rotate(angle); ctx.strokeStyle = col; ctx.lineWidth = width; ctx.lineCap = 'round';
      ctx.beginPath(); ctx.moveTo(0, len * 0.18); ctx.lineTo(0, -len); ctx.stroke(); ctx.restore();
    }
    shadowOn({ shadow: true }, r * 0.15);
    hand(minutes / 720 * 2 * Math.PI, r * 0.48, r * 0.075, ink);
    hand(minutes / 60 * 2 * Math.PI, r * 0.74, r * 0.045, ink);
    shadowOff();
    ctx.fillStyle = ink; ctx.beginPath(); ctx.arc(0, 0, r * 0.07, 0, 6.283); ctx.fill();
    ctx.fillStyle = face; ctx.beginPath(); ctx.arc(0, 0, r * 0.025, 0, 6.283); ctx.fill();
  }

  function drawProgressBar(e, s, t, r) {
    var hw = Math.min(r * (e.aspect || 3), halfRoom(s)), h = r * 0.36, to = e.to || 100, prog = clamp(s.prog, 0, 1), tc = textColor(e);
    var col = s.color || e.color || '#22c55e', v = to * prog, fw = hw * 2 * clamp(v / 100, 0, 1);
    ctx.fillStyle = rgba(tc, 0.16); roundRect(-hw, -h / 2, hw * 2, h, h / 2); ctx.fill();
    ctx.strokeStyle = rgba(tc, 0.35); ctx.lineWidth = Math.max(1, h * 0.06); ctx.stroke();
    if (fw > 0.5) {
      ctx.save(); roundRect(-hw, -h / 2, hw * 2, h, h / 2); ctx.clip();
      var g = ctx.createLinearGradient(-hw, 0, -hw + fw, 0);
      g.addColorStop(0, e.color2 || shade(col, -0.15)); g.addColorStop(1, shade(col, 0.15));
      ctx.fillStyle = g; shadowOn(e, h); roundRect(-hw, -h / 2, Math.max(fw, h), h, h / 2); ctx.fill(); shadowOff();
      // A soft sheen travels along the filled part.
      var sx = -hw + ((t * 0.6) % 1.4 - 0.2) * fw, sg = ctx.createLinearGradient(sx - h, 0, sx + h, 0);
      sg.addColorStop(0, 'rgba(255,255,255,0)'); sg.addColorStop(0.5, 'rgba(255,255,255,0.28)'); sg.addColorStop(1, 'rgba(255,255,255,0)');
      ctx.fillStyle = sg; ctx.fillRect(-hw, -h / 2, fw, h);
      ctx.restore();
    }
    var pct = fmtNumber(v, decimalsOf([to])) + '%', fs = r * 0.42;
    label(pct, hw, -h / 2 - fs * 0.85, fs, tc, 'right', 800, hw);
    if (e.sub) label(e.sub, -hw, -h / 2 - fs * 0.85, fs * 0.8, rgba(tc, 0.85), 'left', 600, hw * 1.2);
  }

  // label2 draws a name in up to two lines within maxW, the first line's middle at y: a
  // category of a few words ("lost contract") keeps a readable size under a narrow bar
  // instead of shrinking to one thin line.
  function label2(text, x, y, size, color, align, weight, maxW) {
    text = String(text);
    ctx.font = font(size, weight || 700);
    var words = text.split(' ');
    if (words.length < 2 || ctx.measureText(text).width <= maxW) { label(text, x, y, size, color, align, weight, maxW); return 1; }
    var cut = 1, widest = Infinity;
    for (var k = 1; k < words.length; k++) {
      var w = Math.max(ctx.measureText(words.slice(0, k).join(' ')).width, ctx.measureText(words.slice(k).join(' ')).width);
      if (w < widest) { widest = w; cut = k; }
    }
    var fs = widest > maxW ? size * maxW / widest : size;
    label(words.slice(0, cut).join(' '), x, y, fs, color, align, weight, maxW);
    label(words.slice(cut).join(' '), x, y + fs * 1.1, fs, color, align, weight, maxW);
    return 2;
  }

  // chartBox is the room the grid-like variants draw in, in the element's units: the
  // half-width of a bar chart and its height with title and labels (the box the critic
  // reads), taller in a tall frame where height is to spare.
  function chartBox(e, s, r) {
    var tall = RH > RW * 1.3 ? 1.45 : 1;
    return { hw: Math.min(r * (e.aspect || 1.6), halfRoom(s)), hh: r * 1.2 * tall, tall: tall };
  }

  // drawWaterfall: a bridge from a start total to an end total. Each change floats from
  // the running total, up or down, and drops in after the one before it, a dotted
  // connector carrying the level across; the totals stand on the axis.
  function drawWaterfall(e, s, t, r) {
    var vals = e.values || [1], n = vals.length, bx = chartBox(e, s, r), cw = bx.hw, tall = bx.tall, tc = textColor(e);
    var labels = e.labels || [], dec = decimalsOf(vals), prog = clamp(s.prog, 0, 1);
    var from = [], to = [], run = 0, lo = Infinity, hi = -Infinity;
    for (var i = 0; i < n; i++) {
      var total = i === 0 || i === n - 1;
      from.push(total ? 0 : run); to.push(total ? vals[i] : run + vals[i]); run = to[i];
      hi = Math.max(hi, from[i], to[i]);
      lo = Math.min(lo, to[i], total ? to[i] : from[i]);
    }
    // The changes of a bridge are small beside its totals: the axis starts below the
    // lowest level, far enough that the changes read, and the totals show it is cut.
    var floor = Math.min(0, lo), cut = false;
    if (lo > 0 && lo > (hi - lo) * 1.5) {
      var st = niceStep(hi - lo, 4);
      floor = Math.max(0, Math.floor((lo - (hi - lo) * 0.8) / st) * st);
      cut = floor > 0;
    }
    if (hi <= floor) hi = floor + 1;
    var gap = cw * 2 / n, bw = gap * 0.64, fs = Math.min(r * 0.11 * Math.sqrt(tall), gap * 0.34);
    var top = -bx.hh + (e.text ? r * 0.3 : r * 0.05) + fs * 1.3, base = bx.hh - fs * 2.6, span = base - top;
    function py(v) { return base - span * (v - floor) / (hi - floor); }
    chartTitle(e, -bx.hh + r * 0.1, r, cw, tc);
    ctx.strokeStyle = rgba(tc, 0.6); ctx.lineWidth = Math.max(1.5, r * 0.015);
    ctx.beginPath(); ctx.moveTo(-cw, base); ctx.lineTo(cw, base); ctx.stroke();
    var slot = 1 / (n + 0.6);
    for (var b = 0; b < n; b++) {
      // One bar after another, each starting as the one before it lands.
      var raw = clamp((prog - b * slot) / (slot * 1.2), 0, 1), bp = ease('easeOutCubic')(raw);
      if (raw <= 0) continue;
      var isTotal = b === 0 || b === n - 1, up = vals[b] >= 0, x0 = -cw + gap * b + (gap - bw) / 2;
      var col = e.colors && e.colors[b] ? e.colors[b] : isTotal ? (e.color || '#94a3b8') : up ? '#22c55e' : '#ef4444';
      var ya = py(isTotal ? floor : from[b]), yb = py(to[b]), yEnd = lerp(ya, yb, bp);
      var y0 = Math.min(ya, yEnd), h = Math.abs(yEnd - ya);
      if (b > 0) {
        // The connector from the previous bar's level is drawn as this bar begins.
        var cy = py(to[b - 1]), cx0 = x0 - (gap - bw), cx1 = lerp(cx0, x0 + (isTotal ? bw : 0), clamp(raw * 2.5, 0, 1));
        ctx.save(); ctx.strokeStyle = rgba(tc, 0.55); ctx.lineWidth = Math.max(1, r * 0.01); ctx.setLineDash([r * 0.025, r * 0.02]);
        ctx.beginPath(); ctx.moveTo(cx0, cy); ctx.lineTo(cx1, cy); ctx.stroke(); ctx.restore();
      }
      var g = ctx.createLinearGradient(0, y0, 0, y0 + Math.max(h, 1));
      g.addColorStop(0, shade(col, 0.12)); g.addColorStop(1, shade(col, -0.12));
      ctx.fillStyle = g; shadowOn(e, r * 0.2);
      if (h > 0.5) { roundRect(x0, y0, bw, h, Math.min(bw * 0.1, h / 2)); ctx.fill(); }
      shadowOff();
      if (isTotal && cut && h > r * 0.1) {
        // Two slashes across a total's foot: its bar does not start at zero.
        ctx.save(); ctx.strokeStyle = e.color2 || '#ffffff'; ctx.lineWidth = Math.max(1.5, r * 0.014);
        for (var k = 0; k < 2; k++) {
          var sy = base - r * (0.07 + k * 0.045);
          ctx.beginPath(); ctx.moveTo(x0 - bw * 0.05, sy + bw * 0.08); ctx.lineTo(x0 + bw * 1.05, sy - bw * 0.08); ctx.stroke();
        }
        ctx.restore();
      }
      ctx.save(); ctx.globalAlpha *= clamp(raw * 3, 0, 1);
      var txt = isTotal ? fmtValue(e, vals[b], dec) : (up ? '+' : '−') + fmtValue(e, Math.abs(vals[b]), dec);
      var below = !isTotal && !up;
      label(txt, x0 + bw / 2, below ? y0 + h + fs * 0.75 : y0 - fs * 0.75, fs, isTotal ? tc : shade(col, lum(tc) > 0.5 ? 0.35 : -0.2), 'center', 800, gap * 0.98);
      if (labels[b]) label2(labels[b], x0 + bw / 2, base + fs * 0.85, fs * 0.85, rgba(tc, 0.85), 'center', 600, gap * 0.96);
      ctx.restore();
    }
  }

  // drawRadar: a spider chart. Axes spread from the centre with rings of the scale;
  // each series is a translucent polygon growing out from the centre, one after the
  // other, with a legend of the series' names under it.
  function drawRadar(e, s, t, r) {
    var labels = e.labels || [], k = Math.max(3, labels.length), vals = e.values || [], ns = Math.max(1, Math.floor(vals.length / k));
    var bx = chartBox(e, s, r), tc = textColor(e), prog = clamp(s.prog, 0, 1), names = e.series || [];
    var fs = r * 0.1, legend = names.length ? fs * 1.8 : 0, titleH = e.text ? r * 0.28 : 0;
    // The polygon takes what the axis names around it leave.
    ctx.font = font(fs, 600);
    // The side names may take two lines, so a long one ("Waterproofing") does not
    // shrink the polygon in a narrow frame.
    var widest = 0;
    for (var li = 0; li < labels.length; li++) widest = Math.max(widest, ctx.measureText(labels[li]).width);
    var side = Math.min(widest, bx.hw * 0.36);
    var R = Math.max(r * 0.3, Math.min(bx.hw - side - fs * 0.6, bx.hh - (titleH + legend) / 2 - fs * 1.6));
    var cy = (titleH - legend) / 2;
    var top = e.to > 0 ? e.to : 0;
    for (var q = 0; q < vals.length; q++) top = Math.max(top, vals[q]);
    var step = niceStep(top || 1, 4);
    if (!(e.to > 0)) top = Math.ceil((top || 1) / step) * step;
    chartTitle(e, -bx.hh + r * 0.1, r, bx.hw, tc);
    function pt(i, f) { var a = -Math.PI / 2 + 2 * Math.PI * i / k; return [Math.cos(a) * R * f, cy + Math.sin(a) * R * f]; }
    var grid = clamp(prog * 5, 0, 1);
    ctx.save(); ctx.globalAlpha *= grid;
    ctx.lineWidth = Math.max(1, r * 0.008);
    for (var ring = step; ring <= top + step * 0.01; ring += step) {
      ctx.strokeStyle = rgba(tc, ring >= top - step * 0.01 ? 0.4 : 0.16);
      ctx.beginPath();
      for (var a = 0; a <= k; a++) { var p = pt(a % k, ring / top); if (a === 0) ctx.moveTo(p[0], p[1]); else ctx.lineTo(p[0], p[1]); }
      ctx.stroke();
      label(fmtNumber(ring, step < 1 ? decimalsOf([step]) : 0), fs * 0.25, pt(0, ring / top)[1], fs * 0.6, rgba(tc, 0.6), 'left', 600, fs * 3);
    }
    for (var ax = 0; ax < k; ax++) {
      var e1 = pt(ax, 1), lp = pt(ax, 1 + (fs * 0.7) / R), c = Math.cos(-Math.PI / 2 + 2 * Math.PI * ax / k);
      ctx.strokeStyle = rgba(tc, 0.22); ctx.beginPath(); ctx.moveTo(0, cy); ctx.lineTo(e1[0], e1[1]); ctx.stroke();
      var al = Math.abs(c) < 0.2 ? 'center' : c > 0 ? 'left' : 'right', sin = Math.sin(-Math.PI / 2 + 2 * Math.PI * ax / k);
      var room = al === 'center' ? R * 1.2 : bx.hw - Math.abs(lp[0]);
      if (!labels[ax]) continue;
      ctx.font = font(fs, 600);
      if (al !== 'center' && ctx.measureText(labels[ax]).width > room && labels[ax].indexOf(' ') > 0) {
        label2(labels[ax], lp[0], lp[1] + sin * fs * 0.45 - fs * 0.55, fs, rgba(tc, 0.9), al, 600, Math.max(fs * 2, room));
      } else {
        label(labels[ax], lp[0], lp[1] + sin * fs * 0.45, fs, rgba(tc, 0.9), al, 600, Math.max(fs * 2, room));
      }
    }
    ctx.restore();
    for (var si = 0; si < ns; si++) {
      // Series grow in turn, so the second reads as laid over the first.
      var u = ease('easeOutBack')(clamp((prog - 0.12 - si * 0.3) / 0.4, 0, 1));
      if (u <= 0) continue;
      var col = seriesColor(e, si), pts = [];
      for (var j = 0; j < k; j++) pts.push(pt(j, clamp((vals[si * k + j] || 0) / top, 0, 1.05) * u));
      ctx.beginPath();
      for (var m = 0; m < k; m++) { if (m === 0) ctx.moveTo(pts[m][0], pts[m][1]); else ctx.lineTo(pts[m][0], pts[m][1]); }
      ctx.closePath();
      ctx.fillStyle = rgba(col, 0.3); ctx.fill();
      ctx.strokeStyle = col; ctx.lineWidth = r * 0.028; ctx.lineJoin = 'round'; ctx.stroke();
      for (var d = 0; d < k; d++) { ctx.fillStyle = col; ctx.beginPath(); ctx.arc(pts[d][0], pts[d][1], r * 0.03, 0, 6.283); ctx.fill(); }
    }
    if (names.length) {
      // Legend: a swatch and a name per series, centred under the chart.
      ctx.font = font(fs, 700);
      var ws = [], total = 0;
      for (var n = 0; n < names.length; n++) { ws.push(Math.min(ctx.measureText(names[n]).width, bx.hw * 0.8) + fs * 1.4); total += ws[n] + (n ? fs * 1.2 : 0); }
      // Under the polygon's lowest name, not at the box's foot: a tall frame's box has
      // room to spare that would part the legend from its chart.
      var sc = Math.min(1, bx.hw * 2 / total), lx = -total * sc / 2, ly = Math.min(bx.hh - fs * 0.8, cy + R + fs * 3);
      for (var n2 = 0; n2 < names.length; n2++) {
        var appear = clamp((prog - 0.12 - n2 * 0.3) * 4, 0, 1);
        ctx.save(); ctx.globalAlpha *= appear;
        ctx.fillStyle = seriesColor(e, n2); roundRect(lx, ly - fs * 0.4 * sc, fs * 0.8 * sc, fs * 0.8 * sc, fs * 0.2 * sc); ctx.fill();
        label(names[n2], lx + fs * 1.1 * sc, ly, fs * sc, tc, 'left', 700, (ws[n2] - fs * 1.4) * sc);
        ctx.restore();
        lx += (ws[n2] + fs * 1.2) * sc;
      }
    }
  }

  // drawHeatmap: a grid of rows (series) by columns (labels), each cell coloured by its
  // value on a scale; the cells fill in row by row, then the cells the element counts
  // (the highest, or the lowest) are outlined.
  function drawHeatmap(e, s, t, r) {
    var cols = (e.labels || []).length || 1, rows = (e.series || []).length || 1, vals = e.values || [];
    var bx = chartBox(e, s, r), tc = textColor(e), prog = clamp(s.prog, 0, 1);
    var lo = Infinity, hi = -Infinity;
    for (var q = 0; q < vals.length; q++) { lo = Math.min(lo, vals[q]); hi = Math.max(hi, vals[q]); }
    // Without a scale, the element's colour from a pale tint (low) to full (high).
    var scale = e.color_scale && e.color_scale.length === 2 ? e.color_scale : [mixHex(e.color || '#6366f1', '#ffffff', 0.85), e.color || '#6366f1'];
    var titleH = e.text ? r * 0.3 : 0, fs = r * 0.1;
    ctx.font = font(fs, 600);
    var rowW = 0;
    for (var i = 0; i < rows; i++) rowW = Math.max(rowW, ctx.measureText((e.series || [])[i] || '').width);
    rowW = Math.min(rowW + fs * 0.5, bx.hw * 0.5);
    var keyH = fs * 1.9, gw = bx.hw * 2 - rowW, gh = bx.hh * 2 - titleH - fs * 1.6 - keyH;
    // Cells are as tall as the rows allow and up to half as wide again, so a grid of
    // many rows still spans a wide frame.
    var cell = Math.min(gw / cols, gh / rows), cwid = Math.min(gw / cols, cell * 1.5), pad = cell * 0.08;
    fs = Math.min(fs, cell * 0.42, cwid * 0.3);
    var x0 = -bx.hw + rowW + (gw - cwid * cols) / 2, y0 = -bx.hh + titleH + fs * 1.6 + (gh - cell * rows) / 2;
    chartTitle(e, -bx.hh + r * 0.1, r, bx.hw, tc);
    for (var c = 0; c < cols; c++) {
      ctx.save(); ctx.globalAlpha *= clamp(prog * 6, 0, 1);
      label(e.labels[c] || '', x0 + cwid * (c + 0.5), y0 - fs * 0.8, fs, rgba(tc, 0.85), 'center', 600, cwid * 0.98);
      ctx.restore();
    }
    var dec = decimalsOf(vals), showVals = false;
    ctx.font = font(fs * 0.9, 700);
    for (var m = 0; m < vals.length; m++) if (ctx.measureText(fmtValue(e, vals[m], dec)).width > cwid * 0.8) break;
    // Levels the prompt told in words are no numbers to print: the key's words say them.
    showVals = m === vals.length && cell > r * 0.16 && !(e.items && e.items.length);
    for (var rr = 0; rr < rows; rr++) {
      ctx.save(); ctx.globalAlpha *= clamp(prog * 6 - rr * 0.3, 0, 1);
      label((e.series || [])[rr] || '', x0 - fs * 0.4, y0 + cell * (rr + 0.5), fs, rgba(tc, 0.85), 'right', 600, rowW - fs * 0.4);
      ctx.restore();
      for (var cc = 0; cc < cols; cc++) {
        // Row by row, each row sweeping left to right.
        var u = clamp((prog - 0.05) * 1.5 * (rows + 2) - rr - cc / cols, 0, 1);
        if (u <= 0) continue;
        var v = vals[rr * cols + cc], kk = hi > lo ? (v - lo) / (hi - lo) : 1, col = mixHue(scale[0], scale[1], kk);
        var k2 = 0.6 + 0.4 * ease('easeOutBack')(u), sw = (cwid - pad) * k2, sh = (cell - pad) * k2;
        var mx = x0 + cwid * (cc + 0.5), my = y0 + cell * (rr + 0.5);
        ctx.save(); ctx.globalAlpha *= clamp(u * 2, 0, 1);
        ctx.fillStyle = col; roundRect(mx - sw / 2, my - sh / 2, sw, sh, cell * 0.12); ctx.fill();
        // A hairline in the text's colour: a cell as dark as the background still reads.
        ctx.strokeStyle = rgba(tc, 0.16); ctx.lineWidth = Math.max(1, cell * 0.02); ctx.stroke();
        if (showVals) label(fmtValue(e, v, dec), mx, my, fs * 0.9, lum(col) > 0.55 ? '#111827' : '#ffffff', 'center', 700, cwid * 0.8);
        ctx.restore();
      }
    }
    // The key: the scale as a bar under the grid, its ends named by the prompt's words
    // (quiet, packed) or by the lowest and highest values.
    var kw = Math.min(cwid * cols, bx.hw * 1.2), ky = y0 + cell * rows + keyH * 0.55, kx = x0 + (cwid * cols - kw) / 2;
    var lw = Math.min(kw * 0.3, fs * 6), bw = kw - lw * 2 - fs;
    ctx.save(); ctx.globalAlpha *= clamp(prog * 4 - 0.5, 0, 1);
    var kg = ctx.createLinearGradient(kx + lw + fs * 0.5, 0, kx + lw + fs * 0.5 + bw, 0);
    for (var ks = 0; ks <= 4; ks++) kg.addColorStop(ks / 4, mixHue(scale[0], scale[1], ks / 4));
    ctx.fillStyle = kg; roundRect(kx + lw + fs * 0.5, ky - fs * 0.3, bw, fs * 0.6, fs * 0.3); ctx.fill();
    var ends = e.items && e.items.length >= 2 ? [e.items[0], e.items[e.items.length - 1]] : [fmtValue(e, lo, dec), fmtValue(e, hi, dec)];
    label(ends[0], kx + lw, ky, fs * 0.85, rgba(tc, 0.85), 'right', 600, lw);
    label(ends[1], kx + lw + fs + bw, ky, fs * 0.85, rgba(tc, 0.85), 'left', 600, lw);
    ctx.restore();
    var want = e.count || 0;
    if (want) {
      // The outlined cells: the highest values (or lowest, counted negative), ties in
      // grid order, so the same cells are marked on every frame.
      var order = [];
      for (var o = 0; o < vals.length; o++) order.push(o);
      order.sort(function (a, b) { return want > 0 ? vals[b] - vals[a] || a - b : vals[a] - vals[b] || a - b; });
      var w = clamp((prog - 0.8) / 0.15, 0, 1), ring = e.color2 || '#facc15';
      if (w > 0) {
        ctx.save(); ctx.strokeStyle = ring; ctx.lineWidth = Math.max(2, cell * 0.09); ctx.globalAlpha *= w;
        for (var h = 0; h < Math.min(Math.abs(want), order.length); h++) {
          var ci = order[h], gx = x0 + cwid * (ci % cols), gy = y0 + cell * Math.floor(ci / cols), g2 = pad * 0.2 * (1 - w);
          roundRect(gx + pad / 2 - g2, gy + pad / 2 - g2, cwid - pad + g2 * 2, cell - pad + g2 * 2, cell * 0.14); ctx.stroke();
        }
        ctx.restore();
      }
    }
  }

  // scatterAxis is one value axis of a scatter: the extent the prompt gave, else the
  // points' own, widened to round ticks (from zero when the points sit near it).
  function scatterAxis(lo, hi, given) {
    if (given) { var st0 = niceStep(given[1] - given[0], 5); return { lo: given[0], hi: given[1], step: st0 }; }
    if (lo >= 0 && lo < (hi - lo) * 0.6) lo = 0;
    if (hi === lo) { hi += 1; lo -= 1; }
    var st = niceStep(hi - lo, 4);
    return { lo: Math.floor(lo / st) * st, hi: Math.ceil(hi / st) * st, step: st };
  }

  // drawScatter: dots on two value axes, the axes' names beside them. The dots grow in
  // left to right (or pop in one by one), then the line of best fit draws across and
  // its label ("r = 0.82") fades in at its end.
  function drawScatter(e, s, t, r) {
    var vals = e.values || [], stride = e.count === 3 ? 3 : 2, n = Math.floor(vals.length / stride);
    var bx = chartBox(e, s, r), tc = textColor(e), prog = clamp(s.prog, 0, 1), labels = e.labels || [];
    var fs = r * 0.095 * Math.sqrt(bx.tall), titleH = e.text ? r * 0.3 : 0;
    var xlo = Infinity, xhi = -Infinity, ylo = Infinity, yhi = -Infinity, smax = 0;
    for (var i = 0; i < n; i++) {
      var x = vals[i * stride], y = vals[i * stride + 1];
      xlo = Math.min(xlo, x); xhi = Math.max(xhi, x); ylo = Math.min(ylo, y); yhi = Math.max(yhi, y);
      if (stride === 3) smax = Math.max(smax, vals[i * stride + 2]);
    }
    var rg = e.range && e.range.length === 4 ? e.range : null;
    var ax = scatterAxis(xlo, xhi, rg && [rg[0], rg[1]]), ay = scatterAxis(ylo, yhi, rg && [rg[2], rg[3]]);
    var xdec = ax.step < 1 ? decimalsOf([ax.step]) : 0, ydec = ay.step < 1 ? decimalsOf([ay.step]) : 0;
    // Room for the y ticks and the y axis' name on the left, the x ticks and name below.
    ctx.font = font(fs * 0.85, 600);
    var tickW = 0;
    for (var tv = ay.lo; tv <= ay.hi + ay.step * 0.01; tv += ay.step) tickW = Math.max(tickW, ctx.measureText(fmtValue(e, tv, ydec)).width);
    var left = -bx.hw + tickW + fs * (labels[1] ? 1.9 : 0.8), right = bx.hw - fs * 0.8;
    var top = -bx.hh + titleH + fs * 0.9, base = bx.hh - fs * (labels[0] ? 2.6 : 1.5);
    function px(v) { return left + (right - left) * (v - ax.lo) / (ax.hi - ax.lo); }
    function py(v) { return base - (base - top) * (v - ay.lo) / (ay.hi - ay.lo); }
    chartTitle(e, -bx.hh + r * 0.1, r, bx.hw, tc);
    ctx.save(); ctx.globalAlpha *= clamp(prog * 6, 0, 1);
    ctx.lineWidth = Math.max(1, r * 0.008);
    for (var gy = ay.lo; gy <= ay.hi + ay.step * 0.01; gy += ay.step) {
      ctx.strokeStyle = rgba(tc, Math.abs(gy - ay.lo) < ay.step * 0.01 ? 0.6 : 0.12);
      ctx.beginPath(); ctx.moveTo(left, py(gy)); ctx.lineTo(right, py(gy)); ctx.stroke();
      label(fmtValue(e, gy, ydec), left - fs * 0.4, py(gy), fs * 0.85, rgba(tc, 0.75), 'right', 600, tickW + fs * 0.2);
    }
    var slot = (right - left) * ax.step / (ax.hi - ax.lo);
    for (var gx = ax.lo; gx <= ax.hi + ax.step * 0.01; gx += ax.step) {
      ctx.strokeStyle = rgba(tc, Math.abs(gx - ax.lo) < ax.step * 0.01 ? 0.6 : 0.12);
      ctx.beginPath(); ctx.moveTo(px(gx), top); ctx.lineTo(px(gx), base); ctx.stroke();
      label(fmtNumber(gx, xdec), px(gx), base + fs * 0.8, fs * 0.85, rgba(tc, 0.75), 'center', 600, slot * 0.95);
    }
    if (labels[0]) label(labels[0], (left + right) / 2, base + fs * 1.95, fs, rgba(tc, 0.9), 'center', 700, right - left);
    if (labels[1]) {
      ctx.save(); ctx.translate(-bx.hw + fs * 0.55, (top + base) / 2); ctx.rotate(-Math.PI / 2);
      label(labels[1], 0, 0, fs, rgba(tc, 0.9), 'center', 700, base - top);
      ctx.restore();
    }
    ctx.restore();
    // The dots: in order of x, growing together over the first half, or popping one by
    // one when the prompt asks; a bubble's area is its size.
    var order = [];
    for (var o = 0; o < n; o++) order.push(o);
    order.sort(function (a, b) { return vals[a * stride] - vals[b * stride] || a - b; });
    var col = e.color || SERIES[0], pop = e.reveal === 'pop', dotsEnd = e.fit && e.fit.length === 2 ? 0.62 : 0.8;
    var rmin = r * 0.045, rmax = Math.min(r * 0.16, (right - left) / Math.max(4, Math.sqrt(n) * 2.2));
    for (var k = 0; k < n; k++) {
      var id = order[k], u;
      if (pop) u = clamp(((prog - 0.06) / (dotsEnd - 0.06)) * n - k, 0, 1);
      else u = clamp((prog - 0.06 - 0.3 * k / n) / 0.22, 0, 1);
      if (u <= 0) continue;
      var sz = stride === 3 && smax > 0 ? Math.max(rmin * 0.8, rmax * Math.sqrt(Math.max(0, vals[id * stride + 2]) / smax)) : rmin;
      var dx = px(vals[id * stride]), dy = py(vals[id * stride + 1]), g = sz * ease('easeOutBack')(u);
      ctx.save(); ctx.globalAlpha *= clamp(u * 3, 0, 1) * (stride === 3 ? 0.78 : 0.95);
      ctx.fillStyle = col; ctx.beginPath(); ctx.arc(dx, dy, Math.max(0.5, g), 0, 6.283); ctx.fill();
      ctx.strokeStyle = shade(col, -0.3); ctx.lineWidth = Math.max(1, sz * 0.12); ctx.stroke();
      ctx.restore();
    }
    if (e.fit && e.fit.length === 2) {
      // The line across the plot, clipped where it leaves the y range.
      var a = e.fit[0], b = e.fit[1], x0 = ax.lo, x1 = ax.hi;
      if (a !== 0) {
        var xa = (ay.lo - b) / a, xb = (ay.hi - b) / a;
        x0 = Math.max(x0, Math.min(xa, xb)); x1 = Math.min(x1, Math.max(xa, xb));
      }
      var w = ease('easeInOutCubic')(clamp((prog - dotsEnd) / 0.18, 0, 1));
      if (w > 0 && x1 > x0) {
        var xe = lerp(x0, x1, w), lc = e.color2 || tc;
        ctx.save(); ctx.strokeStyle = lc; ctx.lineWidth = r * 0.022; ctx.lineCap = 'round';
        ctx.beginPath(); ctx.moveTo(px(x0), py(a * x0 + b)); ctx.lineTo(px(xe), py(a * xe + b)); ctx.stroke();
        ctx.restore();
        if (e.sub) {
          // The label with a swatch of the line, in the top corner the line leaves
          // empty (top left of a rising line, top right of a falling one).
          ctx.save(); ctx.globalAlpha *= clamp((prog - dotsEnd - 0.15) * 8, 0, 1);
          var up = a >= 0, lf = fs * 1.05, ly = top + lf * 0.9, sw = lf * 1.4;
          ctx.font = font(lf, 800);
          var tw = Math.min(ctx.measureText(e.sub).width, (right - left) * 0.45), lx = up ? left + lf * 0.5 : right - lf * 0.5 - tw - sw - lf * 0.4;
          ctx.strokeStyle = lc; ctx.lineWidth = r * 0.022; ctx.beginPath(); ctx.moveTo(lx, ly); ctx.lineTo(lx + sw, ly); ctx.stroke();
          label(e.sub, lx + sw + lf * 0.4, ly, lf, tc, 'left', 800, tw);
          ctx.restore();
        }
      }
    }
  }

  // squarify lays values (largest first, their sum the box's area) into rows along the
  // box's shorter side, each row kept while adding a block makes its worst aspect ratio
  // no worse (Bruls, Huizing and van Wijk's squarified treemap).
  function squarify(vals, x, y, w, h) {
    var out = [], row = [], i = 0;
    function worst(rw, side) {
      var sum = 0, mx = 0, mn = Infinity;
      for (var k = 0; k < rw.length; k++) { sum += rw[k]; mx = Math.max(mx, rw[k]); mn = Math.min(mn, rw[k]); }
      return Math.max(side * side * mx / (sum * sum), sum * sum / (side * side * mn));
    }
    function place(rw) {
      var sum = 0;
      for (var k = 0; k < rw.length; k++) sum += rw[k];
      if (w >= h) {
        var cw = sum / h, yy = y;
        for (var a = 0; a < rw.length; a++) { out.push([x, yy, cw, rw[a] / cw]); yy += rw[a] / cw; }
        x += cw; w -= cw;
      } else {
        var rh = sum / w, xx = x;
        for (var b = 0; b < rw.length; b++) { out.push([xx, y, rw[b] / rh, rh]); xx += rw[b] / rh; }
        y += rh; h -= rh;
      }
    }
    while (i < vals.length) {
      var side = Math.min(w, h), next = row.concat([vals[i]]);
      if (!row.length || worst(next, side) <= worst(row, side)) { row = next; i++; } else { place(row); row = []; }
    }
    if (row.length) place(row);
    return out;
  }

  // drawTreemap: the whole as a rectangle split into blocks by value, largest at the
  // top left, each named with its amount where the words fit; the blocks grow in
  // together, or one by one largest first, and the total (when asked) is written under.
  function drawTreemap(e, s, t, r) {
    var vals = e.values || [1], n = vals.length, bx = chartBox(e, s, r), tc = textColor(e), prog = clamp(s.prog, 0, 1);
    var labels = e.labels || [], dec = decimalsOf(vals), fs = r * 0.1 * Math.sqrt(bx.tall);
    var titleH = e.text ? r * 0.3 : 0, totalH = e.to > 0 ? fs * 1.8 : 0;
    var x0 = -bx.hw, y0 = -bx.hh + titleH, w = bx.hw * 2, h = bx.hh * 2 - titleH - totalH;
    chartTitle(e, -bx.hh + r * 0.1, r, bx.hw, tc);
    var idx = [], sum = 0;
    for (var i = 0; i < n; i++) { idx.push(i); sum += Math.max(0, vals[i]); }
    idx.sort(function (a, b) { return vals[b] - vals[a] || a - b; });
    var areas = idx.map(function (k) { return Math.max(0, vals[k]) / (sum || 1) * w * h; });
    var rects = squarify(areas, x0, y0, w, h), pad = Math.max(1.5, r * 0.012), pop = e.reveal === 'pop';
    for (var q = 0; q < rects.length; q++) {
      var k = idx[q], rc = rects[q], u;
      if (pop) u = clamp(((prog - 0.05) / 0.7) * n - q, 0, 1);
      else u = clamp((prog - 0.05 - 0.12 * q / n) / 0.35, 0, 1);
      if (u <= 0) continue;
      var col = seriesColor(e, k), ue = ease('easeOutBack')(u);
      var cx = rc[0] + rc[2] / 2, cy = rc[1] + rc[3] / 2, bw = Math.max(0, rc[2] - pad * 2) * (0.7 + 0.3 * ue), bh = Math.max(0, rc[3] - pad * 2) * (0.7 + 0.3 * ue);
      ctx.save(); ctx.globalAlpha *= clamp(u * 2.5, 0, 1);
      ctx.fillStyle = col; roundRect(cx - bw / 2, cy - bh / 2, bw, bh, Math.min(bw, bh, r * 0.3) * 0.08); ctx.fill();
      // Words on the block: as large as its size allows, left-aligned at its top
      // corner; the amount under the name; nothing a small block cannot hold.
      var ink = lum(col) > 0.55 ? '#111827' : '#ffffff', bw0 = rc[2] - pad * 2, bh0 = rc[3] - pad * 2;
      var f = Math.min(fs * 1.25, Math.sqrt(bw0 * bh0) * 0.16, bh0 * 0.3), inset = Math.max(f * 0.5, pad * 2);
      if (f >= fs * 0.45 && labels[k]) {
        ctx.globalAlpha *= clamp(u * 2 - 1, 0, 1);
        ctx.font = font(f, 700);
        var name = labels[k], room = bw0 - inset * 2, nw = ctx.measureText(name).width;
        var amount = fmtValue(e, vals[k], dec), lines = 2;
        if (nw > room && nw * 0.7 > room) lines = 0;
        if (lines) {
          var fit = nw > room ? f * room / nw : f;
          var tall2 = bh0 >= fit * 2.8;
          label(name, cx - bw0 / 2 + inset, cy - bh0 / 2 + inset + fit * 0.55, fit, ink, 'left', 700, room);
          if (tall2) label(amount, cx - bw0 / 2 + inset, cy - bh0 / 2 + inset + fit * 1.75, fit * 0.9, rgba(ink, 0.85), 'left', 600, room);
        } else if (bh0 > f * 1.4) {
          label(amount, cx, cy, f * 0.9, ink, 'center', 700, bw0 * 0.9);
        }
      }
      ctx.restore();
    }
    if (e.to > 0) {
      ctx.save(); ctx.globalAlpha *= clamp((prog - 0.75) * 6, 0, 1);
      label('Total ' + fmtValue(e, e.to, decimalsOf([e.to])), 0, bx.hh - totalH * 0.45, fs * 1.05, tc, 'center', 800, bx.hw * 2);
      ctx.restore();
    }
  }

  // drawPyramid: bands of two series going left and right from a centre column of the
  // bands' names, each side's name over it; with a second period the bars morph to it
  // while a counter runs from one year to the other.
  function drawPyramid(e, s, t, r) {
    var labels = e.labels || [], k = Math.max(1, labels.length), vals = e.values || [], two = vals.length >= 4 * k;
    var bx = chartBox(e, s, r), tc = textColor(e), prog = clamp(s.prog, 0, 1), names = e.series || [];
    var fs = Math.min(r * 0.1 * Math.sqrt(bx.tall), (bx.hh * 2) / (k + 4) * 0.55), titleH = e.text ? r * 0.3 : 0;
    var counter = two && e.from && e.to, counterH = counter ? fs * 2.6 : e.items && e.items.length ? fs * 1.6 : 0, headH = names.length ? fs * 1.8 : 0;
    var max = 0;
    for (var q = 0; q < vals.length; q++) max = Math.max(max, vals[q]);
    ctx.font = font(fs, 600);
    var labW = fs * 2;
    for (var li = 0; li < k; li++) labW = Math.max(labW, ctx.measureText(labels[li] || '').width + fs * 1.2);
    labW = Math.min(labW, bx.hw * 0.5);
    var dec = decimalsOf(vals);
    ctx.font = font(fs * 0.85, 700);
    var valW = ctx.measureText(fmtValue(e, max, dec)).width + fs * 0.5;
    var span = Math.max(fs, bx.hw - labW / 2 - valW), top = -bx.hh + titleH + counterH + headH, bottom = bx.hh;
    var gap = (bottom - top) / k, bh = gap * 0.8;
    chartTitle(e, -bx.hh + r * 0.1, r, bx.hw, tc);
    // The first period grows in band by band; then, with a second, the bars morph.
    var grow = two ? clamp(prog / 0.35, 0, 1) : prog, m = two ? ease('easeInOutCubic')(clamp((prog - 0.45) / 0.45, 0, 1)) : 0;
    // Shapes told in words (e.items) are no figures: their names are written instead of
    // values, the second taking over from the first as the bars morph.
    var words = e.items && e.items.length ? e.items : null;
    if (counter) {
      ctx.save(); ctx.globalAlpha *= clamp(prog * 5, 0, 1);
      label(String(Math.round(lerp(e.from, e.to, m))), words ? -fs * 0.6 : 0, top - headH - counterH * 0.5, fs * 2.1, tc, words ? 'right' : 'center', 800, bx.hw);
      ctx.restore();
    }
    if (words) {
      for (var wi = 0; wi < Math.min(2, words.length); wi++) {
        var wa = words.length > 1 ? (wi ? m : 1 - m) : 1;
        ctx.save(); ctx.globalAlpha *= wa * clamp(prog * 5, 0, 1);
        if (counter) label(words[wi], fs * 0.2, top - headH - counterH * 0.5, fs * 1.1, rgba(tc, 0.85), 'left', 700, bx.hw - fs);
        else label(words[wi], 0, top - headH * 0.4 - fs * 1.2, fs * 1.0, rgba(tc, 0.85), 'center', 700, bx.hw * 2);
        ctx.restore();
      }
    }
    for (var side = 0; side < 2; side++) {
      var col = seriesColor(e, side), dir = side ? 1 : -1;
      if (names[side]) {
        ctx.save(); ctx.globalAlpha *= clamp(prog * 5, 0, 1);
        var hx = dir * (labW / 2 + fs * 0.3), hy = top - headH * 0.55;
        ctx.fillStyle = col; roundRect(side ? hx : hx - fs * 0.7, hy - fs * 0.35, fs * 0.7, fs * 0.7, fs * 0.15); ctx.fill();
        label(names[side], hx + dir * fs * 1.0, hy, fs, tc, side ? 'left' : 'right', 700, span + valW - fs * 1.2);
        ctx.restore();
      }
      for (var b = 0; b < k; b++) {
        var a = vals[side * k + b] || 0, v = two ? lerp(a, vals[(2 + side) * k + b] || 0, m) : a;
        var u = ease('easeOutCubic')(clamp(grow * (k + 3) / 3 - (k - 1 - b) / 3, 0, 1));
        if (u <= 0) continue;
        var len = span * v / (max || 1) * u, y = top + gap * b + (gap - bh) / 2, x = dir * labW / 2;
        var g = ctx.createLinearGradient(x, 0, x + dir * Math.max(len, 1), 0);
        g.addColorStop(0, shade(col, -0.15)); g.addColorStop(1, shade(col, 0.12));
        ctx.fillStyle = g;
        if (len > 0.5) { roundRect(side ? x : x - len, y, len, bh, Math.min(bh * 0.2, len / 2)); ctx.fill(); }
        if (bh > fs * 0.6 && !words) {
          ctx.save(); ctx.globalAlpha *= clamp(u * 3 - 1, 0, 1);
          label(fmtValue(e, v, dec), x + dir * (len + fs * 0.25), y + bh / 2, Math.min(fs * 0.85, bh * 0.8), rgba(tc, 0.85), side ? 'left' : 'right', 700, valW);
          ctx.restore();
        }
      }
    }
    ctx.save(); ctx.globalAlpha *= clamp(prog * 5, 0, 1);
    for (var c = 0; c < k; c++) label(labels[c] || '', 0, top + gap * (c + 0.5), Math.min(fs, gap * 0.7), rgba(tc, 0.9), 'center', 600, labW - fs * 0.4);
    ctx.restore();
  }

  function drawChart(e, s, t, r) {
    switch (e.variant) {
      case 'pie': case 'donut': drawPie(e, s, t, r); break;
      case 'line': drawLine(e, s, t, r); break;
      case 'hbar': drawHBars(e, s, t, r); break;
      case 'waterfall': drawWaterfall(e, s, t, r); break;
      case 'radar': drawRadar(e, s, t, r); break;
      case 'heatmap': drawHeatmap(e, s, t, r); break;
      case 'scatter': drawScatter(e, s, t, r); break;
      case 'treemap': drawTreemap(e, s, t, r); break;
      case 'pyramid': drawPyramid(e, s, t, r); break;
      default: drawBars(e, s, t, r);
    }
  }

  // ---- frame ---------------------------------------------------------------------------
  function drawBackground(t) {
    var bg = S.background || {}, cols = bg.colors && bg.colors.length ? bg.colors : ['#0f172a', '#1e293b'];
    var ang = ((bg.angle || 0) + (bg.drift || 0) * (t / S.duration)) * Math.PI / 180;
    var dx = Math.cos(ang), dy = Math.sin(ang), half = (Math.abs(W * dx) + Math.abs(H * dy)) / 2;
    var g = ctx.createLinearGradient(W / 2 - dx * half, H / 2 - dy * half, W / 2 + dx * half, H / 2 + dy * half);
    for (var i = 0; i < cols.length; i++) g.addColorStop(cols.length === 1 ? 0 : i / (cols.length - 1), cols[i]);
    if (cols.length === 1) g.addColorStop(1, shade(cols[0], -0.3));
    ctx.fillStyle = g;
    ctx.fillRect(0, 0, W, H);
    if (bg.glow) {
      var gx = W * (0.5 + 0.22 * Math.sin(t * 0.45)), gy = H * (0.42 + 0.12 * Math.cos(t * 0.33));
      var rg = ctx.createRadialGradient(gx, gy, 0, gx, gy, Math.max(W, H) * 0.6);
      rg.addColorStop(0, rgba(bg.glow, 0.38));
      rg.addColorStop(1, rgba(bg.glow, 0));
      ctx.fillStyle = rg;
      ctx.fillRect(0, 0, W, H);
    }
  }
  function cameraAt(t) {
    var tr = (S.camera && S.camera.tracks) || {};
    return { zoom: track(tr.zoom, t, 1), x: track(tr.x, t, 0), y: track(tr.y, t, 0), rot: track(tr.rotation, t, 0) };
  }
  function applyCamera(cam, depth) {
    var z = 1 + (cam.zoom - 1) * depth;
    ctx.translate(W / 2, H / 2);
    ctx.scale(z, z);
    ctx.rotate(cam.rot * depth * Math.PI / 180);
    ctx.translate(-W / 2 - cam.x * depth * W / 2, -H / 2 - cam.y * depth * H / 2);
  }
  function byId(id) {
    var els = S.elements || [];
    for (var i = 0; i < els.length; i++) if (els[i].id === id) return els[i];
    return null;
  }
  // centreOf is where an element is drawn at t (pixels, before the camera); an orbit
  // around another element follows that element's centre.
  function centreOf(e, t, s, depth) {
    var cx = RX + RW / 2 + s.x * RW / 2 + s.px, gy = RY + RH / 2 + s.y * RH / 2 + s.py;
    if (s.around && (depth || 0) < 4) {
      var o = byId(s.around);
      if (o && o !== e) {
        var os = state(o, t), oc = centreOf(o, t, os, (depth || 0) + 1);
        cx = oc[0] + s.px;
        gy = oc[1] - os.lift * RH / 2 + s.py;
      }
    }
    return [cx, gy];
  }
  // drawTrail draws where a flying element has been: dots or a line from the path's start
  // to the element, fading towards the start.
  function drawTrail(e, s, r) {
    var m = s.fly.m, n = Math.max(2, Math.round(90 * s.fly.u)), col = m.color || e.color2 || '#ffffff';
    var pts = [];
    for (var i = 0; i <= n; i++) {
      var fp = flyAt(m, s.fly.u * i / n);
      pts.push([RX + RW / 2 + (s.fly.bx + fp[0]) * RW / 2, RY + RH / 2 + (s.fly.by + fp[1]) * RH / 2]);
    }
    ctx.save();
    ctx.fillStyle = col; ctx.strokeStyle = col;
    if (m.trail === 'solid') {
      // A contrail is a bold streak that stays bright behind the plane; a hairline
      // fading from the start reads as a scratch, not as the trail asked for.
      ctx.lineWidth = Math.max(2, r * 0.14); ctx.lineCap = 'round';
      for (var j = 1; j < pts.length; j++) {
        ctx.globalAlpha = 0.35 + 0.65 * Math.min(1, 1.6 * j / pts.length);
        ctx.beginPath(); ctx.moveTo(pts[j - 1][0], pts[j - 1][1]); ctx.lineTo(pts[j][0], pts[j][1]); ctx.stroke();
      }
    } else {
      // Dots at an even spacing along the path, whatever the easing.
      var gap = Math.max(6, U * 0.035), acc = gap, dot = Math.max(1.5, U * 0.008);
      for (var k = 1; k < pts.length; k++) {
        var dx = pts[k][0] - pts[k - 1][0], dy = pts[k][1] - pts[k - 1][1], seg = Math.hypot(dx, dy), w = 0;
        while (acc <= seg) {
          w = acc / (seg || 1);
          ctx.globalAlpha = 0.25 + 0.7 * k / pts.length;
          ctx.beginPath(); ctx.arc(pts[k - 1][0] + dx * w, pts[k - 1][1] + dy * w, dot, 0, 6.283); ctx.fill();
          acc += gap;
        }
        acc -= seg;
      }
    }
    ctx.restore();
  }
  // drawBody draws the element at the origin: its shape, a fill rising inside it (clip),
  // a cord for a hanging element, and words inside a shape that carries text.
  function drawBody(e, s, t, cx, r) {
    if (s.cord > 0 || s.offY > 0) {
      // The cord from the pivot to the top of the hanging element, and the pin.
      ctx.strokeStyle = e.color2 || 'rgba(255,255,255,0.85)'; ctx.lineWidth = Math.max(1.5, r * 0.05);
      ctx.beginPath(); ctx.moveTo(0, 0); ctx.lineTo(0, r * (s.offY - 0.85)); ctx.stroke();
      ctx.fillStyle = e.color2 || '#ffffff'; ctx.beginPath(); ctx.arc(0, 0, Math.max(2, r * 0.08), 0, 6.283); ctx.fill();
    }
    if (s.offY) ctx.translate(0, s.offY * r);
    drawShape(e, s, t, cx);
    if (s.fill && s.fill.level > 0) {
      // Liquid rising from the bottom, clipped to the shape: the same shape drawn again in
      // the fill colour inside a box whose top is the (gently waving) level.
      var top = r * 1.05 - 2.15 * r * s.fill.level;
      ctx.save();
      ctx.beginPath(); ctx.moveTo(-r * 1.6, r * 1.6);
      for (var i = 0; i <= 24; i++) {
        var wx = -r * 1.6 + 3.2 * r * i / 24;
        ctx.lineTo(wx, top + Math.sin(wx / r * 3 + t * 4) * r * 0.04 * (1 - s.fill.level * 0.8));
      }
      ctx.lineTo(r * 1.6, r * 1.6); ctx.closePath(); ctx.clip();
      var fs = {}; for (var k in s) fs[k] = s[k];
      fs.color = s.fill.color;
      drawShape(e, fs, t, cx);
      ctx.restore();
    }
    if (e.text && LABELLED[e.type]) drawLabel(e, s, t, r);
  }
  // Shapes that show their text inside (a speech bubble saying "Hi!").
  var LABELLED = { circle: 1, rect: 1, star: 1, heart: 1, triangle: 1, icon: 1, asset: 1, morph: 1 };
  function drawLabel(e, s, t, r) {
    var chat = e.type === 'icon' && e.variant === 'chat';
    var txt = s.back && e.sub ? e.sub : e.text, dy = chat ? -r * 0.15 : 0;
    var fill = e.text_color || (luma(s.color || e.color || '#ffffff') > 0.6 ? '#1f2937' : '#ffffff');
    ctx.save(); ctx.translate(0, dy);
    // A speech bubble is wide and short (1.8 by 1.1 sizes): its words take two lines at
    // most, shrinking to fit, so a sentence stays inside it.
    var L = chat ? layout(txt, r * 0.45, 800, r * 1.6, 2) : layout(txt, r * 0.55, 800, r * 1.45);
    ctx.font = font(L.size, 800); ctx.textAlign = 'center'; ctx.textBaseline = 'middle'; ctx.fillStyle = fill;
    var lh = L.size * 1.1;
    for (var i = 0; i < L.lines.length; i++) ctx.fillText(L.lines[i], 0, (i - (L.lines.length - 1) / 2) * lh);
    ctx.restore();
  }
  function luma(hex) { var c = rgb(hex); return (0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]) / 255; }
  function drawElement(e, t, cam) {
    if (t < (e.start || 0) || (e.end && t > e.end)) return;
    var s = state(e, t);
    if (s.op <= 0.001 || s.scale <= 0.0001) return;
    var r = (e.size || 0.1) * U;
    var c0 = centreOf(e, t, s), cx = c0[0], groundY = c0[1], cy = groundY - s.lift * RH / 2;
    s.cx = cx; s.cy = cy;
    ctx.save();
    applyCamera(cam, e.fixed ? 0 : e.depth ? e.depth : 1);
    ctx.globalAlpha = clamp(s.op, 0, 1);
    if (e.type === 'particles') { drawParticles(e, s, t); ctx.restore(); return; }
    if (s.fly && s.fly.m.trail) drawTrail(e, s, r * s.scale);
    if (s.bounce) {
      // The ground shadow shrinks and fades as the element rises.
      var hmax = (s.bounce.amp || 0.5), k = clamp(1 - s.lift / (hmax || 1), 0, 1);
      ctx.fillStyle = 'rgba(0,0,0,' + (0.12 + 0.22 * k).toFixed(3) + ')';
      ctx.beginPath();
      ctx.ellipse(cx, groundY + r * s.scale * 0.98, r * s.scale * (0.55 + 0.45 * k), r * s.scale * 0.16 * (0.6 + 0.4 * k), 0, 0, 6.283);
      ctx.fill();
      // Squash about the contact point so the element stays on the ground.
      cy += r * s.scale * (1 - s.sy);
    }
    if (s.rise) {
      // An emitter: copies born one after another at the element, each rising amp of the
      // frame while it drifts, grows and fades (steam, bubbles).
      var m = s.rise, n = Math.max(1, Math.round(m.count || 5)), period = Math.max(0.3, m.period || 1.8), alpha0 = ctx.globalAlpha;
      for (var i = 0; i < n; i++) {
        var local = t - m.start - i * period / n;
        if (local < 0) continue;
        var ph = (local % period) / period;
        if (t - ph * period > m.end) continue;
        ctx.save();
        ctx.translate(cx + Math.sin(ph * 5 + i * 2.1) * r * 0.7, cy - ph * (m.amp || 0.5) * RH / 2);
        ctx.globalAlpha = alpha0 * Math.sin(Math.PI * Math.min(1, ph * 1.15));
        var sc = s.scale * (0.55 + 0.9 * ph);
        ctx.scale(sc * s.sx, sc * s.sy);
        drawBody(e, s, t, cx, r);
        ctx.restore();
      }
      ctx.restore();
      return;
    }
    ctx.translate(cx, cy);
    ctx.rotate(s.rot * Math.PI / 180);
    ctx.scale(s.scale * s.sx, s.scale * s.sy);
    if (s.glitch) drawGlitch(e, s, t, cx, r); else drawBody(e, s, t, cx, r);
    ctx.restore();
  }
  // A glitch frame: red and cyan copies pushed apart either side (the RGB split), the
  // element itself cut into bands that slip sideways, and a few noise bars across it.
  function drawGlitch(e, s, t, cx, r) {
    var k = s.glitch.k, rnd = rng(s.glitch.seed + 1), a0 = ctx.globalAlpha;
    var text = e.type === 'text';
    var hw = text ? Math.min(RW / 2, String(e.text || '').length * 0.3 * r) : r * (e.type === 'rect' ? (e.aspect || 1) : 1);
    var hh = text ? r * 0.6 : r;
    var d = r * k * (0.07 + 0.13 * rnd());
    [['#ff2d55', -1], ['#00e5ff', 1]].forEach(function (c) {
      var ge = {}, gs = {};
      for (var a in e) ge[a] = e[a];
      for (var b in s) gs[b] = s[b];
      ge.color = c[0]; ge.color2 = ''; ge.text_color = c[0]; gs.color = c[0];
      ctx.save();
      ctx.globalAlpha = a0 * 0.85;
      ctx.translate(c[1] * d, 0);
      drawBody(ge, gs, t, cx, r);
      ctx.restore();
    });
    var n = 2 + Math.floor(rnd() * 4), cuts = [-1e5, 1e5];
    for (var i = 0; i < n - 1; i++) cuts.push(-hh + 2 * hh * rnd());
    cuts.sort(function (a, b) { return a - b; });
    for (var j = 0; j < n; j++) {
      ctx.save();
      ctx.beginPath(); ctx.rect(-1e5, cuts[j], 2e5, cuts[j + 1] - cuts[j]); ctx.clip();
      if (rnd() < 0.5) ctx.translate((rnd() - 0.5) * 1.6 * k * hh, 0);
      drawBody(e, s, t, cx, r);
      ctx.restore();
    }
    var bars = 1 + Math.floor(rnd() * 3 * k);
    for (var q = 0; q < bars; q++) {
      ctx.fillStyle = ['#ff2d55', '#00e5ff', '#ffffff'][q % 3];
      ctx.globalAlpha = a0 * 0.7;
      ctx.fillRect(-hw * 1.1 + 2 * hw * rnd(), -hh * 1.4 + 2.8 * hh * rnd(), hw * (0.15 + 0.5 * rnd()), Math.max(1, hh * (0.05 + 0.1 * rnd())));
    }
    ctx.globalAlpha = a0;
  }
  function drawEffects(t) {
    var fx = S.effects || {};
    if (fx.vignette) {
      var g = ctx.createRadialGradient(W / 2, H / 2, U * 0.35, W / 2, H / 2, Math.hypot(W, H) * 0.62);
      g.addColorStop(0, 'rgba(0,0,0,0)');
      g.addColorStop(1, 'rgba(0,0,0,' + clamp(fx.vignette, 0, 1) + ')');
      ctx.fillStyle = g;
      ctx.fillRect(0, 0, W, H);
    }
    if (fx.scanlines) {
      // An old screen's raster: thin dark lines every few pixels, rolling slowly down.
      var gap = Math.max(3, Math.round(H / 200)), off = (t * gap * 1.5) % gap;
      ctx.fillStyle = 'rgba(0,0,0,' + (0.45 * clamp(fx.scanlines, 0, 1)).toFixed(3) + ')';
      for (var sy = off - gap; sy < H; sy += gap) ctx.fillRect(0, sy, W, Math.max(1, gap / 3));
    }
    if (fx.letterbox && W > H * 1.2) {
      var k = fx.letterbox_in ? ease('easeInOutQuart')(clamp(t / fx.letterbox_in, 0, 1)) : 1, bh = fx.letterbox * H * k;
      ctx.fillStyle = '#000';
      ctx.fillRect(0, 0, W, bh);
      ctx.fillRect(0, H - bh, W, bh);
    }
  }
  function draw(t) {
    resize();
    ctx.setTransform(DPR, 0, 0, DPR, 0, 0);
    ctx.globalAlpha = 1;
    if (!S) {
      ctx.fillStyle = '#1e293b'; ctx.fillRect(0, 0, W, H);
      ctx.fillStyle = '#fff'; ctx.font = font(U * 0.05, 700); ctx.textAlign = 'center';
      ctx.fillText('scene.js did not load', W / 2, H / 2);
      return;
    }
    t = clamp(+t || 0, 0, S.duration);
    drawBackground(t);
    var cam = cameraAt(t), els = S.elements || [];
    for (var i = 0; i < els.length; i++) drawElement(els[i], t, cam);
    drawEffects(t);
  }

  // ---- export protocol and preview loop --------------------------------------------------
  var params = new URLSearchParams(location.search);
  var exporting = params.get('export') === '1', fixed = params.get('t');
  var duration = S ? S.duration : 1;
  window.__exportMeta = { duration: duration, fps: (S && S.fps) || 30 };
  window.__exportSeekTo = function (t) {
    // Once the renderer seeks, the preview loop must never draw again over its frame.
    exporting = true;
    draw(t);
  };
  window.__koda = { draw: draw, easings: Object.keys(EASE), scene: S, state: state };
  var t0 = null;
  function loop(now) {
    if (exporting) return;
    if (t0 === null) t0 = now;
    var cycle = duration + 1;
    draw(Math.min(((now - t0) / 1000) % cycle, duration));
    requestAnimationFrame(loop);
  }
  function start() {
    draw(fixed !== null ? +fixed : 0);
    window.__exportReady = true;
    if (fixed !== null) window.addEventListener('resize', function () { draw(+fixed); });
    else if (!exporting) requestAnimationFrame(loop);
  }
  // Images from the project and library assets load (and decode) before the first
  // frame, so every frame has them.
  var images = {};
  function loadImages() {
    var els = (S && S.elements) || [], waits = [];
    els.forEach(function (e) {
      var src = e.type === 'asset' ? assetSrc(e.asset, e.tint) : (e.type === 'card' && e.asset) ? assetSrc(e.asset) : (e.type === 'image' || e.type === 'logo') ? e.src : '';
      if (!src || images[src]) return;
      var img = new Image();
      images[src] = img;
      waits.push(new Promise(function (done) {
        img.onload = function () { (img.decode ? img.decode() : Promise.resolve()).then(done, done); };
        img.onerror = function () { done(); };
        img.src = src;
      }));
    });
    return Promise.all(waits);
  }
  var fontsReady = document.fonts && document.fonts.ready ? document.fonts.ready : Promise.resolve();
  Promise.all([fontsReady, fontLoad, loadImages()]).then(start, start);
})();
