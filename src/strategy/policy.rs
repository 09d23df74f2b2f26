//! Field policy: what kind of field lives at a path, and which strategy
//! patches it.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use serde_json::Value;

use crate::pointer::{Pointer, PointerBuf};

/// What a field is, for patching purposes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FieldKind {
    /// A Go map (`map[string]string`): keys are independent entries.
    Map,
    /// A list whose elements are unique and unordered in meaning
    /// (finalizers).
    SetList,
    /// A list replaced as a whole (conditions, interfaces, volumeStatus).
    AtomicList,
    /// A struct patched as one unit (migrationState).
    Struct,
    /// A string, number or boolean.
    Scalar,
    /// A plain object: patched field by field.
    Object,
    /// Written only by the server (`resourceVersion`, `managedFields`, ...):
    /// never patched.
    Ignored,
}

impl FieldKind {
    /// A short lowercase name: `map`, `set-list`, ...
    pub fn as_str(self) -> &'static str {
        match self {
            FieldKind::Map => "map",
            FieldKind::SetList => "set-list",
            FieldKind::AtomicList => "atomic-list",
            FieldKind::Struct => "struct",
            FieldKind::Scalar => "scalar",
            FieldKind::Object => "object",
            FieldKind::Ignored => "ignored",
        }
    }
}

impl fmt::Display for FieldKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How one field is patched. The names are the ones the CLI and the UI use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Strategy {
    /// Maps: `test` + `replace` of the whole map (`add` when absent).
    WholeMap,
    /// Maps: PR #18139's `GeneratePerKeyMapPatches`.
    PerKey,
    /// Maps: `SyncPodAnnotations`: `add` per differing key; no tests, no removes.
    AddOnly,
    /// Lists: `test` + `replace` of the whole list.
    WholeSlice,
    /// Lists: `test` of the old list + `add` of the new one.
    TestAdd,
    /// Lists: per-element ops in kube-runtime's finalizer style.
    Element,
    /// `test` + `replace`.
    TestReplace,
    /// `add` when the old value is absent or null, else `test` + `replace`.
    AddIfAbsent,
    /// `test(null)` + `add` when absent, else `test` + `replace`.
    GuardedAdd,
    /// Structs: field by field (skip equal, `add` over zero, else `test` + `replace`).
    PerField,
    /// `add`/`replace`/`remove` with no test at all.
    Blind,
    /// A full-object write carrying `metadata.resourceVersion` (not a JSON patch).
    Update,
    /// The ops (blind) plus a leading `test` of `/metadata/resourceVersion`.
    RvTest,
    /// An RFC 7386 JSON merge patch.
    MergePatch,
    /// A server-side-apply configuration.
    Apply,
    /// A strategic merge patch (what `kubectl patch` sends by default;
    /// built-in kinds only).
    StrategicMerge,
}

impl Strategy {
    /// Every strategy, in the order the UI lists them.
    pub const ALL: [Strategy; 16] = [
        Strategy::WholeMap,
        Strategy::PerKey,
        Strategy::AddOnly,
        Strategy::WholeSlice,
        Strategy::TestAdd,
        Strategy::Element,
        Strategy::TestReplace,
        Strategy::AddIfAbsent,
        Strategy::GuardedAdd,
        Strategy::PerField,
        Strategy::Blind,
        Strategy::Update,
        Strategy::RvTest,
        Strategy::MergePatch,
        Strategy::Apply,
        Strategy::StrategicMerge,
    ];

