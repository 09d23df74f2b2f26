//! The engines' side of the protocol, plain Rust: a [`Worker`] takes the
//! page's messages and gives back its replies, one piece of work at a
//! time, so the Web Worker that runs it (`serve`, wasm only) reads new
//! messages between pieces, and a newer question replaces one of its
//! name still waiting or running.

use std::collections::VecDeque;
use std::rc::Rc;

use super::wire::{self, Incoming, Notice, Reply};
use super::{Answered, Caches, Entry, Failure, Parts, Question, Start, Unavailable};

/// The most text (bytes) a question may carry to be answered on the
/// page's own thread: small objects take a few milliseconds there, and
/// an answer lands in the keystroke's own frame (a worker's arrives after
/// the browser painted: docs/performance.md).
pub const IN_PAGE_BYTES: usize = 64 * 1024;

/// A question started: its whole reply, or its parts to come.
pub enum Started {
    /// The reply's text.
    Whole(String),
    /// The parts, one reply each.
    Parts(Box<dyn Step>),
}

/// A question answered in parts, its type erased.
pub trait Step {
    /// The next part's reply, and whether it is the last.
    fn next(&mut self, caches: &mut Caches, clock: &dyn Fn() -> f64) -> (String, bool);

    /// Gives back what it borrowed from `caches`.
    fn end(self: Box<Self>, caches: &mut Caches);
}

struct Stepper<Q: Question> {
    rev: Q::Rev,
    seq: Option<u32>,
    parts: Box<dyn Parts<Q>>,
}

impl<Q: Question> Step for Stepper<Q> {
    fn next(&mut self, caches: &mut Caches, clock: &dyn Fn() -> f64) -> (String, bool) {
        let (part, last) = self.parts.next(caches, clock);
        let text = Reply::<Q>::new(&self.rev, Ok(&part), !last, self.seq).text();
        (text, last)
    }

    fn end(self: Box<Self>, caches: &mut Caches) {
        self.parts.end(caches);
    }
}

/// Reads question `Q` from `text` and starts answering it.
pub(crate) fn start<Q: Question>(text: &str, seq: Option<u32>, caches: &mut Caches) -> Started {
    let asked: wire::Received<Q> = match serde_json::from_str(text) {
        Ok(asked) => asked,
        Err(e) => return Started::Whole(misread(&e)),
    };
    match asked.question.start(caches) {
        Start::Whole(said) => {
            Started::Whole(Reply::<Q>::new(&asked.rev, said.as_ref(), false, seq).text())
        }
        Start::Parts(parts) => Started::Parts(Box::new(Stepper::<Q> {
            rev: asked.rev,
            seq,
            parts,
        })),
    }
}

fn misread(why: &dyn std::fmt::Display) -> String {
    Notice::Misread(format!("not an engine question: {why}")).text()
}

struct Waiting {
    entry: Entry,
    seq: Option<u32>,
    text: String,
}

struct Running {
    name: &'static str,
    step: Box<dyn Step>,
}

/// The engines serving a table of questions: what waits, what runs, and
/// their caches.
pub struct Worker {
    table: Vec<Entry>,
    caches: Caches,
    waiting: VecDeque<Waiting>,
    running: Option<Running>,
}

impl Worker {
    /// The engines answering the questions of `table`.
    pub fn new(table: &[Entry]) -> Worker {
        Worker {
            table: table.to_vec(),
            caches: Caches::default(),
            waiting: VecDeque::new(),
            running: None,
        }
    }

    /// Takes a message from the page: a question waits (replacing one of
    /// its name), a cancel or forget stops its name's. Returns a reply to
    /// send at once: why the message cannot be read.
    pub fn take(&mut self, text: &str) -> Option<String> {
        let incoming: Incoming = match serde_json::from_str(text) {
            Ok(incoming) => incoming,
            Err(e) => return Some(misread(&e)),
        };
        if let Some(name) = incoming.cancel.as_deref() {
            self.stop(name);
        }
        if let Some(name) = incoming.forget.as_deref() {
            self.stop(name);
            if let Some(entry) = self.entry(name) {
                (entry.forget)(&mut self.caches);
            }
        }
        let name = incoming.ask.as_deref()?;
        let Some(entry) = self.entry(name) else {
            return Some(misread(&format!("no question is named {name:?}")));
        };
        self.stop(entry.name);
        self.waiting.push_back(Waiting {
            entry,
            seq: incoming.seq,
            text: text.to_owned(),
        });
        None
    }

