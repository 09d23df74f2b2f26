//! Writers: a name, an intent expressed as data, how they patch, and how
//! often they retry.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::pointer::{AssignError, Pointer, PointerBuf};
use crate::strategy::{Options, Preset, Strategy};

/// One change a writer means to make.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum Intent {
    /// `metadata.labels[key] = value`.
    SetLabel {
        /// The label key.
        key: String,
        /// The value.
        value: String,
    },
    /// Delete `metadata.labels[key]`.
    RemoveLabel {
        /// The label key.
        key: String,
    },
    /// `metadata.annotations[key] = value`.
    SetAnnotation {
        /// The annotation key.
        key: String,
        /// The value.
        value: String,
    },
    /// Delete `metadata.annotations[key]`.
    RemoveAnnotation {
        /// The annotation key.
        key: String,
    },
    /// `map[key] = value` for the map at a pointer (such as `/status/activePods`).
    SetEntry {
        /// The map's pointer.
        map: PointerBuf,
        /// The key.
        key: String,
        /// The value.
        value: Value,
    },
    /// Delete `map[key]`.
    RemoveEntry {
        /// The map's pointer.
        map: PointerBuf,
        /// The key.
        key: String,
    },
    /// Add a finalizer (once).
    AddFinalizer {
        /// The finalizer.
        name: String,
    },
    /// Remove a finalizer.
    RemoveFinalizer {
        /// The finalizer.
        name: String,
    },
    /// Set the field at a pointer (a status field, a list, a struct).
    Set {
        /// Where.
        path: PointerBuf,
        /// The value.
        value: Value,
    },
    /// Delete the field at a pointer.
    Remove {
        /// Where.
        path: PointerBuf,
    },
}

/// What an intent looks at in an object.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Observation<'a> {
    /// The value at the intent's location (`None`: absent).
    Value(Option<&'a Value>),
    /// Whether the finalizer is in the list.
    Member(bool),
}

impl Intent {
    /// The field this intent is about, as a pointer (a finalizer intent
    /// names the list).
    pub fn location(&self) -> PointerBuf {
        match self {
            Intent::SetLabel { key, .. } | Intent::RemoveLabel { key } => {
                Pointer::parse("/metadata/labels")
                    .map(|p| p.join(key))
                    .unwrap_or_default()
            }
            Intent::SetAnnotation { key, .. } | Intent::RemoveAnnotation { key } => {
                Pointer::parse("/metadata/annotations")
                    .map(|p| p.join(key))
                    .unwrap_or_default()
            }
            Intent::SetEntry { map, key, .. } | Intent::RemoveEntry { map, key } => map.join(key),
            Intent::AddFinalizer { .. } | Intent::RemoveFinalizer { .. } => {
                PointerBuf::parse("/metadata/finalizers").unwrap_or_default()
            }
            Intent::Set { path, .. } | Intent::Remove { path } => path.clone(),
        }
    }

    /// What the intent is about, finer than its location: a finalizer
    /// intent is about one element of the list.
    pub fn concern(&self) -> String {
        match self {
            Intent::AddFinalizer { name } | Intent::RemoveFinalizer { name } => {
                format!("/metadata/finalizers[{name}]")
            }
            other => other.location().to_string(),
        }
    }

    /// A short description: `label kubevirt.io/nodeName = node02`.
    pub fn describe(&self) -> String {
        match self {
            Intent::SetLabel { key, value } => format!("label {key} = {value}"),
            Intent::RemoveLabel { key } => format!("remove label {key}"),
            Intent::SetAnnotation { key, value } => format!("annotation {key} = {value}"),
            Intent::RemoveAnnotation { key } => format!("remove annotation {key}"),
            Intent::SetEntry { map, key, value } => {
                format!("{map}[{key}] = {}", crate::text::elide_value(value, 60))
            }
            Intent::RemoveEntry { map, key } => format!("remove {map}[{key}]"),
            Intent::AddFinalizer { name } => format!("add finalizer {name}"),
            Intent::RemoveFinalizer { name } => format!("remove finalizer {name}"),
            Intent::Set { path, value } => {
                format!("{path} = {}", crate::text::elide_value(value, 60))
            }
            Intent::Remove { path } => format!("remove {path}"),
        }
    }

