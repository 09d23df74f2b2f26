//! Links on arbitrary fragments: decoding never panics, and whatever
//! decodes opens in the Build, Race and Scale views without panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;
use patchlab::app::build::{BuildLink, BuildState};
use patchlab::app::link::{self, Shareable, Start};
use patchlab::app::race::{RaceLink, RaceState};
use patchlab::app::route::Route;
use patchlab::app::scale::{ScaleLink, ScaleState};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let route = Route::parse(text);
    let packed = route.packed();
    let _ = BuildState::start(Start::<BuildLink>::new(packed, Some(text)));
    let _ = RaceState::start(Start::<RaceLink>::new(packed, Some(text)));
    let _ = ScaleState::start(Start::<ScaleLink>::new(packed, Some(text)));
    if let Ok(link) = link::decode::<BuildLink>(text) {
        let state = BuildState::from_link(link);
        let _ = link::encode(&state.link());
    }
    // The same bytes as the JSON inside a link (past the compression).
    if let Ok(link) = serde_json::from_slice::<BuildLink>(data) {
        if link.check().is_ok() {
            let _ = BuildState::from_link(link);
        }
    }
    if let Ok(link) = serde_json::from_slice::<RaceLink>(data) {
        let _ = RaceState::open(link);
    }
});
