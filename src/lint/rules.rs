//! The rule table: every rule's stable name, severity, one-line summary,
//! explanation and example, as data the CLI, the JS API, the docs and the
//! playground share.

use std::borrow::Cow;
use std::fmt::{self, Write};
use std::str::FromStr;

/// A rule's message filled in: `message!(Rule "name", key = value, ...)`
/// (`key` alone for `key = key`) is the template `name` of the rule's row
/// with each `{key}` replaced by the value's text (`{key:?}`: quoted). The
/// template is found, and its keys checked against the values given, at
/// compile time. (rustfmt leaves the arguments as written.)
macro_rules! message {
    (@value $key:ident) => {
        $key
    };
    (@value $key:ident = $value:expr) => {
        $value
    };
    ($rule:ident $name:literal $(, $key:ident $(= $value:expr)?)* $(,)?) => {
        $crate::lint::rules::fill(
            {
                const TEMPLATE: &str = $crate::lint::rules::template(
                    $crate::lint::Rule::$rule,
                    $name,
                    &[$(stringify!($key)),*],
                );
                TEMPLATE
            },
            &[$((
                stringify!($key),
                &$crate::lint::rules::message!(@value $key $(= $value)?) as &dyn ::std::fmt::Display,
            )),*],
        )
    };
}
pub(crate) use message;

/// The template `name` of `rule`'s row, once every `{key}` of it is known
/// to be one of `keys` and each of `keys` to be used (else compiling fails).
pub(crate) const fn template(rule: Rule, name: &str, keys: &[&str]) -> &'static str {
    let messages = TABLE[rule as usize].messages;
    let mut i = 0;
    while i < messages.len() {
        if same(messages[i].0.as_bytes(), name.as_bytes()) {
            check_keys(messages[i].1.as_bytes(), keys);
            return messages[i].1;
        }
        i += 1;
    }
    panic!("the rule's row has no message of that name")
}

/// Panics unless the `{key}`s of `text` and `keys` are the same set.
const fn check_keys(text: &[u8], keys: &[&str]) {
    let mut used = [false; 16];
    assert!(keys.len() <= used.len(), "too many keys");
    let mut i = 0;
    while i < text.len() {
        let escaped = i + 1 < text.len() && text[i + 1] == text[i];
        if matches!(text[i], b'{' | b'}') && escaped {
            i += 2;
            continue;
        }
        assert!(text[i] != b'}', "a lone closing brace in a message");
        if text[i] != b'{' {
            i += 1;
            continue;
        }
        let (_, rest) = text.split_at(i + 1);
        let mut end = 0;
        while rest[end] != b'}' {
            end += 1;
        }
        let (mut key, _) = rest.split_at(end);
        if let [head @ .., b':', b'?'] = key {
            key = head;
        }
        let mut k = 0;
        while k < keys.len() && !same(keys[k].as_bytes(), key) {
            k += 1;
        }
        assert!(k < keys.len(), "a placeholder of the message has no value");
        used[k] = true;
        i += end + 2;
    }
    let mut k = 0;
    while k < keys.len() {
        assert!(used[k], "a value the message has no placeholder for");
        k += 1;
    }
}

const fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() && a[i] == b[i] {
        i += 1;
    }
    i == a.len()
}

/// `template` with each `{key}` replaced by its value's text, `{key:?}` by
/// it quoted (as `{:?}` quotes a string), `{{` and `}}` by one brace.
pub(crate) fn fill(template: &str, values: &[(&str, &dyn fmt::Display)]) -> String {
    let mut out = String::with_capacity(template.len() + 64);
    let mut rest = template;
    while let Some(at) = rest.find(['{', '}']) {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        if rest.starts_with("{{") || rest.starts_with("}}") {
            out.push_str(&rest[..1]);
            rest = &rest[2..];
            continue;
        }
        let end = rest.find('}').unwrap_or(rest.len());
        let (key, quoted) = match rest[1..end].strip_suffix(":?") {
            Some(key) => (key, true),
            None => (&rest[1..end], false),
        };
        if let Some((_, value)) = values.iter().find(|(k, _)| *k == key) {
            let _ = if quoted {
                write!(out, "{:?}", value.to_string())
            } else {
                write!(out, "{value}")
            };
        }
        rest = &rest[(end + 1).min(rest.len())..];
    }
    out.push_str(rest);
    out
}

/// How bad a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// Worth knowing: a trade-off, or a pattern that is fine on today's server.
    Note,
    /// Fails, or loses data, under concurrency (or on some Kubernetes releases).
    Warning,
    /// Cannot work, or fails on a real server whatever else happens.
    Error,
}

impl Severity {
    /// `note`, `warning` or `error`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl serde::Serialize for Severity {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for Severity {
    /// Reads the name [`Severity::as_str`] writes (Check's findings come
    /// from the engines).
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Severity, D::Error> {
        let name = <Cow<'de, str>>::deserialize(deserializer)?;
        [Severity::Note, Severity::Warning, Severity::Error]
            .into_iter()
            .find(|s| s.as_str() == name)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown severity {name:?}")))
    }
}

/// A lint rule. The kebab-case names ([`Rule::as_str`]) are stable: CI
/// configurations and SARIF viewers refer to them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rule {
    /// `test` of a whole map in a patch that changes some of its keys.
    WholeMapTest,
    /// `test` of a whole list to add or remove elements.
    WholeListTest,
    /// A path that walks through a map key holding `/` without `~1`.
    UnescapedSlash,
    /// A path that is not an RFC 6901 JSON Pointer.
    InvalidPointer,
    /// A `test` value whose bytes differ from what the server stores.
    TestNeverMatches,
    /// An op on an array index with no `test` of that element first.
    IndexWithoutTest,
    /// `remove` of a map key with no `test` first.
    RemoveWithoutTest,
    /// `add` of a map key with no `test` first.
    AddWithoutTest,
    /// A `test` after an op that writes the same or an enclosing path.
    TestAfterWrite,
    /// Two writes to the same path.
    DuplicatePath,
    /// A `test` of `/metadata/resourceVersion`.
    RvTest,
    /// A `>` redirection to the file the command reads.
    RedirectTruncatesInput,
    /// A body (or a JSON patch's `add`/`replace`) that pins
    /// `metadata.resourceVersion`.
    RvPinnedBody,
    /// An op whose outcome differs between RFC 6902 and kube-apiserver.
    EngineDependent,
    /// An op whose outcome differs between Kubernetes releases.
    ReleaseDependent,
    /// More operations than the server accepts.
    TooManyOps,
    /// A body larger than the server accepts.
    BodyTooLarge,
    /// An element of the patch the server cannot read as an op.
    MalformedOp,
    /// With the current object: the patch does not apply to it.
    FailsNow,
    /// A list in a merge patch, which replaces the stored list whole.
    MergeReplacesList,
    /// A `null` in a merge patch, which deletes the member.
    MergeNullDeletes,
    /// A write of a whole list or map that other writers also fill, with
    /// no `test` before it.
    WholeCollectionWrite,
    /// A `test` of a whole object that other writers change.
    WholeObjectTest,
    /// Strategic-merge-patch directives in a merge patch.
    MergeHasDirective,
    /// A strategic merge patch to a custom resource (415).
    SmpCustomResource,
    /// A strategic-merge-patch directive the server cannot read.
    SmpBadDirective,
    /// A list without a merge key in a strategic merge patch, which
    /// replaces the stored list whole, where other writers add elements.
    SmpReplacesList,
    /// `$patch: replace` on a list or map other writers fill.
    SmpPatchReplace,
    /// An element of a list merged by key that lacks the key.
    SmpMissingMergeKey,
    /// A list and its `$deleteFromPrimitiveList` in one strategic merge
    /// patch without `$setElementOrder`: merged in Go's random map order.
    SmpNondeterministic,
    /// A UTF-8 byte order mark before the body.
    ByteOrderMark,
    /// Go's `%v` of a slice of ops instead of JSON.
    GoFormattedBody,
    /// A number, boolean or object where Kubernetes keeps strings.
    NonStringValue,
    /// A YAML number whose digits the JSON sent loses (`1.10` -> `1.1`).
    YamlNumber,
    /// Go source: a JSON patch with a `test` retried by
    /// `retry.RetryOnConflict` (which retries 409 only).
    TestRetriedOnConflict,
    /// Go source: a `client.MergeFrom` patch that carries a list changed
    /// after the base was copied.
    MergeFromReplacesList,
    /// A path or member the kind's schema does not have (`/metdata`).
    UnknownField,
    /// A YAML 1.1 word read as a boolean (`yes`, `on`, `n`).
    YamlBoolean,
    /// A command the shell cannot run or kubectl refuses as written.
    CommandFails,
    /// A body the server cannot decode (400).
    UndecodableBody,
    /// A patch whose body is a value the script sets elsewhere.
    BodyUnknown,
    /// A value or path in the patch read from the cluster a moment before.
    ReadThenPatch,
    /// A write the server drops on the endpoint it is sent to.
    WriteDropped,
}

/// One row of the rule table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleInfo {
    /// The rule.
    pub rule: Rule,
    /// Its stable kebab-case name.
    pub name: &'static str,
    /// How bad its findings are.
    pub severity: Severity,
    /// One line: what it finds.
    pub summary: &'static str,
    /// Why it matters, for a newcomer to JSON Patch and Kubernetes.
    pub explanation: &'static str,
    /// What the fix does.
    pub fix: &'static str,
    /// The texts of its findings, by name: templates whose `{key}` the
    /// check fills with a value, `{key:?}` with the value quoted (see
    /// [`message!`]).
    pub messages: &'static [(&'static str, &'static str)],
    /// Which input it reads: a JSON patch, a merge patch, or either.
    pub applies_to: AppliesTo,
}

/// The inputs a rule looks at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AppliesTo {
    /// JSON patches (`--type=json`).
    JsonPatch,
    /// JSON merge patches (`--type=merge`).
    MergePatch,
    /// Both.
    Both,
    /// Strategic merge patches (`kubectl patch` without `--type`).
    StrategicMergePatch,
    /// JSON patches, merge patches and strategic merge patches.
    All,
    /// Go source read by `patchlab scan` (the rule needs the code around
    /// the patch: its examples are Go).
    GoSource,
}

/// An example for a rule: a patch it fires on, the fixed patch it is silent
/// on, and the current object both are checked against (when the rule
/// needs one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Example {
    /// The patch the rule fires on (JSON text, as sent).
    pub patch: Cow<'static, str>,
    /// The fixed patch: the rule is silent on it.
    pub fixed: Cow<'static, str>,
    /// The current object (JSON), when the rule needs one.
    pub object: Option<&'static str>,
}

/// The Node the strategic merge patch examples run against: a taint and
/// a label node-feature-discovery set.
pub const NODE_OBJECT: &str = r#"{"apiVersion":"v1","kind":"Node","metadata":{"name":"node01","resourceVersion":"4711","labels":{"feature.node.kubernetes.io/cpu-cpuid.AVX512F":"true","kubernetes.io/hostname":"node01"}},"spec":{"taints":[{"effect":"NoSchedule","key":"feature.node.kubernetes.io/gpu","value":"true"}]}}"#;

