//! The engines' Web Worker: the worker side ([`serve_worker`], the
//! `engine-worker` binary's entry point) and the page's client
//! ([`EngineClient`]). They speak the protocol of [`crate::app::engine`]
//! as JSON text; the page never runs an engine and never waits for one.
//!
//! One worker serves the page for its whole life: the boot script starts
//! it on a first visit to Build (as soon as the page module's bytes have
//! arrived, so the two downloads do not share the line) and leaves it on
//! `window.patchlabEngine`, where the page module takes it from (also
//! when it mounts again after a hand-over), so the engines are fetched once.
//!
//! ```ignore
//! let client = EngineClient::shared()?;
//! client.build(job, Callback::from(|answer: Result<Rc<BuildAnswer>, String>| { /* take it in */ }));
//! ```

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::Callback;

use super::engine::checked::{CheckRequest, Checked};
use super::engine::explained::{ExplainRequest, ExplainView};
use super::engine::raced::{kept_bytes, ExploreRequest, Explored, RaceRequest, Raced};
use super::engine::wire::{self, Header, MessageType};
use super::engine::{
    BuildAnswer, BuildJob, Engine, EngineFailed, FromEngine, Inbox, Latest, ReadText, RequestKind,
    Seed, ToEngine,
};
use crate::input::Format;

/// Where Trunk puts the worker's loader (`data-loader-shim`), relative to
/// the page.
pub const WORKER_URL: &str = "./engine-worker_loader.js";
/// The property of `window` that holds the page's engine worker.
const GLOBAL: &str = "patchlabEngine";
/// The property of `window` holding the boot script's function that starts
/// the engines (`scripts/postbuild.mjs`: their module fetched once, for the
/// worker and the page) and returns the worker.
const START: &str = "patchlabStartEngine";
/// The property of the worker set once it said `ready`.
const READY: &str = "patchlabReady";
/// The property of the worker that says why it failed, once a client saw
/// it fail: a client made later (another module's) starts broken instead of
/// waiting for an answer that never comes.
const BROKEN: &str = "patchlabBroken";

/// The worker side: answers requests on its global scope, one per task,
/// so a request that arrives while another is computed replaces an older
/// one of its kind still waiting ([`Inbox`]).
fn serve(scope: web_sys::DedicatedWorkerGlobalScope, on_port: Rc<dyn Fn(web_sys::MessagePort)>) {
    let engine = Rc::new(RefCell::new(Engine::default()));
    let inbox = Rc::new(RefCell::new(Inbox::default()));
    let scheduled = Rc::new(Cell::new(false));
    let reply = scope.clone();
    let post = move |message: &FromEngine| {
        let _ = reply.post_message(&JsValue::from_str(&message.to_json()));
    };
    let handler = {
        let post = post.clone();
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |event: web_sys::MessageEvent| {
            // A port handed over (Scale's channel, [`EngineClient::connect_scale`]):
            // served by the binary's `on_port`, not a request.
            let ports = event.ports();
            if ports.length() > 0 {
                for port in ports.iter() {
                    if let Ok(port) = port.dyn_into::<web_sys::MessagePort>() {
                        on_port(port);
                    }
                }
                return;
            }
            let text = event.data().as_string().unwrap_or_default();
            match ToEngine::from_json(&text) {
                Err(failed) => post(&failed),
                Ok(request) => {
                    inbox.borrow_mut().push(request);
                    if !scheduled.replace(true) {
                        drain(
                            engine.clone(),
                            inbox.clone(),
                            scheduled.clone(),
                            post.clone(),
                        );
                    }
                }
            }
        })
    };
    scope.set_onmessage(Some(handler.as_ref().unchecked_ref()));
    handler.forget();
    post(&FromEngine::Ready);
}