    fn entry(&self, name: &str) -> Option<Entry> {
        self.table.iter().find(|e| e.name == name).copied()
    }

    /// Drops the questions of `name` waiting or running.
    fn stop(&mut self, name: &str) {
        self.waiting.retain(|w| w.entry.name != name);
        if self.running.as_ref().is_some_and(|r| r.name == name) {
            if let Some(running) = self.running.take() {
                running.step.end(&mut self.caches);
            }
        }
    }

    /// True while something waits or runs.
    pub fn busy(&self) -> bool {
        !self.waiting.is_empty() || self.running.is_some()
    }

    /// Does the next piece of work, and returns its reply: the oldest
    /// waiting question is started (answered whole, or its first part),
    /// else the running one gives its next part. `None` when idle.
    pub fn work(&mut self, clock: &dyn Fn() -> f64) -> Option<String> {
        if let Some(waiting) = self.waiting.pop_front() {
            match (waiting.entry.start)(&waiting.text, waiting.seq, &mut self.caches) {
                Started::Whole(reply) => return Some(reply),
                Started::Parts(step) => {
                    self.running = Some(Running {
                        name: waiting.entry.name,
                        step,
                    });
                }
            }
        }
        let running = self.running.as_mut()?;
        let (reply, last) = running.step.next(&mut self.caches, clock);
        if last {
            if let Some(running) = self.running.take() {
                running.step.end(&mut self.caches);
            }
        }
        Some(reply)
    }

    /// Answers one question at once (the engines in the page, for small
    /// questions): its reply, whole; a question answered in parts is not
    /// answered here.
    pub fn answer_text(&mut self, text: &str) -> String {
        let incoming: Incoming = match serde_json::from_str(text) {
            Ok(incoming) => incoming,
            Err(e) => return misread(&e),
        };
        let entry = incoming.ask.as_deref().and_then(|name| self.entry(name));
        let Some(entry) = entry else {
            return misread(&"no question");
        };
        match (entry.start)(text, incoming.seq, &mut self.caches) {
            Started::Whole(reply) => reply,
            Started::Parts(step) => {
                step.end(&mut self.caches);
                misread(&"answered in parts, in the worker only")
            }
        }
    }

    /// Answers `question` directly (natively, and in tests), with this
    /// worker's caches.
    ///
    /// # Errors
    ///
    /// Why the engines refuse it.
    pub fn answer_now<Q: Question>(&mut self, question: Q) -> Result<Q::Answer, Q::Refusal> {
        question.answer(&mut self.caches)
    }

    /// `question` asked at `rev` as the page asks it, answered as the
    /// worker answers it (every part; the last kept) and read as the page
    /// reads it: what a view is handed (tests, and the answers computed
    /// when the playground is built).
    pub fn answer_through_the_wire<Q: Question>(
        &mut self,
        rev: Q::Rev,
        question: Q,
    ) -> Answered<Q> {
        let failed = |why: String| Answered {
            rev,
            answer: Err(Failure::Unavailable(Unavailable::Unreadable(why))),
            more: false,
        };
        if let Some(misread) = self.take(&wire::Asking::new(&rev, &question, Some(1)).text()) {
            return failed(misread);
        }
        let mut last = None;
        while let Some(reply) = self.work(&|| 0.0) {
            last = Some(reply);
        }
        let Some(reply) = last else {
            return failed("no reply".into());
        };
        match (wire::Header::read(&reply), wire::read::<Q>(&reply)) {
            (Ok(header), Ok((rev, said))) => Answered {
                rev,
                answer: said.map(Rc::new).map_err(Failure::Refused),
                more: header.more,
            },
            (Err(e), _) | (_, Err(e)) => failed(format!("{e}: {reply:.200}")),
        }
    }

