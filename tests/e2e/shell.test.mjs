// The app shell: loads from dist/, navigates between views by fragment,
// supports back/forward and deep links, renders in light and dark.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, screenshot, server, browser, useServerAndBrowser } from './harness.mjs';

useServerAndBrowser();

test('loads the release build and navigates between the five views', async () => {
  const page = await openPage(browser);
  await page.goto(server.url);
  await page.getByRole('link', { name: 'patchlab' }).waitFor();
  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Build');

  const nav = page.getByRole('navigation', { name: 'Views' });
  const names = await nav.getByRole('link').allTextContents();
  assert.deepEqual(names, ['Build', 'Check', 'Race', 'Scale', 'Learn']);

  for (const view of ['Check', 'Race', 'Scale', 'Learn', 'Build']) {
    await nav.getByRole('link', { name: view }).click();
    await page.waitForURL(`**/#/${view.toLowerCase()}`);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), view);
    assert.equal(await nav.locator('[aria-current="page"]').textContent(), view);
  }

  await page.goBack();
  await page.waitForURL('**/#/learn');
  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Learn');

  const footer = await page.locator('footer').textContent();
  assert.match(footer, /patchlab v\d+\.\d+\.\d+/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a deep link opens its view directly', async () => {
  const page = await openPage(browser);
  await page.goto(`${server.url}#/scale`);
  await page.getByRole('heading', { level: 1, name: 'Scale' }).waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

for (const colorScheme of ['light', 'dark']) {
  test(`renders in ${colorScheme} mode (screenshot in target/e2e/)`, async () => {
    const page = await openPage(browser, { colorScheme });
    await page.goto(`${server.url}#/build`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const dark = colorScheme === 'dark';
    // The dark palette's background is near-black, the light one near-white.
    const [r, g, b] = background.match(/\d+/g).map(Number);
    assert.equal(r + g + b < 200, dark, `body background ${background} in ${colorScheme} mode`);
    await screenshot(page, `shell-${colorScheme}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}
