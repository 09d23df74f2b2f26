//! Runs the work a view derives from big texts ([`Deferred`]): after a
//! pause in typing, piece by piece on timers (the job owned here, never by
//! the state), so the page keeps responding; its result goes back as an
//! action. Small texts never get here: the reducer brings them up to date.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::timers::callback::Timeout;
use yew::prelude::*;

use crate::app::deferred::{Deferred, Job, PAUSE_MS};

type Slot<T> = Rc<RefCell<Option<T>>>;

/// Starts the job `state` needs (after a pause when the user typed), and
/// sends what it found; a new key drops the job under way.
#[hook]
pub fn use_deferred<S: Deferred>(state: &S, send: Callback<S::Action>) {
    let job: Slot<S::Job> = use_mut_ref(|| None);
    let timer: Slot<Timeout> = use_mut_ref(|| None);
    let previous = use_mut_ref(|| state.key());
    // Made on every render, kept only when the key changed: cheap (the
    // job holds shared texts and starts its work when stepped).
    let next = RefCell::new(state.job());
    use_effect_with(state.key(), move |key| {
        let typed = S::typed(&previous.borrow(), key);
        *previous.borrow_mut() = key.clone();
        timer.borrow_mut().take();
        *job.borrow_mut() = next.borrow_mut().take();
        if job.borrow().is_some() {
            let delay = if typed { PAUSE_MS } else { 0 };
            schedule::<S>(delay, job, timer, send);
        }
    });
}

/// Runs one piece after `delay` ms, then schedules the next.
fn schedule<S: Deferred>(
    delay: u32,
    job: Slot<S::Job>,
    timer: Slot<Timeout>,
    send: Callback<S::Action>,
) {
    let again = timer.clone();
    *timer.borrow_mut() = Some(Timeout::new(delay, move || {
        let more = match job.borrow_mut().as_mut() {
            Some(job) => job.step(),
            None => return,
        };
        if more {
            schedule::<S>(0, job, again, send);
        } else if let Some(done) = job.borrow_mut().take() {
            send.emit(S::done(done.finish()));
        }
    }));
}
