//! Brings the Build view's results up to date after every change: at once
//! for small texts; for big ones after a pause in typing, then piece by
//! piece (a [`RecomputeJob`] owned here, never by the state), so the page
//! keeps responding.

use std::rc::Rc;

use gloo::timers::callback::Timeout;
use yew::prelude::*;

use crate::app::build::{BuildAction, BuildState, RecomputeJob, Revs, PIECE_CHARS};

/// Texts above this size are recomputed after a pause in typing and in
/// pieces; smaller ones at once, on every keystroke.
pub const INSTANT_BYTES: usize = 20_000;

/// The pause in typing before a big recomputation starts.
const PAUSE_MS: u32 = 300;

/// Runs the recomputation `state` needs; dispatches its result.
#[hook]
pub fn use_piecewise_recompute(state: &BuildState, dispatcher: UseReducerDispatcher<BuildState>) {
    let job = use_mut_ref(|| None::<(Revs, RecomputeJob)>);
    let timer = use_mut_ref(|| None::<Timeout>);
    let previous = use_mut_ref(|| state.revs());
    let busy = state.busy();
    let big = state.text_bytes() > INSTANT_BYTES;
    let revs = state.revs();
    // Only the state's revisions say whether work is needed.
    let next_job = busy.then(|| RecomputeJob::new(state)).flatten();
    let next_job = std::cell::RefCell::new(next_job);
    use_effect_with((revs, busy), move |(revs, busy)| {
        let typed = {
            let mut previous = previous.borrow_mut();
            let typed = previous.old != revs.old || previous.new != revs.new;
            *previous = *revs;
            typed
        };
        timer.borrow_mut().take();
        job.borrow_mut().take();
        if !*busy {
            return;
        }
        if !big {
            dispatcher.dispatch(BuildAction::Recompute);
            return;
        }
        let Some(new_job) = next_job.borrow_mut().take() else {
            return;
        };
        *job.borrow_mut() = Some((*revs, new_job));
        let delay = if typed { PAUSE_MS } else { 0 };
        schedule(delay, job.clone(), timer.clone(), dispatcher.clone());
    });
}

/// Runs one piece after `delay` ms, then schedules the next.
fn schedule(
    delay: u32,
    job: Rc<std::cell::RefCell<Option<(Revs, RecomputeJob)>>>,
    timer: Rc<std::cell::RefCell<Option<Timeout>>>,
    dispatcher: UseReducerDispatcher<BuildState>,
) {
    let again = timer.clone();
    *timer.borrow_mut() = Some(Timeout::new(delay, move || {
        let more = match job.borrow_mut().as_mut() {
            Some((_, job)) => job.step(PIECE_CHARS),
            None => return,
        };
        if more {
            schedule(0, job, again, dispatcher);
        } else if let Some((_, done)) = job.borrow_mut().take() {
            dispatcher.dispatch(BuildAction::Computed(Rc::new(done.finish())));
        }
    }));
}
