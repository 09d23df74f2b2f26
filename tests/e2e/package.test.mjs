// The npm package (dist/pkg, built by scripts/pkg.sh) as a JavaScript
// developer gets it: packed with `npm pack`, unpacked into an app's
// node_modules/patchlab, then used with no configuration in Node, in the
// Vite dev server (which pre-bundles it), in a Vite build, and in a plain
// page with an import map. Each runs the same checks (package/checks.mjs):
// init() with no argument, a diff, exact data, bounded options, and, where
// the glue can be reached, recovery from a real out-of-memory trap.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { cp, mkdir, readFile, readdir, rm, stat } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { createServer, build } from 'vite';
import { root, distDir, serveDist, launch, openPage } from './harness.mjs';

const run = promisify(execFile);
const pkgDir = join(distDir, 'pkg');
const work = join(root, 'target', 'package-e2e');
const app = join(work, 'app');
let browser;

before(async () => {
  await stat(join(pkgDir, 'package.json')).catch(() => {
    throw new Error(`${pkgDir} is missing: build it first (make dist)`);
  });
  await rm(work, { recursive: true, force: true });
  await mkdir(join(app, 'node_modules', 'patchlab'), { recursive: true });
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work, pkgDir]);
  const [packed] = JSON.parse(stdout);
  await run('tar', ['-xzf', join(work, packed.filename), '-C', join(app, 'node_modules', 'patchlab'), '--strip-components=1']);
  await cp(join(root, 'tests', 'e2e', 'package'), app, { recursive: true });
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