    /// The name used by the CLI and the UI.
    pub fn as_str(self) -> &'static str {
        match self {
            Strategy::WholeMap => "whole-map",
            Strategy::PerKey => "per-key",
            Strategy::AddOnly => "add-only",
            Strategy::WholeSlice => "whole-slice",
            Strategy::TestAdd => "test-add",
            Strategy::Element => "element",
            Strategy::TestReplace => "test-replace",
            Strategy::AddIfAbsent => "add-if-absent",
            Strategy::GuardedAdd => "guarded-add",
            Strategy::PerField => "per-field",
            Strategy::Blind => "blind",
            Strategy::Update => "update",
            Strategy::RvTest => "rv-test",
            Strategy::MergePatch => "merge-patch",
            Strategy::Apply => "apply",
            Strategy::StrategicMerge => "strategic-merge",
        }
    }

    /// One line on what the strategy sends.
    pub fn summary(self) -> &'static str {
        match self {
            Strategy::WholeMap => "test + replace of the whole map (add when absent)",
            Strategy::PerKey => "per key: add new keys without test, test + replace changed ones, remove dropped ones (PR #18139)",
            Strategy::AddOnly => "add each differing key; never tests, never removes (SyncPodAnnotations)",
            Strategy::WholeSlice => "test + replace of the whole list",
            Strategy::TestAdd => "test the old list, then add the new one (guarded upsert)",
            Strategy::Element => "per element: test the list and append at '-'; test an element at its index and remove it",
            Strategy::TestReplace => "test the old value, then replace it",
            Strategy::AddIfAbsent => "add when the old value is absent or null, else test + replace",
            Strategy::GuardedAdd => "test null + add when absent, else test + replace",
            Strategy::PerField => "field by field: skip equal, add over a zero value, else test + replace",
            Strategy::Blind => "add, replace or remove with no test at all",
            Strategy::Update => "a full-object Update carrying metadata.resourceVersion",
            Strategy::RvTest => "the ops plus a leading test of /metadata/resourceVersion",
            Strategy::MergePatch => "an RFC 7386 JSON merge patch",
            Strategy::Apply => "a server-side-apply configuration of the fields this writer manages",
            Strategy::StrategicMerge => "a strategic merge patch: lists merge by their schema's merge key, the rest like a merge patch (built-in kinds only)",
        }
    }

    /// True for strategies that apply to the whole object rather than one
    /// field.
    pub fn is_whole_object(self) -> bool {
        matches!(
            self,
            Strategy::Update
                | Strategy::RvTest
                | Strategy::MergePatch
                | Strategy::Apply
                | Strategy::StrategicMerge
        )
    }

    /// The field kinds this strategy is meant for (empty for whole-object
    /// strategies).
    pub fn kinds(self) -> &'static [FieldKind] {
        match self {
            Strategy::WholeMap | Strategy::PerKey | Strategy::AddOnly => &[FieldKind::Map],
            Strategy::WholeSlice | Strategy::TestAdd | Strategy::Element => {
                &[FieldKind::SetList, FieldKind::AtomicList]
            }
            Strategy::PerField => &[FieldKind::Struct],
            Strategy::TestReplace
            | Strategy::AddIfAbsent
            | Strategy::GuardedAdd
            | Strategy::Blind => &[
                FieldKind::Map,
                FieldKind::SetList,
                FieldKind::AtomicList,
                FieldKind::Struct,
                FieldKind::Scalar,
            ],
            Strategy::Update
            | Strategy::RvTest
            | Strategy::MergePatch
            | Strategy::Apply
            | Strategy::StrategicMerge => &[],
        }
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Strategy {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, UnknownName> {
        Strategy::ALL
            .into_iter()
            .find(|strategy| strategy.as_str() == s)
            .ok_or_else(|| UnknownName::new("strategy", s, Strategy::ALL.map(Strategy::as_str)))
    }
}

/// A named choice of strategy for every field kind.
///
/// The two KubeVirt presets are read from KubeVirt's code (docs/fidelity.md
/// section 9 names the files and lines): [`Preset::KubevirtMain`] is what
/// its controllers send today, [`Preset::KubevirtPerKey`] is that code with
/// PR #18139's per-key map ops. The names they had before
/// ([`Preset::ALIASES`]) are still read, so old links and scenario files
/// open; only the current names are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Preset {
    /// KubeVirt's code today (main at [`KUBEVIRT_COMMIT`]): a whole-map
    /// test and replace for maps, whole-slice for lists, add-if-absent for
    /// other fields; test(null) and add for the first write of
    /// `status.migrationState`, test and add for `status.interfaces`,
    /// add-if-absent for `status.volumeStatus`.
    KubevirtMain,
    /// PR #18139, "Use per-key JSON Patch operations for VMI map fields"
    /// (open, not in [`KUBEVIRT_COMMIT`]): [`Preset::KubevirtMain`] with
    /// per-key map ops.
    #[default]
    KubevirtPerKey,
    /// No tests anywhere.
    Naive,
    /// Blind ops guarded by one test of `metadata.resourceVersion`.
    Optimistic,
    /// An RFC 7386 merge patch.
    Merge,
    /// Server-side apply.
    Ssa,
    /// A full-object `Update()` (PUT) with `resourceVersion`.
    Update,
    /// A strategic merge patch, as kubectl computes it
    /// (`CreateTwoWayMergePatch`): built-in kinds only (a custom resource
    /// answers 415), so not in [`Preset::ALL`] (see [`Preset::EVERY`]).
    Strategic,
}

