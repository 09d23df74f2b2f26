//! A deterministic simulator of kube-apiserver with concurrent writers.
//!
//! - [`server`]: objects with a resourceVersion; Update, JSON patch (the
//!   real engine, kube semantics), merge patch and server-side apply;
//! - [`writer`]: writers with intents expressed as data;
//! - [`timeline`]: scenarios and their step-by-step replay, with outcomes
//!   (false and true conflicts, lost updates, convergence);
//! - [`migrate`]: thousands of VMIs migrating under each preset;
//! - [`fast`]: the compact object model the mass migration runs on;
//! - [`explore`]: every interleaving of a small scenario;
//! - [`story`]: what happened in one replay, told from its own facts;
//!
//! Everything is seeded and ordered: the same input replays the same way
//! natively and in the browser.
//!
//! ```
//! use patchlab::sim::timeline::{replay, Scenario};
//! use patchlab::strategy::Preset;
//!
//! let scenario = Scenario::parse(include_str!("../www/scenarios/migration-race.yaml")).unwrap();
//! let head = replay(&scenario, Some(Preset::KubevirtMain)).unwrap();
//! assert_eq!(head.steps[3].response.as_ref().unwrap().code, 422);
//! let fixed = replay(&scenario, Some(Preset::KubevirtPerKey)).unwrap();
//! assert_eq!(fixed.steps[3].response.as_ref().unwrap().code, 200);
//! ```

pub mod explore;
pub mod fast;
pub mod migrate;
pub mod outcome;
pub mod rng;
pub mod server;
pub mod story;
pub mod timeline;
pub mod writer;
