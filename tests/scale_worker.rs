//! The Scale worker's protocol end to end in a browser: the worker side
//! served on a `MessageChannel` in the page (the `engine-worker` binary
//! serves the same on a channel the page hands it; the end-to-end suite
//! runs that one from the release build).
#![cfg(target_arch = "wasm32")]

use std::cell::RefCell;
use std::rc::Rc;

use patchlab::app::scale_worker::ScaleWorker;
use patchlab::sim::migrate::{migrate, MigrateOptions};
use patchlab::sim::scale::FromWorker;
use wasm_bindgen_test::*;
use yew::Callback;

wasm_bindgen_test_configure!(run_in_browser);

fn inbox() -> (Rc<RefCell<Vec<FromWorker>>>, Callback<FromWorker>) {
    let messages = Rc::new(RefCell::new(Vec::new()));
    let sink = messages.clone();
    (messages, Callback::from(move |m| sink.borrow_mut().push(m)))
}

/// Waits (up to about 20 s) until `done` holds for the messages.
async fn until(messages: &Rc<RefCell<Vec<FromWorker>>>, done: impl Fn(&[FromWorker]) -> bool) {
    for _ in 0..2000 {
        if done(&messages.borrow()) {
            return;
        }
        gloo::timers::future::TimeoutFuture::new(10).await;
    }
    panic!("timed out: {:?}", messages.borrow().len());
}

fn finished(messages: &[FromWorker]) -> bool {
    messages.iter().any(|m| {
        matches!(
            m,
            FromWorker::Done { .. } | FromWorker::Cancelled { .. } | FromWorker::Failed { .. }
        )
    })
}

#[wasm_bindgen_test]
async fn a_run_streams_progress_then_the_same_result_as_migrate() {
    let (messages, callback) = inbox();
    let worker = ScaleWorker::in_page(callback).expect("a channel");
    let options = MigrateOptions {
        vms: 3000,
        seed: 3,
        churn: 1,
        ..MigrateOptions::default()
    };
    let id = worker.run(&options);
    until(&messages, finished).await;
    let messages = messages.borrow();
    let (last, progress) = messages.split_last().expect("messages");
    assert!(!progress.is_empty(), "partial results before the end");
    let mut vmis_before = 0;
    for message in progress {
        let FromWorker::Progress {
            id: of,
            vmis,
            total,
            ..
        } = message
        else {
            panic!("{message:?}");
        };
        assert_eq!(*of, id);
        assert_eq!(*total, 3000 * 7);
        assert!(*vmis >= vmis_before);
        vmis_before = *vmis;
    }
    let FromWorker::Done {
        id: of,
        result,
        elapsed_ms,
    } = last
    else {
        panic!("{last:?}");
    };
    assert_eq!(*of, id);
    assert!(*elapsed_ms > 0.0);
    assert_eq!(*result, migrate(&options).expect("runs"));
}

#[wasm_bindgen_test]
async fn cancel_stops_a_run_and_a_new_run_replaces_the_old() {
    let (messages, callback) = inbox();
    let worker = ScaleWorker::in_page(callback).expect("a channel");
    let big = MigrateOptions {
        vms: 100_000,
        ..MigrateOptions::default()
    };
    let id = worker.run(&big);
    until(&messages, |m| !m.is_empty()).await;
    worker.cancel();
    until(&messages, finished).await;
    assert_eq!(
        messages.borrow().last(),
        Some(&FromWorker::Cancelled { id })
    );
    assert!(!messages
        .borrow()
        .iter()
        .any(|m| matches!(m, FromWorker::Done { .. })));

    // A run replaced before it ends: only the new one answers.
    messages.borrow_mut().clear();
    let old = worker.run(&big);
    let small = MigrateOptions {
        vms: 20,
        seed: 9,
        ..MigrateOptions::default()
    };
    let new = worker.run(&small);
    assert_ne!(old, new);
    until(&messages, finished).await;
    let messages = messages.borrow();
    assert!(messages.iter().all(|m| m.id() == new), "{messages:?}");
    let Some(FromWorker::Done { result, .. }) = messages.last() else {
        panic!("{messages:?}");
    };
    assert_eq!(*result, migrate(&small).expect("runs"));
}

#[wasm_bindgen_test]
async fn bad_options_fail_with_the_reason() {
    let (messages, callback) = inbox();
    let worker = ScaleWorker::in_page(callback).expect("a channel");
    let id = worker.run(&MigrateOptions {
        churn: 99,
        ..MigrateOptions::default()
    });
    until(&messages, finished).await;
    let messages = messages.borrow();
    let Some(FromWorker::Failed { id: of, message }) = messages.last() else {
        panic!("{messages:?}");
    };
    assert_eq!(*of, id);
    assert!(message.contains("churn"), "{message}");
}
