// renderbench -templates: Koda's benchmark template (a 6 s product promo the builtin
// agent makes: the product picture slides in and floats up, then three lines of text rise
// in letter by letter, one after another, on a dark drifting gradient) as one Remotion
// composition whose three texts and picture (a file of the public folder) are
// inputProps. Its size is the preset's, chosen by calculateMetadata from the preset
// prop, so one composition serves 720p and tiktok.
// Positions follow Koda's scene, in units of the frame's shorter side u: x and y in
// half-u from the centre, a text's size its font size in u, the picture twice its size;
// a line too long for the frame wraps, as Koda's fit rule wraps it.
import React from 'react';
import { AbsoluteFill, Composition, Easing, Img, interpolate, registerRoot, staticFile, useCurrentFrame, useVideoConfig } from 'remotion';

const sizes = { '720p': [1280, 720], tiktok: [1080, 1920] };
const clamp = { extrapolateLeft: 'clamp', extrapolateRight: 'clamp' };
const ease = (t, a, b, from, to, fn) => interpolate(t, [a, b], [from, to], { ...clamp, easing: fn });
const outQuint = Easing.out(Easing.poly(5));
const outCubic = Easing.out(Easing.cubic);
const inCubic = Easing.in(Easing.cubic);
const inOutCubic = Easing.inOut(Easing.cubic);

// A line of text that rises in letter by letter over [a, b], then leaves over [outA, outB].
const Rise = ({ text, t, a, b, outA, outB, size, y }) => {
  const { width, height } = useVideoConfig();
  const u = Math.min(width, height);
  if (t < a) return null;
  const p = ease(t, a, b, 0, 1);
  const chars = [...text];
  const out = outA ? ease(t, outA, outB, 0, 1, inCubic) : 0;
  const grow = ease(t, b, 6, 0.97, 1.02, Easing.inOut(Easing.sin));
  return (
    <div style={{ position: 'absolute', left: '5%', right: '5%', top: height / 2 + (y - 0.12 * out) * u / 2,
      transform: `translateY(-50%) scale(${grow})`, textAlign: 'center', opacity: 1 - out,
      color: '#f8fafc', fontFamily: 'sans-serif', fontWeight: 700, fontSize: size * u, lineHeight: 1.15 }}>
      {chars.map((c, i) => {
        const k = Math.min(1, Math.max(0, p * chars.length - i));
        return <span key={i} style={{ display: 'inline-block', opacity: k, transform: `translateY(${(1 - k) * 0.4}em)`,
          whiteSpace: 'pre' }}>{c}</span>;
      })}
    </div>
  );
};

const Promo = ({ headline, subtitle, tagline, image }) => {
  const frame = useCurrentFrame();
  const { fps, width, height } = useVideoConfig();
  const t = frame / fps;
  const u = Math.min(width, height);
  const box = 0.42 * u;
  const x = ease(t, 0.1, 2.25, -1.6, 0, outCubic) * u / 2;
  const y = (ease(t, 0.01, 0.9, 0.15, 0, outQuint) + ease(t, 3, 3.75, 0, -0.281, outQuint) +
    (t > 0.72 && t < 2 ? 0.02 * Math.sin((t - 0.72) * Math.PI) : 0)) * u / 2;
  const pulse = t > 2.25 && t < 3 ? 1 + 0.08 * Math.sin(((t - 2.25) / 0.75) * Math.PI) : 1;
  const scale = pulse * ease(t, 5.825, 6, 1, 0.94, inOutCubic);
  const zoom = ease(t, 5.5, 6, 1, 1.06, inOutCubic);
  const drift = 20 * Math.sin(t / 3);
  return (
    <AbsoluteFill style={{ background: `linear-gradient(${160 + drift / 4}deg, #0f172a, #1e293b)` }}>
      <AbsoluteFill style={{ background: `radial-gradient(circle at ${50 + drift}% 40%, #334155 0%, transparent 60%)`, opacity: 0.5 }} />
      <AbsoluteFill style={{ transform: `scale(${zoom})` }}>
        <Img src={staticFile(image)} style={{ position: 'absolute', width: box, height: box,
          left: width / 2 + x - box / 2, top: height / 2 + y - box / 2, opacity: ease(t, 0, 0.9, 0, 1, outQuint),
          transform: `scale(${scale})`, filter: 'drop-shadow(0 12px 16px rgba(0,0,0,0.45))' }} />
        <Rise text={headline} t={t} a={3} b={3.9} outA={4.5} outB={4.9} size={0.13} y={0.36} />
        <Rise text={subtitle} t={t} a={4.5} b={4.8} outA={5} outB={5.4} size={0.11} y={0.36} />
        <Rise text={tagline} t={t} a={5} b={5.3} size={0.11} y={0.36} />
      </AbsoluteFill>
    </AbsoluteFill>
  );
};

const Root = () => (
  <Composition id="promo" component={Promo} fps={30} durationInFrames={180} width={1280} height={720}
    defaultProps={{ preset: '720p', headline: 'SUMMER SALE', subtitle: 'Everything must go', tagline: 'Only this weekend', image: 'sneaker.png' }}
    calculateMetadata={({ props }) => { const [w, h] = sizes[props.preset]; return { width: w, height: h }; }} />
);

registerRoot(Root);
