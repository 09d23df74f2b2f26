//! The page's side of the protocol (wasm only): one client per module
//! instance, talking to the one engines' worker of the page, and the one
//! hook every view asks with ([`use_ask`]).
//!
//! The boot script starts the worker on a first visit to Build (as soon as
//! the page module's bytes have arrived, so the two downloads do not share
//! the line) and leaves it on `window.patchlabEngine`, where every module
//! takes it from (also when it mounts again after a hand-over), so the
//! engines are fetched once. A release build also instantiates the
//! engines' module in the page (`window.patchlabEngineInPage`): small
//! questions are answered there, in the keystroke's own task.

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::rc::Rc;

use gloo::timers::callback::Timeout;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::wire::{self, Asking, Header, Latest, Seed};
use super::worker::IN_PAGE_BYTES;
use super::{Answered, Failure, Question, Unavailable, PAUSE_MS};

/// Where Trunk puts the worker's loader (`data-loader-shim`), relative to
/// the page.
pub const WORKER_URL: &str = "./engine-worker_loader.js";
/// The property of `window` that holds the page's engine worker.
const GLOBAL: &str = "patchlabEngine";
/// The property of `window` holding the boot script's function that starts
/// the engines (their module fetched once, for the worker and the page)
/// and returns the worker.
const START: &str = "patchlabStartEngine";
/// The property of the worker set once it said it is ready.
const READY: &str = "patchlabReady";
/// The property of the worker that says why it failed, once a client saw
/// it fail: a client made later (another module's) starts broken instead
/// of waiting for an answer that never comes.
const BROKEN: &str = "patchlabBroken";
/// The property of `window` that holds the engines' `answer` function once
/// the boot script instantiated the engines' module in the page too.
pub const IN_PAGE: &str = "patchlabEngineInPage";
/// The id of the pre-rendered page's data block holding a first answer
/// (written by `scripts/prerender.mjs`, outside `#app`).
pub const SEED_ID: &str = "patchlab-first-answer";

/// Where an answer of one name goes: its header and text, or why there
/// is none.
type Waiter = Rc<dyn Fn(Result<(Header, Rc<str>), Unavailable>)>;

/// The other end: the page's engine worker, or a channel (tests).
enum Port {
    Worker(web_sys::Worker),
    Channel(web_sys::MessagePort),
}

impl Port {
    fn post(&self, text: &str) -> bool {
        let text = JsValue::from_str(text);
        match self {
            Port::Worker(worker) => worker.post_message(&text).is_ok(),
            Port::Channel(port) => port.post_message(&text).is_ok(),
        }
    }

    fn target(&self) -> &web_sys::EventTarget {
        match self {
            Port::Worker(worker) => worker.unchecked_ref(),
            Port::Channel(port) => port.unchecked_ref(),
        }
    }

    /// Marks the worker (for the clients of other modules): `key` = `value`.
    fn mark(&self, key: &str, value: &JsValue) {
        if let Port::Worker(worker) = self {
            let _ = js_sys::Reflect::set(worker, &JsValue::from_str(key), value);
        }
    }

    fn marked(&self, key: &str) -> Option<JsValue> {
        match self {
            Port::Worker(worker) => js_sys::Reflect::get(worker, &JsValue::from_str(key))
                .ok()
                .filter(|v| !v.is_undefined()),
            Port::Channel(_) => None,
        }
    }
}

/// The page's handle on the engines' worker (one per module instance).
pub struct EngineClient {
    port: Port,
    /// Messages held until the worker says it is ready.
    outbox: RefCell<Option<Vec<String>>>,
    latest: RefCell<Latest>,
    /// Who waits for the answer of each name.
    waiters: RefCell<BTreeMap<&'static str, Waiter>>,
    /// Why the worker cannot answer, once it failed.
    broken: RefCell<Option<Unavailable>>,
    /// False once the engines in the page failed (not asked again).
    in_page: Cell<bool>,
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
    /// Why the browser did not start a worker.
    pub fn shared() -> Result<Rc<EngineClient>, Unavailable> {
        if let Some(client) = EngineClient::existing() {
            return Ok(client);
        }
        let worker = page_worker()?;
        let client = EngineClient::on(Port::Worker(worker));
        CLIENT.with(|c| *c.borrow_mut() = Some(client.clone()));
        Ok(client)
    }

