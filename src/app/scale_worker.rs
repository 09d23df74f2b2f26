//! Scale's simulator off the page: the worker side ([`serve_channel`],
//! served in the engines' Web Worker on a channel the page hands over,
//! so the simulator and the engines it writes with are fetched once) and
//! the page's client ([`ScaleWorker`]). They speak the protocol of
//! [`crate::sim::scale`] as JSON text; the page never blocks on a
//! simulation.
//!
//! ```ignore
//! let worker = ScaleWorker::spawn(Callback::from(move |message: FromWorker| match message {
//!     FromWorker::Progress { result, vmis, .. } => { /* chart the partial counts */ }
//!     FromWorker::Done { result, elapsed_ms, .. } => { /* the whole run */ }
//!     FromWorker::Cancelled { .. } | FromWorker::Failed { .. } => {}
//! }))?;
//! worker.run(&options);   // again on every slider change: replaces the run
//! worker.cancel();        // stops it; dropping the handle stops it and closes the channel
//! ```
//!
//! Messages wait until the worker says `ready`. Only answers to the
//! latest run reach the callback. For tests (and embedders without
//! workers), [`ScaleWorker::in_page`] runs the same protocol on the
//! page's own thread, in chunks between which the page stays responsive.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::Callback;

use crate::app::engine_worker::EngineClient;
use crate::sim::migrate::MigrateOptions;
use crate::sim::migrate::WarmTables;
use crate::sim::scale::{next_chunk, FromWorker, ScaleRun, ToWorker};

/// How long one chunk of simulation runs before the worker reports and
/// reads its messages (milliseconds).
pub const CHUNK_MS: f64 = 25.0;

fn now() -> f64 {
    js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("performance"))
        .ok()
        .and_then(|p| p.dyn_into::<web_sys::Performance>().ok())
        .map_or(0.0, |p| p.now())
}

/// One end of a `MessageChannel`: the page's, or the one handed to the
/// engines' worker.
#[derive(Clone)]
struct Port(web_sys::MessagePort);

impl Port {
    fn post(&self, text: &str) {
        let _ = self.0.post_message(&JsValue::from_str(text));
    }

    fn on_message(&self, handler: &js_sys::Function) {
        self.0.set_onmessage(Some(handler));
    }
}

/// The worker side: answers `start` and `cancel` on `port`, running each
/// run chunk by chunk and yielding between chunks so messages get in.
fn serve(port: Port) {
    // The run going on: its number, bumped by every start and cancel so a
    // running loop sees it has been replaced.
    let current = Rc::new(Cell::new(0u32));
    let generation = Rc::new(Cell::new(0u64));
    // The tables of earlier runs: a slider move re-runs with the same
    // writers, which starts warm.
    let warm = Rc::new(RefCell::new(WarmTables::default()));
    // Set by `close`: a run that ends after it keeps no tables.
    let closed = Rc::new(Cell::new(false));
    let reply = port.clone();
    let handler =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |event: web_sys::MessageEvent| {
            let text = event.data().as_string().unwrap_or_default();
            match ToWorker::from_json(&text) {
                Err(failed) => reply.post(&failed.to_json()),
                Ok(ToWorker::Close) => {
                    // Any run stops (its generation is no longer the
                    // current one) and keeps nothing: the tables go now.
                    generation.set((generation.get() | 1) + 1);
                    closed.set(true);
                    *warm.borrow_mut() = WarmTables::default();
                    reply.0.set_onmessage(None);
                    reply.0.close();
                }
                Ok(ToWorker::Cancel { id }) => {
                    if current.get() == id && generation.get() % 2 == 1 {
                        // Odd generations are running; make it even: stopped.
                        generation.set(generation.get() + 1);
                        reply.post(&FromWorker::Cancelled { id }.to_json());
                    }
                }
                Ok(ToWorker::Start { id, options }) => {
                    // Stop whatever runs (even), then start (odd).
                    let mine = (generation.get() | 1) + 2;
                    generation.set(mine);
                    current.set(id);
                    let started = ScaleRun::warm(id, &options, &mut warm.borrow_mut());
                    match started {
                        Err(error) => {
                            generation.set(mine + 1);
                            reply.post(
                                &FromWorker::Failed {
                                    id,
                                    message: error.to_string(),
                                }
                                .to_json(),
                            );
                        }
                        Ok(run) => {
                            let (port, generation) = (reply.clone(), generation.clone());
                            let (warm, closed) = (warm.clone(), closed.clone());
                            wasm_bindgen_futures::spawn_local(drive(
                                run, port, generation, mine, warm, closed,
                            ));
                        }
                    }
                }
            }
        });
    port.on_message(handler.as_ref().unchecked_ref());
    handler.forget();
    port.post(&FromWorker::Ready.to_json());
}

