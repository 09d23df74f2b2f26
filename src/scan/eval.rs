//! The interpreter: walks each function's statements in order and follows
//! what flows into patches: builder calls, op literals, JSON text, patch
//! types, `MergeFrom` bases and the changes made after them.
//!
//! It is deliberately simple: one pass over each function, every branch
//! taken (the ops added in `if`/`else` arms and loop bodies are kept as
//! alternatives, see [`Node::Choice`]), no calls followed into other
//! functions, constants resolved within the package.

use std::collections::{HashMap, HashSet};

use tree_sitter::Node as TsNode;

use super::body::{self, Body};
use super::go::{children, field, field_list, string_literal, GoFile, Pos};
use super::value::{all_ops, CrPatch, HoleKind, Node, OpT, PatchType, Shape, Text, Val, Via};
use crate::patch::OpKind;
use crate::pointer::escape;

/// Most statements and expressions evaluated in one function.
const MAX_STEPS: usize = 200_000;
/// Deepest nesting of statements and expressions followed.
const MAX_DEPTH: usize = 200;
/// Most ops one value may hold (a bigger one stops growing).
const MAX_OPS: usize = 10_000;

/// Which well-known Go package an import names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pkg {
    /// KubeVirt's `pkg/apimachinery/patch`.
    KvPatch,
    /// `k8s.io/apimachinery/pkg/types`.
    Types,
    /// controller-runtime's `pkg/client`.
    CrClient,
    /// `k8s.io/client-go/util/retry`.
    Retry,
    Fmt,
    Strings,
    Strconv,
    Json,
    /// controller-runtime's `controllerutil`.
    Controllerutil,
    /// `k8s.io/apimachinery/pkg/api/meta`.
    Meta,
    /// cluster-api's `util/conditions`.
    Conditions,
    /// `gomodules.xyz/jsonpatch` (`NewOperation`).
    JsonPatchLib,
    Maps,
    Other,
}

fn classify(path: &str) -> Pkg {
    let trimmed = path.trim_end_matches(|c: char| c == '/' || c.is_ascii_digit() || c == 'v');
    match path {
        "fmt" => Pkg::Fmt,
        "strings" => Pkg::Strings,
        "strconv" => Pkg::Strconv,
        "maps" => Pkg::Maps,
        "encoding/json" | "k8s.io/apimachinery/pkg/util/json" | "sigs.k8s.io/json" => Pkg::Json,
        "k8s.io/apimachinery/pkg/types" => Pkg::Types,
        "sigs.k8s.io/controller-runtime/pkg/client" => Pkg::CrClient,
        "k8s.io/client-go/util/retry" => Pkg::Retry,
        "sigs.k8s.io/controller-runtime/pkg/controller/controllerutil" => Pkg::Controllerutil,
        "k8s.io/apimachinery/pkg/api/meta" => Pkg::Meta,
        _ if path.ends_with("/apimachinery/patch") => Pkg::KvPatch,
        _ if path.ends_with("/util/conditions") || path.contains("/util/conditions/") => {
            Pkg::Conditions
        }
        _ if trimmed.ends_with("jsonpatch") => Pkg::JsonPatchLib,
        _ if path.ends_with("/json") => Pkg::Json,
        _ => Pkg::Other,
    }
}

/// The name a package is known by when imported without one.
fn default_alias(path: &str) -> &str {
    let mut parts = path.rsplit('/');
    let last = parts.next().unwrap_or(path);
    let is_version =
        last.len() >= 2 && last.starts_with('v') && last[1..].bytes().all(|b| b.is_ascii_digit());
    if is_version {
        parts.next().unwrap_or(last)
    } else {
        last
    }
}

/// The imports of a file: alias to package.
fn imports(file: &GoFile) -> HashMap<String, Pkg> {
    let mut out = HashMap::new();
    for decl in children(file.tree.root_node()) {
        if decl.kind() != "import_declaration" {
            continue;
        }
        let mut specs = Vec::new();
        for child in children(decl) {
            match child.kind() {
                "import_spec" => specs.push(child),
                "import_spec_list" => specs.extend(
                    children(child)
                        .into_iter()
                        .filter(|s| s.kind() == "import_spec"),
                ),
                _ => {}
            }
        }
        for spec in specs {
            let Some(path) = field(spec, "path").and_then(|p| string_literal(file, p)) else {
                continue;
            };
            let alias = match field(spec, "name") {
                Some(name)
                    if name.kind() == "package_identifier" || name.kind() == "identifier" =>
                {
                    file.text_of(name).to_owned()
                }
                Some(_) => continue,
                None => default_alias(&path).to_owned(),
            };
            out.insert(alias, classify(&path));
        }
    }
    out
}

/// The package a name means when the file does not import it (snippets,
/// files whose imports failed to parse).
fn guess(alias: &str) -> Pkg {
    match alias {
        "patch" => Pkg::KvPatch,
        "types" | "k8stypes" | "apitypes" => Pkg::Types,
        "client" | "ctrlclient" | "crclient" => Pkg::CrClient,
        "retry" => Pkg::Retry,
        "fmt" => Pkg::Fmt,
        "strings" => Pkg::Strings,
        "strconv" => Pkg::Strconv,
        "json" => Pkg::Json,
        "controllerutil" => Pkg::Controllerutil,
        "meta" | "apimeta" => Pkg::Meta,
        "conditions" => Pkg::Conditions,
        "jsonpatch" => Pkg::JsonPatchLib,
        "maps" => Pkg::Maps,
        _ => Pkg::Other,
    }
}

/// Package-level constants and variables: what the package's files
/// declare outside functions, by name.
#[derive(Debug, Default)]
pub struct Package {
    /// Values by name.
    pub values: HashMap<String, Val>,
}

/// A collection of an object that other writers also fill.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Coll {
    /// `metadata.finalizers`.
    Finalizers,
    /// `status.conditions`.
    Conditions,
    /// `metadata.ownerReferences`.
    OwnerReferences,
    /// `metadata.labels`.
    Labels,
    /// `metadata.annotations`.
    Annotations,
}

impl Coll {
    /// The member's JSON path.
    pub fn path(self) -> &'static str {
        match self {
            Coll::Finalizers => "/metadata/finalizers",
            Coll::Conditions => "/status/conditions",
            Coll::OwnerReferences => "/metadata/ownerReferences",
            Coll::Labels => "/metadata/labels",
            Coll::Annotations => "/metadata/annotations",
        }
    }

    /// True for lists (a merge patch replaces them whole).
    pub fn is_list(self) -> bool {
        matches!(
            self,
            Coll::Finalizers | Coll::Conditions | Coll::OwnerReferences
        )
    }

    fn of_field(name: &str) -> Option<Coll> {
        Some(match name {
            "Finalizers" | "SetFinalizers" => Coll::Finalizers,
            "Conditions" | "SetConditions" => Coll::Conditions,
            "OwnerReferences" | "SetOwnerReferences" => Coll::OwnerReferences,
            "Labels" | "SetLabels" => Coll::Labels,
            "Annotations" | "SetAnnotations" => Coll::Annotations,
            _ => return None,
        })
    }
}

/// A change the function makes to an object's collection.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    /// The object changed (its root expression).
    pub object: String,
    /// Which collection.
    pub coll: Coll,
    /// Where.
    pub at: Pos,
    /// The call or assignment, as written (cut short).
    pub code: String,
}

/// How a payload leaves the function.
#[derive(Clone, Debug, PartialEq)]
pub enum How {
    /// Turned into bytes here (`GeneratePayload`, `json.Marshal`).
    Generated,
    /// Sent here (`Patch(...)`).
    Sent(PatchType),
    /// Returned to the caller.
    Returned,
    /// Passed to a function the scanner does not follow.
    Passed(String),
    /// Built and left (the caller must send it).
    Unsent,
    /// Returned by an admission webhook: applied to the object being
    /// admitted, so no concurrent writer can come between.
    Admission,
}

/// What an emitted payload is.
#[derive(Clone, Debug, PartialEq)]
pub enum EmitKind {
    /// A JSON patch: its ops, with their branches.
    JsonPatch(Vec<Node>),
    /// A merge, strategic merge or apply body.
    Body {
        /// The patch type it is sent with.
        ty: PatchType,
        /// The body.
        body: Val,
    },
    /// A controller-runtime `MergeFrom` patch.
    MergeFrom {
        /// The object patched, as written.
        object: String,
        /// The base given to `MergeFrom`, as written.
        base: String,
        /// `MergeFromWithOptimisticLock{}` given.
        lock: bool,
        /// `StrategicMergeFrom`.
        strategic: bool,
        /// The changes made to the object after its base was taken.
        changes: Vec<Change>,
    },
}

/// A payload the function builds or sends.
#[derive(Clone, Debug, PartialEq)]
pub struct Emit {
    /// What.
    pub kind: EmitKind,
    /// Where it is generated or sent.
    pub at: Pos,
    /// The function, as Go prints it (`(*Controller).patchVMI`).
    pub function: String,
    /// How it leaves.
    pub how: How,
    /// Inside `retry.RetryOnConflict` (where that call is).
    pub retry: Option<Pos>,
}

type Env = HashMap<String, Val>;

/// A file being scanned.
pub struct Unit<'f, 'a> {
    file: &'f GoFile<'a>,
    imports: HashMap<String, Pkg>,
    package: &'f Package,
    next_id: std::cell::Cell<u32>,
}

