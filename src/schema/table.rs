//! The schema table: kinds, struct types and their fields, read from the
//! compact text `scripts/schemas.py` writes (format below), or built from
//! a CustomResourceDefinition ([`super::crd`]).
//!
//! The format, one item per line (blank lines and `#` comments skipped):
//!
//! ```text
//! @custom                          the kinds after it are custom resources
//! >Kind apiVersion plural singular short,names|- RootType [flags]
//! !apiVersion Kind Kind ...        built-in kinds kubectl knows that the table does not serve
//! =Type [m=atomic|granular|*]      a struct; its fields follow, one a line:
//! name type [p=strategies] [k=mergeKey] [l=atomic|set|map:key,key] [m=atomic|granular]
//! %1.X                             the rest: changes per older release (see [`super::release`])
//! ```
//!
//! Types: `s` string, `by` bytes (`[]byte`), `b` bool, `i32`, `i64`, `n` number, `ios`
//! IntOrString, `q` Quantity, `t` Time, `mt` MicroTime, `x` any JSON,
//! `[T]` a list of T, `{T}` a map of T, or a struct's name (defined in the
//! same text or in one read before it). `m=*` marks a Go struct whose JSON
//! is any value (`RawExtension`): it has no fields to look up. Kind flags:
//! `c` no route for one object (create-only), `r` its route takes no PATCH,
//! `l` not in kubectl's scheme.

use crate::kube::KubeVersion;
use crate::limits::SCHEMA_TABLE_LINES as MAX_TABLE_LINES;
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

/// A JSON scalar type, with the Go type behind it where that matters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scalar {
    /// `string`.
    String,
    /// `[]byte` (base64 text in JSON; a slice to Go's lookups).
    Bytes,
    /// `uint8`: an element of a `[]byte` (no JSON of its own).
    Byte,
    /// `bool`.
    Bool,
    /// `int32`.
    Int32,
    /// `int64`.
    Int64,
    /// `float64`.
    Number,
    /// `intstr.IntOrString` (a struct in Go).
    IntOrString,
    /// `resource.Quantity` (a struct in Go).
    Quantity,
    /// `metav1.Time` (a struct in Go).
    Time,
    /// `metav1.MicroTime` (a struct in Go).
    MicroTime,
    /// Any JSON value (no schema).
    Any,
}

impl Scalar {
    fn parse(code: &str) -> Option<Scalar> {
        Some(match code {
            "s" => Scalar::String,
            "by" => Scalar::Bytes,
            "b" => Scalar::Bool,
            "i32" => Scalar::Int32,
            "i64" => Scalar::Int64,
            "n" => Scalar::Number,
            "ios" => Scalar::IntOrString,
            "q" => Scalar::Quantity,
            "t" => Scalar::Time,
            "mt" => Scalar::MicroTime,
            "x" => Scalar::Any,
            _ => return None,
        })
    }

    /// The table's code for the type (`s`, `i32`, ...).
    pub fn code(self) -> &'static str {
        match self {
            Scalar::String => "s",
            Scalar::Bytes => "by",
            Scalar::Byte => "u8",
            Scalar::Bool => "b",
            Scalar::Int32 => "i32",
            Scalar::Int64 => "i64",
            Scalar::Number => "n",
            Scalar::IntOrString => "ios",
            Scalar::Quantity => "q",
            Scalar::Time => "t",
            Scalar::MicroTime => "mt",
            Scalar::Any => "x",
        }
    }

    /// The Go struct behind a scalar JSON form (`IntOrString`, ...), if any.
    pub fn go_struct(self) -> Option<&'static str> {
        match self {
            Scalar::IntOrString => Some("IntOrString"),
            Scalar::Quantity => Some("Quantity"),
            Scalar::Time => Some("Time"),
            Scalar::MicroTime => Some("MicroTime"),
            _ => None,
        }
    }

    /// `reflect.Kind` of the Go type, as `String()` prints it.
    pub fn go_kind(self) -> &'static str {
        match self {
            Scalar::String => "string",
            Scalar::Bytes => "slice",
            Scalar::Byte => "uint8",
            Scalar::Bool => "bool",
            Scalar::Int32 => "int32",
            Scalar::Int64 => "int64",
            Scalar::Number => "float64",
            Scalar::IntOrString | Scalar::Quantity | Scalar::Time | Scalar::MicroTime => "struct",
            Scalar::Any => "interface",
        }
    }
}

