// Measures a scene's elements from the pixels the runtime draws at given times: each
// element is drawn alone over the background and the frame is drawn without it, so the
// differences are its own pixels (where it is, whatever its shape) and the pixels of it
// that show (what covers it). Words are compared with what is drawn behind them.
(function (times) {
  var K = window.__koda, S = K.scene, els = S.elements || [];
  var cv = document.getElementById('stage') || document.querySelector('canvas');
  var g = cv.getContext('2d');
  var LABELLED = { circle: 1, rect: 1, star: 1, heart: 1, triangle: 1, icon: 1, asset: 1, morph: 1 };
  var TEXT = { text: 1, counter: 1 };
  var FAR = 1e9;
  var W = 0, H = 0;
  function grab(t) { K.draw(t); W = cv.width; H = cv.height; return g.getImageData(0, 0, W, H).data; }
  function lin(v) { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }
  function lum(d, i) { return 0.2126 * lin(d[i]) + 0.7152 * lin(d[i + 1]) + 0.0722 * lin(d[i + 2]); }
  function ratio(a, i, b) { var x = lum(a, i), y = lum(b, i); return x > y ? (x + 0.05) / (y + 0.05) : (y + 0.05) / (x + 0.05); }
  function differs(a, b, i) {
    return Math.max(Math.abs(a[i] - b[i]), Math.abs(a[i + 1] - b[i + 1]), Math.abs(a[i + 2] - b[i + 2])) > 24;
  }
  function hex(r, g2, b) {
    function h(v) { v = Math.max(0, Math.min(255, Math.round(v))); return (v < 16 ? '0' : '') + v.toString(16); }
    return '#' + h(r) + h(g2) + h(b);
  }
  function hideAllBut(keep) {
    var saved = els.map(function (o) { return o.start; });
    els.forEach(function (o) { if (o !== keep) o.start = FAR; });
    return function () { els.forEach(function (o, i) { o.start = saved[i]; }); };
  }
  // wordsOf: an element's words drawn over what is behind them. Pixels where the words
  // differ from the frame without them are the glyphs (with their shadow); per vertical
  // strip of the words, the 90th percentile contrast is what a reader gets there, and the
  // worst strip is the text's contrast.
  function wordsOf(full, without, x0, x1) {
    var strips = 4, per = [], i, x, y, sumB = [0, 0, 0], nB = 0, sumT = [0, 0, 0], nT = 0;
    for (i = 0; i < strips; i++) per.push([]);
    var span = Math.max(1, x1 - x0 + 1);
    for (y = 0; y < H; y++) for (x = x0; x <= x1; x++) {
      i = (y * W + x) * 4;
      if (!differs(full, without, i)) continue;
      var c = ratio(full, i, without);
      per[Math.min(strips - 1, Math.floor((x - x0) * strips / span))].push(c);
      sumB[0] += without[i]; sumB[1] += without[i + 1]; sumB[2] += without[i + 2]; nB++;
      if (c >= 2) { sumT[0] += full[i]; sumT[1] += full[i + 1]; sumT[2] += full[i + 2]; nT++; }
    }
    var worst = 21, any = false;
    per.forEach(function (cs) {
      if (cs.length < 12) return;
      cs.sort(function (a, b) { return a - b; });
      worst = Math.min(worst, cs[Math.floor(cs.length * 0.9)]);
      any = true;
    });
    if (!any) return null;
    return {
      contrast: worst,
      behind: nB ? hex(sumB[0] / nB, sumB[1] / nB, sumB[2] / nB) : '',
      color: nT ? hex(sumT[0] / nT, sumT[1] / nT, sumT[2] / nT) : ''
    };
  }
  var out = [];
  times.forEach(function (t) {
    var full = grab(t);
    var restore = hideAllBut(null), bg = grab(t);
    restore();
    var seen = [], masks = [];
    els.forEach(function (e, idx) {
      if (t < (e.start || 0) || (e.end && t > e.end)) return;
      var s0 = e.start;
      e.start = FAR; var without = grab(t); e.start = s0;
      restore = hideAllBut(e); var alone = grab(t); restore();
      var n = W * H, mask = new Uint8Array(n), px = 0, vis = 0, strong = 0;
      var x0 = W, y0 = H, x1 = -1, y1 = -1;
      for (var p = 0; p < n; p++) {
        var i = p * 4;
        if (differs(alone, bg, i)) {
          mask[p] = 1; px++;
          var x = p % W, y = (p - x) / W;
          if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; if (y > y1) y1 = y;
        }
        if (differs(full, without, i)) {
          vis++;
          if (ratio(full, i, without) >= 1.5) strong++;
        }
      }
      // Settled: fully arrived (opaque, full size, its words all revealed), as the
      // suite's OCR stills pick their moment.
      var st = K.state(e, t);
      var settled = st.op >= 0.98 && (st.prog === undefined || st.prog >= 0.999) && st.scale * Math.min(st.sx, st.sy) >= 0.85;
      var r = { id: e.id, type: e.type, pixels: px, visible: vis, strong: strong, box: null, overlaps: [], settled: settled };
      if (px > 0) r.box = [x0 / W, y0 / H, (x1 + 1) / W, (y1 + 1) / H];
      var words = null;
      if (TEXT[e.type] || (e.type === 'logo' && e.sub)) words = wordsOf(full, without, Math.max(0, x0), Math.min(W - 1, x1));
      else if (LABELLED[e.type] && e.text && px > 0) {
        var txt = e.text; e.text = ''; var bare = grab(t); e.text = txt;
        words = wordsOf(full, bare, x0, x1);
      }
      if (words) { r.text = true; r.contrast = words.contrast; r.behind = words.behind; r.text_color = words.color; }
      seen.push(r); masks.push(mask);
    });
    // Pixels two elements both draw on: the share of the smaller one's.
    for (var a = 0; a < seen.length; a++) for (var b = 0; b < seen.length; b++) {
      if (a === b || !seen[a].box || !seen[b].box) continue;
      var both = 0, ma = masks[a], mb = masks[b];
      for (var q = 0; q < ma.length; q++) if (ma[q] && mb[q]) both++;
      var share = both / Math.max(1, Math.min(seen[a].pixels, seen[b].pixels));
      if (share > 0.02) seen[a].overlaps.push({ id: seen[b].id, share: share, box: seen[b].box });
    }
    out.push({ t: t, w: W, h: H, elements: seen });
  });
  K.draw(times[0] || 0);
  return out;
})(%s)
