//! A view module unpacks the state saved for its view before the view
//! mounts, knowing only the view (`link::storage_key`): that is the key
//! each view saves its state under.
#![cfg(not(target_arch = "wasm32"))]

use patchlab::app::build::BuildLink;
use patchlab::app::check::CheckLink;
use patchlab::app::link::{storage_key, Shareable};
use patchlab::app::race::RaceLink;
use patchlab::app::scale::ScaleLink;

fn saves_under_its_key<T: Shareable>() {
    assert_eq!(T::STORAGE_KEY, storage_key(T::VIEW), "{:?}", T::VIEW);
}

#[test]
fn every_view_saves_under_its_storage_key() {
    saves_under_its_key::<BuildLink>();
    saves_under_its_key::<CheckLink>();
    saves_under_its_key::<RaceLink>();
    saves_under_its_key::<ScaleLink>();
}
