// Screenshots of every view, light and dark at 1280x720 and at 375 px,
// to look at after a UI change (not a test: it asserts nothing). Needs
// dist/ (make dist). Usage: node tests/e2e/shots.mjs OUTDIR [scene,...]
import { serveDist, launch } from './harness.mjs';
import { encodeLink } from './link.mjs';

const out = process.argv[2] ?? '/tmp/shots';
const server = await serveDist();
const browser = await launch();
const BARE_422 = 'The request is invalid: the server rejected our request due to an error in our request';
const PATCH = '[{"op":"test","path":"/metadata/labels","value":{"a":"1"}},{"op":"add","path":"/metadata/labels/b","value":"2"}]';
const OBJECT = '{"metadata":{"name":"x","labels":{"a":"1","c":"3"}}}';

const FINALIZERS_OLD = 'apiVersion: kubevirt.io/v1\nkind: VirtualMachineInstance\nmetadata:\n  name: testvmi\n  finalizers: [foregroundDeleteVirtualMachine]\n';
const FINALIZERS_NEW = FINALIZERS_OLD.replace('[foregroundDeleteVirtualMachine]', '[foregroundDeleteVirtualMachine, kubevirt.io/virtualMachineControllerFinalize]');
const POD_OLD = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web-0\n  labels: {app: web}\nspec:\n  containers:\n  - name: web\n    image: nginx:1.27\n';
const POD_NEW = POD_OLD.replace('nginx:1.27', 'nginx:1.28').replace('{app: web}', '{app: web, tier: frontend}');
const TYPO = `kubectl patch pod web-0 --type=merge -p '{"metdata":{"labels":{"app":"web"}},"spec":{"nodeselector":{"disk":"ssd"}}}'`;

const scenes = {
  'check-explain': { hash: `#/check?s=${encodeLink({ patch: PATCH, object: OBJECT, error: BARE_422 })}`, wait: '.explain-panel[aria-busy="false"]' },
  'check-undecided': { hash: `#/check?s=${encodeLink({ patch: '', error: BARE_422 })}`, wait: '.explain-panel[aria-busy="false"]' },
  'race': { hash: '#/race', wait: '.lanes' },
  'race-editor': { hash: `#/race?s=${encodeLink({ id: 'finalizer-race', step: 3, editing: true })}`, wait: '.writer-card' },
  'race-compare': { hash: `#/race?s=${encodeLink({ id: 'migration-race', preset: 'naive', compare: true, explore: true, step: 4 })}`, wait: '.race-results:not(.stale) section.compare' },
  'race-interleaving': { hash: `#/race?s=${encodeLink({ id: 'migration-race', interleaving: 3, preset: 'kubevirt-main', step: 5, explore: true })}`, wait: '.story-card' },
  'scale': { hash: '#/scale', wait: '.run-summary' },
  'build': { hash: '#/build', wait: '.ops' },
  'build-merge': {
    hash: `#/build?s=${encodeLink({ old: FINALIZERS_OLD, new: FINALIZERS_NEW, format: 'yaml', columns: [{ preset: 'kubevirt-main' }, { preset: 'merge' }] })}`,
    wait: '.body-findings',
  },
  'build-pod': { hash: `#/build?s=${encodeLink({ old: POD_OLD, new: POD_NEW, format: 'yaml', columns: [{ preset: 'kubevirt-per-key' }, { preset: 'strategic' }] })}`, wait: '.ops' },
  'check-unknown-field': { hash: `#/check?s=${encodeLink({ patch: TYPO })}`, wait: '.diagnostic' },
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