    /// What the object shows of this intent's field: the value at its
    /// location, or for a finalizer intent whether the finalizer is there.
    pub fn observe<'a>(&self, object: &'a Value) -> Observation<'a> {
        let member = |map: &str, key: &str| object.get("metadata")?.get(map)?.get(key);
        match self {
            Intent::AddFinalizer { name } | Intent::RemoveFinalizer { name } => {
                Observation::Member(
                    object
                        .get("metadata")
                        .and_then(|m| m.get("finalizers"))
                        .and_then(Value::as_array)
                        .is_some_and(|items| items.iter().any(|v| v.as_str() == Some(name))),
                )
            }
            Intent::SetLabel { key, .. } | Intent::RemoveLabel { key } => {
                Observation::Value(member("labels", key))
            }
            Intent::SetAnnotation { key, .. } | Intent::RemoveAnnotation { key } => {
                Observation::Value(member("annotations", key))
            }
            Intent::SetEntry { map, key, .. } | Intent::RemoveEntry { map, key } => {
                Observation::Value(map.resolve(object).and_then(|m| m.get(key)))
            }
            Intent::Set { path, .. } | Intent::Remove { path } => {
                Observation::Value(path.resolve(object))
            }
        }
    }

    /// True for the intents that delete something.
    pub fn removes(&self) -> bool {
        matches!(
            self,
            Intent::RemoveLabel { .. }
                | Intent::RemoveAnnotation { .. }
                | Intent::RemoveEntry { .. }
                | Intent::RemoveFinalizer { .. }
                | Intent::Remove { .. }
        )
    }

    /// True when `object` shows this intent done.
    pub fn holds(&self, object: &Value) -> bool {
        let seen = match self.observe(object) {
            Observation::Member(present) => {
                return matches!(self, Intent::AddFinalizer { .. }) == present;
            }
            Observation::Value(seen) => seen,
        };
        match self {
            Intent::SetLabel { value, .. } | Intent::SetAnnotation { value, .. } => {
                seen.and_then(Value::as_str) == Some(value.as_str())
            }
            Intent::SetEntry { value, .. } | Intent::Set { value, .. } => {
                seen.is_some_and(|seen| contains(seen, value))
            }
            _ => seen.is_none(),
        }
    }

    /// Makes the change in `object` (missing or null parents become
    /// objects).
    ///
    /// # Errors
    ///
    /// [`AssignError`] when a parent on the way is not an object (a label
    /// set on an object whose `metadata.labels` is a string).
    pub fn apply_to(&self, object: &mut Value) -> Result<(), AssignError> {
        match self {
            Intent::SetLabel { value, .. } | Intent::SetAnnotation { value, .. } => {
                self.location()
                    .assign(object, Value::from(value.as_str()))?;
            }
            Intent::SetEntry { value, .. } | Intent::Set { value, .. } => {
                self.location().assign(object, value.clone())?;
            }
            Intent::RemoveLabel { .. }
            | Intent::RemoveAnnotation { .. }
            | Intent::RemoveEntry { .. }
            | Intent::Remove { .. } => {
                self.location().delete(object);
            }
            Intent::AddFinalizer { name } => {
                let list = finalizers();
                match list.resolve_mut(object) {
                    Some(Value::Array(items)) => {
                        if !items.iter().any(|v| v.as_str() == Some(name)) {
                            items.push(Value::from(name.as_str()));
                        }
                    }
                    _ => {
                        list.assign(object, Value::Array(vec![Value::from(name.as_str())]))?;
                    }
                }
            }
            Intent::RemoveFinalizer { name } => {
                if let Some(Value::Array(items)) = finalizers().resolve_mut(object) {
                    items.retain(|v| v.as_str() != Some(name));
                }
            }
        }
        Ok(())
    }
}

fn finalizers() -> &'static Pointer {
    Pointer::parse("/metadata/finalizers").unwrap_or(Pointer::root())
}

/// True when `have` shows `want`: equal, or for objects, every member of
/// `want` shown in `have` (a struct may have gained fields from others).
fn contains(have: &Value, want: &Value) -> bool {
    match (have, want) {
        (Value::Object(have), Value::Object(want)) => want
            .iter()
            .all(|(k, w)| have.get(k).is_some_and(|h| contains(h, w))),
        _ => have == want,
    }
}

/// A writer of a scenario.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WriterSpec {
    /// Its name, also its field manager (`virt-controller`, `virt-handler`, ...).
    pub name: String,
    /// How it patches.
    #[serde(default)]
    pub preset: Preset,
    /// Per-field strategy overrides (`/metadata/labels: whole-map`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub set: BTreeMap<String, Strategy>,
    /// True when a command-line or UI preset must not replace this writer's
    /// (virt-handler always calls `Update()`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub fixed: bool,
    /// Server-side apply only: take ownership of conflicting fields.
    #[serde(default, skip_serializing_if = "is_false")]
    pub force: bool,
    /// Server-side apply only: apply without force first, and with force
    /// when retrying after a conflict.
    #[serde(default, rename = "force-on-retry", skip_serializing_if = "is_false")]
    pub force_on_retry: bool,
    /// How many writes it attempts in all before it gives up (requeue
    /// bound).
    #[serde(default = "default_attempts")]
    pub attempts: u32,
    /// The object it writes (`Kind/name`); the first object by default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// What it means to change.
    pub intents: Vec<Intent>,
}

fn is_false(b: &bool) -> bool {
    !b
}

fn default_attempts() -> u32 {
    3
}

impl WriterSpec {
    /// The diff options this writer patches with, `preset` replacing its
    /// own unless it is fixed.
    pub fn options(&self, preset: Option<Preset>) -> Result<Options, crate::strategy::PathError> {
        let preset = match preset {
            Some(p) if !self.fixed => p,
            _ => self.preset,
        };
        let mut options = Options::preset(preset);
        options.field_manager = self.name.clone();
        for (path, strategy) in &self.set {
            let path = crate::strategy::parse_path(path)?;
            options.policy.set_strategy(path, *strategy);
        }
        Ok(options)
    }

