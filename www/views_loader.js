// Starts the playground's full app (every view; src/app/full_app.rs) once
// its glue (./views.js, wasm-bindgen's no-modules output, which declares
// `wasm_bindgen`) has run. The boot script adds both for a visit to Check;
// another module adds them when Check opens, or a view whose module already
// ran in this page and gave it up. A failure is reported by an event.
wasm_bindgen({ module_or_path: './views_bg.wasm' }).then(
  () => window.dispatchEvent(new Event('patchlab:views-ready')),
  (error) => window.dispatchEvent(new CustomEvent('patchlab:views-failed', { detail: String(error) })),
);