/// A field's type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ty {
    /// A scalar.
    Scalar(Scalar),
    /// A struct of the table, by index.
    Struct(u32),
    /// A list (`type: array`).
    List(Box<Ty>),
    /// A map (`additionalProperties`).
    Map(Box<Ty>),
}

/// `x-kubernetes-list-type`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ListType {
    /// `atomic`: the list is one value.
    Atomic,
    /// `set`: scalars, each element owned on its own.
    Set,
    /// `map`, keyed by these fields (`x-kubernetes-list-map-keys`).
    Map(Vec<Box<str>>),
}

/// `x-kubernetes-map-type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapType {
    /// `atomic`: the map (or struct) is one value.
    Atomic,
    /// `granular`: each key on its own.
    Granular,
}

/// One field of a struct.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// The JSON name.
    pub name: Box<str>,
    /// Its type.
    pub ty: Ty,
    /// `x-kubernetes-patch-strategy` as written (`merge`,
    /// `merge,retainKeys`, `retainKeys`, `replace`); `None` when absent.
    pub patch_strategy: Option<Box<str>>,
    /// `x-kubernetes-patch-merge-key`.
    pub merge_key: Option<Box<str>>,
    /// `x-kubernetes-list-type`.
    pub list_type: Option<ListType>,
    /// `x-kubernetes-map-type`.
    pub map_type: Option<MapType>,
}

/// A struct type: its name in the table and fields (sorted by name).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Struct {
    /// The type's name in the table: the Go type's name (`PodSpec`),
    /// qualified by its package where two packages define one name
    /// (`v2.HorizontalPodAutoscalerSpec`).
    pub name: Box<str>,
    /// `x-kubernetes-map-type` of the type itself.
    pub map_type: Option<MapType>,
    /// A Go struct whose JSON is any value (`RawExtension`, `FieldsV1`):
    /// it takes any member, and Go finds no field in it.
    pub opaque: bool,
    /// The fields, sorted by name.
    pub fields: Vec<Field>,
}

impl Struct {
    /// The Go type's name, as Go's errors print it (`reflect.Type.Name()`):
    /// the table name without the package that qualifies it (a lowercase
    /// prefix: `v2.MetricSpec`); a CustomResourceDefinition's type names
    /// (`Widget.v1.spec`) are kept whole.
    pub fn go_name(&self) -> &str {
        match self.name.rsplit_once('.') {
            Some((_, name)) if self.name.starts_with(|c: char| c.is_ascii_lowercase()) => name,
            _ => &self.name,
        }
    }

    /// Adds a field, or replaces the one of its name, keeping the order.
    pub(crate) fn put(&mut self, field: Field) {
        match self.fields.binary_search_by(|f| f.name.cmp(&field.name)) {
            Ok(i) => self.fields[i] = field,
            Err(i) => self.fields.insert(i, field),
        }
    }

    /// Removes the field of this name; whether there was one.
    pub(crate) fn remove(&mut self, name: &str) -> bool {
        match self.fields.binary_search_by(|f| (*f.name).cmp(name)) {
            Ok(i) => {
                self.fields.remove(i);
                true
            }
            Err(_) => false,
        }
    }

    /// The field of this JSON name, exactly.
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields
            .binary_search_by(|f| (*f.name).cmp(name))
            .ok()
            .map(|i| &self.fields[i])
    }
}

/// One kind of the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KindInfo {
    /// `Pod`.
    pub kind: Box<str>,
    /// `v1`, `apps/v1`.
    pub api_version: Box<str>,
    /// `pods`.
    pub plural: Box<str>,
    /// `pod`.
    pub singular: Box<str>,
    /// `po`.
    pub short_names: Vec<Box<str>>,
    /// The type of the whole object.
    pub root: Ty,
    /// A custom resource (served by a CRD: no strategic merge patch).
    pub custom: bool,
    /// How kube-apiserver routes a PATCH of one object of the kind.
    pub route: Route,
    /// In kubectl's scheme: `kubectl patch --local` has its Go type.
    pub local: bool,
}