/// Answers the oldest waiting request in a task of its own, then the next.
fn drain(
    engine: Rc<RefCell<Engine>>,
    inbox: Rc<RefCell<Inbox>>,
    scheduled: Rc<Cell<bool>>,
    post: impl Fn(&FromEngine) + Clone + 'static,
) {
    gloo::timers::callback::Timeout::new(0, move || {
        let request = inbox.borrow_mut().pop();
        if let Some(request) = request {
            let answer = engine.borrow_mut().answer(request);
            post(&answer);
        }
        if inbox.borrow().is_empty() {
            scheduled.set(false);
        } else {
            drain(engine, inbox, scheduled, post);
        }
    })
    .forget();
}

/// The `engine-worker` binary's entry point. In a worker it serves the
/// page, and each port the page hands over with `on_port` (the binary
/// passes Scale's simulator: [`crate::app::scale_worker::serve_channel`],
/// so this module names no view's worker); in the page itself (the same
/// module instantiated there for small objects, see [`IN_PAGE`]) it does
/// nothing: the page calls [`answer_text`].
pub fn serve_worker(on_port: impl Fn(web_sys::MessagePort) + 'static) {
    match js_sys::global().dyn_into::<web_sys::DedicatedWorkerGlobalScope>() {
        Ok(scope) => serve(scope, Rc::new(on_port)),
        Err(global) if global.is_instance_of::<web_sys::Window>() => {}
        Err(_) => {
            web_sys::console::error_1(&"engine-worker: not running in a dedicated worker".into())
        }
    }
}

thread_local! {
    /// The engines of the module's instance in the page.
    static PAGE_ENGINE: RefCell<Engine> = RefCell::new(Engine::default());
}

/// Answers one request given as JSON text, on the calling thread (the
/// `engine-worker` binary exports it as `answer` for the page's own
/// instance of the module).
pub fn answer_text(request: &str) -> String {
    match ToEngine::from_json(request) {
        Ok(request) => PAGE_ENGINE.with(|engine| engine.borrow_mut().answer(request)),
        Err(failed) => failed,
    }
    .to_json()
}

/// The property of `window` that holds the engines' `answer` function once
/// the boot script instantiated the engine module in the page too (a
/// release build: `scripts/postbuild.mjs`).
pub const IN_PAGE: &str = "patchlabEngineInPage";

/// The most text (both objects, bytes) a Build request may hold to be
/// answered on the page's thread. A worker's answer arrives after the
/// frame the keystroke asked for (the browser paints before it takes the
/// message: docs/performance.md), so small objects, where computing takes
/// a few milliseconds, are answered in the page in the keystroke's own
/// task; bigger ones go to the worker and never block typing.
pub const IN_PAGE_BYTES: usize = 64 * 1024;

/// The id of the pre-rendered page's data block holding the first answer
/// (written by `scripts/prerender.mjs`, outside `#app`).
pub const SEED_ID: &str = "patchlab-first-answer";

/// The build-time answer to `job`, if the page carries one for exactly
/// this request ([`Seed`]). The data block is read and removed on the
/// first call, so only a page's first request can be answered from it.
pub fn seeded(job: &BuildJob) -> Option<Rc<BuildAnswer>> {
    let element = gloo::utils::document().get_element_by_id(SEED_ID)?;
    element.remove();
    match Seed::answer_for(&element.text_content().unwrap_or_default(), job) {
        Ok(answer) => answer,
        Err(error) => {
            web_sys::console::warn_1(
                &format!("patchlab: the pre-rendered answer is unreadable ({error})").into(),
            );
            None
        }
    }
}

/// An answer as the page takes it: its header read, its text kept for
/// the asker, who reads the members it expects ([`wire`]).
pub struct Reply {
    /// Its type, number and kind.
    pub header: Header,
    /// The whole message.
    pub text: String,
}

impl Reply {
    /// Reads the header of a message (it must hold the members every
    /// message of its type holds: [`Header::read_checked`]). The Race
    /// module, which asks for small answers only and reads every JSON text
    /// as a `Value` already, reads it that way ([`Header::read_value`]: 2
    /// KB gzip less); the page and Check modules, which take big answers
    /// (Build's results, lint's findings) on every keystroke, read the
    /// header alone.
    fn read(text: String) -> Result<Reply, serde_json::Error> {
        #[cfg(feature = "race-only")]
        let header = Header::read_value_checked(&text);
        #[cfg(not(feature = "race-only"))]
        let header = Header::read_checked(&text);
        header.map(|header| Reply { header, text })
    }

