// Screenshots of the views this branch changed, light and dark at
// 1280x720 and at 375 px. Usage: node tests/e2e/shots-ui2.mjs OUTDIR
import { serveDist, launch } from './harness.mjs';
import { encodeLink } from './link.mjs';

const out = process.argv[2] ?? '/tmp/shots';
const server = await serveDist();
const browser = await launch();
const BARE_422 = 'The request is invalid: the server rejected our request due to an error in our request';
const PATCH = '[{"op":"test","path":"/metadata/labels","value":{"a":"1"}},{"op":"add","path":"/metadata/labels/b","value":"2"}]';
const OBJECT = '{"metadata":{"name":"x","labels":{"a":"1","c":"3"}}}';

const scenes = {
  'check-explain': { hash: `#/check?s=${encodeLink({ patch: PATCH, object: OBJECT, error: BARE_422 })}`, wait: '.explain-panel' },
  'check-undecided': { hash: `#/check?s=${encodeLink({ patch: '', error: BARE_422 })}`, wait: '.explain-panel' },
  'race': { hash: '#/race', wait: '.lanes' },
  'race-editor': { hash: `#/race?s=${encodeLink({ id: 'finalizer-race', step: 3, editing: true })}`, wait: '.writer-card' },
  'race-interleaving': { hash: `#/race?s=${encodeLink({ id: 'migration-race', interleaving: 3, preset: 'kubevirt-main', step: 5, explore: true })}`, wait: '.story-card' },
  'scale': { hash: '#/scale', wait: '.run-summary' },
  'build': { hash: '#/build', wait: '.ops' },
  'learn': { hash: '#/learn', wait: 'h1' },
};

const sizes = {
  'light-1280': { viewport: { width: 1280, height: 720 }, colorScheme: 'light' },
  'dark-1280': { viewport: { width: 1280, height: 720 }, colorScheme: 'dark' },
  'light-375': { viewport: { width: 375, height: 740 }, colorScheme: 'light', isMobile: true },
};

const only = process.argv[3]?.split(',');
for (const [name, scene] of Object.entries(scenes)) {
  if (only && !only.includes(name)) continue;
  for (const [size, options] of Object.entries(sizes)) {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}${scene.hash}`);
    await page.locator(scene.wait).first().waitFor({ timeout: 60_000 });
    await page.waitForTimeout(name.startsWith('scale') ? 1500 : 400);
    const file = `${out}/${name}-${size}.png`;
    await page.screenshot({ path: file, fullPage: size !== 'light-375' || name.startsWith('race') === false });
    console.log(file, errors.length ? `ERRORS: ${errors.join('; ')}` : '');
    await context.close();
  }
}
await browser.close();
await server.close();