/// Runs chunks until done or replaced (the generation moved on).
/// Its tables go back to `warm` when it ends either way.
async fn drive(
    mut run: ScaleRun,
    port: Port,
    generation: Rc<Cell<u64>>,
    mine: u64,
    warm: Rc<RefCell<WarmTables>>,
    closed: Rc<Cell<bool>>,
) {
    let mut chunk = 256;
    loop {
        // Yield first: a cancel or a new start sent right after this start
        // is read before any work.
        gloo::timers::future::TimeoutFuture::new(0).await;
        if generation.get() != mine {
            break;
        }
        let Some((message, spent)) = run.step_timed(chunk, &now) else {
            break;
        };
        let finished = matches!(message, FromWorker::Done { .. });
        port.post(&message.to_json());
        if finished {
            generation.set(mine + 1);
            break;
        }
        chunk = next_chunk(chunk, spent, CHUNK_MS);
    }
    if !closed.get() {
        run.keep(&mut warm.borrow_mut());
    }
}

/// Tells `on_message` that run `id` failed, after the current task: the
/// view takes the run as started (`ScaleAction::Started`) after `run`
/// returns, and drops an answer to a run it has not started.
fn fail_later(on_message: &Callback<FromWorker>, id: u32, message: String) {
    let on_message = on_message.clone();
    gloo::timers::callback::Timeout::new(0, move || {
        on_message.emit(FromWorker::Failed { id, message })
    })
    .forget();
}

/// Serves the protocol on a channel the page handed to the engines'
/// worker ([`ScaleWorker::spawn`]): the `engine-worker` binary passes this
/// to [`crate::app::engine_worker::serve_worker`], so Scale's simulator,
/// which writes with the engines, is fetched once, with them.
pub fn serve_channel(port: web_sys::MessagePort) {
    serve(Port(port));
}

/// Tells the page the simulator's channel is ready: the boot script
/// (`scripts/postbuild.mjs`) registers the offline cache only then, so its
/// downloads never share a slow link with the worker's.
fn announce_ready() {
    if let (Some(window), Ok(event)) = (web_sys::window(), web_sys::Event::new(READY_EVENT)) {
        let _ = window.dispatch_event(&event);
    }
}

/// The page event [`announce_ready`] dispatches.
pub const READY_EVENT: &str = "patchlab:scale-ready";

/// The page's handle on Scale's simulator (a channel to the engines'
/// worker). Dropping it stops a run going on and closes the channel.
pub struct ScaleWorker {
    port: Port,
    /// Messages held until the worker says it is ready.
    outbox: Rc<RefCell<Option<Vec<String>>>>,
    /// The latest run's number (answers to others are dropped).
    latest: Rc<Cell<u32>>,
    _handler: Closure<dyn FnMut(web_sys::MessageEvent)>,
    /// The server's end of an in-page channel.
    server: Option<web_sys::MessagePort>,
    /// Why the engines' worker cannot run a simulation, once it failed:
    /// every run is answered with it.
    broken: Rc<RefCell<Option<String>>>,
    /// Where answers go.
    on_message: Callback<FromWorker>,
    /// The engines' client and this channel's key with it (told when the
    /// worker fails; forgotten when this handle is dropped).
    engines: Option<(Rc<EngineClient>, u32)>,
}

impl ScaleWorker {
    fn connect(
        port: Port,
        server: Option<web_sys::MessagePort>,
        on_message: Callback<FromWorker>,
    ) -> ScaleWorker {
        let latest = Rc::new(Cell::new(0u32));
        let seen = latest.clone();
        let on_message_too = on_message.clone();
        let outbox: Rc<RefCell<Option<Vec<String>>>> = Rc::new(RefCell::new(Some(Vec::new())));
        let (held, to) = (outbox.clone(), port.clone());
        let handler = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(
            move |event: web_sys::MessageEvent| {
                let text = event.data().as_string().unwrap_or_default();
                match FromWorker::from_json(&text) {
                    Ok(FromWorker::Ready) => {
                        let waiting = held.borrow_mut().take();
                        for message in waiting.unwrap_or_default() {
                            to.post(&message);
                        }
                        announce_ready();
                    }
                    Ok(message) if message.id() == seen.get() || message.id() == 0 => {
                        on_message.emit(message)
                    }
                    Ok(_) => {}
                    Err(error) => on_message.emit(FromWorker::Failed {
                        id: seen.get(),
                        message: format!("unreadable answer from the Scale worker: {error}"),
                    }),
                }
            },
        );
        port.on_message(handler.as_ref().unchecked_ref());
        ScaleWorker {
            port,
            outbox,
            latest,
            _handler: handler,
            server,
            broken: Rc::default(),
            on_message: on_message_too,
            engines: None,
        }
    }

