// The JavaScript package and its embed example (dist/embed.html, dist/pkg/):
// the example renders live ops for two presets, the module throws the
// documented errors in a real page, and its TypeScript declarations compile.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { openPage, screenshot, root, server, browser, useServerAndBrowser } from './harness.mjs';

useServerAndBrowser();

test('embed.html shows the ops of two presets and follows edits', async () => {
  const page = await openPage(browser);
  await page.goto(`${server.url}embed.html`);
  const head = page.getByRole('region', { name: 'kubevirt-main' });
  const pr = page.getByRole('region', { name: 'kubevirt-per-key' });
  await head.waitFor();
  assert.match(await head.locator('h2').textContent(), /^kubevirt-main: 2 ops, \d+ bytes$/);
  assert.deepEqual(await head.locator('li .op').allTextContents(), ['test', 'replace']);
  assert.match(await head.locator('li code').first().textContent(), /^\/metadata\/labels \{"kubevirt.io\/nodeName":"node01"\}$/);
  assert.deepEqual(await pr.locator('li .op').allTextContents(), ['add']);
  assert.equal(
    await pr.locator('li code').textContent(),
    '/metadata/labels/kubevirt.io~1migrationTargetNodeName "node02"',
  );
  assert.match(await pr.textContent(), /nothing: it tests nothing/);
  await screenshot(page, 'embed');

  // An edit recomputes; a syntax error is shown and the last ops stay.
  const edited = (await page.locator('#new').inputValue()).replace('node02', 'node09');
  await page.locator('#new').fill(edited);
  await pr.locator('li code').filter({ hasText: '"node09"' }).waitFor();
  await page.locator('#new').fill('metadata: [1, 2\n');
  const error = page.getByRole('alert');
  await error.waitFor();
  assert.match(await error.textContent(), /^new: line 2, column 1: /);
  assert.equal(await pr.locator('li code').textContent(), '/metadata/labels/kubevirt.io~1migrationTargetNodeName "node09"');
  assert.deepEqual(page.errors, [], 'no CSP violation, no exception');
  await page.context().close();
});

test('the module throws PatchlabErrors with the op index, path and status', async () => {
  const page = await openPage(browser);
  await page.goto(`${server.url}embed.html`);
  await page.getByRole('region', { name: 'kubevirt-main' }).waitFor();
  const errors = await page.evaluate(async () => {
    const api = await import('./pkg/patchlab.js');
    const caught = (f) => {
      try {
        f();
        return null;
      } catch (e) {
        return { isError: e instanceof Error, name: e.name, kind: e.kind, index: e.index, path: e.path, status: e.status, message: e.message };
      }
    };
    return {
      test: caught(() => api.applyPatch({ a: { b: 1, c: 2 } }, [{ op: 'add', path: '/x', value: 1 }, { op: 'test', path: '/a', value: { b: 1 } }])),
      pointer: caught(() => api.buildPatch([{ op: 'add', path: 'metadata/labels', value: {} }])),
      type: caught(() => api.diff(42, {})),
      empty: caught(() => api.buildPatch([])),
      ok: api.applyPatch({ a: 1 }, '[{"op":"replace","path":"/b","value":2}]'),
    };
  });
  assert.deepEqual(errors.test, {
    isError: true, name: 'PatchlabError', kind: 'test-failed', index: 1, path: '/a', status: 422,
    message: errors.test.message,
  });
  assert.match(errors.test.message, /^op 1 \(test "\/a"\): test failed/);
  assert.equal(errors.pointer.kind, 'invalid-pointer');
  assert.equal(errors.pointer.index, 0);
  assert.equal(errors.type.kind, 'diff-failed');
  assert.equal(errors.empty.message, 'list of patches is empty');
  assert.deepEqual(errors.ok, { a: 1, b: 2 }, 'kube semantics: replace of a missing member adds it');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the TypeScript declarations compile and refuse wrong uses (tsc --strict)', async () => {
  const tsc = join(root, 'tests', 'e2e', 'node_modules', '.bin', 'tsc');
  const args = [
    '--noEmit', '--strict', '--target', 'es2022', '--module', 'esnext', '--moduleResolution', 'bundler',
    '--lib', 'es2022,dom', '--skipLibCheck', 'false', join(root, 'tests', 'e2e', 'types', 'usage.ts'),
  ];
  const { stdout, stderr } = await promisify(execFile)(tsc, args, { cwd: root }).catch((e) => {
    assert.fail(`tsc found type errors:\n${e.stdout}${e.stderr}`);
  });
  assert.equal(`${stdout}${stderr}`.trim(), '');
});
