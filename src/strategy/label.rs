//! What a writer or a result column runs, named: its preset and each
//! per-field override, so a label never hides an override.

use super::policy::{Preset, Strategy};

/// The name of a preset with its per-field overrides, in path order:
/// `kubevirt-main`, or `kubevirt-main + /status/migrationState:
/// add-if-absent`.
///
/// ```
/// use patchlab::strategy::{label, Preset, Strategy};
///
/// assert_eq!(label(Preset::KubevirtMain, []), "kubevirt-main");
/// assert_eq!(
///     label(Preset::KubevirtMain, [("/status/migrationState", Strategy::AddIfAbsent)]),
///     "kubevirt-main + /status/migrationState: add-if-absent"
/// );
/// ```
pub fn label<'a>(
    preset: Preset,
    overrides: impl IntoIterator<Item = (&'a str, Strategy)>,
) -> String {
    let mut out = preset.as_str().to_owned();
    for (path, strategy) in overrides {
        out.push_str(&format!(
            " + {path}: {strategy}",
            strategy = strategy.as_str()
        ));
    }
    out
}

/// The preset's one-line summary, then what each override sends instead:
/// `KubeVirt today ...; overridden here: /status/migrationState sends a
/// plain add when absent ...`.
pub fn label_summary<'a>(
    preset: Preset,
    overrides: impl IntoIterator<Item = (&'a str, Strategy)>,
) -> String {
    let changes: Vec<String> = overrides
        .into_iter()
        .map(|(path, strategy)| format!("{path}: {}", strategy.summary()))
        .collect();
    if changes.is_empty() {
        return preset.summary().to_owned();
    }
    format!(
        "{}; overridden here, {}",
        preset.summary(),
        changes.join("; ")
    )
}
