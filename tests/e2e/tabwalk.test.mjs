// The keyboard walk: in every view, Tab visits every stop once around the
// page, and each stop is a control (a native one, or an element with a
// role) with an accessible name (as Chromium's accessibility tree computes
// it) and a visible focus ring. The editors' coloured layer (a scrollable
// `pre`, which Chromium would otherwise make focusable) is never a stop,
// and typing while it is focused fires no shortcut.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, server, browser, useServerAndBrowser } from './harness.mjs';
import { encodeLink } from './link.mjs';

useServerAndBrowser();

const NATIVE = new Set(['button', 'a', 'input', 'select', 'textarea', 'summary']);
// More stops than any view has: a walk that does not come back is a trap.
const MAX_STOPS = 400;

/** What the focused element is, as the walk checks it. */
async function describeFocus(page, cdp) {
  const info = await page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return null;
    const box = el.getBoundingClientRect();
    // The ring is the element's outline or shadow, or (for an editor's
    // textarea, which draws none) the editor's `:focus-within` outline.
    const ring = (node) => {
      const s = getComputedStyle(node);
      const outline = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2;
      return outline;
    };
    const editor = el.closest('.editor');
    const tag = el.tagName.toLowerCase();
    // The walk marks each stop: a second visit means it went round.
    const again = el.hasAttribute('data-walked');
    el.setAttribute('data-walked', '');
    return {
      again,
      key: `${tag}#${el.id}.${[...el.classList].join('.')}[${el.getAttribute('aria-label') ?? ''}]${(el.textContent ?? '').trim().slice(0, 40)}`,
      tag,
      role: el.getAttribute('role'),
      href: tag === 'a' ? el.getAttribute('href') : null,
      backdrop: el.classList.contains('backdrop'),
      visible: box.width > 0 && box.height > 0,
      ring: ring(el) || (editor !== null && ring(editor)),
    };
  });
  if (!info) return null;
  const handle = await cdp.send('Runtime.evaluate', { expression: 'document.activeElement' });
  const tree = await cdp.send('Accessibility.getPartialAXTree', {
    objectId: handle.result.objectId,
    fetchRelatives: false,
  });
  const node = tree.nodes.find((n) => !n.ignored) ?? tree.nodes[0];
  info.name = (node?.name?.value ?? '').trim();
  info.axRole = node?.role?.value ?? '';
  return info;
}

/** Tabs from the top of the page until focus comes back; returns the stops. */
async function walk(page) {
  const cdp = await page.context().newCDPSession(page);
  await page.evaluate(() => {
    document.activeElement?.blur?.();
    window.scrollTo(0, 0);
  });
  const stops = [];
  for (let i = 0; i < MAX_STOPS; i += 1) {
    // An editor's Tab indents; Esc then Tab leaves (the editor's own rule).
    if (await page.evaluate(() => document.activeElement?.tagName === 'TEXTAREA')) {
      await page.keyboard.press('Escape');
    }
    await page.keyboard.press('Tab');
    const info = await describeFocus(page, cdp);
    if (!info) continue;
    if (info.again) return stops;
    stops.push(info);
  }
  throw new Error(`Tab did not come back to the first stop within ${MAX_STOPS} presses`);
}

