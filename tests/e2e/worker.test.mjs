// Scale's simulator from the release build, served in the engines' worker
// on a channel the page hands over (src/app/scale_worker.rs): it loads under
// the page's CSP, answers the protocol of src/sim/scale.rs with the golden
// numbers, is cached for offline use, and reports how fast it runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openPage, distDir, root, server, browser, useServerAndBrowser } from './harness.mjs';

useServerAndBrowser();

/**
 * Runs one `start` on a fresh channel to the page's engines' worker (started
 * by the boot script's function, as the page starts it); resolves with every
 * answer. Nothing is sent before the worker, then the channel, said ready.
 */
function runInWorker(page, options, { cancelAfterFirst = false } = {}) {
  return page.evaluate(
    ({ options, cancelAfterFirst }) =>
      new Promise((resolve, reject) => {
        const engine = window.patchlabStartEngine();
        const started = performance.now();
        engine.addEventListener('error', (e) => reject(new Error(`worker error: ${e.message}`)));
        const connect = () => {
          const channel = new MessageChannel();
          const answers = [];
          channel.port1.onmessage = (e) => {
            const message = JSON.parse(e.data);
            if (message.type === 'ready') {
              channel.port1.postMessage(JSON.stringify({ type: 'start', id: 1, options }));
              return;
            }
            answers.push(message);
            if (cancelAfterFirst && answers.length === 1) channel.port1.postMessage(JSON.stringify({ type: 'cancel', id: 1 }));
            if (['done', 'cancelled', 'failed'].includes(message.type)) {
              channel.port1.close();
              resolve({ answers, wall: performance.now() - started });
            }
          };
          engine.postMessage('port', [channel.port2]);
        };
        if (engine.patchlabReady) {
          connect();
        } else {
          const once = (e) => {
            if (e.data !== '{"type":"ready"}') return;
            engine.removeEventListener('message', once);
            connect();
          };
          engine.addEventListener('message', once);
        }
      }),
    { options, cancelAfterFirst },
  );
}

test('the worker loads under the CSP and gives the golden numbers', async () => {
  const golden = JSON.parse(await readFile(join(root, 'tests', 'golden', 'migrate-50-seed-3.json'), 'utf8'));
  const page = await openPage(browser);
  await page.goto(`${server.url}#/scale`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  const { answers } = await runInWorker(page, { vms: 50, seed: 3 });
  const done = answers.at(-1);
  assert.equal(done.type, 'done', JSON.stringify(done).slice(0, 300));
  assert.equal(done.id, 1);
  assert.deepEqual(done.result, golden);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the worker streams progress, cancels, and refuses bad options', async () => {
  const page = await openPage(browser);
  await page.goto(`${server.url}#/scale`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  const { answers } = await runInWorker(page, { vms: 100000 }, { cancelAfterFirst: true });
  assert.equal(answers[0].type, 'progress');
  assert.equal(answers[0].total, 700000);
  assert.ok(answers[0].vmis > 0);
  assert.deepEqual(answers.at(-1), { type: 'cancelled', id: 1 });
  const bad = await runInWorker(page, { vms: 10, churn: 99 });
  assert.equal(bad.answers.at(-1).type, 'failed');
  assert.match(bad.answers.at(-1).message, /churn/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("the offline cache holds the worker files, and there is no worker of Scale's own", async () => {
  const sw = await readFile(join(distDir, 'sw.js'), 'utf8');
  for (const file of ['./engine-worker_loader.js', './engine-worker.js', './engine-worker_bg.wasm']) {
    assert.ok(sw.includes(JSON.stringify(file)), `${file} in sw.js`);
  }
  assert.ok(!sw.includes('scale-worker'), 'the simulator is fetched once, with the engines');
});

test('bench: 2000, 10,000 and 100,000 VMIs under all presets in the worker', async () => {
  const page = await openPage(browser);
  await page.goto(`${server.url}#/scale`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  for (const vms of [2000, 10000, 100000]) {
    // The best of three runs, each on a fresh channel (load time excluded:
    // elapsed_ms counts simulation only; wall includes the engines' loading
    // on the first run only).
    let best = Infinity;
    let wall = Infinity;
    let requests = 0;
    for (let i = 0; i < 3; i++) {
      const run = await runInWorker(page, { vms });
      const done = run.answers.at(-1);
      assert.equal(done.type, 'done');
      best = Math.min(best, done.elapsed_ms);
      wall = Math.min(wall, run.wall);
      requests = done.result.presets.reduce((n, p) => n + p.total.writes, 0);
    }
    console.log(`BENCH worker ${vms} VMIs x 7 presets: ${best.toFixed(0)} ms simulating (${wall.toFixed(0)} ms from the channel's opening to done), ${requests} requests`);
  }
  await page.context().close();
});
