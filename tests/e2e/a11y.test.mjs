// Accessibility audit: axe-core on every view and its main states, in the
// light and the dark theme. Serious and critical violations fail the test
// (with the rule, the elements and axe's advice); minor and moderate ones
// are printed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { openPage, server, browser, useServerAndBrowser } from './harness.mjs';

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

useServerAndBrowser();

/** Runs axe on the page; returns the violations as readable lines. */
async function audit(page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: axePath });
  const violations = await page.evaluate(async () => {
    // eslint-disable-next-line no-undef
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')}: ${n.failureSummary.replace(/\s+/g, ' ')}`),
      more: Math.max(0, v.nodes.length - 5),
    }));
  });
  const lines = (list) =>
    list.map((v) => `${v.impact} ${v.id} (${v.help})\n    ${v.nodes.join('\n    ')}${v.more ? `\n    and ${v.more} more` : ''}`);
  const grave = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const mild = violations.filter((v) => !grave.includes(v));
  return { grave: lines(grave), mild: lines(mild) };
}

/** Each view in the states a user sees most, as set-up steps. */
const states = {
  'build, seed example': async (page) => {
    await page.goto(`${server.url}#/build`);
    await page.getByRole('article', { name: /^Column 1:/ }).locator('.ops').waitFor();
  },
  'build, parse error and fields table': async (page) => {
    await page.goto(`${server.url}#/build`);
    await page.getByRole('article', { name: /^Column 1:/ }).locator('.ops').waitFor();
    await page.getByRole('textbox', { name: 'New object' }).fill('metadata:\n  labels: [1, 2\n');
    await page.locator('.parse-error').first().waitFor();
  },
  'check, findings with the fix shown': async (page) => {
    await page.goto(`${server.url}#/check`);
    await page.getByRole('button', { name: 'Use the fix' }).first().click();
    await page.locator('.fix-panel').waitFor();
    await page.locator('.why summary').first().click();
  },
  'check, an object, the outcome and a parse error': async (page) => {
    await page.goto(`${server.url}#/check`);
    await page.getByRole('combobox', { name: 'Example' }).selectOption('float-test');
    await page.getByRole('region', { name: 'Does it apply now?' }).waitFor();
    await page.getByRole('textbox', { name: 'Current object', exact: true }).fill('metadata: [');
    await page.locator('#check-object-error').waitFor();
  },
  'check, a merge patch': async (page) => {
    await page.goto(`${server.url}#/check`);
    await page.getByRole('combobox', { name: 'Example' }).selectOption('merge-drops-finalizer');
    await page.locator('.body-findings').waitFor();
  },
  'race, failing test and compare': async (page) => {
    await page.goto(`${server.url}#/race`);
    await page.getByRole('combobox', { name: 'Preset for writers' }).selectOption('kubevirt-main');
    await page.getByRole('button', { name: 'Step 4:', exact: false }).click();
    await page.locator('.response h3').filter({ hasText: '422' }).waitFor();
    await page.getByRole('button', { name: 'Compare presets' }).click();
    await page.locator('.compare tr').first().waitFor();
  },
  'race, explorer': async (page) => {
    await page.goto(`${server.url}#/race`);
    await page.getByRole('button', { name: 'Explore interleavings' }).click();
    await page.getByRole('heading', { name: /Every interleaving/ }).waitFor();
  },
  'scale, charts': async (page) => {
    await page.goto(`${server.url}#/scale`);
    await page.getByRole('spinbutton', { name: 'VMIs' }).fill('200');
    await page.locator('.run-summary').filter({ hasText: /^200 VMIs, .* ms\.$/ }).waitFor({ timeout: 60_000 });
  },
  'learn, index': async (page) => {
    await page.goto(`${server.url}#/learn`);
    await page.getByRole('link', { name: /The mass-migration race/ }).waitFor();
  },
  'embed example (dist/embed.html)': async (page) => {
    await page.goto(`${server.url}embed.html`);
    await page.getByRole('region', { name: 'kubevirt-main' }).waitFor();
  },
  'learn, a step with its live example': async (page) => {
    await page.goto(`${server.url}#/learn?w=migration-race&step=3`);
    await page.getByLabel('Live example').waitFor();
  },
};

for (const colorScheme of ['light', 'dark']) {
  test(`no serious or critical accessibility violations, ${colorScheme}`, async () => {
    // axe is injected as a script: the test context may bypass the CSP
    // (the CSP itself is tested in hardening.test.mjs).
    const page = await openPage(browser, { colorScheme, bypassCSP: true });
    const failures = [];
    for (const [name, setUp] of Object.entries(states)) {
      await setUp(page);
      const { grave, mild } = await audit(page);
      for (const line of mild) console.log(`# ${colorScheme}, ${name}: ${line}`);
      if (grave.length) failures.push(`${name}:\n  ${grave.join('\n  ')}`);
    }
    assert.deepEqual(failures, [], `${colorScheme}:\n${failures.join('\n')}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}
