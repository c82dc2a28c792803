// renderbench -templates: Remotion's side of the data-driven batch, as its documentation
// has a user write it: one bundle, one browser opened once and kept across the rows
// (puppeteerInstance), the composition selected once per preset (its size comes from
// calculateMetadata), then renderMedia per row and preset with the row's inputProps.
// Reads a job file (argv[2]); prints one JSON line per video and a summary line.
import { readFileSync } from 'node:fs';
import { openBrowser, renderMedia, selectComposition } from '@remotion/renderer';

const job = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const chromiumOptions = { gl: 'angle' };
const common = { serveUrl: job.bundle, browserExecutable: job.chromium, chromeMode: 'headless-shell', chromiumOptions, logLevel: 'error' };
const began = Date.now();
const browser = await openBrowser('chrome', { browserExecutable: job.chromium, chromeMode: 'headless-shell', chromiumOptions, logLevel: 'error' });
try {
  const comps = {};
  for (const preset of job.presets) {
    comps[preset] = await selectComposition({ ...common, id: job.composition, inputProps: { ...job.defaults, preset }, puppeteerInstance: browser });
  }
  const ready = Date.now();
  for (const r of job.renders) {
    const inputProps = { ...job.defaults, ...r.props, preset: r.preset };
    await renderMedia({
      ...common, composition: { ...comps[r.preset], props: inputProps }, inputProps, puppeteerInstance: browser,
      codec: 'h264', outputLocation: r.out, concurrency: job.concurrency, crf: job.crf, x264Preset: job.x264Preset,
      muted: true, overwrite: true,
    });
  }
  console.log(JSON.stringify({ setup_ms: ready - began, render_ms: Date.now() - ready, videos: job.renders.length }));
} finally {
  await browser.close({ silent: true });
}
