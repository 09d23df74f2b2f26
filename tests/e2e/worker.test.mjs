// Scale's simulator from the release build, in the engines' worker: it
// loads under the page's CSP, answers the protocol of src/engines.rs (a
// `scale` question, answered in parts) with the golden numbers, is cached
// for offline use, and reports how fast it runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openPage, distDir, root, server, browser, useServerAndBrowser } from './harness.mjs';

useServerAndBrowser();

/**
 * Asks one `scale` question of an engines' worker of its own (started as
 * the boot script starts the page's: the compiled module its first
 * message), and resolves with every reply. Nothing is asked before the
 * worker says it is ready.
 */
function runInWorker(page, options, { cancelAfterFirst = false } = {}) {
  return page.evaluate(
    async ({ options, cancelAfterFirst }) => {
      const module = await WebAssembly.compileStreaming(fetch('./engine-worker_bg.wasm'));
      return new Promise((resolve, reject) => {
        const engine = new Worker('./engine-worker_loader.js');
        const started = performance.now();
        const answers = [];
        let quiet;
        const done = (result) => {
          clearTimeout(quiet);
          engine.terminate();
          resolve(result);
        };
        engine.addEventListener('error', (e) => reject(new Error(`worker error: ${e.message}`)));
        engine.addEventListener('message', (e) => {
          const message = JSON.parse(e.data);
          if (message.ready) {
            engine.postMessage(JSON.stringify({ ask: 'scale', rev: 1, question: { options }, seq: 1 }));
            return;
          }
          answers.push(message);
          if (cancelAfterFirst) {
            // Parts already on their way may follow the cancel; once it is
            // read, none does: done when a second passes without one.
            if (answers.length === 1) engine.postMessage(JSON.stringify({ cancel: 'scale' }));
            clearTimeout(quiet);
            quiet = setTimeout(() => done({ answers, wall: performance.now() - started }), 1000);
          }
          if (!message.more && !cancelAfterFirst) done({ answers, wall: performance.now() - started });
        });
        engine.postMessage(module);
      });
    },
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
  assert.equal(done.answered, 'scale', JSON.stringify(done).slice(0, 300));
  assert.ok(!done.more && done.rev === 1 && done.seq === 1);
  assert.deepEqual(done.answer.result, golden);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the worker streams progress, cancels, and refuses bad options', async () => {
  const page = await openPage(browser);
  await page.goto(`${server.url}#/scale`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  // The heaviest run there is (many seconds): it cannot end before the
  // cancel is read.
  const { answers } = await runInWorker(page, { vms: 100000, churn: 8, retries: 8 }, { cancelAfterFirst: true });
  assert.ok(answers[0].more, 'a first part');
  assert.equal(answers[0].answer.total, 700000);
  assert.ok(answers[0].answer.vmis > 0);
  assert.ok(answers.every((a) => a.more), 'the run never finished: the cancel stopped it');
  assert.ok(answers.at(-1).answer.done < 700000, `stopped at ${answers.at(-1).answer.done} of 700,000`);
  const bad = await runInWorker(page, { vms: 10, churn: 99 });
  assert.deepEqual(bad.answers.at(-1).refused, { Churn: 99 });
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
    // The best of three runs, each in a fresh worker (load time excluded:
    // elapsed_ms counts simulation only; wall includes the worker's start).
    let best = Infinity;
    let wall = Infinity;
    let requests = 0;
    for (let i = 0; i < 3; i++) {
      const run = await runInWorker(page, { vms });
      const done = run.answers.at(-1);
      assert.ok(done.answer && !done.more, JSON.stringify(done).slice(0, 300));
      best = Math.min(best, done.answer.elapsed_ms);
      wall = Math.min(wall, run.wall);
      requests = done.answer.result.presets.reduce((n, p) => n + p.total.writes, 0);
    }
    console.log(`BENCH worker ${vms} VMIs x 7 presets: ${best.toFixed(0)} ms simulating (${wall.toFixed(0)} ms from the worker's start to done), ${requests} requests`);
  }
  await page.context().close();
});