    /// The answer's members read by `read` when it is of type `of`; a
    /// failure, refused; `None` for anything else.
    fn take<T>(
        self,
        of: MessageType,
        read: impl FnOnce(&str) -> Result<T, serde_json::Error>,
    ) -> Option<Result<T, EngineFailed>> {
        match self.header.of {
            t if t == of => Some(read(&self.text).map_err(|e| {
                EngineFailed::Unavailable(format!(
                    "unreadable answer from the engine worker (reload the page): {e}"
                ))
            })),
            // A failure always has its message ([`Header::read_checked`]).
            MessageType::Failed => Some(Err(EngineFailed::Refused(
                self.header.message.unwrap_or_default(),
            ))),
            _ => None,
        }
    }
}

/// Where an answer of one kind goes.
type Waiter = Callback<Result<Reply, EngineFailed>>;

/// The waiter that reads an answer of type `of` with `read` and hands it
/// (or why there is none) to `done`.
fn deliver<T: 'static>(
    of: MessageType,
    read: fn(&str) -> Result<T, serde_json::Error>,
    done: Callback<Result<T, EngineFailed>>,
) -> Waiter {
    Callback::from(move |answer: Result<Reply, EngineFailed>| {
        let answer = match answer {
            Ok(reply) => reply.take(of, read),
            Err(why) => Some(Err(why)),
        };
        if let Some(answer) = answer {
            done.emit(answer);
        }
    })
}

/// The page's handle on the engine worker (one per page thread).
pub struct EngineClient {
    worker: web_sys::Worker,
    /// Messages held until the worker says it is ready.
    outbox: RefCell<Option<Vec<String>>>,
    latest: RefCell<Latest>,
    /// Who waits for the answer of each kind ([`RequestKind::index`]).
    waiters: RefCell<[Option<Waiter>; RequestKind::ALL.len()]>,
    /// Why the worker cannot answer, once it failed to start.
    broken: RefCell<Option<String>>,
    /// False once the page's own engine failed (it is not asked again).
    in_page: Cell<bool>,
    /// Ports held until the worker says it is ready.
    ports: RefCell<Vec<web_sys::MessagePort>>,
    /// Who is told when the worker fails, besides the waiters (the
    /// channels handed over, by key).
    on_fail: RefCell<Vec<(u32, Callback<String>)>>,
    /// The key of the next channel handed over.
    next_channel: Cell<u32>,
}

thread_local! {
    static CLIENT: RefCell<Option<Rc<EngineClient>>> = const { RefCell::new(None) };
}

