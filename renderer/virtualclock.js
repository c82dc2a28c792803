// Koda's virtual clock, injected before any page script of a page without export hooks.
// Time stands still unless the renderer seeks: __exportSeekTo(t) advances a tick grid
// that includes every frame time, firing timers and requestAnimationFrame callbacks at
// their exact virtual times, then holds CSS animations, transitions, Web Animations and
// <video> elements at t. The same t therefore always shows the same picture, whatever
// the wall-clock speed and whichever frames a tab was asked for before.
// __KODA_TICK_RATE__ and __KODA_SEED__ are replaced by the renderer.
(() => {
  if (window.__kodaClock) return;
  const RATE = __KODA_TICK_RATE__;     // ticks per second; every frame time is a tick
  const EPOCH = 1704067200000;         // Date.now() at t = 0: 2024-01-01T00:00:00Z
  const realSetTimeout = window.setTimeout.bind(window);
  const realRAF = window.requestAnimationFrame.bind(window);
  const RealDate = window.Date;

  let now = 0;      // virtual milliseconds since the page started
  let tick = -1;    // last tick run; -1 before the first seek
  let seq = 0;      // orders timers due at the same time by creation

  // Math.random: mulberry32, seeded.
  let seed = __KODA_SEED__ >>> 0;
  Math.random = function random() {
    seed = (seed + 0x6D2B79F5) >>> 0;
    let x = seed;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };

  // performance.now and Date.
  const perfNow = () => now;
  try { Object.defineProperty(performance, 'now', { value: perfNow, configurable: true, writable: true }); } catch (e) { performance.now = perfNow; }
  function VDate(...args) {
    if (!new.target) return new RealDate(EPOCH + now).toString();
    return Reflect.construct(RealDate, args.length ? args : [EPOCH + now], new.target);
  }
  VDate.prototype = RealDate.prototype;
  VDate.now = () => Math.floor(EPOCH + now);
  VDate.parse = RealDate.parse;
  VDate.UTC = RealDate.UTC;
  Object.setPrototypeOf(VDate, RealDate);
  window.Date = VDate;

  // Timers.
  const timers = new Map(); // id -> {fn, args, at, every, seq}
  let nextTimer = 1;
  function addTimer(fn, ms, args, repeat) {
    const id = nextTimer++;
    ms = Math.max(0, Number(ms) || 0);
    timers.set(id, { fn, args, at: now + ms, every: repeat ? Math.max(1, ms) : 0, seq: seq++ });
    return id;
  }
  window.setTimeout = (fn, ms, ...args) => addTimer(fn, ms, args, false);
  window.setInterval = (fn, ms, ...args) => addTimer(fn, ms, args, true);
  window.clearTimeout = window.clearInterval = (id) => { timers.delete(id); };
  window.requestIdleCallback = (fn) => addTimer(() => fn({ didTimeout: false, timeRemaining: () => 50 }), 1, [], false);
  window.cancelIdleCallback = window.clearTimeout;

  // requestAnimationFrame.
  let rafs = new Map();
  let nextRaf = 1;
  window.requestAnimationFrame = (fn) => { const id = nextRaf++; rafs.set(id, fn); return id; };
  window.cancelAnimationFrame = (id) => { rafs.delete(id); };

  // A throwing callback is reported like in a browser and does not stop the clock.
  function call(fn, args) {
    try {
      if (typeof fn === 'function') fn(...args);
      else if (typeof fn === 'string') (0, eval)(fn);
    } catch (e) {
      realSetTimeout(() => { throw e; }, 0);
    }
  }

  function runTimersUntil(limit) {
    for (;;) {
      let due = null, dueId = 0;
      for (const [id, t] of timers) {
        if (t.at <= limit && (!due || t.at < due.at || (t.at === due.at && t.seq < due.seq))) { due = t; dueId = id; }
      }
      if (!due) return;
      if (due.at > now) now = due.at;
      if (due.every) { due.at += due.every; due.seq = seq++; } else timers.delete(dueId);
      call(due.fn, due.args);
    }
  }

  // Animations (CSS animations and transitions, Web Animations): each is paused when
  // first seen and from then on placed at the virtual time elapsed since.
  const anims = new WeakMap();
  function holdAnimations(force) {
    if (!document.getAnimations) return [];
    const list = document.getAnimations();
    for (const a of list) {
      let st = anims.get(a);
      if (!st) {
        // An animation the page paused itself keeps its own time.
        st = { start: now, own: a.playState === 'paused' };
        anims.set(a, st);
      }
      if (st.own) continue;
      if (a.playState !== 'paused') a.pause();
      const ct = now - st.start;
      if (force || a.currentTime !== ct) a.currentTime = ct;
    }
    return list;
  }

  // An animation that was still waiting to start when paused settles its pause on the
  // next frame and may then take its own time; wait for that, then place it again.
  async function settleAnimations() {
    const list = holdAnimations(true);
    const pending = list.filter((a) => a.pending);
    if (pending.length) {
      await Promise.race([
        Promise.all(pending.map((a) => a.ready.catch(() => {}))),
        new Promise((r) => realSetTimeout(r, 1000)),
      ]);
    }
    holdAnimations(true);
  }

  // <video>: paused, and seeked to the virtual time (looping if the element loops).
  const videos = new WeakMap();
  function once(el, ev, ms) {
    return new Promise((resolve) => {
      const done = () => { el.removeEventListener(ev, done); resolve(); };
      el.addEventListener(ev, done);
      realSetTimeout(done, ms);
    });
  }
  async function holdVideos() {
    const waits = [];
    for (const v of document.querySelectorAll('video')) {
      if (!videos.has(v)) { videos.set(v, now); v.autoplay = false; }
      if (!v.paused) v.pause();
      waits.push((async () => {
        if (v.readyState < 1) await once(v, 'loadedmetadata', 3000);
        let target = (now - videos.get(v)) / 1000;
        const d = v.duration;
        if (isFinite(d) && d > 0) target = v.loop ? target % d : Math.min(target, d);
        if (Math.abs(v.currentTime - target) > 0.0005) {
          const seeked = once(v, 'seeked', 3000);
          v.currentTime = target;
          await seeked;
        }
        if (v.readyState < 2) await once(v, 'loadeddata', 3000);
      })());
    }
    await Promise.all(waits);
  }

  function runTick(k) {
    const at = (k * 1000) / RATE;
    runTimersUntil(at);
    now = at;
    const due = rafs;
    rafs = new Map();
    for (const fn of due.values()) call(fn, [at]);
    holdAnimations();
  }

  async function seekTo(t) {
    const target = Math.round(t * RATE);
    if (target < tick) throw new Error('koda virtual clock: cannot seek backwards from ' + (now / 1000) + 's to ' + t + 's');
    while (tick < target) {
      tick++;
      runTick(tick);
      // Let promise callbacks scheduled by this tick settle before the next one.
      await Promise.resolve();
    }
    await settleAnimations();
    await holdVideos();
  }

  // Until the first seek, hold every animation as soon as it exists, in each frame
  // before it is painted: one that ran a frame on the compositor keeps showing its own
  // time in screenshots even once paused at the clock's (seen under load at t = 0).
  const holdEarly = () => { if (tick < 0) { holdAnimations(); realRAF(holdEarly); } };
  realRAF(holdEarly);

  window.__kodaClock = { seekTo, realRAF, now: () => now };
  window.__kodaRAF = realRAF;
  window.__exportSeekTo = seekTo;
  const ready = () => {
    const fonts = document.fonts ? document.fonts.ready : Promise.resolve();
    fonts.then(() => { holdAnimations(); window.__exportReady = true; });
  };
  if (document.readyState === 'complete') ready();
  else window.addEventListener('load', ready);
})();
