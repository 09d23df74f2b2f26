//! The interpreter: walks each function's statements in order and follows
//! what flows into patches: builder calls, op literals, JSON text, patch
//! types, `MergeFrom` bases and the changes made after them.
//!
//! It is deliberately simple: one pass over each function, every branch
//! taken (the ops added in `if`/`else` arms and loop bodies are kept as
//! alternatives, see [`Node::Choice`](super::value::Node::Choice)), no
//! calls followed into other functions, constants resolved within the
//! package.
//!
//! This file holds the walk's state ([`Unit`] for a file, `Func` for one
//! function); each file of `eval/` adds one kind of step to `Func`.

mod branches;
mod calls;
mod changes;
mod closures;
mod emit;
mod expressions;
mod imports;
mod kubevirt;
mod literals;
mod ops;
mod packages;
mod sends;
mod sprintf;
mod statements;
#[cfg(test)]
mod tests;

use std::cell::Cell;
use std::collections::{HashMap, HashSet};

use tree_sitter::Node as TsNode;

pub use changes::{Change, Coll};
pub use emit::{Emit, EmitKind, How};
use imports::Pkg;

use super::go::{children, field, GoFile, Pos};
use super::value::Val;

/// Most statements and expressions evaluated in one function.
const MAX_STEPS: usize = 200_000;
/// Deepest nesting of statements and expressions followed.
const MAX_DEPTH: usize = 200;

/// Package-level constants and variables: what the package's files
/// declare outside functions, by name.
#[derive(Debug, Default)]
pub struct Package {
    /// Values by name.
    pub values: HashMap<String, Val>,
}

/// What the variables of a function hold, by name.
type Env = HashMap<String, Val>;

/// A file being scanned.
pub struct Unit<'f, 'a> {
    file: &'f GoFile<'a>,
    imports: HashMap<String, Pkg>,
    package: &'f Package,
    next_id: Cell<u32>,
}

impl<'f, 'a> Unit<'f, 'a> {
    /// Prepares `file` of `package`.
    pub fn new(file: &'f GoFile<'a>, package: &'f Package) -> Unit<'f, 'a> {
        Unit {
            file,
            imports: imports::read(file),
            package,
            next_id: Cell::new(1),
        }
    }

    fn id(&self) -> u32 {
        let id = self.next_id.get();
        self.next_id.set(id.wrapping_add(1));
        id
    }

    /// Every payload the file's functions build or send.
    pub fn emits(&self) -> Vec<Emit> {
        let mut out = Vec::new();
        for decl in children(self.file.tree.root_node()) {
            let (Some(name), Some(body)) = (self.function_name(decl), field(decl, "body")) else {
                continue;
            };
            let mut func = Func::new(self, name);
            func.block(body);
            func.finish();
            out.extend(func.emits);
        }
        out
    }

    /// A function's or method's name as Go prints it
    /// (`(*Controller).patchVMI`); `None` for other declarations (a
    /// package-level variable holding a patch is judged where it is sent).
    fn function_name(&self, decl: TsNode) -> Option<String> {
        let name = |node| field(node, "name").map_or("", |n| self.file.text_of(n));
        match decl.kind() {
            "function_declaration" => Some(name(decl).to_owned()),
            "method_declaration" => {
                let receiver = field(decl, "receiver")
                    .and_then(|r| children(r).into_iter().next())
                    .and_then(|p| field(p, "type"))
                    .map_or("", |t| self.file.text_of(t));
                let receiver = receiver.split('[').next().unwrap_or(receiver);
                Some(match receiver.strip_prefix('*') {
                    Some(base) => format!("(*{base}).{}", name(decl)),
                    None => format!("{receiver}.{}", name(decl)),
                })
            }
            _ => None,
        }
    }
}

/// Adds `file`'s package-level constants and variables to `values`.
pub fn declare(file: &GoFile, values: &mut HashMap<String, Val>) {
    let empty = Package::default();
    let unit = Unit {
        file,
        imports: imports::read(file),
        package: &empty,
        next_id: Cell::new(1_000_000),
    };
    let mut func = Func::new(&unit, "(package)".to_owned());
    func.env = values.clone();
    func.closures = false;
    for decl in children(file.tree.root_node()) {
        if !matches!(decl.kind(), "const_declaration" | "var_declaration") {
            continue;
        }
        func.stmt(decl);
        // Only the names the declaration declares (not what its
        // initializers assign on the way).
        for name in statements::declared_names(file, decl) {
            if let Some(val) = func.env.get(&name) {
                if !matches!(val, Val::Unknown(_)) {
                    values.insert(name, val.clone());
                }
            }
        }
    }
}

/// A call expression and its arguments.
#[derive(Clone, Copy)]
struct Call<'c, 'f> {
    node: TsNode<'f>,
    args: &'c [TsNode<'f>],
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

    /// The node's text, short (for messages).
    fn short(&self, node: TsNode<'f>) -> String {
        cut(self.text(node))
    }

    fn pos(&self, node: TsNode<'f>) -> Pos {
        self.unit.file.pos(node)
    }

    fn budget(&mut self) -> bool {
        self.steps += 1;
        self.steps <= MAX_STEPS && self.depth <= MAX_DEPTH
    }

    fn lookup(&self, name: &str) -> Option<&Val> {
        self.env
            .get(name)
            .or_else(|| self.unit.package.values.get(name))
    }
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
