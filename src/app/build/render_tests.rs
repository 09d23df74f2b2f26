//! The Build view's result columns and Fields table, rendered natively
//! (see `app::render_test`).

use yew::prelude::*;

use super::fields::{FieldsTable, FieldsTableProps};
use super::results::{ResultColumns, ResultColumnsProps};
use super::tests::{computed_default, Recomputed};
use super::*;
use crate::app::components::UseCopy;
use crate::app::render_test::{count, element, opening, render, render_view, text};
use crate::app::view_state::ViewState;
use crate::strategy::Preset;

fn copy() -> UseCopy {
    UseCopy {
        copy: Callback::noop(),
        last: None,
        dismiss: Callback::noop(),
    }
}

fn columns(state: &BuildState) -> String {
    render::<ResultColumns>(yew::props!(ResultColumnsProps {
        columns: state.columns.clone(),
        results: state.results.clone(),
        stale: state.stale(),
        blocked: state.blocked(),
        big: state.big(),
        copy: copy(),
        onpreset: Callback::noop(),
        onremove: Callback::noop(),
        onadd: Callback::noop(),
    }))
}

fn fields(state: &BuildState) -> String {
    render::<FieldsTable>(yew::props!(FieldsTableProps {
        results: state.results.clone(),
        columns: state.columns.iter().map(|c| c.preset).collect::<Vec<_>>(),
        onchange: Callback::noop(),
    }))
}

