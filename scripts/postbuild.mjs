// Finishes a release build in dist/ (run by `make dist` after `trunk build`):
//
// 1. replaces Trunk's inline loader with the boot script (www/boot.js, its
//    names filled in);
// 2. adds a strict Content-Security-Policy: scripts only from this origin,
//    WebAssembly compilation allowed ('wasm-unsafe-eval'), no eval, no
//    inline script but the route script (below), allowed by its hash, no
//    inline style, no remote origins;
// 3. writes a service worker that caches every file of the build under a
//    versioned name, so the playground works offline once loaded and a new
//    release replaces the old cache.
//
// Also: Trunk's worker loaders (`*_loader.js`) call wasm-bindgen's init with
// a bare URL, which its glue warns about in the console on every start;
// they are rewritten to pass `{ module_or_path }`, the form it asks for.
import { createHash } from 'node:crypto';
import { readFile, writeFile, readdir, stat, unlink } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { minifyCss, minifyJs } from './minify.mjs';

const dist = process.argv[2] ?? 'dist';

export const CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

const sha = (data, algorithm = 'sha256') => createHash(algorithm).update(data).digest();

async function files(dir) {
  const out = [];
  for (const name of await readdir(dir)) {
    const path = join(dir, name);
    if ((await stat(path)).isDirectory()) out.push(...(await files(path)));
    else out.push(path);
  }
  return out;
}

const indexPath = join(dist, 'index.html');
let html = await readFile(indexPath, 'utf8');

// Trunk's loader imports the page module statically; the boot script
// imports it only for a visit to Build (or an unknown route), starts the
// Learn module (learn.js) for Learn, and so on for Scale, Race and Check,
// so each visit downloads one module, and each module at most once: one
// that gave the page up starts again from what the page holds
// (src/app/modules.rs). The page module's files are the ones it imports.
const inline = /<script type="module">([\s\S]*?)<\/script>/;
const trunkLoader = html.match(inline)?.[1].trim();
if (!trunkLoader) throw new Error(`${indexPath}: no inline module script to move (already post-processed?)`);
const glue = trunkLoader.match(/from '\.\/([\w-]+-[0-9a-f]+\.js)'/)?.[1];
const wasmFile = trunkLoader.match(/module_or_path: '\.\/([\w-]+-[0-9a-f]+_bg\.wasm)'/)?.[1];
if (!glue || !wasmFile) throw new Error(`${indexPath}: Trunk's loader changed shape:\n${trunkLoader}`);

// Remove files an earlier postbuild of this dist left.
for (const file of await readdir(dist)) {
  if (/^(boot|route)-[0-9a-f]+\.js$/.test(file) || file === 'sw.js') await unlink(join(dist, file));
}

