// Shared set-up for the end-to-end suite: a static server for dist/ on
// 127.0.0.1 and Debian's Chromium driven by playwright-core.
import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';
import { readFile, mkdir, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const root = resolve(here, '..', '..');
export const distDir = resolve(process.env.PATCHLAB_DIST ?? join(root, 'dist'));
export const shotsDir = join(root, 'target', 'e2e');

const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.yaml': 'text/yaml; charset=utf-8',
  '.png': 'image/png',
  '.webmanifest': 'application/manifest+json',
};

/**
 * One slow link shared by every response in flight (bytes per second),
 * each getting an equal share, as TCP flows on one line roughly do. Unlike
 * Chromium's throttling over CDP, which is per target, it also slows what
 * a service worker or a dedicated worker fetches.
 */
function sharedLink(bytesPerSecond) {
  const flows = new Set();
  let timer;
  let last;
  const tick = () => {
    const now = performance.now();
    let budget = Math.floor(((now - last) / 1000) * bytesPerSecond);
    last = now;
    while (budget > 0 && flows.size > 0) {
      const share = Math.max(1, Math.floor(budget / flows.size));
      for (const flow of [...flows]) {
        const n = Math.min(share, flow.body.length - flow.sent, budget);
        if (n <= 0) break;
        flow.res.write(flow.body.subarray(flow.sent, flow.sent + n));
        flow.sent += n;
        budget -= n;
        if (flow.sent >= flow.body.length) {
          flow.res.end();
          flows.delete(flow);
        }
      }
    }
    if (flows.size === 0) {
      clearInterval(timer);
      timer = undefined;
    }
  };
  return (res, body) => {
    const flow = { res, body, sent: 0 };
    flows.add(flow);
    res.on('close', () => flows.delete(flow));
    if (!timer) {
      last = performance.now();
      timer = setInterval(tick, 10);
    }
  };
}

/**
 * Serves `dir` on 127.0.0.1 at a free port; resolves to { url, close }.
 * With `gzip`, answers gzip -9 to clients that accept it, as static hosts
 * do (for measuring what a first visit transfers). With `link` (bytes per
 * second), every response shares one link of that speed (`sharedLink`).
 */
export async function serveDist(dir = distDir, { gzip = false, link } = {}) {
  const send = link ? sharedLink(link) : (res, body) => res.end(body);
  await stat(join(dir, 'index.html')).catch(() => {
    throw new Error(`${dir}/index.html is missing: build the release first (make dist)`);
  });
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const file = normalize(join(dir, path.endsWith('/') ? path + 'index.html' : path));
    if (!file.startsWith(dir)) {
      res.writeHead(403).end();
      return;
    }
    try {
      let body = await readFile(file);
      const headers = {
        'content-type': types[extname(file)] ?? 'application/octet-stream',
        'cache-control': 'no-store',
      };
      if (gzip && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
        body = gzipSync(body, { level: 9 });
        headers['content-encoding'] = 'gzip';
      }
      headers['content-length'] = body.length;
      res.writeHead(200, headers);
      send(res, body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((ok) => server.close(ok)),
  };
}

/** Launches headless Chromium (CHROMIUM overrides /usr/bin/chromium). */
export async function launch() {
  const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';
  await stat(executablePath).catch(() => {
    throw new Error(
      `Chromium not found at ${executablePath}. Install it (Debian: apt-get install chromium chromium-driver) or set CHROMIUM.`,
    );
  });
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/**
 * Opens a page that records console errors and uncaught exceptions, so a
 * test can assert the app ran cleanly.
 */
export async function openPage(browser, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  // Any Content-Security-Policy violation is reported as a console error,
  // which every test asserts it did not see.
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline'} (${e.sample})`);
    });
  });
  const page = await context.newPage();
  // A fresh visit to Build first paints the pre-rendered preview
  // (scripts/prerender.mjs), whose editors the app adopts when it mounts in its place
  // (src/app/build/preview.rs): a navigation resolves once the live app is in its place,
  // so tests act on the app, never on the preview. (A test that measures
  // the first load navigates with `waitUntil: 'commit'`, which returns as
  // soon as the page starts, before the preview is parsed.)
  for (const name of ['goto', 'reload']) {
    const navigate = page[name].bind(page);
    page[name] = async (...args) => {
      const response = await navigate(...args);
      await page.waitForFunction(() => !document.querySelector('#app[data-prerendered]:not(.no-preview *)'), null, { timeout: 60_000 });
      return response;
    };
  }
  page.errors = [];
  page.on('pageerror', (err) => page.errors.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') page.errors.push(`console: ${msg.text()}`);
  });
  return page;
}

/** Saves a full-page screenshot under target/e2e/ and returns its path. */
export async function screenshot(page, name) {
  await mkdir(shotsDir, { recursive: true });
  const path = join(shotsDir, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** This test file's static server for dist/ and its Chromium (see below). */
export let server;
export let browser;

/**
 * Starts the server and Chromium before the calling file's tests and stops
 * them after; `server` and `browser` above are then set (live bindings).
 */
export function useServerAndBrowser() {
  before(async () => {
    server = await serveDist();
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });
}
