//! Lint on what a strategy sends: the Build view shows, on each column's
//! ops and body, what the Check view says about the same bytes.

use super::{lint_input, BodyKind, Input, Options, Origin, Report};
use crate::strategy::Plan;

/// What lint finds in the body `plan` sends, read as the Check view reads
/// it when that body is pasted: the same bytes, the same findings (no
/// current object, kube-apiserver semantics). `kind` is the object's kind
/// (`Pod`, `VirtualMachineInstance`), which decides who else writes a
/// field and which paths the kind's schema knows.
///
/// `None` when the plan sends no patch (an apply configuration or a whole
/// object: lint does not read those) or nothing at all.
///
/// ```
/// use patchlab::lint::{lint_plan, Rule};
/// use patchlab::strategy::{diff, Options, Preset};
/// use serde_json::json;
///
/// let old = json!({"metadata": {"labels": {"a": "1"}}});
/// let new = json!({"metadata": {"labels": {"a": "1", "b": "2"}}});
/// let head = diff(&old, &new, &Options::preset(Preset::KubevirtMain)).unwrap();
/// let report = lint_plan(&head, None).unwrap();
/// assert_eq!(report.findings[0].rule, Rule::WholeMapTest);
/// let update = diff(&old, &new, &Options::preset(Preset::Update)).unwrap();
/// assert!(lint_plan(&update, None).is_none());
/// ```
pub fn lint_plan(plan: &Plan, kind: Option<&str>) -> Option<Report> {
    let body = plan.body.kind();
    if !matches!(
        body,
        BodyKind::JsonPatch | BodyKind::MergePatch | BodyKind::StrategicMergePatch
    ) || plan.is_empty()
    {
        return None;
    }
    let input = Input {
        kind: body,
        payload: plan.body_text(),
        origin: Origin::Json,
        resource: None,
        hints: Vec::new(),
        wrapper: None,
    };
    let options = Options {
        kind: kind.map(str::to_owned),
        ..Options::default()
    };
    lint_input(&input, &options).ok()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::lint::{Rule, Severity};
    use crate::strategy::{diff, Options as DiffOptions, Preset};

    #[test]
    fn each_preset_s_ops_carry_the_findings_check_would_show() {
        // The seed's race: a label added while virt-handler changes another.
        let old = json!({"metadata": {"labels": {"kubevirt.io/nodeName": "node01"}}});
        let new = json!({"metadata": {"labels": {
            "kubevirt.io/nodeName": "node01",
            "kubevirt.io/migrationTargetNodeName": "node02"
        }}});
        let rules = |preset: Preset| -> Vec<(Rule, Option<usize>, Severity)> {
            let plan = diff(&old, &new, &DiffOptions::preset(preset)).unwrap();
            lint_plan(&plan, None)
                .unwrap()
                .findings
                .iter()
                .map(|f| (f.rule, f.index, f.severity))
                .collect()
        };
        // kubevirt-main tests the whole label map; PR #18139 adds one key.
        assert_eq!(
            rules(Preset::KubevirtMain),
            [(Rule::WholeMapTest, Some(0), Severity::Warning)]
        );
        assert_eq!(
            rules(Preset::KubevirtPerKey),
            [(Rule::AddWithoutTest, Some(0), Severity::Note)]
        );
        let plan = diff(&old, &new, &DiffOptions::preset(Preset::Update)).unwrap();
        assert!(lint_plan(&plan, None).is_none());
    }
}
