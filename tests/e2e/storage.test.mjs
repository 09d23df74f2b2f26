// Nothing is lost: a browser that refuses storage gets a notice (the work
// stays in the tab and the link), and loading over edits can be undone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, server, browser, useServerAndBrowser } from './harness.mjs';

useServerAndBrowser();

/** A page whose localStorage refuses every write, as when the quota is full. */
async function pageWithoutStorage() {
  const page = await openPage(browser);
  await page.addInitScript(() => {
    Storage.prototype.setItem = function setItem() {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
  });
  return page;
}

test('build: refused storage is announced once; the link still carries the work', async () => {
  const page = await pageWithoutStorage();
  await page.goto(`${server.url}#/build`);
  await page.getByRole('article', { name: /^Column 1:/ }).waitFor();
  const editor = page.locator('#new-object');
  await page.waitForFunction(() => location.hash.startsWith('#/build?s='));
  const before = await page.evaluate(() => location.hash);
  await editor.fill((await editor.inputValue()).replace('node02', 'node07'));
  const notice = page.getByRole('alert').filter({ hasText: 'Your work is not saved in this browser' });
  await notice.waitFor();
  assert.match(await notice.textContent(), /browser storage is full or refused the write/);
  await page.waitForFunction((before) => location.hash !== before, before);
  // Announced once: dismissed, it does not come back on the next edit.
  await page.getByRole('button', { name: 'Dismiss' }).click();
  await editor.fill((await editor.inputValue()).replace('node07', 'node08'));
  await page.waitForTimeout(600);
  assert.equal(await notice.count(), 0);
  // The link alone restores the edit in a fresh page.
  const url = page.url();
  const other = await openPage(browser);
  await other.goto(url);
  await other.getByRole('article', { name: /^Column 2:/ }).waitFor();
  assert.match(await other.locator('#new-object').inputValue(), /node08/);
  assert.deepEqual(page.errors, []);
  await other.context().close();
  await page.context().close();
});

test('race: refused storage is announced; loading over an edited race can be undone', async () => {
  const page = await pageWithoutStorage();
  await page.goto(`${server.url}#/race`);
  await page.getByText('Edit the writers and the timeline').click();
  await page.getByRole('button', { name: 'Remove event 6' }).click();
  await page.locator('.step-count').filter({ hasText: 'of 5' }).waitFor();
  await page.getByRole('alert').filter({ hasText: 'Your work is not saved in this browser' }).waitFor();
  await page.getByRole('button', { name: 'Dismiss' }).click();

  const scenario = page.getByRole('combobox', { name: 'Scenario' });
  const other = await scenario.locator('option').nth(1).getAttribute('value');
  await scenario.selectOption(other);
  const notice = page.getByRole('status').filter({ hasText: 'Your edited race is kept: Undo brings it back' });
  await notice.waitFor();
  assert.notEqual(await page.locator('.step-count').textContent(), 'step 0 of 5');
  await notice.getByRole('button', { name: 'Undo' }).click();
  await page.locator('.step-count').filter({ hasText: 'of 5' }).waitFor();
  assert.match(await scenario.locator('option:checked').textContent(), /edited/);
  assert.equal(await page.getByRole('button', { name: 'Undo' }).count(), 0);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a bug shows a banner with a bug report, and reloading brings the work back', async () => {
  const page = await openPage(browser);
  await page.goto(`${server.url}#/build`);
  await page.getByRole('article', { name: /^Column 1:/ }).waitFor();
  const editor = page.locator('#new-object');
  const before = await page.evaluate(() => location.hash);
  await editor.fill((await editor.inputValue()).replace('node02', 'node09'));
  await page.waitForFunction((before) => location.hash !== before, before);

  await page.evaluate(() => { location.hash = '#/debug/panic'; });
  const banner = page.getByRole('alert').filter({ hasText: 'patchlab hit a bug and stopped' });
  await banner.waitFor();
  const report = await banner.getByRole('textbox', { name: 'Bug report' }).inputValue();
  assert.match(report, /^patchlab \d+\.\d+\.\d+\S* panicked at src\/app\/shell\.rs:\d+:\d+:\na panic on purpose \(#\/debug\/panic\)\n\nView: #\/debug\/panic\nBrowser: .*Chrome/);
  assert.ok(page.errors.some((e) => e.includes('a panic on purpose')), 'the panic reaches the console too');
  await banner.getByRole('link', { name: 'Reload the page' }).click();
  await page.waitForURL(/\?reload#\/build$/);
  await page.getByRole('article', { name: /^Column 1:/ }).waitFor();
  assert.match(await page.locator('#new-object').inputValue(), /node09/, 'the work is back');
  assert.equal(await page.locator('#crash').count(), 0);
  await page.context().close();
});
