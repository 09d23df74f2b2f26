// Race's timeline editor: writers' intents and field overrides are YAML,
// read by the engines' module (the Race module has no YAML reader, #27).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, server, browser, useServerAndBrowser } from './harness.mjs';

useServerAndBrowser();

test('Race reads typed YAML with the engines: fetched when the editor opens, the edit then replayed', async () => {
  const page = await openPage(browser);
  const fetched = [];
  page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
  await page.goto(`${server.url}#/race`);
  await page.locator('.step-count').waitFor();
  assert.ok(fetched.some((f) => /race_bg\.wasm$/.test(f)), 'the Race module');
  assert.ok(!fetched.some((f) => /engine-worker/.test(f)), `no engines before the editor opens: ${fetched.join(' ')}`);

  const engines = page.waitForRequest((request) => /engine-worker_bg\.wasm$/.test(request.url()));
  await page.getByText('Edit the writers and the timeline').click();
  await engines;

  const scenario = page.getByRole('combobox', { name: 'Scenario' });
  const intents = page.getByRole('textbox', { name: 'Intents of virt-controller' });
  // Not YAML: kept as typed, with where.
  await intents.fill('- set-label: [\n');
  const card = page.locator('.writer-card').filter({ has: intents });
  await card.getByRole('alert').filter({ hasText: /^line \d+, column \d+: / }).waitFor();
  assert.equal(await intents.inputValue(), '- set-label: [\n');
  assert.doesNotMatch(await scenario.locator('option:checked').textContent(), /edited/);
  // YAML the scenario takes: replayed, and the race is now an edited one.
  await intents.fill('- set-label: {key: example.com/team, value: blue}\n');
  await scenario.locator('option:checked', { hasText: /edited/ }).waitFor({ state: 'attached' });
  assert.equal(await card.getByRole('alert').count(), 0);
  assert.equal(await intents.getAttribute('aria-busy'), 'false');
  // A field override, read the same way.
  const overrides = card.getByRole('textbox', { name: 'Field overrides of virt-controller' });
  await overrides.fill('/metadata/labels: sideways\n');
  await card.getByRole('alert').filter({ hasText: /sideways/ }).waitFor();
  await overrides.fill('/metadata/labels: per-key\n');
  await card.getByRole('alert').waitFor({ state: 'detached' });
  const modules = fetched.filter((f) => /engine-worker_bg\.wasm$/.test(f));
  assert.equal(modules.length, 1, `the engines' module fetched once: ${fetched.join(' ')}`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