    /// Opens a channel to Scale's simulator in the engines' worker (started
    /// if this page has not yet); its answers go to `on_message`, and if the
    /// worker fails, why.
    ///
    /// # Errors
    ///
    /// The browser's error when it cannot start a worker or a channel.
    pub fn spawn(on_message: Callback<FromWorker>) -> Result<ScaleWorker, JsValue> {
        let client = EngineClient::shared().map_err(|why| JsValue::from_str(&why))?;
        let channel = web_sys::MessageChannel::new()?;
        let mut worker = ScaleWorker::connect(Port(channel.port1()), None, on_message.clone());
        let (latest, broken) = (worker.latest.clone(), worker.broken.clone());
        let key = client.connect_scale(
            channel.port2(),
            Callback::from(move |why: String| {
                let why = format!("The simulation stopped: {why}");
                *broken.borrow_mut() = Some(why.clone());
                // A run waiting for answers is told (none asked yet: the
                // next run is, by `run`).
                if latest.get() != 0 {
                    fail_later(&on_message, latest.get(), why);
                }
            }),
        );
        worker.engines = Some((client, key));
        Ok(worker)
    }

    /// The same protocol served on the page's own thread (through a
    /// `MessageChannel`): for tests and embedders; the Scale view always
    /// uses a worker, so the simulator stays out of the page's download.
    ///
    /// # Errors
    ///
    /// The browser's error when it cannot make a `MessageChannel`.
    pub fn in_page(on_message: Callback<FromWorker>) -> Result<ScaleWorker, JsValue> {
        let channel = web_sys::MessageChannel::new()?;
        serve(Port(channel.port2()));
        let server = channel.port2();
        Ok(ScaleWorker::connect(
            Port(channel.port1()),
            Some(server),
            on_message,
        ))
    }

    /// Spawns a worker and starts a run: [`ScaleWorker::spawn`] then
    /// [`ScaleWorker::run`].
    ///
    /// # Errors
    ///
    /// As [`ScaleWorker::spawn`].
    pub fn start(
        options: &MigrateOptions,
        on_message: Callback<FromWorker>,
    ) -> Result<ScaleWorker, JsValue> {
        let worker = ScaleWorker::spawn(on_message)?;
        worker.run(options);
        Ok(worker)
    }

    /// Starts a run, replacing any run going on; returns its number.
    pub fn run(&self, options: &MigrateOptions) -> u32 {
        let id = self.latest.get().wrapping_add(1).max(1);
        self.latest.set(id);
        if let Some(why) = self.broken.borrow().clone() {
            fail_later(&self.on_message, id, why);
            return id;
        }
        self.send(
            ToWorker::Start {
                id,
                options: options.clone(),
            }
            .to_json(),
        );
        id
    }

    /// Posts now, or once the worker is ready.
    fn send(&self, text: String) {
        match self.outbox.borrow_mut().as_mut() {
            Some(waiting) => waiting.push(text),
            None => self.port.post(&text),
        }
    }

    /// Cancels the latest run (the worker answers `cancelled` if it was
    /// still running).
    pub fn cancel(&self) {
        self.send(
            ToWorker::Cancel {
                id: self.latest.get(),
            }
            .to_json(),
        );
    }
}

impl Drop for ScaleWorker {
    fn drop(&mut self) {
        // The engines' worker serves the page on: the channel's end there
        // stops any run, forgets its tables and closes; then this end.
        if self.outbox.borrow().is_none() {
            self.port.post(&ToWorker::Close.to_json());
        }
        self.port.0.set_onmessage(None);
        self.port.0.close();
        if let Some((client, key)) = &self.engines {
            client.disconnect_scale(*key);
        }
        if let Some(server) = &self.server {
            server.close();
        }
    }
}
