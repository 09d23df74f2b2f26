//! A schema from a pasted CustomResourceDefinition: its kind, names and,
//! per served version, the types of its `openAPIV3Schema` with the list
//! and map types it declares (`x-kubernetes-list-type`,
//! `x-kubernetes-list-map-keys`, `x-kubernetes-map-type`). A CRD never
//! gives patch strategies: the API server refuses strategic merge patches
//! for custom resources (415), and `JSONSchemaProps` has no field for
//! them.
//!
//! ```
//! use patchlab::schema::{crd, ListType};
//! use patchlab::pointer::Pointer;
//!
//! let table = crd::parse(r#"
//! apiVersion: apiextensions.k8s.io/v1
//! kind: CustomResourceDefinition
//! metadata: {name: widgets.example.com}
//! spec:
//!   group: example.com
//!   names: {kind: Widget, plural: widgets, singular: widget, shortNames: [wd]}
//!   scope: Namespaced
//!   versions:
//!   - name: v1
//!     served: true
//!     storage: true
//!     schema:
//!       openAPIV3Schema:
//!         type: object
//!         properties:
//!           spec:
//!             type: object
//!             properties:
//!               ports:
//!                 type: array
//!                 x-kubernetes-list-type: map
//!                 x-kubernetes-list-map-keys: [port]
//!                 items: {type: object, properties: {port: {type: integer}}}
//! "#).unwrap();
//! let widget = table.resource("wd").unwrap();
//! assert!(!widget.is_builtin());
//! let ports = widget.at(Pointer::parse("/spec/ports").unwrap()).unwrap();
//! assert_eq!(ports.list_type(), Some(&ListType::Map(vec!["port".into()])));
//! ```

use std::fmt;

use serde_json::{Map, Value};

use super::table::{Field, KindInfo, ListType, MapType, Scalar, Struct, Table, Ty};
use crate::input::{self, Budget};
use crate::limits::{CRD_DEPTH as MAX_DEPTH, CRD_NODES as MAX_NODES};

/// Why a CRD cannot be read, and where (a JSON pointer into it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrdError {
    /// Where in the CRD (`/spec/names/kind`); empty for the text as a whole.
    pub path: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for CrdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for CrdError {}

fn error(path: &str, message: impl Into<String>) -> CrdError {
    CrdError {
        path: path.to_owned(),
        message: message.into(),
    }
}

/// Reads a CustomResourceDefinition as YAML or JSON text (see [`read`]).
///
/// # Errors
///
/// [`CrdError`]: the text is not JSON or YAML (with line and column), or
/// not a CRD.
pub fn parse(text: &str) -> Result<Table, CrdError> {
    let (value, _) =
        input::parse(text, &Budget::default()).map_err(|e| error("", e.to_string()))?;
    read(&value)
}

/// Reads a CustomResourceDefinition (`apiextensions.k8s.io/v1`, or
/// `v1beta1` with `spec.validation`): one kind per version that has a
/// schema, all custom resources.
///
/// # Errors
///
/// [`CrdError`] naming the member that is missing or malformed, or a
/// schema over the depth or size budget.
pub fn read(crd: &Value) -> Result<Table, CrdError> {
    if crd.get("kind").and_then(Value::as_str) != Some("CustomResourceDefinition") {
        return Err(error("/kind", "not a CustomResourceDefinition"));
    }
    let spec = crd
        .get("spec")
        .and_then(Value::as_object)
        .ok_or_else(|| error("/spec", "missing"))?;
    let text = |map: &Map<String, Value>, key: &str, path: &str| -> Result<String, CrdError> {
        map.get(key)
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .ok_or_else(|| error(path, "missing or not a string"))
    };
    let group = text(spec, "group", "/spec/group")?;
    let names = spec
        .get("names")
        .and_then(Value::as_object)
        .ok_or_else(|| error("/spec/names", "missing"))?;
    let kind = text(names, "kind", "/spec/names/kind")?;
    let plural = text(names, "plural", "/spec/names/plural")?;
    let singular = names
        .get("singular")
        .and_then(Value::as_str)
        .map_or_else(|| crate::text::kind_lower(&kind), str::to_owned);
    let short_names: Vec<Box<str>> = names
        .get("shortNames")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).map(Into::into).collect())
        .unwrap_or_default();

    let mut versions: Vec<(String, &Value, String)> = Vec::new();
    if let Some(list) = spec.get("versions").and_then(Value::as_array) {
        for (i, v) in list.iter().enumerate() {
            let Some(name) = v.get("name").and_then(Value::as_str) else {
                return Err(error(&format!("/spec/versions/{i}/name"), "missing"));
            };
            let schema = v.pointer("/schema/openAPIV3Schema").or_else(|| {
                spec.get("validation")
                    .and_then(|s| s.get("openAPIV3Schema"))
            });
            if let Some(schema) = schema {
                versions.push((
                    name.to_owned(),
                    schema,
                    format!("/spec/versions/{i}/schema/openAPIV3Schema"),
                ));
            }
        }
    } else if let (Some(name), Some(schema)) = (
        spec.get("version").and_then(Value::as_str),
        spec.get("validation")
            .and_then(|s| s.get("openAPIV3Schema")),
    ) {
        versions.push((
            name.to_owned(),
            schema,
            "/spec/validation/openAPIV3Schema".to_owned(),
        ));
    }
    if versions.is_empty() {
        return Err(error(
            "/spec/versions",
            "no version with an openAPIV3Schema",
        ));
    }

    let mut table = Table::default();
    let mut reader = Reader {
        table: &mut table,
        nodes: 0,
    };
    let mut kinds = Vec::new();
    for (version, schema, path) in versions {
        let name = format!("{kind}.{version}");
        let root = reader.ty(schema, &name, &path, 0)?;
        kinds.push(KindInfo {
            kind: kind.as_str().into(),
            api_version: format!("{group}/{version}").into(),
            plural: crate::text::kind_lower(&plural).into(),
            singular: crate::text::kind_lower(&singular).into(),
            short_names: short_names.clone(),
            root,
            custom: true,
            route: Default::default(),
            local: false,
        });
    }
    table.kinds = kinds;
    table.sources.push(format!(
        "CustomResourceDefinition {}",
        crd.pointer("/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or(&plural)
    ));
    Ok(table)
}