/// The kubevirt/kubevirt commit [`Preset::KubevirtMain`] was read from
/// (main, 2026-08-22; PR #18139 is not merged there).
pub const KUBEVIRT_COMMIT: &str = "d923fdb815cd2016ddaebdaaa51db04133576d72";

/// Fields KubeVirt's controllers write with a strategy of their own rather
/// than the one of their kind (at [`KUBEVIRT_COMMIT`]).
const KUBEVIRT_FIELDS: [(&str, Strategy); 3] = [
    // pkg/virt-controller/watch/migration/migration.go, patchVMI (lines
    // 336-346): test(old) + add when the old state is nil, so a nil old
    // state is test(null) + add; test + replace otherwise.
    ("/status/migrationState", Strategy::GuardedAdd),
    // pkg/virt-controller/watch/vmi/lifecycle.go, prepareVMIPatch (lines
    // 712-716): test(old interfaces) + add(new interfaces).
    ("/status/interfaces", Strategy::TestAdd),
    // vmi/lifecycle.go prepareVMIPatch (lines 632-643): add when nil, else
    // test + replace.
    ("/status/volumeStatus", Strategy::AddIfAbsent),
];

impl Preset {
    /// Every preset, in the order the UI lists them.
    pub const ALL: [Preset; 7] = [
        Preset::KubevirtMain,
        Preset::KubevirtPerKey,
        Preset::Naive,
        Preset::Optimistic,
        Preset::Merge,
        Preset::Ssa,
        Preset::Update,
    ];

    /// Every preset: [`Preset::ALL`], then [`Preset::Strategic`], which
    /// only built-in kinds take ([`Preset::for_object`]).
    pub const EVERY: [Preset; 8] = [
        Preset::ALL[0],
        Preset::ALL[1],
        Preset::ALL[2],
        Preset::ALL[3],
        Preset::ALL[4],
        Preset::ALL[5],
        Preset::ALL[6],
        Preset::Strategic,
    ];

    /// True for a preset a custom resource refuses (415 Unsupported Media
    /// Type): [`Preset::Strategic`].
    pub fn builtin_only(self) -> bool {
        self == Preset::Strategic
    }

    /// The presets that make sense for `object` in the release
    /// `kubernetes`: [`Preset::ALL`], plus [`Preset::Strategic`] when the
    /// object's kind is a built-in kind the release serves (a custom
    /// resource answers every strategic merge patch 415; a group version
    /// the release does not serve, 404).
    ///
    /// ```
    /// use patchlab::strategy::Preset;
    /// use serde_json::json;
    ///
    /// let node = json!({"apiVersion": "v1", "kind": "Node"});
    /// let newest = Default::default();
    /// assert_eq!(Preset::for_object(&node, newest).last(), Some(&Preset::Strategic));
    /// let vmi = json!({"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachineInstance"});
    /// assert_eq!(Preset::for_object(&vmi, newest), Preset::ALL.to_vec());
    /// ```
    pub fn for_object(object: &Value, kubernetes: crate::kube::KubeVersion) -> Vec<Preset> {
        let target = crate::schema::for_release(kubernetes).target_of(object);
        let takes = target.schema().is_some_and(|kind| kind.is_builtin());
        Preset::EVERY
            .into_iter()
            .filter(|p| !p.builtin_only() || takes)
            .collect()
    }

    /// Names presets had before, still read (links, scenario files, the
    /// CLI) but never written: `kubevirt-head` was KubeVirt's code before
    /// PR #18139 (which is still KubeVirt's code today), `kubevirt-pr18139`
    /// the PR's per-key ops.
    pub const ALIASES: [(&'static str, Preset); 2] = [
        ("kubevirt-head", Preset::KubevirtMain),
        ("kubevirt-pr18139", Preset::KubevirtPerKey),
    ];

    /// The name used by the CLI and the UI.
    pub fn as_str(self) -> &'static str {
        match self {
            Preset::KubevirtMain => "kubevirt-main",
            Preset::KubevirtPerKey => "kubevirt-per-key",
            Preset::Naive => "naive",
            Preset::Optimistic => "optimistic",
            Preset::Merge => "merge",
            Preset::Ssa => "ssa",
            Preset::Update => "update",
            Preset::Strategic => "strategic",
        }
    }