    /// The caches (tests look at what is kept).
    pub fn caches(&self) -> &Caches {
        &self.caches
    }
}

#[cfg(target_arch = "wasm32")]
pub use serve::{answer_in_page, serve, serve_port};

/// The Web Worker around a [`Worker`]: messages in, one piece of work per
/// task, replies out.
#[cfg(target_arch = "wasm32")]
mod serve {
    use std::cell::{Cell, RefCell};
    use std::rc::Rc;

    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;

    use super::super::wire::Notice;
    use super::super::TABLE;
    use super::Worker;

    /// Milliseconds since the worker started.
    fn now() -> f64 {
        js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("performance"))
            .ok()
            .and_then(|p| p.dyn_into::<web_sys::Performance>().ok())
            .map_or(0.0, |p| p.now())
    }

    /// Serves [`TABLE`] on this worker's global scope: the `engine-worker`
    /// binary's entry point. In a page (the same module instantiated there
    /// for small questions) it does nothing: the page calls
    /// [`answer_in_page`].
    pub fn serve() {
        match js_sys::global().dyn_into::<web_sys::DedicatedWorkerGlobalScope>() {
            Ok(scope) => {
                let target: web_sys::EventTarget = scope.clone().into();
                let post = move |text: &str| {
                    let _ = scope.post_message(&JsValue::from_str(text));
                };
                listen(&target, post);
            }
            Err(global) if global.is_instance_of::<web_sys::Window>() => {}
            Err(_) => web_sys::console::error_1(
                &"engine-worker: not running in a dedicated worker".into(),
            ),
        }
    }

    /// Serves [`TABLE`] on one end of a `MessageChannel` (the browser
    /// tests run the protocol in the page that way).
    pub fn serve_port(port: web_sys::MessagePort) {
        let target: web_sys::EventTarget = port.clone().into();
        port.start();
        listen(&target, move |text: &str| {
            let _ = port.post_message(&JsValue::from_str(text));
        });
    }

    fn listen(target: &web_sys::EventTarget, post: impl Fn(&str) + Clone + 'static) {
        let worker = Rc::new(RefCell::new(Worker::new(TABLE)));
        let scheduled = Rc::new(Cell::new(false));
        let send = post.clone();
        let handler = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(
            move |event: web_sys::MessageEvent| {
                let text = event.data().as_string().unwrap_or_default();
                if let Some(reply) = worker.borrow_mut().take(&text) {
                    send(&reply);
                }
                if worker.borrow().busy() && !scheduled.replace(true) {
                    drain(worker.clone(), scheduled.clone(), send.clone());
                }
            },
        );
        let _ =
            target.add_event_listener_with_callback("message", handler.as_ref().unchecked_ref());
        handler.forget();
        post(&Notice::Ready(true).text());
    }

    /// Does one piece of work in a task of its own, then the next.
    fn drain(
        worker: Rc<RefCell<Worker>>,
        scheduled: Rc<Cell<bool>>,
        post: impl Fn(&str) + Clone + 'static,
    ) {
        gloo::timers::callback::Timeout::new(0, move || {
            let reply = worker.borrow_mut().work(&now);
            if let Some(reply) = reply {
                post(&reply);
            }
            if worker.borrow().busy() {
                drain(worker, scheduled, post);
            } else {
                scheduled.set(false);
            }
        })
        .forget();
    }

    thread_local! {
        /// The engines of the module's instance in the page.
        static IN_PAGE: RefCell<Worker> = RefCell::new(Worker::new(TABLE));
    }

    /// Answers one question given as JSON text on the calling thread (the
    /// `engine-worker` binary exports it for the page's own instance of
    /// the module).
    pub fn answer_in_page(text: &str) -> String {
        IN_PAGE.with(|worker| worker.borrow_mut().answer_text(text))
    }
}
