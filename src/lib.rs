//! # patchlab
//!
//! Understand and produce conflict-narrow Kubernetes JSON Patches.
//!
//! The crate is the core of the patchlab playground, its JavaScript API and
//! its CLI. Data flows one way, up this table: a module uses modules of the
//! layers its row names (and, where it says "own layer", modules of its own
//! row), never a layer above. `tests/layers.rs` reads this table and every
//! `crate::`, `super::` and `self::` path of the library and every path
//! into a file's own child modules, and fails on an arrow that runs up a
//! layer and on any cycle between files (a file and the files of its
//! folder excepted: they are one module).
//!
//! | layer | modules | may use |
//! |---|---|---|
//! | 0 foundation | `limits`, `text`, `json`, `gojson`, `vocabulary`, `share`, `sort` | own layer |
//! | 1 input | `pointer`, `input` | 0, own layer |
//! | 2 patch | `patch` | 0-1 |
//! | 3 server | `status`, `apply`, `kube`, `schema` | 0-2, own layer |
//! | 4 strategy | `strategy` | 0-3 |
//! | 5 analysis | `lint`, `claims` | 0-4, own layer |
//! | 6 simulation | `sim`, `explain`, `scan` | 0-5, own layer |
//! | 7 engines | `engines` | 0-6 |
//! | 8 JavaScript API | `js` | 0-6 |
//! | 9.0 UI parts | `app` | 0-7, own layer |
//! | 9.1 UI views | `app::build`, `app::check`, `app::race`, `app::scale` | 0-7, 9.0 |
//! | 9.2 UI lessons | `app::learn` | 0-7, 9.0-9.1 |
//! | 9.3 UI shell | `app::shell`, `app::modules`, `app::boot` | 0-7, 9.0-9.2, own layer |
//!
//! In words: JSON Pointer and input parsing; the patch (ops, builder,
//! payload); the server (apply: JSON patch, merge patch, per Kubernetes
//! release; its answers); strategies (old + new object -> ops, by policy);
//! lint and the lessons' claims; the simulator. The faces only call the
//! core: the browser UI in [`app`] (its state is plain Rust; its
//! components compile for `wasm32` and, in tests, natively, where they are
//! rendered to HTML), the JavaScript API in `js`, and the
//! CLI in the `patchlab` binary. Inside the UI, the views never use each
//! other: what two views share lives in the UI parts.
//!
//! The playground is six wasm builds of this crate, one a row below; a
//! cold visit fetches the page, its boot script (`www/boot.js`), the style
//! sheet and the icon, and the module of its route. A module that holds
//! some of the views fetches the one that holds another when it opens
//! (`app::modules`), which takes the page over (`app::boot`). Trunk
//! builds the view modules with `data-type="worker"` for their
//! `no-modules` glue, which `scripts/postbuild.mjs` renames
//! (`patchlab_learn`...) so that they can sit side by side. `build.rs`
//! reads this table: each build gets `cfg(module = "...")` from the row of
//! its Cargo feature (the row without one when none is on) and
//! `cfg(holds = "...")` once per view of that row (a module that holds
//! some of the views is `not(module = "all")`). `tests/modules.rs`
//! holds the table, `Cargo.toml`, `index.html`'s Trunk links and
//! `src/bin/` equal.
//!
//! | module | binary | feature | holds | a cold visit fetches |
//! |---|---|---|---|---|
//! | `page` | `page` | `build-only` | `build` | Build: `page-*.js`, `page-*_bg.wasm`; the engines once the page is idle |
//! | `learn` | `learn` | `learn-only` | `learn` | a lesson: `learn.js`, `learn_bg.wasm`, no engine (its live cards are computed at build time) |
//! | `scale` | `scale` | `scale-only` | `scale` | Scale: `scale.js`, `scale_bg.wasm`, then the engines, where its simulator runs |
//! | `race` | `race` | `race-only` | `race` | Race: `race.js`, `race_bg.wasm`; the engines for another preset, release, an edit or the explorer (the shipped scenarios come with their answers) |
//! | `check` | `check` | `check-only` | `check` | Check: `check.js`, `check_bg.wasm`; the engines once an edit needs lint (the examples come with their answers) |
//! | `all` | `engine-worker` | none | `build`, `check`, `race`, `scale`, `learn` | nothing of its own: the engines (`engine-worker_bg.wasm`, `engine-worker.js`, `engine-page.js`), run in a worker and in the page, are fetched once, by the module that needs them. Native builds and the tests hold every view too |
#![warn(missing_docs)]

pub mod app;
pub mod apply;
pub mod claims;
pub mod engines;
pub mod explain;
pub mod gojson;
pub mod input;
#[cfg(all(target_arch = "wasm32", feature = "js"))]
pub mod js;
pub mod json;
pub mod kube;
pub mod limits;
pub mod lint;
pub mod patch;
pub mod pointer;
#[cfg(not(target_arch = "wasm32"))]
pub mod scan;
pub mod schema;
pub mod share;
pub mod sim;
pub mod sort;
pub mod status;
pub mod strategy;
pub mod text;
pub mod vocabulary;

/// The crate version, shown in the playground footer and `patchlab --version`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Where the source code lives, linked from the playground footer.
pub const SOURCE_URL: &str = env!("CARGO_PKG_REPOSITORY");

/// The allocator of every wasm module: talc, in place of Rust's default
/// dlmalloc (smaller and faster).
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
