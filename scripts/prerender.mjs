// Pre-renders the Build view into dist/index.html (run by scripts/postbuild.mjs
// during `make dist`): the page of the release build itself is opened in
// headless Chromium, the app's own first render (the first example, both
// editors and its result columns, computed by the engine worker) is taken
// from the DOM, made inert, and written into the page, so a first visit
// shows the editors and the example's results before any WebAssembly
// arrives. Only its two editors are live: they take input at once, every
// other control is disabled or inert, and a status line says the rest is
// loading. The app then mounts a fresh root in its place and opens with
// what was typed, the caret where it was (src/app/boot.rs,
// src/app/build/preview.rs), so nothing typed into the copy is lost.
//
// For a visit to another view (Check, Race, Scale, Learn) the route
// script, a tiny inline script in <head> (scripts/postbuild.mjs), marks the
// page so the copy is never painted (style.css hides it).
//
// Needs Chromium (scripts/setup.sh --browser) and playwright-core (the e2e
// suite's packages); without them the page is left as it was, with a NOTICE.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, resolve, dirname } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
};

async function serve(dir) {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const file = normalize(join(dir, path.endsWith('/') ? path + 'index.html' : path));
    if (!file.startsWith(dir)) return res.writeHead(403).end();
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((ok) => server.close(ok)) };
}

/**
 * The app's first render of Build, inert (`app`), and the data block with
 * its first engine answer (`seed`); `null` (with a NOTICE) when no browser
 * can be had.
 */
