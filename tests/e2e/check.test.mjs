// The Check view: every www/check example shows the findings it promises,
// on the ops; "Use the fix" shows the rewritten payload beside the patch
// and can be copied or put in the editor; kubectl commands; links that
// round trip or are damaged; keyboard only; phones; light and dark.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { openPage, root, screenshot, server, browser, useServerAndBrowser } from './harness.mjs';

useServerAndBrowser();

/**
 * The examples of www/check with their `expect` lists. The files write
 * each expected finding as one flow mapping (`- {rule: r, index: 0, path:
 * /p}`, see www/check/README.md); anything else under `expect:` fails here
 * rather than being skipped.
 */
function examples() {
  const dir = join(root, 'www', 'check');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((file) => {
      const text = readFileSync(join(dir, file), 'utf8');
      const [, tail] = text.split(/^expect:\n/m);
      assert.ok(tail, `${file}: no expect list`);
      const expect = tail
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => {
          const m = line.match(/^\s+- \{rule: ([a-z-]+), index: (null|\d+), path: (null|\S+)\}$/);
          assert.ok(m, `${file}: cannot read the expect line ${JSON.stringify(line)}`);
          return { rule: m[1], index: m[2] === 'null' ? null : Number(m[2]), path: m[3] === 'null' ? null : m[3] };
        });
      const title = text.match(/^title: (.*)$/m)[1];
      return { id: file.replace(/\.yaml$/, ''), title, expect };
    });
}

/** The findings the page shows: rule, op index (null for the body), path. */
async function shownFindings(page) {
  return page.locator('.check-results .diagnostic').evaluateAll((els) =>
    els
      .map((el) => {
        const op = el.closest('li.op');
        const own = el.querySelector('.finding-path code')?.textContent ?? null;
        return {
          rule: el.querySelector('.rule').textContent,
          index: op ? Number(op.querySelector('.op-index').textContent.replace('op ', '')) : null,
          path: own ?? op?.querySelector('.op-path')?.textContent ?? null,
        };
      })
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
  );
}

const sorted = (list) => [...list].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

/** Replaces an editor's text the way a user would. */
async function setEditor(page, name, text) {
  const editor = page.getByRole('textbox', { name, exact: true });
  await editor.click();
  await editor.press('Control+A');
  await editor.fill(text);
}

async function openCheck(page, hash = '#/check') {
  await page.goto(`${server.url}${hash}`);
  await page.getByRole('heading', { level: 1, name: 'Check' }).waitFor();
  await page.locator('.check-summary').waitFor();
}

