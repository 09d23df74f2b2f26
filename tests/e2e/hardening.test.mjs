// Protections of the release build: CSP, hostile links, offline use.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { openPage, distDir, server, browser, useServerAndBrowser } from './harness.mjs';

useServerAndBrowser();

test('dist/index.html carries a strict CSP and one inline script, allowed by its hash', async () => {
  const html = await readFile(join(distDir, 'index.html'), 'utf8');
  const csp = html.match(/<meta http-equiv="Content-Security-Policy" content="([^"]+)">/)?.[1];
  assert.ok(csp, 'a CSP meta tag');
  const directives = Object.fromEntries(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v]));
  assert.deepEqual(directives['default-src'], ["'self'"]);
  assert.deepEqual(directives['object-src'], ["'none'"]);
  assert.ok(!csp.includes('unsafe-inline') && !csp.includes("'unsafe-eval'"), csp);
  assert.ok(!/https?:/.test(csp), 'no remote origins');
  // Every script has a src but two: the pre-rendered page's JSON data block
  // (the first Build answer), which is never run, and the route script in
  // <head> (scripts/postbuild.mjs), the one inline script the CSP allows,
  // by the hash of its exact text: any other inline script is refused.
  const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)(?![^>]*\btype="application\/json")[^>]*>([\s\S]*?)<\/script>/g)];
  assert.equal(inline.length, 1, 'one inline script');
  assert.ok(html.indexOf(inline[0][0]) < html.indexOf('</head>'), 'the route script is in <head>');
  const hash = `'sha256-${createHash('sha256').update(inline[0][1]).digest('base64')}'`;
  assert.deepEqual(directives['script-src'], ["'self'", "'wasm-unsafe-eval'", hash], 'this origin, wasm, and the route script by its hash');
  assert.ok([...html.matchAll(/<script type="application\/json"/g)].length <= 1, 'one data block at most');
});

test('an inline script the build did not write is refused by the CSP', async () => {
  const page = await openPage(browser);
  // The page as served, with one more inline script in its <head>.
  await page.route(server.url, async (route) => {
    const response = await route.fetch();
    const body = (await response.text()).replace('</head>', '<script>window.__injected = 1</script></head>');
    await route.fulfill({ response, body });
  });
  await page.goto(server.url);
  assert.equal(await page.evaluate(() => window.__injected), undefined, 'the injected script did not run');
  assert.ok(page.errors.some((e) => e.includes('CSP violation')), 'the violation was reported');
  // The route script itself ran: the page module was asked for from <head>.
  assert.ok(await page.evaluate(() => [...document.querySelectorAll('link[rel="preload"]')].some((l) => /\/page-[0-9a-f]+_bg\.wasm$/.test(l.href))));
  await page.context().close();
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
    await page.goto(`${server.url}${route}`);
    const { registered, engines } = await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      const entry = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/engine-worker_bg.wasm'));
      return { registered: window.patchlabOfflineAt, engines: entry?.responseEnd };
    });
    assert.ok(registered !== undefined, `${route}: the boot script registered the offline cache`);
    if (route === '#/scale') {
      // Scale runs on arrival, in the engines' worker: the engines are this
      // visit's own download, and the cache waits for them.
      assert.ok(engines !== undefined && registered >= engines, `${route}: registered at ${registered} ms, after the engines arrived (${engines} ms)`);
    }
    assert.deepEqual(page.errors, [], route);
    await page.context().close();
  }
});
