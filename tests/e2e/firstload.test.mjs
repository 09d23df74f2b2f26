// First load on a slow connection: what a first visit transfers (gzip, as
// static hosts serve it) and how long until the editors take input and the
// first result column shows, with Chromium throttled over CDP (1.6 Mbit/s
// down, 150 ms latency, CPU 4x slower). A benchmark: it prints the numbers
// (recorded in docs/performance.md); the goals are not pass/fail limits.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, serveDist, launch } from './harness.mjs';

let server;
let browser;
before(async () => {
  server = await serveDist(undefined, { gzip: true });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

const KIB = 1024;

/** A page with the slow connection and CPU; returns it and the bytes per response. */
async function throttledPage() {
  const page = await openPage(browser);
  // When the editor and the first column appear, in the page's own clock
  // (milliseconds since navigation started), free of the test's round trips.
  await page.addInitScript(() => {
    const seen = (window.__firstLoad = {});
    new MutationObserver(() => {
      const now = performance.now();
      if (!seen.editor && document.querySelector('#old-object')) seen.editor = now;
      if (!seen.column && document.querySelector('article.column ol.ops')) seen.column = now;
      if (!seen.lesson && document.querySelector('[aria-label="Live example"]')) seen.lesson = now;
    }).observe(document, { childList: true, subtree: true });
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 150,
    downloadThroughput: (1.6 * 1000 * 1000) / 8,
    uploadThroughput: (750 * 1000) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  // Bytes on the wire per response, as the network reports them.
  const transferred = new Map();
  cdp.on('Network.loadingFinished', (e) => transferred.set(e.requestId, e.encodedDataLength));
  const urls = new Map();
  cdp.on('Network.responseReceived', (e) => urls.set(e.requestId, e.response.url));
  const files = () => [...transferred].map(([id, bytes]) => [new URL(urls.get(id) ?? 'x:', server.url).pathname, bytes]);
  return { page, files };
}

test('bench: first load, throttled (1.6 Mbit/s, 150 ms, CPU 4x)', async () => {
  const { page, files: responses } = await throttledPage();
  await page.goto(server.url, { waitUntil: 'commit' });
  await page.locator('article.column ol.ops').first().waitFor({ timeout: 60_000 });
  const { editor: interactive, column: firstColumn } = await page.evaluate(() => window.__firstLoad);
  // The editor shown is live: it takes a keystroke and keeps it.
  await page.locator('#old-object').focus();
  await page.keyboard.type('#');
  await page.waitForFunction(() => document.querySelector('#old-object')?.value.includes('#'), null, { timeout: 60_000 });

  const files = responses();
  const total = files.reduce((n, [, bytes]) => n + bytes, 0);
  for (const [file, bytes] of files.sort((a, b) => b[1] - a[1])) {
    console.log(`BENCH first load  ${file.padEnd(44)} ${(bytes / KIB).toFixed(1).padStart(8)} KiB`);
  }
  console.log(`BENCH first load: ${(total / KIB).toFixed(1)} KiB transferred (gzip) in ${files.length} responses; goal 250 KiB`);
  console.log(`BENCH first load: editors shown (and live) ${interactive.toFixed(0)} ms after navigation, first result column ${firstColumn.toFixed(0)} ms; goal 2000 ms`);
  assert.ok(files.some(([file]) => file.endsWith('.wasm')), 'the playground wasm was fetched');
  assert.ok(!files.some(([file]) => file.includes('scale-worker')), 'the Scale worker is not part of the first load');
  assert.ok(!files.some(([file]) => file.includes('/views')), 'the second module (Check, Race, Scale, Learn) is not part of the first load');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('bench: first visit to a lesson (the full app), throttled the same way', async () => {
  const { page, files } = await throttledPage();
  await page.goto(`${server.url}#/learn/migration-race/3`, { waitUntil: 'commit' });
  await page.getByLabel('Live example').waitFor({ timeout: 60_000 });
  const shown = (await page.evaluate(() => window.__firstLoad.lesson)).toFixed(0);
  const total = files().reduce((n, [, bytes]) => n + bytes, 0);
  console.log(`BENCH lesson link: ${(total / KIB).toFixed(1)} KiB transferred (gzip); the step and its live example shown after ${shown} ms`);
  assert.ok(!files().some(([file]) => /patchlab-[0-9a-f]+_bg\.wasm$/.test(file)), 'a lesson link does not fetch the page module');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