export async function prerender(dist) {
  let chromium;
  try {
    const require = createRequire(join(here, '..', 'tests', 'e2e', 'package.json'));
    ({ chromium } = require('playwright-core'));
  } catch {
    console.log('*** NOTICE: prerender: playwright-core not installed (make setup-browser): index.html is NOT pre-rendered ***');
    return null;
  }
  const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';
  const server = await serve(resolve(dist));
  let browser;
  try {
    browser = await chromium.launch({
      executablePath,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'],
    });
  } catch (error) {
    await server.close();
    console.log(`*** NOTICE: prerender: no Chromium at ${executablePath} (${error.message.split('\n')[0]}): index.html is NOT pre-rendered ***`);
    return null;
  }
  try {
    // Light theme, a wide window: what the style sheet lays out by media
    // queries is the same markup at every width.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    const page = await context.newPage();
    // The Build questions the page asks the engines' worker and its
    // answers, as text: the first answer goes into the page with the
    // question it answers (src/engines/wire.rs, Seed).
    await page.addInitScript(() => {
      // Every request goes to the worker, where it is seen.
      Object.defineProperty(window, 'patchlabEngineInPage', { get: () => undefined, set: () => {} });
      const sent = (window.__engineSent = []);
      const got = (window.__engineGot = []);
      const Original = window.Worker;
      window.Worker = class extends Original {
        constructor(...args) {
          super(...args);
          this.addEventListener('message', (e) => {
            if (typeof e.data === 'string' && e.data.startsWith('{"answered":"build"')) got.push(e.data);
          });
        }
        postMessage(message, ...rest) {
          if (typeof message === 'string' && message.startsWith('{"ask":"build"')) sent.push(message);
          return super.postMessage(message, ...rest);
        }
      };
    });
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(server.url, { waitUntil: 'load' });
    await page.locator('article.column ol.ops').first().waitFor({ timeout: 60_000 });
    await page.locator('.results[aria-busy="false"]').waitFor({ timeout: 60_000 });
    if (errors.length) throw new Error(`the page failed while pre-rendering: ${errors.join('; ')}`);
    const html = await page.evaluate(() => {
      const live = document.getElementById('app');
      const app = live.cloneNode(true);
      // What the app set as properties (a textarea's text, a select's
      // choice) becomes markup.
      const fields = (root) => [...root.querySelectorAll('textarea, select, input')];
      const copies = fields(app);
      fields(live).forEach((e, i) => {
        const copy = copies[i];
        if (e.tagName === 'TEXTAREA') copy.textContent = e.value;
        else if (e.tagName === 'SELECT') {
          [...copy.options].forEach((o, k) => o.toggleAttribute('selected', k === e.selectedIndex));
        } else if (e.type === 'checkbox' || e.type === 'radio') copy.toggleAttribute('checked', e.checked);
        else copy.setAttribute('value', e.value);
      });
      app.setAttribute('data-prerendered', '');
      // The two editors take input (the app adopts what is typed when it
      // mounts: src/app/build/preview.rs); nothing else does, and the
      // status line says so. Everything beside the editors' path is inert.
      const editors = ['old-object', 'new-object'].map((id) => app.querySelector('#' + id)).filter(Boolean);
      if (editors.length !== 2) throw new Error('prerender: the two editors were not found');
      for (const e of app.querySelectorAll('textarea, input, select, button')) {
        if (editors.includes(e)) continue;
        e.setAttribute('readonly', '');
        e.setAttribute('disabled', '');
      }
      for (const editor of editors) {
        for (let node = editor; node !== app; node = node.parentElement) {
          for (const sibling of node.parentElement.children) {
            // Not the editors' labels: they name the editors.
            const labels = sibling.tagName === 'LABEL' || sibling.querySelector('label');
            if (sibling !== node && !editors.some((e) => sibling.contains(e)) && !labels) sibling.setAttribute('inert', '');
          }
        }
      }
      for (const e of app.querySelectorAll('[style]')) e.removeAttribute('style');
      for (const e of app.querySelectorAll('[id]')) {
        // The app's own ids stay unique once it mounts: the copy's are prefixed.
        e.id = 'pre-' + e.id;
      }
      for (const e of app.querySelectorAll('label[for]')) e.setAttribute('for', 'pre-' + e.getAttribute('for'));
      for (const attribute of ['aria-labelledby', 'aria-describedby', 'aria-controls', 'aria-errormessage']) {
        for (const e of app.querySelectorAll(`[${attribute}]`)) {
          e.setAttribute(attribute, e.getAttribute(attribute).split(' ').map((id) => 'pre-' + id).join(' '));
        }
      }
      const note = document.createElement('p');
      note.className = 'prerender-note';
      note.setAttribute('role', 'status');
      note.textContent = 'Loading… You can type in the editors now; the results, highlighting and buttons follow in a moment.';
      note.id = 'pre-loading-note';
      const view = app.querySelector('.view') ?? app;
      view.prepend(note);
      // The editors' key hints describe the app's editors (Tab indents);
      // until it loads, Tab leaves a plain editor, and the hint and the
      // status line say so.
      for (const editor of editors) editor.setAttribute('aria-describedby', note.id);
      for (const hint of app.querySelectorAll('.editor-keys > span')) hint.textContent = 'Tab leaves the editor until the app has loaded';
      return app.outerHTML;
    });
    // The question of the state shown and the worker's answer to it, as
    // the texts they were sent as (src/engines/wire.rs, Seed): one line
    // each, without the client's number, `<` escaped so no text closes the
    // element.
    const { sent, got } = await page.evaluate(() => ({ sent: window.__engineSent, got: window.__engineGot }));
    const last = sent.at(-1);
    const seq = last && JSON.parse(last).seq;
    const built = got.find((text) => JSON.parse(text).seq === seq);
    const unnumbered = (text) => {
      const end = `,"seq":${seq}}`;
      if (!text.endsWith(end)) throw new Error(`prerender: an engine message does not end with its number: ${text.slice(-80)}`);
      return `${text.slice(0, -end.length)}}`;
    };
    if (!built) {
      console.log('*** NOTICE: prerender: no engine answer seen: the first result is NOT pre-computed ***');
      return { app: html, seed: null };
    }
    const seed = `${unnumbered(last)}\n${unnumbered(built)}`.replace(/</g, '\\u003c');
    return { app: html, seed: `<script type="application/json" id="patchlab-first-answer">${seed}</script>` };
  } finally {
    await browser.close();
    await server.close();
  }
}
