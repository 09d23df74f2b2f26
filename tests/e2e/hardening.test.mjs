// Protections of the release build: CSP, hostile links, offline use.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openPage, distDir, server, browser, useServerAndBrowser } from './harness.mjs';

useServerAndBrowser();

test('dist/index.html carries a strict CSP and no inline script', async () => {
  const html = await readFile(join(distDir, 'index.html'), 'utf8');
  const csp = html.match(/<meta http-equiv="Content-Security-Policy" content="([^"]+)">/)?.[1];
  assert.ok(csp, 'a CSP meta tag');
  const directives = Object.fromEntries(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v]));
  assert.deepEqual(directives['script-src'], ["'self'", "'wasm-unsafe-eval'"]);
  assert.deepEqual(directives['default-src'], ["'self'"]);
  assert.deepEqual(directives['object-src'], ["'none'"]);
  assert.ok(!csp.includes('unsafe-inline') && !csp.includes("'unsafe-eval'"), csp);
  assert.ok(!/https?:/.test(csp), 'no remote origins');
  // Every script has a src; the one element without is the pre-rendered
  // page's JSON data block (the first Build answer), which is never run.
  assert.ok(!/<script(?![^>]*\bsrc=)(?![^>]*\btype="application\/json")[^>]*>/.test(html), 'every script has a src');
  assert.ok([...html.matchAll(/<script type="application\/json"/g)].length <= 1, 'one data block at most');
});

test('the app runs under the CSP on every view without a violation', async () => {
  const page = await openPage(browser);
  for (const view of ['build', 'race', 'scale', 'learn']) {
    await page.goto(`${server.url}#/${view}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
  }
  await page.goto(`${server.url}#/race`);
  await page.getByRole('button', { name: 'Compare presets' }).click();
  await page.locator('.compare').waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a link that tries script injection renders as inert text', async () => {
  const { encodeLink } = await import('./link.mjs');
  const attack = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>';
  const link = encodeLink({
    old: `metadata:\n  labels:\n    a: "${attack.replaceAll('"', '\\"')}"\n`,
    new: `metadata:\n  labels:\n    "${attack.replaceAll('"', '\\"')}": x\n`,
    format: 'yaml',
    columns: [{ preset: 'kubevirt-main' }, { preset: 'kubevirt-per-key' }],
    example: attack,
  });
  const page = await openPage(browser);
  await page.goto(`${server.url}#/build?s=${link}`);
  await page.getByRole('article', { name: /^Column 2:/ }).waitFor();
  await page.waitForTimeout(300);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.equal(await page.locator('img').count(), 0, 'no element from the link');
  assert.ok((await page.locator('body').textContent()).includes('onerror'), 'shown as text');
  const raceLink = encodeLink({ scenario: {
    name: attack,
    objects: [{ kind: 'Pod', metadata: { name: attack } }],
    writers: [{ name: attack, intents: [{ 'set-label': { key: attack, value: attack } }] }],
    schedule: [{ read: attack }, { write: attack }],
  } });
  await page.goto(`${server.url}#/race?s=${raceLink}`);
  await page.getByRole('button', { name: /^Step 2:/ }).click();
  await page.locator('.response h3').waitFor();
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.equal(await page.locator('img').count(), 0);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('offline: after one visit the playground loads and works with the network off', async () => {
  const page = await openPage(browser);
  await page.goto(`${server.url}#/build`);
  await page.getByRole('article', { name: /^Column 2:/ }).waitFor();
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((ok) => navigator.serviceWorker.addEventListener('controllerchange', ok, { once: true }));
    }
  });
  await page.context().setOffline(true);
  await page.reload();
  await page.getByRole('article', { name: /^Column 2:/ }).waitFor();
  const editor = page.getByRole('textbox', { name: 'New object' });
  await editor.fill((await editor.inputValue()).replace('node02', 'node03'));
  await page.waitForFunction(() => document.querySelector('[aria-label^="Column 2"] .op-value')?.textContent.includes('node03'));
  // The Race module (never fetched in this visit) comes from the cache too:
  // opening Race from Build hands the page over, offline.
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Race' }).click();
  await page.getByRole('button', { name: 'Compare presets' }).waitFor();
  // And a reload on a lesson starts the Learn module directly, offline.
  await page.goto(`${server.url}#/learn/migration-race/3`);
  await page.getByLabel('Live example').waitFor();
  assert.deepEqual(page.errors.filter((e) => !/ERR_INTERNET_DISCONNECTED|Failed to load resource/.test(e)), []);
  await page.context().close();
});

test('offline: a first visit to any view caches the playground, once that view\'s own downloads are done', async () => {
  for (const route of ['#/scale', '#/race', '#/check', '#/learn/migration-race/3']) {
    const page = await openPage(browser);
    await page.addInitScript(() => addEventListener('patchlab:scale-ready', () => { window.__scaleReady = performance.now(); }));
    await page.goto(`${server.url}${route}`);
    const { registered, scaleReady } = await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      return { registered: window.patchlabOfflineAt, scaleReady: window.__scaleReady };
    });
    assert.ok(registered !== undefined, `${route}: the boot script registered the offline cache`);
    if (route === '#/scale') {
      assert.ok(scaleReady !== undefined && registered >= scaleReady, `${route}: registered at ${registered} ms, after the Scale worker was ready (${scaleReady} ms)`);
    }
    assert.deepEqual(page.errors, [], route);
    await page.context().close();
  }
});
