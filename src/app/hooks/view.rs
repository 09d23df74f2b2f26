//! One adapter from a view's state to Yew, for every view: the state
//! started by the one policy of [`view_state`](crate::app::view_state),
//! reduced (then settled) on every action, kept in step with the address
//! bar and storage, a link pasted into the open page opened; and the
//! Share link action.

use std::ops::Deref;
use std::rc::Rc;

use yew::prelude::*;

use super::use_link_sync;
use crate::app::browser;
use crate::app::components::UseCopy;
use crate::app::link::{self, LinkError, Shareable, Start};
use crate::app::notice::Notice;
use crate::app::route::Route;
use crate::app::view_state::{begin, ViewState};

/// A view state as Yew's reducer: `reduce`, then `settle`; the same state
/// (no re-render) when an action changes nothing.
#[derive(Clone, Debug, PartialEq)]
pub struct Reduced<S>(S);

impl<S> Deref for Reduced<S> {
    type Target = S;
    fn deref(&self) -> &S {
        &self.0
    }
}

impl<S: ViewState> Reducible for Reduced<S> {
    type Action = S::Action;

    fn reduce(self: Rc<Self>, action: S::Action) -> Rc<Self> {
        let mut next = self.0.reduce(action);
        next.settle();
        if next == self.0 {
            self
        } else {
            Rc::new(Reduced(next))
        }
    }
}

/// A view's state (derefs to `S`).
pub type ViewHandle<S> = UseReducerHandle<Reduced<S>>;

/// The view's state, started from the route's link payload (or what this
/// browser saved), and the callback that sends it actions (children get
/// `send.reform(Action::X)`).
#[hook]
pub fn use_view<S: ViewState>(packed: Option<AttrValue>) -> (ViewHandle<S>, Callback<S::Action>) {
    // Whether the address bar keeps a link that could not be opened.
    let keep_address = use_mut_ref(|| false);
    let state = {
        let (packed, keep_address) = (packed.clone(), keep_address.clone());
        use_reducer(move || {
            let stored = browser::load(S::Link::STORAGE_KEY);
            let begun = begin::<S>(Start::new(packed.as_deref(), stored.as_deref()));
            *keep_address.borrow_mut() = begun.keep_address;
            Reduced(begun.state)
        })
    };
    let send = {
        let dispatcher = state.dispatcher();
        use_callback((), move |action: S::Action, ()| dispatcher.dispatch(action))
    };
    let keep = *keep_address.borrow();
    use_link_sync(
        state.link(),
        packed,
        keep,
        send.reform(|opened: Result<S::Link, LinkError>| match opened {
            Ok(link) => S::open_action(link),
            Err(error) => S::notify_action(Notice::from(&error)),
        }),
        send.reform(S::notify_action),
    );
    (state, send)
}

/// Share link: copies the address of `state`'s link, or says why a state
/// too big for a link has none.
#[hook]
pub fn use_share<L: Shareable>(state: L, copy: &UseCopy, notify: Callback<Notice>) -> Callback<()> {
    let copy = copy.copy.clone();
    let latest = use_mut_ref(|| state.clone());
    *latest.borrow_mut() = state;
    use_callback((), move |(), ()| {
        let state = latest.borrow().clone();
        // The address bar holds this state's link already (it is written
        // 250 ms after the last change): copied at once, in the click, as
        // some browsers (Safari) want a clipboard write.
        let address = gloo::utils::window().location().hash().unwrap_or_default();
        let route = Route::parse(&address);
        if route.view() == Some(L::VIEW)
            && route.packed().map(link::decode::<L>) == Some(Ok(state.clone()))
        {
            copy.emit(("share".into(), browser::url_with(&address)));
            return;
        }
        let (copy, notify) = (copy.clone(), notify.clone());
        // Otherwise packed by the browser first (a few milliseconds); the
        // copy says so when the browser refuses it.
        wasm_bindgen_futures::spawn_local(async move {
            match link::place_async(&state).await {
                Ok(placed) if placed.too_big_for_a_link => notify.emit(Notice::warning(
                    link::too_big_for_a_link(placed.stored.len()),
                )),
                Ok(placed) => copy.emit(("share".into(), browser::url_with(&placed.fragment))),
                Err(why) => notify.emit(Notice::warning(why.to_string())),
            }
        });
    })
}
