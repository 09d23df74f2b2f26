// Race's replays in the engines' worker (src/engines/race.rs): a cold
// visit shows a shipped race without downloading the engines (its answers
// come with the module); a change asks the engines, which are fetched once
// for Build, Race and Scale together; the Race module holds no simulator.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { openPage, distDir, root, server, browser, useServerAndBrowser } from './harness.mjs';

useServerAndBrowser();

function recordFetches(page) {
  const fetched = [];
  page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
  return { fetched, count: (pattern) => fetched.filter((f) => pattern.test(f)).length };
}

const ENGINES = /engine-worker_bg\.wasm$/;
const openView = (page, name) => page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name }).click();
const lane = (page, n) => page.getByRole('button', { name: new RegExp(`^Step ${n}: `) });

test('a cold visit to Race shows the shipped race without the engines; a preset asks them, once', async () => {
  const page = await openPage(browser);
  const { fetched, count } = recordFetches(page);
  await page.goto(`${server.url}#/race`);
  await page.locator('#lanes').waitFor();
  await lane(page, 4).click();
  // migration-race as shipped: virt-controller's whole-map test fails.
  await page.locator('#step-card').getByText('Response: 422 Invalid').waitFor();
  await page.getByRole('button', { name: 'Compare presets' }).click();
  await page.locator('section.compare tbody tr').first().waitFor();
  assert.equal(await page.locator('section.compare tbody tr').count(), 7, 'every preset, from the bundled answer');
  await page.waitForLoadState('networkidle');
  assert.equal(count(ENGINES), 0, `no engines for a shipped race: ${fetched.join(' ')}`);
  // Another preset: the engines replay it, and the step card follows.
  await page.getByRole('combobox', { name: 'Preset for writers' }).selectOption('kubevirt-per-key');
  await page.locator('#step-card').getByText('Response: 200 OK').waitFor({ timeout: 30_000 });
  await page.locator('.race-results:not(.stale)').waitFor();
  assert.equal(await page.locator('.race .waiting').count(), 0, 'no waiting note once answered');
  assert.equal(count(ENGINES), 1, `the engines, once: ${fetched.join(' ')}`);
  // Back to each writer's own preset: the bundled answer, at once.
  await page.getByRole('combobox', { name: 'Preset for writers' }).selectOption('');
  await page.locator('#step-card').getByText('Response: 422 Invalid').waitFor();
  // The explorer asks the engines too; its table arrives.
  await page.getByRole('button', { name: 'Explore interleavings' }).click();
  await page.getByRole('heading', { name: /^Every interleaving \(\d+\), per preset$/ }).waitFor({ timeout: 30_000 });
  assert.equal(await page.getByRole('button', { name: 'Explore interleavings' }).getAttribute('aria-pressed'), 'true');
  assert.equal(count(ENGINES), 1, `still once: ${fetched.join(' ')}`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('Build, then Race, then Scale: the engines and the simulator are fetched once', async () => {
  const page = await openPage(browser);
  const { fetched, count } = recordFetches(page);
  await page.goto(`${server.url}#/build`);
  await page.getByRole('article', { name: /^Column 1:/ }).locator('ol.ops').first().waitFor();
  await openView(page, 'Race');
  await page.locator('#lanes').waitFor();
  await page.getByRole('combobox', { name: 'Preset for writers' }).selectOption('naive');
  await page.locator('.race-results:not(.stale)').waitFor({ timeout: 30_000 });
  await openView(page, 'Scale');
  await page.locator('figure.chart').first().waitFor({ timeout: 60_000 });
  await page.waitForLoadState('networkidle');
  assert.ok(count(ENGINES) <= 1, `the engines at most once: ${fetched.join(' ')}`);
  assert.ok(!fetched.some((f) => f.includes('scale-worker')), `no simulator of Scale's own: ${fetched.join(' ')}`);
  const wasm = fetched.filter((f) => f.endsWith('.wasm'));
  assert.deepEqual(wasm.filter((f, i) => wasm.indexOf(f) !== i), [], `a module fetched twice: ${fetched.join(' ')}`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the Race module holds no simulator; the engines hold it', () => {
  const files = readdirSync(distDir);
  const read = (pattern) => readFileSync(join(distDir, files.find((f) => pattern.test(f))));
  // Words only the simulator's replay writes (src/sim/timeline.rs, a step's
  // summary and a response's note), which no bundled answer holds: found in
  // the Race module, they could only come from a simulator in it.
  const bundled = readFileSync(join(root, 'www', 'scenarios', 'raced.json'), 'utf8');
  for (const words of [' has nothing to retry: it has not written yet', 'OK, nothing changed (no new resourceVersion)']) {
    assert.ok(!bundled.includes(words.trim()), `pick other words: the bundled answers hold ${JSON.stringify(words)}`);
    assert.equal(read(/^race_bg\.wasm$/).indexOf(Buffer.from(words)), -1, `the Race module replays nothing itself (${words})`);
    assert.notEqual(read(/^engine-worker_bg\.wasm$/).indexOf(Buffer.from(words)), -1, `the engines replay (${words})`);
  }
});