#[test]
fn each_column_shows_its_ops_findings_surface_and_exports() {
    let html = columns(&computed_default());
    assert_eq!(count(&html, "<article"), 2);
    let head = element(&html, r#"aria-label="Column 1: kubevirt-main""#).unwrap();
    // The preset menu, its own preset chosen.
    assert!(head.contains(r#"<option value="kubevirt-main" selected="selected">"#));
    assert!(head.contains(r#"<select aria-label="Preset" class="preset">"#));
    // What it sends, with sizes, and the round trip.
    let chips = element(head, r#"class="chips""#).unwrap();
    assert_eq!(text(chips), "2 ops · 269 bytes ✓ old + patch = new");
    assert_eq!(count(head, r#"<li class="op op-test only-here">"#), 1);
    assert_eq!(count(head, r#"<li class="op op-replace only-here">"#), 1);
    // Lint's finding on the whole-map test, compact, on op 0 only.
    let ops = element(head, r#"aria-label="Operations""#).unwrap();
    let first_op = element(ops, r#"class="op op-test only-here""#).unwrap();
    assert!(first_op.contains(r#"<code class="rule">whole-map-test</code>"#));
    assert!(first_op.contains("diagnostic compact sev-warning"));
    assert_eq!(count(ops, "diagnostic compact"), 1);
    // Why the rule matters and what its fix does: the rule's texts, which
    // the engines send once per rule with the column (the page module has
    // no rule table).
    let why = element(first_op, r#"class="why""#).unwrap();
    assert!(text(why).contains("A test compares the whole map, so it fails (422)"));
    assert!(text(why)
        .contains("The fix: Per-key ops, as PR #18139's GeneratePerKeyMapPatches writes them"));
    // The conflict surface: the whole label map.
    let surface = element(head, r#"class="surface""#).unwrap();
    assert_eq!(count(surface, "<li>"), 1);
    assert!(surface.contains("<code>/metadata/labels</code>"));
    // The payload as sent, and every export with column 1's key.
    let sent = element(head, r#"aria-label="What is sent""#).unwrap();
    assert!(text(sent).starts_with(r#"[{"op":"test","path":"/metadata/labels""#));
    let exports = element(head, r#"aria-label="Copy from column 1""#).unwrap();
    assert_eq!(
        text(exports),
        "Copy payload 1 Copy kubectl Copy Go Copy Rust"
    );
    let per_key = element(&html, r#"aria-label="Column 2: kubevirt-per-key""#).unwrap();
    assert_eq!(
        text(element(per_key, r#"class="chips""#).unwrap()),
        "1 op · 94 bytes ✓ old + patch = new"
    );
    assert!(per_key.contains("diagnostic compact sev-note"));
    assert!(per_key.contains("Nothing: it tests nothing"));
    // Both columns can go; one more can come.
    assert_eq!(count(&html, r#"aria-label="Remove column"#), 2);
    assert!(html.contains(r#"<button type="button" class="add-column">+ Add a column</button>"#));
    assert!(html.contains(r#"<p class="legend"><span class="only-badge">only here</span>"#));
    assert!(opening(&html, r#"aria-busy="false""#).is_some());
}

#[test]
fn a_merge_column_shows_lint_on_its_whole_body() {
    // A finalizer added: the merge patch sends the whole list, and the
    // column says so as Check would.
    let state = BuildState::default()
        .reduce(BuildAction::EditOld(
            "metadata:\n  name: vmi\n  finalizers: [a]\n".into(),
        ))
        .reduce(BuildAction::EditNew(
            "metadata:\n  name: vmi\n  finalizers: [a, b]\n".into(),
        ))
        .reduce(BuildAction::SetPreset(1, Preset::Merge))
        .recomputed();
    let html = columns(&state);
    let column = element(&html, r#"aria-label="Column 2: merge""#).unwrap();
    let body = element(column, r#"aria-label="Lint on the whole body""#).unwrap();
    assert!(body.contains(r#"<code class="rule">merge-replaces-list</code>"#));
    assert_eq!(count(body, "diagnostic compact"), 1);
}

#[test]
fn columns_say_when_results_lag_behind_and_bodies_show_whole() {
    let state = computed_default();
    // A parse error: the last good results stay, and the note says why.
    let broken = state.reduce(BuildAction::EditNew("{".into())).recomputed();
    let html = columns(&broken);
    assert_eq!(
        text(element(&html, r#"class="stale-note""#).unwrap()),
        "Showing the last result that parsed: fix the error in the editor to update."
    );
    assert!(opening(&html, r#"aria-busy="false""#)
        .unwrap()
        .contains("results stale"));
    // Behind and not blocked: busy.
    let behind = state.reduce(BuildAction::EditNew(state.old.text.clone()));
    let html = columns(&behind);
    assert!(opening(&html, r#"aria-busy="true""#).is_some());
    // A merge patch column: the body, no op list, no findings.
    let merge = state
        .reduce(BuildAction::SetPreset(1, Preset::Merge))
        .recomputed();
    let html = columns(&merge);
    let column = element(&html, r#"aria-label="Column 2: merge""#).unwrap();
    assert!(column.contains(r#"aria-label="The body""#));
    assert_eq!(count(column, "<ol"), 0);
    assert_eq!(count(column, "diagnostic"), 0);
    assert!(text(column).contains("Copy body"));
    assert!(
        !text(column).contains("Copy Go"),
        "Go's builder writes JSON patches only"
    );
    // Six columns: no more can be added.
    let mut full = merge;
    while full.columns.len() < MAX_COLUMNS {
        full = full.reduce(BuildAction::AddColumn);
    }
    let html = columns(&full.recomputed());
    assert_eq!(count(&html, "<article"), MAX_COLUMNS);
    assert_eq!(count(&html, "add-column"), 0);
}

#[test]
fn the_strategic_preset_is_offered_for_a_built_in_kind_only() {
    // The first example is a VMI (a custom resource): no strategic choice.
    let vmi = columns(&computed_default());
    assert!(vmi.contains(r#"<option value="kubevirt-main" selected="selected">"#));
    assert!(!vmi.contains(r#"value="strategic""#));
    // A Pod: every column offers it, and a strategic column shows its body.
    let pod = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: a\n    image: one\n";
    let state = computed_default()
        .reduce(BuildAction::EditOld(pod.into()))
        .reduce(BuildAction::EditNew(pod.replace("one", "two").into()))
        .reduce(BuildAction::SetPreset(1, Preset::Strategic))
        .recomputed();
    let html = columns(&state);
    assert_eq!(count(&html, r#"<option value="strategic""#), 2);
    let column = element(&html, r#"aria-label="Column 2: strategic""#).unwrap();
    assert!(column.contains(r#"<option value="strategic" selected="selected">"#));
    assert!(column.contains(r#"aria-label="The body""#));
    assert!(text(column).contains("application/strategic-merge-patch+json"));
    // Back to a VMI: the column keeps its choice (and shows the server's
    // refusal); the other column no longer offers it.
    let back = state
        .reduce(BuildAction::EditOld(computed_default().old.text.clone()))
        .reduce(BuildAction::EditNew(computed_default().new.text.clone()))
        .recomputed();
    let html = columns(&back);
    assert_eq!(count(&html, r#"<option value="strategic""#), 1);
    let column = element(&html, r#"aria-label="Column 2: strategic""#).unwrap();
    assert!(text(column).contains("custom resource"));
}

#[test]
fn the_fields_table_offers_each_strategy_per_column_the_preset_s_first() {
    let html = fields(&computed_default());
    assert!(text(&html).contains(
        "Changed field Kind Change Column 1 (kubevirt-main) Column 2 (kubevirt-per-key)"
    ));
    assert_eq!(count(&html, "<tr>"), 2, "the header and one changed field");
    let row = element(&html, r#"scope="row""#).unwrap();
    assert_eq!(text(row), "/metadata/labels");
    let first = element(
        &html,
        r#"aria-label="Strategy for /metadata/labels in column 1""#,
    )
    .unwrap();
    assert!(first.contains(r#"<option value="" selected="selected">whole-map (preset)</option>"#));
    assert!(first.contains(r#"<option value="per-key">per-key</option>"#));
    assert_eq!(
        count(first, "whole-map"),
        1,
        "the preset's own is offered once"
    );
    // An override is shown as chosen.
    let overridden = computed_default()
        .reduce(BuildAction::SetOverride(
            1,
            "/metadata/labels".parse().unwrap(),
            Some(crate::strategy::Strategy::WholeMap),
        ))
        .recomputed();
    let html = fields(&overridden);
    let second = element(
        &html,
        r#"aria-label="Strategy for /metadata/labels in column 2""#,
    )
    .unwrap();
    assert!(second.contains(r#"<option value="whole-map" selected="selected">"#));
    // A whole-object column has no per-field strategy.
    let update = computed_default()
        .reduce(BuildAction::SetPreset(1, Preset::Update))
        .recomputed();
    assert!(text(&fields(&update)).contains("one body for the whole object"));
    // Nothing changed: nothing to list.
    let same = computed_default()
        .reduce(BuildAction::EditNew(computed_default().old.text.clone()))
        .recomputed();
    assert_eq!(
        text(&fields(&same)),
        "Fields No field differs between the old and the new object."
    );
}

/// While a Convert or Format waits for the engines, the toolbar says so
/// and marks its format controls busy; otherwise it says nothing.
#[test]
fn the_toolbar_says_when_a_conversion_waits_for_the_engines() {
    let toolbar = |converting: bool| {
        render_view(super::toolbar::toolbar(&yew::props!(
            super::toolbar::ToolbarProps {
                example: None,
                format: crate::input::Format::Yaml,
                converting,
                kubernetes: crate::kube::KubeVersion::default(),
                undo: false,
                copy: copy(),
                send: Callback::noop(),
                onshare: Callback::noop(),
            }
        )))
    };
    let waiting = toolbar(true);
    assert_eq!(count(&waiting, "Converting…"), 1);
    assert_eq!(count(&waiting, r#"aria-busy="true""#), 2);
    let idle = toolbar(false);
    assert_eq!(count(&idle, "Converting…"), 0);
    assert_eq!(count(&idle, r#"aria-busy="true""#), 0);
    assert_eq!(count(&idle, r#"aria-busy="false""#), 2);
}
