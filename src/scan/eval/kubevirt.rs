//! KubeVirt's patch package (`pkg/apimachinery/patch`): the builder
//! (`New`, `WithTest`, ...), its generators and its escaper.

use tree_sitter::Node as TsNode;

use super::ops::{nodes_or_opaque, push_ops};
use super::{Call, Func};
use crate::patch::OpKind;
use crate::pointer::escape;
use crate::scan::go::Pos;
use crate::scan::value::{HoleKind, Node, Shape, Text, Val, Via};

impl<'f> Func<'_, 'f, '_> {
    /// A call of KubeVirt's patch package (`None`: not modelled).
    pub(super) fn kv_patch_call(&mut self, name: &str, call: Call<'_, 'f>) -> Option<Val> {
        let Call { node, args } = call;
        let at = self.pos(node);
        Some(match name {
            "New" => {
                let mut nodes = Vec::new();
                push_ops(&mut nodes, &self.exprs_with_text(args), None);
                Val::Ops(nodes)
            }
            "WithTest" => self.builder_op(OpKind::Test, call),
            "WithAdd" => self.builder_op(OpKind::Add, call),
            "WithReplace" => self.builder_op(OpKind::Replace, call),
            "WithRemove" => self.builder_op(OpKind::Remove, call),
            "GenerateTestReplacePatch" if args.len() == 3 => self.test_replace_patch(args, at),
            "GeneratePatchPayload" => {
                let items = self.exprs_with_text(args);
                let nodes = items.iter().flat_map(|(v, t)| nodes_or_opaque(v, t));
                self.generated(nodes.collect(), at)
            }
            "EscapeJSONPointer" => self.escape_call(args.first().copied()),
            "GeneratePerKeyMapPatches" if args.len() == 3 => self.per_key_map_patches(args, at),
            _ => return None,
        })
    }

    /// The path argument `arg` as text.
    fn path_arg(&mut self, arg: TsNode<'f>) -> Text {
        let val = self.expr(arg);
        self.to_text(&val, self.text(arg))
    }

    /// `patch.WithTest(path, value)` and its siblings: one op, added to a
    /// builder.
    fn builder_op(&mut self, kind: OpKind, call: Call<'_, 'f>) -> Val {
        let Call { node, args } = call;
        let path = match args.first() {
            Some(p) => self.path_arg(*p),
            None => Text::default(),
        };
        let (value, value_expr) = match args.get(1) {
            _ if kind == OpKind::Remove => (None, String::new()),
            Some(v) => (Some(self.expr(*v)), self.short(*v)),
            None => (Some(Val::Nil), String::new()),
        };
        let via = Via::Builder { recv: None };
        let op = self.new_op(Some(kind), path, value, value_expr, self.pos(node), via);
        Val::Op(Box::new(op))
    }

    /// One op of a helper that expands to several.
    fn helper_op(&self, kind: OpKind, path: &Text, value: Option<(Val, String)>, at: Pos) -> Node {
        let (value, value_expr) = value.map_or((None, String::new()), |(v, e)| (Some(v), e));
        Node::Op(self.new_op(Some(kind), path.clone(), value, value_expr, at, Via::Helper))
    }

    /// `GenerateTestReplacePatch(path, old, new)`: a marshalled test and
    /// replace of one path, emitted.
    fn test_replace_patch(&mut self, args: &[TsNode<'f>], at: Pos) -> Val {
        let path = self.path_arg(args[0]);
        let old = (self.expr(args[1]), self.short(args[1]));
        let new = (self.expr(args[2]), self.short(args[2]));
        let nodes = vec![
            self.helper_op(OpKind::Test, &path, Some(old), at),
            self.helper_op(OpKind::Replace, &path, Some(new), at),
        ];
        self.generated(nodes, at)
    }

    /// `GeneratePerKeyMapPatches(path, old, new)`: an absent or empty old
    /// map is tested and added whole; otherwise one of remove, test +
    /// replace or add per key.
    fn per_key_map_patches(&mut self, args: &[TsNode<'f>], at: Pos) -> Val {
        let path = self.path_arg(args[0]);
        self.expr(args[1]);
        self.expr(args[2]);
        let old = self.short(args[1]);
        let new = self.short(args[2]);
        let mut key_path = path.clone();
        key_path.push_str("/");
        key_path.append(&Text::hole("key", HoleKind::Escaped));
        let op = |kind, path: &Text, value| self.helper_op(kind, path, value, at);
        let element = |e: &str| {
            let expr = format!("{e}[key]");
            Some((Val::opaque(Shape::Element, expr.clone()), expr))
        };
        let new_map = Val::opaque(Shape::Map, new.clone());
        let whole = vec![
            op(OpKind::Test, &path, Some((Val::Nil, old.clone()))),
            op(OpKind::Add, &path, Some((new_map, new.clone()))),
        ];
        let per_key = vec![Node::Choice(vec![
            vec![op(OpKind::Remove, &key_path, None)],
            vec![
                op(OpKind::Test, &key_path, element(&old)),
                op(OpKind::Replace, &key_path, element(&new)),
            ],
            vec![op(OpKind::Add, &key_path, element(&new))],
        ])];
        Val::Ops(vec![Node::Choice(vec![whole, per_key])])
    }

    /// `patch.EscapeJSONPointer(arg)` (or a `strings.Replacer` that
    /// escapes): the escaped token.
    pub(super) fn escape_call(&mut self, arg: Option<TsNode<'f>>) -> Val {
        let Some(arg) = arg else {
            return Val::Unknown(String::new());
        };
        match self.expr(arg).literal() {
            Some(s) => Val::Str(Text::lit(escape(&s))),
            None => Val::Str(Text::hole(self.short(arg), HoleKind::Escaped)),
        }
    }
}
