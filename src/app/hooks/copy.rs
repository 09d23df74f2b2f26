//! The copy helper every view uses: copies through the browser's
//! clipboard, remembers what it did for the buttons' feedback.

use std::rc::Rc;

use gloo::timers::callback::Timeout;
use yew::prelude::*;

use crate::app::browser;
use crate::app::components::{Copied, UseCopy};

/// The copy helper every view uses.
#[hook]
pub fn use_copy() -> UseCopy {
    let last = use_state(|| None::<Copied>);
    let timer = use_mut_ref(|| None::<Timeout>);
    let copy = {
        let last = last.clone();
        Callback::from(move |(key, text): (AttrValue, String)| {
            let last = last.clone();
            let timer = timer.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let text: Rc<str> = Rc::from(text);
                let ok = browser::copy(text.to_string()).await.is_ok();
                last.set(Some(Copied { key, ok, text }));
                if ok {
                    let last = last.clone();
                    *timer.borrow_mut() = Some(Timeout::new(2000, move || last.set(None)));
                }
            });
        })
    };
    let dismiss = {
        let last = last.clone();
        Callback::from(move |()| last.set(None))
    };
    UseCopy {
        copy,
        last: (*last).clone(),
        dismiss,
    }
}