const views = {
  build: async (page) => {
    await page.goto(`${server.url}#/build`);
    await page.getByRole('article', { name: /^Column 1:/ }).locator('.ops').waitFor();
  },
  'build with a merge column and its body findings': async (page) => {
    const old = 'apiVersion: kubevirt.io/v1\nkind: VirtualMachineInstance\nmetadata:\n  name: testvmi\n  finalizers: [a]\n';
    const link = encodeLink({ old, new: old.replace('[a]', '[a, b]'), format: 'yaml', columns: [{ preset: 'kubevirt-main' }, { preset: 'merge' }] });
    await page.goto(`${server.url}#/build?s=${link}`);
    await page.locator('.body-findings').waitFor();
  },
  check: async (page) => {
    await page.goto(`${server.url}#/check`);
    await page.locator('#check-patch').waitFor();
  },
  race: async (page) => {
    await page.goto(`${server.url}#/race`);
    await page.locator('.step-count').waitFor();
  },
  'race with the editor, compare and the explorer open': async (page) => {
    const link = encodeLink({ id: 'finalizer-race', step: 2, editing: true, compare: true, explore: true });
    await page.goto(`${server.url}#/race?s=${link}`);
    await page.locator('.writer-card').first().waitFor();
    await page.locator('.explorer').waitFor();
  },
  'race replaying an interleaving': async (page) => {
    const link = encodeLink({ id: 'migration-race', interleaving: 2, preset: 'kubevirt-main', step: 3 });
    await page.goto(`${server.url}#/race?s=${link}`);
    await page.locator('.story-card').waitFor();
  },
  'check with an error explained': async (page) => {
    const link = encodeLink({ patch: '[{"op":"test","path":"/a","value":1}]', object: '{"a":2}', error: 'The request is invalid: the server rejected our request due to an error in our request' });
    await page.goto(`${server.url}#/check?s=${link}`);
    await page.locator('.explain-panel[aria-busy="false"]').waitFor();
  },
  scale: async (page) => {
    await page.goto(`${server.url}#/scale`);
    await page.getByRole('heading', { level: 1, name: 'Scale' }).waitFor();
  },
  learn: async (page) => {
    await page.goto(`${server.url}#/learn`);
    await page.getByRole('heading', { level: 1 }).waitFor();
  },
  'a learn step': async (page) => {
    await page.goto(`${server.url}#/learn?w=migration-race&step=2`);
    await page.getByRole('heading', { level: 2 }).first().waitFor();
  },
};

for (const [view, open] of Object.entries(views)) {
  test(`${view}: every Tab stop is a named control with a visible ring`, async () => {
    const page = await openPage(browser);
    await open(page);
    const stops = await walk(page);
    assert.ok(stops.length >= 5, `${view}: only ${stops.length} Tab stops`);
    const faults = [];
    for (const s of stops) {
      const control = NATIVE.has(s.tag) || (s.role !== null && s.role !== '');
      if (s.backdrop) faults.push(`${s.key}: the editor's coloured layer is a Tab stop`);
      if (!control) faults.push(`${s.key}: not a control (no native control, no role)`);
      if (!s.name) faults.push(`${s.key}: no accessible name (role ${s.axRole})`);
      if (!s.visible) faults.push(`${s.key}: focused but not visible`);
      if (!s.ring) faults.push(`${s.key}: no visible focus ring`);
    }
    assert.deepEqual(faults, [], `${view}: ${stops.length} stops\n${faults.join('\n')}`);
    console.log(`${view}: ${stops.length} Tab stops, each a named control with a ring`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test('the editor\'s coloured layer is no Tab stop, and keys there fire no shortcut', async () => {
  const page = await openPage(browser);
  await page.goto(`${server.url}#/build`);
  await page.locator('#old-object').waitFor();
  for (const backdrop of await page.locator('.editor pre.backdrop').all()) {
    assert.equal(await backdrop.getAttribute('tabindex'), '-1');
    assert.equal(await backdrop.getAttribute('aria-hidden'), 'true');
  }
  const before = {
    old: await page.locator('#old-object').inputValue(),
    theme: await page.evaluate(() => document.documentElement.dataset.theme ?? ''),
  };
  // Focus can still be put there by a script (or a click in some engines):
  // typing "status" must neither swap (s) nor switch the theme (t).
  await page.locator('.editor pre.backdrop').first().focus();
  await page.keyboard.type('status');
  assert.equal(await page.locator('#old-object').inputValue(), before.old, 's swapped old and new');
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme ?? ''), before.theme, 't switched the theme');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
