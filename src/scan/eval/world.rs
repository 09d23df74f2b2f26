//! The files of one scan of a package, with what they declare: the
//! package's own files, and files of other packages of the module whose
//! functions its code calls (read for those functions only).

use std::cell::Cell;
use std::collections::HashMap;

use tree_sitter::Node as TsNode;

use super::imports::{self, Pkg};
use super::{statements, Emit, Func};
use crate::scan::go::{children, field, field_list, GoFile};
use crate::scan::value::Val;

/// Package-level declarations whose initializer is longer than this are
/// not evaluated (a generated table of strings holds no patch, and
/// reading it whole would cost time and memory for nothing).
pub const MAX_DECLARED_BYTES: usize = 64 * 1024;

/// A function or method declaration: where it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct FnDecl {
    /// The unit (file) it is in.
    pub unit: usize,
    /// Its first byte.
    pub start: usize,
    /// Past its last byte.
    pub end: usize,
    /// A method (has a receiver).
    pub method: bool,
}

/// One Go package: its constants and variables, functions and methods by
/// name, and the fields of its struct types.
#[derive(Debug, Default)]
pub(super) struct Scope {
    /// Its import path (empty for the package scanned).
    pub path: String,
    /// Constants and variables.
    pub values: HashMap<String, Val>,
    /// Functions and methods, by name.
    pub funcs: HashMap<String, Vec<FnDecl>>,
    /// Struct types: field name to Go type, by type name.
    pub fields: HashMap<String, HashMap<String, String>>,
}

/// One file of the world.
pub(super) struct Unit<'f, 'a> {
    pub file: &'f GoFile<'a>,
    /// Well-known packages, by the name the file uses.
    pub imports: HashMap<String, Pkg>,
    /// Import paths, by the name the file uses.
    pub paths: HashMap<String, String>,
    /// Its package (index into the scopes).
    pub scope: usize,
}

/// The files of one scan of a package and what they declare.
pub struct World<'f, 'a> {
    pub(super) units: Vec<Unit<'f, 'a>>,
    pub(super) scopes: Vec<Scope>,
    /// The units whose functions are walked (the package's own files
    /// that may build or send a patch).
    walked: Vec<usize>,
    next_id: Cell<u32>,
}

impl<'f, 'a> World<'f, 'a> {
    /// The world of a package's `own` files (those `walked` are walked)
    /// and `foreign` ones, each with its import path.
    pub fn new(
        own: &'f [GoFile<'a>],
        walked: &[bool],
        foreign: &'f [(String, GoFile<'a>)],
    ) -> World<'f, 'a> {
        let mut world = World {
            units: Vec::new(),
            scopes: vec![Scope::default()],
            walked: (0..own.len())
                .filter(|i| walked.get(*i) == Some(&true))
                .collect(),
            next_id: Cell::new(1),
        };
        for file in own {
            world.add(file, 0);
        }
        for (path, file) in foreign {
            let scope = match world.scopes.iter().position(|s| &s.path == path) {
                Some(i) => i,
                None => {
                    world.scopes.push(Scope {
                        path: path.clone(),
                        ..Scope::default()
                    });
                    world.scopes.len() - 1
                }
            };
            world.add(file, scope);
        }
        world.index();
        world
    }

    fn add(&mut self, file: &'f GoFile<'a>, scope: usize) {
        let (imports, paths) = imports::read(file);
        self.units.push(Unit {
            file,
            imports,
            paths,
            scope,
        });
    }

    /// Indexes functions and struct fields, then evaluates the package
    /// declarations (twice: a constant may use one declared later).
    fn index(&mut self) {
        for unit in 0..self.units.len() {
            let file = self.units[unit].file;
            let scope = self.units[unit].scope;
            for decl in children(file.tree.root_node()) {
                index_decl(&mut self.scopes[scope], file, unit, decl);
            }
        }
        for _ in 0..2 {
            for unit in 0..self.units.len() {
                let values = declare(self, unit);
                let scope = self.units[unit].scope;
                self.scopes[scope].values.extend(values);
            }
        }
    }

    pub(super) fn id(&self) -> u32 {
        let id = self.next_id.get();
        self.next_id.set(id.wrapping_add(1));
        id
    }

    /// A package-level value seen from `unit`.
    pub(super) fn value(&self, unit: usize, name: &str) -> Option<&Val> {
        self.scopes[self.units[unit].scope].values.get(name)
    }

    /// The scope of the package with import path `path`.
    pub(super) fn scope_of(&self, path: &str) -> Option<usize> {
        self.scopes
            .iter()
            .position(|s| s.path == path && !path.is_empty())
    }

    /// Every payload the functions of the package's own files build or
    /// send.
    pub fn emits(&self) -> Vec<Emit> {
        let mut out = Vec::new();
        for &unit in &self.walked {
            let file = self.units[unit].file;
            for decl in children(file.tree.root_node()) {
                let (Some(name), Some(body)) = (function_name(file, decl), field(decl, "body"))
                else {
                    continue;
                };
                let mut func = Func::new(self, unit, name);
                func.bind_signature(decl, &[], None);
                func.run(body);
                func.finish();
                out.extend(func.emits);
            }
        }
        out
    }

    /// The declaration node of `decl`.
    pub(super) fn node(&self, decl: FnDecl) -> Option<TsNode<'f>> {
        let file = self.units[decl.unit].file;
        let root = file.tree.root_node();
        let mut node = root.descendant_for_byte_range(decl.start, decl.end)?;
        while !(matches!(node.kind(), "function_declaration" | "method_declaration")
            && node.start_byte() == decl.start)
        {
            node = node.parent()?;
        }
        Some(node)
    }
}