impl<'f, 'a> Unit<'f, 'a> {
    /// Prepares `file` of `package`.
    pub fn new(file: &'f GoFile<'a>, package: &'f Package) -> Unit<'f, 'a> {
        Unit {
            file,
            imports: imports(file),
            package,
            next_id: std::cell::Cell::new(1),
        }
    }

    fn id(&self) -> u32 {
        let id = self.next_id.get();
        self.next_id.set(id.wrapping_add(1));
        id
    }

    /// Adds this file's package-level constants and variables to `values`.
    pub fn declare(&self, values: &mut HashMap<String, Val>) {
        let empty = Package::default();
        let unit = Unit {
            file: self.file,
            imports: self.imports.clone(),
            package: &empty,
            next_id: std::cell::Cell::new(1_000_000),
        };
        let mut func = Func::new(&unit, "(package)".to_owned());
        func.env = values.clone();
        func.closures = false;
        for decl in children(self.file.tree.root_node()) {
            if !matches!(decl.kind(), "const_declaration" | "var_declaration") {
                continue;
            }
            func.stmt(decl);
            // Only the names the declaration declares (not what its
            // initializers assign on the way).
            for name in declared_names(self.file, decl) {
                if let Some(val) = func.env.get(&name) {
                    if !matches!(val, Val::Unknown(_)) {
                        values.insert(name, val.clone());
                    }
                }
            }
        }
    }

    /// Every payload the file's functions build or send.
    pub fn emits(&self) -> Vec<Emit> {
        let mut out = Vec::new();
        for decl in children(self.file.tree.root_node()) {
            let name = match decl.kind() {
                "function_declaration" => field(decl, "name")
                    .map(|n| self.file.text_of(n).to_owned())
                    .unwrap_or_default(),
                "method_declaration" => {
                    let method = field(decl, "name")
                        .map(|n| self.file.text_of(n))
                        .unwrap_or("");
                    let receiver = field(decl, "receiver")
                        .and_then(|r| children(r).into_iter().next())
                        .and_then(|p| field(p, "type"))
                        .map(|t| self.file.text_of(t))
                        .unwrap_or("");
                    let receiver = receiver.split('[').next().unwrap_or(receiver);
                    if let Some(base) = receiver.strip_prefix('*') {
                        format!("(*{base}).{method}")
                    } else {
                        format!("{receiver}.{method}")
                    }
                }
                "var_declaration" => {
                    // Package-level variables holding patches: judged where
                    // they are sent; nothing to walk here.
                    continue;
                }
                _ => continue,
            };
            let Some(body) = field(decl, "body") else {
                continue;
            };
            let mut func = Func::new(self, name);
            func.block(body);
            func.finish();
            out.extend(func.emits);
        }
        out
    }
}