    /// This module's engine client if it made one: unlike
    /// [`EngineClient::shared`], never starts the engines.
    pub fn existing() -> Option<Rc<EngineClient>> {
        CLIENT.with(|c| c.borrow().clone())
    }

    /// A client of the engines served on `port` (one end of a
    /// `MessageChannel`: the browser tests serve them in the page).
    pub fn on_port(port: web_sys::MessagePort) -> Rc<EngineClient> {
        port.start();
        EngineClient::on(Port::Channel(port))
    }

    fn on(port: Port) -> Rc<EngineClient> {
        let ready = port.marked(READY).is_some_and(|r| r.is_truthy());
        let broken = port
            .marked(BROKEN)
            .and_then(|why| why.as_string())
            .map(Unavailable::Earlier);
        let client = Rc::new(EngineClient {
            port,
            outbox: RefCell::new((!ready).then(Vec::new)),
            latest: RefCell::default(),
            waiters: RefCell::default(),
            broken: RefCell::new(broken),
            in_page: Cell::new(true),
        });
        client.listen();
        client
    }

    fn listen(self: &Rc<Self>) {
        let me = Rc::downgrade(self);
        let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(
            move |event: web_sys::MessageEvent| {
                if let Some(me) = me.upgrade() {
                    me.receive(event.data().as_string().unwrap_or_default().into());
                }
            },
        );
        // Listeners, not the `onmessage` property: each module that asks
        // the page's worker has a client of its own, which would take the
        // other's answers away by setting the property. Each client drops
        // the answers to questions it did not ask.
        let target = self.port.target();
        let _ =
            target.add_event_listener_with_callback("message", on_message.as_ref().unchecked_ref());
        on_message.forget();
        let me = Rc::downgrade(self);
        let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |_: web_sys::Event| {
            if let Some(me) = me.upgrade() {
                me.fail(Unavailable::Stopped);
            }
        });
        let _ = target.add_event_listener_with_callback("error", on_error.as_ref().unchecked_ref());
        on_error.forget();
    }

    fn receive(&self, text: Rc<str>) {
        let header = match Header::read(&text) {
            Ok(header) => header,
            Err(e) => return self.fail(Unavailable::Unreadable(e.to_string())),
        };
        if header.ready {
            self.port.mark(READY, &JsValue::TRUE);
            let held = self.outbox.borrow_mut().take();
            for message in held.unwrap_or_default() {
                self.port.post(&message);
            }
            return;
        }
        if let Some(why) = header.misread {
            // A question the worker could not read: it does not speak this
            // page's protocol (a worker of another version, from a cache),
            // and would never answer. Every waiter is told.
            return self.fail(Unavailable::Misread(why));
        }
        let (Some(name), Some(seq)) = (header.answered.as_deref(), header.seq) else {
            return;
        };
        if !self.latest.borrow().is_latest(name, seq) {
            return;
        }
        let waiter = if header.more {
            self.waiters.borrow().get(name).cloned()
        } else {
            self.waiters.borrow_mut().remove(name)
        };
        if let Some(waiter) = waiter {
            waiter(Ok((header, text)));
        }
    }

    /// Tells every waiter the worker failed.
    fn fail(&self, why: Unavailable) {
        self.port.mark(BROKEN, &JsValue::from_str(&why.to_string()));
        *self.broken.borrow_mut() = Some(why.clone());
        let waiters: Vec<Waiter> = std::mem::take(&mut *self.waiters.borrow_mut())
            .into_values()
            .collect();
        for waiter in waiters {
            waiter(Err(why.clone()));
        }
    }

    /// Asks `question` at revision `rev`; the answer (or why there is
    /// none) goes to `done`, unless a later question of its name replaced
    /// this one. A seed answers a page's first question of its name; a
    /// small question is answered at once on the page's thread when the
    /// engines are there ([`IN_PAGE_BYTES`]; any size once the worker
    /// failed); the rest by the worker.
    pub fn ask<Q: Question>(&self, rev: Q::Rev, question: Q, done: Callback<Answered<Q>>) {
        if let Some(answer) = seeded(&rev, &question) {
            return done.emit(Answered {
                rev,
                answer: Ok(answer),
                more: false,
            });
        }
        let seq = self.latest.borrow_mut().issue(Q::NAME);
        let text = Asking::new(&rev, &question, Some(seq)).text();
        let waiter = deliver::<Q>(rev, done);
        let small = question.bytes() <= IN_PAGE_BYTES || self.is_broken();
        if !Q::IN_PARTS && small && self.in_page.get() {
            match in_page(&text) {
                InPage::Answered(reply) => return self.deliver_now(reply, &waiter),
                InPage::Absent => {}
                InPage::Failed => self.in_page.set(false),
            }
        }
        if let Some(why) = self.broken.borrow().clone() {
            return waiter(Err(why));
        }
        self.waiters.borrow_mut().insert(Q::NAME, waiter);
        self.post(text);
    }

    fn deliver_now(&self, reply: String, waiter: &Waiter) {
        match Header::read(&reply) {
            Ok(header) if header.misread.is_none() => waiter(Ok((header, reply.into()))),
            Ok(header) => waiter(Err(Unavailable::Misread(
                header.misread.unwrap_or_default(),
            ))),
            Err(e) => waiter(Err(Unavailable::Unreadable(e.to_string()))),
        }
    }

    fn post(&self, text: String) {
        match self.outbox.borrow_mut().as_mut() {
            Some(waiting) => waiting.push(text),
            None => {
                self.port.post(&text);
            }
        }
    }

    /// Stops the questions of `name`: a late answer goes nowhere, and the
    /// worker drops them, waiting or running.
    pub fn cancel(&self, name: &'static str) {
        self.latest.borrow_mut().forget(name);
        if self.waiters.borrow_mut().remove(name).is_some() {
            self.post(format!(r#"{{"cancel":"{name}"}}"#));
        }
    }

    /// As [`EngineClient::cancel`], and the worker frees what it keeps
    /// for questions of `name` (their view ended).
    pub fn forget(&self, name: &'static str) {
        self.latest.borrow_mut().forget(name);
        self.waiters.borrow_mut().remove(name);
        self.post(format!(r#"{{"forget":"{name}"}}"#));
    }

    /// True once the worker said it listens (its module loaded).
    pub fn is_ready(&self) -> bool {
        self.outbox.borrow().is_none()
    }

    /// True while this page has not loaded the engines yet (none asked
    /// for, or their module still on its way).
    pub fn loading() -> bool {
        EngineClient::existing().is_none_or(|client| !client.is_ready())
    }

    /// True once the worker failed: every question is answered with why.
    pub fn is_broken(&self) -> bool {
        self.broken.borrow().is_some()
    }
}

/// The worker the boot script started, or one started now.
fn page_worker() -> Result<web_sys::Worker, Unavailable> {
    let window = gloo::utils::window();
    let get = |key: &str| js_sys::Reflect::get(&window, &JsValue::from_str(key)).ok();
    if let Some(worker) = get(GLOBAL).and_then(|w| w.dyn_into::<web_sys::Worker>().ok()) {
        return Ok(worker);
    }
    // A release build's boot script starts it (one download of the
    // engines for the worker and the page); otherwise a plain worker.
    if let Some(start) = get(START).and_then(|f| f.dyn_into::<js_sys::Function>().ok()) {
        return start
            .call0(&JsValue::NULL)
            .ok()
            .and_then(|w| w.dyn_into::<web_sys::Worker>().ok())
            .ok_or_else(|| Unavailable::NotStarted("the boot script gave no worker".into()));
    }
    let worker =
        web_sys::Worker::new(WORKER_URL).map_err(|e| Unavailable::NotStarted(format!("{e:?}")))?;
    let _ = js_sys::Reflect::set(&window, &JsValue::from_str(GLOBAL), &worker);
    Ok(worker)
}

/// The waiter that reads a reply to `Q` and hands it to `done`.
fn deliver<Q: Question>(rev: Q::Rev, done: Callback<Answered<Q>>) -> Waiter {
    Rc::new(move |said: Result<(Header, Rc<str>), Unavailable>| {
        let (answer, more) = match said {
            Err(why) => (Err(Failure::Unavailable(why)), false),
            Ok((header, text)) => match wire::read::<Q>(&text) {
                Ok((_, Ok(answer))) => (Ok(Rc::new(answer)), header.more),
                Ok((_, Err(refused))) => (Err(Failure::Refused(refused)), false),
                Err(e) => (
                    Err(Failure::Unavailable(Unavailable::Unreadable(e.to_string()))),
                    false,
                ),
            },
        };
        done.emit(Answered { rev, answer, more });
    })
}

/// Starts the engines' download when this module has not yet (the user is
/// about to ask them something), so the first answer waits less.
pub fn warm() {
    if EngineClient::existing().is_none() {
        let _ = EngineClient::shared();
    }
}

/// The build-time answer to `question` at `rev`, if the page carries one
/// for exactly this question ([`Seed`]). The data block is removed once a
/// question of its name read it: only a page's first question of that
/// name is answered from it.
fn seeded<Q: Question>(rev: &Q::Rev, question: &Q) -> Option<Rc<Q::Answer>> {
    let element = gloo::utils::document().get_element_by_id(SEED_ID)?;
    let text = element.text_content().unwrap_or_default();
    if !text.starts_with(&format!(r#"{{"ask":"{}""#, Q::NAME)) {
        return None;
    }
    element.remove();
    Seed::answer_for(&text, rev, question).unwrap_or_else(|error| {
        web_sys::console::warn_1(
            &format!("patchlab: the pre-rendered answer is unreadable ({error})").into(),
        );
        None
    })
}

/// What the engines in the page made of a question (a module that holds
/// every view holds the engines too, and always answers).
#[cfg_attr(module = "all", allow(dead_code))]
enum InPage {
    /// Their reply.
    Answered(String),
    /// No engines in the page (yet): the worker answers.
    Absent,
    /// They failed: the worker answers this and every later question.
    Failed,
}

/// A module that holds every view holds the engines too.
#[cfg(module = "all")]
fn in_page(text: &str) -> InPage {
    InPage::Answered(super::worker::answer_in_page(text))
}

/// A module that holds some of the views has no engines of its own: the
/// engines' module instantiated in the page answers, once the boot script
/// started it.
#[cfg(not(module = "all"))]
fn in_page(text: &str) -> InPage {
    let Some(answer) = js_sys::Reflect::get(&gloo::utils::window(), &JsValue::from_str(IN_PAGE))
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
    else {
        return InPage::Absent;
    };
    match answer.call1(&JsValue::NULL, &JsValue::from_str(text)) {
        Ok(reply) => InPage::Answered(reply.as_string().unwrap_or_default()),
        Err(error) => {
            web_sys::console::warn_1(
                &format!("patchlab: the page's engines failed ({error:?}); the worker answers")
                    .into(),
            );
            InPage::Failed
        }
    }
}

/// Asks the engines a question whenever the revision of `asking` changes
/// (`None`: the view wants no answer; the question is made only when
/// asked, after [`PAUSE_MS`] when `pause`), and hands the answer to
/// `done`. A question the view no longer wants is cancelled; the view's
/// end forgets its name.
#[hook]
pub fn use_ask<Q, F>(asking: Option<(Q::Rev, F)>, pause: bool, done: Callback<Answered<Q>>)
where
    Q: Question,
    F: FnOnce() -> Q + 'static,
{
    let rev = asking.as_ref().map(|(rev, _)| *rev);
    use_effect_with(rev, move |_| {
        let timer = match asking {
            None => {
                if let Some(client) = EngineClient::existing() {
                    client.cancel(Q::NAME);
                }
                None
            }
            Some((rev, make)) => {
                let ask = move || match EngineClient::shared() {
                    Ok(client) => client.ask(rev, make(), done),
                    Err(why) => done.emit(Answered {
                        rev,
                        answer: Err(Failure::Unavailable(why)),
                        more: false,
                    }),
                };
                if pause {
                    Some(Timeout::new(PAUSE_MS, ask))
                } else {
                    ask();
                    None
                }
            }
        };
        move || drop(timer)
    });
    use_effect_with((), |()| {
        || {
            if let Some(client) = EngineClient::existing() {
                client.forget(Q::NAME);
            }
        }
    });
}