/** The checks every setup must pass (see package/checks.mjs). */
function assertChecks(result, where, { trap }) {
  assert.equal(result.failed, undefined, `${where}: ${result.failed}`);
  assert.equal(result.body, '[{"op":"add","path":"/metadata/labels/kubevirt.io~1migrationTargetNodeName","value":"node02"}]', where);
  assert.deepEqual(result.head, ['test', 'replace'], where);
  assert.equal(result.protoOwn, true, `${where}: __proto__ stays an own key`);
  assert.equal(result.nan.kind, 'bad-argument', where);
  assert.match(result.nan.message, /^patch holds NaN at \/0\/value/, where);
  assert.equal(result.nullPatch.kind, 'bad-argument', where);
  assert.equal(result.presets.kind, 'bad-argument', where);
  assert.equal(result.presets.message, 'options.presets has 65 or more different values, more than the limit of 64', where);
  assert.ok(result.presets.ms < 1000, `${where}: refused in ${result.presets.ms} ms`);
  assert.equal(result.repeated, 1, `${where}: a preset repeated 70,000 times runs once`);
  assert.equal(result.initBad.name, 'PatchlabError', where);
  assert.equal(result.initBad.kind, 'bad-argument', where);
  assert.equal(result.initBad.message, "patchlab: init() takes the module's URL, a fetch Response, its bytes or a WebAssembly.Module, found a number", where);
  assert.equal(result.initSyncBad.name, 'PatchlabError', where);
  assert.equal(result.initSyncBad.kind, 'init-failed', where);
  assert.match(result.initSyncBad.message, /^patchlab: the bytes given to initSync\(\): not patchlab's WebAssembly module \(CompileError: /, where);
  assert.equal(result.getter.kind, 'bad-argument', where);
  assert.equal(result.getter.message, 'doc cannot be read at /spec/x: Error: no access', where);
  assert.equal(result.polluted, 'kubevirt-per-key', `${where}: a polluted prototype is no option`);
  if (trap) {
    assert.equal(result.trap.name, 'PatchlabError', where);
    assert.equal(result.trap.kind, 'internal', where);
    assert.match(result.trap.message, /RuntimeError: unreachable; most likely out of memory.*a fresh instance answers later calls/, where);
    assert.ok(result.memoryAfter < 64 << 20, `${where}: the fresh instance has its own small memory (${result.memoryAfter} bytes)`);
  }
  assert.deepEqual(result.after, { a: 1, b: 2 }, `${where}: the module answers after all that`);
}

/** Opens `url`, waits for the checks and returns them (and the page). */
async function pageChecks(url) {
  const page = await openPage(browser);
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(url);
  await page.locator('#out').filter({ hasText: /./ }).waitFor({ timeout: 60_000 });
  const result = JSON.parse(await page.locator('#out').textContent());
  return { page, result, requests };
}

test('the package holds what a developer needs: entry, glue, wasm, types, README, LICENSE', async () => {
  const manifest = JSON.parse(await readFile(join(app, 'node_modules', 'patchlab', 'package.json'), 'utf8'));
  const files = (await readdir(join(app, 'node_modules', 'patchlab'))).sort();
  assert.deepEqual(files, ['LICENSE', 'README.md', 'package.json', 'patchlab.d.ts', 'patchlab.js', 'patchlab_bg.wasm', 'patchlab_glue.js', 'snippets']);
  assert.equal(manifest.license, 'Apache-2.0');
  assert.match(await readFile(join(app, 'node_modules', 'patchlab', 'LICENSE'), 'utf8'), /Apache License\s+Version 2\.0/);
  assert.match(manifest.repository.url, /^git\+https:\/\//);
  const readme = await readFile(join(app, 'node_modules', 'patchlab', 'README.md'), 'utf8');
  assert.match(readme, /from 'patchlab'/);
  assert.doesNotMatch(readme, /\.\/pkg\/|@[A-Z_]+@/);
  // The sizes it quotes are this build's.
  const wasm = await readFile(join(app, 'node_modules', 'patchlab', 'patchlab_bg.wasm'));
  const kb = (n) => `${Math.round(n / 1000)} KB`;
  assert.ok(readme.includes(`${kb(wasm.length)} of wasm\n(${kb(gzipSync(wasm, { level: 9 }).length)} gzip)`), 'README sizes from the build');
  // The repository README's figure stays within 5 % of the build.
  const main = await readFile(join(root, 'README.md'), 'utf8');
  const claim = /The module is (\d+) KB of wasm\s+\((\d+) KB gzip\)/.exec(main);
  assert.ok(claim, 'README.md quotes the module size');
  for (const [said, real] of [[claim[1], wasm.length], [claim[2], gzipSync(wasm, { level: 9 }).length]]) {
    assert.ok(Math.abs(said * 1000 - real) / real < 0.05, `README.md says ${said} KB, the build is ${kb(real)}: update it`);
  }
});

test('Node: init() finds the wasm beside the module; a trap is survived', async () => {
  const { stdout } = await run(process.execPath, ['node.mjs'], { cwd: app });
  assertChecks(JSON.parse(stdout), 'node', { trap: true });
  // Without init(): Node starts the module on first use.
  const direct = await run(process.execPath, ['--input-type=module', '-e', "import { diff } from 'patchlab'; console.log(diff({a: 1}, {a: 2}, {preset: 'naive'}).body)"], { cwd: app });
  assert.equal(direct.stdout.trim(), '[{"op":"replace","path":"/a","value":2}]');
});

test('Vite dev server: the pre-bundled package loads its wasm with no configuration', async () => {
  const server = await createServer({
    root: app,
    configFile: false,
    logLevel: 'error',
    server: { host: '127.0.0.1', port: 0, strictPort: false },
  });
  await server.listen();
  try {
    const { page, result, requests } = await pageChecks(server.resolvedUrls.local[0]);
    assertChecks(result, 'vite dev', { trap: false });
    assert.ok(requests.some((u) => u.includes('/node_modules/.vite/deps/patchlab.js')), 'Vite pre-bundled the package');
    assert.ok(requests.some((u) => u.endsWith('.wasm')), 'the wasm was fetched');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  } finally {
    await server.close();
  }
});

test('Vite build: the wasm ships as an asset and the built page works', async () => {
  const outDir = join(work, 'vite-dist');
  await build({ root: app, configFile: false, logLevel: 'error', build: { outDir, emptyOutDir: true } });
  const assets = await readdir(join(outDir, 'assets'));
  assert.ok(assets.some((f) => f.endsWith('.wasm')), `assets: ${assets}`);
  const server = await serveDist(outDir);
  try {
    const { page, result } = await pageChecks(server.url);
    assertChecks(result, 'vite build', { trap: false });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  } finally {
    await server.close();
  }
});

test('plain page: <script type="module"> and an import map, no bundler; a trap is survived', async () => {
  const server = await serveDist(app);
  try {
    const { page, result } = await pageChecks(`${server.url}plain.html`);
    assertChecks(result, 'plain page', { trap: true });
    assert.deepEqual(page.errors, []);
    // Before init() a browser call says what to do.
    const early = await page.evaluate(async () => {
      const fresh = await import(`./node_modules/patchlab/patchlab.js?fresh`);
      try {
        fresh.version();
        return null;
      } catch (e) {
        return { kind: e.kind, message: e.message };
      }
    });
    assert.deepEqual(early, { kind: 'not-initialised', message: 'patchlab: call `await init()` once before using the module' });
    await page.context().close();
  } finally {
    await server.close();
  }
});
