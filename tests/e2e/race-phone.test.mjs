// A shared Race link on a 375 px phone: it opens at its step (a step past
// the end at the last one), the lanes scrolled to the current event and in
// view, and the lanes follow the step; each writer has its own colour.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, server, browser, useServerAndBrowser, screenshot } from './harness.mjs';
import { encodeLink } from './link.mjs';

useServerAndBrowser();

const phone = { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true };

/** Where the current event is, against the lanes' visible box and the window. */
const placement = (page) =>
  page.evaluate(() => {
    const lanes = document.getElementById('lanes');
    const current = lanes.querySelector('.ev.current');
    const outer = lanes.getBoundingClientRect();
    const inner = current.getBoundingClientRect();
    return {
      label: current.getAttribute('aria-label'),
      inLanes: inner.left >= outer.left - 1 && inner.right <= outer.right + 1,
      inWindow: inner.top >= 0 && inner.bottom <= window.innerHeight,
      scrolled: lanes.scrollLeft,
      wide: lanes.scrollWidth > lanes.clientWidth,
    };
  });

test('a Race link at the last step on a phone opens there, the current event in view', async () => {
  const page = await openPage(browser, phone);
  await page.goto(`${server.url}#/race`);
  const count = await page.locator('.step-count').textContent();
  const len = Number(count.match(/of (\d+)/)[1]);
  // A link with a step past the end opens at the last step.
  const link = encodeLink({ id: 'migration-race', step: len + 50 });
  await page.goto(`${server.url}#/race?s=${link}`);
  await page.reload();
  await page.locator('.step-count').filter({ hasText: `step ${len} of ${len}` }).waitFor();
  await page.locator('.ev.current').waitFor();
  // Let the reveal effects run.
  await page.waitForTimeout(300);
  const at = await placement(page);
  assert.match(at.label, new RegExp(`^Step ${len}: `));
  assert.ok(at.wide, 'on a phone the lanes are wider than the screen');
  assert.ok(at.inLanes, `the current event is scrolled into the lanes' view: ${JSON.stringify(at)}`);
  assert.ok(at.inWindow, `and the page opens with it on screen: ${JSON.stringify(at)}`);
  await screenshot(page, 'race-phone-last-step');
  // Back to the start with the keyboard: the lanes follow.
  await page.locator('body').press('Home');
  await page.locator('.step-count').filter({ hasText: `step 0 of ${len}` }).waitFor();
  await page.locator('body').press('ArrowRight');
  await page.locator('.step-count').filter({ hasText: `step 1 of ${len}` }).waitFor();
  await page.waitForTimeout(200);
  const first = await placement(page);
  assert.match(first.label, /^Step 1: /);
  assert.ok(first.inLanes, `the lanes followed back to step 1: ${JSON.stringify(first)}`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('every writer of a race has its own colour', async () => {
  const page = await openPage(browser);
  await page.goto(`${server.url}#/race`);
  await page.locator('.lane').first().waitFor();
  const colours = await page.evaluate(() =>
    [...document.querySelectorAll('.lane')].map((lane) => getComputedStyle(lane).getPropertyValue('--writer').trim()),
  );
  assert.ok(colours.length >= 2);
  assert.ok(colours.every((c) => c !== ''), JSON.stringify(colours));
  assert.equal(new Set(colours).size, colours.length, JSON.stringify(colours));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the Kubernetes select of Race says whether the release matters here', async () => {
  const page = await openPage(browser);
  await page.goto(`${server.url}#/race`);
  const note = page.locator('.kube-note');
  await note.waitFor();
  const text = await note.textContent();
  const marked = await page.locator('select option').filter({ hasText: 'answers differently' }).count();
  if (marked === 0) assert.equal(text, 'Every release gives the same answer here.');
  else assert.match(text, new RegExp(`^${marked} releases? answers? differently from 1\\.\\d+ \\(marked\\)\\.$`));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
