//! What the scanner knows of a Go value: strings built from pieces, opaque
//! expressions with a shape (a whole map, a whole list, one element),
//! patch operations and the sequences a builder collects.

use serde_json::Value;

use super::go::Pos;
use crate::patch::OpKind;
use crate::pointer::Pointer;
use crate::strategy::{FieldKind, Policy};

/// What an expression the scanner cannot see holds, judged by its name
/// (`vmi.Labels` is a whole map, `obj.Finalizers` a whole list,
/// `labels[key]` one element).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A whole map (labels, annotations).
    Map,
    /// A whole list (finalizers, owner references, conditions).
    List,
    /// One element of a map or list.
    Element,
    /// Anything else.
    Unknown,
}

impl Shape {
    /// The shape of a Go expression, from its last selector or call.
    pub fn of_expr(expr: &str) -> Shape {
        let expr = expr.trim();
        let expr = expr.strip_prefix('&').unwrap_or(expr);
        if expr.ends_with(']') {
            return Shape::Element;
        }
        let last = expr
            .trim_end_matches("()")
            .rsplit(['.', '(', ' '])
            .next()
            .unwrap_or("");
        match last {
            "Labels" | "Annotations" | "GetLabels" | "GetAnnotations" | "ActivePods" => Shape::Map,
            "Finalizers" | "GetFinalizers" | "OwnerReferences" | "GetOwnerReferences"
            | "Conditions" | "GetConditions" => Shape::List,
            _ => Shape::Unknown,
        }
    }
}

/// What a whole member at `path` holds, when it is a collection others
/// write too.
pub fn collection_at(path: &str) -> Option<Shape> {
    let pointer = Pointer::parse(path).ok()?;
    match Policy::default().declared_kind(pointer) {
        Some(FieldKind::Map) => return Some(Shape::Map),
        Some(FieldKind::SetList | FieldKind::AtomicList) => return Some(Shape::List),
        _ => {}
    }
    if path == "/metadata/ownerReferences" {
        return Some(Shape::List);
    }
    if path.ends_with("/metadata/labels") || path.ends_with("/metadata/annotations") {
        return Some(Shape::Map);
    }
    None
}

/// How a piece of a string that is not known was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HoleKind {
    /// Escaped as a JSON Pointer token (`EscapeJSONPointer(k)`,
    /// `strings.ReplaceAll(k, "/", "~1")`): never holds `/`.
    Escaped,
    /// A number (`%d`, `strconv.Itoa(i)`).
    Index,
    /// Any text (`%s` of a string, a variable).
    Text,
    /// Go-quoted text (`%q`): a JSON string with its quotes.
    Quoted,
    /// The JSON encoding of a value of this shape (`json.Marshal(x)`).
    Json(Shape),
    /// A Go slice formatted by `fmt` (`%s`, `%v`): `[a b]`, not JSON.
    GoList,
}

/// A part of a string the scanner cannot know: the Go expression and how
/// it is formatted.
#[derive(Clone, Debug, PartialEq)]
pub struct Hole {
    /// The Go expression, as written.
    pub expr: String,
    /// How it is formatted.
    pub kind: HoleKind,
}

/// One piece of a string.
#[derive(Clone, Debug, PartialEq)]
pub enum Piece {
    /// Known text.
    Lit(String),
    /// Unknown text.
    Hole(Hole),
}

/// A Go string as the scanner sees it: known text and holes, in order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Text {
    /// The pieces, adjacent literals merged.
    pub pieces: Vec<Piece>,
}

impl Text {
    /// Known text.
    pub fn lit(s: impl Into<String>) -> Text {
        let mut t = Text::default();
        t.push_str(&s.into());
        t
    }

    /// A single hole.
    pub fn hole(expr: impl Into<String>, kind: HoleKind) -> Text {
        Text {
            pieces: vec![Piece::Hole(Hole {
                expr: expr.into(),
                kind,
            })],
        }
    }

    /// Appends known text.
    pub fn push_str(&mut self, s: &str) {
        if s.is_empty() {
            return;
        }
        if let Some(Piece::Lit(last)) = self.pieces.last_mut() {
            last.push_str(s);
        } else {
            self.pieces.push(Piece::Lit(s.to_owned()));
        }
    }

    /// Appends another text.
    pub fn append(&mut self, other: &Text) {
        for piece in &other.pieces {
            match piece {
                Piece::Lit(s) => self.push_str(s),
                Piece::Hole(h) => self.pieces.push(Piece::Hole(h.clone())),
            }
        }
    }