/// The names a top-level `var` or `const` declaration declares.
fn declared_names(file: &GoFile, decl: TsNode) -> Vec<String> {
    let mut specs = Vec::new();
    for child in children(decl) {
        match child.kind() {
            "var_spec" | "const_spec" => specs.push(child),
            "var_spec_list" => specs.extend(children(child)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for spec in specs {
        let mut cursor = spec.walk();
        for name in spec.children_by_field_name("name", &mut cursor) {
            let name = file.text_of(name);
            if name != "_" {
                out.push(name.to_owned());
            }
        }
    }
    out
}

/// One function being walked.
struct Func<'u, 'f, 'a> {
    unit: &'u Unit<'f, 'a>,
    name: String,
    env: Env,
    emits: Vec<Emit>,
    emitted: HashSet<u32>,
    retry: Vec<Pos>,
    changes: Vec<Change>,
    terminated: bool,
    steps: usize,
    depth: usize,
    /// Walk function literals where they are written (off for package
    /// declarations: `var _ = Describe(..., func() {...})` is test code).
    closures: bool,
}

/// The object an expression belongs to: `&obj.Status.Conditions` is
/// `obj`, `kvCopy.ObjectMeta.Finalizers` is `kvCopy`.
fn root(expr: &str) -> String {
    let mut e = expr.trim();
    while let Some(rest) = e.strip_prefix(['&', '*']) {
        e = rest.trim();
    }
    let e = e.trim_start_matches('(').trim_end_matches(')');
    let mut parts: Vec<&str> = e.split('.').collect();
    const FIELDS: [&str; 12] = [
        "ObjectMeta",
        "Status",
        "Spec",
        "Finalizers",
        "OwnerReferences",
        "Labels",
        "Annotations",
        "Conditions",
        "GetFinalizers()",
        "GetLabels()",
        "GetAnnotations()",
        "GetOwnerReferences()",
    ];
    while parts.len() > 1 && parts.last().is_some_and(|p| FIELDS.contains(p)) {
        parts.pop();
    }
    parts.join(".")
}

/// Short text for messages.
fn cut(s: &str) -> String {
    let one_line: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() <= 80 {
        one_line
    } else {
        let head: String = one_line.chars().take(77).collect();
        format!("{head}...")
    }
}

/// The nodes of a value holding ops (`None` when it holds none).
fn nodes_of(val: &Val) -> Option<Vec<Node>> {
    match val {
        Val::Op(op) => Some(vec![Node::Op((**op).clone())]),
        Val::Ops(nodes) => Some(nodes.clone()),
        Val::Marshal(inner) => nodes_of(inner),
        _ => None,
    }
}

/// As [`nodes_of`], but a value that is not ops counts as ops the
/// scanner cannot see.
fn nodes_or_opaque(val: &Val, expr: &str) -> Vec<Node> {
    match val {
        Val::Nil => Vec::new(),
        Val::List(items) => items
            .iter()
            .flat_map(|i| nodes_or_opaque(i, expr))
            .collect(),
        _ => nodes_of(val).unwrap_or_else(|| vec![Node::Opaque(cut(expr))]),
    }
}

fn set_recv(nodes: &mut [Node], recv: &str) {
    for node in nodes {
        match node {
            Node::Op(op) => {
                if op.via == (Via::Builder { recv: None }) {
                    op.via = Via::Builder {
                        recv: Some(recv.to_owned()),
                    };
                }
            }
            Node::Choice(arms) => {
                for arm in arms {
                    set_recv(arm, recv);
                }
            }
            Node::Opaque(_) => {}
        }
    }
}

fn count(nodes: &[Node]) -> usize {
    nodes
        .iter()
        .map(|n| match n {
            Node::Choice(arms) => arms.iter().map(|a| count(a)).sum::<usize>(),
            _ => 1,
        })
        .sum()
}

/// Joins the environments of the branches that fall through.
fn merge(pre: &Env, outs: Vec<Env>) -> Env {
    let mut keys: Vec<&String> = outs.iter().flat_map(|e| e.keys()).collect();
    keys.sort();
    keys.dedup();
    let mut merged = Env::with_capacity(keys.len());
    for key in keys {
        let vals: Vec<Option<&Val>> = outs.iter().map(|e| e.get(key)).collect();
        let first = vals.iter().flatten().next().copied();
        let Some(first) = first else { continue };
        if vals.iter().all(|v| *v == Some(first)) {
            merged.insert(key.clone(), first.clone());
            continue;
        }
        let holds_ops = vals
            .iter()
            .all(|v| matches!(v, None | Some(Val::Ops(_)) | Some(Val::Nil)));
        if !holds_ops {
            let pre_val = pre.get(key);
            // A value only some branches set keeps the others' (or the
            // value before): the scanner cannot tell which runs.
            let val = if vals
                .iter()
                .flatten()
                .all(|v| Some(*v) == pre_val || *v == first)
            {
                first.clone()
            } else {
                Val::Unknown(key.clone())
            };
            merged.insert(key.clone(), val);
            continue;
        }
        let base: &[Node] = match pre.get(key) {
            Some(Val::Ops(nodes)) => nodes,
            _ => &[],
        };
        let mut suffixes = Vec::new();
        let mut extends = true;
        for v in &vals {
            match v {
                Some(Val::Ops(nodes))
                    if nodes.len() >= base.len() && nodes[..base.len()] == *base =>
                {
                    suffixes.push(nodes[base.len()..].to_vec());
                }
                Some(Val::Ops(_)) => extends = false,
                _ => suffixes.push(Vec::new()),
            }
        }
        let nodes = if extends {
            let mut nodes = base.to_vec();
            if suffixes.iter().any(|s| !s.is_empty()) {
                nodes.push(Node::Choice(suffixes));
            }
            nodes
        } else {
            vec![Node::Choice(
                vals.iter()
                    .map(|v| match v {
                        Some(Val::Ops(nodes)) => nodes.clone(),
                        _ => Vec::new(),
                    })
                    .collect(),
            )]
        };
        merged.insert(key.clone(), Val::Ops(nodes));
    }
    merged
}

impl<'u, 'f, 'a> Func<'u, 'f, 'a> {
    fn new(unit: &'u Unit<'f, 'a>, name: String) -> Self {
        Func {
            unit,
            name,
            env: Env::new(),
            emits: Vec::new(),
            emitted: HashSet::new(),
            retry: Vec::new(),
            changes: Vec::new(),
            terminated: false,
            steps: 0,
            depth: 0,
            closures: true,
        }
    }

    fn text(&self, node: TsNode<'f>) -> &'f str {
        let file: &'f GoFile<'a> = self.unit.file;
        file.text_of(node)
    }

    fn pos(&self, node: TsNode<'f>) -> Pos {
        self.unit.file.pos(node)
    }

    fn budget(&mut self) -> bool {
        self.steps += 1;
        self.steps <= MAX_STEPS && self.depth <= MAX_DEPTH
    }

    /// The package `operand` names, when it is an import (a local
    /// variable of the same name hides it; a package-level one cannot
    /// coexist with the import in Go).
    fn package_named(&self, operand: TsNode<'f>) -> Option<Pkg> {
        if operand.kind() != "identifier" {
            return None;
        }
        let name = self.text(operand);
        if self.env.contains_key(name) {
            return None;
        }
        if let Some(pkg) = self.unit.imports.get(name) {
            return Some(*pkg);
        }
        if self.unit.package.values.contains_key(name) {
            return None;
        }
        Some(guess(name)).filter(|p| *p != Pkg::Other)
    }

    fn lookup(&self, name: &str) -> Option<&Val> {
        self.env
            .get(name)
            .or_else(|| self.unit.package.values.get(name))
    }

    /// Records ops as emitted and keeps the payload.
    fn emit(&mut self, kind: EmitKind, at: Pos, how: How) {
        if let EmitKind::JsonPatch(nodes) = &kind {
            // Something op-shaped that names no op (`Route{Operation: x,
            // Path: p}`) is not a patch.
            if !all_ops(nodes).iter().any(|op| op.kind.is_some()) {
                return;
            }
            for op in all_ops(nodes) {
                self.emitted.insert(op.id);
            }
        }
        self.emits.push(Emit {
            kind,
            at,
            function: self.name.clone(),
            how,
            retry: self.retry.last().copied(),
        });
    }

    /// Values that still hold ops nobody generated or sent: the caller
    /// gets them.
    fn finish(&mut self) {
        let mut keys: Vec<String> = self.env.keys().cloned().collect();
        keys.sort();
        for key in keys {
            let Some(Val::Ops(nodes)) = self.env.get(&key) else {
                continue;
            };
            let ops = all_ops(nodes);
            if ops.is_empty() || ops.iter().all(|op| self.emitted.contains(&op.id)) {
                continue;
            }
            let at = ops[0].at;
            let nodes = nodes.clone();
            self.emit(EmitKind::JsonPatch(nodes), at, How::Unsent);
        }
    }

    // ----- statements -----

    fn block(&mut self, node: TsNode<'f>) {
        for child in children(node) {
            if self.terminated {
                return;
            }
            if child.kind() == "statement_list" {
                for stmt in children(child) {
                    if self.terminated {
                        return;
                    }
                    self.stmt(stmt);
                }
            } else {
                self.stmt(child);
            }
        }
    }

    fn stmt(&mut self, node: TsNode<'f>) {
        if !self.budget() {
            return;
        }
        self.depth += 1;
        self.stmt_inner(node);
        self.depth -= 1;
    }

    fn stmt_inner(&mut self, node: TsNode<'f>) {
        match node.kind() {
            "short_var_declaration" | "assignment_statement" => {
                let left = field_list(node, "left");
                let right = field_list(node, "right");
                let op = field(node, "operator").map(|o| self.text(o)).unwrap_or("=");
                self.assign(&left, &right, op);
            }
            "var_declaration" | "const_declaration" => self.var_declaration(node),
            "expression_statement" => {
                if let Some(expr) = children(node).into_iter().next() {
                    self.expr(expr);
                }
            }
            "if_statement" => {
                if let Some(init) = field(node, "initializer") {
                    self.stmt(init);
                }
                if let Some(cond) = field(node, "condition") {
                    self.expr(cond);
                }
                let arms = vec![field(node, "consequence"), field(node, "alternative")];
                self.branch(arms);
            }
            "for_statement" => self.for_statement(node),
            "expression_switch_statement" | "type_switch_statement" | "select_statement" => {
                self.switch_statement(node)
            }
            "expression_case" | "type_case" | "communication_case" | "default_case" => {
                self.case_body(node)
            }
            "block" | "statement_list" => self.block(node),
            "return_statement" => self.return_statement(node),
            "go_statement" | "defer_statement" => {
                for child in children(node) {
                    self.expr(child);
                }
            }
            "labeled_statement" => {
                if let Some(inner) = children(node).into_iter().last() {
                    self.stmt(inner);
                }
            }
            "break_statement" | "continue_statement" | "goto_statement" => {
                self.terminated = true;
            }
            _ => {}
        }
    }

    /// Binds each name of a `var` or `const` declaration: to its value, or
    /// to Go's zero value (`nil` for slices, maps and pointers).
    fn var_declaration(&mut self, node: TsNode<'f>) {
        let mut specs = Vec::new();
        for child in children(node) {
            match child.kind() {
                "var_spec" | "const_spec" => specs.push(child),
                "var_spec_list" => specs.extend(children(child)),
                _ => {}
            }
        }
        for spec in specs {
            let mut cursor = spec.walk();
            let names: Vec<TsNode<'f>> = spec.children_by_field_name("name", &mut cursor).collect();
            let values = field_list(spec, "value");
            if values.is_empty() {
                let ty = field(spec, "type").map(|t| self.text(t)).unwrap_or("");
                for name in names {
                    let zero =
                        if ty.starts_with("[]") || ty.starts_with("map[") || ty.starts_with('*') {
                            Val::Nil
                        } else {
                            Val::Unknown(self.text(name).to_owned())
                        };
                    self.env.insert(self.text(name).to_owned(), zero);
                }
            } else {
                self.assign(&names, &values, "=");
            }
        }
    }

    /// Runs a `for` loop's initializer or range, then its body as an arm
    /// that may run or not.
    fn for_statement(&mut self, node: TsNode<'f>) {
        for child in children(node) {
            match child.kind() {
                "for_clause" => {
                    if let Some(init) = field(child, "initializer") {
                        self.stmt(init);
                    }
                }
                "range_clause" => {
                    if let Some(right) = field(child, "right") {
                        self.expr(right);
                    }
                    for name in field_list(child, "left") {
                        let n = self.text(name).to_owned();
                        self.env.insert(n.clone(), Val::Unknown(n));
                    }
                }
                _ => {}
            }
        }
        let body = field(node, "body");
        self.branch(vec![body, None]);
        // A loop's `break` or `continue` ends an iteration, not the
        // function.
    }

    /// Runs a `switch` or `select`: each case is an arm, plus an empty
    /// arm when there is no `default`.
    fn switch_statement(&mut self, node: TsNode<'f>) {
        if let Some(init) = field(node, "initializer") {
            self.stmt(init);
        }
        if let Some(value) = field(node, "value") {
            self.expr(value);
        }
        let mut arms = Vec::new();
        let mut has_default = false;
        for case in children(node) {
            match case.kind() {
                "expression_case" | "type_case" | "communication_case" | "default_case" => {
                    has_default |= case.kind() == "default_case";
                    arms.push(Some(case));
                }
                _ => {}
            }
        }
        if !has_default {
            arms.push(None);
        }
        self.branch(arms);
    }

    /// Runs the statements of one case (not its tested values) until one
    /// terminates.
    fn case_body(&mut self, node: TsNode<'f>) {
        let skip: Vec<Option<TsNode<'f>>> = vec![
            field(node, "value"),
            field(node, "type"),
            field(node, "communication"),
        ];
        for child in children(node) {
            if self.terminated {
                return;
            }
            if skip.contains(&Some(child)) {
                continue;
            }
            if child.kind() == "statement_list" {
                self.block(child);
            } else {
                self.stmt(child);
            }
        }
    }

    /// Evaluates the returned values (a returned patch is emitted) and
    /// ends the path.
    fn return_statement(&mut self, node: TsNode<'f>) {
        for expr in children(node) {
            for e in if expr.kind() == "expression_list" {
                children(expr)
            } else {
                vec![expr]
            } {
                let val = self.expr(e);
                if let Some(nodes) = nodes_of(&val) {
                    if !matches!(val, Val::Marshal(_)) {
                        let at = self.pos(e);
                        self.emit(EmitKind::JsonPatch(nodes), at, How::Returned);
                    }
                }
            }
        }
        self.terminated = true;
    }

    /// Runs each arm (`None`: the arm that does nothing) from the same
    /// state and joins the states of those that fall through.
    fn branch(&mut self, arms: Vec<Option<TsNode<'f>>>) {
        let pre = self.env.clone();
        let mut outs = Vec::new();
        for arm in arms {
            self.env = pre.clone();
            self.terminated = false;
            if let Some(node) = arm {
                self.stmt(node);
            }
            if !self.terminated {
                outs.push(std::mem::take(&mut self.env));
            }
        }
        if outs.is_empty() {
            self.env = pre;
            self.terminated = true;
            return;
        }
        self.terminated = false;
        self.env = if outs.len() == 1 {
            outs.pop().unwrap_or_default()
        } else {
            merge(&pre, outs)
        };
    }

    fn assign(&mut self, left: &[TsNode<'f>], right: &[TsNode<'f>], op: &str) {
        let vals: Vec<Val> = right.iter().map(|r| self.expr(*r)).collect();
        for (i, target) in left.iter().enumerate() {
            let name = self.text(*target).to_owned();
            if name == "_" {
                continue;
            }
            self.note_change(*target);
            if name.ends_with(".Patch") {
                if let Some(v) = vals.get(i) {
                    let v = v.clone();
                    self.admission(std::slice::from_ref(&v));
                }
            }
            let val = if vals.len() == left.len() {
                vals[i].clone()
            } else if i == 0 && vals.len() == 1 {
                vals[0].clone()
            } else {
                Val::Unknown(name.clone())
            };
            let val = if op == "+=" {
                let old = self
                    .lookup(&name)
                    .cloned()
                    .unwrap_or(Val::Unknown(name.clone()));
                let right_text = right.get(i).map(|r| self.text(*r)).unwrap_or("");
                self.concat(old, &name, val, right_text)
            } else {
                match val {
                    // Keep where an opaque value came from: `old := vmi.Labels`.
                    Val::Unknown(expr)
                        if expr != name && Shape::of_expr(&expr) != Shape::Unknown =>
                    {
                        Val::Opaque {
                            shape: Shape::of_expr(&expr),
                            expr,
                        }
                    }
                    other => other,
                }
            };
            self.env.insert(name, val);
        }
    }

    /// Assignments to an object's collection (`obj.Finalizers = ...`).
    fn note_change(&mut self, target: TsNode<'f>) {
        let text = self.text(target);
        if target.kind() == "index_expression" {
            // `m[k] = v`: the map is no longer the literal it was.
            if let Some(operand) = field(target, "operand") {
                let name = self.text(operand).to_owned();
                if let Some(val @ (Val::Object(_) | Val::List(_))) = self.env.get(&name) {
                    let shape = val.shape();
                    self.env
                        .insert(name.clone(), Val::Opaque { expr: name, shape });
                }
            }
        }
        let last = text.rsplit('.').next().unwrap_or("");
        let last = last.split('[').next().unwrap_or(last);
        if !text.contains('.') {
            return;
        }
        if let Some(coll) = Coll::of_field(last) {
            let at = self.pos(target);
            self.changes.push(Change {
                object: root(text),
                coll,
                at,
                code: cut(text),
            });
        }
    }

    fn change(&mut self, object: &str, coll: Coll, call: TsNode<'f>) {
        let at = self.pos(call);
        let code = cut(self.text(call));
        self.changes.push(Change {
            object: root(object),
            coll,
            at,
            code,
        });
    }

    // ----- expressions -----

    fn expr(&mut self, node: TsNode<'f>) -> Val {
        if !self.budget() {
            return Val::Unknown(cut(self.text(node)));
        }
        self.depth += 1;
        let val = self.expr_inner(node);
        self.depth -= 1;
        val
    }

    fn expr_inner(&mut self, node: TsNode<'f>) -> Val {
        let text = self.text(node);
        match node.kind() {
            "identifier" => self
                .lookup(text)
                .cloned()
                .unwrap_or_else(|| Val::Unknown(text.to_owned())),
            "nil" => Val::Nil,
            "true" => Val::Const(serde_json::Value::Bool(true)),
            "false" => Val::Const(serde_json::Value::Bool(false)),
            "int_literal" => text
                .replace('_', "")
                .parse::<i64>()
                .map(|n| Val::Const(n.into()))
                .unwrap_or_else(|_| Val::Unknown(text.to_owned())),
            "interpreted_string_literal" | "raw_string_literal" => {
                match string_literal(self.unit.file, node) {
                    Some(s) => Val::Str(Text::lit(s)),
                    None => Val::Unknown(text.to_owned()),
                }
            }
            "parenthesized_expression" => match children(node).into_iter().next() {
                Some(inner) => self.expr(inner),
                None => Val::Unknown(text.to_owned()),
            },
            "binary_expression" => {
                let op = field(node, "operator").map(|o| self.text(o)).unwrap_or("");
                let (Some(l), Some(r)) = (field(node, "left"), field(node, "right")) else {
                    return Val::Unknown(cut(text));
                };
                if op != "+" {
                    return Val::Unknown(cut(text));
                }
                let lv = self.expr(l);
                let rv = self.expr(r);
                if matches!(lv, Val::Str(_)) || matches!(rv, Val::Str(_)) {
                    let lt = self.text(l);
                    let rt = self.text(r);
                    let left = self.to_text(&lv, lt);
                    let right = self.to_text(&rv, rt);
                    let mut out = left;
                    out.append(&right);
                    Val::Str(out)
                } else {
                    Val::Unknown(cut(text))
                }
            }
            "unary_expression" => {
                let op = field(node, "operator").map(|o| self.text(o)).unwrap_or("");
                match (op, field(node, "operand")) {
                    ("&" | "*", Some(operand)) => self.expr(operand),
                    (_, Some(operand)) => {
                        self.expr(operand);
                        Val::Unknown(cut(text))
                    }
                    _ => Val::Unknown(cut(text)),
                }
            }
            "selector_expression" => self.selector(node),
            "index_expression" => {
                if let Some(index) = field(node, "index") {
                    self.expr(index);
                }
                Val::Opaque {
                    expr: cut(text),
                    shape: Shape::Element,
                }
            }
            "call_expression" => self.call(node),
            "type_conversion_expression" => match field(node, "operand") {
                Some(operand) => self.expr(operand),
                None => Val::Unknown(cut(text)),
            },
            "composite_literal" => {
                let ty = field(node, "type").map(|t| self.text(t)).unwrap_or("");
                match field(node, "body") {
                    Some(body) => self.literal(body, ty),
                    None => Val::Unknown(cut(text)),
                }
            }
            "literal_value" => self.literal(node, ""),
            "func_literal" => Val::Closure {
                start: node.start_byte(),
                end: node.end_byte(),
            },
            "variadic_argument" => match children(node).into_iter().next() {
                Some(inner) => self.expr(inner),
                None => Val::Unknown(cut(text)),
            },
            "type_assertion_expression" => {
                if let Some(operand) = field(node, "operand") {
                    self.expr(operand);
                }
                Val::Unknown(cut(text))
            }
            _ => Val::Unknown(cut(text)),
        }
    }

    /// Walks a function literal's body, its parameters bound to `args`,
    /// sharing the enclosing function's variables.
    fn closure(&mut self, node: TsNode<'f>, args: &[Val]) {
        let Some(body) = field(node, "body") else {
            return;
        };
        if !self.closures || !self.budget() {
            return;
        }
        let mut names = Vec::new();
        if let Some(params) = field(node, "parameters") {
            for param in children(params) {
                let mut cursor = param.walk();
                names.extend(
                    param
                        .children_by_field_name("name", &mut cursor)
                        .map(|n| self.text(n).to_owned()),
                );
            }
        }
        for (i, name) in names.into_iter().enumerate() {
            let val = args
                .get(i)
                .cloned()
                .unwrap_or_else(|| Val::Unknown(name.clone()));
            self.env.insert(name, val);
        }
        let outer = self.terminated;
        self.terminated = false;
        self.depth += 1;
        self.block(body);
        self.depth -= 1;
        self.terminated = outer;
    }

    /// The function literal a [`Val::Closure`] stands for.
    fn closure_node(&self, val: &Val) -> Option<TsNode<'f>> {
        let Val::Closure { start, end } = val else {
            return None;
        };
        let file: &'f GoFile<'a> = self.unit.file;
        let root = file.tree.root_node();
        let mut node = root.descendant_for_byte_range(*start, *end)?;
        while node.kind() != "func_literal" || node.start_byte() != *start {
            node = node.parent()?;
        }
        Some(node)
    }

    /// Walks the function literals among `vals` (callbacks handed to a
    /// call run there, as far as the scanner can tell).
    fn run_closures(&mut self, vals: &[Val]) {
        for val in vals {
            if let Some(node) = self.closure_node(val) {
                self.closure(node, &[]);
            }
        }
    }

    /// `a + b` where one side is a string.
    fn concat(&mut self, left: Val, left_text: &str, right: Val, right_text: &str) -> Val {
        let mut out = self.to_text(&left, left_text);
        out.append(&self.to_text(&right, right_text));
        Val::Str(out)
    }

    /// A value used as text (a `+` operand, a `%s` argument).
    fn to_text(&self, val: &Val, expr: &str) -> Text {
        match val {
            Val::Str(t) => t.clone(),
            Val::Const(serde_json::Value::Number(n)) => Text::lit(n.to_string()),
            Val::Const(serde_json::Value::Bool(b)) => Text::lit(b.to_string()),
            Val::Marshal(inner) => {
                let (expr, shape) = match &**inner {
                    Val::Opaque { expr, shape } => (expr.clone(), *shape),
                    other => (cut(expr), other.shape()),
                };
                Text::hole(expr, HoleKind::Json(shape))
            }
            _ => Text::hole(cut(expr), HoleKind::Text),
        }
    }

    fn selector(&mut self, node: TsNode<'f>) -> Val {
        let text = self.text(node);
        if let Some(val) = self.env.get(text) {
            return val.clone();
        }
        let operand = field(node, "operand");
        let name = field(node, "field").map(|f| self.text(f)).unwrap_or("");
        if let Some(operand) = operand {
            if let Some(pkg) = self.package_named(operand) {
                match (pkg, name) {
                    (Pkg::Types, "JSONPatchType") => return Val::PatchType(PatchType::Json),
                    (Pkg::Types, "MergePatchType") => return Val::PatchType(PatchType::Merge),
                    (Pkg::Types, "StrategicMergePatchType") => {
                        return Val::PatchType(PatchType::Strategic)
                    }
                    (
                        Pkg::Types,
                        "ApplyPatchType" | "ApplyYAMLPatchType" | "ApplyCBORPatchType",
                    ) => return Val::PatchType(PatchType::Apply),
                    (Pkg::CrClient, "Apply") => {
                        return Val::CrPatch(Box::new(CrPatch::Whole(PatchType::Apply)))
                    }
                    (Pkg::CrClient, "Merge") => {
                        return Val::CrPatch(Box::new(CrPatch::Whole(PatchType::Merge)))
                    }
                    (Pkg::KvPatch, "PatchTestOp") => return Val::Str(Text::lit("test")),
                    (Pkg::KvPatch, "PatchAddOp") => return Val::Str(Text::lit("add")),
                    (Pkg::KvPatch, "PatchReplaceOp") => return Val::Str(Text::lit("replace")),
                    (Pkg::KvPatch, "PatchRemoveOp") => return Val::Str(Text::lit("remove")),
                    _ => {}
                }
            } else {
                // Evaluate the operand for what it does (a call).
                if operand.kind() == "call_expression" {
                    self.expr(operand);
                }
            }
        }
        Val::Opaque {
            expr: cut(text),
            shape: Shape::of_expr(text),
        }
    }

    /// Composite literals: op structs and maps, slices of them, option
    /// slices, plain maps and slices.
    fn literal(&mut self, body: TsNode<'f>, ty: &str) -> Val {
        let elements = children(body);
        let ty = ty.trim();
        let ty = ty.strip_prefix('&').unwrap_or(ty);
        if ty.starts_with('[') {
            let elem_ty = ty.split_once(']').map(|(_, e)| e).unwrap_or("");
            let mut items = Vec::with_capacity(elements.len());
            for element in elements {
                let value = if element.kind() == "keyed_element" {
                    field(element, "value").or_else(|| children(element).into_iter().last())
                } else {
                    Some(element)
                };
                let Some(value) = value else { continue };
                items.push(self.element(value, elem_ty));
            }
            if items.iter().any(|i| matches!(i, Val::Op(_))) {
                let mut nodes = Vec::new();
                for item in &items {
                    nodes.extend(nodes_or_opaque(item, "element"));
                }
                return Val::Ops(nodes);
            }
            return Val::List(items);
        }
        let mut members: Vec<(String, Val, String)> = Vec::new();
        for element in elements {
            if element.kind() != "keyed_element" {
                continue;
            }
            let (key, value) = match (field(element, "key"), field(element, "value")) {
                (Some(k), Some(v)) => (k, v),
                _ => {
                    let parts = children(element);
                    match (parts.first(), parts.last()) {
                        (Some(k), Some(v)) if parts.len() == 2 => (*k, *v),
                        _ => continue,
                    }
                }
            };
            let key_node = if key.kind() == "literal_element" {
                children(key).into_iter().next().unwrap_or(key)
            } else {
                key
            };
            let key_val = match key_node.kind() {
                "field_identifier" | "identifier" if !ty.starts_with("map[") => {
                    Val::Str(Text::lit(self.text(key_node)))
                }
                _ => self.expr(key_node),
            };
            let key_text = match key_val.text().and_then(Text::literal) {
                Some(key) => key,
                None => format!("<{}>", cut(self.text(key_node))),
            };
            let value_node = if value.kind() == "literal_element" {
                children(value).into_iter().next().unwrap_or(value)
            } else {
                value
            };
            let val = self.element(value_node, "");
            if key_text == "Patch" {
                self.admission(std::slice::from_ref(&val));
            }
            members.push((key_text, val, cut(self.text(value_node))));
        }
        let get = |names: &[&str]| {
            members
                .iter()
                .find(|(k, _, _)| names.contains(&k.as_str()))
                .map(|(_, v, _)| v)
        };
        let names_op = get(&["op", "Op", "Operation"])
            .and_then(Val::text)
            .and_then(Text::literal)
            .is_some_and(|s| OpKind::parse(&s).is_some());
        let is_pointer = get(&["path", "Path"]).and_then(Val::text).is_some_and(
            |t| matches!(t.pieces.first(), Some(super::value::Piece::Lit(s)) if s.starts_with('/')),
        );
        if get(&["op", "Op", "Operation"]).is_some()
            && get(&["path", "Path"]).is_some()
            && (names_op || is_pointer)
        {
            return self.op_from_members(&members, body);
        }
        if !ty.is_empty() && !ty.starts_with("map[") {
            // A struct: its JSON names come from tags the scanner does
            // not read.
            return Val::Opaque {
                expr: cut(self.text(body.parent().unwrap_or(body))),
                shape: Shape::Unknown,
            };
        }
        Val::Object(members.into_iter().map(|(k, v, _)| (k, v)).collect())
    }

    fn element(&mut self, node: TsNode<'f>, elem_ty: &str) -> Val {
        if node.kind() == "literal_value" {
            self.literal(node, elem_ty)
        } else if node.kind() == "literal_element" {
            match children(node).into_iter().next() {
                Some(inner) => self.element(inner, elem_ty),
                None => Val::Unknown(String::new()),
            }
        } else {
            self.expr(node)
        }
    }

    fn op_from_members(&mut self, members: &[(String, Val, String)], at: TsNode<'f>) -> Val {
        let get = |names: &[&str]| {
            members
                .iter()
                .find(|(k, _, _)| names.contains(&k.as_str()))
                .map(|(_, v, e)| (v.clone(), e.clone()))
        };
        let kind = get(&["op", "Op", "Operation"]).and_then(|(v, _)| {
            v.text()
                .and_then(Text::literal)
                .and_then(|s| OpKind::parse(&s))
        });
        let path = get(&["path", "Path"])
            .map(|(v, e)| self.to_text(&v, &e))
            .unwrap_or_default();
        let (value, value_expr) = match get(&["value", "Value"]) {
            Some((v, e)) => (Some(v), e),
            None if kind == Some(OpKind::Remove) => (None, String::new()),
            None => (Some(Val::Nil), String::new()),
        };
        let value = if kind == Some(OpKind::Remove) {
            None
        } else {
            value
        };
        Val::Op(Box::new(OpT {
            id: self.unit.id(),
            kind,
            path,
            value,
            value_expr,
            at: self.pos(at),
            via: Via::Literal,
        }))
    }

    fn builder_op(&mut self, kind: OpKind, args: &[TsNode<'f>], call: TsNode<'f>) -> Val {
        let path = match args.first() {
            Some(p) => {
                let v = self.expr(*p);
                let t = self.text(*p);
                self.to_text(&v, t)
            }
            None => Text::default(),
        };
        let (value, value_expr) = if kind == OpKind::Remove {
            (None, String::new())
        } else {
            match args.get(1) {
                Some(v) => {
                    let val = self.expr(*v);
                    (Some(val), cut(self.text(*v)))
                }
                None => (Some(Val::Nil), String::new()),
            }
        };
        Val::Op(Box::new(OpT {
            id: self.unit.id(),
            kind: Some(kind),
            path,
            value,
            value_expr,
            at: self.pos(call),
            via: Via::Builder { recv: None },
        }))
    }

    fn helper_op(&self, kind: OpKind, path: &Text, value: Option<(Val, String)>, at: Pos) -> Node {
        let (value, value_expr) = match value {
            Some((v, e)) => (Some(v), e),
            None => (None, String::new()),
        };
        Node::Op(OpT {
            id: self.unit.id(),
            kind: Some(kind),
            path: path.clone(),
            value,
            value_expr,
            at,
            via: Via::Helper,
        })
    }

    fn args(&self, call: TsNode<'f>) -> Vec<TsNode<'f>> {
        field(call, "arguments").map(children).unwrap_or_default()
    }

    fn call(&mut self, node: TsNode<'f>) -> Val {
        let Some(function) = field(node, "function") else {
            return Val::Unknown(cut(self.text(node)));
        };
        let args = self.args(node);
        match function.kind() {
            "selector_expression" => {
                let operand = field(function, "operand");
                let name = field(function, "field").map(|f| self.text(f)).unwrap_or("");
                if let Some(operand) = operand {
                    if let Some(pkg) = self.package_named(operand) {
                        return self.pkg_call(pkg, name, &args, node);
                    }
                    return self.method_call(operand, name, &args, node);
                }
                self.generic(name, &args, node)
            }
            "identifier" => {
                let name = self.text(function);
                match name {
                    "append" => self.append(&args),
                    "string" => match args.first() {
                        Some(a) => self.expr(*a),
                        None => Val::Unknown(String::new()),
                    },
                    "panic" => {
                        for a in &args {
                            self.expr(*a);
                        }
                        self.terminated = true;
                        Val::Unknown(String::new())
                    }
                    _ => {
                        let callee = self.env.get(name).cloned();
                        if let Some(closure) = callee.as_ref().and_then(|c| self.closure_node(c)) {
                            let vals: Vec<Val> = args.iter().map(|a| self.expr(*a)).collect();
                            self.closure(closure, &vals);
                            return Val::Unknown(cut(self.text(node)));
                        }
                        self.generic(name, &args, node)
                    }
                }
            }
            "func_literal" => {
                let vals: Vec<Val> = args.iter().map(|a| self.expr(*a)).collect();
                self.closure(function, &vals);
                Val::Unknown(cut(self.text(node)))
            }
            _ => self.generic("", &args, node),
        }
    }

    fn append(&mut self, args: &[TsNode<'f>]) -> Val {
        let Some(first) = args.first() else {
            return Val::Unknown(String::new());
        };
        let base = self.expr(*first);
        let base_text = self.text(*first);
        let mut items: Vec<(Val, &str)> = Vec::new();
        for a in &args[1..] {
            let v = self.expr(*a);
            items.push((v, self.text(*a)));
        }
        let any_ops = matches!(base, Val::Ops(_) | Val::Op(_))
            || items
                .iter()
                .any(|(v, _)| matches!(v, Val::Ops(_) | Val::Op(_)));
        if any_ops {
            let mut nodes = nodes_or_opaque(&base, base_text);
            for (v, t) in &items {
                if count(&nodes) >= MAX_OPS {
                    break;
                }
                nodes.extend(nodes_or_opaque(v, t));
            }
            return Val::Ops(nodes);
        }
        match base {
            Val::List(mut list) => {
                list.extend(items.into_iter().map(|(v, _)| v));
                Val::List(list)
            }
            Val::Nil => Val::List(items.into_iter().map(|(v, _)| v).collect()),
            other => {
                let expr = match &other {
                    Val::Opaque { expr, .. } => expr.clone(),
                    _ => cut(base_text),
                };
                Val::Opaque {
                    shape: Shape::of_expr(&expr),
                    expr: format!("append({expr}, ...)"),
                }
            }
        }
    }

    fn eval_args(&mut self, args: &[TsNode<'f>]) -> Vec<Val> {
        let vals: Vec<Val> = args.iter().map(|a| self.expr(*a)).collect();
        self.run_closures(&vals);
        // A map or slice literal handed to a call may be filled there
        // (`maps.Copy(m, old)`, `setAnnotation(m)`): no longer known.
        for (arg, val) in args.iter().zip(&vals) {
            if arg.kind() == "identifier" && matches!(val, Val::Object(_) | Val::List(_)) {
                let name = self.text(*arg).to_owned();
                let shape = val.shape();
                self.env
                    .insert(name.clone(), Val::Opaque { expr: name, shape });
            }
        }
        vals
    }

    /// Evaluates a call of a known package's function; a function the
    /// model does not know is a generic call.
    fn pkg_call(&mut self, pkg: Pkg, name: &str, args: &[TsNode<'f>], node: TsNode<'f>) -> Val {
        let at = self.pos(node);
        let modelled = match pkg {
            Pkg::KvPatch => self.kv_patch_call(name, args, node),
            Pkg::Fmt if name == "Sprintf" => Some(self.sprintf(args)),
            Pkg::Strings | Pkg::Strconv => self.text_call(pkg, name, args, node),
            Pkg::Json if matches!(name, "Marshal" | "MarshalIndent") => {
                Some(self.json_marshal(args, at))
            }
            Pkg::CrClient => self.cr_client_call(name, args, node),
            Pkg::Retry
                if name == "RetryOnConflict"
                    || (name == "OnError"
                        && args
                            .get(1)
                            .is_some_and(|a| self.text(*a).contains("IsConflict"))) =>
            {
                Some(self.with_retry(at, args))
            }
            Pkg::Controllerutil | Pkg::Meta | Pkg::Conditions => collection_helper(pkg, name)
                .map(|(object, coll)| self.collection_call(object, coll, args, node)),
            Pkg::JsonPatchLib if matches!(name, "NewOperation" | "NewPatch") && args.len() >= 2 => {
                Some(self.new_operation(args, node))
            }
            Pkg::Maps if name == "Clone" => {
                let v = args.first().map(|a| self.expr(*a));
                let expr = cut(self.text(node));
                let shape = v.map(|v| v.shape()).unwrap_or(Shape::Unknown);
                Some(Val::Opaque { expr, shape })
            }
            _ => None,
        };
        modelled.unwrap_or_else(|| self.generic(name, args, node))
    }

    /// A call of KubeVirt's patch package: the builder, its generators and
    /// its escaper (`None`: not modelled).
    fn kv_patch_call(&mut self, name: &str, args: &[TsNode<'f>], node: TsNode<'f>) -> Option<Val> {
        let at = self.pos(node);
        Some(match name {
            "New" => {
                let mut nodes = Vec::new();
                for a in args {
                    let v = self.expr(*a);
                    if count(&nodes) < MAX_OPS {
                        nodes.extend(nodes_or_opaque(&v, self.text(*a)));
                    }
                }
                Val::Ops(nodes)
            }
            "WithTest" => self.builder_op(OpKind::Test, args, node),
            "WithAdd" => self.builder_op(OpKind::Add, args, node),
            "WithReplace" => self.builder_op(OpKind::Replace, args, node),
            "WithRemove" => self.builder_op(OpKind::Remove, args, node),
            "GenerateTestReplacePatch" if args.len() == 3 => self.test_replace_patch(args, at),
            "GeneratePatchPayload" => {
                let mut nodes = Vec::new();
                for a in args {
                    let v = self.expr(*a);
                    nodes.extend(nodes_or_opaque(&v, self.text(*a)));
                }
                self.emit(EmitKind::JsonPatch(nodes.clone()), at, How::Generated);
                Val::Marshal(Box::new(Val::Ops(nodes)))
            }
            "EscapeJSONPointer" => self.escape_call(args.first().copied()),
            "GeneratePerKeyMapPatches" if args.len() == 3 => self.per_key_map_patches(args, at),
            _ => return None,
        })
    }

    /// `GenerateTestReplacePatch(path, old, new)`: a marshalled test and
    /// replace of one path, emitted.
    fn test_replace_patch(&mut self, args: &[TsNode<'f>], at: Pos) -> Val {
        let path_val = self.expr(args[0]);
        let path = self.to_text(&path_val, self.text(args[0]));
        let old = self.expr(args[1]);
        let new = self.expr(args[2]);
        let nodes = vec![
            self.helper_op(
                OpKind::Test,
                &path,
                Some((old, cut(self.text(args[1])))),
                at,
            ),
            self.helper_op(
                OpKind::Replace,
                &path,
                Some((new, cut(self.text(args[2])))),
                at,
            ),
        ];
        self.emit(EmitKind::JsonPatch(nodes.clone()), at, How::Generated);
        Val::Marshal(Box::new(Val::Ops(nodes)))
    }

    /// `GeneratePerKeyMapPatches(path, old, new)`: the map tested and added
    /// whole, or per key one of remove, test + replace or add.
    fn per_key_map_patches(&mut self, args: &[TsNode<'f>], at: Pos) -> Val {
        // PR #18139's helper: an absent or empty old map is tested
        // and added whole; otherwise one of remove, test + replace
        // or add per key.
        let path_val = self.expr(args[0]);
        let path = self.to_text(&path_val, self.text(args[0]));
        self.expr(args[1]);
        self.expr(args[2]);
        let old = cut(self.text(args[1]));
        let new = cut(self.text(args[2]));
        let mut key_path = path.clone();
        key_path.push_str("/");
        key_path.append(&Text::hole("key", HoleKind::Escaped));
        let element = |e: &str| Val::Opaque {
            expr: format!("{e}[key]"),
            shape: Shape::Element,
        };
        let whole = vec![
            self.helper_op(OpKind::Test, &path, Some((Val::Nil, old.clone())), at),
            self.helper_op(
                OpKind::Add,
                &path,
                Some((
                    Val::Opaque {
                        expr: new.clone(),
                        shape: Shape::Map,
                    },
                    new.clone(),
                )),
                at,
            ),
        ];
        let per_key = vec![Node::Choice(vec![
            vec![self.helper_op(OpKind::Remove, &key_path, None, at)],
            vec![
                self.helper_op(
                    OpKind::Test,
                    &key_path,
                    Some((element(&old), format!("{old}[key]"))),
                    at,
                ),
                self.helper_op(
                    OpKind::Replace,
                    &key_path,
                    Some((element(&new), format!("{new}[key]"))),
                    at,
                ),
            ],
            vec![self.helper_op(
                OpKind::Add,
                &key_path,
                Some((element(&new), format!("{new}[key]"))),
                at,
            )],
        ])];
        Val::Ops(vec![Node::Choice(vec![whole, per_key])])
    }

    /// A call of `strings` or `strconv` that may build a path: replacing,
    /// escaping or formatting a number (`None`: not modelled).
    fn text_call(
        &mut self,
        pkg: Pkg,
        name: &str,
        args: &[TsNode<'f>],
        node: TsNode<'f>,
    ) -> Option<Val> {
        Some(match (pkg, name) {
            (Pkg::Strings, "ReplaceAll" | "Replace") if args.len() >= 3 => {
                let vals = self.eval_args(args);
                let lit = |v: &Val| v.text().and_then(Text::literal);
                match (lit(&vals[1]).as_deref(), lit(&vals[2]).as_deref()) {
                    (Some("/"), Some("~1")) => match lit(&vals[0]) {
                        Some(s) => Val::Str(Text::lit(s.replace('/', "~1"))),
                        None => Val::Str(Text::hole(cut(self.text(args[0])), HoleKind::Escaped)),
                    },
                    (Some(from), Some(to)) => match lit(&vals[0]) {
                        Some(s) => Val::Str(Text::lit(s.replace(from, to))),
                        None => Val::Str(Text::hole(cut(self.text(node)), HoleKind::Text)),
                    },
                    _ => Val::Str(Text::hole(cut(self.text(node)), HoleKind::Text)),
                }
            }
            (Pkg::Strings, "NewReplacer") => {
                let vals = self.eval_args(args);
                let lits: Vec<Option<String>> = vals
                    .iter()
                    .map(|v| v.text().and_then(Text::literal))
                    .collect();
                let escapes = lits.chunks(2).any(|p| {
                    p.len() == 2 && p[0].as_deref() == Some("/") && p[1].as_deref() == Some("~1")
                });
                if escapes {
                    Val::Escaper
                } else {
                    Val::Unknown(cut(self.text(node)))
                }
            }
            (Pkg::Strconv, "Itoa" | "FormatInt" | "FormatUint") => {
                self.eval_args(args);
                Val::Str(Text::hole(
                    cut(args.first().map(|a| self.text(*a)).unwrap_or("")),
                    HoleKind::Index,
                ))
            }
            (Pkg::Strconv, "Quote") => {
                self.eval_args(args);
                Val::Str(Text::hole(cut(self.text(node)), HoleKind::Quoted))
            }
            _ => return None,
        })
    }

    /// `json.Marshal(v)`: a marshalled value; a patch marshalled is
    /// emitted.
    fn json_marshal(&mut self, args: &[TsNode<'f>], at: Pos) -> Val {
        let Some(first) = args.first() else {
            return Val::Unknown(String::new());
        };
        let v = self.expr(*first);
        if let Val::Ops(nodes) = &v {
            self.emit(EmitKind::JsonPatch(nodes.clone()), at, How::Generated);
        }
        let v = match v {
            Val::Unknown(expr) => Val::Opaque {
                shape: Shape::of_expr(&expr),
                expr,
            },
            other => other,
        };
        Val::Marshal(Box::new(v))
    }

    /// A call of controller-runtime's client package: a merge-from or raw
    /// patch (`None`: not modelled).
    fn cr_client_call(&mut self, name: &str, args: &[TsNode<'f>], node: TsNode<'f>) -> Option<Val> {
        let at = self.pos(node);
        Some(match name {
            "MergeFrom" | "MergeFromWithOptions" | "StrategicMergeFrom" => {
                let vals = self.eval_args(args);
                let lock = args
                    .iter()
                    .skip(1)
                    .any(|a| self.text(*a).contains("MergeFromWithOptimisticLock"));
                let base = vals
                    .into_iter()
                    .next()
                    .unwrap_or(Val::Unknown(String::new()));
                let base = match base {
                    Val::Snapshot { .. } => base,
                    _ => Val::Unknown(args.first().map(|a| cut(self.text(*a))).unwrap_or_default()),
                };
                Val::CrPatch(Box::new(CrPatch::MergeFrom {
                    base,
                    base_expr: args.first().map(|a| cut(self.text(*a))).unwrap_or_default(),
                    lock,
                    strategic: name == "StrategicMergeFrom",
                    at,
                }))
            }
            "RawPatch" if args.len() == 2 => {
                let vals = self.eval_args(args);
                match &vals[0] {
                    Val::PatchType(ty) => Val::CrPatch(Box::new(CrPatch::Raw {
                        ty: *ty,
                        data: vals[1].clone(),
                    })),
                    _ => Val::Unknown(cut(self.text(node))),
                }
            }
            _ => return None,
        })
    }

    /// A helper that changes one collection (finalizers, owner references,
    /// conditions) of the object in argument `object`.
    fn collection_call(
        &mut self,
        object: usize,
        coll: Coll,
        args: &[TsNode<'f>],
        node: TsNode<'f>,
    ) -> Val {
        self.eval_args(args);
        if let Some(obj) = args.get(object) {
            let obj = self.text(*obj);
            self.change(obj, coll, node);
        }
        Val::Unknown(String::new())
    }

    /// `jsonpatch.NewOperation(op, path, value)`: one operation.
    fn new_operation(&mut self, args: &[TsNode<'f>], node: TsNode<'f>) -> Val {
        let at = self.pos(node);
        let vals = self.eval_args(args);
        let kind = vals[0]
            .text()
            .and_then(Text::literal)
            .and_then(|s| OpKind::parse(&s));
        let path = self.to_text(&vals[1], self.text(args[1]));
        let value = if kind == Some(OpKind::Remove) {
            None
        } else {
            Some(vals.get(2).cloned().unwrap_or(Val::Nil))
        };
        Val::Op(Box::new(OpT {
            id: self.unit.id(),
            kind,
            path,
            value,
            value_expr: args.get(2).map(|a| cut(self.text(*a))).unwrap_or_default(),
            at,
            via: Via::Literal,
        }))
    }

    fn escape_call(&mut self, arg: Option<TsNode<'f>>) -> Val {
        let Some(arg) = arg else {
            return Val::Unknown(String::new());
        };
        let v = self.expr(arg);
        match v.text().and_then(Text::literal) {
            Some(s) => Val::Str(Text::lit(escape(&s))),
            None => Val::Str(Text::hole(cut(self.text(arg)), HoleKind::Escaped)),
        }
    }

    fn with_retry(&mut self, at: Pos, args: &[TsNode<'f>]) -> Val {
        self.retry.push(at);
        self.eval_args(args);
        self.retry.pop();
        Val::Unknown(String::new())
    }

    fn method_call(
        &mut self,
        operand: TsNode<'f>,
        name: &str,
        args: &[TsNode<'f>],
        node: TsNode<'f>,
    ) -> Val {
        let recv_text = self.text(operand);
        let at = self.pos(node);
        let recv = match operand.kind() {
            "identifier" | "selector_expression" => self
                .env
                .get(recv_text)
                .cloned()
                .or_else(|| self.unit.package.values.get(recv_text).cloned())
                .unwrap_or_else(|| {
                    if operand.kind() == "selector_expression" {
                        // A chained call inside (`c.client().Patch`).
                        if let Some(inner) = field(operand, "operand") {
                            if inner.kind() == "call_expression" {
                                self.expr(inner);
                            }
                        }
                    }
                    Val::Unknown(recv_text.to_owned())
                }),
            _ => self.expr(operand),
        };
        match name {
            "AddOption" => {
                let mut nodes = match &recv {
                    Val::Ops(nodes) => nodes.clone(),
                    Val::Nil => Vec::new(),
                    _ => vec![Node::Opaque(cut(recv_text))],
                };
                for a in args {
                    let v = self.expr(*a);
                    let mut more = nodes_or_opaque(&v, self.text(*a));
                    set_recv(&mut more, recv_text);
                    if count(&nodes) < MAX_OPS {
                        nodes.extend(more);
                    }
                }
                if matches!(operand.kind(), "identifier" | "selector_expression") {
                    self.env.insert(recv_text.to_owned(), Val::Ops(nodes));
                }
                Val::Unknown(String::new())
            }
            "GeneratePayload" => match recv {
                Val::Ops(nodes) => {
                    self.emit(EmitKind::JsonPatch(nodes.clone()), at, How::Generated);
                    Val::Marshal(Box::new(Val::Ops(nodes)))
                }
                _ => Val::Unknown(cut(self.text(node))),
            },
            "GetPatches" => match recv {
                Val::Ops(_) => recv,
                _ => Val::Unknown(cut(self.text(node))),
            },
            "DeepCopy" | "DeepCopyObject" => Val::Snapshot {
                of: root(recv_text),
                seq: self.changes.len(),
            },
            "Replace" if recv == Val::Escaper => self.escape_call(args.first().copied()),
            "Patch" => {
                let vals = self.eval_args(args);
                if vals.len() >= 4 {
                    if let Val::PatchType(ty) = vals[2] {
                        self.send_body(ty, &vals[3], at);
                        return Val::Unknown(String::new());
                    }
                }
                if vals.len() >= 3 {
                    if let Val::CrPatch(p) = &vals[2] {
                        let object = self.text(args[1]).to_owned();
                        self.send_cr(p, &object, at);
                        return Val::Unknown(String::new());
                    }
                }
                self.generic_vals(name, args, &vals, node)
            }
            _ => {
                if let Some(coll) = mutating_method(name) {
                    self.eval_args(args);
                    self.change(recv_text, coll, node);
                    return Val::Unknown(String::new());
                }
                let vals = self.eval_args(args);
                self.generic_vals(name, args, &vals, node)
            }
        }
    }

    fn generic(&mut self, name: &str, args: &[TsNode<'f>], node: TsNode<'f>) -> Val {
        let vals = self.eval_args(args);
        if let Some(coll) = mutating_function(name) {
            if let Some(obj) = args.first() {
                let obj = self.text(*obj);
                self.change(obj, coll, node);
            }
        }
        self.generic_vals(name, args, &vals, node)
    }

    /// A call the scanner does not know: a patch type followed by data is
    /// a send (`PatchAppWithWriteBack(ctx, name, ns, types.JSONPatchType,
    /// data, ...)`); a `client.Patch` value is a send of it; ops passed
    /// along leave the function.
    fn generic_vals(
        &mut self,
        name: &str,
        args: &[TsNode<'f>],
        vals: &[Val],
        node: TsNode<'f>,
    ) -> Val {
        let at = self.pos(node);
        let lower = name.to_ascii_lowercase();
        if lower.contains("escape") && args.len() == 1 {
            // `EscapeJsonPointer(k)` of another package (CDI's
            // openapicommon, `jsonpointer.Escape`, ...).
            return match vals[0].text().and_then(Text::literal) {
                Some(s) if lower.contains("pointer") || lower.contains("json") => {
                    Val::Str(Text::lit(escape(&s)))
                }
                _ => Val::Str(Text::hole(cut(self.text(args[0])), HoleKind::Escaped)),
            };
        }
        if lower.starts_with("patchresponse") {
            // controller-runtime's `admission.PatchResponseFromRaw`: a
            // webhook's patch.
            self.admission(vals);
        }
        if let Some(i) = vals.iter().position(|v| matches!(v, Val::PatchType(_))) {
            if let (Val::PatchType(ty), Some(data)) = (&vals[i], vals.get(i + 1)) {
                let ty = *ty;
                self.send_body(ty, data, at);
                return Val::Unknown(cut(self.text(node)));
            }
        }
        if let Some(i) = vals.iter().position(|v| matches!(v, Val::CrPatch(_))) {
            if let Val::CrPatch(p) = &vals[i] {
                let object = if i > 0 {
                    self.text(args[i - 1]).to_owned()
                } else {
                    String::new()
                };
                if name == "Patch" || name == "Update" || i > 0 {
                    let p = p.clone();
                    self.send_cr(&p, &object, at);
                }
            }
        }
        for (i, v) in vals.iter().enumerate() {
            if let Val::Ops(nodes) = v {
                if all_ops(nodes)
                    .iter()
                    .any(|op| !self.emitted.contains(&op.id))
                {
                    let at = self.pos(args[i]);
                    let label = if name.is_empty() {
                        "a call".to_owned()
                    } else {
                        name.to_owned()
                    };
                    self.emit(EmitKind::JsonPatch(nodes.clone()), at, How::Passed(label));
                }
            }
        }
        let text = self.text(node);
        let shape = Shape::of_expr(text);
        if shape == Shape::Unknown {
            Val::Unknown(cut(text))
        } else {
            Val::Opaque {
                expr: cut(text),
                shape,
            }
        }
    }

    /// Ops returned by an admission webhook (in `AdmissionResponse.Patch`):
    /// applied to the object being admitted, with no other writer between.
    fn admission(&mut self, vals: &[Val]) {
        for val in vals {
            if let Val::Marshal(inner) = val {
                if let Val::Ops(nodes) = &**inner {
                    let at = all_ops(nodes).first().map(|op| op.at).unwrap_or_default();
                    self.emit(EmitKind::JsonPatch(nodes.clone()), at, How::Admission);
                }
            }
        }
    }

    fn send_body(&mut self, ty: PatchType, data: &Val, at: Pos) {
        let how = How::Sent(ty);
        match ty {
            PatchType::Json => match data {
                Val::Marshal(inner) => match &**inner {
                    Val::Ops(nodes) => self.emit(EmitKind::JsonPatch(nodes.clone()), at, how),
                    Val::Str(text) => self.send_text(text, at, ty),
                    _ => {}
                },
                Val::Ops(nodes) => self.emit(EmitKind::JsonPatch(nodes.clone()), at, how),
                Val::Str(text) => self.send_text(text, at, ty),
                _ => {}
            },
            PatchType::Merge | PatchType::Strategic | PatchType::Apply => match data {
                Val::Str(text) => self.send_text(text, at, ty),
                Val::Marshal(inner) if matches!(**inner, Val::Object(_)) => {
                    self.emit(
                        EmitKind::Body {
                            ty,
                            body: (**inner).clone(),
                        },
                        at,
                        how,
                    );
                }
                _ => {}
            },
        }
    }

    fn send_text(&mut self, text: &Text, at: Pos, ty: PatchType) {
        let unit = self.unit;
        let mut next = || unit.id();
        match body::read(text, at, &mut next) {
            Body::Ops(ops) if ty == PatchType::Json => {
                let nodes = ops.into_iter().map(Node::Op).collect();
                self.emit(EmitKind::JsonPatch(nodes), at, How::Sent(ty));
            }
            Body::Object(body) if ty != PatchType::Json => {
                self.emit(EmitKind::Body { ty, body }, at, How::Sent(ty));
            }
            _ => {}
        }
    }

    fn send_cr(&mut self, patch: &CrPatch, object: &str, at: Pos) {
        match patch {
            CrPatch::Raw { ty, data } => self.send_body(*ty, data, at),
            CrPatch::MergeFrom {
                base,
                base_expr,
                lock,
                strategic,
                at: made,
            } => {
                let (of, seq) = match base {
                    Val::Snapshot { of, seq } => (Some(of.clone()), *seq),
                    _ => (None, 0),
                };
                let target = root(object);
                let changes: Vec<Change> = self.changes[seq.min(self.changes.len())..]
                    .iter()
                    .filter(|c| c.object == target || Some(&c.object) == of.as_ref())
                    .cloned()
                    .collect();
                self.emit(
                    EmitKind::MergeFrom {
                        object: cut(object),
                        base: base_expr.clone(),
                        lock: *lock,
                        strategic: *strategic,
                        changes,
                    },
                    *made,
                    How::Sent(if *strategic {
                        PatchType::Strategic
                    } else {
                        PatchType::Merge
                    }),
                );
            }
            CrPatch::Whole(_) => {}
        }
    }

    fn sprintf(&mut self, args: &[TsNode<'f>]) -> Val {
        let Some(format_node) = args.first() else {
            return Val::Unknown(String::new());
        };
        let format = match self.expr(*format_node) {
            Val::Str(t) => match t.literal() {
                Some(s) => s,
                None => return Val::Unknown(cut(self.text(*format_node))),
            },
            _ => return Val::Unknown(cut(self.text(*format_node))),
        };
        let vals: Vec<Val> = args[1..].iter().map(|a| self.expr(*a)).collect();
        let exprs: Vec<&str> = args[1..].iter().map(|a| self.text(*a)).collect();
        let mut out = Text::default();
        let mut next = 0usize;
        let mut chars = format.chars().peekable();
        let mut lit = String::new();
        while let Some(c) = chars.next() {
            if c != '%' {
                lit.push(c);
                continue;
            }
            if chars.peek() == Some(&'%') {
                chars.next();
                lit.push('%');
                continue;
            }
            // flags, width, precision, explicit index
            let mut explicit: Option<usize> = None;
            while let Some(&d) = chars.peek() {
                if "+-# 0123456789.*".contains(d) {
                    chars.next();
                } else if d == '[' {
                    chars.next();
                    let mut n = String::new();
                    while let Some(&x) = chars.peek() {
                        chars.next();
                        if x == ']' {
                            break;
                        }
                        n.push(x);
                    }
                    explicit = n.parse::<usize>().ok().map(|n| n.saturating_sub(1));
                } else {
                    break;
                }
            }
            let Some(verb) = chars.next() else { break };
            let index = explicit.unwrap_or(next);
            next = index + 1;
            out.push_str(&lit);
            lit.clear();
            let (Some(val), Some(expr)) = (vals.get(index), exprs.get(index)) else {
                out.append(&Text::hole("?", HoleKind::Text));
                continue;
            };
            let piece = match verb {
                'd' => match val {
                    Val::Const(serde_json::Value::Number(n)) => Text::lit(n.to_string()),
                    _ => Text::hole(cut(expr), HoleKind::Index),
                },
                'q' => match val.text().and_then(Text::literal) {
                    Some(s) => Text::lit(serde_json::to_string(&s).unwrap_or_default()),
                    None => Text::hole(cut(expr), HoleKind::Quoted),
                },
                's' | 'v' | 't' => self.to_text(val, expr),
                _ => Text::hole(cut(expr), HoleKind::Text),
            };
            out.append(&piece);
        }
        out.push_str(&lit);
        Val::Str(out)
    }
}

/// Methods that change a collection of their receiver.
/// The argument holding the object and the collection a controllerutil,
/// meta or conditions helper changes.
fn collection_helper(pkg: Pkg, name: &str) -> Option<(usize, Coll)> {
    match (pkg, name) {
        (Pkg::Controllerutil, "AddFinalizer" | "RemoveFinalizer") => Some((0, Coll::Finalizers)),
        (
            Pkg::Controllerutil,
            "SetControllerReference"
            | "SetOwnerReference"
            | "RemoveOwnerReference"
            | "RemoveControllerReference",
        ) => Some((1, Coll::OwnerReferences)),
        (Pkg::Meta, "SetStatusCondition" | "RemoveStatusCondition") => Some((0, Coll::Conditions)),
        (Pkg::Conditions, n) if n.starts_with("Mark") || n.starts_with("Set") || n == "Delete" => {
            Some((0, Coll::Conditions))
        }
        _ => None,
    }
}

fn mutating_method(name: &str) -> Option<Coll> {
    match name {
        "SetFinalizers" | "AddFinalizer" | "RemoveFinalizer" | "SetOwnerReferences"
        | "SetLabels" | "SetAnnotations" => Coll::of_field(name).or(Some(Coll::Finalizers)),
        "SetConditions" | "SetCondition" | "SetStatusCondition" => Some(Coll::Conditions),
        _ => None,
    }
}

/// Functions (of packages the scanner does not know) that change a
/// collection of their first argument, by name (`controller.AddFinalizer(vmi, f)`).
fn mutating_function(name: &str) -> Option<Coll> {
    if (name.starts_with("Add")
        || name.starts_with("Remove")
        || name.starts_with("Set")
        || name.starts_with("Ensure"))
        && name.ends_with("Finalizer")
    {
        return Some(Coll::Finalizers);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roots_and_aliases() {
        assert_eq!(root("&obj.Status.Conditions"), "obj");
        assert_eq!(root("kvCopy.ObjectMeta.Finalizers"), "kvCopy");
        assert_eq!(root("r.cluster"), "r.cluster");
        assert_eq!(default_alias("gomodules.xyz/jsonpatch/v2"), "jsonpatch");
        assert_eq!(default_alias("k8s.io/apimachinery/pkg/types"), "types");
        assert_eq!(
            classify("kubevirt.io/kubevirt/pkg/apimachinery/patch"),
            Pkg::KvPatch
        );
        assert_eq!(classify("gomodules.xyz/jsonpatch/v2"), Pkg::JsonPatchLib);
        assert_eq!(
            classify("sigs.k8s.io/cluster-api/util/conditions"),
            Pkg::Conditions
        );
    }
}