    /// One line on what the preset stands for.
    pub fn summary(self) -> &'static str {
        match self {
            // The files and lines each preset follows: docs/fidelity.md section 9.
            Preset::KubevirtMain => {
                "KubeVirt today (main at d923fdb): whole-map test + replace of labels and annotations, whole-list test + replace, guarded first writes"
            }
            Preset::KubevirtPerKey => {
                "KubeVirt with PR #18139 (open): per-key map ops, otherwise like kubevirt-main"
            }
            Preset::Naive => "no test ops: whatever is sent overwrites",
            Preset::Optimistic => "blind ops behind one test of metadata.resourceVersion",
            Preset::Merge => "a JSON merge patch (RFC 7386)",
            Preset::Ssa => "server-side apply with a field manager",
            Preset::Update => "a full Update() with resourceVersion",
            Preset::Strategic => {
                "a strategic merge patch, as kubectl computes it (built-in kinds only)"
            }
        }
    }

    /// The whole-object strategy this preset uses, if any.
    pub fn whole_object(self) -> Option<Strategy> {
        match self {
            Preset::Optimistic => Some(Strategy::RvTest),
            Preset::Merge => Some(Strategy::MergePatch),
            Preset::Ssa => Some(Strategy::Apply),
            Preset::Update => Some(Strategy::Update),
            Preset::Strategic => Some(Strategy::StrategicMerge),
            _ => None,
        }
    }

    /// The strategy for a field of `kind`.
    pub fn strategy_for(self, kind: FieldKind) -> Strategy {
        let base = match self {
            Preset::KubevirtMain => Strategy::WholeMap,
            Preset::KubevirtPerKey => Strategy::PerKey,
            _ => Strategy::Blind,
        };
        match (self, kind) {
            (Preset::KubevirtMain | Preset::KubevirtPerKey, FieldKind::Map) => base,
            (
                Preset::KubevirtMain | Preset::KubevirtPerKey,
                FieldKind::SetList | FieldKind::AtomicList,
            ) => Strategy::WholeSlice,
            (Preset::KubevirtMain | Preset::KubevirtPerKey, _) => Strategy::AddIfAbsent,
            _ => Strategy::Blind,
        }
    }

    /// The strategy for the field at `path` of `kind`: the KubeVirt
    /// presets write a few fields their own way (`status.migrationState`,
    /// `status.interfaces`, `status.volumeStatus`); otherwise
    /// [`Preset::strategy_for`] its kind.
    pub fn strategy_at(self, path: &Pointer, kind: FieldKind) -> Strategy {
        if matches!(self, Preset::KubevirtMain | Preset::KubevirtPerKey) {
            if let Some((_, strategy)) = KUBEVIRT_FIELDS.iter().find(|(p, _)| *p == path.as_str()) {
                return *strategy;
            }
        }
        self.strategy_for(kind)
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Preset {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, UnknownName> {
        Preset::EVERY
            .into_iter()
            .find(|preset| preset.as_str() == s)
            .or_else(|| {
                Preset::ALIASES
                    .iter()
                    .find(|(alias, _)| *alias == s)
                    .map(|(_, preset)| *preset)
            })
            .ok_or_else(|| UnknownName::new("preset", s, Preset::EVERY.map(Preset::as_str)))
    }
}

/// A name that is not one of a closed set (a preset, a strategy, a field
/// kind), with the names that are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownName {
    /// What was being named: `preset`, `strategy`, `field kind`.
    pub what: &'static str,
    /// The name given.
    pub given: String,
    /// Every accepted name.
    pub accepted: Vec<&'static str>,
}

impl UnknownName {
    fn new(
        what: &'static str,
        given: &str,
        accepted: impl IntoIterator<Item = &'static str>,
    ) -> UnknownName {
        UnknownName {
            what,
            given: given.to_owned(),
            accepted: accepted.into_iter().collect(),
        }
    }
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown {} {:?}; expected one of {}",
            self.what,
            self.given,
            self.accepted.join(", ")
        )
    }
}