    /// The whole text, when it has no hole.
    pub fn literal(&self) -> Option<String> {
        let mut out = String::new();
        for piece in &self.pieces {
            match piece {
                Piece::Lit(s) => out.push_str(s),
                Piece::Hole(_) => return None,
            }
        }
        Some(out)
    }

    /// True when some piece is unknown.
    pub fn has_holes(&self) -> bool {
        self.pieces.iter().any(|p| matches!(p, Piece::Hole(_)))
    }

    /// The text with each hole shown as `<expr>`.
    pub fn display(&self) -> String {
        let mut out = String::new();
        for piece in &self.pieces {
            match piece {
                Piece::Lit(s) => out.push_str(s),
                Piece::Hole(h) if h.kind == HoleKind::Escaped => {
                    out.push_str("<escape(");
                    out.push_str(&h.expr);
                    out.push_str(")>");
                }
                Piece::Hole(h) => {
                    out.push('<');
                    out.push_str(&h.expr);
                    out.push('>');
                }
            }
        }
        out
    }
}

/// Which kind of body a patch type names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PatchType {
    /// `types.JSONPatchType`.
    Json,
    /// `types.MergePatchType`.
    Merge,
    /// `types.StrategicMergePatchType`.
    Strategic,
    /// `types.ApplyPatchType` / `client.Apply`.
    Apply,
}

impl PatchType {
    /// `json-patch`, `merge-patch`, `strategic-merge-patch` or `apply`.
    pub fn as_str(self) -> &'static str {
        match self {
            PatchType::Json => "json-patch",
            PatchType::Merge => "merge-patch",
            PatchType::Strategic => "strategic-merge-patch",
            PatchType::Apply => "apply",
        }
    }
}

/// How an op was written in Go.
#[derive(Clone, Debug, PartialEq)]
pub enum Via {
    /// KubeVirt's builder (`patch.WithTest(...)`); `recv` is the PatchSet
    /// it was added to with `AddOption` (`None`: inside `patch.New(...)`).
    Builder {
        /// The receiver of `AddOption`, as written.
        recv: Option<String>,
    },
    /// A struct or map literal (`PatchOperation{...}`,
    /// `map[string]any{"op": ...}`).
    Literal,
    /// Text of a JSON body (`fmt.Sprintf`, a string literal).
    Body,
    /// A helper that expands to several ops (`GeneratePerKeyMapPatches`,
    /// `GenerateTestReplacePatch`).
    Helper,
}

/// One patch operation as the code builds it.
#[derive(Clone, Debug, PartialEq)]
pub struct OpT {
    /// Unique in its file.
    pub id: u32,
    /// The op (`None` when computed at run time).
    pub kind: Option<OpKind>,
    /// The path.
    pub path: Text,
    /// The value (`None` for `remove`).
    pub value: Option<Val>,
    /// The value's Go expression, as written.
    pub value_expr: String,
    /// Where the op is written.
    pub at: Pos,
    /// How.
    pub via: Via,
}

/// A sequence of ops, with the branches they were added in.
#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    /// An op.
    Op(OpT),
    /// Ops added in alternative branches (`if`/`else`, `switch`, a loop
    /// body or nothing): one arm runs.
    Choice(Vec<Vec<Node>>),
    /// Ops the scanner cannot see (a parameter, a call), by expression.
    Opaque(String),
}

/// Every op in `nodes`, all branches, in source order.
pub fn all_ops(nodes: &[Node]) -> Vec<&OpT> {
    let mut out = Vec::new();
    fn walk<'n>(nodes: &'n [Node], out: &mut Vec<&'n OpT>) {
        for node in nodes {
            match node {
                Node::Op(op) => out.push(op),
                Node::Choice(arms) => {
                    for arm in arms {
                        walk(arm, out);
                    }
                }
                Node::Opaque(_) => {}
            }
        }
    }
    walk(nodes, &mut out);
    out
}

/// True when some op of `nodes` is added in a branch.
pub fn has_branches(nodes: &[Node]) -> bool {
    nodes.iter().any(|n| matches!(n, Node::Choice(_)))
}

/// A controller-runtime `client.Patch` value.
#[derive(Clone, Debug, PartialEq)]
pub enum CrPatch {
    /// `client.MergeFrom(base)` (or `MergeFromWithOptions`,
    /// `StrategicMergeFrom`).
    MergeFrom {
        /// The base object.
        base: Val,
        /// The base, as written.
        base_expr: String,
        /// With `MergeFromWithOptimisticLock{}`.
        lock: bool,
        /// `StrategicMergeFrom`.
        strategic: bool,
        /// A patch helper (cluster-api's `NewHelper`, Flux's
        /// `NewSerialPatcher`).
        helper: bool,
        /// Where it is written.
        at: Pos,
    },
    /// `client.RawPatch(type, data)`.
    Raw {
        /// The patch type.
        ty: PatchType,
        /// The data.
        data: Val,
    },
    /// `client.Apply` or `client.Merge`.
    Whole(PatchType),
}