impl EngineClient {
    /// The page's engine client: the worker the boot script started (or
    /// an earlier module of this page), else a new one.
    ///
    /// # Errors
    ///
    /// The browser's error when it cannot start a worker.
    pub fn shared() -> Result<Rc<EngineClient>, String> {
        if let Some(client) = CLIENT.with(|c| c.borrow().clone()) {
            return Ok(client);
        }
        let window = gloo::utils::window();
        let existing = js_sys::Reflect::get(&window, &JsValue::from_str(GLOBAL))
            .ok()
            .and_then(|w| w.dyn_into::<web_sys::Worker>().ok());
        let worker = match existing {
            Some(worker) => worker,
            // A release build's boot script starts it (one download of the
            // engines for the worker and the page); otherwise a plain worker.
            None => match js_sys::Reflect::get(&window, &JsValue::from_str(START))
                .ok()
                .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
            {
                Some(start) => start
                    .call0(&JsValue::NULL)
                    .ok()
                    .and_then(|w| w.dyn_into::<web_sys::Worker>().ok())
                    .ok_or("the engine worker could not start")?,
                None => {
                    let worker = web_sys::Worker::new(WORKER_URL)
                        .map_err(|e| format!("the engine worker could not start ({e:?})"))?;
                    let _ = js_sys::Reflect::set(&window, &JsValue::from_str(GLOBAL), &worker);
                    worker
                }
            },
        };
        let ready = js_sys::Reflect::get(&worker, &JsValue::from_str(READY))
            .ok()
            .is_some_and(|r| r.is_truthy());
        let broken = js_sys::Reflect::get(&worker, &JsValue::from_str(BROKEN))
            .ok()
            .and_then(|why| why.as_string());
        let client = Rc::new(EngineClient {
            worker,
            outbox: RefCell::new((!ready).then(Vec::new)),
            latest: RefCell::default(),
            waiters: RefCell::default(),
            broken: RefCell::new(broken),
            in_page: Cell::new(true),
            ports: RefCell::default(),
            on_fail: RefCell::default(),
            next_channel: Cell::new(0),
        });
        client.listen();
        CLIENT.with(|c| *c.borrow_mut() = Some(client.clone()));
        Ok(client)
    }

    /// This module's engine client if it made one: unlike
    /// [`EngineClient::shared`], never starts the engines.
    pub fn existing() -> Option<Rc<EngineClient>> {
        CLIENT.with(|c| c.borrow().clone())
    }