/// Adds a function, method or struct type declaration to `scope`.
fn index_decl(scope: &mut Scope, file: &GoFile, unit: usize, decl: TsNode) {
    match decl.kind() {
        "function_declaration" | "method_declaration" => {
            let Some(name) = field(decl, "name") else {
                return;
            };
            scope
                .funcs
                .entry(file.text_of(name).to_owned())
                .or_default()
                .push(FnDecl {
                    unit,
                    start: decl.start_byte(),
                    end: decl.end_byte(),
                    method: decl.kind() == "method_declaration",
                });
        }
        "type_declaration" => {
            for spec in children(decl)
                .into_iter()
                .filter(|s| s.kind() == "type_spec")
            {
                if let (Some(name), Some(ty)) = (field(spec, "name"), field(spec, "type")) {
                    if ty.kind() == "struct_type" {
                        let fields = struct_fields(file, ty);
                        scope.fields.insert(file.text_of(name).to_owned(), fields);
                    }
                }
            }
        }
        _ => {}
    }
}

/// The fields of a struct type: name to Go type (an embedded field by
/// its type's name).
fn struct_fields(file: &GoFile, ty: TsNode) -> HashMap<String, String> {
    let mut out = HashMap::new();
    let lists = children(ty)
        .into_iter()
        .filter(|c| c.kind() == "field_declaration_list");
    for list in lists {
        for decl in children(list) {
            let Some(t) = field(decl, "type") else {
                continue;
            };
            let t = file.text_of(t).to_owned();
            let names = field_list(decl, "name");
            if names.is_empty() {
                let base = t.trim_start_matches('*');
                let base = base.rsplit('.').next().unwrap_or(base);
                out.insert(base.to_owned(), t.clone());
            }
            for name in names {
                out.insert(file.text_of(name).to_owned(), t.clone());
            }
        }
    }
    out
}

/// A function's or method's name as Go prints it
/// (`(*Controller).patchVMI`); `None` for other declarations (a
/// package-level variable holding a patch is judged where it is sent).
pub(super) fn function_name(file: &GoFile, decl: TsNode) -> Option<String> {
    let name = |node| field(node, "name").map_or("", |n| file.text_of(n));
    match decl.kind() {
        "function_declaration" => Some(name(decl).to_owned()),
        "method_declaration" => {
            let receiver = receiver_type(file, decl);
            Some(match receiver.strip_prefix('*') {
                Some(base) => format!("(*{base}).{}", name(decl)),
                None => format!("{receiver}.{}", name(decl)),
            })
        }
        _ => None,
    }
}

/// A method's receiver type as written, type parameters left out
/// (`*Controller`).
pub(super) fn receiver_type<'t>(file: &'t GoFile, decl: TsNode) -> &'t str {
    let receiver = field(decl, "receiver")
        .and_then(|r| children(r).into_iter().next())
        .and_then(|p| field(p, "type"))
        .map_or("", |t| file.text_of(t));
    receiver.split('[').next().unwrap_or(receiver)
}

/// `unit`'s package-level constants and variables, as far as they are
/// known.
fn declare(world: &World, unit: usize) -> HashMap<String, Val> {
    let file = world.units[unit].file;
    let mut func = Func::new(world, unit, "(package)".to_owned());
    func.closures = false;
    let mut values = HashMap::new();
    for decl in children(file.tree.root_node()) {
        if !matches!(decl.kind(), "const_declaration" | "var_declaration")
            || decl.byte_range().len() > MAX_DECLARED_BYTES
        {
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
    values
}
