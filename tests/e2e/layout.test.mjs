// Layouts people use: a reviewer on a 1280x720 laptop sees a result
// column without scrolling; on a 375 px phone no view is wider than the
// screen; an unknown route says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, screenshot, server, browser, useServerAndBrowser } from './harness.mjs';

useServerAndBrowser();

test('1280x720: the first result column is on screen without scrolling', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const page = await openPage(browser, { viewport: { width: 1280, height: 720 }, colorScheme });
    await page.goto(`${server.url}#/build`);
    const column = page.getByRole('article', { name: /^Column 1:/ });
    await column.locator('.op').first().waitFor();
    const box = await column.locator('.op').first().boundingBox();
    assert.ok(box.y + box.height <= 720, `the first op of column 1 ends at ${box.y + box.height}px, below the fold`);
    const editor = await page.locator('#new-object').boundingBox();
    assert.ok(editor.y < 720, 'the new object editor starts on screen');
    await screenshot(page, `build-1280x720-${colorScheme}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('375 px: no view is wider than the phone', async () => {
  const page = await openPage(browser, { viewport: { width: 375, height: 800 }, isMobile: true, hasTouch: true });
  const views = ['#/build', '#/race', '#/scale', '#/learn', '#/learn/migration-race/3', '#/nope'];
  for (const hash of views) {
    await page.goto(`${server.url}${hash}`);
    await page.locator('h1').first().waitFor();
    await page.waitForTimeout(300);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 375, `${hash} is ${width}px wide on a 375px screen`);
  }
  // The step card is on screen after tapping Forward.
  await page.goto(`${server.url}#/race`);
  await page.getByRole('button', { name: 'Forward' }).tap();
  await page.waitForTimeout(600);
  const card = await page.locator('#step-card').boundingBox();
  assert.ok(card.y < 800 && card.y + 40 > 0, `the step card starts at ${card.y}px`);
  await screenshot(page, 'race-phone-after-forward');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('an unknown route says so and offers the views', async () => {
  const page = await openPage(browser);
  await page.goto(`${server.url}#/bulid?s=1.x`);
  await page.getByRole('heading', { level: 1, name: 'No such page' }).waitFor();
  assert.match(await page.locator('.not-found').textContent(), /#\/bulid\?s=1\.x/);
  await page.getByRole('link', { name: 'Build' }).last().click();
  await page.getByRole('heading', { level: 1, name: 'Build' }).waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
