//! The engines' protocol end to end in a browser: the worker's side served
//! on a `MessageChannel` in the page (the `engine-worker` binary serves the
//! same on its global scope; the end-to-end suite runs that one from the
//! release build), and the client every view asks with on the other end.
//! Scale's run is the question here: answered in parts, never in the page.
#![cfg(target_arch = "wasm32")]

use std::cell::RefCell;
use std::rc::Rc;

use patchlab::engines::client::EngineClient;
use patchlab::engines::scale::Scale;
use patchlab::engines::{worker, Answered, Failure};
use patchlab::sim::migrate::{migrate, MigrateError, MigrateOptions};
use wasm_bindgen_test::*;
use yew::Callback;

wasm_bindgen_test_configure!(run_in_browser);

/// A client of engines served in this page, and what it was answered.
fn engines() -> Rc<EngineClient> {
    let channel = web_sys::MessageChannel::new().expect("a channel");
    worker::serve_port(channel.port2());
    EngineClient::on_port(channel.port1())
}

type Said = Rc<RefCell<Vec<Answered<Scale>>>>;

fn inbox() -> (Said, Callback<Answered<Scale>>) {
    let said: Said = Rc::default();
    let sink = said.clone();
    (said, Callback::from(move |a| sink.borrow_mut().push(a)))
}

/// Waits (up to about 20 s) until `done` holds for what was said.
async fn until(said: &Said, done: impl Fn(&[Answered<Scale>]) -> bool) {
    for _ in 0..2000 {
        if done(&said.borrow()) {
            return;
        }
        gloo::timers::future::TimeoutFuture::new(10).await;
    }
    panic!("timed out: {:?}", said.borrow().len());
}

fn finished(said: &[Answered<Scale>]) -> bool {
    said.iter().any(|a| !a.more)
}

fn scale(options: &MigrateOptions) -> Scale {
    Scale {
        options: options.clone(),
    }
}

#[wasm_bindgen_test]
async fn a_run_comes_in_parts_then_the_same_result_as_migrate() {
    let client = engines();
    let (said, done) = inbox();
    let options = MigrateOptions {
        vms: 3000,
        seed: 3,
        churn: 1,
        ..MigrateOptions::default()
    };
    client.ask(7, scale(&options), done);
    until(&said, finished).await;
    let said = said.borrow();
    let (last, parts) = said.split_last().expect("answers");
    assert!(!parts.is_empty(), "partial results before the end");
    let mut vmis_before = 0;
    for part in parts {
        assert!(part.more && part.rev == 7);
        let progress = part.answer.as_ref().expect("a part");
        assert_eq!(progress.total, 3000 * 7);
        assert!(progress.vmis >= vmis_before);
        vmis_before = progress.vmis;
    }
    assert_eq!(last.rev, 7);
    let whole = last.answer.as_ref().expect("the whole run");
    assert!(whole.elapsed_ms > 0.0);
    assert_eq!(whole.result, migrate(&options).expect("runs"));
}

#[wasm_bindgen_test]
async fn a_cancel_stops_a_run_and_a_new_run_replaces_the_old() {
    let client = engines();
    let (said, done) = inbox();
    let big = MigrateOptions {
        vms: 100_000,
        ..MigrateOptions::default()
    };
    client.ask(1, scale(&big), done.clone());
    until(&said, |s| !s.is_empty()).await;
    client.cancel("scale");
    let seen = said.borrow().len();
    gloo::timers::future::TimeoutFuture::new(300).await;
    assert_eq!(said.borrow().len(), seen, "nothing after the cancel");
    assert!(!finished(&said.borrow()));

    // A run replaced before it ends: only the new one answers.
    said.borrow_mut().clear();
    client.ask(2, scale(&big), done.clone());
    let small = MigrateOptions {
        vms: 20,
        seed: 9,
        ..MigrateOptions::default()
    };
    client.ask(3, scale(&small), done);
    until(&said, finished).await;
    let said = said.borrow();
    assert!(said.iter().all(|a| a.rev == 3), "{:?}", said.len());
    let whole = said.last().unwrap().answer.as_ref().unwrap();
    assert_eq!(whole.result, migrate(&small).expect("runs"));
}

#[wasm_bindgen_test]
async fn bad_options_are_refused_with_the_reason() {
    let client = engines();
    let (said, done) = inbox();
    client.ask(
        4,
        scale(&MigrateOptions {
            churn: 99,
            ..MigrateOptions::default()
        }),
        done,
    );
    until(&said, finished).await;
    let said = said.borrow();
    assert_eq!(
        said.last().map(|a| a.answer.clone().err()),
        Some(Some(Failure::Refused(MigrateError::Churn(99))))
    );
}