struct Reader<'a> {
    table: &'a mut Table,
    nodes: usize,
}

impl Reader<'_> {
    fn ty(&mut self, schema: &Value, name: &str, path: &str, depth: usize) -> Result<Ty, CrdError> {
        if depth > MAX_DEPTH {
            return Err(error(
                path,
                format!("schema nested deeper than {MAX_DEPTH}"),
            ));
        }
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            return Err(error(path, format!("more than {MAX_NODES} schema nodes")));
        }
        let Some(map) = schema.as_object() else {
            return Err(error(path, "a schema must be an object"));
        };
        let flag = |key: &str| map.get(key).and_then(Value::as_bool) == Some(true);
        if flag("x-kubernetes-int-or-string") {
            return Ok(Ty::Scalar(Scalar::IntOrString));
        }
        let ty = map.get("type").and_then(Value::as_str).unwrap_or_default();
        Ok(match ty {
            "string" => Ty::Scalar(Scalar::String),
            "boolean" => Ty::Scalar(Scalar::Bool),
            "number" => Ty::Scalar(Scalar::Number),
            "integer" => Ty::Scalar(
                if map.get("format").and_then(Value::as_str) == Some("int32") {
                    Scalar::Int32
                } else {
                    Scalar::Int64
                },
            ),
            "array" => {
                let items = map.get("items").unwrap_or(&Value::Null);
                if items.is_null() {
                    Ty::List(Box::new(Ty::Scalar(Scalar::Any)))
                } else {
                    Ty::List(Box::new(self.ty(
                        items,
                        name,
                        &format!("{path}/items"),
                        depth + 1,
                    )?))
                }
            }
            _ => {
                if let Some(props) = map.get("properties").and_then(Value::as_object) {
                    let mut fields = Vec::with_capacity(props.len());
                    for (key, prop) in props {
                        let sub_path = format!("{path}/properties/{}", crate::pointer::escape(key));
                        let ty = self.ty(prop, &format!("{name}.{key}"), &sub_path, depth + 1)?;
                        fields.push(field(key, ty, prop, &sub_path)?);
                    }
                    crate::sort::sort_by(&mut fields, |a, b| a.name.cmp(&b.name));
                    let index = self.table.push_struct(Struct {
                        name: name.into(),
                        map_type: map_type(map.get("x-kubernetes-map-type"), path)?,
                        opaque: false,
                        fields,
                    });
                    Ty::Struct(index)
                } else {
                    match map.get("additionalProperties") {
                        Some(extra @ Value::Object(_)) => Ty::Map(Box::new(self.ty(
                            extra,
                            name,
                            &format!("{path}/additionalProperties"),
                            depth + 1,
                        )?)),
                        Some(Value::Bool(true)) => Ty::Map(Box::new(Ty::Scalar(Scalar::Any))),
                        _ => Ty::Scalar(Scalar::Any),
                    }
                }
            }
        })
    }
}

fn field(key: &str, ty: Ty, prop: &Value, path: &str) -> Result<Field, CrdError> {
    let list_type = match prop.get("x-kubernetes-list-type").and_then(Value::as_str) {
        None => None,
        Some("atomic") => Some(ListType::Atomic),
        Some("set") => Some(ListType::Set),
        Some("map") => Some(ListType::Map(
            prop.get("x-kubernetes-list-map-keys")
                .and_then(Value::as_array)
                .map(|keys| {
                    keys.iter()
                        .filter_map(Value::as_str)
                        .map(Into::into)
                        .collect()
                })
                .unwrap_or_default(),
        )),
        Some(other) => {
            return Err(error(
                &format!("{path}/x-kubernetes-list-type"),
                format!("unknown list type {other:?}: atomic, set or map"),
            ))
        }
    };
    Ok(Field {
        name: key.into(),
        ty,
        patch_strategy: None,
        merge_key: None,
        list_type,
        map_type: map_type(prop.get("x-kubernetes-map-type"), path)?,
    })
}

fn map_type(value: Option<&Value>, path: &str) -> Result<Option<MapType>, CrdError> {
    match value.and_then(Value::as_str) {
        None => Ok(None),
        Some("atomic") => Ok(Some(MapType::Atomic)),
        Some("granular") => Ok(Some(MapType::Granular)),
        Some(other) => Err(error(
            &format!("{path}/x-kubernetes-map-type"),
            format!("unknown map type {other:?}: atomic or granular"),
        )),
    }
}