/// How kube-apiserver routes a PATCH of one object of a kind
/// (`registerResourceHandlers`, k8s.io/apiserver
/// `pkg/endpoints/installer.go`: a route per verb the storage implements).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Route {
    /// The object's route takes PATCH.
    #[default]
    Patch,
    /// No route for one object: a create-only resource (reviews,
    /// bindings); go-restful answers 404.
    NoObject,
    /// The object's route takes no PATCH (`componentstatuses`, the
    /// create-only subresources `pods/eviction` and
    /// `serviceaccounts/token`); go-restful answers 405.
    NoPatch,
}

/// Kinds and their types: the compiled-in tables, or one read at run time
/// (a table text, a CustomResourceDefinition).
///
/// The types are shared between the tables of releases built from one
/// another ([`super::for_release`]): a release's table holds its own copy
/// of a type only where that release changed it.
#[derive(Clone, Debug, Default)]
pub struct Table {
    pub(crate) kinds: Vec<KindInfo>,
    pub(crate) structs: Vec<Arc<Struct>>,
    pub(crate) by_name: HashMap<Box<str>, u32>,
    /// Built-in kinds kubectl knows that this table does not serve:
    /// (apiVersion, kind).
    pub(crate) builtin: Vec<(Box<str>, Box<str>)>,
    /// The `#` header lines of each text read (sources and versions).
    pub(crate) sources: Vec<String>,
    /// The Kubernetes release whose kinds these are, for the compiled-in
    /// tables.
    pub(crate) release: Option<KubeVersion>,
}

/// A table text that cannot be read: the line and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableError {
    /// 1-based line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "schema table line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for TableError {}

impl Table {
    /// Reads a table text (see the module docs).
    ///
    /// # Errors
    ///
    /// [`TableError`] with the line of the first problem.
    pub fn parse(text: &str) -> Result<Table, TableError> {
        let mut table = Table::default();
        table.extend(text)?;
        Ok(table)
    }

    /// Reads one more table text into this one; its types may refer to
    /// types read before (a type it defines itself shadows an earlier one
    /// of the same name). On error the table is unchanged.
    ///
    /// # Errors
    ///
    /// [`TableError`] with the line of the first problem.
    pub fn extend(&mut self, text: &str) -> Result<(), TableError> {
        let mut next = self.clone();
        next.read(text)?;
        *self = next;
        Ok(())
    }

    fn read(&mut self, text: &str) -> Result<(), TableError> {
        // The table proper ends where the changes per release begin.
        let lines: Vec<&str> = text
            .lines()
            .take_while(|line| !line.starts_with('%'))
            .collect();
        if lines.len() > MAX_TABLE_LINES {
            return Err(TableError {
                line: MAX_TABLE_LINES + 1,
                message: format!("more than {MAX_TABLE_LINES} lines"),
            });
        }
        // Pass 1: the struct names, so that fields may name any of them.
        let first = self.structs.len();
        self.declare_structs(&lines)?;
        // Pass 2: everything else.
        let mut custom = false;
        let mut current: Option<usize> = None;
        let mut next_struct = first;
        let mut header = Vec::new();
        let mut content = false;
        for (i, raw) in lines.iter().enumerate() {
            let line = raw.trim_end();
            if line.is_empty() {
                continue;
            }
            if let Some(comment) = line.strip_prefix('#') {
                if !content {
                    header.push(comment.trim().to_owned());
                }
                continue;
            }
            content = true;
            match line.as_bytes()[0] {
                b'@' => {
                    if line != "@custom" {
                        return Err(err(i, format!("unknown directive {line:?}")));
                    }
                    custom = true;
                }
                b'>' => {
                    current = None;
                    self.kind_line(&line[1..], i, custom)?;
                }
                b'!' => {
                    current = None;
                    self.unserved_line(&line[1..], true);
                }
                b'=' => {
                    current = Some(next_struct);
                    next_struct += 1;
                }
                _ => {
                    let Some(index) = current else {
                        return Err(err(i, "a field outside a type"));
                    };
                    let field = self.field(line, i)?;
                    Arc::make_mut(&mut self.structs[index]).fields.push(field);
                }
            }
        }
        self.check_sorted(first)?;
        self.sources.extend(header);
        Ok(())
    }

