//! The Fields table: every changed field, its kind, and per column the
//! strategy that patches it, each overridable.

use std::rc::Rc;

use yew::prelude::*;

use super::recompute::{FieldRow, Results};
use crate::app::components::{select, Choice, SelectProps};
use crate::pointer::PointerBuf;
use crate::strategy::{FieldKind, Preset, Strategy};

#[derive(PartialEq, Properties)]
pub struct FieldsTableProps {
    /// The results, with the rows (derived with them).
    pub results: Rc<Results>,
    pub columns: Vec<Preset>,
    /// Override (or clear) a field's strategy in a column.
    pub onchange: Callback<(usize, PointerBuf, Option<Strategy>)>,
}

fn choices(kind: FieldKind) -> Vec<Strategy> {
    Strategy::ALL
        .into_iter()
        .filter(|s| !s.is_whole_object() && s.kinds().contains(&kind))
        .collect()
}

#[component]
pub fn FieldsTable(props: &FieldsTableProps) -> Html {
    let rows = &props.results.fields;
    html! {
        <section class="fields" aria-labelledby="fields-title">
            <h2 id="fields-title">{ "Fields" }</h2>
            if rows.is_empty() {
                <p class="muted">{ "No field differs between the old and the new object." }</p>
            } else {
                <p class="muted">{ "Every changed field, and how each column patches it: change a strategy for one field in one column." }</p>
                <div class="table-scroll">
                    <table aria-labelledby="fields-title">
                        <thead>
                            <tr>
                                <th scope="col">{ "Changed field" }</th>
                                <th scope="col">{ "Kind" }</th>
                                <th scope="col">{ "Change" }</th>
                                { for props.columns.iter().enumerate().map(|(i, preset)| html! {
                                    <th scope="col">{ format!("Column {} ({preset})", i + 1) }</th>
                                }) }
                            </tr>
                        </thead>
                        <tbody>
                            { for rows.iter().map(|row| html! {
                                <tr>
                                    <th scope="row"><code>{ row.path.to_string() }</code></th>
                                    <td>{ row.kind.as_str() }</td>
                                    <td>{ row.change.clone() }</td>
                                    { for props.columns.iter().enumerate().map(|(i, preset)| html! {
                                        <td>{ strategy_cell(&StrategyCellProps { column: i, preset: *preset, row: row.clone(), onchange: props.onchange.clone() }) }</td>
                                    }) }
                                </tr>
                            }) }
                        </tbody>
                    </table>
                </div>
            }
        </section>
    }
}

struct StrategyCellProps {
    column: usize,
    preset: Preset,
    row: FieldRow,
    onchange: Callback<(usize, PointerBuf, Option<Strategy>)>,
}

fn strategy_cell(props: &StrategyCellProps) -> Html {
    let row = &props.row;
    if let Some(whole) = props.preset.whole_object() {
        return html! { <span class="muted">{ format!("{whole}: one body for the whole object") }</span> };
    }
    let i = props.column;
    let current = row.strategies.get(i).copied().flatten();
    let default = props.preset.strategy_at(&row.path, row.kind);
    let path = row.path.clone();
    let onchange = props
        .onchange
        .reform(move |value: String| (i, path.clone(), value.parse::<Strategy>().ok()));
    // The preset's own strategy first (value ""), then the others.
    let choices: Vec<Choice> = choices(row.kind)
        .into_iter()
        .filter(|s| *s != default)
        .map(|s| Choice::plain(s.as_str()))
        .collect();
    let selected = match current {
        Some(s) if s != default => s.as_str(),
        _ => "",
    };
    html! {
        { select(&yew::props!(SelectProps { aria_label: format!("Strategy for {} in column {}", row.path, i + 1), choices, selected, placeholder: format!("{default} (preset)"), onchange })) }
    }
}
