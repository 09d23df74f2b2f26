//! A patch's conflict surface and silent overwrites, in Build's result
//! columns (a strategy's plan) and in Check (a pasted patch, as lint
//! reads it).

use yew::prelude::*;

use super::TermHelp;
use crate::strategy::{Overwrite, Precondition};
use crate::vocabulary::Term;

#[derive(PartialEq, Properties)]
pub struct ConflictSurfaceProps {
    /// Concurrent changes that make the patch fail.
    pub conflicts: Vec<Precondition>,
    /// Concurrent changes it would silently overwrite.
    pub overwrites: Vec<Overwrite>,
    /// How many conflicts and overwrites are left out of the lists (a long
    /// patch's, in Check).
    #[prop_or_default]
    pub left_out: (usize, usize),
}

/// "… and 9,800 more", when some are left out.
fn more(n: usize) -> Html {
    if n == 0 {
        return html! {};
    }
    html! { <li class="muted">{ format!("… and {n} more") }</li> }
}

/// What makes the patch fail, and what it writes without a guard.
pub fn conflict_surface(props: &ConflictSurfaceProps) -> Html {
    html! {
        <div class="surface">
            <h4>{ Term::ConflictSurface.label() }<TermHelp term={Term::ConflictSurface} /></h4>
            if props.conflicts.is_empty() {
                <p class="muted">{ "Nothing: it tests nothing, so no concurrent change makes it fail." }</p>
            } else {
                <ul>
                    { for props.conflicts.iter().map(|c| html! {
                        <li><code>{ if c.path.is_empty() { "(the whole object)".to_owned() } else { c.path.clone() } }</code>{ " " }<span class="muted">{ c.reason.clone() }</span></li>
                    }) }
                    { more(props.left_out.0) }
                </ul>
            }
            <h4>{ Term::SilentOverwrite.label() }<TermHelp term={Term::SilentOverwrite} /></h4>
            if props.overwrites.is_empty() {
                <p class="muted">{ "Nothing it writes goes unchecked." }</p>
            } else {
                <ul>
                    { for props.overwrites.iter().map(|o| html! {
                        <li><code>{ o.path.clone() }</code>{ " " }<span class="muted">{ o.reason.clone() }</span></li>
                    }) }
                    { more(props.left_out.1) }
                </ul>
            }
        </div>
    }
}
