//! Share links on arbitrary fragments: decoding never panics, and whatever
//! decodes opens in the Build and Race views without panicking either.
#![no_main]

use libfuzzer_sys::fuzz_target;
use patchlab::app::build::BuildState;
use patchlab::app::race::{RaceLink, RaceState};
use patchlab::app::share;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = patchlab::app::route::Route::parse(text);
    if let Some(param) = share::state_param(text) {
        let _ = share::decode(param);
    }
    if let Ok(link) = share::decode(text) {
        let state = BuildState::from_link(link);
        let _ = share::encode(&state.link());
    }
    if let Ok(link) = share::decode_value::<RaceLink>(text) {
        let state = RaceState::open(link);
        let _ = state.link();
    }
    // The same bytes as the JSON inside a link (past the compression).
    if let Ok(link) = serde_json::from_slice::<share::BuildLink>(data) {
        if share::check(&link).is_ok() {
            let _ = BuildState::from_link(link);
        }
    }
    if let Ok(link) = serde_json::from_slice::<RaceLink>(data) {
        let _ = RaceState::open(link);
    }
});