    /// The name of what this writer patches with under `preset` (its own
    /// unless it is fixed): the preset and its per-field overrides,
    /// `kubevirt-main + /status/migrationState: add-if-absent`.
    pub fn label(&self, preset: Option<Preset>) -> String {
        let preset = match preset {
            Some(p) if !self.fixed => p,
            _ => self.preset,
        };
        crate::strategy::label(preset, self.set.iter().map(|(p, s)| (p.as_str(), *s)))
    }

    /// What the writer wants the object to look like, starting from what it
    /// last read.
    ///
    /// # Errors
    ///
    /// [`AssignError`] when an intent cannot be applied to what it read.
    pub fn desired(&self, read: &Value) -> Result<Value, AssignError> {
        let mut object = read.clone();
        for intent in &self.intents {
            intent.apply_to(&mut object)?;
        }
        Ok(object)
    }
}

impl WriterSpec {
    /// The server-side apply configuration of this writer: the identity of
    /// `object` (apiVersion, kind, name, namespace) and every field its
    /// intents set. Fields it means to remove are left out (an applier
    /// removes a field by no longer applying it).
    ///
    /// # Errors
    ///
    /// [`AssignError`] when an intent's location cannot be set.
    pub fn apply_configuration(&self, object: &Value) -> Result<Value, AssignError> {
        let mut config = Map::new();
        for key in ["apiVersion", "kind"] {
            if let Some(value) = object.get(key) {
                config.insert(key.to_owned(), value.clone());
            }
        }
        let mut metadata = Map::new();
        for key in ["name", "namespace"] {
            if let Some(value) = object.get("metadata").and_then(|m| m.get(key)) {
                metadata.insert(key.to_owned(), value.clone());
            }
        }
        config.insert("metadata".to_owned(), Value::Object(metadata));
        let mut config = Value::Object(config);
        for intent in &self.intents {
            if !intent.removes() {
                intent.apply_to(&mut config)?;
            }
        }
        Ok(config)
    }
}

impl fmt::Display for Intent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn intents_apply_observe_and_hold() {
        let mut object = json!({"metadata": {"name": "x"}});
        let intents = [
            Intent::SetLabel {
                key: "kubevirt.io/nodeName".into(),
                value: "node02".into(),
            },
            Intent::AddFinalizer { name: "f".into() },
            Intent::SetEntry {
                map: PointerBuf::parse("/status/activePods").unwrap(),
                key: "pod".into(),
                value: json!("node02"),
            },
            Intent::Set {
                path: PointerBuf::parse("/status/migrationState").unwrap(),
                value: json!({"targetNode": "node02"}),
            },
        ];
        for intent in &intents {
            assert!(!intent.holds(&object), "{intent}");
            intent.apply_to(&mut object).unwrap();
            assert!(intent.holds(&object), "{intent}");
        }
        assert_eq!(
            object,
            json!({"metadata": {"name": "x", "labels": {"kubevirt.io/nodeName": "node02"}, "finalizers": ["f"]},
                   "status": {"activePods": {"pod": "node02"}, "migrationState": {"targetNode": "node02"}}})
        );
        let remove = Intent::RemoveLabel {
            key: "kubevirt.io/nodeName".into(),
        };
        assert_eq!(
            remove.location().as_str(),
            "/metadata/labels/kubevirt.io~1nodeName"
        );
        remove.apply_to(&mut object).unwrap();
        assert!(remove.holds(&object));
        let unfinalize = Intent::RemoveFinalizer { name: "f".into() };
        assert_eq!(unfinalize.observe(&object), Observation::Member(true));
        unfinalize.apply_to(&mut object).unwrap();
        assert!(unfinalize.holds(&object));
        assert_eq!(object["metadata"]["finalizers"], json!([]));
    }

    #[test]
    fn intents_read_from_yaml() {
        let yaml = "- set-label: {key: a/b, value: v}\n- add-finalizer: {name: f}\n- set: {path: /status/phase, value: Running}\n";
        let value =
            crate::input::parse_as(yaml, crate::input::Format::Yaml, &Default::default()).unwrap();
        let intents: Vec<Intent> = serde_json::from_value(value).unwrap();
        assert_eq!(intents.len(), 3);
        assert_eq!(
            intents[0],
            Intent::SetLabel {
                key: "a/b".into(),
                value: "v".into()
            }
        );
    }

    #[test]
    fn fixed_writers_keep_their_preset() {
        let spec: WriterSpec = serde_json::from_value(json!({
            "name": "virt-handler", "preset": "update", "fixed": true, "intents": []
        }))
        .unwrap();
        assert_eq!(
            spec.options(Some(Preset::Naive)).unwrap().policy.preset,
            Preset::Update
        );
        let spec = WriterSpec {
            fixed: false,
            ..spec
        };
        assert_eq!(
            spec.options(Some(Preset::Naive)).unwrap().policy.preset,
            Preset::Naive
        );
        assert_eq!(spec.attempts, 3);
    }
}
