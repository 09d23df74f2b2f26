//! The Scale view's charts and progress line, rendered natively (see
//! `app::render_test`).

use std::rc::Rc;

use super::charts::{Charts, ChartsProps};
use super::progress::{summary, Progress, ProgressProps};
use super::*;
use crate::app::render_test::{count, element, opening, render, text};
use crate::app::view_state::ViewState;
use crate::sim::migrate::{migrate, MigrateOptions, MigrateResult};
use crate::strategy::Preset;
use crate::vocabulary::Term;

fn result(vms: usize) -> Rc<MigrateResult> {
    Rc::new(
        migrate(&MigrateOptions {
            vms,
            ..MigrateOptions::default()
        })
        .unwrap(),
    )
}

fn done(vms: usize) -> ScaleState {
    let started = ScaleState::default();
    let rev = ScaleAction::rev_of(&started);
    started.reduce(ScaleAction::part(
        rev,
        (14_000, 14_000),
        &result(vms),
        12.0,
        false,
    ))
}

#[test]
fn charts_draw_a_bar_per_preset_per_term_and_name_every_number() {
    let state = done(20);
    let shown = Rc::clone(state.shown().unwrap());
    let html = render::<Charts>(yew::props!(ChartsProps {
        result: Rc::clone(&shown),
        summary: summary(&state),
    }));
    assert_eq!(
        text(element(&html, r#"class="run-summary""#).unwrap()),
        format!(
            "20 VMIs, seed 1, churn 0, 2 retries: {} simulated writes in 12 ms.",
            crate::app::paste_guard::thousands(
                shown.presets.iter().map(|p| p.total.writes).sum::<u64>() as usize
            )
        )
    );
    assert_eq!(count(&html, r#"<figure class="chart">"#), 9);
    assert_eq!(count(&html, r#"role="img""#), 9);
    // One label per preset in each chart.
    assert_eq!(
        count(&html, r#"class="chart-label""#),
        9 * Preset::ALL.len()
    );
    // The accessible name of a chart lists every preset's count, and whose.
    let lost = opening(&html, r#"aria-label="Lost updates: "#).unwrap();
    for preset in Preset::ALL {
        assert!(lost.contains(&format!(" {preset} ")), "{preset}: {lost}");
    }
    let naive = shown
        .presets
        .iter()
        .find(|p| p.preset == Preset::Naive)
        .unwrap();
    let lost_naive = naive.total.get(Term::LostUpdate).unwrap_or_default();
    assert!(lost_naive > 0, "naive loses updates at 20 VMIs");
    assert!(lost.contains(&format!("naive {lost_naive} (")), "{lost}");
    // The legend names each writer with its colour.
    let legend = element(&html, r#"class="legend chart-legend""#).unwrap();
    assert!(text(legend).starts_with("Bars are split by writer: virt-controller"));
    assert_eq!(count(legend, r#"class="swatch w"#), naive.writers.len());
    // Every number as JSON, as the CLI prints them.
    let all = element(&html, r#"aria-label="All numbers""#).unwrap();
    assert!(text(all).contains(r#""vms": 20"#));
}

#[test]
fn progress_says_how_far_the_run_is_or_why_it_stopped() {
    let progress = |run: Run| render::<Progress>(yew::props!(ProgressProps { run, vms: 20 }));
    assert_eq!(progress(Run::Idle), "");
    let running = progress(Run::Running {
        rev: 1,
        done: 30,
        total: 140,
        partial: None,
    });
    assert_eq!(
        text(&running),
        "Simulating: 30 of 140 VMI runs (every preset)"
    );
    let bar = opening(&running, "<progress").unwrap();
    assert!(
        bar.contains(r#"max="140""#) && bar.contains(r#"value="30""#),
        "{bar}"
    );
    let stopped = progress(Run::Stopped {
        done: 30,
        total: 140,
        partial: None,
    });
    assert!(opening(&stopped, r#"role="status""#).is_some());
    assert!(text(&stopped).starts_with("Stopped before the first of 20 VMIs had run"));
    // Stopped with counts: it names what it ran (30 runs of 7 presets:
    // the first 4 VMIs under every preset).
    let stopped = progress(Run::Stopped {
        done: 30,
        total: 140,
        partial: Some(result(20)),
    });
    assert_eq!(
        text(&stopped),
        "Stopped: it ran the first 4 of 20 VMIs under every preset; the charts show those. Run again to finish."
    );
    let failed = progress(Run::Failed("no worker".into()));
    assert_eq!(
        opening(&failed, r#"role="alert""#),
        Some(r#"<p role="alert" class="parse-error">"#)
    );
    assert_eq!(progress(done(10).run), "");
    // Counts so far are said to be so.
    let started = ScaleState::default();
    let rev = ScaleAction::rev_of(&started);
    let partial = started.reduce(ScaleAction::part(rev, (10, 14_000), &result(10), 1.0, true));
    assert!(
        summary(&partial).starts_with("So far: the first 1 of 2,000 VMIs, seed 1"),
        "10 runs of 7 presets: 1 VMI done"
    );
    // The issue's example: 20,930 runs of 7 presets.
    let started = ScaleState::default().reduce(ScaleAction::SetVms(100_000));
    let rev = ScaleAction::rev_of(&started);
    let big = started.reduce(ScaleAction::part(
        rev,
        (20_930, 700_000),
        &result(10),
        1.0,
        true,
    ));
    assert!(summary(&big).starts_with("So far: the first 2,990 of 100,000 VMIs"));
    let stopped = big.reduce(ScaleAction::Cancel);
    assert!(text(&render::<Progress>(yew::props!(ProgressProps {
        run: stopped.run.clone(),
        vms: stopped.inputs.vms,
    })))
    .starts_with("Stopped: it ran the first 2,990 of 100,000 VMIs under every preset"));
}

#[test]
fn a_heavy_setting_says_how_long_it_takes_and_waits_for_run() {
    // Measured here: the default 2,000 VMIs in 240 ms.
    let started = ScaleState::default();
    let rev = ScaleAction::rev_of(&started);
    let measured = started.reduce(ScaleAction::part(
        rev,
        (14_000, 14_000),
        &result(20),
        240.0,
        false,
    ));
    assert!(!measured.heavy());
    // 100,000 VMIs at churn 0: the measured cost grows about twentyfold
    // (the fast path memoizes nearly every write), about 5 s.
    let heavy = measured.reduce(ScaleAction::SetVms(100_000));
    let ms = heavy.estimate_ms().unwrap();
    let ratio = super::state::work(&heavy.inputs) / super::state::work(&measured.inputs);
    assert!((ms - 240.0 * ratio).abs() < 1e-6, "{ms}");
    assert!((4_000.0..6_000.0).contains(&ms), "{ms}");
    assert!(heavy.heavy() && heavy.held && !heavy.running());
    assert_eq!(
        super::progress::estimate(&heavy).unwrap().as_str(),
        format!(
            "This setting takes about {} here (the last run, 2,000 VMIs at churn 0, took 0.2 s).",
            super::progress::duration(ms)
        )
    );
    // Heavy churn on 100,000 VMIs: the tables fill and every VMI runs on
    // the general path, about an hour.
    let churned = heavy.reduce(ScaleAction::SetChurn(8));
    let minutes = churned.estimate_ms().unwrap() / 60_000.0;
    assert!((40.0..100.0).contains(&minutes), "{minutes} min");
    // The numbers on screen are said to be the last run's.
    assert!(summary(&heavy).contains("(the last run, before these inputs)"));
    // Run: it runs.
    let run = heavy.reduce(ScaleAction::RequestRun);
    assert!(run.running() && !run.held);
    // A light setting runs at once, as before.
    let light = measured.reduce(ScaleAction::SetVms(4_000));
    assert!(light.running() && !light.held);
    // Nothing measured yet: nothing held.
    let fresh = ScaleState::default().reduce(ScaleAction::SetVms(100_000));
    assert!(fresh.running() && fresh.estimate_ms().is_none());
    // Churn weighs in: three churn writers on 2,000 VMIs, about 40 times
    // the default's cost.
    let churned = measured.reduce(ScaleAction::SetChurn(3));
    let ms = churned.estimate_ms().unwrap();
    assert!((5_000.0..15_000.0).contains(&ms), "{ms}");
}
