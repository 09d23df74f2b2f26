//! The Learn view's pages, rendered natively (see `app::render_test`).

use super::pages::{List, StepPage, StepPageProps};
use super::*;
use crate::app::render_test::{count, element, opening, render, text};

#[test]
fn the_list_shows_every_walkthrough_with_its_length() {
    let html = render::<List>(());
    assert_eq!(
        count(&html, r#"class="walkthrough-card""#),
        walkthroughs().len()
    );
    let first = &walkthroughs()[0];
    let card = element(&html, r#"class="walkthrough-card""#).unwrap();
    assert!(card.contains(&format!(r#"href="{}""#, first.route(1).to_fragment())));
    assert!(text(card).starts_with(&format!("1 {}", first.title)));
    assert!(text(card).ends_with(&format!("{} steps", first.steps.len())));
}

#[test]
fn a_step_shows_where_it_is_its_live_state_and_the_way_on() {
    let w = walkthrough("per-key").unwrap();
    let page = |step: usize| {
        render::<StepPage>(yew::props!(StepPageProps {
            walkthrough: w.id,
            step,
        }))
    };
    // Step 1 opens Build: its live state is the columns' ops.
    let html = page(1);
    assert_eq!(
        text(element(&html, r#"aria-label="Breadcrumb""#).unwrap()),
        format!("Learn / {}", w.title)
    );
    assert_eq!(count(&html, r#"aria-current="step""#), 1);
    assert!(opening(&html, r#"aria-current="step""#)
        .unwrap()
        .contains(r#"aria-label="Step 1: One op per changed key""#));
    assert!(text(&html).contains(&format!("Step 1 of {}", w.steps.len())));
    let live = element(&html, r#"aria-label="Live example""#).unwrap();
    assert_eq!(count(live, r#"class="live-column""#), 2);
    assert!(text(live).contains("kubevirt-per-key"));
    assert!(text(live).contains("add /metadata/labels/kubevirt.io~1migrationTargetNodeName"));
    assert_eq!(count(&html, "← Previous"), 0, "the first step has none");
    assert!(html.contains("Next →"));
    assert!(html.contains("Open in Build"));
    // Step 2 opens Race at step 4 and shows the request and the response.
    let html = page(2);
    let live = element(&html, r#"aria-label="Live example""#).unwrap();
    let scenario = &crate::app::race::scenario("migration-race").unwrap().name;
    assert!(
        text(live).starts_with(&format!("{scenario} at step 4 of 6")),
        "{}",
        text(live)
    );
    assert!(text(live).ends_with("200 OK"));
    assert!(live.contains(r#"aria-label="Sent""#));
    assert!(
        opening(live, r#"class="ok""#).is_some(),
        "200 under PR #18139"
    );
    assert!(html.contains("← Previous"));
    // The last step leads to the next walkthrough (or back to the list).
    let html = page(w.steps.len());
    let next = w.next().map_or("All walkthroughs".to_owned(), |n| {
        format!("Next: {} →", n.title)
    });
    assert!(text(&html).contains(&next), "{next}");
}
