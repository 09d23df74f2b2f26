// A keystroke in a 184-line VMI to new results (tests/fixtures/vmi-184.yaml
// in both editors, a label value typed into the new one, one character at a
// time): from the keydown to the moment the result columns show the new
// value and are no longer marked busy, in the page's own clock. A
// benchmark: it prints p50/p95/max and the longest task seen while typing
// (PerformanceObserver `longtask`, over 50 ms); goal: p95 <= 16 ms, no long
// task. It fails only if results never come.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { browser, openPage, root, server, useServerAndBrowser } from './harness.mjs';

useServerAndBrowser();

const KEYS = 40;

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

test('bench: a keystroke in the 184-line VMI reaches new results', async () => {
  const vmi = await readFile(join(root, 'tests', 'fixtures', 'vmi-184.yaml'), 'utf8');
  assert.equal(vmi.trimEnd().split('\n').length, 184);
  const page = await openPage(browser);
  await page.goto(server.url);
  const live = '#app:not([data-prerendered])';
  await page.locator(`${live} article.column ol.ops`).first().waitFor({ timeout: 60_000 });
  await page.locator('#old-object').fill(vmi);
  await page.locator('#new-object').fill(vmi.replace('phase: Running', 'phase: Succeeded'));
  await page.waitForFunction(
    () => document.querySelector('.results')?.getAttribute('aria-busy') === 'false' && document.querySelector('.results').textContent.includes('Succeeded'),
    null,
    { timeout: 60_000 },
  );
  await page.evaluate(() => {
    const m = (window.__keys = { times: [], longest: 0, longTasks: 0, expect: null, t0: 0 });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (!m.typing) continue;
        m.longTasks += 1;
        m.longest = Math.max(m.longest, e.duration);
      }
    }).observe({ type: 'longtask' });
    document.addEventListener('keydown', () => { m.t0 = performance.now(); }, true);
    const results = document.querySelector('.results');
    const check = () => {
      if (m.expect === null) return;
      if (results.getAttribute('aria-busy') === 'false' && results.textContent.includes(m.expect)) {
        m.times.push(performance.now() - m.t0);
        m.expect = null;
      }
    };
    new MutationObserver(check).observe(results, { subtree: true, childList: true, characterData: true, attributes: true });
    const editor = document.querySelector('#new-object');
    const at = editor.value.indexOf('tier: frontend') + 'tier: frontend'.length;
    editor.focus();
    editor.setSelectionRange(at, at);
    m.typing = true;
  });
  for (let i = 1; i <= KEYS; i++) {
    await page.evaluate((n) => { window.__keys.expect = `"frontend${'a'.repeat(n)}"`; }, i);
    await page.keyboard.press('a');
    await page.waitForFunction((n) => window.__keys.times.length >= n, i, { timeout: 10_000 });
  }
  const m = await page.evaluate(() => window.__keys);
  const sorted = [...m.times].sort((a, b) => a - b);
  const [p50, p95, max] = [percentile(sorted, 50), percentile(sorted, 95), sorted.at(-1)];
  console.log(
    `BENCH keystroke (184-line VMI, ${KEYS} keys): p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, max ${max.toFixed(1)} ms; ` +
      `${m.longTasks} long task(s) while typing, longest ${m.longest.toFixed(0)} ms; goal p95 <= 16 ms, no long task`,
  );
  console.log(`BENCH-JSON ${JSON.stringify({ case: 'keystroke', p50, p95, max, longTasks: m.longTasks, longest: m.longest })}`);
  assert.equal(m.times.length, KEYS);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