test('every www/check example shows exactly the findings it promises, on its ops', async () => {
  const all = examples();
  assert.ok(all.length >= 5);
  const page = await openPage(browser);
  await openCheck(page);
  const menu = page.getByRole('combobox', { name: 'Example' });
  const options = await menu.locator('option').evaluateAll((els) => els.map((e) => e.value).filter(Boolean));
  assert.deepEqual(sorted(options), all.map((e) => e.id), 'the menu offers every example');
  for (const example of all) {
    await menu.selectOption(example.id);
    await page.getByRole('heading', { level: 2, name: example.title }).waitFor();
    assert.deepEqual(await shownFindings(page), sorted(example.expect), example.id);
    // Each finding says why, for a newcomer.
    const why = page.locator('.check-results .diagnostic .why').first();
    await why.locator('summary').click();
    assert.ok((await why.locator('p').first().textContent()).length > 80, `${example.id}: an explanation`);
  }
  // With the current object: whether it applies now, and what the server answers.
  await menu.selectOption('float-test');
  const outcome = page.getByRole('region', { name: 'Does it apply now?' });
  assert.match(await outcome.textContent(), /Does not apply now \(kube-apiserver\): op 0 \(\/spec\/replicas\) fails/);
  assert.match(await outcome.textContent(), /The server answers 422 Invalid/);
  await page.getByRole('button', { name: 'strict RFC 6902' }).click();
  await outcome.getByText('✓ Applies now (strict RFC 6902).').waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('use the fix: the rewritten payload beside the original, copied, then put in the editor and undone', async () => {
  const page = await openPage(browser, { permissions: ['clipboard-read', 'clipboard-write'] });
  await openCheck(page);
  const op0 = page.locator('.check-ops > li').first();
  await op0.getByRole('button', { name: 'Use the fix' }).click();
  const panel = page.getByRole('region', { name: /The fix for whole-map-test/ });
  await panel.waitFor();
  assert.equal(await page.evaluate(() => document.activeElement.id), 'fix-title', 'focus moves to the fix');
  const original = await panel.getByRole('region', { name: 'Your patch, as sent' }).textContent();
  const fixed = await panel.getByRole('region', { name: 'With the fix' }).textContent();
  assert.match(original, /removed: - \{"op":"test","path":"\/metadata\/labels"/);
  assert.match(fixed, /added: \+ \{"op":"add","path":"\/metadata\/labels\/kubevirt.io~1migrationTargetNodeName","value":"node02"\}/);
  await panel.getByRole('button', { name: 'Copy the fixed payload' }).click();
  await panel.getByRole('button', { name: 'Copied' }).waitFor();
  assert.equal(
    await page.evaluate(() => navigator.clipboard.readText()),
    '[{"op":"add","path":"/metadata/labels/kubevirt.io~1migrationTargetNodeName","value":"node02"}]',
  );
  await panel.getByRole('button', { name: 'Put it in the editor' }).click();
  await panel.waitFor({ state: 'detached' });
  const editor = page.getByRole('textbox', { name: 'Patch', exact: true });
  assert.equal(
    await editor.inputValue(),
    '[\n  {"op":"add","path":"/metadata/labels/kubevirt.io~1migrationTargetNodeName","value":"node02"}\n]\n',
  );
  assert.equal(await page.locator('.check-results .diagnostic.sev-warning').count(), 0, 'the warning is gone');
  assert.equal(await page.getByRole('heading', { level: 2 }).first().textContent(), 'Your patch');
  await page.getByRole('status').filter({ hasText: 'now holds the fix for whole-map-test' }).waitFor();
  await page.getByRole('button', { name: 'Undo' }).first().click();
  await page.getByRole('heading', { level: 2, name: "The seed's whole-map test" }).waitFor();
  assert.match(await editor.inputValue(), /"op": "test"/);
  // The fix is shown again; Close hides it and gives focus back to its button.
  await panel.getByRole('button', { name: 'Close' }).click();
  await panel.waitFor({ state: 'detached' });
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Use the fix');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a kubectl command from a runbook, quoting and line continuations included', async () => {
  const page = await openPage(browser);
  await openCheck(page);
  await setEditor(
    page,
    'Patch',
    `$ kubectl patch vmi testvmi \\\n    -n default --type=json -p \\\n    '[{"op": "add", "path": "/metadata/labels/kubevirt.io/nodeName", "value": "node02"},\n      {"op": "remove", "path": "/metadata/finalizers/0"}]'`,
  );
  await page.locator('.read-as').filter({ hasText: 'kubectl patch vmi testvmi' }).waitFor();
  assert.match(await page.locator('.read-as').textContent(), /Read a JSON patch of 2 ops from the -p argument of kubectl patch vmi testvmi: \d+ bytes as sent/);
  assert.deepEqual(await shownFindings(page), sorted([
    { rule: 'unescaped-slash', index: 0, path: '/metadata/labels/kubevirt.io/nodeName' },
    { rule: 'index-without-test', index: 1, path: '/metadata/finalizers/0' },
  ]));
  // A strategic merge patch to a custom resource is read, and answered 415.
  await setEditor(page, 'Patch', 'kubectl patch vmi testvmi \\\n  --type=strategic -p \'{"metadata":{}}\'');
  await page.locator('.read-as').filter({ hasText: 'strategic' }).waitFor();
  assert.deepEqual((await shownFindings(page)).map((f) => f.rule), ['smp-custom-resource']);
  // A command lint cannot use says what, on its line of the editor.
  await setEditor(page, 'Patch', 'kubectl patch vmi testvmi \\\n  --type=apply -p \'{"metadata":{}}\'');
  const error = page.locator('#check-patch-error');
  await error.waitFor();
  assert.match(await error.textContent(), /^line 2: kubectl refuses this command before sending anything: error: --type must be one of \[json merge strategic\], not "apply"/);
  assert.equal(await page.getByRole('textbox', { name: 'Patch', exact: true }).getAttribute('aria-invalid'), 'true');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a damaged link keeps the address and says so; nothing is changed', async () => {
  const page = await openPage(browser);
  const hash = '#/check?s=1.!!cut-off';
  await openCheck(page, hash);
  await page.getByRole('alert').filter({ hasText: 'cut off or damaged' }).waitFor();
  assert.match(await page.getByRole('alert').first().textContent(), /the link is still in the address bar/);
  assert.equal(await page.getByRole('heading', { level: 2 }).first().textContent(), "The seed's whole-map test");
  await page.waitForTimeout(600);
  assert.equal(await page.evaluate(() => location.hash), hash, 'the address keeps the link');
  // A link from a newer patchlab says so too.
  await page.goto(`${server.url}#/check?s=9.abc`);
  await page.getByRole('alert').filter({ hasText: 'newer version of patchlab' }).waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('share link round trip: the patch, the object, the engine and the fix shown', async () => {
  const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await context.newPage();
  await openCheck(page);
  await page.getByRole('combobox', { name: 'Example' }).selectOption('finalizer-by-index');
  await page.getByRole('heading', { level: 2, name: 'A finalizer removed by index' }).waitFor();
  await page.getByRole('button', { name: 'strict RFC 6902' }).click();
  await page.getByRole('button', { name: 'Use the fix' }).click();
  await page.locator('.fix-panel').waitFor();
  const patch = await page.locator('#check-patch').inputValue();
  const object = await page.locator('#check-object').inputValue();
  await page.getByRole('button', { name: 'Share link' }).click();
  await page.getByRole('toolbar').getByRole('button', { name: 'Copied' }).waitFor();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(link, /#\/check\?s=1\./);
  await context.close();

  const fresh = await openPage(browser);
  await fresh.goto(link);
  await fresh.locator('.fix-panel').waitFor();
  assert.equal(await fresh.locator('#check-patch').inputValue(), patch);
  assert.equal(await fresh.locator('#check-object').inputValue(), object);
  assert.equal(await fresh.getByRole('button', { name: 'strict RFC 6902' }).getAttribute('aria-pressed'), 'true');
  assert.match(await fresh.locator('#fix-title').textContent(), /index-without-test/);
  // And it is saved in this browser: a reload brings it back.
  await fresh.waitForTimeout(400);
  await fresh.goto(`${server.url}#/check`);
  await fresh.reload();
  await fresh.locator('.fix-panel').waitFor();
  assert.equal(await fresh.locator('#check-patch').inputValue(), patch);
  assert.deepEqual(fresh.errors, []);
  await fresh.context().close();
});

test('keyboard only: Tab reaches every control of the view and leaves it; f shows the fix', async () => {
  const page = await openPage(browser);
  await openCheck(page);
  await page.getByText('Why it matters').first().click(); // a summary opened: its text holds no control
  await page.locator('body').click({ position: { x: 1, y: 1 } });
  // Every control of the view, numbered.
  const controls = await page.locator('.view.check').evaluate((view) =>
    [...view.querySelectorAll('a[href], button, select, textarea, summary, [tabindex="0"]')]
      .filter((el) => el.offsetParent !== null)
      .map((el, i) => {
        el.dataset.kb = String(i);
        return `${i}: ${el.tagName.toLowerCase()} ${el.id || el.textContent.trim().slice(0, 30)}`;
      }),
  );
  assert.ok(controls.length > 10, controls.join('\n'));
  const reached = new Set();
  let leftTheView = false;
  for (let i = 0; i < 150 && !leftTheView; i++) {
    await page.keyboard.press('Tab');
    const at = await page.evaluate(() => {
      const el = document.activeElement;
      return { kb: el.dataset?.kb ?? null, footer: !!el.closest('footer'), editor: el.tagName === 'TEXTAREA' };
    });
    if (at.kb !== null) reached.add(Number(at.kb));
    if (at.footer) leftTheView = true;
    // An editor indents on Tab; Esc, then Tab, leaves it.
    if (at.editor) await page.keyboard.press('Escape');
  }
  assert.ok(leftTheView, 'Tab reaches the footer: no trap');
  assert.deepEqual(controls.filter((_, i) => !reached.has(i)), [], 'every control is reached');

  await page.locator('body').click({ position: { x: 1, y: 1 } });
  await page.keyboard.press('f');
  await page.locator('.fix-panel').waitFor();
  assert.equal(await page.evaluate(() => document.activeElement.id), 'fix-title');
  await page.keyboard.press('?');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts: Check' });
  await dialog.waitFor();
  assert.match(await dialog.textContent(), /Use the fix of the first finding that has one/);
  assert.match(await dialog.textContent(), /Esc, then Tab/);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('at 375 px nothing scrolls sideways, whatever is shown', async () => {
  const page = await openPage(browser, { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });
  const width = () => page.evaluate(() => document.documentElement.scrollWidth);
  for (const id of examples().map((e) => e.id)) {
    await openCheck(page);
    await page.getByRole('combobox', { name: 'Example' }).selectOption(id);
    await page.locator('.check-summary .counts').waitFor();
    const fix = page.getByRole('button', { name: 'Use the fix' }).first();
    if (await fix.count()) {
      await fix.click();
      await page.locator('.fix-panel').waitFor();
    }
    await page.locator('.why summary').first().click();
    assert.ok((await width()) <= 375, `${id}: the page is ${await width()}px wide on a 375px screen`);
  }
  await screenshot(page, 'check-phone');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

for (const colorScheme of ['light', 'dark']) {
  test(`Check view screenshots, ${colorScheme}`, async () => {
    const page = await openPage(browser, { colorScheme, viewport: { width: 1280, height: 720 } });
    await openCheck(page);
    await page.getByRole('button', { name: 'Use the fix' }).first().click();
    await page.locator('.fix-panel').waitFor();
    await screenshot(page, `check-${colorScheme}`);
    await page.getByRole('combobox', { name: 'Example' }).selectOption('float-test');
    await page.getByRole('region', { name: 'Does it apply now?' }).waitFor();
    await screenshot(page, `check-outcome-${colorScheme}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test('the Build view shows the same findings on the ops each strategy sends', async () => {
  const page = await openPage(browser);
  await page.goto(`${server.url}#/build`);
  const head = page.getByRole('article', { name: /^Column 1:/ });
  await head.locator('.ops').waitFor();
  const rules = await head.locator('.op').evaluateAll((ops) =>
    ops.map((op) => [...op.querySelectorAll('.diagnostic')].map((d) => `${d.querySelector('.severity').textContent.trim()} ${d.querySelector('.rule').textContent}`)),
  );
  assert.deepEqual(rules, [['▲ warning whole-map-test'], []], 'kubevirt-main: the whole-map test on op 0');
  const perKey = page.getByRole('article', { name: /^Column 2:/ });
  assert.equal(await perKey.locator('.diagnostic.sev-warning, .diagnostic.sev-error').count(), 0, 'PR #18139: nothing at warning or above');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('lint runs in the engines: none fetched for the examples, once for what is typed', async () => {
  // The Check module has no linter (#27): the examples carry their
  // findings, worked out when the playground was built; a text typed in
  // waits for the engines' module, then shows what lint found. (No
  // offline cache: it would fetch every module, the engines too, behind
  // the page's back.)
  const page = await openPage(browser, { serviceWorkers: 'block' });
  const fetched = [];
  page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
  await openCheck(page);
  const menu = page.getByRole('combobox', { name: 'Example' });
  await menu.selectOption('node-labels-shared');
  await page.getByRole('region', { name: 'Does it apply now?' }).waitFor();
  await menu.selectOption('float-test');
  await page.locator('.check-results[aria-busy="false"] .check-summary', { hasText: '2 errors' }).waitFor();
  assert.ok(!fetched.some((f) => /engine-worker/.test(f)), `no engines for the examples: ${fetched.join(' ')}`);

  const engines = page.waitForRequest((request) => /engine-worker_bg\.wasm$/.test(request.url()));
  await setEditor(page, 'Patch', '[{"op": "replace", "path": "/spec/replicas", "value": 3}]');
  await engines;
  await page.locator('.check-results[aria-busy="false"] .check-summary', { hasText: 'Read a JSON patch of 1 op' }).waitFor();
  await setEditor(page, 'Current object', 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n');
  const outcome = page.getByRole('region', { name: 'Does it apply now?' });
  await outcome.getByText(/Applies now \(kube-apiserver\)/).waitFor();
  assert.equal(await page.locator('.check-results').getAttribute('aria-busy'), 'false');
  // Not YAML: the editor says where, with what the engines found.
  await setEditor(page, 'Current object', 'metadata:\n  labels: [\n');
  const alert = page.locator('.pane').filter({ has: page.getByRole('textbox', { name: 'Current object', exact: true }) }).getByRole('alert');
  await alert.filter({ hasText: /line \d+, column \d+/ }).waitFor();
  assert.equal(await page.getByRole('textbox', { name: 'Current object', exact: true }).inputValue(), 'metadata:\n  labels: [\n');
  // A YAML patch, read the same way.
  await setEditor(page, 'Patch', '- op: remove\n  path: /metadata/labels/a\n');
  await setEditor(page, 'Current object', '');
  await page.locator('.check-results[aria-busy="false"] li.op .op-path', { hasText: '/metadata/labels/a' }).waitFor();
  const modules = fetched.filter((f) => /engine-worker_bg\.wasm$/.test(f));
  assert.equal(modules.length, 1, `the engines' module fetched once: ${fetched.join(' ')}`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a link opened in the open page is unpacked and checked; while the engines load, the note alone shows', async () => {
  const { encodeLink } = await import('./link.mjs');
  // No offline cache: it would fetch the engines past the hold below.
  const page = await openPage(browser, { serviceWorkers: 'block' });
  // The engines' module is held back until released: the wait is seen.
  let release;
  const held = new Promise((ok) => { release = ok; });
  await page.route(/engine-worker_bg\.wasm$/, async (route) => { await held; await route.continue(); });
  await openCheck(page);
  const patch = '[{"op": "replace", "path": "/spec/replicas", "value": 3}]';
  const object = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n';
  // Pasted into the address bar of the open page (a hashchange, no reload).
  await page.evaluate((hash) => { location.hash = hash; }, `#/check?s=${encodeLink({ patch, object })}`);
  const editor = page.getByRole('textbox', { name: 'Patch', exact: true });
  await page.waitForFunction((text) => document.querySelector('#check-patch')?.value === text, patch);
  assert.equal(await editor.inputValue(), patch);
  const results = page.locator('.check-results');
  await results.getByText("Checking… (the first time, this loads patchlab's engines)").waitFor();
  assert.equal(await results.getAttribute('aria-busy'), 'true');
  assert.equal(await results.getByText(/^Paste a JSON patch/).count(), 0, 'no prompt to paste what is already there');
  release();
  const outcome = page.getByRole('region', { name: 'Does it apply now?' });
  await outcome.getByText(/Applies now \(kube-apiserver\)/).waitFor();
  assert.equal(await results.getAttribute('aria-busy'), 'false');
  assert.equal(await results.locator('.stale-note').count(), 0);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('engines that cannot load: the results say why, nothing is busy, the texts stay', async () => {
  const page = await openPage(browser, { serviceWorkers: 'block' });
  await page.route(/engine-worker/, (route) => route.abort());
  await openCheck(page);
  const patch = '[{"op": "remove", "path": "/metadata/labels/a"}]';
  await setEditor(page, 'Patch', patch);
  const results = page.locator('.check-results');
  const alert = results.getByRole('alert');
  await alert.filter({ hasText: /^patchlab's engines could not check this: .+\. Your texts are kept\.$/ }).waitFor();
  assert.equal(await results.getAttribute('aria-busy'), 'false', 'nothing is on its way');
  assert.equal(await page.getByRole('textbox', { name: 'Patch', exact: true }).inputValue(), patch);
  // No findings of other texts under it; the examples still open with
  // their own (bundled) findings.
  assert.equal(await results.locator('.check-summary, .check-ops').count(), 0);
  await page.getByRole('combobox', { name: 'Example' }).selectOption('float-test');
  await results.locator('.check-summary', { hasText: '2 errors' }).waitFor();
  assert.equal(await alert.count(), 0);
  await page.context().close();
});
