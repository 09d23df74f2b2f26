//! Where a patch goes. Most patches are requests to a live object that
//! other writers change between the read and the write; the rules about
//! guards, whole-collection writes and the server's request limits are
//! about that. Some patches never meet a concurrent writer:
//!
//! - a **kustomize** patch (`patches`, `patchesJson6902`,
//!   `patchesStrategicMerge`) is applied by `kustomize build` to the
//!   manifests it is built from, before anything reaches a cluster
//!   (kubernetes-sigs/kustomize `api/filters/patchjson6902`,
//!   `api/filters/patchstrategicmerge`);
//! - a **Helm post-renderer** rewrites the rendered manifests the same way
//!   (helm `pkg/postrender`);
//! - a **webhook response** is applied by the API server to the object
//!   under admission, the request's own copy (kubernetes/apiserver
//!   `pkg/admission/plugin/webhook/mutating/dispatcher.go`, `jsonpatch`
//!   on the request's object);
//! - a **restore-time** patch (Velero's resource modifiers) is applied to
//!   the backed-up copy before it is created (vmware-tanzu/velero
//!   `internal/resourcemodifiers/json_patch.go`; a failed `test` skips the
//!   modifier).
//!
//! There, lint drops the rules about concurrent writers and about the
//! server's request handling, and judges what can go wrong at that place.
//! Build-time patches (kustomize, post-renderers) keep one positional
//! hazard of their own: an index past the first element names whatever an
//! upgrade of the base puts there.

use std::str::FromStr;

use super::Rule;

/// Where a patch is applied.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Context {
    /// A request to a live object (the default).
    #[default]
    Live,
    /// `kustomize build`'s patches.
    Kustomize,
    /// A Helm post-renderer.
    HelmPostRenderer,
    /// A mutating admission webhook's response.
    WebhookResponse,
    /// Applied to a backup's copy before it is restored (Velero).
    RestoreTime,
}

/// Every context, in the order `--context` lists them.
pub const CONTEXTS: [Context; 5] = [
    Context::Live,
    Context::Kustomize,
    Context::HelmPostRenderer,
    Context::WebhookResponse,
    Context::RestoreTime,
];

impl Context {
    /// `live`, `kustomize`, `helm-post-renderer`, `webhook-response` or
    /// `restore-time`.
    pub fn as_str(self) -> &'static str {
        match self {
            Context::Live => "live",
            Context::Kustomize => "kustomize",
            Context::HelmPostRenderer => "helm-post-renderer",
            Context::WebhookResponse => "webhook-response",
            Context::RestoreTime => "restore-time",
        }
    }

    /// Where the patch is applied, in words.
    pub fn describe(self) -> &'static str {
        match self {
            Context::Live => "sent to a live object that other writers change",
            Context::Kustomize => "applied by `kustomize build` to the manifests it is built from, before anything reaches a cluster: no concurrent writer and no API server request; an index names whatever the base holds there when it is built",
            Context::HelmPostRenderer => "applied by a Helm post-renderer to the rendered manifests: no concurrent writer and no API server request; an index names whatever the chart renders there",
            Context::WebhookResponse => "applied by the API server to the object under admission (the request's own copy): no concurrent writer between the webhook's read and the patch",
            Context::RestoreTime => "applied to the backup's copy of the object before it is created: no concurrent writer; a failed test skips the modifier",
        }
    }

    /// True for the build-time contexts (kustomize, post-renderers).
    pub fn at_build_time(self) -> bool {
        matches!(self, Context::Kustomize | Context::HelmPostRenderer)
    }

    /// True when a finding of `rule` means something here. Off a live
    /// object, rules about concurrent writers and about the server's
    /// handling of a request do not apply.
    pub fn keeps(self, rule: Rule) -> bool {
        if self == Context::Live {
            return true;
        }
        !matches!(
            rule,
            Rule::WholeMapTest
                | Rule::WholeListTest
                | Rule::IndexWithoutTest
                | Rule::RemoveWithoutTest
                | Rule::AddWithoutTest
                | Rule::WholeCollectionWrite
                | Rule::WholeObjectTest
                | Rule::MergeReplacesList
                | Rule::SmpReplacesList
                | Rule::SmpPatchReplace
                | Rule::RvTest
                | Rule::RvPinnedBody
                | Rule::TooManyOps
                | Rule::BodyTooLarge
                | Rule::SmpCustomResource
                | Rule::TestRetriedOnConflict
                | Rule::MergeFromReplacesList
                | Rule::ReadThenPatch
        )
    }
}

/// A context name that is none of [`CONTEXTS`]: the name given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownContext(pub String);

impl std::fmt::Display for UnknownContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = CONTEXTS.iter().map(|c| c.as_str()).collect();
        write!(
            f,
            "unknown context {:?}: one of {}",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownContext {}

impl FromStr for Context {
    type Err = UnknownContext;

    fn from_str(s: &str) -> Result<Context, UnknownContext> {
        CONTEXTS
            .into_iter()
            .find(|c| c.as_str() == s)
            .ok_or_else(|| UnknownContext(s.to_owned()))
    }
}

/// The first array index of `path` past the first element (`/rules/10`:
/// 10), when the path has one.
pub(super) fn index_past_first(path: &str) -> Option<usize> {
    path.split('/')
        .skip(1)
        .filter_map(|t| {
            t.parse::<usize>()
                .ok()
                .filter(|_| !t.starts_with('0') || t == "0")
        })
        .find(|&n| n >= 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back_and_unknown_ones_list_the_choices() {
        for c in CONTEXTS {
            assert_eq!(c.as_str().parse::<Context>(), Ok(c));
        }
        let err = "kustomise".parse::<Context>().unwrap_err();
        assert_eq!(err, UnknownContext("kustomise".into()));
        assert!(
            err.to_string()
                .contains("one of live, kustomize, helm-post-renderer"),
            "{err}"
        );
    }

    #[test]
    fn indices_past_the_first() {
        assert_eq!(index_past_first("/rules/10"), Some(10));
        assert_eq!(index_past_first("/spec/containers/0/args/-"), None);
        assert_eq!(index_past_first("/spec/containers/0/env/2/value"), Some(2));
        assert_eq!(index_past_first("/metadata/labels/01"), None);
    }
}