impl std::error::Error for UnknownName {}

macro_rules! serde_by_name {
    ($ty:ty) => {
        impl serde::Serialize for $ty {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let name = String::deserialize(deserializer)?;
                name.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}

serde_by_name!(Strategy);
serde_by_name!(Preset);
serde_by_name!(FieldKind);

impl FromStr for FieldKind {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, UnknownName> {
        const ALL: [FieldKind; 7] = [
            FieldKind::Map,
            FieldKind::SetList,
            FieldKind::AtomicList,
            FieldKind::Struct,
            FieldKind::Scalar,
            FieldKind::Object,
            FieldKind::Ignored,
        ];
        ALL.into_iter()
            .find(|kind| kind.as_str() == s)
            .ok_or_else(|| UnknownName::new("field kind", s, ALL.map(FieldKind::as_str)))
    }
}

/// Field kinds KubeVirt objects (VMI, VM, migration) and pods share.
const DEFAULT_KINDS: [(&str, FieldKind); 13] = [
    ("/metadata/labels", FieldKind::Map),
    ("/metadata/annotations", FieldKind::Map),
    ("/metadata/finalizers", FieldKind::SetList),
    ("/metadata/resourceVersion", FieldKind::Ignored),
    ("/metadata/generation", FieldKind::Ignored),
    ("/metadata/managedFields", FieldKind::Ignored),
    ("/metadata/uid", FieldKind::Ignored),
    ("/metadata/creationTimestamp", FieldKind::Ignored),
    ("/status/activePods", FieldKind::Map),
    ("/status/conditions", FieldKind::AtomicList),
    ("/status/interfaces", FieldKind::AtomicList),
    ("/status/volumeStatus", FieldKind::AtomicList),
    ("/status/migrationState", FieldKind::Struct),
];

/// Which kind and strategy apply at each path: defaults for KubeVirt
/// objects and pods, a preset, and per-path overrides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Policy {
    /// The preset naming a strategy per field kind.
    pub preset: Preset,
    kinds: BTreeMap<PointerBuf, FieldKind>,
    overrides: BTreeMap<PointerBuf, Strategy>,
}

impl Default for Policy {
    fn default() -> Self {
        Policy::new(Preset::default())
    }
}

impl Policy {
    /// The default field kinds with `preset`.
    pub fn new(preset: Preset) -> Policy {
        // Inserted one by one, not collected (see `crate::sort`).
        let mut kinds = BTreeMap::new();
        kinds.extend(
            DEFAULT_KINDS
                .iter()
                .filter_map(|(path, kind)| PointerBuf::parse(*path).ok().map(|p| (p, *kind))),
        );
        Policy {
            preset,
            kinds,
            overrides: BTreeMap::new(),
        }
    }

    /// Sets the kind of the field at `path`.
    pub fn set_kind(&mut self, path: PointerBuf, kind: FieldKind) {
        self.kinds.insert(path, kind);
    }

    /// Patches the field at `path` with `strategy`, whatever the preset says.
    pub fn set_strategy(&mut self, path: PointerBuf, strategy: Strategy) {
        self.overrides.insert(path, strategy);
    }

    /// The fields only the server writes (`resourceVersion`, `uid`,
    /// `managedFields`, ...): never patched, and not part of a round trip.
    pub fn server_written(&self) -> impl Iterator<Item = &Pointer> {
        self.kinds
            .iter()
            .filter(|(_, kind)| **kind == FieldKind::Ignored)
            .map(|(path, _)| path.as_pointer())
    }

    /// The per-path overrides.
    pub fn overrides(&self) -> impl Iterator<Item = (&Pointer, Strategy)> {
        self.overrides.iter().map(|(p, s)| (p.as_pointer(), *s))
    }

    /// The declared kind at `path`, if any (an override's strategy implies
    /// its kind).
    pub fn declared_kind(&self, path: &Pointer) -> Option<FieldKind> {
        if let Some(kind) = self.kinds.get(path) {
            return Some(*kind);
        }
        self.overrides.get(path).map(|strategy| match strategy {
            Strategy::WholeMap | Strategy::PerKey | Strategy::AddOnly => FieldKind::Map,
            Strategy::WholeSlice | Strategy::TestAdd | Strategy::Element => FieldKind::AtomicList,
            Strategy::PerField => FieldKind::Struct,
            _ => FieldKind::Struct,
        })
    }

    /// The kind of the field at `path` holding `old` and `new`: declared, or
    /// inferred (objects are patched field by field, lists whole, the rest
    /// as scalars).
    pub fn kind_at(&self, path: &Pointer, old: Option<&Value>, new: Option<&Value>) -> FieldKind {
        if let Some(kind) = self.declared_kind(path) {
            return kind;
        }
        let sample = new
            .filter(|v| !v.is_null())
            .or(old.filter(|v| !v.is_null()));
        match sample {
            Some(Value::Object(_)) => FieldKind::Object,
            Some(Value::Array(_)) => FieldKind::AtomicList,
            _ => FieldKind::Scalar,
        }
    }

    /// The strategy for the field at `path` of `kind`.
    pub fn strategy_at(&self, path: &Pointer, kind: FieldKind) -> Strategy {
        self.overrides
            .get(path)
            .copied()
            .unwrap_or_else(|| self.preset.strategy_at(path, kind))
    }
}

/// Reads a path as a JSON Pointer (`/metadata/labels`) or dotted
/// (`metadata.labels`).
///
/// # Errors
///
/// [`PathError`] when the pointer is invalid.
pub fn parse_path(s: &str) -> Result<PointerBuf, PathError> {
    if s.is_empty() || s.starts_with('/') {
        PointerBuf::parse(s).map_err(|error| PathError {
            given: s.to_owned(),
            error,
        })
    } else {
        Ok(PointerBuf::from_tokens(s.split('.')))
    }
}

/// Why a path given by a user (a CLI `--set`, a JS `overrides` key) names
/// no field it could mean: a dotted path with an empty name (`a..b`) or a
/// name holding `~` or `/`, which no Kubernetes field name holds (such a
/// map key is written as a JSON Pointer). `None` for a JSON Pointer or a
/// plain dotted path; [`parse_path`] reads both.
///
/// ```
/// use patchlab::strategy::dotted_path_problem;
/// assert!(dotted_path_problem("metadata.labels").is_none());
/// assert!(dotted_path_problem("/metadata/labels/a~1b").is_none());
/// assert!(dotted_path_problem("~~~").unwrap().contains("'~'"));
/// assert!(dotted_path_problem("a..b").unwrap().contains("empty name"));
/// ```
pub fn dotted_path_problem(s: &str) -> Option<String> {
    if s.is_empty() || s.starts_with('/') {
        return None;
    }
    let why = if s.split('.').any(str::is_empty) {
        "it has an empty name"
    } else if s.contains('~') {
        "a name holds '~'"
    } else if s.contains('/') {
        "a name holds '/'"
    } else {
        return None;
    };
    Some(format!(
        "{:?} is not a path: read as a dotted path (it does not start with '/'), {why}; write a field as a.b.c, or a JSON Pointer (/a/b/c, with ~0 for '~' and ~1 for '/' in a key)",
        crate::text::cut(s, 200)
    ))
}

/// A path that is not a valid JSON Pointer.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PathError {
    /// The path as given.
    pub given: String,
    /// What is wrong with it.
    pub error: crate::pointer::ParseError,
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}: {}", self.given, self.error)
    }
}