/// The object most examples run against: a migrating VMI, trimmed.
pub const EXAMPLE_OBJECT: &str = r#"{"apiVersion":"kubevirt.io/v1","kind":"VirtualMachineInstance","metadata":{"name":"testvmi","namespace":"default","resourceVersion":"12345","labels":{"kubevirt.io/nodeName":"node01"},"annotations":{"kubevirt.io/evacuationNodeName":"node01"},"finalizers":["kubevirt.io/virtualMachineControllerFinalize","foregroundDeleteVirtualMachine"]},"spec":{"replicas":1},"status":{"phase":"Running"}}"#;

impl Rule {
    /// Every rule, in the table's order.
    pub const ALL: [Rule; 43] = [
        Rule::WholeMapTest,
        Rule::WholeListTest,
        Rule::UnescapedSlash,
        Rule::InvalidPointer,
        Rule::TestNeverMatches,
        Rule::IndexWithoutTest,
        Rule::RemoveWithoutTest,
        Rule::AddWithoutTest,
        Rule::TestAfterWrite,
        Rule::DuplicatePath,
        Rule::RvTest,
        Rule::RedirectTruncatesInput,
        Rule::RvPinnedBody,
        Rule::EngineDependent,
        Rule::ReleaseDependent,
        Rule::TooManyOps,
        Rule::BodyTooLarge,
        Rule::MalformedOp,
        Rule::FailsNow,
        Rule::MergeReplacesList,
        Rule::MergeNullDeletes,
        Rule::WholeCollectionWrite,
        Rule::WholeObjectTest,
        Rule::MergeHasDirective,
        Rule::SmpCustomResource,
        Rule::SmpBadDirective,
        Rule::SmpReplacesList,
        Rule::SmpPatchReplace,
        Rule::SmpMissingMergeKey,
        Rule::SmpNondeterministic,
        Rule::ByteOrderMark,
        Rule::GoFormattedBody,
        Rule::NonStringValue,
        Rule::YamlNumber,
        Rule::TestRetriedOnConflict,
        Rule::MergeFromReplacesList,
        Rule::UnknownField,
        Rule::YamlBoolean,
        Rule::CommandFails,
        Rule::UndecodableBody,
        Rule::BodyUnknown,
        Rule::ReadThenPatch,
        Rule::WriteDropped,
    ];

    /// The stable kebab-case name.
    pub fn as_str(self) -> &'static str {
        // From a table of the names alone, so that code which only names
        // rules (the Build view's page module) does not link the texts.
        NAMES[self as usize]
    }

    /// True for the rules whose finding stands for the whole text, with no
    /// body read: the command fails as written, the body cannot be decoded
    /// or is not known.
    pub fn judges_whole_text(self) -> bool {
        matches!(
            self,
            Rule::CommandFails | Rule::UndecodableBody | Rule::BodyUnknown
        )
    }

    /// The default severity of its findings.
    pub fn severity(self) -> Severity {
        SEVERITIES[self as usize]
    }

    /// The rule's row of the table.
    pub fn info(self) -> &'static RuleInfo {
        // RULES is in `Rule::ALL` order; the test `table_is_in_enum_order` holds it so.
        &RULES[self as usize]
    }

    /// The rule's example: fires on `patch`, silent on `fixed` (its row
    /// of [`EXAMPLES`]).
    pub fn example(self) -> Example {
        let (_, against, patch, fixed) = EXAMPLES[self as usize];
        let at_limit = |make: fn(usize) -> String, limit: usize| {
            (Cow::Owned(make(limit + 1)), Cow::Owned(make(limit)))
        };
        let (patch, fixed) = match self {
            Rule::TooManyOps => at_limit(many_ops, crate::limits::MAX_OPS),
            Rule::BodyTooLarge => at_limit(big_body, crate::limits::MAX_BODY_BYTES),
            _ => (Cow::Borrowed(patch), Cow::Borrowed(fixed)),
        };
        let object = match against {
            Against::Nothing => None,
            Against::Object => Some(EXAMPLE_OBJECT),
            Against::Node => Some(NODE_OBJECT),
        };
        Example {
            patch,
            fixed,
            object,
        }
    }
}

/// What an example runs against.
#[derive(Clone, Copy)]
enum Against {
    Nothing,
    /// [`EXAMPLE_OBJECT`].
    Object,
    /// [`NODE_OBJECT`].
    Node,
}