    /// Declares the types a text defines (its `=` lines), so that fields
    /// may name any of them; a name defined here shadows one of an earlier
    /// text.
    fn declare_structs(&mut self, lines: &[&str]) -> Result<(), TableError> {
        let mut defined = std::collections::HashSet::new();
        for (i, line) in lines.iter().enumerate() {
            if let Some(rest) = line.strip_prefix('=') {
                let mut parts = rest.split_ascii_whitespace();
                let name = parts.next().unwrap_or_default();
                if name.is_empty() {
                    return Err(err(i, "a type without a name"));
                }
                if !defined.insert(name) {
                    return Err(err(i, format!("type {name} is defined twice")));
                }
                let (map_type, opaque) = type_attributes(parts.next(), i)?;
                self.by_name.insert(name.into(), self.structs.len() as u32);
                self.structs.push(Arc::new(Struct {
                    name: name.into(),
                    map_type,
                    opaque,
                    fields: Vec::new(),
                }));
            }
        }
        Ok(())
    }

    /// Reads a `!` line (after its `!`): an apiVersion and kinds, added
    /// to the built-in kinds the table does not serve, or removed.
    pub(crate) fn unserved_line(&mut self, line: &str, add: bool) {
        let mut parts = line.split_ascii_whitespace();
        let api_version = parts.next().unwrap_or_default();
        for kind in parts {
            if add {
                self.builtin.push((api_version.into(), kind.into()));
            } else {
                self.builtin
                    .retain(|(a, k)| !(**a == *api_version && **k == *kind));
            }
        }
    }

    /// Reads a kind line (after its `>`): kind, apiVersion, plural,
    /// singular, short names (`-`: none), root type and flags.
    pub(crate) fn kind_line(
        &mut self,
        line: &str,
        i: usize,
        custom: bool,
    ) -> Result<(), TableError> {
        let parts: Vec<&str> = line.split_ascii_whitespace().collect();
        let Some(&[kind, api_version, plural, singular, shorts, root]) = parts.get(..6) else {
            return Err(err(i, "a kind line needs 6 parts"));
        };
        let flags = parts.get(6).copied().unwrap_or_default();
        if parts.len() > 7 || flags.bytes().any(|b| !b"crl".contains(&b)) {
            return Err(err(i, format!("unknown kind flags {flags:?}")));
        }
        let short_names = if shorts == "-" {
            Vec::new()
        } else {
            shorts.split(',').map(Into::into).collect()
        };
        let root = self.ty(root, i)?;
        self.kinds.push(KindInfo {
            kind: kind.into(),
            api_version: api_version.into(),
            plural: plural.into(),
            singular: singular.into(),
            short_names,
            root,
            custom,
            route: if flags.contains('c') {
                Route::NoObject
            } else if flags.contains('r') {
                Route::NoPatch
            } else {
                Route::Patch
            },
            local: !custom && !flags.contains('l'),
        });
        Ok(())
    }

    /// Checks that the fields of the types from `first` on come sorted
    /// (the generator sorts them): lookups are binary searches, and no
    /// sort is compiled in.
    fn check_sorted(&self, first: usize) -> Result<(), TableError> {
        for s in &self.structs[first..] {
            if let Some(w) = s.fields.windows(2).find(|w| w[0].name >= w[1].name) {
                return Err(TableError {
                    line: 0,
                    message: format!(
                        "type {}: field {} is not before {} (fields must be sorted, each once)",
                        s.name, w[0].name, w[1].name
                    ),
                });
            }
        }
        Ok(())
    }

