// The benchmark's scenes as Remotion compositions, one per case in cases.json (written
// by renderbench): the canvas scene drawn from the frame number, and the DOM scene's CSS
// animations paused at the frame's time (a negative delay is the time into them).
import React, { useLayoutEffect, useRef } from 'react';
import { AbsoluteFill, Composition, registerRoot, useCurrentFrame, useVideoConfig } from 'remotion';
import '../scene.js';
import '../dom.css';
import cases from './cases.json';

const CanvasScene = () => {
  const frame = useCurrentFrame();
  const { fps, width, height } = useVideoConfig();
  const ref = useRef(null);
  useLayoutEffect(() => {
    globalThis.drawBenchScene(ref.current.getContext('2d'), frame / fps);
  }, [frame, fps]);
  return <canvas ref={ref} width={width} height={height} style={{ display: 'block' }} />;
};

const DomScene = () => {
  const frame = useCurrentFrame();
  const { fps } = useVideoConfig();
  const t = frame / fps;
  const at = (delay) => ({ animationPlayState: 'paused', animationDelay: -(t + delay) + 's' });
  return (
    <AbsoluteFill style={{ background: 'linear-gradient(135deg,#1d2b64,#f8cdda)', fontFamily: 'sans-serif' }}>
      <div className="card" style={at(0)} />
      <div className="card" style={at(0.5)} />
      <div className="card" style={at(1)} />
      <div className="card" style={at(1.5)} />
      <h1 style={at(0)}>Launch day</h1>
      <div id="clock">{t.toFixed(2) + ' s'}</div>
    </AbsoluteFill>
  );
};

const Root = () => (
  <>
    {cases.map((c) => (
      <Composition key={c.id} id={c.id} component={c.scene === 'dom' ? DomScene : CanvasScene}
        width={c.width} height={c.height} fps={c.fps} durationInFrames={c.frames} />
    ))}
  </>
);

registerRoot(Root);