/// Each rule's example, in [`Rule::ALL`] order: the patch it fires on and
/// the fixed patch it is silent on (generated at the limit for
/// [`Rule::TooManyOps`] and [`Rule::BodyTooLarge`]).
#[rustfmt::skip]
const EXAMPLES: [(Rule, Against, &str, &str); 43] = [
    (Rule::WholeMapTest, Against::Nothing,
     r#"[{"op":"test","path":"/metadata/labels","value":{"kubevirt.io/nodeName":"node01"}},{"op":"replace","path":"/metadata/labels","value":{"kubevirt.io/migrationTargetNodeName":"node02","kubevirt.io/nodeName":"node01"}}]"#,
     r#"[{"op":"add","path":"/metadata/labels/kubevirt.io~1migrationTargetNodeName","value":"node02"}]"#),
    (Rule::WholeListTest, Against::Nothing,
     r#"[{"op":"test","path":"/metadata/finalizers","value":["kubevirt.io/virtualMachineControllerFinalize","foregroundDeleteVirtualMachine"]},{"op":"replace","path":"/metadata/finalizers","value":["foregroundDeleteVirtualMachine"]}]"#,
     r#"[{"op":"test","path":"/metadata/finalizers/0","value":"kubevirt.io/virtualMachineControllerFinalize"},{"op":"remove","path":"/metadata/finalizers/0"}]"#),
    (Rule::UnescapedSlash, Against::Nothing,
     r#"[{"op":"add","path":"/metadata/labels/kubevirt.io/nodeName","value":"node02"}]"#,
     r#"[{"op":"add","path":"/metadata/labels/kubevirt.io~1nodeName","value":"node02"}]"#),
    (Rule::InvalidPointer, Against::Nothing,
     r#"[{"op":"remove","path":"/metadata/annotations/example.com~team"}]"#,
     r#"[{"op":"remove","path":"/metadata/annotations/example.com~0team"}]"#),
    (Rule::TestNeverMatches, Against::Nothing,
     r#"[{"op":"test","path":"/spec/replicas","value":1.0},{"op":"replace","path":"/spec/replicas","value":2}]"#,
     r#"[{"op":"test","path":"/spec/replicas","value":1},{"op":"replace","path":"/spec/replicas","value":2}]"#),
    (Rule::IndexWithoutTest, Against::Object,
     r#"[{"op":"remove","path":"/metadata/finalizers/0"}]"#,
     r#"[{"op":"test","path":"/metadata/finalizers/0","value":"kubevirt.io/virtualMachineControllerFinalize"},{"op":"remove","path":"/metadata/finalizers/0"}]"#),
    (Rule::RemoveWithoutTest, Against::Object,
     r#"[{"op":"remove","path":"/metadata/annotations/kubevirt.io~1evacuationNodeName"}]"#,
     r#"[{"op":"test","path":"/metadata/annotations/kubevirt.io~1evacuationNodeName","value":"node01"},{"op":"remove","path":"/metadata/annotations/kubevirt.io~1evacuationNodeName"}]"#),
    (Rule::AddWithoutTest, Against::Object,
     r#"[{"op":"add","path":"/metadata/labels/kubevirt.io~1migrationTargetNodeName","value":"node02"}]"#,
     r#"[{"op":"test","path":"/metadata/labels/kubevirt.io~1migrationTargetNodeName","value":null},{"op":"add","path":"/metadata/labels/kubevirt.io~1migrationTargetNodeName","value":"node02"}]"#),
    (Rule::TestAfterWrite, Against::Nothing,
     r#"[{"op":"replace","path":"/status/phase","value":"Succeeded"},{"op":"test","path":"/status/phase","value":"Running"}]"#,
     r#"[{"op":"test","path":"/status/phase","value":"Running"},{"op":"replace","path":"/status/phase","value":"Succeeded"}]"#),
    (Rule::DuplicatePath, Against::Nothing,
     r#"[{"op":"add","path":"/metadata/labels/app","value":"web"},{"op":"add","path":"/metadata/labels/app","value":"db"}]"#,
     r#"[{"op":"add","path":"/metadata/labels/app","value":"db"}]"#),
    (Rule::RvTest, Against::Nothing,
     r#"[{"op":"test","path":"/metadata/resourceVersion","value":"12345"},{"op":"replace","path":"/status/phase","value":"Succeeded"}]"#,
     r#"[{"op":"test","path":"/status/phase","value":"Running"},{"op":"replace","path":"/status/phase","value":"Succeeded"}]"#),
    (Rule::RedirectTruncatesInput, Against::Nothing,
     r#"kubectl patch --local -f vmi.yaml --type=merge -p '{"metadata":{"labels":{"a":"b"}}}' -o yaml > vmi.yaml"#,
     r#"kubectl patch --local -f vmi.yaml --type=merge -p '{"metadata":{"labels":{"a":"b"}}}' -o yaml > vmi-patched.yaml"#),
    (Rule::RvPinnedBody, Against::Nothing,
     r#"{"metadata":{"resourceVersion":"12345","finalizers":["kubevirt.io/virtualMachineControllerFinalize"]}}"#,
     r#"{"metadata":{"labels":{"kubevirt.io/nodeName":"node01"}}}"#),
    (Rule::EngineDependent, Against::Object,
     r#"[{"op":"test","path":"/metadata/finalizers/-1","value":"foregroundDeleteVirtualMachine"},{"op":"remove","path":"/metadata/finalizers/-1"}]"#,
     r#"[{"op":"test","path":"/metadata/finalizers/1","value":"foregroundDeleteVirtualMachine"},{"op":"remove","path":"/metadata/finalizers/1"}]"#),
    (Rule::ReleaseDependent, Against::Object,
     r#"[{"op":"test","path":"","value":{"kind":"VirtualMachineInstance"}}]"#,
     r#"[{"op":"test","path":"/kind","value":"VirtualMachineInstance"}]"#),
    (Rule::TooManyOps, Against::Nothing, "", ""),
    (Rule::BodyTooLarge, Against::Nothing, "", ""),
    (Rule::MalformedOp, Against::Nothing,
     r#"[{"op":"upsert","path":"/metadata/labels/app","value":"web"}]"#,
     r#"[{"op":"add","path":"/metadata/labels/app","value":"web"}]"#),
    (Rule::FailsNow, Against::Object,
     r#"[{"op":"test","path":"/status/phase","value":"Scheduled"},{"op":"replace","path":"/status/phase","value":"Running"}]"#,
     r#"[{"op":"test","path":"/status/phase","value":"Running"},{"op":"replace","path":"/status/phase","value":"Succeeded"}]"#),
    (Rule::MergeReplacesList, Against::Nothing,
     r#"{"metadata":{"finalizers":["foregroundDeleteVirtualMachine"]}}"#,
     r#"[{"op":"test","path":"/metadata/finalizers/0","value":"kubevirt.io/virtualMachineControllerFinalize"},{"op":"remove","path":"/metadata/finalizers/0"}]"#),
    (Rule::MergeNullDeletes, Against::Nothing,
     r#"{"metadata":{"annotations":{"kubevirt.io/evacuationNodeName":null}}}"#,
     r#"[{"op":"test","path":"/metadata/annotations/kubevirt.io~1evacuationNodeName","value":"node01"},{"op":"remove","path":"/metadata/annotations/kubevirt.io~1evacuationNodeName"}]"#),
    (Rule::WholeCollectionWrite, Against::Nothing,
     r#"[{"op":"add","path":"/metadata/annotations","value":{"example.com/owner":"team-a"}}]"#,
     r#"[{"op":"add","path":"/metadata/annotations/example.com~1owner","value":"team-a"}]"#),
    (Rule::WholeObjectTest, Against::Nothing,
     r#"[{"op":"test","path":"/status/migrationState","value":{"sourceNode":"node01","targetNode":"node02"}},{"op":"replace","path":"/status/migrationState","value":{"completed":true,"sourceNode":"node01","targetNode":"node02"}}]"#,
     r#"[{"op":"add","path":"/status/migrationState/completed","value":true}]"#),
    (Rule::MergeHasDirective, Against::Object,
     r#"kubectl patch vmi testvmi --type=merge -p '{"metadata":{"$deleteFromPrimitiveList/finalizers":["foregroundDeleteVirtualMachine"]}}'"#,
     r#"kubectl patch vmi testvmi --type=json -p '[{"op":"test","path":"/metadata/finalizers/1","value":"foregroundDeleteVirtualMachine"},{"op":"remove","path":"/metadata/finalizers/1"}]'"#),
    (Rule::SmpCustomResource, Against::Nothing,
     r#"kubectl patch vmi testvmi -p '{"metadata":{"labels":{"kubevirt.io/evacuate":"true"}}}'"#,
     r#"kubectl patch vmi testvmi --type=merge -p '{"metadata":{"labels":{"kubevirt.io/evacuate":"true"}}}'"#),
    (Rule::SmpBadDirective, Against::Nothing,
     r#"kubectl patch pod web-0 -p '{"metadata":{"labels":{"$patch":"replace-all","app":"web"}}}'"#,
     r#"kubectl patch pod web-0 -p '{"metadata":{"labels":{"app":"web"}}}'"#),
    (Rule::SmpReplacesList, Against::Node,
     r#"kubectl patch node node01 -p '{"spec":{"taints":[{"effect":"NoSchedule","key":"dedicated","value":"gpu"}]}}'"#,
     r#"kubectl patch node node01 -p '{"metadata":{"resourceVersion":"4711"},"spec":{"taints":[{"effect":"NoSchedule","key":"feature.node.kubernetes.io/gpu","value":"true"},{"effect":"NoSchedule","key":"dedicated","value":"gpu"}]}}'"#),
    (Rule::SmpPatchReplace, Against::Nothing,
     r#"kubectl patch node node01 -p '{"metadata":{"labels":{"$patch":"replace","kubernetes.io/hostname":"node01","role":"gpu"}}}'"#,
     r#"kubectl patch node node01 -p '{"metadata":{"labels":{"role":"gpu"}}}'"#),
    (Rule::SmpMissingMergeKey, Against::Nothing,
     r#"kubectl patch deployment patch-demo -p '{"spec":{"template":{"spec":{"containers":[{"image":"redis"}]}}}}'"#,
     r#"kubectl patch deployment patch-demo -p '{"spec":{"template":{"spec":{"containers":[{"image":"redis","name":"patch-demo-ctr"}]}}}}'"#),
    (Rule::SmpNondeterministic, Against::Nothing,
     r#"kubectl patch pod web-0 -p '{"metadata":{"finalizers":["example.com/cleanup"],"$deleteFromPrimitiveList/finalizers":["example.com/cleanup","example.com/legacy"]}}'"#,
     r#"kubectl patch pod web-0 -p '{"metadata":{"$deleteFromPrimitiveList/finalizers":["example.com/legacy"]}}'"#),
    (Rule::ByteOrderMark, Against::Nothing,
     "\u{feff}[{\"op\":\"add\",\"path\":\"/metadata/labels/app\",\"value\":\"web\"}]",
     r#"[{"op":"add","path":"/metadata/labels/app","value":"web"}]"#),
    (Rule::GoFormattedBody, Against::Nothing,
     r#"[{add /metadata/labels/app web}]"#,
     r#"[{"op":"add","path":"/metadata/labels/app","value":"web"}]"#),
    (Rule::NonStringValue, Against::Nothing,
     r#"[{"op":"add","path":"/metadata/labels/replicas","value":3}]"#,
     r#"[{"op":"add","path":"/metadata/labels/replicas","value":"3"}]"#),
    (Rule::YamlNumber, Against::Nothing,
     r#"kubectl patch deploy web --type=merge -p 'metadata: {annotations: {example.com/version: 1.10}}'"#,
     r#"kubectl patch deploy web --type=merge -p 'metadata: {annotations: {example.com/version: "1.10"}}'"#),
    (Rule::TestRetriedOnConflict, Against::Nothing, GO_RETRY, GO_RETRY_FIXED),
    (Rule::MergeFromReplacesList, Against::Nothing, GO_MERGE_FROM, GO_MERGE_FROM_FIXED),
    (Rule::UnknownField, Against::Nothing,
     r#"kubectl patch pod web-0 --type=merge -p '{"metdata":{"labels":{"app":"web"}}}'"#,
     r#"kubectl patch pod web-0 --type=merge -p '{"metadata":{"labels":{"app":"web"}}}'"#),
    (Rule::YamlBoolean, Against::Nothing,
     r#"kubectl patch deploy web --type=merge -p 'metadata: {annotations: {example.com/cache: on}}'"#,
     r#"kubectl patch deploy web --type=merge -p 'metadata: {annotations: {example.com/cache: "on"}}'"#),
    (Rule::CommandFails, Against::Nothing,
     r#"kubectl patch pod web-0 --type=merge -p '{"metadata":{"labels":{"app":"web"}}}"#,
     r#"kubectl patch pod web-0 --type=merge -p '{"metadata":{"labels":{"app":"web"}}}'"#),
    (Rule::UndecodableBody, Against::Nothing,
     r#"[{"op":"remove","path":"/metadata/labels/app",}]"#,
     r#"[{"op":"remove","path":"/metadata/labels/app"}]"#),
    (Rule::BodyUnknown, Against::Nothing,
     r#"kubectl patch configmap feature-flags --type=merge -p "$PATCH""#,
     r#"kubectl patch configmap feature-flags --type=merge -p '{"data":{"enable-api-fields":"beta"}}'"#),
    (Rule::ReadThenPatch, Against::Nothing,
     "LAST=$(kubectl get node node01 -o json | jq '.spec.taints | length - 1')\nkubectl patch node node01 --type=json -p '[{\"op\":\"remove\",\"path\":\"/spec/taints/'$LAST'\"}]'",
     r#"kubectl patch node node01 --type=json -p '[{"op":"test","path":"/spec/taints/1/key","value":"dedicated"},{"op":"remove","path":"/spec/taints/1"}]'"#),
    (Rule::WriteDropped, Against::Nothing,
     r#"kubectl patch node node01 --type=json -p '[{"op":"add","path":"/status/capacity/example.com~1dongle","value":"4"}]'"#,
     r#"kubectl patch node node01 --subresource=status --type=json -p '[{"op":"add","path":"/status/capacity/example.com~1dongle","value":"4"}]'"#),
];

const _: () = {
    let mut i = 0;
    while i < EXAMPLES.len() {
        assert!(
            EXAMPLES[i].0 as usize == i,
            "the examples are not in enum order"
        );
        i += 1;
    }
};

/// Go: a JSON patch with a `test`, retried on 409 only.
const GO_RETRY: &str = r#"err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
	payload, err := patch.New(
		patch.WithTest("/status/phase", vmi.Status.Phase),
		patch.WithReplace("/status/phase", v1.Succeeded),
	).GeneratePayload()
	if err != nil {
		return err
	}
	_, err = c.clientset.VirtualMachineInstance(vmi.Namespace).Patch(ctx, vmi.Name, types.JSONPatchType, payload, metav1.PatchOptions{})
	return err
})"#;

/// Go: the same patch, retried on the 422 of a failed test after a re-read.
const GO_RETRY_FIXED: &str = r#"err := retry.OnError(retry.DefaultRetry, apierrors.IsInvalid, func() error {
	current, err := c.clientset.VirtualMachineInstance(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	payload, err := patch.New(
		patch.WithTest("/status/phase", current.Status.Phase),
		patch.WithReplace("/status/phase", v1.Succeeded),
	).GeneratePayload()
	if err != nil {
		return err
	}
	_, err = c.clientset.VirtualMachineInstance(ns).Patch(ctx, name, types.JSONPatchType, payload, metav1.PatchOptions{})
	return err
})"#;

/// Go: a finalizer added after the `MergeFrom` base was copied.
const GO_MERGE_FROM: &str = r#"base := obj.DeepCopy()
controllerutil.AddFinalizer(obj, "example.com/cleanup")
err := r.Patch(ctx, obj, client.MergeFrom(base))"#;

/// Go: the same change with the resourceVersion pinned.
const GO_MERGE_FROM_FIXED: &str = r#"base := obj.DeepCopy()
controllerutil.AddFinalizer(obj, "example.com/cleanup")
err := r.Patch(ctx, obj, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))"#;

/// `n` per-key adds: a patch of `n` ops.
fn many_ops(n: usize) -> String {
    let mut out = String::from("[");
    for i in 0..n {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&format!(
            r#"{{"op":"add","path":"/metadata/annotations/k{i}","value":"v"}}"#
        ));
    }
    out.push(']');
    out
}

/// One add whose body is exactly `bytes` long.
fn big_body(bytes: usize) -> String {
    let head = r#"[{"op":"add","path":"/metadata/annotations/blob","value":""#;
    let tail = r#""}]"#;
    let fill = bytes.saturating_sub(head.len() + tail.len());
    format!("{head}{}{tail}", "x".repeat(fill))
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Rule {
    type Err = String;
    fn from_str(s: &str) -> Result<Rule, String> {
        Rule::ALL
            .into_iter()
            .find(|rule| rule.as_str() == s)
            .ok_or_else(|| format!("unknown rule {s:?}"))
    }
}

impl serde::Serialize for Rule {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for Rule {
    /// Reads the name [`Rule::as_str`] writes.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Rule, D::Error> {
        let name = <Cow<'de, str>>::deserialize(deserializer)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

/// The rule table, in [`Rule::ALL`] order.
pub static RULES: [RuleInfo; 43] = TABLE;

/// Each rule's name, read from [`TABLE`] at compile time.
static NAMES: [&str; TABLE.len()] = {
    let mut names = [""; TABLE.len()];
    let mut i = 0;
    while i < TABLE.len() {
        // `Rule::as_str`, `Rule::severity` and `Rule::info` index by the
        // rule's number: row i must be the rule numbered i.
        assert!(
            TABLE[i].rule as usize == i,
            "the rule table is not in enum order"
        );
        names[i] = TABLE[i].name;
        i += 1;
    }
    names
};

/// Each rule's severity, read from [`TABLE`] at compile time.
static SEVERITIES: [Severity; TABLE.len()] = {
    let mut severities = [Severity::Note; TABLE.len()];
    let mut i = 0;
    while i < TABLE.len() {
        severities[i] = TABLE[i].severity;
        i += 1;
    }
    severities
};

/// The rows of [`RULES`]: a constant, so that [`NAMES`], [`SEVERITIES`]
/// and each message a check fills ([`message!`]) are computed from it, and
/// the other texts are linked only where [`RULES`] (or [`Rule::info`]) is
/// used. One line a message.
#[rustfmt::skip]
const TABLE: [RuleInfo; 43] = [
    RuleInfo {
        rule: Rule::WholeMapTest,
        name: "whole-map-test",
        severity: Severity::Warning,
        summary: "a `test` of a whole map that other writers change (labels, annotations, a Node's labels)",
        explanation: "A `test` compares the whole map, so it fails (422) as soon as any other writer adds, changes or removes any key, even one this patch does not care about. A JSON patch is atomic: every other op in it is dropped too, and the controller has to requeue. This is the race KubeVirt hit during mass live migration (PR #18139): virt-handler changed an unrelated label and the controller's label patch, and the status update riding with it, kept failing. Who else writes the map decides (the writers table): a map one controller writes alone, such as a VMI's `status.activePods`, is safe to test whole.",
        fix: "Per-key ops, as PR #18139's `GeneratePerKeyMapPatches` writes them: `add` for a new key (no test), `test` + `replace` of just a changed key, `remove` of a dropped key.",
        messages: &[
            ("op", "op {index} tests the whole map {path} ({count} {keys}){changes}: a concurrent change to any key of it, even one this patch leaves alone, fails the whole patch (422){writers}{advice}"),
            ("changes", " to change it in {ops}"),
            ("writers", "; {writers} write {at}{on_kind}"),
            ("no-writers", "; no other writer known for {at}{on_kind}"),
            ("advice", "; test only the keys the patch depends on"),
        ],
        applies_to: AppliesTo::JsonPatch,
    },
    RuleInfo {
        rule: Rule::WholeListTest,
        name: "whole-list-test",
        severity: Severity::Note,
        summary: "a `test` of a whole list (finalizers, conditions) to add or remove elements",
        explanation: "The `test` fails whenever anyone else changed the list, for example when another controller added its own finalizer. KubeVirt does this on purpose (`getPatchFinalizerOps`) because JSON Patch cannot address list elements by a stable key: a retry after the 422 is safe, only slower. When the change only removes elements or appends new ones, per-element ops narrow the conflict to the elements you touch.",
        fix: "Per-element ops: `test` + `remove` of each removed element at its index (from the end), and a `test` of the remaining list + `add` at `/-` for new elements.",
        messages: &[
            ("op", "op {index} tests the whole list {path} ({count} {items}) to change it: any concurrent change to the list ({who}) fails the patch (422); safe to retry, but {narrower}"),
            ("shared", "another writer's {item}: {writers} write {at}"),
            ("unshared", "another writer's {item}"),
            ("no-writers", "another writer's {item}, though no other writer is known for {at}{on_kind}"),
            ("per-element", "per-element ops narrow it to the elements you touch"),
            ("no-narrower", "JSON Patch has no narrower way for this change"),
        ],
        applies_to: AppliesTo::JsonPatch,
    },
    RuleInfo {
        rule: Rule::UnescapedSlash,
        name: "unescaped-slash",
        severity: Severity::Error,
        summary: "a path that walks through a map key containing `/` without writing it `~1`",
        explanation: "In a JSON Pointer `/` separates the steps, so `/metadata/labels/kubevirt.io/nodeName` means the member `nodeName` inside a label named `kubevirt.io`, not the label `kubevirt.io/nodeName`. Labels and annotations hold strings, so the server answers 422 (the path does not exist), or worse, the op writes somewhere you did not mean. A `/` inside a key is written `~1` (and `~` is written `~0`), as KubeVirt's `EscapeJSONPointer` does.",
        fix: "The same op with the key escaped: `/metadata/labels/kubevirt.io~1nodeName`.",
        messages: &[
            ("op", "op {index} ({op} {path}) walks into {token:?} as if it were an object, but {why}: the key {key:?} is written {fixed:?} (`/` as ~1)"),
            ("string-map", "{map} holds strings"),
            ("in-object", "the object holds the key {key:?} in {map}"),
            ("dotted", "{token:?} reads as the prefix of the qualified key {key:?} (no Kubernetes field name holds a dot)"),
        ],
        applies_to: AppliesTo::JsonPatch,
    },
    RuleInfo {
        rule: Rule::InvalidPointer,
        name: "invalid-pointer",
        severity: Severity::Error,
        summary: "a path (or `from`) that is not an RFC 6901 JSON Pointer",
        explanation: "A JSON Pointer is empty (the whole document) or starts with `/`, and `~` may only appear as `~0` (a literal `~`) or `~1` (a literal `/`). Anything else is not a pointer: a strict RFC 6902 engine rejects it, and kube-apiserver's engine reads it its own way, so the op addresses something you did not mean or fails with 422.",
        fix: "The pointer written correctly: a leading `/` added, a bare `~` written `~0`.",
        messages: &[
            ("op", "op {index} ({op}): {field} {path:?} is not a JSON Pointer: {why}{hint}"),
            ("hint", "; did you mean {fixed:?}?"),
        ],
        applies_to: AppliesTo::JsonPatch,
    },
    RuleInfo {
        rule: Rule::TestNeverMatches,
        name: "test-never-matches",
        severity: Severity::Error,
        summary: "a `test` value whose bytes differ from how the server stores that value",
        explanation: "kube-apiserver compares `test` scalars byte for byte: the stored side as Go's `encoding/json` writes it, the patch side as you sent it. Go writes the number 1.0 as `1`, 1e2 as `100`, `<`, `>` and `&` as `\\u003c`, `\\u003e`, `\\u0026`, and `é` as itself, never `\\u00e9`. A `test` written any other way never passes on a real server (always 422), although it passes in tests against a strict RFC 6902 library, which compares by value. An array element `null` in a test value is worse: the server's engine dereferences it and answers 500.",
        fix: "The same `test` with its value written as Go writes it.",
        messages: &[
            ("bytes", "op {index} (test {path}): {what} is written {written}, but the server stores that value as {stored} and compares bytes: this test never passes on kube-apiserver (422), although a strict RFC 6902 engine passes it"),
            ("the-value", "the value"),
            ("null-element", "op {index} (test {path}): {at} is null inside an array: kube-apiserver's engine dereferences it and panics (HTTP 500 on every release: v5.6.0, v4.12.0 and v4.13.0)"),
        ],
        applies_to: AppliesTo::JsonPatch,
    },
    RuleInfo {
        rule: Rule::IndexWithoutTest,
        name: "index-without-test",
        severity: Severity::Warning,
        summary: "an op on an array index (`/metadata/finalizers/1`) with no `test` of that element first",
        explanation: "Array indices move: if another writer removed or inserted an element since you read the object, index 1 now holds a different element, and your `remove` or `replace` silently hits someone else's finalizer or condition. A `test` of the element at that index first turns that into a clean 422 you can retry.",
        fix: "A `test` of the element's current value at the same index, right before the op (needs the current object).",
        messages: &[
            ("op", "op {index} ({op} {path}) addresses {item} {at} of {list} by index with no test of it first: it {effect}{advice}"),
            ("inserts", "inserts at a position that moves when another writer adds or removes an element"),
            ("removes", "removes whatever {item} is at that index when the patch runs, which is another writer's {item} if the list changed since your read"),
            ("writes", "writes whatever {item} is at that index when the patch runs, which is another writer's {item} if the list changed since your read"),
            ("reaches", "reaches into whatever {item} is at index {at} of {list} when the patch runs, which is another {item} if the list changed since your read"),
            ("advice", "; test the {item} first (its name, or the whole {item}) at {element}"),
            ("unopened", "the patch is {what} ({why}): lint cannot know it, so only the command is judged; paste its contents with -p, or run `patchlab lint` where the file is"),
            ("built", "op {index} ({path}) names element {at} of a list by position, in manifests {built} builds from: when an upgrade of the base reorders or grows the list, the op silently applies to another element; a test of the element first fails the build instead"),
        ],
        applies_to: AppliesTo::JsonPatch,
    },
    RuleInfo {
        rule: Rule::RemoveWithoutTest,
        name: "remove-without-test",
        severity: Severity::Note,
        summary: "a `remove` of a map key with no `test` first",
        explanation: "`remove` needs the member: if another writer removed the key first, this patch fails (422) and everything else in it is dropped. If another writer changed the value meanwhile, their change is erased without a check. PR #18139 accepts this for removed keys; a `test` of the old value first makes a concurrent change fail the patch instead.",
        fix: "A `test` of the key's current value before the `remove` (needs the current object).",
        messages: &[("op", "op {index} removes {path} with no test: it fails (422) if another writer removed the key first, and erases any value another writer set meanwhile")],
        applies_to: AppliesTo::JsonPatch,
    },
    RuleInfo {
        rule: Rule::AddWithoutTest,
        name: "add-without-test",
        severity: Severity::Note,
        summary: "an `add` of a map key with no `test` first",
        explanation: "`add` creates or overwrites the key, so it never conflicts: that is why PR #18139 adds new keys without a test. The price: if another writer sets the same key at the same time, the last write wins and nobody notices. When the key belongs to someone else too, `test` it first (`null` when it should still be absent).",
        fix: "A `test` of the key's current value (`null` when absent: kube-apiserver passes a `null` test on a missing member) before the `add` (needs the current object).",
        messages: &[
            ("op", "op {index} sets {path} to {value} with no test: if another writer sets this key at the same time, the last write wins{advice}"),
            ("rfc-absent", "; RFC 6902 cannot say \"must be absent\" (a test of null fails on a missing member there), so no test guards a new key: on kube-apiserver, test it null"),
        ],
        applies_to: AppliesTo::JsonPatch,
    },
    RuleInfo {
        rule: Rule::TestAfterWrite,
        name: "test-after-write",
        severity: Severity::Warning,
        summary: "a `test` placed after an op that writes the same or an enclosing path",
        explanation: "Ops run in order, so this `test` compares against what the patch itself just wrote, not against what is stored: it never guards anything. If its value is the old value it always fails (422); if it is the new value it always passes, and the write before it is unguarded.",
        fix: "The `test` moved before the first op that writes its path (or dropped when it only repeats the written value).",
        messages: &[
            ("op", "op {index} (test {path}) runs after op {first} ({writer_op} {writer_path}) wrote {what}: {effect}"),
            ("same-path", "the same path"),
            ("enclosing-path", "an enclosing path"),
            ("repeats", "it repeats the value just written, so it always passes and guards nothing"),
            ("stale", "it compares against what this patch just wrote, not what is stored: it never guards anything and fails whenever its value is the old one"),
        ],
        applies_to: AppliesTo::JsonPatch,
    },
    RuleInfo {
        rule: Rule::DuplicatePath,
        name: "duplicate-path",
        severity: Severity::Warning,
        summary: "two writes to the same path in one patch",
        explanation: "The later write replaces what the earlier one wrote (a second `remove` of the same key always fails, 422). Usually one of the two is a mistake, often two code paths of a controller appending ops for the same field.",
        fix: "The earlier write dropped (for two removes, the second one).",
        messages: &[
            ("op", "op {index} ({op} {path}) writes the same path as op {earlier} ({earlier_op}): {why}"),
            ("removed-twice", "the second remove always fails (the member is already gone): 422"),
            ("overwritten", "the later write replaces what the earlier one wrote, so the earlier one only costs"),
        ],
        applies_to: AppliesTo::JsonPatch,
    },
    RuleInfo {
        rule: Rule::RvTest,
        name: "rv-test",
        severity: Severity::Note,
        summary: "a `test` of `/metadata/resourceVersion`",
        explanation: "Every write to the object changes its resourceVersion, so this `test` is a full optimistic lock: the patch fails (422) if anyone wrote anything since your read, exactly like an `Update()` with a stale resourceVersion but answered 422 instead of 409, so `RetryOnConflict` does not retry it. Sometimes that is what you want; usually a `test` of the fields you depend on is enough.",
        fix: "None automatic: replace it with `test`s of the fields the patch depends on.",
        messages: &[
            ("op", "op {index} tests /metadata/resourceVersion: any write to the object since your read (by anyone, to any field) fails this patch (422, which RetryOnConflict does not retry)"),
        ],
        applies_to: AppliesTo::JsonPatch,
    },
    RuleInfo {
        rule: Rule::RedirectTruncatesInput,
        name: "redirect-truncates-input",
        severity: Severity::Error,
        summary: "a `>` redirection to the file the `kubectl patch` command reads (`-f` or `--patch-file`)",
        explanation: "The shell opens the redirection's file for writing, emptying it, before it starts kubectl, so kubectl reads an empty file: with `-f` it finds no object (`error: no objects passed to patch`), with `--patch-file` an empty patch, and either way the file is left empty. `patch --local -f f -o yaml > f` loses the manifest it meant to rewrite.",
        fix: "Write to another file and move it over the first once kubectl succeeded (`> f.new && mv f.new f`), or use `sponge` from moreutils.",
        messages: &[
            ("command", "`{op} {target}` empties {target} before kubectl starts, and kubectl reads it ({flag} {target}): it finds {finds}, and the file is left empty"),
        ],
        applies_to: AppliesTo::All,
    },
    RuleInfo {
        rule: Rule::RvPinnedBody,
        name: "rv-pinned-body",
        severity: Severity::Note,
        summary: "a body that pins `metadata.resourceVersion` (or a JSON patch that sets it)",
        explanation: "The server takes the resourceVersion of the patched object as a precondition: if anyone wrote the object since your read, the request fails with 409 Conflict and nothing is written. That is the optimistic lock an `Update()` uses, and `RetryOnConflict` retries it after a fresh read: the recommended way to make a write of a whole list or map safe. It is not `rv-test`: a `test` of /metadata/resourceVersion fails with 422, which `RetryOnConflict` does not retry.",
        fix: "None needed: make sure the caller re-reads and retries on 409 (`retry.RetryOnConflict`).",
        messages: &[
            ("body", "the body pins metadata.resourceVersion: if the object changed since your read (by anyone, to any field) the server answers 409 Conflict and writes nothing; RetryOnConflict retries it after a fresh read"),
            ("op", "op {index} ({op} /metadata/resourceVersion) pins the resourceVersion: if the object changed since your read (by anyone, to any field) the server answers 409 Conflict and writes nothing; RetryOnConflict retries it after a fresh read"),
            ("stdin", "the patch kubectl reads from standard input is the whole object as {read} returned it, metadata.resourceVersion included: if the object changed since that read (by anyone, to any field) the server answers 409 Conflict and writes nothing; run it again to retry on a fresh read"),
            ("read", "{expansion} is the whole object as {read} returned it, metadata.resourceVersion included: if the object changed since that read (by anyone, to any field) the server answers 409 Conflict and writes nothing; run it again to retry on a fresh read"),
        ],
        applies_to: AppliesTo::All,
    },
    RuleInfo {
        rule: Rule::EngineDependent,
        name: "engine-dependent",
        severity: Severity::Note,
        summary: "an op whose outcome differs between strict RFC 6902 and kube-apiserver",
        explanation: "kube-apiserver runs evanphx/json-patch's v4 engine, which differs from the RFC: `replace` of a missing member adds it, a `test` of `null` passes on a missing member, negative array indices count from the end, and a missing `value` means `null`. KubeVirt relies on some of these (`test(null)` + `replace` for a first finalizer). It works on the server, but the same patch fails in unit tests against a strict library, or behaves differently on another server.",
        fix: "Where the current object shows what was meant: the op written so both engines agree (an explicit index, `add` instead of `replace`).",
        messages: &[
            ("no-value", "op {index} ({op} {path}) has no value: kube-apiserver uses null, a strict RFC 6902 engine refuses the patch"),
            ("test-null", "op {index} (test {path} null): {when}, kube-apiserver passes this test but a strict RFC 6902 engine fails it (KubeVirt relies on the server's behaviour for absent fields)"),
            ("missing-now", "it is missing on the current object"),
            ("when-missing", "when it is missing"),
            ("replace-missing", "op {index} replaces {path}, which is missing on the current object: kube-apiserver adds it, a strict RFC 6902 engine fails (and so would evanphx v5); `add` means the same on both"),
            ("negative-index", "op {index} ({op} {path}) uses the negative index {token}: kube-apiserver counts it from the end of the array, a strict RFC 6902 engine refuses it"),
        ],
        applies_to: AppliesTo::JsonPatch,
    },
    RuleInfo {
        rule: Rule::ReleaseDependent,
        name: "release-dependent",
        severity: Severity::Warning,
        summary: "an op whose outcome differs between Kubernetes releases",
        explanation: "Kubernetes has shipped three versions of its JSON patch engine. Whole-document ops (path `\"\"`) are refused by the one in 1.28.0 and 1.28.1 (evanphx v5.6.0: `doc is missing path`), compare or replace the document in the others (v4.12.0 in 1.25 to 1.34, v4.13.0 from 1.35), and `replace \"\"` with a scalar silently does nothing on v4.12.0 but fails on v4.13.0 (docs/fidelity.md). A patch that works on your test cluster may fail on the production one.",
        fix: "Ops on the fields themselves instead of the whole document.",
        messages: &[
            ("op", "op {index} ({op} of the whole document): {what}"),
            ("test", "`test \"\"` fails on the engine of Kubernetes 1.28.0 and 1.28.1 (evanphx v5.6.0: doc is missing path) and compares the whole document on the others (v4.12.0, v4.13.0)"),
            ("replace", "`replace \"\"` fails on the engine of Kubernetes 1.28.0 and 1.28.1 (evanphx v5.6.0), replaces the document on the others, and with a scalar value does nothing on v4.12.0 (1.25 to 1.34) but fails on v4.13.0 (1.35 and later)"),
            ("other", "ops on the whole document (path \"\") behave differently across the engines Kubernetes has shipped (and `add`/`remove` of \"\" fail on all of them)"),
        ],
        applies_to: AppliesTo::JsonPatch,
    },
    RuleInfo {
        rule: Rule::TooManyOps,
        name: "too-many-ops",
        severity: Severity::Error,
        summary: "more than 10,000 operations",
        explanation: "kube-apiserver refuses a JSON patch with more than 10,000 operations before running any of them: HTTP 413 `Request entity too large: The allowed maximum operations in a JSON patch is 10000, got N`.",
        fix: "None automatic: split the change into several patches, or replace whole fields instead of one op per element.",
        messages: &[("patch", "the patch holds {count} ops, more than the server's limit of {limit}: {status}")],
        applies_to: AppliesTo::JsonPatch,
    },
    RuleInfo {
        rule: Rule::BodyTooLarge,
        name: "body-too-large",
        severity: Severity::Error,
        summary: "a request body over 3 MiB",
        explanation: "kube-apiserver refuses request bodies over 3 MiB (3,145,728 bytes) with HTTP 413, and etcd refuses objects over 1.5 MiB anyway.",
        fix: "None automatic: send less (big blobs belong in a ConfigMap, a Secret or outside the object).",
        messages: &[("body", "the body is {bytes} bytes, more than the server's limit of {limit}: {status}")],
        applies_to: AppliesTo::Both,
    },
    RuleInfo {
        rule: Rule::MalformedOp,
        name: "malformed-op",
        severity: Severity::Error,
        summary: "an element the server cannot read as an operation (unknown `op`, missing `path`, ...)",
        explanation: "The server decodes the body, then runs the ops in order: when it reaches an op it cannot read, the whole patch fails (422) and nothing is written. Only `add`, `remove`, `replace`, `move`, `copy` and `test` exist, each needs a string `path`, `move` and `copy` need `from`.",
        fix: "The op's name corrected when it is an obvious alias (`upsert`, `set`, `delete`, ...).",
        messages: &[("op", "{error}: the server fails the whole patch at this op (422) and writes nothing")],
        applies_to: AppliesTo::JsonPatch,
    },
    RuleInfo {
        rule: Rule::FailsNow,
        name: "fails-now",
        severity: Severity::Error,
        summary: "the patch does not apply to the current object",
        explanation: "Applied to the object you gave, the patch fails: an op of a JSON patch (the server answers 422 with a generic message that hides which op failed), a stale `metadata.resourceVersion` in a merge or strategic merge patch (409), a list element without its merge key in a strategic merge patch (500). Nothing is written. The finding names the place and the real cause.",
        fix: "None automatic: the message names the op and why it fails.",
        messages: &[
            ("op", "on the current object ({semantics} semantics), {at}: {cause}{answer}"),
            ("op-at", "op {index} ({path}) fails"),
            ("op-index", "op {index} fails"),
            ("refused", "the patch is refused"),
            ("answer", "; the server answers {response}"),
            ("merge", "on the current object: {cause}; the server answers 409 Conflict"),
            ("strategic", "on the current object the server refuses the patch{at}: {answer}"),
            ("at", " at {path}"),
            ("it-answers", "it answers {response}"),
            ("cause-answers", "{cause}; it answers {response}"),
            ("stale", "the body pins metadata.resourceVersion {rv} but the object is at {stored}"),
        ],
        applies_to: AppliesTo::All,
    },
    RuleInfo {
        rule: Rule::MergeReplacesList,
        name: "merge-replaces-list",
        severity: Severity::Warning,
        summary: "a list in a merge patch that other writers fill, or that a strategic merge patch would merge by key: the merge patch replaces it whole",
        explanation: "A JSON merge patch (RFC 7386) merges objects key by key but replaces every list whole, without any check, even a list the kind's schema keys (`containers` merge by `name` only in a strategic merge patch). A finalizer, condition or container another writer added since your read, or one you simply did not list, is deleted. The rule fires where that loses something: the list has other writers (the writers table: finalizers, ownerReferences, conditions, a Node's taints), or a strategic merge patch would have merged it by key or as a set (the schema tables); the finding then says what a strategic merge patch would keep. A list nobody else writes and no schema keys (a chart's custom resource `spec` list) is left alone: replacing it is what its writer means. Only a `metadata.resourceVersion` in the body guards it, and that locks the whole object.",
        fix: "The JSON patch PR #18139's strategies send for the same change (a `test` of the current list, then per-element or whole-list ops); needs the current object. For a built-in kind whose list merges by key, sending the body as a strategic merge patch (`kubectl patch` without `--type`) keeps the elements it does not list.",
        messages: &[
            ("list", "{path} is a list ({count} {elements}): a merge patch replaces the stored list whole{keyed}, so {item} another writer added or removed since your read is silently lost{gone}{writers}{advice}"),
            ("keyed", ", keyed or not"),
            ("gone", "; on the current object it deletes {names}"),
            ("writers", "; {writers} write {path}"),
            ("no-writers", "; no other writer known for {path}"),
            ("by-key", "; sent as a strategic merge patch (kubectl patch without --type{in_kind}), {field} would merge by {key} and the {items} you did not list would stay"),
            ("as-set", "; sent as a strategic merge patch (kubectl patch without --type{in_kind}), {field} would merge as a set and the {items} you did not list would stay"),
            ("in-kind", ", as for a {kind}"),
            ("custom-keys", "; its schema keys it by {keys} (x-kubernetes-list-type: map), which a merge patch ignores (a custom resource takes no strategic merge patch: write the change as JSON patch ops)"),
            ("null", "{path} is null: a merge patch deletes the whole list, so every {item} another writer added is lost, exactly as with []; {writers} write {path}"),
        ],
        applies_to: AppliesTo::MergePatch,
    },
    RuleInfo {
        rule: Rule::MergeNullDeletes,
        name: "merge-null-deletes",
        severity: Severity::Note,
        summary: "a `null` in a merge patch, which deletes the member",
        explanation: "In a merge patch `null` means delete: the key is removed whatever value another writer put there meanwhile, and a field can never be set to `null` this way. If you meant the value `null`, use a JSON patch.",
        fix: "The JSON patch for the same change, with a `test` of the current value before each `remove` (needs the current object).",
        messages: &[("member", "{path} is null: a merge patch deletes the member, whatever value another writer put there meanwhile")],
        applies_to: AppliesTo::MergePatch,
    },
    RuleInfo {
        rule: Rule::WholeCollectionWrite,
        name: "whole-collection-write",
        severity: Severity::Warning,
        summary: "a write of a whole list or map that other writers also fill (finalizers, ownerReferences, labels, annotations, conditions), with no `test` first",
        explanation: "`replace`, `add` or `remove` of the whole collection sets it to what this writer read plus its change: a finalizer, label or condition another writer added since that read is silently erased (and `add` of a map replaces the map, it does not add to it). The same loss as a list in a merge patch, and a `null` for the collection in a merge or strategic merge patch. Who else writes the field comes from the writers table (\"Who writes what\" in docs/lint.md): the finding names them.",
        fix: "Narrower ops: per key for maps (`add` of each key, as PR #18139 does), per element for lists (`test` + `remove` at an index, `add` at `/-`), or a `test` of the value read right before the write (KubeVirt's `getPatchFinalizerOps`); `test` null + `add` when the collection was absent. Needs the current object for lists; without it the finding says what to test.",
        messages: &[
            ("op", "op {index} ({op} {path}) {what} with no test: {item} another writer added or changed since your read is erased; {writers} also write {at}{on_kind}{advice}"),
            ("removes", "removes the whole {shape}"),
            ("adds-map", "adds the whole map (an add of a map replaces it, it does not add to it)"),
            ("writes", "writes the whole {shape}"),
            ("remove-no-object", "; no rewrite without the current object: test {at} with the value you read right before removing it"),
            ("rfc-absent", "; RFC 6902 cannot say \"must be absent\" (a test of null fails on a missing member there): on kube-apiserver, test it null first"),
            ("per-key", "; the fix sets each key on its own (if {at} may be absent, per-key adds fail with 422: then test it null and add the whole map, as PR #18139 does)"),
            ("no-object", "; no rewrite without the current object: test {at} with the value you read right before the write (or per-element ops)"),
            ("merge-null", "{path} is null: a merge patch deletes the whole {shape}, every {item} included, whatever other writers put there; {writers} write {path}"),
            ("delete", "{path} is a {shape} other writers fill, and $patch: delete deletes it whole: every {item} goes, those other writers put there included{stored}; {writers} write {path}"),
            ("null", "{path} is a {shape} other writers fill, and null deletes it whole: every {item} goes, those other writers put there included{stored}; {writers} write {path}"),
            ("stored", " (stored now: {names})"),
            ("unknown-writer", "op {index} ({op} {path}) writes the whole {shape} with no test: no writer of it is known, but on a live object whatever another writer (a user, CI, a GitOps tool, a controller) put there since your read is replaced; test what you read first, or write its items one by one"),
            ("empty", "op {index} (add {path}) adds an empty {shape} with no test: an add replaces a member that is there, so whatever {path} holds when it lands (what the manifests or another writer set) is erased; if it is meant to create {path} only where it is absent, test it null first"),
        ],
        applies_to: AppliesTo::All,
    },
    RuleInfo {
        rule: Rule::WholeObjectTest,
        name: "whole-object-test",
        severity: Severity::Warning,
        summary: "a `test` of a whole object (a struct such as `status.migrationState`, or all of `status`) that other writers change",
        explanation: "A `test` compares every field of the object, so a change by any other writer of any field fails the patch (422), and everything else in the patch is dropped with it. Whether that happens is a question of who writes the object, not of its shape: KubeVirt's `status.migrationState` is filled by the migration controller and by virt-handler on both nodes, a Node's `status` by kubelet, the node lifecycle controller and node-problem-detector.",
        fix: "Per-field ops: `test` + `replace` of just the fields the patch changes (`add` where the field was unset), as KubeVirt's synchronization controller writes `migrationState`.",
        messages: &[
            ("op", "op {index} tests the whole object {path} ({count} {fields}){changes}: a change by another writer to any field of it fails the whole patch (422); {writers} write {at}{on_kind}{advice}"),
            ("changes", " to change it in {ops}"),
            ("advice", "; test only the fields the patch depends on"),
        ],
        applies_to: AppliesTo::JsonPatch,
    },
    RuleInfo {
        rule: Rule::MergeHasDirective,
        name: "merge-has-directive",
        severity: Severity::Error,
        summary: "strategic-merge-patch directives (`$patch`, `$retainKeys`, `$setElementOrder/...`, `$deleteFromPrimitiveList/...`) in a merge patch",
        explanation: "Directives mean something only in a strategic merge patch. A JSON merge patch (RFC 7386, `--type=merge`) treats `$deleteFromPrimitiveList/finalizers` as a field of that name: the server drops it as unknown (with a warning under the default field validation) and the directive does nothing, while the rest of the body is applied.",
        fix: "None automatic: send the body as a strategic merge patch (a built-in kind, `kubectl patch` without `--type`), or write the change as a JSON patch (for a custom resource).",
        messages: &[("member", "{path} is a strategic-merge-patch directive, but this is a merge patch: the server reads {key:?} as a field of that name, drops it as unknown (a warning under the default field validation) and applies the rest; the directive does nothing")],
        applies_to: AppliesTo::MergePatch,
    },
    RuleInfo {
        rule: Rule::SmpCustomResource,
        name: "smp-custom-resource",
        severity: Severity::Error,
        summary: "a strategic merge patch (`kubectl patch` without `--type`) to a custom resource",
        explanation: "Custom resources accept only JSON patches, merge patches and server-side apply: the server answers 415 `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml` (kubernetes `staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/customresource_handler.go`, `supportedTypes`; `handlers/patch.go`, `PatchResource`). `kubectl patch` sends a strategic merge patch unless `--type` says otherwise. Which kinds are built in comes from the schema tables (`src/schema/data`, generated from Kubernetes' published OpenAPI definitions, with every built-in kind listed): a kind they do not list is served by a CustomResourceDefinition. The finding says what the other types would do with this body: `--type=merge` does the same only when the body holds no lists and no directives; a list in a merge patch is replaced whole.",
        fix: "None automatic: `--type=merge` when the body holds no lists and no directives (then it means the same), `--type=json` ops for each list element you change.",
        messages: &[
            ("body", "{what} is a custom resource, which does not take strategic merge patches (what kubectl sends without --type): the server answers {answer}; {advice}"),
            ("typed", "{typed} ({kind})"),
            ("unnamed", "the resource"),
            ("same-as-merge", "send it with --type=merge: this body holds no lists and no directives, so a merge patch does exactly the same"),
            ("lists", "with --type=merge the same body would replace {lists} whole, deleting every element you did not list"),
            ("directives", "its directives ($patch, $retainKeys, $setElementOrder, $deleteFromPrimitiveList) mean nothing in a merge patch"),
            ("split", "{parts}: write those changes as ops with --type=json (add at /-, test then remove at an index), the rest with --type=merge"),
        ],
        applies_to: AppliesTo::StrategicMergePatch,
    },
    RuleInfo {
        rule: Rule::SmpBadDirective,
        name: "smp-bad-directive",
        severity: Severity::Error,
        summary: "a strategic-merge-patch directive the server cannot read (`$patch: remove`, `$setElementOrder/x` that is not a list, ...)",
        explanation: "`$patch` takes `replace`, `merge` or `delete`; `$retainKeys`, `$setElementOrder/<list>` and `$deleteFromPrimitiveList/<list>` take lists. Anything else fails the whole patch with apimachinery's error (`unknown patch type`, `invalid patch format of retainKeys`, `invalid patch format of setElementOrder list`, `invalid patch format of primitive list`: `k8s.io/apimachinery/pkg/util/mergepatch/errors.go`).",
        fix: "None automatic: the directive spelled as the server reads it, or left out.",
        messages: &[
            ("member", "{path}: {problem}; the server fails the whole patch with that error (k8s.io/apimachinery/pkg/util/mergepatch/errors.go)"),
            ("patch", "unknown patch type: {value} (the $patch directive takes replace, merge or delete)"),
            ("retain-keys", "invalid patch format of retainKeys ($retainKeys takes a list of field names)"),
            ("set-element-order", "invalid patch format of setElementOrder list (it takes a list)"),
            ("primitive-list", "invalid patch format of primitive list ($deleteFromPrimitiveList takes a list of values)"),
        ],
        applies_to: AppliesTo::StrategicMergePatch,
    },
    RuleInfo {
        rule: Rule::SmpReplacesList,
        name: "smp-replaces-list",
        severity: Severity::Warning,
        summary: "a list without a merge key (a Node's `taints`, `tolerations`) in a strategic merge patch, where other writers add elements",
        explanation: "A strategic merge patch merges a list element by element only when its Go type declares a patch strategy: `containers` merge by `name`, `conditions` by `type`, `finalizers` as a set. A list without one (a Node's `spec.taints`, a Pod's `tolerations`, `imagePullSecrets` in a ServiceAccount) is replaced whole, exactly as in a merge patch: every element another writer added since your read is deleted without a check. Kubernetes' own taint helper pins `metadata.resourceVersion` for this reason (`pkg/controller/controller_utils.go`, `PatchNodeTaints`: \"`.spec.taints` does not specify patchMergeKey and patchStrategy\"). The finding names the writers (the writers table) and, with the current object, the elements that would go.",
        fix: "With the current object: the JSON patch of the same change (a `test` of the list read, then the write). Or pin `metadata.resourceVersion` in the body (409 on any concurrent write, then re-read and retry), as `PatchNodeTaints` does.",
        messages: &[
            ("list", "{path} has no merge key, so a strategic merge patch replaces it whole with what the body lists ({count} {items}): every {item} another writer added since your read is deleted without a check{gone}; {writers} write {path}"),
            ("gone", "; on the current object it deletes {names} (the {items} you did not list)"),
        ],
        applies_to: AppliesTo::StrategicMergePatch,
    },
    RuleInfo {
        rule: Rule::SmpPatchReplace,
        name: "smp-patch-replace",
        severity: Severity::Warning,
        summary: "`$patch: replace` on a list or map other writers fill (a Node's labels, finalizers, conditions)",
        explanation: "`$patch: replace` turns a strategic merge patch's merge into a replacement: the map or list becomes exactly what the body lists, so every label, finalizer or condition another writer put there (kubelet, node-feature-discovery, controllers, users) is deleted, without a check (apimachinery `pkg/util/strategicpatch/patch.go`, `mergeMap` and `mergeSliceWithSpecialElements`). Without the directive, labels merge per key and keyed lists merge per element, which is what a writer that shares the field wants.",
        fix: "None automatic: drop the directive and send only what changes (a key with `null` to delete it, `{\"name\": ..., \"$patch\": \"delete\"}` or `$deleteFromPrimitiveList/<field>` to delete one element).",
        messages: &[
            ("list", "{path} is a {shape} other writers fill, and {how} makes it exactly what the body lists: every {item} you did not list is deleted, whatever another writer put there{stored}; {writers} write {path} (without the directive the {items} merge, and yours are added)"),
            ("directive", "$patch: replace in it"),
            ("element", "a {{\"$patch\": \"replace\"}} element"),
            ("stored", " (stored now: {names})"),
        ],
        applies_to: AppliesTo::StrategicMergePatch,
    },
    RuleInfo {
        rule: Rule::SmpMissingMergeKey,
        name: "smp-missing-merge-key",
        severity: Severity::Error,
        summary: "an element of a list merged by key that lacks the key (a container without `name`)",
        explanation: "A list merged by key (`containers` by `name`, `ports` by `containerPort`, `conditions` by `type`) matches each element of the patch to a stored one by that key. An element without it cannot be matched: whenever the stored object has the list, the server fails the whole patch with HTTP 500 and apimachinery's text `map: map[image:redis] does not contain declared merge key: name` (`pkg/util/mergepatch/errors.go`, `ErrNoMergeKey`; `handlers/patch.go`, `interpretStrategicMergePatchError`, passes it on as an internal error).",
        fix: "None automatic: add the key (the container's `name`) to each element.",
        messages: &[
            ("element", "{path} merges by {key}, but element {i}{more} has no {key}: whenever the stored object has the list, the server fails the whole patch with {status}"),
            ("more", " (and {count} more)"),
            ("no-status", "an error"),
        ],
        applies_to: AppliesTo::StrategicMergePatch,
    },
    RuleInfo {
        rule: Rule::SmpNondeterministic,
        name: "smp-nondeterministic",
        severity: Severity::Warning,
        summary: "a list and its `$deleteFromPrimitiveList` in one strategic merge patch without `$setElementOrder`: kubectl and the server merge them in a random order",
        explanation: "apimachinery merges a patch's keys in Go's map order, which Go randomizes on every iteration (`mergeMap` in `pkg/util/strategicpatch/patch.go`: `for k, patchV := range patch`). `finalizers` and `$deleteFromPrimitiveList/finalizers` are two keys of one map, so each request merges the list first and deletes after, or deletes first and merges after: a value the body both adds and deletes is kept one time and dropped the next, and, where the stored list holds duplicates, the deletion leaves spare capacity that changes the order of the merged list. The same body gives different objects from run to run, in `kubectl patch --local` and on the server. `$setElementOrder/<list>` fixes the order: `mergePatchIntoOriginal` merges the list with its order before the loop, so the deletion always comes after (which is why `kubectl apply` and `kubectl edit`, whose diffs send a deletion list with an order list, are not affected).",
        fix: "None automatic: do not add and delete one value in one body; or add `$setElementOrder/<list>` listing the list as you want it (the merge then always runs first); or send the addition and the deletion as two patches.",
        messages: &[
            ("both", "{path} and {delete} are merged in Go's random map order (no {order}): {values} {verb} both added and deleted, so each request keeps or drops {them} at random"),
            ("order", "{path} and {delete} are merged in Go's random map order (no {order}): the merge and the deletion run in either order from request to request, which changes the merged list's order when the stored list holds duplicates"),
        ],
        applies_to: AppliesTo::StrategicMergePatch,
    },
    RuleInfo {
        rule: Rule::ByteOrderMark,
        name: "byte-order-mark",
        severity: Severity::Error,
        summary: "a UTF-8 byte order mark before the body",
        explanation: "Editors on Windows save files with a byte order mark (EF BB BF). Go's JSON decoder does not skip it: its scanner stops at the first byte, 0xEF, which it names as the rune `ï` (`stateBeginValue` and `quoteChar` in `encoding/json/scanner.go`, the same in the fork `sigs.k8s.io/json` kube-apiserver decodes patches with). The server answers 400 `error decoding patch: invalid character 'ï' looking for beginning of value` for a JSON patch and a merge patch (`handlers/patch.go`, `applyJSPatch`), and the same text without the prefix for a strategic merge patch (`strategicPatchObject`). (`kubectl patch -p` reads a value that does not start with `{` as YAML, which drops the mark, so the same text works there.)",
        fix: "The same body without the mark.",
        messages: &[
            ("body", "the body starts with a UTF-8 byte order mark (EF BB BF): Go's decoder refuses it, the server answers 400 {prefix}invalid character 'ï' looking for beginning of value"),
            ("prefix", "error decoding patch: "),
        ],
        applies_to: AppliesTo::All,
    },
    RuleInfo {
        rule: Rule::GoFormattedBody,
        name: "go-formatted-body",
        severity: Severity::Error,
        summary: "a body that is Go's `%v` or `%s` of a slice of ops (`[{add /metadata/labels/app web}]`), not JSON",
        explanation: "Printing a `[]PatchOperation` with `fmt.Sprintf(\"%v\", ops)` or `%s` writes Go's own notation: no quotes, no field names, maps as `map[k:v]`. The server cannot decode it (400 `error decoding patch`). It shows up when a log line or a test fixture is pasted as a patch, or when the payload was built with `fmt` instead of `json.Marshal`.",
        fix: "The ops written as JSON (`json.Marshal`, or KubeVirt's `PatchSet.GeneratePayload()`), when the text can be read back.",
        messages: &[("body", "the body is Go's %v of a slice of ops, not JSON (no quotes, no field names): the server cannot decode it, 400 error decoding patch; write it with json.Marshal or KubeVirt's GeneratePayload()")],
        applies_to: AppliesTo::JsonPatch,
    },
    RuleInfo {
        rule: Rule::NonStringValue,
        name: "non-string-value",
        severity: Severity::Error,
        summary: "a number, boolean, list or object where Kubernetes keeps strings (label and annotation values, `nodeSelector`, a ConfigMap's `data`)",
        explanation: "Labels, annotations, `nodeSelector`, `matchLabels` and ConfigMap data are `map[string]string` in the API types. `\"3\"` is a string, `3` is not: for a built-in kind the patch itself applies, but the server cannot decode the patched object into its Go type and answers 422 Invalid with the decoder's error (`handlers/patch.go`: `jsonPatcher.applyPatchToCurrentObject` for JSON and merge patches, `applyPatchToObject` for strategic merge patches: a decoding error that is not a strict-field error becomes `errors.NewInvalid`). YAML makes this easy to miss: `replicas: 3` and `enabled: true` are a number and a boolean.",
        fix: "The same value as a string (`\"3\"`, `\"true\"`).",
        messages: &[
            ("op", "op {index} ({op} {path}) writes {value} at {at}, {what}: the map holds strings only (map[string]string), so for a built-in kind the server cannot decode the patched object (422 Invalid); write it as the string {string}"),
            ("it-means", "it means"),
            ("member", "{path} is {what} ({value}): {map} holds strings only (map[string]string), so for a built-in kind the server cannot decode the patched object (422 Invalid); write it as a string"),
        ],
        applies_to: AppliesTo::All,
    },
    RuleInfo {
        rule: Rule::YamlNumber,
        name: "yaml-number",
        severity: Severity::Warning,
        summary: "a YAML number whose digits the JSON sent does not keep (`1.10` is sent as `1.1`, `0755` as `493`, `1_000` as `1000`, `0o17` as `15`)",
        explanation: "`kubectl patch -p` reads a value that does not start with `{` as YAML, and a YAML file is converted to JSON before it is sent (apimachinery `yaml.ToJSON`, sigs.k8s.io/yaml over yaml.v2, which reads YAML 1.1): an unquoted `1.10` is the number 1.1, so a version `1.10` arrives as `1.1`; a leading zero makes an octal number (`0755` is 493, `09` is 9); `_` separators are dropped (`1_000` is 1000) and `0b`, `0o`, `0x` numbers are sent in decimal; an integer too long for an int64 or a uint64 becomes a float that loses digits. A number where a string belongs (a label, an annotation) is refused on top. A key is sent as the number's text (`010:` is the key `8`).",
        fix: "None automatic: quote the value (`\"1.10\"`).",
        messages: &[("number", "line {line}: the YAML number {written} is sent as {sent}: quote it (\"{written}\") if the digits matter")],
        applies_to: AppliesTo::All,
    },
    RuleInfo {
        rule: Rule::TestRetriedOnConflict,
        name: "test-retried-on-conflict",
        severity: Severity::Warning,
        summary: "a JSON patch with a `test`, sent inside `retry.RetryOnConflict`",
        explanation: "`retry.RetryOnConflict` retries only when the error is a 409 Conflict (client-go `util/retry`: `OnError(backoff, errors.IsConflict, fn)`). A failed `test` is answered 422 Invalid, never 409, and a JSON patch without a resourceVersion is never refused with 409 at all (the server re-applies it to the latest object itself). So the loop runs once: the retry the author meant never happens, and the test values are never refreshed.",
        fix: "Retry on the 422 with a fresh read: `retry.OnError(backoff, apierrors.IsInvalid, fn)` where `fn` gets the object again and rebuilds the patch (its `test` values) from it; or return the error and let the work queue requeue.",
        messages: &[],
        applies_to: AppliesTo::GoSource,
    },
    RuleInfo {
        rule: Rule::MergeFromReplacesList,
        name: "merge-from-replaces-list",
        severity: Severity::Warning,
        summary: "a controller-runtime `client.MergeFrom` patch whose object's finalizers, conditions or owner references changed after the base was copied",
        explanation: "`client.MergeFrom(base)` sends the JSON merge patch from `base` to the object. A merge patch replaces lists whole, so the finalizers (or conditions, or owner references) go out as the complete list this controller saw: a finalizer another controller added since the read is removed again, silently. Without `MergeFromWithOptimisticLock` nothing guards it (no resourceVersion in the body, so no 409).",
        fix: "`client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})` (the body then carries the resourceVersion: a concurrent write is a 409, retried from a fresh read with `retry.RetryOnConflict`); for built-in kinds `client.StrategicMergeFrom(base)` merges finalizers as a set.",
        messages: &[],
        applies_to: AppliesTo::GoSource,
    },
    RuleInfo {
        rule: Rule::UnknownField,
        name: "unknown-field",
        severity: Severity::Error,
        summary: "a path or member the kind's schema does not have (`/metdata/labels`, `nodeselector`)",
        explanation: "After applying a patch the server decodes the result into the kind's Go type (kubernetes `staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go`: `runtime.DecodeInto` in `jsonPatcher.applyPatchToCurrentObject`, `FromUnstructuredWithValidation` in `applyPatchToObject` for a strategic merge patch). A member the type does not have is dropped: under the default field validation, `Warn` (no `fieldValidation` parameter; `kubectl patch` sends none), the only trace is a warning header (`addStrictDecodingWarnings`), so the request succeeds and writes nothing there; with `fieldValidation=Strict` it is refused with 422. An op whose path runs below a member the object lacks (`/metdata/labels/app`) fails the whole patch instead (422). Members are matched exactly, case included (the server decodes case-sensitively). The rule reads the kind's schema tables (built-in kinds and KubeVirt's; maps, free-form fields and custom resources without a table take any key), with or without a current object.",
        fix: "None automatic: the finding names the field meant when one is close (`metadata` for `metdata`, `nodeSelector` for `nodeselector`).",
        messages: &[
            ("member", "`{member}` is not a field of {within}{hint} The server decodes the patched object into {kind}'s Go type, which drops members it does not know with only a warning: nothing is written there.{below}"),
            ("a-kind", "a {kind}"),
            ("within", "{parent} (at `{at}`)"),
            ("no-hint", "."),
            ("hint", ": did you mean `{field}`?"),
            ("below", " An op whose path runs below a member the object lacks fails the whole patch instead (422)."),
        ],
        applies_to: AppliesTo::All,
    },
    RuleInfo {
        rule: Rule::YamlBoolean,
        name: "yaml-boolean",
        severity: Severity::Note,
        summary: "a YAML word kubectl reads as a boolean (`yes`, `no`, `on`, `off`, `y`, `n`, in three casings)",
        explanation: "kubectl converts YAML to JSON with sigs.k8s.io/yaml over yaml.v2, which reads YAML 1.1 (`resolve.go`): besides `true` and `false`, the words `y`, `yes`, `on` and `n`, `no`, `off` (lower case, capitalised or upper case) are booleans. YAML 1.2 and most editors read them as strings. So `mode: on` is sent as `true`: where Kubernetes keeps strings (labels, annotations, a ConfigMap's data, environment values) the server refuses it, elsewhere it is stored as a boolean; and a key `on:` or `y:` is sent as the key `\"true\"`, silently renamed.",
        fix: "None automatic: quote the word (`\"on\"`) if it is text; write `true` or `false` if it is a boolean.",
        messages: &[
            ("value", "line {line}: the YAML word {written} is sent as {sent} (kubectl reads YAML 1.1): quote it (\"{written}\") if it is text"),
            ("key", "line {line}: the key {written} is sent as the key {sent:?} (kubectl reads YAML 1.1): quote it (\"{written}\")"),
        ],
        applies_to: AppliesTo::All,
    },
    RuleInfo {
        rule: Rule::CommandFails,
        name: "command-fails",
        severity: Severity::Error,
        summary: "a command that fails as written: the shell cannot run it, kubectl refuses it, or the server refuses the request it makes; nothing is applied",
        explanation: "The line reads as a `kubectl patch` command, but as written it never sends its patch: a quote is never closed (bash stops with `unexpected EOF`), a backslash before trailing spaces escapes a space instead of the line break (the command ends there and its next line runs on its own), or kubectl's own checks refuse it before any request (`must specify --patch or --patch-file`, `unable to parse`, an unknown `--type`). Scripts that ignore the exit status go on as if the object were patched.",
        fix: "None automatic: close the quote, remove the spaces after the backslash, or give kubectl what it asks for; then lint the corrected line.",
        messages: &[
            ("shell", "the shell cannot run this text: {what}; bash stops there (unexpected EOF) and kubectl never runs, so nothing is sent"),
            ("kubectl", "kubectl refuses this command before sending anything: error: {what}{why}"),
            ("continuation", "; line {line} ends in a backslash followed by spaces: the backslash escapes a space, not the line break, so the command ends on line {line} and the next line runs as a command of its own"),
            ("yaml", "{what}: nothing is sent"),
            ("curl-type", "curl sends the body as {sent}, a content type PATCH does not take: the server answers 415 Unsupported Media Type and applies nothing; name the patch type with -H 'Content-Type: application/json-patch+json' (or merge-patch+json, strategic-merge-patch+json)"),
        ],
        applies_to: AppliesTo::All,
    },
    RuleInfo {
        rule: Rule::UndecodableBody,
        name: "undecodable-body",
        severity: Severity::Error,
        summary: "a body the server cannot decode: 400, nothing is applied",
        explanation: "kube-apiserver decodes the body with Go's `encoding/json` before any engine runs (`applyJSPatch`, `strategicPatchObject` in k8s.io/apiserver `pkg/endpoints/handlers/patch.go`): a trailing comma, a backslash before a quote inside single quotes, typographic quotes, or a body of the wrong shape for its content type is answered `400 BadRequest` with Go's decoder text (after `error decoding patch:` for JSON and merge patches). kubectl sends a text that starts with `{` as it is, so it does not catch these; a `[...]` text goes through its YAML reader first, which forgives a trailing comma.",
        fix: "None automatic: correct the character the message points at.",
        messages: &[
            ("body", "the server cannot decode this body as {content}{place}: it answers 400 BadRequest: {answer}; nothing is applied"),
            ("place", " (line {line}, column {column})"),
            ("shape", "kubectl sends {sent}, and the server cannot decode it as {content}: it answers 400 BadRequest: {answer}; nothing is applied"),
        ],
        applies_to: AppliesTo::All,
    },
    RuleInfo {
        rule: Rule::BodyUnknown,
        name: "body-unknown",
        severity: Severity::Note,
        summary: "a patch whose body is not in the text: a value the script sets elsewhere, or a file a kustomization names",
        explanation: "`-p \"$PATCH\"`, `-p \"$(curl ...)\"`, a body a `jq` or `printf` builds, a `kubectl patch` command the script builds as a string, or a kustomization's `path:` patch: lint reads the text it is given, and does not run the script or open the file, so it does not know what the patch holds and judges only what is around it (the shell, a value read from the cluster just before, the kustomization's other patches). This is not a verdict on the body.",
        fix: "Paste the value the variable holds with `-p '...'` (`echo \"$PATCH\"` prints it), or lint the patch file, and lint that.",
        messages: &[
            ("value", "the patch is {value}, a value the script sets elsewhere: lint cannot know it, so only the command is judged; paste the value it holds with -p to judge the body"),
            ("file", "{label} is the file {path}: lint reads the text it is given and does not open it; lint the file with --context kustomize"),
            ("unopened", "the patch is {what} ({why}): lint cannot know it, so only the command is judged; paste its contents with -p, or run `patchlab lint` where the file is"),
            ("stdin", "the patch is what `{feeder}` writes to standard input: lint cannot know it, so only the command is judged; paste the patch with -p to judge the body"),
            ("built", "the `kubectl patch` command is built when the script runs ({value}): lint cannot know the patch it sends; paste one command the script prints to judge it"),
        ],
        applies_to: AppliesTo::All,
    },
    RuleInfo {
        rule: Rule::ReadThenPatch,
        name: "read-then-patch",
        severity: Severity::Warning,
        summary: "a value or path in the patch read from the cluster a moment before (`$(kubectl get ...)`), with nothing to check it still holds",
        explanation: "The script reads a value (an index into a list, a list to extend, a count) with `kubectl get` and builds the patch from it. Any write between the read and the patch (a controller adding a toleration, another script appending a plugin) is not seen: an index now points at another element, a list written back drops the element added in between. Nothing in the request says what was read, so the server cannot refuse a stale patch.",
        fix: "None automatic: `test` the value read in the same JSON patch (`{\"op\":\"test\",\"path\":\"/spec/taints/1/key\",\"value\":\"dedicated\"}` before removing index 1), or send the `resourceVersion` read with it so that a write in between answers 409.",
        messages: &[
            ("value", "{expansion} in the patch comes from {read}, read from the cluster just before the patch: a write in between is not seen, so what the patch carries may no longer match the object when it lands; test it in the patch, or pin the resourceVersion read with it"),
            ("stdin", "the patch kubectl reads from standard input comes from {read}, read from the cluster just before the patch: a write in between is not seen, so what the patch carries may no longer match the object when it lands; test it in the patch, or pin the resourceVersion read with it"),
        ],
        applies_to: AppliesTo::All,
    },
    RuleInfo {
        rule: Rule::WriteDropped,
        name: "write-dropped",
        severity: Severity::Warning,
        summary: "a write the server drops on the endpoint it is sent to: `status` of a built-in kind sent to the object itself, a Namespace's `spec.finalizers` outside `/finalize`",
        explanation: "A built-in kind with a status subresource keeps its stored `status` on every write to the object itself: its strategy's `PrepareForUpdate` copies the old status over the new one (kubernetes `pkg/registry/.../strategy.go`), and the status subresource is where status is written. A Namespace likewise keeps `spec.finalizers` except through `/finalize`. The request succeeds (200) and that part of it changes nothing: the script or controller goes on as if it had.",
        fix: "Send it to the subresource: `kubectl patch --subresource=status` (Kubernetes 1.24 and later), `PATCH .../status`, client-go's `UpdateStatus`/`Patch(..., \"status\")`, controller-runtime's `Status().Patch`; a Namespace's finalizers with a PUT to `/finalize`.",
        messages: &[
            ("dropped", "the body writes {what} of a {kind} to the object itself, and the server keeps the stored {what} there: the request succeeds and that part changes nothing; send it to {instead}"),
        ],
        applies_to: AppliesTo::All,
    },
];