    pub(crate) fn field(&self, line: &str, i: usize) -> Result<Field, TableError> {
        let mut parts = line.split_ascii_whitespace();
        let (Some(name), Some(ty)) = (parts.next(), parts.next()) else {
            return Err(err(i, "a field needs a name and a type"));
        };
        let mut field = Field {
            name: name.into(),
            ty: self.ty(ty, i)?,
            patch_strategy: None,
            merge_key: None,
            list_type: None,
            map_type: None,
        };
        for attr in parts {
            let (key, value) = attr
                .split_once('=')
                .ok_or_else(|| err(i, format!("attribute {attr:?} has no '='")))?;
            match key {
                "p" => field.patch_strategy = Some(value.into()),
                "k" => field.merge_key = Some(value.into()),
                "l" => {
                    field.list_type = Some(match value {
                        "atomic" => ListType::Atomic,
                        "set" => ListType::Set,
                        _ => match value.strip_prefix("map:") {
                            Some(keys) => ListType::Map(
                                keys.split(',')
                                    .filter(|k| !k.is_empty())
                                    .map(Into::into)
                                    .collect(),
                            ),
                            None => return Err(err(i, format!("unknown list type {value:?}"))),
                        },
                    })
                }
                "m" => field.map_type = Some(map_type(value, i)?),
                _ => return Err(err(i, format!("unknown attribute {key:?}"))),
            }
        }
        Ok(field)
    }

    fn ty(&self, text: &str, i: usize) -> Result<Ty, TableError> {
        if let Some(inner) = text.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
            return Ok(Ty::List(Box::new(self.ty(inner, i)?)));
        }
        if let Some(inner) = text.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
            return Ok(Ty::Map(Box::new(self.ty(inner, i)?)));
        }
        if let Some(scalar) = Scalar::parse(text) {
            return Ok(Ty::Scalar(scalar));
        }
        self.by_name
            .get(text)
            .map(|&index| Ty::Struct(index))
            .ok_or_else(|| err(i, format!("unknown type {text:?}")))
    }

    /// Adds a struct type (for tables built in code); returns its index.
    pub(crate) fn push_struct(&mut self, s: Struct) -> u32 {
        let index = self.structs.len() as u32;
        self.by_name.insert(s.name.clone(), index);
        self.structs.push(Arc::new(s));
        index
    }

    /// The struct at an index of a [`Ty::Struct`].
    pub fn struct_at(&self, index: u32) -> Option<&Struct> {
        self.structs.get(index as usize).map(|s| &**s)
    }

    /// The Kubernetes release whose built-in kinds these are (the
    /// compiled-in tables, [`super::for_release`]).
    pub fn release(&self) -> Option<KubeVersion> {
        self.release
    }

    /// The struct of this name.
    pub fn struct_named(&self, name: &str) -> Option<&Struct> {
        self.by_name.get(name).and_then(|&i| self.struct_at(i))
    }

    /// The kinds tabled.
    pub fn kinds(&self) -> &[KindInfo] {
        &self.kinds
    }

    /// The header lines of the texts read: where the data comes from.
    pub fn sources(&self) -> &[String] {
        &self.sources
    }

    /// Whether this built-in kind is listed without a schema.
    pub fn lists_builtin(&self, api_version: &str, kind: &str) -> bool {
        self.builtin
            .iter()
            .any(|(a, k)| **a == *api_version && **k == *kind)
    }
}

/// The attribute of a `=Type` line: `m=atomic`, `m=granular` or `m=*`
/// (opaque).
pub(crate) fn type_attributes(
    attr: Option<&str>,
    i: usize,
) -> Result<(Option<MapType>, bool), TableError> {
    match attr.map(|a| a.strip_prefix("m=").unwrap_or(a)) {
        None => Ok((None, false)),
        Some("*") => Ok((None, true)),
        Some(value) => Ok((Some(map_type(value, i)?), false)),
    }
}

fn map_type(value: &str, i: usize) -> Result<MapType, TableError> {
    match value {
        "atomic" => Ok(MapType::Atomic),
        "granular" => Ok(MapType::Granular),
        _ => Err(err(i, format!("unknown map type {value:?}"))),
    }
}

pub(crate) fn err(i: usize, message: impl Into<String>) -> TableError {
    TableError {
        line: i + 1,
        message: message.into(),
    }
}
