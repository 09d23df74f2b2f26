// Check's "paste the error you got": explain's answer beside lint's
// findings, replayed on the patch and object of the view, in the link.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, server, browser, useServerAndBrowser } from './harness.mjs';

useServerAndBrowser();

const BARE_422 = 'The request is invalid: the server rejected our request due to an error in our request';
const PATCH = '[{"op":"test","path":"/metadata/labels","value":{"a":"1"}},{"op":"add","path":"/metadata/labels/b","value":"2"}]';
const OBJECT = '{"metadata":{"name":"x","labels":{"a":"1","c":"3"}}}';

test('a pasted 422 is explained, replayed on the patch and object, and shared in the link', async () => {
  const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${server.url}#/check`);
  await page.getByRole('button', { name: 'Clear' }).click();
  await page.getByRole('textbox', { name: 'The error you got' }).fill(BARE_422);
  const panel = page.getByRole('region', { name: 'The error you got' });
  await panel.getByText(/^Undecided: one of \d+ classes$/).waitFor();
  await panel.getByText('What would decide:').waitFor();
  // With the patch and the object, the replay decides and names the op.
  await page.getByRole('textbox', { name: 'Patch', exact: true }).fill(PATCH);
  await page.getByRole('textbox', { name: 'Current object', exact: true }).fill(OBJECT);
  await panel.locator('.verdict').filter({ hasText: 'test-failed' }).waitFor();
  assert.match(await panel.textContent(), /Op 0/);
  assert.match(await panel.textContent(), /RetryOnConflict does not retry it/);
  // Lint's findings stay beside it.
  await page.locator('.check-summary').waitFor();
  // The release is kept in the link with the error.
  await page.getByRole('combobox', { name: 'Kubernetes' }).selectOption('1.30');
  await panel.getByText(/Kubernetes 1\.30/).first().waitFor();
  await page.getByRole('button', { name: 'Share link' }).click();
  await page.getByRole('toolbar').getByRole('button', { name: 'Copied' }).waitFor();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  await context.close();

  const fresh = await openPage(browser);
  await fresh.goto(link);
  const again = fresh.getByRole('region', { name: 'The error you got' });
  await again.locator('.verdict').filter({ hasText: 'test-failed' }).waitFor();
  assert.equal(await fresh.getByRole('textbox', { name: 'The error you got' }).inputValue(), BARE_422);
  assert.equal(await fresh.getByRole('combobox', { name: 'Kubernetes' }).inputValue(), '1.30');
  assert.deepEqual(fresh.errors, []);
  assert.deepEqual(errors, []);
  await fresh.context().close();
});

test('the Check module carries no explain engine: the engines load once, as the error field is used', async () => {
  const page = await openPage(browser);
  const fetched = [];
  page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
  await page.goto(`${server.url}#/check`);
  await page.locator('.check-summary').waitFor();
  assert.ok(fetched.some((f) => /check_bg\.wasm$/.test(f)), 'the Check module');
  assert.ok(!fetched.some((f) => /engine-worker/.test(f)), `no engines before the error field is used: ${fetched.join(' ')}`);
  // The field taking the focus starts them: a paste usually follows.
  const engines = page.waitForRequest((request) => /engine-worker_bg\.wasm$/.test(request.url()));
  await page.getByRole('textbox', { name: 'The error you got' }).focus();
  await engines;
  await page.getByRole('textbox', { name: 'The error you got' }).fill(BARE_422);
  const panel = page.getByRole('region', { name: 'The error you got' });
  await panel.getByText(/^Undecided: one of \d+ classes$/).waitFor();
  assert.equal(await panel.getAttribute('aria-busy'), 'false');
  // Typing on: answered by the engines already loaded, nothing fetched again.
  await page.getByRole('textbox', { name: 'Patch', exact: true }).fill(PATCH);
  await page.getByRole('textbox', { name: 'Current object', exact: true }).fill(OBJECT);
  await panel.locator('.verdict').filter({ hasText: 'test-failed' }).waitFor();
  const modules = fetched.filter((f) => /engine-worker_bg\.wasm$/.test(f));
  assert.equal(modules.length, 1, `the engines' module fetched once: ${fetched.join(' ')}`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('Build and Check share the engines\' worker: each view gets its own answers, also after the other asked', async () => {
  const page = await openPage(browser);
  await page.goto(`${server.url}#/build`);
  const column2 = page.getByRole('article', { name: /^Column 2:/ });
  await column2.locator('.ops').waitFor();
  // Check, with texts over 64 KiB: the worker answers, not the page's thread.
  await page.evaluate(() => { location.hash = '#/check'; });
  const big = JSON.stringify({ metadata: { name: 'x', labels: { a: '1', c: '3' }, annotations: { note: 'x'.repeat(70_000) } } });
  await page.getByRole('textbox', { name: 'Patch', exact: true }).fill(PATCH);
  await page.getByRole('textbox', { name: 'Current object', exact: true }).fill(big);
  await page.getByRole('textbox', { name: 'The error you got' }).fill(BARE_422);
  const panel = page.getByRole('region', { name: 'The error you got' });
  await panel.locator('.verdict').filter({ hasText: 'test-failed' }).waitFor({ timeout: 30_000 });
  // Back to Build, whose client asked first: a big edit still reaches it.
  await page.evaluate(() => { location.hash = '#/build'; });
  const editor = page.getByRole('textbox', { name: 'New object' });
  await editor.waitFor();
  const text = await editor.inputValue();
  await editor.fill(text.replace('  labels:\n', `  annotations:\n    big: ${'y'.repeat(70_000)}\n  labels:\n`));
  await page.waitForFunction(() => document.querySelectorAll('[aria-label^="Column 2"] .op').length === 3, null, { timeout: 30_000 });
  // And Check again: a new error, explained by the worker.
  await page.evaluate(() => { location.hash = '#/check'; });
  const conflict = 'Operation cannot be fulfilled on virtualmachineinstances.kubevirt.io "vmi": the object has been modified; please apply your changes to the latest version and try again';
  await page.getByRole('textbox', { name: 'Current object', exact: true }).fill(big);
  await page.getByRole('textbox', { name: 'The error you got' }).fill(conflict);
  // The patch sets no resourceVersion: the 409 came from an Update.
  await panel.locator('.verdict').filter({ hasText: 'update-conflict' }).waitFor({ timeout: 30_000 });
  assert.equal(await panel.getAttribute('aria-busy'), 'false');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
