// The Build view: the seed's race on first visit, editing, presets, parse
// errors with line and column, share links, exports, light and dark.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, screenshot, server, browser, useServerAndBrowser } from './harness.mjs';

useServerAndBrowser();

const column = (page, n) => page.getByRole('article', { name: new RegExp(`^Column ${n}:`) });
const opsOf = async (page, n) =>
  column(page, n).locator('.ops .op-line').evaluateAll((els) => els.map((e) => e.textContent.replace('only here', '').trim()));

/** Replaces an editor's text the way a user would: select all, type. */
async function setEditor(page, name, text) {
  const editor = page.getByRole('textbox', { name });
  await editor.click();
  await editor.press('Control+A');
  await editor.fill(text);
}

test('a first visit shows the race: head tests the whole map, PR #18139 adds one key', async () => {
  const page = await openPage(browser);
  await page.goto(`${server.url}#/build`);
  await column(page, 1).waitFor();
  assert.equal(await page.getByRole('combobox', { name: 'Preset', exact: true }).inputValue(), 'kubevirt-main');
  assert.deepEqual(await opsOf(page, 1), ['test/metadata/labels', 'replace/metadata/labels']);
  assert.deepEqual(await opsOf(page, 2), ['add/metadata/labels/kubevirt.io~1migrationTargetNodeName']);
  const surface1 = await column(page, 1).locator('.surface').textContent();
  assert.match(surface1, /a concurrent change to \/metadata\/labels/);
  assert.match(await column(page, 2).locator('.surface').textContent(), /it tests nothing/);
  assert.equal(await column(page, 1).locator('.chip.ok').count(), 1, 'round trip checked');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('typing into the editors changes the ops; a preset switch changes a column', async () => {
  const page = await openPage(browser);
  await page.goto(`${server.url}#/build`);
  await column(page, 2).waitFor();
  const newEditor = page.getByRole('textbox', { name: 'New object' });
  await newEditor.click();
  // Add an annotation at the end of the metadata block.
  const text = await newEditor.inputValue();
  await newEditor.fill(text.replace('  labels:\n', '  annotations:\n    kubevirt.io/latest-observed-api-version: v1\n  labels:\n'));
  await page.waitForFunction(() => document.querySelectorAll('[aria-label^="Column 2"] .op').length === 3);
  // Per-key: the annotations map was absent, so test that it still is, then add it.
  assert.deepEqual(await opsOf(page, 2), [
    'test/metadata/annotations',
    'add/metadata/annotations',
    'add/metadata/labels/kubevirt.io~1migrationTargetNodeName',
  ]);
  await page.getByRole('combobox', { name: 'Preset for column 2' }).selectOption('naive');
  await page.waitForFunction(() => document.querySelector('[aria-label^="Column 2"] .op-kind')?.textContent === 'add');
  assert.deepEqual(await opsOf(page, 2), ['add/metadata/annotations', 'replace/metadata/labels']);
  assert.match(await column(page, 2).locator('.surface').textContent(), /overwrites any concurrent change/);
  // The Fields table overrides one field in one column.
  await page.getByRole('combobox', { name: 'Strategy for /metadata/labels in column 1' }).selectOption('per-key');
  await page.waitForFunction(() => document.querySelector('[aria-label^="Column 1"] .op-kind')?.textContent === 'add');
  assert.deepEqual(await opsOf(page, 1), [
    'add/metadata/annotations',
    'add/metadata/labels/kubevirt.io~1migrationTargetNodeName',
  ]);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a parse error shows line and column, keeps the last result marked stale', async () => {
  const page = await openPage(browser);
  await page.goto(`${server.url}#/build`);
  await column(page, 1).waitFor();
  await page.getByRole('button', { name: 'JSON', exact: true }).click();
  const editor = page.getByRole('textbox', { name: 'Old object' });
  await page.waitForFunction(() => document.querySelector('#old-object').value.trim().startsWith('{'));
  const json = await editor.inputValue();
  await editor.fill(json.replace('"kind": "VirtualMachineInstance",', '"kind": "VirtualMachineInstance"'));
  const alert = page.locator('#old-object-error');
  await alert.waitFor();
  assert.match(await alert.textContent(), /^line 4, column \d+: /);
  assert.equal(await editor.getAttribute('aria-invalid'), 'true');
  assert.match(await page.getByRole('status').filter({ hasText: 'last result' }).textContent(), /Showing the last result/);
  assert.deepEqual(await opsOf(page, 1), ['test/metadata/labels', 'replace/metadata/labels'], 'last good result stays');
  await editor.fill(json);
  await alert.waitFor({ state: 'detached' });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a long text put in place of another shows from its top', async () => {
  const page = await openPage(browser);
  await page.goto(`${server.url}#/build`);
  await column(page, 1).waitFor();
  const editor = page.locator('#old-object');
  const long = (name) => Array.from({ length: 300 }, (_, i) => `${name}${i}: value`).join('\n');
  await setEditor(page, 'Old object', long('old'));
  await setEditor(page, 'New object', long('new'));
  await editor.evaluate((e) => { e.scrollTop = e.scrollHeight; });
  assert.ok((await editor.evaluate((e) => e.scrollTop)) > 0, 'scrolled down');
  // Swapped: the old editor now holds the other 300 lines, from their top.
  await page.getByRole('button', { name: 'Swap old and new' }).click();
  await page.waitForFunction(() => document.querySelector('#old-object')?.value.startsWith('new0'));
  assert.equal(await editor.evaluate((e) => e.scrollTop), 0, 'the text put in shows from its top');
  assert.deepEqual(await editor.evaluate((e) => [e.selectionStart, e.selectionEnd]), [0, 0], 'the caret at its start');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('an engine worker that cannot read the requests fails them: Convert and the results say so, nothing waits', async () => {
  const page = await openPage(browser);
  // A worker that speaks another protocol (as one of another version,
  // served from a cache, would): ready, then every request unreadable. The
  // engines' module does not load, so the page has none of its own.
  await page.route('**/engine-worker_loader.js', (route) => route.fulfill({
    contentType: 'text/javascript',
    body: `postMessage('{"ready":true}');
onmessage = (e) => {
  if (typeof e.data === 'string' && e.data.startsWith('{')) {
    postMessage(JSON.stringify({ misread: 'not an engine question: unknown field' }));
  }
};`,
  }));
  await page.route('**/engine-worker_bg.wasm', (route) => route.abort());
  await page.goto(`${server.url}#/build`);
  await column(page, 1).waitFor();
  const before = await page.locator('#old-object').inputValue();
  await page.getByRole('button', { name: 'JSON', exact: true }).click();
  const notice = page.getByText(/^The objects cannot be converted: the engine worker could not read a request \(reload the page\): not an engine question: unknown field\. Your objects are kept\.$/);
  await notice.waitFor({ timeout: 20_000 });
  assert.equal(await page.locator('.toolbar .converting').count(), 0, 'nothing says Converting… any more');
  assert.equal(await page.locator('#old-object').inputValue(), before, 'the texts are as they were');
  // An edit asks for results: the same worker fails them, in words.
  await page.locator('#old-object').press('End');
  await page.keyboard.type(' ');
  await page.getByText(/^The results cannot be computed: the engine worker could not read a request/).waitFor({ timeout: 20_000 });
  await page.context().close();
});

test('share link round trip: copy, open in a new page, same state', async () => {
  const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await context.newPage();
  await page.goto(`${server.url}#/build`);
  await column(page, 1).waitFor();
  await page.getByRole('combobox', { name: 'Example' }).selectOption('finalizers');
  await page.waitForFunction(() => document.querySelector('[aria-label^="Column 2"] .op-path')?.textContent.includes('/metadata/finalizers/'));
  const expected = await opsOf(page, 2);
  await page.getByRole('button', { name: 'Share link' }).click();
  await page.getByRole('toolbar').getByRole('button', { name: 'Copied' }).waitFor();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(link, /#\/build\?s=1\./);
  await context.close();

  const fresh = await openPage(browser);
  await fresh.goto(link);
  await column(fresh, 2).waitFor();
  assert.deepEqual(await opsOf(fresh, 2), expected);
  assert.equal(await fresh.getByRole('combobox', { name: 'Example' }).inputValue(), 'finalizers');
  assert.deepEqual(fresh.errors, []);
  await fresh.context().close();
});

test('a damaged or future link says so in plain words, changes nothing and stays in the address bar', async () => {
  const page = await openPage(browser);
  await page.goto(`${server.url}#/build?s=9.abcdef`);
  await page.getByRole('alert').filter({ hasText: 'made by a newer version of patchlab' }).waitFor();
  assert.deepEqual(await opsOf(page, 2), ['add/metadata/labels/kubevirt.io~1migrationTargetNodeName']);
  await page.waitForTimeout(600);
  assert.equal(await page.evaluate(() => location.hash), '#/build?s=9.abcdef', 'the link stays to be repaired');
  // Pasted into the address bar of the open page...
  await page.goto(`${server.url}#/build?s=1.!!notbase64`);
  const damaged = page.getByRole('alert').filter({ hasText: 'looks cut off or damaged: copy it again' });
  await damaged.waitFor();
  assert.match(await damaged.textContent(), /the link is still in the address bar/);
  assert.doesNotMatch(await damaged.locator('.notice-text').textContent(), /base64|Invalid symbol/, 'no jargon in the message');
  assert.deepEqual(await opsOf(page, 2), ['add/metadata/labels/kubevirt.io~1migrationTargetNodeName']);
  // ...or opened in a new one: the URL is kept there too.
  const fresh = await openPage(browser);
  await fresh.goto(`${server.url}#/build?s=1.!!notbase64`);
  await fresh.getByRole('alert').filter({ hasText: 'damaged' }).waitFor();
  await fresh.waitForTimeout(600);
  assert.equal(await fresh.evaluate(() => location.hash), '#/build?s=1.!!notbase64');
  // Once the user changes something, the address bar follows the state again.
  await fresh.getByRole('button', { name: 'Add a column' }).click();
  await fresh.waitForFunction(() => location.hash.startsWith('#/build?s=1.') && !location.hash.includes('!!'));
  assert.deepEqual(page.errors, []);
  assert.deepEqual(fresh.errors, []);
  await fresh.context().close();
  await page.context().close();
});

test('exports: the kubectl line is copied and confirmed', async () => {
  const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await context.newPage();
  await page.goto(`${server.url}#/build`);
  await column(page, 2).waitFor();
  await column(page, 2).getByRole('button', { name: 'Copy kubectl' }).click();
  await column(page, 2).getByRole('button', { name: 'Copied' }).waitFor();
  const line = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(
    line,
    `kubectl patch virtualmachineinstance testvmi -n default --type=json -p '[{"op":"add","path":"/metadata/labels/kubevirt.io~1migrationTargetNodeName","value":"node02"}]'`,
  );
  await context.close();
});

test('state survives a reload (saved in this browser)', async () => {
  const page = await openPage(browser);
  await page.goto(`${server.url}#/build`);
  await column(page, 1).waitFor();
  await page.getByRole('button', { name: '+ Add a column' }).click();
  await column(page, 3).waitFor();
  await page.waitForTimeout(400);
  await page.goto(`${server.url}#/build`);
  await page.reload();
  await column(page, 3).waitFor();
  assert.equal(await page.getByRole('combobox', { name: 'Preset for column 3' }).inputValue(), 'naive');
  await page.context().close();
});

for (const colorScheme of ['light', 'dark']) {
  test(`Build view screenshot, ${colorScheme}`, async () => {
    const page = await openPage(browser, { colorScheme, viewport: { width: 1366, height: 900 } });
    await page.goto(`${server.url}#/build`);
    await column(page, 2).waitFor();
    await screenshot(page, `build-${colorScheme}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test('Build view on a phone', async () => {
  const page = await openPage(browser, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await page.goto(`${server.url}#/build`);
  await column(page, 2).waitFor();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `no horizontal scrolling: the page is ${width}px wide on a 390px screen`);
  await screenshot(page, 'build-phone');
  await page.context().close();
});

test('keyboard: ? opens the shortcut list, s swaps, 2 copies the current payload', async () => {
  const page = await openPage(browser, { permissions: ['clipboard-read', 'clipboard-write'] });
  await page.goto(`${server.url}#/build`);
  await column(page, 2).waitFor();
  await page.locator('body').press('?');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts: Build' });
  await dialog.waitFor();
  assert.match(await dialog.textContent(), /Swap old and new/);
  assert.doesNotMatch(await dialog.textContent(), /One step forward/, 'only this view\'s keys');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  await page.keyboard.press('s');
  await page.waitForFunction(() => document.querySelector('[aria-label^="Column 2"] .op-kind')?.textContent === 'remove');
  await page.keyboard.press('2');
  await page.waitForFunction(async () => (await navigator.clipboard.readText()).includes('"op":"remove"'));
  assert.equal(
    await page.evaluate(() => navigator.clipboard.readText()),
    '[{"op":"remove","path":"/metadata/labels/kubevirt.io~1migrationTargetNodeName"}]',
  );
  await page.context().close();
});
