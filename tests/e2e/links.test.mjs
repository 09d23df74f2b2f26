// Every view's state survives a link: copy it, open it in a fresh page,
// see the same thing; opening a link over edited work keeps the work one
// Undo away.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, server, browser, useServerAndBrowser } from './harness.mjs';

useServerAndBrowser();

async function copiedLink(page) {
  await page.getByRole('button', { name: 'Share link' }).first().click();
  await page.waitForFunction(async () => (await navigator.clipboard.readText()).includes('#/'));
  return page.evaluate(() => navigator.clipboard.readText());
}

test('race: compare mode, the explorer, the step and the open editor are in the link', async () => {
  const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await context.newPage();
  await page.goto(`${server.url}#/race`);
  await page.getByRole('combobox', { name: 'Preset for writers' }).selectOption('naive');
  await page.getByRole('button', { name: 'Step 4:', exact: false }).click();
  await page.getByRole('button', { name: 'Compare presets' }).click();
  await page.getByRole('button', { name: 'Explore interleavings' }).click();
  await page.getByText('Edit the writers and the timeline').click();
  await page.locator('.explorer').waitFor();
  const link = await copiedLink(page);
  await context.close();
  const fresh = await openPage(browser);
  await fresh.goto(link);
  await fresh.locator('.compare').waitFor();
  await fresh.locator('.explorer').waitFor();
  assert.ok(await fresh.locator('details.editing').evaluate((d) => d.open), 'the timeline editor is open');
  assert.match(await fresh.locator('.step-count').textContent(), /^step 4 of/);
  assert.equal(await fresh.getByRole('combobox', { name: 'Preset for writers' }).inputValue(), 'naive');
  assert.deepEqual(fresh.errors, []);
  await fresh.context().close();
});

test('build and race: the Kubernetes release chosen is in the link', async () => {
  for (const view of ['build', 'race']) {
    const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await context.newPage();
    await page.goto(`${server.url}#/${view}`);
    const select = page.getByRole('combobox', { name: 'Kubernetes' });
    assert.equal(await select.inputValue(), '1.36', 'the newest release by default');
    assert.match(await select.locator('option:checked').textContent(), /^1\.36 \(evanphx\/json-patch v4\.13\.0\)$/);
    await select.selectOption('1.28.0');
    const link = await copiedLink(page);
    await context.close();
    const fresh = await openPage(browser);
    await fresh.goto(link);
    const opened = fresh.getByRole('combobox', { name: 'Kubernetes' });
    await opened.waitFor();
    assert.equal(await opened.inputValue(), '1.28.0', `${view}: the link carries the release`);
    assert.match(await opened.locator('option:checked').textContent(), /v5\.6\.0/);
    assert.deepEqual(fresh.errors, []);
    await fresh.context().close();
  }
});

test('learn: every step has its link, counted from 1; older links still open', async () => {
  const page = await openPage(browser);
  await page.goto(`${server.url}#/learn/per-key/2`);
  await page.getByText('Step 2 of').waitFor();
  await page.getByRole('link', { name: 'Next →' }).click();
  await page.waitForFunction(() => location.hash === '#/learn/per-key/3');
  await page.goto(`${server.url}#/learn?w=per-key&step=0`);
  await page.getByText('Step 1 of').waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('opening a walkthrough example in Build over edited work keeps the work one Undo away', async () => {
  const page = await openPage(browser);
  await page.goto(`${server.url}#/build`);
  const editor = page.locator('#new-object');
  await editor.waitFor();
  await editor.fill('apiVersion: v1\nkind: Pod\nmetadata:\n  name: mine\n');
  await page.getByText('Your objects').first().waitFor();
  await page.waitForTimeout(400);
  await page.goto(`${server.url}#/learn/finalizers/1`);
  await page.getByRole('link', { name: 'Open in Build' }).click();
  const notice = page.getByRole('status').filter({ hasText: 'Undo brings it back' });
  await notice.waitFor();
  assert.match(await page.locator('#old-object').inputValue(), /finalizers/);
  await notice.getByRole('button', { name: 'Undo' }).click();
  await page.waitForFunction(() => document.querySelector('#new-object').value.includes('name: mine'));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('links written with the old preset names still open, under the new names', async () => {
  const { encodeLink } = await import('./link.mjs');
  for (const [old, now] of [['kubevirt-head', 'kubevirt-main'], ['kubevirt-pr18139', 'kubevirt-per-key']]) {
    const page = await openPage(browser);
    await page.goto(`${server.url}#/race?s=${encodeLink({ id: 'migration-race', preset: old, step: 4 })}`);
    await page.locator('.step-count').filter({ hasText: /^step 4 of/ }).waitFor();
    assert.equal(await page.getByRole('combobox', { name: 'Preset for writers' }).inputValue(), now, `race: ${old}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
  const page = await openPage(browser);
  const link = encodeLink({
    old: 'metadata:\n  labels:\n    a: "1"\n',
    new: 'metadata:\n  labels:\n    a: "1"\n    b: "2"\n',
    format: 'yaml',
    columns: [{ preset: 'kubevirt-head' }, { preset: 'kubevirt-pr18139' }],
  });
  await page.goto(`${server.url}#/build?s=${link}`);
  await page.getByRole('article', { name: 'Column 1: kubevirt-main' }).waitFor();
  await page.getByRole('article', { name: 'Column 2: kubevirt-per-key' }).waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a link opened while an edit waits to be written is read, not overwritten by the edit', async () => {
  const { encodeLink } = await import('./link.mjs');
  const page = await openPage(browser);
  await page.goto(`${server.url}#/race`);
  await page.locator('.step-count').filter({ hasText: /^step 0 of/ }).waitFor();
  const len = Number((await page.locator('.step-count').textContent()).match(/of (\d+)/)[1]);
  const fragment = `#/race?s=${encodeLink({ id: 'migration-race', step: 2 })}`;
  // A step (its link is written once the state settles, 250 ms later),
  // then, before that, a new address: the moment between a link arriving
  // in the address bar and the page reading it, held open.
  await page.locator('body').press('ArrowRight');
  await page.locator('.step-count').filter({ hasText: `step 1 of ${len}` }).waitFor();
  await page.evaluate((f) => history.replaceState(null, '', f), fragment);
  await page.waitForTimeout(700);
  assert.equal(await page.evaluate(() => location.hash), fragment, 'the arriving link is still in the address bar');
  // And it is the link the page opens.
  await page.reload();
  await page.locator('.step-count').filter({ hasText: `step 2 of ${len}` }).waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
