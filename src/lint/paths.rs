//! What lives at a path, as far as lint can tell without a schema: which
//! maps hold strings (labels anywhere, `nodeSelector`, `matchLabels`,
//! `resources.requests`, a ConfigMap's `data`, ...), and what a token that
//! looks like half of a qualified key (`kubernetes.io` in
//! `/spec/nodeSelector/kubernetes.io/hostname`) is.

use crate::pointer::Pointer;
use crate::strategy::{FieldKind, Policy};

use super::writers::{self, Shape};

/// Maps of strings found under any field (the path ends with these
/// tokens): `metav1.ObjectMeta` labels and annotations, `PodSpec`'s
/// `nodeSelector`, `LabelSelector`'s `matchLabels`, `ResourceRequirements`,
/// and the capacity maps of Node and PVC status.
const ANY_KIND: [&[&str]; 8] = [
    &["metadata", "labels"],
    &["metadata", "annotations"],
    &["nodeSelector"],
    &["matchLabels"],
    &["resources", "requests"],
    &["resources", "limits"],
    &["status", "capacity"],
    &["status", "allocatable"],
];

/// Maps of strings of particular kinds (the whole path): ConfigMap and
/// Secret data, a Service's and a ReplicationController's selector.
const BY_KIND: [(&[&str], &[&str]); 5] = [
    (&["ConfigMap", "Secret"], &["data"]),
    (&["ConfigMap"], &["binaryData"]),
    (&["Secret"], &["stringData"]),
    (&["Service"], &["spec", "selector"]),
    (&["ReplicationController"], &["spec", "selector"]),
];

/// True when `pointer` holds a map of strings on an object of `kind`: a
/// map the policy declares, one of the table above, or a map the writers
/// table knows.
pub fn is_string_map(policy: &Policy, kind: Option<&str>, pointer: &Pointer) -> bool {
    if policy.declared_kind(pointer) == Some(FieldKind::Map) {
        return true;
    }
    if writers::shape(kind, pointer).is_some_and(|(shape, _)| shape == Shape::Map) {
        return true;
    }
    let tokens: Vec<&str> = pointer.tokens().map(|t| t.encoded()).collect();
    if ANY_KIND.iter().any(|suffix| tokens.ends_with(suffix)) {
        return true;
    }
    kind.is_some_and(|kind| {
        BY_KIND
            .iter()
            .any(|(kinds, path)| kinds.contains(&kind) && tokens.as_slice() == *path)
    })
}

/// True when `pointer` holds a map of strings the server decodes as one:
/// [`is_string_map`], unless only the policy declares it a map (labels and
/// annotations always hold strings).
pub fn holds_strings(policy: &Policy, kind: Option<&str>, pointer: &Pointer) -> bool {
    let declared_only = policy.declared_kind(pointer) == Some(FieldKind::Map)
        && !matches!(
            pointer.as_str(),
            "/metadata/labels" | "/metadata/annotations"
        );
    !declared_only && is_string_map(policy, kind, pointer)
}

/// True when the policy or the writers table says `pointer` holds a list.
pub fn is_list(policy: &Policy, kind: Option<&str>, pointer: &Pointer) -> bool {
    matches!(
        policy.declared_kind(pointer),
        Some(FieldKind::SetList | FieldKind::AtomicList)
    ) || writers::shape(kind, pointer).is_some_and(|(shape, _)| shape == Shape::List)
}

/// [`item_name`] of the collection at `path` (`element` when `path` is not
/// a pointer).
pub fn item_at(kind: Option<&str>, path: &str) -> String {
    item_name(kind, Pointer::parse(path).unwrap_or(Pointer::root()))
}