impl std::error::Error for PathError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for strategy in Strategy::ALL {
            assert_eq!(strategy.as_str().parse::<Strategy>(), Ok(strategy));
        }
        for preset in Preset::EVERY {
            assert_eq!(preset.as_str().parse::<Preset>(), Ok(preset));
        }
        assert!(!Preset::ALL.contains(&Preset::Strategic));
        // The old names still read, as the presets they were renamed to,
        // and are never written.
        assert_eq!("kubevirt-head".parse(), Ok(Preset::KubevirtMain));
        assert_eq!("kubevirt-pr18139".parse(), Ok(Preset::KubevirtPerKey));
        assert_eq!(
            serde_json::from_str::<Preset>("\"kubevirt-head\"").unwrap(),
            Preset::KubevirtMain
        );
        assert_eq!(
            serde_json::to_string(&Preset::KubevirtMain).unwrap(),
            "\"kubevirt-main\""
        );
        let err = "kubevirt-nope".parse::<Preset>().unwrap_err();
        assert!(
            err.to_string()
                .ends_with("expected one of kubevirt-main, kubevirt-per-key, naive, optimistic, merge, ssa, update, strategic"),
            "{err}"
        );
        let err = "per_key".parse::<Strategy>().unwrap_err();
        assert_eq!((err.what, err.given.as_str()), ("strategy", "per_key"));
        assert!(
            err.to_string()
                .contains("expected one of whole-map, per-key"),
            "{err}"
        );
    }

    #[test]
    fn presets_pick_a_strategy_per_kind() {
        use FieldKind::*;
        let table = [
            (
                Preset::KubevirtMain,
                [
                    Strategy::WholeMap,
                    Strategy::WholeSlice,
                    Strategy::WholeSlice,
                    Strategy::AddIfAbsent,
                    Strategy::AddIfAbsent,
                ],
            ),
            (
                Preset::KubevirtPerKey,
                [
                    Strategy::PerKey,
                    Strategy::WholeSlice,
                    Strategy::WholeSlice,
                    Strategy::AddIfAbsent,
                    Strategy::AddIfAbsent,
                ],
            ),
            (Preset::Naive, [Strategy::Blind; 5]),
        ];
        for (preset, strategies) in table {
            for (kind, strategy) in [Map, SetList, AtomicList, Struct, Scalar]
                .into_iter()
                .zip(strategies)
            {
                assert_eq!(preset.strategy_for(kind), strategy, "{preset} {kind}");
            }
        }
        assert_eq!(Preset::Optimistic.whole_object(), Some(Strategy::RvTest));
        // KubeVirt's own fields (migration.go patchVMI, vmi/lifecycle.go
        // prepareVMIPatch), in both KubeVirt presets; others go by kind.
        let at = |preset: Preset, path: &str, kind| {
            preset.strategy_at(Pointer::parse(path).unwrap(), kind)
        };
        let fields = [
            ("/status/migrationState", Struct, Strategy::GuardedAdd),
            ("/status/interfaces", AtomicList, Strategy::TestAdd),
            ("/status/volumeStatus", AtomicList, Strategy::AddIfAbsent),
            ("/status/conditions", AtomicList, Strategy::WholeSlice),
        ];
        for preset in [Preset::KubevirtMain, Preset::KubevirtPerKey] {
            for (path, kind, strategy) in fields {
                assert_eq!(at(preset, path, kind), strategy, "{preset} {path}");
            }
        }
        assert_eq!(
            at(Preset::Naive, "/status/migrationState", Struct),
            Strategy::Blind
        );
        assert_eq!(Preset::default(), Preset::KubevirtPerKey);
    }

    #[test]
    fn default_kinds_and_overrides() {
        let mut policy = Policy::default();
        let labels = Pointer::parse("/metadata/labels").unwrap();
        assert_eq!(policy.kind_at(labels, None, None), FieldKind::Map);
        assert_eq!(policy.strategy_at(labels, FieldKind::Map), Strategy::PerKey);
        policy.set_strategy(labels.to_buf(), Strategy::WholeMap);
        assert_eq!(
            policy.strategy_at(labels, FieldKind::Map),
            Strategy::WholeMap
        );

        let spec = Pointer::parse("/spec/x").unwrap();
        let obj = serde_json::json!({"a": 1});
        assert_eq!(policy.kind_at(spec, Some(&obj), None), FieldKind::Object);
        assert_eq!(
            policy.kind_at(spec, None, Some(&serde_json::json!([1]))),
            FieldKind::AtomicList
        );
        assert_eq!(
            policy.kind_at(spec, Some(&Value::Null), Some(&serde_json::json!(1))),
            FieldKind::Scalar
        );
        // Overriding with a map strategy makes the field a map.
        policy.set_strategy(spec.to_buf(), Strategy::PerKey);
        assert_eq!(policy.kind_at(spec, Some(&obj), None), FieldKind::Map);
    }

    #[test]
    fn paths_parse_as_pointer_or_dotted() {
        assert_eq!(
            parse_path("/metadata/labels").unwrap().as_str(),
            "/metadata/labels"
        );
        assert_eq!(
            parse_path("status.activePods").unwrap().as_str(),
            "/status/activePods"
        );
        assert!(parse_path("/bad~2").is_err());
    }
}
