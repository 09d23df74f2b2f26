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

test('bench: first load, throttled (1.6 Mbit/s, 150 ms, CPU 4x)', async () => {
  const page = await openPage(browser);
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

  const started = Date.now();
  await page.goto(server.url, { waitUntil: 'commit' });
  // Interactive: the old object's editor takes a keystroke and keeps it.
  const editor = page.locator('#old-object');
  await editor.waitFor({ timeout: 60_000 });
  await editor.focus();
  await page.keyboard.type('#');
  await page.waitForFunction(() => document.querySelector('#old-object')?.value.includes('#'), null, { timeout: 60_000 });
  const interactive = Date.now() - started;
  await page.locator('article.column ol.ops').first().waitFor({ timeout: 60_000 });
  const firstColumn = Date.now() - started;

  const files = [...transferred].map(([id, bytes]) => [new URL(urls.get(id) ?? 'x:', server.url).pathname, bytes]);
  const total = files.reduce((n, [, bytes]) => n + bytes, 0);
  for (const [file, bytes] of files.sort((a, b) => b[1] - a[1])) {
    console.log(`BENCH first load  ${file.padEnd(44)} ${(bytes / KIB).toFixed(1).padStart(8)} KiB`);
  }
  console.log(`BENCH first load: ${(total / KIB).toFixed(1)} KiB transferred (gzip) in ${files.length} responses; goal 250 KiB`);
  console.log(`BENCH first load: editors take input after ${interactive} ms, first result column after ${firstColumn} ms; goal 2000 ms`);
  assert.ok(files.some(([file]) => file.endsWith('.wasm')), 'the playground wasm was fetched');
  assert.ok(!files.some(([file]) => file.includes('scale-worker')), 'the Scale worker is not part of the first load');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
