//! What a Build link holds: the two objects' texts, their format, the
//! result columns (a preset and per-field overrides each) and the
//! Kubernetes release, with the budgets a link must keep.

use std::rc::Rc;

use serde::{Deserialize, Serialize};

use crate::app::link::{LinkError, Shareable};
use crate::app::route::View;
pub use crate::engines::build::Column;
use crate::input::Format;
use crate::kube::KubeVersion;

/// The most result columns.
pub const MAX_COLUMNS: usize = 6;
/// The most per-field overrides in all columns.
pub const MAX_OVERRIDES: usize = 200;

/// What a Build view link holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BuildLink {
    /// The old object's text.
    pub old: Rc<str>,
    /// The new object's text.
    pub new: Rc<str>,
    /// The editors' format.
    pub format: Format,
    /// The result columns.
    pub columns: Vec<Column>,
    /// The example it started from, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub example: Option<String>,
    /// The Kubernetes release the round trips run on (the newest when
    /// not set).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kubernetes: Option<KubeVersion>,
}

impl Shareable for BuildLink {
    const VIEW: View = View::Build;
    const STORAGE_KEY: &'static str = "patchlab.build";

    fn check(&self) -> Result<(), LinkError> {
        if self.columns.is_empty() || self.columns.len() > MAX_COLUMNS {
            return Err(LinkError::OverBudget(format!(
                "{} result columns (1 to {MAX_COLUMNS})",
                self.columns.len()
            )));
        }
        let overrides: usize = self.columns.iter().map(|c| c.overrides.len()).sum();
        if overrides > MAX_OVERRIDES {
            return Err(LinkError::OverBudget(format!(
                "{overrides} field overrides (at most {MAX_OVERRIDES})"
            )));
        }
        Ok(())
    }
}