/// A Go value as far as the scanner knows it.
#[derive(Clone, Debug, PartialEq)]
pub enum Val {
    /// Nothing known (the Go expression, as written).
    Unknown(String),
    /// `nil`.
    Nil,
    /// A number or boolean.
    Const(Value),
    /// A string.
    Str(Text),
    /// An expression the scanner cannot see into, with its shape.
    Opaque {
        /// The Go expression.
        expr: String,
        /// What it holds.
        shape: Shape,
    },
    /// A patch operation.
    Op(Box<OpT>),
    /// A sequence of operations (a `PatchSet`, `[]PatchOption`, a slice of
    /// op structs or maps).
    Ops(Vec<Node>),
    /// The JSON encoding of a value (`json.Marshal(x)`,
    /// `GeneratePayload()`).
    Marshal(Box<Val>),
    /// A map or struct literal with string keys.
    Object(Vec<(String, Val)>),
    /// A slice literal.
    List(Vec<Val>),
    /// A patch type (`types.JSONPatchType`).
    PatchType(PatchType),
    /// A copy of an object (`obj.DeepCopy()`), for `MergeFrom`.
    Snapshot {
        /// The object copied, as written.
        of: String,
        /// How many changes the function had made when it was taken.
        seq: usize,
    },
    /// A controller-runtime patch.
    CrPatch(Box<CrPatch>),
    /// `strings.NewReplacer("/", "~1", ...)`: escapes pointer tokens.
    Escaper,
    /// A function literal (its bytes in the file), walked where it is
    /// called or passed.
    Closure {
        /// The file's id.
        file: u32,
        /// First byte.
        start: usize,
        /// Past the last byte.
        end: usize,
    },
}

impl Val {
    /// An expression the scanner cannot see into, holding `shape`.
    pub fn opaque(shape: Shape, expr: impl Into<String>) -> Val {
        let expr = expr.into();
        Val::Opaque { expr, shape }
    }

    /// The string, when this is one.
    pub fn text(&self) -> Option<&Text> {
        match self {
            Val::Str(t) => Some(t),
            _ => None,
        }
    }

    /// The string, when this is one with no hole.
    pub fn literal(&self) -> Option<String> {
        self.text().and_then(Text::literal)
    }

    /// The value as JSON when it is fully known.
    pub fn known_json(&self) -> Option<Value> {
        match self {
            Val::Nil => Some(Value::Null),
            Val::Const(v) => Some(v.clone()),
            Val::Str(t) => t.literal().map(Value::String),
            Val::Object(members) => {
                let mut map = serde_json::Map::new();
                for (k, v) in members {
                    if k.starts_with('<') && k.ends_with('>') {
                        return None;
                    }
                    map.insert(k.clone(), v.known_json()?);
                }
                Some(Value::Object(map))
            }
            Val::List(items) => items
                .iter()
                .map(Val::known_json)
                .collect::<Option<Vec<_>>>()
                .map(Value::Array),
            _ => None,
        }
    }

    /// The shape of what this value holds.
    pub fn shape(&self) -> Shape {
        match self {
            Val::Opaque { shape, .. } => *shape,
            Val::Object(_) => Shape::Map,
            Val::List(_) => Shape::List,
            Val::Unknown(expr) => Shape::of_expr(expr),
            _ => Shape::Unknown,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_come_from_names() {
        assert_eq!(Shape::of_expr("vmi.Labels"), Shape::Map);
        assert_eq!(Shape::of_expr("node.GetAnnotations()"), Shape::Map);
        assert_eq!(Shape::of_expr("&obj.ObjectMeta.Finalizers"), Shape::List);
        assert_eq!(Shape::of_expr("vmi.Status.Conditions"), Shape::List);
        assert_eq!(Shape::of_expr("vmi.Labels[key]"), Shape::Element);
        assert_eq!(Shape::of_expr("newLabels"), Shape::Unknown);
    }

    #[test]
    fn texts_merge_literals_and_show_holes() {
        let mut t = Text::lit("/metadata/labels/");
        t.append(&Text::hole("key", HoleKind::Text));
        t.push_str("");
        assert_eq!(t.display(), "/metadata/labels/<key>");
        assert!(t.literal().is_none());
        let mut u = Text::lit("/a");
        u.push_str("/b");
        assert_eq!(u.pieces.len(), 1);
        assert_eq!(u.literal().as_deref(), Some("/a/b"));
    }
}
