//! Pastes and drops that would take the text over the input budget are
//! stopped before the browser spends seconds laying them out.

use wasm_bindgen::JsCast;
use web_sys::{ClipboardEvent, DataTransfer, DragEvent, HtmlTextAreaElement};
use yew::prelude::*;

use crate::app::paste_guard::refuse_insert;

/// The paste and drop handlers, and why the last one was refused.
#[hook]
pub fn use_paste_guard(text: AttrValue) -> (Callback<Event>, Callback<DragEvent>, Option<String>) {
    let refused = use_state(|| None::<String>);
    // A new text clears the refusal.
    {
        let refused = refused.clone();
        use_effect_with(text.clone(), move |_| {
            if refused.is_some() {
                refused.set(None);
            }
        });
    }
    let guard = {
        let refused = refused.clone();
        move |event: &Event, inserted: Option<usize>| {
            let Some(area) = event.target_dyn_into::<HtmlTextAreaElement>() else {
                return;
            };
            let Some(inserted) = inserted else { return };
            let start = area.selection_start().ok().flatten().unwrap_or(0) as usize;
            let end = area.selection_end().ok().flatten().unwrap_or(0) as usize;
            match refuse_insert(&text, start, end, inserted) {
                Some(why) => {
                    event.prevent_default();
                    refused.set(Some(why));
                }
                None => refused.set(None),
            }
        }
    };
    let onpaste = {
        let guard = guard.clone();
        Callback::from(move |event: Event| {
            let data = event
                .dyn_ref::<ClipboardEvent>()
                .and_then(ClipboardEvent::clipboard_data);
            guard(&event, data.as_ref().and_then(inserted_bytes));
        })
    };
    let ondrop = Callback::from(move |event: DragEvent| {
        guard(
            &event,
            event.data_transfer().as_ref().and_then(inserted_bytes),
        );
    });
    (onpaste, ondrop, (*refused).clone())
}

/// The UTF-8 size of the text a paste or drop carries, copying it into
/// wasm only when its UTF-16 length leaves the answer open.
fn inserted_bytes(data: &DataTransfer) -> Option<usize> {
    let get = js_sys::Reflect::get(data, &"getData".into()).ok()?;
    let text: js_sys::JsString = get
        .dyn_into::<js_sys::Function>()
        .ok()?
        .call1(data, &"text/plain".into())
        .ok()?
        .dyn_into()
        .ok()?;
    let units = text.length() as usize;
    // One UTF-16 unit is 1 to 3 UTF-8 bytes: past the budget in units, the
    // paste is refused whatever its bytes (named as a lower bound).
    if units > crate::limits::OBJECT_BYTES {
        return Some(units);
    }
    String::from(text).len().into()
}