/// What one element of the collection at `pointer` is called (`finalizer`,
/// `condition`, `volume`), for messages: the writers table's word, else
/// the field's name made singular, else `element`.
pub fn item_name(kind: Option<&str>, pointer: &Pointer) -> String {
    if let Some((_, item)) = writers::shape(kind, pointer) {
        return item.to_owned();
    }
    let Some(last) = pointer.last() else {
        return "element".to_owned();
    };
    let name = last.decoded();
    if name.bytes().all(|b| b.is_ascii_digit()) || name.is_empty() {
        return "element".to_owned();
    }
    let singular = name
        .strip_suffix("ies")
        .map(|stem| format!("{stem}y"))
        .or_else(|| name.strip_suffix("sses").map(|stem| format!("{stem}ss")))
        .or_else(|| {
            name.strip_suffix('s')
                .filter(|stem| !stem.ends_with('s'))
                .map(str::to_owned)
        })
        .unwrap_or_else(|| name.into_owned());
    // camelCase words: `volumeStatus` reads `volume status`.
    let mut out = String::with_capacity(singular.len() + 4);
    for c in singular.chars() {
        if c.is_ascii_uppercase() && !out.is_empty() {
            out.push(' ');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// `a finalizer`, `an element`, `an owner reference`.
pub fn with_article(item: &str) -> String {
    let vowel = item.starts_with(['a', 'e', 'i', 'o', 'u']);
    format!("{} {item}", if vowel { "an" } else { "a" })
}

/// True when `token` reads as the DNS prefix of a qualified key
/// (`kubernetes.io`, `app.kubernetes.io`, `nvidia.com`): lowercase
/// letters, digits, `-` and at least one inner `.`.
pub fn is_dns_prefix(token: &str) -> bool {
    token.contains('.')
        && token.len() <= 253
        && token.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && label
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                && !label.starts_with('-')
                && !label.ends_with('-')
        })
        // A version or a number (`v1.2`, `1.10`) is no DNS name: the last
        // label of one is letters only.
        && token
            .rsplit('.')
            .next()
            .is_some_and(|tld| tld.bytes().all(|b| b.is_ascii_lowercase()))
}

/// True when `token` reads as the name part of a qualified key
/// (`hostname`, `gpu`, `nodeName`).
pub fn is_key_name(token: &str) -> bool {
    !token.is_empty()
        && token.len() <= 63
        && token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        && token.as_bytes()[0].is_ascii_alphanumeric()
        && !token.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> &Pointer {
        Pointer::parse(s).unwrap()
    }

    #[test]
    fn string_maps_by_suffix_and_kind() {
        let policy = Policy::default();
        for (kind, path, expected) in [
            (None, "/metadata/labels", true),
            (None, "/spec/template/metadata/annotations", true),
            (None, "/spec/template/spec/nodeSelector", true),
            (None, "/spec/selector/matchLabels", true),
            (None, "/spec/containers/0/resources/limits", true),
            (None, "/data", false),
            (Some("ConfigMap"), "/data", true),
            (Some("Secret"), "/stringData", true),
            (Some("Service"), "/spec/selector", true),
            (Some("Deployment"), "/spec/selector", false),
            (None, "/status/activePods", true),
            (None, "/spec", false),
        ] {
            assert_eq!(
                is_string_map(&policy, kind, p(path)),
                expected,
                "{kind:?} {path}"
            );
        }
    }

    #[test]
    fn names_and_qualified_keys() {
        assert_eq!(item_name(None, p("/metadata/finalizers")), "finalizer");
        assert_eq!(item_name(None, p("/spec/volumes")), "volume");
        assert_eq!(
            item_name(None, p("/spec/template/spec/containers")),
            "container"
        );
        assert_eq!(item_name(Some("Pod"), p("/status/conditions")), "condition");
        assert_eq!(item_name(None, p("/spec/policies")), "policy");
        assert_eq!(
            item_name(None, p("/spec/volumeClaimTemplates")),
            "volume claim template"
        );
        assert_eq!(item_name(None, p("/status/volumeStatus")), "volume status");
        for token in [
            "kubernetes.io",
            "app.kubernetes.io",
            "nvidia.com",
            "kubevirt.io",
        ] {
            assert!(is_dns_prefix(token), "{token}");
        }
        for token in ["1.10", "v1.2", "app", "Foo.io", ".io", "a..b"] {
            assert!(!is_dns_prefix(token), "{token}");
        }
        assert!(is_key_name("hostname") && is_key_name("nodeName") && !is_key_name("0"));
    }
}
