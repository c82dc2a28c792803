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
  var FONT = '"DejaVu Sans", "Liberation Sans", Arial, sans-serif';
  var layoutCache = {};

  function resize() {
    var w = window.innerWidth || 640, h = window.innerHeight || 360, r = window.devicePixelRatio || 1;
    if (w === W && h === H && r === DPR) return;
    W = w; H = h; DPR = r; U = Math.min(W, H);
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
  // shade mixes towards white (amt > 0) or black (amt < 0).
  function shade(hex, amt) {
    var c = rgb(hex), tgt = amt > 0 ? 255 : 0, k = Math.abs(amt);
    return 'rgb(' + Math.round(lerp(c[0], tgt, k)) + ',' + Math.round(lerp(c[1], tgt, k)) + ',' + Math.round(lerp(c[2], tgt, k)) + ')';
  }

  // ---- state of an element at t --------------------------------------------------------
  function envelope(t, m) {
    var r = Math.min(0.3, (m.end - m.start) / 4);
    return clamp(Math.min((t - m.start) / r, (m.end - t) / r), 0, 1);
  }
  function state(e, t) {
    var tr = e.tracks || {};
    var s = {
      x: track(tr.x, t, e.x || 0), y: track(tr.y, t, e.y || 0),
      scale: track(tr.scale, t, 1), sx: track(tr.sx, t, 1), sy: track(tr.sy, t, 1),
      rot: track(tr.rotation, t, 0), op: track(tr.opacity, t, 1), prog: track(tr.progress, t, 1),
      px: 0, py: 0, lift: 0, bounce: null
    };
    var ms = e.motions || [];
    for (var i = 0; i < ms.length; i++) {
      var m = ms[i], span = m.end - m.start;
      var p = clamp((t - m.start) / span, 0, 1), inside = t >= m.start && t <= m.end;
      var cyc = (m.count || 1), env = inside ? envelope(t, m) : 0;
      switch (m.type) {
        case 'bounce': {
          var tp = ease(m.ease)(p);
          s.x += lerp(m.from_x || 0, m.to_x || 0, tp);
          s.y += lerp(m.from_y || 0, m.to_y || 0, tp);
          s.bounce = m;
          if (!inside) break;
          // A fractional count starts at the top of an arc: the element drops in.
          var phi = (Math.ceil(cyc) - cyc) + p * cyc, k = Math.min(Math.floor(phi), Math.ceil(cyc) - 1);
          var u = phi - k, h = (m.amp || 0.5) * Math.pow(m.decay || 0.7, k);
          s.lift = h * 4 * u * (1 - u);
          var sq = m.squash || 0, c = Math.min(u, 1 - u), near = c < 0.12 ? 1 - c / 0.12 : 0;
          var stretch = sq * 0.18 * Math.abs(1 - 2 * u) * (1 - near);
          s.sy *= (1 - sq * 0.38 * near) * (1 + stretch);
          s.sx *= (1 + sq * 0.32 * near) / (1 + stretch * 0.6);
          break;
        }
        case 'float': s.y += (m.amp || 0.03) * Math.sin(2 * Math.PI * cyc * p) * env; break;
        case 'spin': s.rot += 360 * cyc * ease(m.ease)(p); break;
        case 'pulse': s.scale *= 1 + (m.amp || 0.06) * 0.5 * (1 - Math.cos(2 * Math.PI * cyc * p)) * env; break;
        case 'orbit':
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
      }
    }
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

  // layout fits text into maxW: one line if it fits, else word-wrapped lines, shrinking
  // the font until every line fits; it never overflows the frame.
  function layout(text, size, weight, maxW) {
    var key = text + '|' + size.toFixed(1) + '|' + weight + '|' + maxW.toFixed(0);
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
      var ok = lines.length <= 3;
      for (var j = 0; ok && j < lines.length; j++) ok = ctx.measureText(lines[j]).width <= maxW;
      if (ok) break;
      fs *= 0.92;
    }
    var out = { lines: lines, size: fs, offsets: [] };
    ctx.font = font(fs, weight);
    for (var l = 0; l < lines.length; l++) {
      var offs = [], line = lines[l];
      for (var c = 0; c <= line.length; c++) offs.push(ctx.measureText(line.slice(0, c)).width);
      out.offsets.push(offs);
    }
    layoutCache[key] = out;
    return out;
  }

  function drawText(e, s, t, cx) {
    var weight = e.weight || 800, maxW = Math.max(U * 0.3, 2 * Math.min(cx, W - cx) * 0.9);
    var L = layout(e.text, e.size * U, weight, maxW / Math.max(0.2, s.scale * s.sx));
    var fs = L.size, lh = fs * 1.15, n = 0, total = 0;
    for (var a = 0; a < L.lines.length; a++) total += L.lines[a].length;
    var mode = e.reveal || 'rise', prog = clamp(s.prog, 0, 1), overlap = 4;
    ctx.font = font(fs, weight);
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'left';
    ctx.shadowColor = 'rgba(0,0,0,0.45)';
    ctx.shadowBlur = fs * 0.12;
    ctx.shadowOffsetY = fs * 0.04;
    var top = -lh * (L.lines.length - 1) / 2;
    var spacing = mode === 'track' ? fs * 0.25 * (1 - ease('easeOutCubic')(prog)) : 0;
    for (var l = 0; l < L.lines.length; l++) {
      var line = L.lines[l], offs = L.offsets[l];
      var width = offs[line.length] + spacing * (line.length - 1), x0 = -width / 2, y = top + l * lh;
      for (var i = 0; i < line.length; i++, n++) {
        var ch = line[i];
        if (ch === ' ') continue;
        var u = mode === 'fade' ? prog : clamp(prog * (total + overlap) - n, 0, overlap) / overlap;
        if (u <= 0) continue;
        var x = x0 + offs[i] + spacing * i, cw = offs[i + 1] - offs[i];
        ctx.save();
        ctx.fillStyle = e.color || '#ffffff';
        var alpha = 1, dy = 0, sc = 1;
        if (mode === 'pop') { sc = ease('easeOutBack')(u); alpha = clamp(u * 2, 0, 1); dy = (1 - u) * fs * 0.2; }
        else if (mode === 'rise') { var eu = ease('easeOutCubic')(u); alpha = eu; dy = (1 - eu) * fs * 0.45; }
        else if (mode === 'track') { alpha = ease('easeInOutQuad')(u); }
        else if (mode === 'type') { alpha = u > 0 ? 1 : 0; }
        else { alpha = u; }
        ctx.globalAlpha *= alpha;
        ctx.translate(x + cw / 2, y + dy);
        ctx.scale(sc, sc);
        ctx.fillText(ch, -cw / 2, 0);
        ctx.restore();
      }
    }
    if (mode === 'type' && prog < 1 && Math.floor(t * 2.5) % 2 === 0) {
      ctx.fillStyle = e.color || '#ffffff';
      ctx.fillRect(-fs * 0.02, -fs * 0.5, fs * 0.06, fs);
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
  var pathCache = {};
  function pathOf(d) { return pathCache[d] || (pathCache[d] = new Path2D(d)); }
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
    var dots = ic.dots || [];
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
      var u = clamp((t - (e.start || 0) - i * st) / 0.6, 0, 1) * clamp(s.prog * 4, 0, 1);
      if (u <= 0) continue;
      ctx.save(); ctx.translate(0, (i - (n - 1) / 2) * lh);
      drawText({ text: e.items[i], size: e.size, color: e.color, weight: e.weight, reveal: e.reveal }, { scale: s.scale, sx: s.sx, prog: u }, t, cx);
      ctx.restore();
    }
  }

  function drawShape(e, s, t, cx) {
    var r = (e.size || 0.1) * U, color = e.color || '#ffffff', c2 = e.color2 || shade(color, -0.3);
    var prog = clamp(s.prog, 0, 1);
    switch (e.type) {
      case 'circle':
        shadowOn(e, r); ctx.fillStyle = bodyFill(color, r);
        ctx.beginPath(); ctx.arc(0, 0, r, 0, 6.283); ctx.fill(); shadowOff();
        ctx.fillStyle = 'rgba(255,255,255,0.35)';
        ctx.beginPath(); ctx.ellipse(-r * 0.35, -r * 0.45, r * 0.28, r * 0.16, -0.5, 0, 6.283); ctx.fill();
        break;
      case 'rect': {
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
      case 'ring':
        ctx.lineWidth = r * 0.2; ctx.lineCap = 'round';
        ctx.strokeStyle = rgba(color, 0.2); ctx.beginPath(); ctx.arc(0, 0, r, 0, 6.283); ctx.stroke();
        shadowOn(e, r); ctx.strokeStyle = color; ctx.beginPath();
        ctx.arc(0, 0, r, -Math.PI / 2, -Math.PI / 2 + 6.283 * Math.max(0.001, prog)); ctx.stroke(); shadowOff();
        break;
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
      case 'path': {
        var pth = pathOf(e.path);
        ctx.save();
        if (prog < 1) { ctx.beginPath(); ctx.rect(-r * 1.2, -r * 1.2, r * 2.4 * prog, r * 2.4); ctx.clip(); }
        ctx.scale(r, r); shadowOn(e, 1);
        if (e.variant === 'stroke') { ctx.lineWidth = 0.08; ctx.lineCap = 'round'; ctx.lineJoin = 'round'; ctx.strokeStyle = color; ctx.stroke(pth); }
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
      case 'chart': {
        var vals = e.values || [1], n = vals.length, cw = r * (e.aspect || 1.6), max = 0;
        for (var k = 0; k < n; k++) max = Math.max(max, vals[k]);
        var gap = cw * 2 / n, bw = gap * 0.62;
        ctx.strokeStyle = 'rgba(255,255,255,0.55)'; ctx.lineWidth = Math.max(1, r * 0.02);
        ctx.beginPath(); ctx.moveTo(-cw, r); ctx.lineTo(cw, r); ctx.stroke();
        for (var b = 0; b < n; b++) {
          var bp = ease('easeOutCubic')(clamp(prog * (n + 2) / 3 - b / 3 * 1.0, 0, 1));
          var bh = 2 * r * (vals[b] / (max || 1)) * bp;
          var bx = -cw + gap * b + (gap - bw) / 2;
          var g = ctx.createLinearGradient(0, r - bh, 0, r);
          g.addColorStop(0, shade(color, 0.25)); g.addColorStop(1, e.color2 || shade(color, -0.25));
          ctx.fillStyle = g; shadowOn(e, r * 0.3);
          roundRect(bx, r - bh, bw, Math.max(bh, 0.5), bw * 0.18); ctx.fill(); shadowOff();
        }
        break;
      }
      case 'counter': {
        var v = lerp(e.from || 0, e.to || 100, ease('easeOutCubic')(prog));
        var dec = (Math.abs((e.to || 0) - Math.round(e.to || 0)) > 0) ? 1 : 0;
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
          ctx.save(); ctx.translate(0, r * 1.8);
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
        ctx.fillStyle = 'rgba(255,255,255,0.85)';
        ctx.beginPath(); ctx.arc(0, -hh * 0.47, r * 0.28 * (0.9 + 0.1 * Math.sin(t * 2)), 0, 6.283); ctx.fill();
        ctx.restore();
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
  function drawElement(e, t, cam) {
    if (t < (e.start || 0) || (e.end && t > e.end)) return;
    var s = state(e, t);
    if (s.op <= 0.001 || s.scale <= 0.0001) return;
    var r = (e.size || 0.1) * U;
    var cx = W / 2 + s.x * W / 2 + s.px, groundY = H / 2 + s.y * H / 2 + s.py, cy = groundY - s.lift * H / 2;
    s.cx = cx; s.cy = cy;
    ctx.save();
    applyCamera(cam, e.depth ? e.depth : 1);
    ctx.globalAlpha = clamp(s.op, 0, 1);
    if (e.type === 'particles') { drawParticles(e, s, t); ctx.restore(); return; }
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
    ctx.translate(cx, cy);
    ctx.rotate(s.rot * Math.PI / 180);
    ctx.scale(s.scale * s.sx, s.scale * s.sy);
    drawShape(e, s, t, cx);
    ctx.restore();
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
  // Images from the project load before the first frame, so every frame has them.
  var images = {};
  function loadImages() {
    var els = (S && S.elements) || [], waits = [];
    els.forEach(function (e) {
      if ((e.type !== 'image' && e.type !== 'logo') || !e.src || images[e.src]) return;
      var img = new Image();
      images[e.src] = img;
      waits.push(new Promise(function (done) { img.onload = img.onerror = function () { done(); }; img.src = e.src; }));
    });
    return Promise.all(waits);
  }
  var fontsReady = document.fonts && document.fonts.ready ? document.fonts.ready : Promise.resolve();
  Promise.all([fontsReady, loadImages()]).then(start, start);
})();
