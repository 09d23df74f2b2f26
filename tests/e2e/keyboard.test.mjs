// Keyboard only: the editors never trap focus, Ctrl+Z undoes what typing,
// Tab and Format did, every shortcut of every view works with no console
// warning (listeners are not passive), and the shortcuts dialog is modal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, server, browser, useServerAndBrowser } from './harness.mjs';

useServerAndBrowser();

/** A page that also records console warnings (passive-listener warnings among them). */
async function page(options = {}) {
  const p = await openPage(browser, options);
  p.warnings = [];
  p.on('console', (msg) => {
    // Chrome's own note on Trunk's wasm preload is not the app's.
    if (msg.text().includes('`integrity` attribute is currently ignored for preload')) return;
    if (msg.type() === 'warning' || msg.type() === 'error') p.warnings.push(msg.text());
  });
  return p;
}

const focused = (p) => p.evaluate(() => document.activeElement?.id || document.activeElement?.getAttribute('aria-label') || document.activeElement?.textContent?.trim());

test('Tab indents, Esc then Tab leaves the editor, Ctrl+M makes Tab move focus', async () => {
  const p = await page();
  await p.goto(`${server.url}#/build`);
  const editor = p.locator('#old-object');
  await editor.waitFor();
  await editor.focus();
  await p.keyboard.press('Control+End');
  const before = await editor.inputValue();
  await p.keyboard.press('Tab');
  assert.equal(await editor.inputValue(), `${before}  `, 'Tab indents by two spaces');
  assert.equal(await focused(p), 'old-object', 'and stays in the editor');
  await p.keyboard.press('Escape');
  await p.keyboard.press('Tab');
  assert.notEqual(await focused(p), 'old-object', 'Esc then Tab leaves');
  assert.equal(await editor.inputValue(), `${before}  `, 'leaving did not edit the object');
  // Shift+Tab always goes back.
  await editor.focus();
  await p.keyboard.press('Shift+Tab');
  assert.notEqual(await focused(p), 'old-object');
  // Ctrl+M: Tab moves focus from now on (and the toggle says so).
  await editor.focus();
  await p.keyboard.press('Control+m');
  const toggle = p.locator('.editor').first().getByRole('button', { name: /Tab moves focus/ });
  assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
  await p.keyboard.press('Tab');
  assert.notEqual(await focused(p), 'old-object');
  // The choice is remembered.
  await p.reload();
  await p.locator('#old-object').waitFor();
  assert.equal(await p.locator('.editor').first().getByRole('button', { name: /Tab moves focus/ }).getAttribute('aria-pressed'), 'true');
  assert.deepEqual(p.warnings, []);
  await p.context().close();
});

test('Ctrl+Z undoes typing, an indent and Format; Ctrl+Shift+Z redoes', async () => {
  const p = await page();
  await p.goto(`${server.url}#/build`);
  const editor = p.locator('#new-object');
  await editor.waitFor();
  const original = await editor.inputValue();
  await editor.focus();
  await p.keyboard.press('Control+End');
  await p.keyboard.type('x: 1');
  assert.equal(await editor.inputValue(), `${original}x: 1`);
  await p.keyboard.press('Control+z');
  assert.equal(await editor.inputValue(), original, 'typing undone in one step, not a key at a time');
  await p.keyboard.press('Control+Shift+z');
  assert.equal(await editor.inputValue(), `${original}x: 1`, 'and redone');
  await p.keyboard.press('Control+z');
  await p.keyboard.press('Tab');
  assert.equal(await editor.inputValue(), `${original}  `);
  await p.keyboard.press('Control+z');
  assert.equal(await editor.inputValue(), original, 'the indent undone');
  // Format (to JSON) from the toolbar, then undo it in the editor.
  await p.getByRole('button', { name: 'JSON', exact: true }).click();
  await p.waitForFunction(() => document.querySelector('#new-object').value.trim().startsWith('{'));
  await editor.focus();
  await p.keyboard.press('Control+z');
  assert.equal(await editor.inputValue(), original, 'the conversion undone in the editor');
  assert.deepEqual(p.warnings, []);
  await p.context().close();
});