for (const file of await readdir(dist)) {
  if (!file.endsWith('_loader.js') || file === 'engine-worker_loader.js') continue;
  const path = join(dist, file);
  const loader = await readFile(path, 'utf8');
  const fixed = loader.replace(/wasm_bindgen\(("[^"]+_bg\.wasm")\)/, 'wasm_bindgen({ module_or_path: $1 })');
  if (fixed !== loader) await writeFile(path, fixed);
}

// The Learn, Scale, Race and Check modules' glues declare their own globals, so that
// each can sit next to the others'; their loaders start them when a view
// they hold opens from another module (src/app/modules.rs).
// Every view but Build has a module of its own; the boot and route scripts
// below read the route with the same list, as src/app/route.rs reads it
// (any case, any number of slashes: `#/Check`, `#race`, `#//learn`).
const titles = { learn: 'Learn', scale: 'Scale', race: 'Race', check: 'Check' };
const routeOfModule = `/^#\\/*(${Object.keys(titles).join('|')})(?=$|[/?])/i`;
for (const name of Object.keys(titles)) {
  const glue = await readFile(join(dist, `${name}.js`), 'utf8');
  if (!glue.startsWith('let wasm_bindgen = (function(exports) {')) throw new Error(`${name}.js: wasm-bindgen's glue changed shape`);
  await writeFile(join(dist, `${name}.js`), glue.replace('let wasm_bindgen = ', `let patchlab_${name} = `));
  await writeFile(
    join(dist, `${name}_loader.js`),
    `// Starts the playground's ${titles[name]} module (src/bin/${name}.rs) once its glue
// (./${name}.js, which declares \`patchlab_${name}\`) has run. Written by
// scripts/postbuild.mjs. The boot script starts it for a visit to #/${name},
// another module when the view opens; a failure is reported by an event.
patchlab_${name}({ module_or_path: './${name}_bg.wasm' }).then(
  () => window.dispatchEvent(new Event('patchlab:views-ready')),
  (error) => window.dispatchEvent(new CustomEvent('patchlab:views-failed', { detail: String(error) })),
);
`,
  );
}

// The engines' module is fetched and compiled once, by the page (the boot
// script's startEngine), and used twice: the worker gets the compiled
// module in its first message, and the page instantiates it too, to
// answer small Build requests in the keystroke's own task
// (src/engines/client.rs, IN_PAGE). The page's copy of the glue is the
// worker's with its global renamed: two classic scripts cannot both
// declare `wasm_bindgen`.
{
  const glue = await readFile(join(dist, 'engine-worker.js'), 'utf8');
  if (!glue.startsWith('let wasm_bindgen = (function(exports) {')) throw new Error('engine-worker.js: wasm-bindgen\'s glue changed shape');
  await writeFile(join(dist, 'engine-page.js'), glue.replace('let wasm_bindgen = ', 'let patchlab_engine = '));
  await writeFile(
    join(dist, 'engine-worker_loader.js'),
    `// The engines' worker (written by scripts/postbuild.mjs): its first message is
// the engines' module, compiled by the page, which fetched it once for both.
importScripts('./engine-worker.js');
self.onmessage = (event) => {
  self.onmessage = null;
  if (!(event.data instanceof WebAssembly.Module)) throw new Error('the engines did not load: ' + event.data);
  wasm_bindgen({ module_or_path: event.data });
};
`,
  );
}

// Every glue minified (scripts/minify.mjs), once the renames above are
// done: the page module's (an ES module), the views' and the workers'
// (classic scripts, whose top-level names other scripts call). And the
// style sheet, whose integrity in index.html follows its new bytes.
for (const file of await readdir(dist)) {
  const module = file === glue;
  if (!module && !/^(learn|scale|race|check|engine-worker|engine-page)\.js$/.test(file)) continue;
  const path = join(dist, file);
  await writeFile(path, await minifyJs(await readFile(path, 'utf8'), { module }));
}
for (const file of await readdir(dist)) {
  if (!/^style-[0-9a-f]+\.css$/.test(file)) continue;
  const path = join(dist, file);
  const css = minifyCss(await readFile(path, 'utf8'));
  await writeFile(path, css);
  const tag = new RegExp(`<link[^>]*href="\\./${file.replaceAll('.', '\\.')}"[^>]*>`);
  const link = html.match(tag)?.[0];
  if (!link) throw new Error(`${indexPath}: no link to ${file}`);
  const integrity = `sha384-${sha(css, 'sha384').toString('base64')}`;
  html = html.replace(link, link.replace(/integrity="[^"]*"/, `integrity="${integrity}"`));
}

// The boot script, its names in capitals filled in.
let bootSource = await readFile(fileURLToPath(new URL('../www/boot.js', import.meta.url)), 'utf8');
for (const name of Object.keys(titles)) {
  if (!bootSource.includes(`${name}: () => patchlab_${name}`)) throw new Error(`www/boot.js does not start the ${name} module`);
}
for (const [name, value] of Object.entries({ MODULE_ROUTE: routeOfModule, PAGE_WASM: JSON.stringify(`./${wasmFile}`), PAGE_GLUE: JSON.stringify(`./${glue}`) })) {
  const placeholder = new RegExp(`\\b${name}\\b`, 'g');
  if (!placeholder.test(bootSource)) throw new Error(`www/boot.js: no ${name} to fill in`);
  bootSource = bootSource.replace(placeholder, () => value);
}
const boot = await minifyJs(bootSource, { module: true });
const bootName = `boot-${sha(boot).toString('hex').slice(0, 16)}.js`;
await writeFile(join(dist, bootName), boot);
const integrity = `sha384-${sha(boot, 'sha384').toString('base64')}`;
html = html.replace(inline, `<script type="module" src="./${bootName}" integrity="${integrity}" crossorigin="anonymous"></script>`);
// Trunk preloads the page module; a visit to another view does not need it.
for (const file of [glue, wasmFile]) {
  html = html.replace(new RegExp(`<link rel="(module)?preload" href="\\./${file.replaceAll('.', '\\.')}"[^>]*>`), '');
  if (html.includes(`preload" href="./${file}"`)) throw new Error(`could not remove the page module's preload of ${file}`);
}
html = html.replace('<meta charset="utf-8">', `<meta charset="utf-8">\n    <meta http-equiv="Content-Security-Policy" content="${CSP}">`);
if (!html.includes('Content-Security-Policy')) throw new Error('could not insert the CSP');
await writeFile(indexPath, html);

// The embed example keeps its inline script and style (it is meant to be
// copied as one file); its CSP allows exactly those by hash.
const embedPath = join(dist, 'embed.html');
const embed = await readFile(embedPath, 'utf8').catch(() => null);
if (embed !== null && !embed.includes('Content-Security-Policy')) {
  const hashOf = (re) => {
    const m = embed.match(re);
    if (!m) throw new Error(`${embedPath}: no ${re}`);
    return `'sha256-${sha(m[1]).toString('base64')}'`;
  };
  const embedCsp = CSP.replace("script-src 'self' 'wasm-unsafe-eval'", `script-src 'self' 'wasm-unsafe-eval' ${hashOf(/<script type="module">([\s\S]*?)<\/script>/)}`)
    .replace("style-src 'self'", `style-src 'self' ${hashOf(/<style>([\s\S]*?)<\/style>/)}`);
  await writeFile(
    embedPath,
    embed.replace('<meta charset="utf-8">', `<meta charset="utf-8">\n    <meta http-equiv="Content-Security-Policy" content="${embedCsp}">`),
  );
}

// The Build view pre-rendered into the page (scripts/prerender.mjs), and
// the route script in <head>: it starts the view's module download and
// keeps the copy from being painted on a visit to another view. The
// script is written without a pre-rendered page too (for its downloads).
let prerendered = null;
if (process.env.PATCHLAB_PRERENDER !== '0') {
  const { prerender } = await import('./prerender.mjs');
  prerendered = await prerender(dist);
}
{
  // The preview is the first example, what a fresh visit to Build shows:
  // a visit to another view, a Build link with its own objects (`?s=`)
  // or saved work (src/app/build/link.rs STORAGE_KEY) would show
  // something else once the app mounts, so they never paint it. Paths
  // as src/app/route.rs reads them (`#`, `#/`, `#/build`, any case).
  const routeSource = `// Written by scripts/postbuild.mjs: the page holds a pre-rendered Build
// view of the first example; only a fresh visit to Build paints it (style.css).
(() => {
  let fresh = false;
  try {
    const [path, query = ''] = location.hash.split('?');
    fresh = /^(#\\/*(build\\/*)?)?$/i.test(path) && !/(^|&)s=/.test(query) && localStorage.getItem('patchlab.build') === null;
  } catch {}
  if (!fresh) document.documentElement.classList.add('no-preview');
  // The module of the view asked for (the boot script's test: Learn,
  // Scale, Race, Check, else the page module) is fetched from here, while
  // the page is still parsed, instead of once the boot script runs (after
  // the style sheet): its download starts about 0.5 s sooner on a slow
  // link, and the first paint does not move.
  const view = location.hash.match(${routeOfModule})?.[1]?.toLowerCase();
  const preloads = view
    ? [[\`./\${view}_bg.wasm\`, 'fetch'], [\`./\${view}.js\`, 'script']]
    : [[${JSON.stringify(`./${wasmFile}`)}, 'fetch']];
  for (const [href, as] of preloads) {
    const link = document.createElement('link');
    link.rel = 'preload';
    link.as = as;
    link.href = href;
    if (as === 'fetch') link.crossOrigin = 'anonymous';
    document.head.append(link);
  }
  // Its two editors take input before the app loads (the app adopts the
  // texts: src/app/build/preview.rs). An edited one shows its plain text
  // (the highlighted copy behind it and the line numbers no longer match),
  // and the results, computed for the example, are marked out of date.
  const preview = (target) => target instanceof HTMLTextAreaElement && target.closest('#app[data-prerendered]');
  addEventListener('input', (event) => {
    const app = preview(event.target);
    if (!app) return;
    event.target.closest('.editor')?.classList.add('plain', 'edited');
    const results = app.querySelector('.results');
    results?.classList.add('stale');
    results?.setAttribute('aria-busy', 'true');
  }, true);
  // Until then the highlighted copy follows the text's scrolling.
  addEventListener('scroll', (event) => {
    if (!preview(event.target)) return;
    const body = event.target.closest('.editor-body');
    const backdrop = body?.querySelector('.backdrop');
    const gutter = body?.querySelector('.gutter');
    if (backdrop) { backdrop.scrollTop = event.target.scrollTop; backdrop.scrollLeft = event.target.scrollLeft; }
    if (gutter) gutter.scrollTop = event.target.scrollTop;
  }, true);
})();
`;
  // Inline, so it runs as soon as the head is parsed (a file of its own
  // cost a round trip that blocked the parser); the CSP allows exactly
  // this script by its hash, and still no other inline script.
  const route = await minifyJs(routeSource);
  if (route.includes('</')) throw new Error('the route script cannot be inlined: it contains "</"');
  const routeHash = `'sha256-${sha(route).toString('base64')}'`;
  const before = html;
  html = html
    .replace("script-src 'self' 'wasm-unsafe-eval'", `script-src 'self' 'wasm-unsafe-eval' ${routeHash}`)
    .replace('<link rel="stylesheet"', () => `<script>${route}</script>\n    <link rel="stylesheet"`);
  if (html === before || !html.includes(routeHash) || !html.includes(`<script>${route}</script>`)) throw new Error('could not insert the route script');
  if (prerendered) {
    const { app, seed } = prerendered;
    html = html.replace(/<body>/, () => `<body>\n    ${app}${seed ? `\n    ${seed}` : ''}`);
    console.log(`postbuild: Build pre-rendered into index.html (${app.length} bytes, its first answer ${seed ? seed.length : 0} bytes)`);
  }
  await writeFile(indexPath, html);
  console.log(`postbuild: the route script inline in <head> (${route.length} bytes)`);
}

// The service worker: every file of the playground, and the folder itself
// (not the embed example and its package: other pages load those).
const assets = (await files(dist))
  .map((path) => relative(dist, path).split('\\').join('/'))
  .filter((path) => path !== 'sw.js' && path !== 'embed.html' && !path.startsWith('pkg/'))
  .sort();
const version = sha(
  (await Promise.all(assets.map(async (path) => sha(await readFile(join(dist, path))).toString('hex')))).join('\n'),
)
  .toString('hex')
  .slice(0, 16);
const sw = `// patchlab offline cache, written by scripts/postbuild.mjs.
const VERSION = ${JSON.stringify(version)};
const CACHE = 'patchlab-' + VERSION;
const ASSETS = ${JSON.stringify(['./', ...assets.map((a) => './' + a)], null, 2)};

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(ASSETS)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('patchlab-') && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(
    caches.open(CACHE).then(async (cache) => {
      const hit = await cache.match(request, { ignoreSearch: true });
      if (hit) return hit;
      try {
        return await fetch(request);
      } catch (error) {
        if (request.mode === 'navigate') return (await cache.match('./')) ?? Response.error();
        throw error;
      }
    }),
  );
});
`;
await writeFile(join(dist, 'sw.js'), sw);
console.log(`postbuild: ${bootName}, CSP, sw.js caching ${assets.length + 1} entries (version ${version})`);
