// node viewer/test/browse.mjs PAGE.html OUT.json SHOT_PREFIX [FRACTION]
// Opens PAGE.html (file://, offline) in Debian's headless Chromium through playwright-core and
// writes what regression/viewer/check.py compares with the .mov file: console errors and page
// errors, the page's node positions (global) and screen positions and its camera at the first
// frame, the load time (from the page's request to window.__mbsView.ready; Chromium's start
// is startSeconds), the last frame (set through the slider, as a user does) and the frame at FRACTION of the
// slider (default 0.125; `middle` in the output), and
// screenshots (PNG) of the first and last frames. Chromium: $MBS_CHROMIUM or /usr/bin/chromium.
import { chromium } from 'playwright-core';
import { writeFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const [page_path, out_path, shot, fraction] = process.argv.slice(2);
const profile = mkdtempSync(join(tmpdir(), 'mbs-chromium-'));
const t0 = Date.now();
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.MBS_CHROMIUM || '/usr/bin/chromium',
  headless: true,
  viewport: { width: 1000, height: 700 },
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
    '--use-gl=swiftshader', '--enable-unsafe-swiftshader'],
});
const out = { console: [], pageErrors: [], requests: [] };
try {
  const page = context.pages()[0] || await context.newPage();
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') out.console.push(`${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => out.pageErrors.push(String(e)));
  page.on('request', (r) => { if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) out.requests.push(r.url()); });
  out.startSeconds = (Date.now() - t0) / 1000;
  const t1 = Date.now();
  await page.goto('file://' + resolve(page_path));
  await page.waitForFunction(() => window.__mbsView && window.__mbsView.ready, null, { timeout: 60000 });
  out.loadSeconds = (Date.now() - t1) / 1000;
  out.timing = await page.evaluate(() => __mbsView.timing);
  const state = () => page.evaluate(() => ({
    frame: __mbsView.frame, time: __mbsView.time, nodes: __mbsView.nodes(), camera: __mbsView.camera(),
    slider: +document.getElementById('mbs-slider').value, errors: __mbsView.errors.slice(),
  }));
  out.nFrames = await page.evaluate(() => __mbsView.nFrames);
  out.times = await page.evaluate(() => __mbsView.times);
  await page.waitForTimeout(200);
  out.first = await state();
  await page.screenshot({ path: shot + '_first.png' });
  // Move the slider as a user does: its value, then the input event it fires.
  const setSlider = (v) => page.evaluate((v) => {
    const s = document.getElementById('mbs-slider');
    s.value = String(v);
    s.dispatchEvent(new Event('input', { bubbles: true }));
  }, v);
  await setSlider(Math.round((out.nFrames - 1) * +(fraction || 0.125)));
  out.middle = await state();
  await setSlider(out.nFrames - 1);
  await page.waitForTimeout(200);
  out.last = await state();
  await page.screenshot({ path: shot + '_last.png' });
  // Play for a moment: the frame advances.
  await setSlider(0);
  await page.click('#mbs-play');
  await page.waitForTimeout(700);
  out.afterPlay = await page.evaluate(() => __mbsView.frame);
  await page.click('#mbs-play');
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
writeFileSync(out_path, JSON.stringify(out));