test('every shortcut of every view works, and none warns in the console', async () => {
  const p = await page({ permissions: ['clipboard-read', 'clipboard-write'] });
  // Typing in a field never triggers a shortcut.
  await p.goto(`${server.url}#/build`);
  await p.locator('[aria-label^="Column 1"] .op').first().waitFor();
  const text = await p.locator('#new-object').inputValue();
  await p.locator('#new-object').focus();
  await p.keyboard.press('Control+Home');
  await p.keyboard.type('s');
  assert.equal(await p.locator('#new-object').inputValue(), `s${text}`, 's typed, not swapped');
  await p.keyboard.press('Control+z');
  // Build: s, f, z, l, 1, t.
  await p.goto(`${server.url}#/build`);
  await p.locator('[aria-label^="Column 1"] .op').first().waitFor();
  await p.locator('body').click({ position: { x: 5, y: 5 } });
  await p.keyboard.press('s');
  await p.waitForFunction(() => document.querySelector('[aria-label^="Column 2"] .op-kind')?.textContent === 'remove');
  await p.keyboard.press('f');
  await p.keyboard.press('1');
  await p.waitForFunction(async () => (await navigator.clipboard.readText()).startsWith('[{"op":"test"'));
  await p.keyboard.press('l');
  await p.waitForFunction(async () => (await navigator.clipboard.readText()).includes('#/build?s=1.'));
  await p.getByRole('combobox', { name: 'Example' }).selectOption('finalizers');
  await p.locator('body').click({ position: { x: 5, y: 5 } });
  await p.getByRole('status').filter({ hasText: 'Undo brings it back' }).waitFor();
  await p.keyboard.press('z');
  await p.waitForFunction(() => document.querySelector('#old-object').value.includes('kubevirt.io/migrationTargetNodeName'));
  const theme = await p.locator('.theme-switch').textContent();
  await p.keyboard.press('t');
  assert.notEqual(await p.locator('.theme-switch').textContent(), theme);
  // Race: →, ←, End, Home, p, c, e.
  await p.goto(`${server.url}#/race`);
  await p.locator('.step-count').waitFor();
  await p.keyboard.press('ArrowRight');
  await p.locator('.step-count').filter({ hasText: 'step 1 of' }).waitFor();
  await p.keyboard.press('End');
  const len = (await p.locator('.step-count').textContent()).match(/of (\d+)/)[1];
  await p.locator('.step-count').filter({ hasText: `step ${len} of ${len}` }).waitFor();
  await p.keyboard.press('ArrowLeft');
  await p.keyboard.press('Home');
  await p.locator('.step-count').filter({ hasText: 'step 0 of' }).waitFor();
  await p.keyboard.press('c');
  await p.locator('.compare').waitFor();
  await p.keyboard.press('e');
  await p.locator('.explorer').waitFor();
  await p.keyboard.press('p');
  await p.getByRole('button', { name: 'Pause' }).waitFor();
  await p.keyboard.press('p');
  await p.getByRole('button', { name: 'Play' }).waitFor();
  // Learn: → and ←.
  await p.goto(`${server.url}#/learn/per-key/1`);
  await p.getByText('Step 1 of').waitFor();
  await p.keyboard.press('ArrowRight');
  await p.waitForFunction(() => location.hash === '#/learn/per-key/2');
  await p.keyboard.press('ArrowLeft');
  await p.waitForFunction(() => location.hash === '#/learn/per-key/1');
  assert.deepEqual(p.warnings, [], 'no "Unable to preventDefault inside passive event listener"');
  await p.context().close();
});

test('the shortcuts dialog is modal: focus moves in, stays in, and comes back', async () => {
  const p = await page();
  await p.goto(`${server.url}#/race`);
  await p.locator('.step-count').waitFor();
  const opener = p.getByRole('button', { name: 'Keyboard shortcuts' });
  await opener.focus();
  await p.keyboard.press('Enter');
  const dialog = p.getByRole('dialog', { name: 'Keyboard shortcuts: Race' });
  await dialog.waitFor();
  assert.ok(await dialog.evaluate((d) => d.contains(document.activeElement)), 'focus moved into the dialog');
  assert.match(await dialog.textContent(), /One step forward/);
  assert.doesNotMatch(await dialog.textContent(), /Swap old and new/, 'no Build keys in Race');
  for (let i = 0; i < 8; i += 1) {
    await p.keyboard.press('Tab');
    assert.ok(await dialog.evaluate((d) => d.contains(document.activeElement) || document.activeElement === document.body), 'focus stays in');
  }
  await p.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  assert.equal(await focused(p), 'Keyboard shortcuts?', 'focus is back on the button that opened it');
  // Single-key shortcuts can be turned off (and ? still says how).
  await p.keyboard.press('?');
  await dialog.waitFor();
  await dialog.getByRole('checkbox', { name: /Single-key shortcuts on/ }).uncheck();
  await p.keyboard.press('Escape');
  await p.keyboard.press('ArrowRight');
  await p.waitForTimeout(200);
  assert.match(await p.locator('.step-count').textContent(), /^step 0 of/);
  assert.deepEqual(p.warnings, []);
  await p.context().close();
});
