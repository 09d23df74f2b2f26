// Race, Scale and Learn views: the lesson this project exists to teach.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, screenshot, server, browser, useServerAndBrowser } from './harness.mjs';

useServerAndBrowser();

async function stepTo(page, n) {
  await page.getByRole('button', { name: `Step ${n}:`, exact: false }).click();
  await page.locator('.step-count').filter({ hasText: `step ${n} of` }).waitFor();
}

test('race: the controller gets 422 at /metadata/labels under head, 200 under PR #18139', async () => {
  const page = await openPage(browser);
  await page.goto(`${server.url}#/race`);
  await page.getByRole('combobox', { name: 'Preset for writers' }).selectOption('kubevirt-main');
  await stepTo(page, 4);
  const detail = page.getByRole('article', { name: 'Current step' });
  assert.match(await detail.locator('h2').first().textContent(), /Step 4: virt-controller write/);
  assert.equal(await detail.locator('.response h3').textContent(), 'Response: 422 Invalid');
  assert.match(await detail.locator('.response q').textContent(), /the server rejected our request due to an error in our request/);
  assert.equal(await detail.locator('.hidden-cause dd code').first().textContent(), '/metadata/labels');
  assert.equal(await detail.locator('.op.failing .op-path').textContent(), '/metadata/labels');
  // Two verdicts: the request's (its whole-map test saw a real change) and
  // the intent's (the label it meant to set was never touched).
  assert.match(await detail.locator('.class-note').first().textContent(), /^True conflict \(judged on the request\): /);
  assert.match(await detail.locator('.class-note.warn').textContent(), /^Needless failure \(judged on the intent\): /);
  await screenshot(page, 'race-head-422');

  await page.getByRole('combobox', { name: 'Preset for writers' }).selectOption('kubevirt-per-key');
  await page.locator('.response h3').filter({ hasText: 'Response: 200 OK' }).waitFor();
  assert.equal(await detail.locator('.op.failing').count(), 0);
  // Compare mode: every preset on the same timeline.
  await page.getByRole('button', { name: 'Compare presets' }).click();
  const naive = page.locator('.compare tr').filter({ hasText: 'naive' });
  assert.equal(await naive.locator('td').nth(5).textContent(), '2virt-handler 2', 'naive loses two of virt-handler\'s changes, and says whose');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('race: play, scrub, explore, and edit the timeline', async () => {
  const page = await openPage(browser);
  await page.goto(`${server.url}#/race`);
  await page.getByRole('combobox', { name: 'Speed' }).selectOption('350');
  await page.getByRole('button', { name: 'Play' }).click();
  const len = Number((await page.locator('.step-count').textContent()).match(/of (\d+)/)[1]);
  await page.locator('.step-count').filter({ hasText: `step ${len} of ${len}` }).waitFor({ timeout: 10_000 });
  await page.getByRole('button', { name: 'Play' }).waitFor();
  await page.getByRole('slider', { name: 'Timeline position' }).fill('2');
  await page.locator('.step-count').filter({ hasText: `step 2 of ${len}` }).waitFor();
  await page.getByRole('button', { name: 'Explore interleavings' }).click();
  await page.getByRole('heading', { name: /^Every interleaving \(\d+\), per preset$/ }).waitFor();
  await page.locator('.explorer tr').filter({ hasText: 'kubevirt-main' }).getByRole('button').first().click();
  // Opened at the step that shows it, not at the start; not "(edited)".
  await page.locator('.step-detail .response-bad').waitFor();
  assert.match(await page.getByRole('combobox', { name: 'Scenario' }).locator('option:checked').textContent(), /interleaving \d+ of \d+/);
  await page.getByText('Edit the writers and the timeline').click();
  await page.getByRole('button', { name: `Remove event ${len}` }).click();
  await page.locator('.step-count').filter({ hasText: `of ${len - 1}` }).waitFor();
  assert.match(await page.getByRole('combobox', { name: 'Scenario' }).locator('option:checked').textContent(), /edited/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

/** A chart's numbers from its accessible name: "Term: preset total (writer n, ...); preset 0; ...". */
async function counts(page, term) {
  const escaped = term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const label = await page.getByRole('img', { name: new RegExp(`^${escaped}: `) }).getAttribute('aria-label');
  return Object.fromEntries(
    label.slice(term.length + 2).split('; ').map((part) => {
      const [, preset, total, whose] = part.match(/^(\S+) (\d+)(?: \((.*)\))?$/);
      return [preset, { total: Number(total), whose: whose ?? '' }];
    }),
  );
}

const finished = (page, vms) =>
  page.locator('.run-summary').filter({ hasText: new RegExp(`^${vms.toLocaleString('en-US')} VMIs, .* simulated writes in \\d+ ms\\.$`) }).waitFor({ timeout: 60_000 });

test('scale: runs on arrival, 2000 VMIs under every preset, charted', async () => {
  const page = await openPage(browser);
  await page.goto(`${server.url}#/scale`);
  // No Run button to find: the view runs at once, in the worker.
  await finished(page, 2000);
  assert.equal(await page.locator('figure.chart').count(), 9);
  const maps = await counts(page, 'Needless failures on maps');
  assert.equal(maps['kubevirt-per-key'].total, 0);
  assert.ok(maps['kubevirt-main'].total > 1000, JSON.stringify(maps));
  assert.doesNotMatch(maps['kubevirt-main'].whose, /virt-handler/, 'virt-handler sends Update: no test, no map conflict');
  const all = await counts(page, 'Needless failures (intent)');
  assert.ok(all['kubevirt-per-key'].total < all['kubevirt-main'].total, JSON.stringify(all));
  // What is left under per-key is virt-handler's: its Update gets 409 when a controller wrote first.
  assert.match(all['kubevirt-per-key'].whose, /^virt-handler \d+$/, JSON.stringify(all));
  const lost = await counts(page, 'Lost updates');
  assert.ok(lost.naive.total > 0, JSON.stringify(lost));
  assert.equal(lost['kubevirt-per-key'].total, 0);
  await screenshot(page, 'scale-2000');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('scale: the sliders re-run, churn adds writers, Stop keeps the counts so far, links give the same numbers', async () => {
  const page = await openPage(browser);
  await page.goto(`${server.url}#/scale`);
  await finished(page, 2000);
  // Keyboard on the VMI slider: one stop down is 1000.
  const vmis = page.getByRole('slider', { name: 'VMIs (slider)' });
  await vmis.focus();
  await page.keyboard.press('ArrowLeft');
  await finished(page, 1000);
  assert.equal(await page.getByRole('spinbutton', { name: 'VMIs' }).inputValue(), '1000');
  const before = await counts(page, 'Needless failures (intent)');
  // Two churn writers: each changes a label of its own, and the whole-map
  // tests of the controllers fail on them too.
  const churn = page.getByRole('slider', { name: 'Churn (extra writers per VMI)' });
  await churn.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.locator('.run-summary').filter({ hasText: 'churn 2' }).filter({ hasText: / ms\.$/ }).waitFor({ timeout: 60_000 });
  assert.match(await page.locator('.chart-legend').textContent(), /churn-1.*churn-2/);
  const after = await counts(page, 'Needless failures (intent)');
  assert.ok(after['kubevirt-main'].total > before['kubevirt-main'].total, `${JSON.stringify(before)} ${JSON.stringify(after)}`);
  assert.equal(after['kubevirt-per-key'].total - before['kubevirt-per-key'].total >= 0, true);
  // The inputs are in the link: the same numbers come back in a new page.
  await page.waitForFunction(() => /#\/scale\?s=1\./.test(location.hash));
  const url = page.url();
  const again = await openPage(browser);
  await again.goto(url);
  await again.locator('.run-summary').filter({ hasText: 'churn 2' }).filter({ hasText: / ms\.$/ }).waitFor({ timeout: 60_000 });
  const label = (p) => p.getByRole('img', { name: /^Needless failures on maps: / }).getAttribute('aria-label');
  assert.equal(await label(again), await label(page), 'a shared Scale link runs again to the same numbers');
  assert.deepEqual(again.errors, []);
  await again.context().close();
  // A big run streams partial counts and stops on request, keeping them.
  // A heavy setting says how long it takes here (from the last run's
  // speed) and waits for Run.
  await page.getByRole('spinbutton', { name: 'VMIs' }).fill('100000');
  await page.locator('.held-run').getByText(/^This setting takes about [\d.]+ (s|min \d+ s) here \(the last run, 1,000 VMIs at churn 2, took [\d.]+ s\)\.$/).waitFor();
  assert.equal(await page.locator('progress').count(), 0, 'held: not running');
  await page.getByRole('button', { name: 'Run it' }).click();
  await page.locator('progress').waitFor();
  await page.locator('.progress-box .estimate').waitFor();
  await page.locator('.run-summary').filter({ hasText: /^So far: the first [\d,]+ of 100,000 VMIs/ }).waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Stop' }).click();
  // Stopped: it names what it ran.
  await page.getByText(/^Stopped: it ran the first [\d,]+ of 100,000 VMIs under every preset; the charts show those\./).waitFor();
  assert.equal(await page.locator('figure.chart').count(), 9, 'the counts so far stay charted');
  assert.equal(await page.locator('progress').count(), 0);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('learn: walk the mass-migration race end to end, reach the failing test', async () => {
  const page = await openPage(browser);
  await page.goto(`${server.url}#/learn`);
  await page.getByRole('link', { name: /The mass-migration race/ }).click();
  const titles = [];
  for (;;) {
    const title = await page.getByRole('heading', { level: 2 }).first().textContent();
    titles.push(title);
    if (title === 'The whole-map test fails, though no label it changes was touched') {
      const live = page.getByLabel('Live example');
      assert.match(await live.textContent(), /422 Invalid: the server rejected our request/);
      assert.match(await live.textContent(), /test failed/);
      await screenshot(page, 'learn-race-step');
    }
    const next = page.getByRole('link', { name: 'Next →' });
    if ((await next.count()) === 0) break;
    await next.click();
    await page.waitForFunction((previous) => document.querySelector('#step-title')?.textContent !== previous, title);
  }
  assert.deepEqual(titles, [
    'Two writers, one VMI',
    'Each writer works from its informer cache',
    'The whole-map test fails, though no label it changes was touched',
    'And it takes the rest of the patch with it',
    'The retry lands later',
    'At scale',
  ]);
  await page.getByRole('link', { name: 'Open in Scale' }).click();
  await page.getByRole('heading', { level: 1, name: 'Scale' }).waitFor();
  // "Open in Scale" runs.
  await page.locator('.run-summary').waitFor({ timeout: 60_000 });
  // Every step has its own link.
  await page.goto(`${server.url}#/learn?w=per-key&step=3`);
  await page.getByRole('heading', { name: 'Hazard 2, removing a key someone already removed fails' }).waitFor();
  await page.getByRole('link', { name: 'Open in Race' }).click();
  await page.locator('.response h3').filter({ hasText: '422' }).waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

for (const colorScheme of ['light', 'dark']) {
  test(`race and learn screenshots, ${colorScheme}`, async () => {
    const page = await openPage(browser, { colorScheme });
    await page.goto(`${server.url}#/learn?w=migration-race&step=2`);
    await page.getByRole('link', { name: 'Open in Race' }).click();
    await page.locator('.response h3').waitFor();
    await screenshot(page, `race-${colorScheme}`);
    await page.goto(`${server.url}#/learn?w=migration-race&step=2`);
    await page.getByRole('heading', { level: 2 }).first().waitFor();
    await screenshot(page, `learn-${colorScheme}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}
