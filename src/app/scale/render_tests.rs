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
    let started = ScaleState::default().reduce(ScaleAction::Started { id: 1 });
    started.reduce(ScaleAction::Finished {
        id: 1,
        result: result(vms),
        ms: 12.0,
    })
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
            shown.presets.iter().map(|p| p.total.writes).sum::<u64>()
        )
    );
    assert_eq!(count(&html, r#"<figure class="chart">"#), 7);
    assert_eq!(count(&html, r#"role="img""#), 7);
    // One label per preset in each chart.
    assert_eq!(
        count(&html, r#"class="chart-label""#),
        7 * Preset::ALL.len()
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
    let progress = |run: Run| render::<Progress>(yew::props!(ProgressProps { run }));
    assert_eq!(progress(Run::Idle), "");
    let running = progress(Run::Running {
        id: 1,
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
    assert!(text(&stopped).starts_with("Stopped after 30 of 140 VMI runs"));
    let failed = progress(Run::Failed("no worker".into()));
    assert_eq!(
        opening(&failed, r#"role="alert""#),
        Some(r#"<p role="alert" class="parse-error">"#)
    );
    assert_eq!(progress(done(10).run), "");
    // Counts so far are said to be so.
    let partial = ScaleState::default()
        .reduce(ScaleAction::Started { id: 2 })
        .reduce(ScaleAction::Progress {
            id: 2,
            done: 10,
            total: 14_000,
            partial: result(10),
        });
    assert!(summary(&partial).starts_with("So far: the first 10 VMIs, seed 1"));
}