    fn listen(self: &Rc<Self>) {
        let me = Rc::downgrade(self);
        let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(
            move |event: web_sys::MessageEvent| {
                let Some(me) = me.upgrade() else {
                    return;
                };
                let text = event.data().as_string().unwrap_or_default();
                match Reply::read(text) {
                    Ok(Reply {
                        header:
                            Header {
                                of: MessageType::Ready,
                                ..
                            },
                        ..
                    }) => {
                        let _ = js_sys::Reflect::set(
                            &me.worker,
                            &JsValue::from_str(READY),
                            &JsValue::TRUE,
                        );
                        let waiting = me.outbox.borrow_mut().take();
                        for message in waiting.unwrap_or_default() {
                            let _ = me.worker.post_message(&JsValue::from_str(&message));
                        }
                        let ports = std::mem::take(&mut *me.ports.borrow_mut());
                        for port in ports {
                            me.transfer(port);
                        }
                    }
                    // A request the worker could not read (it names no
                    // request): it does not speak this page's protocol (a
                    // worker of another version, from a cache), and that
                    // request would never be answered. Every waiter is
                    // told, so nothing waits for it ("Converting…").
                    Ok(Reply {
                        header:
                            Header {
                                of: MessageType::Failed,
                                kind: None,
                                message,
                                ..
                            },
                        ..
                    }) => me.fail(format!(
                        "the engine worker could not read a request (reload the page): {}",
                        message.unwrap_or_default()
                    )),
                    Ok(answer)
                        if me
                            .latest
                            .borrow()
                            .is_latest(answer.header.answers(), answer.header.id()) =>
                    {
                        // Answered: no longer waiting (a later failure of
                        // the worker is not this request's).
                        let waiter = answer
                            .header
                            .answers()
                            .and_then(|kind| me.waiters.borrow_mut()[kind.index()].take());
                        if let Some(waiter) = waiter {
                            waiter.emit(Ok(answer));
                        }
                    }
                    Ok(_) => {}
                    Err(error) => {
                        me.fail(format!("unreadable answer from the engine worker: {error}"))
                    }
                }
            },
        );
        // Listeners, not the `onmessage` property: the worker is the page's,
        // and each module that asks it (Build's, Check's) has a client of its
        // own, in its own instance, which would take the other's answers
        // away by setting the property. Each client drops the answers to
        // the kinds it did not ask for (its `Latest` has none of them).
        let _ = self
            .worker
            .add_event_listener_with_callback("message", on_message.as_ref().unchecked_ref());
        on_message.forget();
        let me = Rc::downgrade(self);
        let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |_: web_sys::Event| {
            if let Some(me) = me.upgrade() {
                me.fail(
                    "the engine worker stopped or did not start (check the connection and reload the page)"
                        .to_owned(),
                );
            }
        });
        let _ = self
            .worker
            .add_event_listener_with_callback("error", on_error.as_ref().unchecked_ref());
        on_error.forget();
    }

    /// Tells every waiter the worker failed.
    fn fail(&self, why: String) {
        let _ = js_sys::Reflect::set(
            &self.worker,
            &JsValue::from_str(BROKEN),
            &JsValue::from_str(&why),
        );
        *self.broken.borrow_mut() = Some(why.clone());
        let waiters: Vec<Waiter> = self.waiters.borrow().iter().flatten().cloned().collect();
        for waiter in waiters {
            waiter.emit(Err(EngineFailed::Unavailable(why.clone())));
        }
        let told: Vec<Callback<String>> = self
            .on_fail
            .borrow()
            .iter()
            .map(|(_, on_fail)| on_fail.clone())
            .collect();
        for on_fail in told {
            on_fail.emit(why.clone());
        }
    }

    /// Hands `port` to the worker, which serves another protocol on it
    /// (Scale's simulator: [`crate::app::scale_worker`]), so that view
    /// fetches no engine of its own; `on_fail` is told why if the worker
    /// fails (at once if it has). Returns the channel's key for
    /// [`EngineClient::disconnect_scale`].
    pub fn connect_scale(&self, port: web_sys::MessagePort, on_fail: Callback<String>) -> u32 {
        let key = self.next_channel.get();
        self.next_channel.set(key.wrapping_add(1));
        if let Some(why) = self.broken.borrow().clone() {
            on_fail.emit(why);
            return key;
        }
        self.on_fail.borrow_mut().push((key, on_fail));
        if self.is_ready() {
            self.transfer(port);
        } else {
            self.ports.borrow_mut().push(port);
        }
        key
    }

    /// Forgets the channel `key` (its handle was dropped): no longer told
    /// when the worker fails.
    pub fn disconnect_scale(&self, key: u32) {
        self.on_fail.borrow_mut().retain(|(k, _)| *k != key);
    }

    fn transfer(&self, port: web_sys::MessagePort) {
        let transfer = js_sys::Array::of1(&port);
        if self
            .worker
            .post_message_with_transfer(&JsValue::from_str("port"), &transfer)
            .is_err()
        {
            self.fail("the engine worker could not take a channel".to_owned());
        }
    }

    /// Sends the request `text` of `kind` (numbered already: the latest of
    /// its kind, so the answers to earlier ones are dropped) to the worker;
    /// its answer goes to `waiter`.
    fn post(&self, kind: RequestKind, text: String, waiter: Waiter) {
        self.waiters.borrow_mut()[kind.index()] = Some(waiter.clone());
        if let Some(why) = self.broken.borrow().clone() {
            waiter.emit(Err(EngineFailed::Unavailable(why)));
            return;
        }
        match self.outbox.borrow_mut().as_mut() {
            Some(waiting) => waiting.push(text),
            None => {
                let _ = self.worker.post_message(&JsValue::from_str(&text));
            }
        }
    }

    /// Asks for a Build result; the answer (or why there is none) goes to
    /// `done`, unless a later Build request replaced this one. Small
    /// objects are answered at once on the page's thread when it has the
    /// engines ([`IN_PAGE_BYTES`]); the rest by the worker.
    pub fn build(&self, job: BuildJob, done: Callback<Result<Rc<BuildAnswer>, String>>) {
        let bytes = job.old.len() + job.new.len();
        self.ask(
            RequestKind::Build,
            bytes,
            |id| ToEngine::build_text(id, &job),
            deliver(
                MessageType::Built,
                wire::built,
                done.reform(|answer: Result<_, EngineFailed>| answer.map_err(|e| e.to_string())),
            ),
        );
    }

    /// Asks for Build's two texts rewritten in `format` (its Convert and
    /// Format actions); the texts (or why not) go to `done`, unless a later
    /// conversion replaced this one. Answered like [`EngineClient::build`].
    pub fn convert(
        &self,
        format: Format,
        old: Rc<str>,
        new: Rc<str>,
        done: Callback<Result<(String, String), EngineFailed>>,
    ) {
        let bytes = old.len() + new.len();
        self.ask(
            RequestKind::Convert,
            bytes,
            |id| ToEngine::convert_text(id, format, &old, &new),
            deliver(MessageType::Converted, wire::converted, done),
        );
    }

    /// Asks explain about Check's error text; the panel's texts (`None`:
    /// the text is blank), or why there are none, go to `done`, unless a
    /// later request replaced this one. Answered like
    /// [`EngineClient::build`].
    pub fn explain(
        &self,
        request: ExplainRequest,
        done: Callback<Result<Option<Rc<ExplainView>>, EngineFailed>>,
    ) {
        let bytes = request.error.len() + request.patch.len() + request.object.len();
        self.ask(
            RequestKind::Explain,
            bytes,
            |id| ToEngine::explain_text(id, &request),
            deliver(MessageType::Explained, wire::explained, done),
        );
    }

    /// Asks for lint of Check's texts; what the view shows, or why there
    /// is nothing, goes to `done`, unless a later request replaced this
    /// one. Answered like [`EngineClient::build`].
    pub fn check(&self, request: CheckRequest, done: Callback<Result<Rc<Checked>, EngineFailed>>) {
        let bytes = request.patch.len() + request.object.len();
        self.ask(
            RequestKind::Check,
            bytes,
            |id| ToEngine::check_text(id, &request),
            deliver(MessageType::Checked, wire::checked, done),
        );
    }

    /// Asks for `texts` read as YAML (Race's writer intents and field
    /// overrides); their values or why not, in order, go to `done`, unless
    /// a later request replaced this one. Answered like
    /// [`EngineClient::build`].
    pub fn read_yaml(
        &self,
        texts: Vec<Rc<str>>,
        done: Callback<Result<Vec<ReadText>, EngineFailed>>,
    ) {
        let bytes = texts.iter().map(|t| t.len()).sum();
        self.ask(
            RequestKind::ReadYaml,
            bytes,
            |id| ToEngine::read_yaml_text(id, &texts),
            deliver(MessageType::YamlRead, wire::yaml_read, done),
        );
    }

    /// Asks for a replay of Race's timeline; what the view shows, or why
    /// there is nothing, goes to `done`, unless a later replay replaced
    /// this one. Answered like [`EngineClient::build`] (a small scenario
    /// on the page's thread when it has the engines).
    pub fn race(&self, request: RaceRequest, done: Callback<Result<Rc<Raced>, EngineFailed>>) {
        let bytes = kept_bytes(&request.scenario);
        self.ask(
            RequestKind::Race,
            bytes,
            |id| ToEngine::race_text(id, &request),
            deliver(MessageType::Raced, wire::raced, done),
        );
    }

    /// Asks for every interleaving of Race's timeline; the explorer's
    /// table, or why there is none, goes to `done`, unless a later request
    /// replaced this one. Always in the worker: an exploration replays
    /// every order of the timeline under every preset.
    pub fn explore(
        &self,
        request: ExploreRequest,
        done: Callback<Result<Rc<Explored>, EngineFailed>>,
    ) {
        self.ask(
            RequestKind::Explore,
            usize::MAX,
            |id| ToEngine::explore_text(id, &request),
            deliver(MessageType::Explored, wire::explored, done),
        );
    }

    /// A request of `kind` on texts of `bytes`, numbered as the latest of
    /// its kind (a late answer to an earlier one is dropped): answered at
    /// once on the page's thread when it has the engines and the texts are
    /// small ([`IN_PAGE_BYTES`]), otherwise sent to the worker; the answer
    /// goes to `waiter`.
    fn ask(
        &self,
        kind: RequestKind,
        bytes: usize,
        make: impl FnOnce(u32) -> String,
        waiter: Waiter,
    ) {
        let id = self.latest.borrow_mut().issue(kind);
        let request = make(id);
        if self.in_page.get() && bytes <= IN_PAGE_BYTES {
            match in_page(request.clone()) {
                InPage::Answered(answer) if answer.header.answers() == Some(kind) => {
                    waiter.emit(Ok(answer));
                    return;
                }
                InPage::Answered(_) => {
                    warn_in_page("an answer of another kind");
                    self.in_page.set(false);
                }
                InPage::Absent => {}
                InPage::Failed => self.in_page.set(false),
            }
        }
        self.post(kind, request, waiter);
    }

    /// True once the worker said it listens (its module loaded).
    pub fn is_ready(&self) -> bool {
        self.outbox.borrow().is_none()
    }

    /// True while this page has not loaded the engines yet (none asked
    /// for, or their module still on its way): a first answer waits for
    /// the download.
    pub fn loading() -> bool {
        EngineClient::existing().is_none_or(|client| !client.is_ready())
    }

    /// True once the worker failed (it did not start, or answered with
    /// something unreadable): every request is answered with why.
    pub fn is_broken(&self) -> bool {
        self.broken.borrow().is_some()
    }

    /// Drops the waiter of `kind` (its view ended); late answers go nowhere.
    pub fn forget(&self, kind: RequestKind) {
        self.waiters.borrow_mut()[kind.index()] = None;
    }
}

