//! Lint on what a strategy sends: the Build view shows, on each column's
//! ops, what the Check view would say about them.

use super::{lint_ops, Options, Report};
use crate::patch::Operation;
use crate::strategy::Plan;

/// What lint finds in the ops of `plan` (default options: no current
/// object, kube-apiserver semantics).
///
/// `None` when the plan sends no JSON patch (a merge patch, an apply
/// configuration or a whole object): those bodies have no ops to mark.
///
/// ```
/// use patchlab::lint::{lint_plan, Rule};
/// use patchlab::strategy::{diff, Options, Preset};
/// use serde_json::json;
///
/// let old = json!({"metadata": {"labels": {"a": "1"}}});
/// let new = json!({"metadata": {"labels": {"a": "1", "b": "2"}}});
/// let head = diff(&old, &new, &Options::preset(Preset::KubevirtMain)).unwrap();
/// let report = lint_plan(&head).unwrap();
/// assert_eq!(report.findings[0].rule, Rule::WholeMapTest);
/// let merge = diff(&old, &new, &Options::preset(Preset::Merge)).unwrap();
/// assert!(lint_plan(&merge).is_none());
/// ```
pub fn lint_plan(plan: &Plan) -> Option<Report> {
    let ops: Vec<Operation> = plan.ops()?.iter().map(|p| p.op.clone()).collect();
    Some(lint_ops(&ops, &Options::default()))
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
            lint_plan(&plan)
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
        for preset in [Preset::Merge, Preset::Update] {
            let plan = diff(&old, &new, &DiffOptions::preset(preset)).unwrap();
            assert!(lint_plan(&plan).is_none(), "{preset}");
        }
    }
}
