// The boot script: starts the page module (the shell and Build) for Build,
// the Learn, Scale, Race and Check modules for theirs (src/lib.rs, the
// table of builds). scripts/postbuild.mjs fills in the names in capitals
// (the page module's hashed files, the routes of the other modules),
// minifies it and loads it from index.html, in place of Trunk's loader.
const view = location.hash.match(MODULE_ROUTE)?.[1]?.toLowerCase();
function script(src) {
  return new Promise((ok, fail) => {
    const element = document.createElement('script');
    element.src = src;
    element.onload = ok;
    element.onerror = () => fail(new Error(src + ' did not load'));
    document.head.append(element);
  });
}
// Offline: cache the build (see sw.js), not on file:// pages. Its install
// fetches every file, so it is registered only once the visit's own
// downloads are done: for Build, once the engines have loaded (or failed
// to); for Scale, once the engines, which run its simulation, have loaded
// (or failed to) or another view opens; for the other views, once their
// module runs. On a slow link it would otherwise share the line with
// them.
let offlineRegistered = false;
function cacheForOffline() {
  if (offlineRegistered || !('serviceWorker' in navigator) || location.protocol === 'file:') return;
  offlineRegistered = true;
  window.patchlabOfflineAt = performance.now();
  navigator.serviceWorker.register('./sw.js').catch((error) => console.warn('offline cache unavailable:', error));
}
// The engines (src/engines/client.rs): one download and compile of
// their module, instantiated in a worker (big objects, other requests) and
// in the page (small Build requests: window.patchlabEngineInPage).
function startEngine() {
  if (window.patchlabEngine) return window.patchlabEngine;
  const engine = new Worker('./engine-worker_loader.js');
  engine.addEventListener('message', (event) => {
    if (event.data === '{"ready":true}') engine.patchlabReady = true;
  });
  window.patchlabEngine = engine;
  fetch('./engine-worker_bg.wasm')
    .then((response) => (response.ok ? response.arrayBuffer() : Promise.reject(new Error('engine-worker_bg.wasm: HTTP ' + response.status))))
    .then((bytes) => WebAssembly.compile(bytes))
    .then(
      async (module) => {
        engine.postMessage(module);
        try {
          await script('./engine-page.js');
          await patchlab_engine({ module_or_path: module });
          window.patchlabEngineInPage = patchlab_engine.answer;
        } catch (error) {
          console.warn('patchlab: the engines run in their worker only:', error);
        }
        cacheForOffline();
      },
      (error) => {
        engine.postMessage(String(error));
        cacheForOffline();
      },
    );
  return engine;
}
window.patchlabStartEngine = startEngine;
// The page module: for a visit to Build, and when Build opens in another
// module (src/app/modules.rs calls it; it takes the page over as it starts).
let pageStarted;
function startPage() {
  pageStarted ??= (async () => {
    const module = fetch(PAGE_WASM);
    const bindings = await import(PAGE_GLUE);
    const wasm = await bindings.default({ module_or_path: module });
    window.wasmBindings = bindings;
    // The engines' worker (src/engines/client.rs) starts once the page
    // module runs and the page is idle, so its download and compile never
    // compete with the page module's (a fresh visit's first result is the
    // one computed at build time; a request made before this starts the
    // worker itself). The page module takes it from window.patchlabEngine.
    (window.requestIdleCallback ?? ((f) => setTimeout(f, 200)))(startEngine, { timeout: 1000 });
    dispatchEvent(new CustomEvent('TrunkApplicationStarted', { detail: { wasm } }));
  })().catch((error) => {
    pageStarted = undefined;
    throw error;
  });
  return pageStarted;
}
window.patchlabStartPage = startPage;
try {
  // A module is fetched at once, next to its glue, not after it.
  if (view) {
    const module = fetch('./' + view + '_bg.wasm');
    await script('./' + view + '.js');
    // Each module's glue declares patchlab_<view>, a global binding of
    // classic scripts (not a property of window), renamed by postbuild.
    const init = { learn: () => patchlab_learn, scale: () => patchlab_scale, race: () => patchlab_race, check: () => patchlab_check }[view];
    await init()({ module_or_path: module });
    if (view === 'scale') {
      // Once the engines have loaded (startEngine), or another view opens.
      addEventListener('hashchange', cacheForOffline, { once: true });
    } else {
      cacheForOffline();
    }
  } else {
    await startPage();
  }
} catch (error) {
  console.error('patchlab could not start:', error);
  const note = document.createElement('p');
  note.className = 'boot-failed';
  note.setAttribute('role', 'alert');
  note.textContent = 'patchlab could not start (' + error.message + '). Check the connection and reload the page; your work is kept in this browser.';
  document.body.append(note);
}