/// Starts the engines' download when this module has not yet (the user is
/// about to ask them something: Check's error field, Race's timeline
/// editor), so the first answer waits less.
pub fn warm() {
    if EngineClient::existing().is_none() {
        let _ = EngineClient::shared();
    }
}

/// What the page's own engine made of a request (a build with every
/// view, the browser tests', carries the engines: there it always answers).
#[cfg_attr(not(feature = "partial"), allow(dead_code))]
enum InPage {
    /// Its answer (or why there is none, as the worker would say).
    Answered(Reply),
    /// No engine in the page (yet): the worker answers.
    Absent,
    /// It failed: the worker answers this and every later request.
    Failed,
}

/// A Build answer computed on the page's thread: a build with every view
/// carries the engines; the page module has them once the boot script instantiated the
/// engine worker's module in the page too ([`IN_PAGE`]).
#[cfg(not(feature = "partial"))]
fn in_page(request: String) -> InPage {
    let answer = match ToEngine::from_json(&request) {
        Ok(request) => PAGE_ENGINE.with(|engine| engine.borrow_mut().answer(request)),
        Err(failed) => failed,
    };
    match Reply::read(answer.to_json()) {
        Ok(reply) => InPage::Answered(reply),
        Err(error) => {
            warn_in_page(&error.to_string());
            InPage::Failed
        }
    }
}

/// A module that holds some of the views (the page module, the Check
/// module) has no engine of its own: the engines' module instantiated in
/// the page answers, once the boot script started it.
#[cfg(feature = "partial")]
fn in_page(request: String) -> InPage {
    let Some(answer) = js_sys::Reflect::get(&gloo::utils::window(), &JsValue::from_str(IN_PAGE))
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
    else {
        return InPage::Absent;
    };
    let failed = |why: &str| {
        warn_in_page(why);
        InPage::Failed
    };
    let text = match answer.call1(&JsValue::NULL, &JsValue::from_str(&request)) {
        Ok(text) => text.as_string().unwrap_or_default(),
        Err(error) => return failed(&format!("{error:?}")),
    };
    match Reply::read(text) {
        Ok(answer) => InPage::Answered(answer),
        Err(error) => failed(&error.to_string()),
    }
}

/// Says in the console that the page's engine failed (the worker answers
/// from now on).
fn warn_in_page(why: &str) {
    web_sys::console::warn_1(
        &format!("patchlab: the page's engine failed ({why}); the worker answers").into(),
    );
}
