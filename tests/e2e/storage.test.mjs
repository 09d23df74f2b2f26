// Nothing is lost: a browser that refuses storage gets a notice (the work
// stays in the tab and the link), and loading over edits can be undone.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openPage } from './harness.mjs';

let server;
let browser;

before(async () => {
  server = await serveDist();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

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
  const notice = page.getByRole('status').filter({ hasText: 'Your work is not saved in this browser' });
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
  await page.getByRole('button', { name: 'Remove event 5' }).click();
  await page.locator('.step-count').filter({ hasText: 'of 4' }).waitFor();
  await page.getByRole('status').filter({ hasText: 'Your race is not saved in this browser' }).waitFor();
  await page.getByRole('button', { name: 'Dismiss' }).click();

  const scenario = page.getByRole('combobox', { name: 'Scenario' });
  const other = await scenario.locator('option').nth(1).getAttribute('value');
  await scenario.selectOption(other);
  const notice = page.getByRole('status').filter({ hasText: 'replaced your edited race' });
  await notice.waitFor();
  assert.notEqual(await page.locator('.step-count').textContent(), 'step 0 of 4');
  await page.getByRole('button', { name: 'Undo loading' }).click();
  await page.locator('.step-count').filter({ hasText: 'of 4' }).waitFor();
  assert.match(await scenario.locator('option:checked').textContent(), /edited/);
  assert.equal(await page.getByRole('button', { name: 'Undo loading' }).count(), 0);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
