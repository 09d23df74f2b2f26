//! `fmt.Sprintf`: the format's text with each verb replaced by its
//! argument, known or a hole.

use std::iter::Peekable;
use std::str::Chars;

use tree_sitter::Node as TsNode;

use super::{cut, Func};
use crate::scan::value::{HoleKind, Shape, Text, Val};

/// Skips a verb's flags, width and precision; returns its explicit
/// argument index (`%[2]s`), zero-based.
fn skip_flags(chars: &mut Peekable<Chars>) -> Option<usize> {
    let mut explicit = None;
    while let Some(&d) = chars.peek() {
        if "+-# 0123456789.*".contains(d) {
            chars.next();
        } else if d == '[' {
            chars.next();
            let n: String = chars.by_ref().take_while(|&x| x != ']').collect();
            explicit = n.parse::<usize>().ok().map(|n| n.saturating_sub(1));
        } else {
            break;
        }
    }
    explicit
}

/// A Go slice (not its JSON): `fmt` prints it `[a b]`.
fn go_list(val: &Val) -> bool {
    matches!(
        val,
        Val::List(_)
            | Val::Opaque {
                shape: Shape::List,
                ..
            }
    )
}

impl<'f> Func<'_, 'f, '_> {
    pub(super) fn sprintf(&mut self, args: &[TsNode<'f>]) -> Val {
        let Some(format_node) = args.first() else {
            return Val::Unknown(String::new());
        };
        let Some(format) = self.expr(*format_node).literal() else {
            return Val::Unknown(self.short(*format_node));
        };
        let vals = self.exprs_with_text(&args[1..]);
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
            let explicit = skip_flags(&mut chars);
            let Some(verb) = chars.next() else { break };
            let index = explicit.unwrap_or(next);
            next = index + 1;
            out.push_str(&lit);
            lit.clear();
            out.append(&match vals.get(index) {
                Some((val, expr)) => self.formatted(verb, val, expr),
                None => Text::hole("?", HoleKind::Text),
            });
        }
        out.push_str(&lit);
        Val::Str(out)
    }

    /// `fmt.Sprint(a, b)`: the operands' text, one after the other (Go
    /// puts a space between two operands only when neither is a string).
    pub(super) fn sprint(&mut self, args: &[TsNode<'f>]) -> Val {
        let mut out = Text::default();
        for (val, expr) in self.exprs_with_text(args) {
            out.append(&self.to_text(&val, expr));
        }
        Val::Str(out)
    }

    /// One argument formatted by `verb`.
    fn formatted(&self, verb: char, val: &Val, expr: &str) -> Text {
        match verb {
            'd' => match val {
                Val::Const(serde_json::Value::Number(n)) => Text::lit(n.to_string()),
                _ => Text::hole(cut(expr), HoleKind::Index),
            },
            'q' => match val.literal() {
                Some(s) => Text::lit(serde_json::to_string(&s).unwrap_or_default()),
                None => Text::hole(cut(expr), HoleKind::Quoted),
            },
            's' | 'v' if go_list(val) => Text::hole(cut(expr), HoleKind::GoList),
            's' | 'v' | 't' => self.to_text(val, expr),
            _ => Text::hole(cut(expr), HoleKind::Text),
        }
    }
}
