// The benchmark's canvas scene: a gradient, 400 particles, a turning square and text,
// drawn for time t (seconds) at any size. Every renderer in the benchmark draws this
// same function: Koda and the floor through the export hooks (canvas.html), timecut
// through requestAnimationFrame (canvas_raf.html), Remotion from a composition's frame
// number (remotion/index.jsx) and HyperFrames from its timeline (hf_canvas.html).
(function () {
  let s = 7;
  const rnd = () => ((s = (s * 16807) % 2147483647) / 2147483647);
  const P = Array.from({ length: 400 }, () => ({ x: rnd(), y: rnd(), r: 0.004 + rnd() * 0.02, v: 0.05 + rnd() * 0.3, h: rnd() * 360 }));
  globalThis.drawBenchScene = function (g, t) {
    const w = g.canvas.width, h = g.canvas.height;
    const bg = g.createLinearGradient(0, 0, w, h);
    bg.addColorStop(0, 'hsl(' + (220 + 40 * Math.sin(t)) + ',60%,12%)');
    bg.addColorStop(1, 'hsl(' + (300 + 40 * Math.cos(t)) + ',60%,22%)');
    g.fillStyle = bg; g.fillRect(0, 0, w, h);
    for (const p of P) {
      const x = ((p.x + p.v * t) % 1) * w, y = (p.y + 0.05 * Math.sin(t * 2 + p.h)) * h;
      g.fillStyle = 'hsla(' + ((p.h + t * 60) % 360) + ',80%,60%,0.8)';
      g.beginPath(); g.arc(x, y, p.r * h, 0, Math.PI * 2); g.fill();
    }
    g.save();
    g.translate(w / 2, h / 2); g.rotate(t * 0.5);
    g.strokeStyle = '#fff'; g.lineWidth = h * 0.01;
    g.strokeRect(-h * 0.2, -h * 0.2, h * 0.4, h * 0.4);
    g.restore();
    g.fillStyle = '#fff'; g.font = 'bold ' + Math.round(h * 0.09) + 'px sans-serif'; g.textAlign = 'center';
    g.fillText('Koda ' + t.toFixed(2) + ' s', w / 2, h * 0.9);
  };
})();
