//! Go source through tree-sitter: parsing, node helpers, positions and
//! string literals.

use std::iter::Peekable;
use std::str::Chars;

use tree_sitter::{Node, Parser, Tree};

use super::{ScanError, ScanErrorKind, MAX_FILE_BYTES};

/// A parsed Go file: its text and syntax tree.
pub struct GoFile<'a> {
    /// Its index among the files of one scan of a package (positions
    /// carry it).
    pub id: u32,
    /// The file's name as reported.
    pub name: &'a str,
    /// The source text.
    pub text: &'a str,
    /// The syntax tree (tree-sitter recovers from syntax errors: an
    /// unparsable region becomes an `ERROR` node, the rest is still read).
    pub tree: Tree,
}

/// A parser for Go, one per thread.
pub fn parser() -> Parser {
    let mut parser = Parser::new();
    // The grammar is compiled into this binary: its ABI version always
    // matches the runtime's, so this cannot fail in practice; a failure
    // would surface as `parse` returning no tree.
    let _ = parser.set_language(&tree_sitter_go::LANGUAGE.into());
    parser
}

/// Parses `text` as Go.
///
/// # Errors
///
/// [`ScanErrorKind::TooLarge`] above [`MAX_FILE_BYTES`],
/// [`ScanErrorKind::Parse`] when the parser gives up.
pub fn parse<'a>(
    parser: &mut Parser,
    id: u32,
    name: &'a str,
    text: &'a str,
) -> Result<GoFile<'a>, ScanError> {
    if text.len() > MAX_FILE_BYTES {
        return Err(ScanError::new(
            name,
            ScanErrorKind::TooLarge {
                bytes: text.len() as u64,
                limit: MAX_FILE_BYTES as u64,
            },
        ));
    }
    let tree = parser
        .parse(text, None)
        .ok_or_else(|| ScanError::new(name, ScanErrorKind::Parse))?;
    Ok(GoFile {
        id,
        name,
        text,
        tree,
    })
}

/// Text every file that builds or sends a patch contains: `Patch` (types,
/// methods, `PatchOperation`), `patch.` (KubeVirt's builder), `MergeFrom`,
/// `"op` (JSON text and op maps) or `Op:` (op structs). Files without any
/// are not parsed: they can hold only constants other files use.
const TRIGGERS: [&str; 5] = ["Patch", "patch.", "MergeFrom", "\"op", "Op:"];

/// True when `text` may build or send a patch (see [`TRIGGERS`]).
pub fn may_patch(text: &str) -> bool {
    TRIGGERS.iter().any(|t| text.contains(t))
}

/// The top-level `const`, `var` and `type` declarations of
/// gofmt-formatted Go source (they start at column 0), as a file of their
/// own: what a file that builds no patch contributes to its package (its
/// constants, and the fields of its structs). The result is parsed like
/// any file.
pub fn declarations(text: &str) -> String {
    let mut out = String::from("package p\n");
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let is_decl = ["const ", "const(", "var ", "var(", "type ", "type("]
            .iter()
            .any(|p| line.starts_with(p));
        if !is_decl {
            continue;
        }
        out.push_str(line);
        out.push('\n');
        if line.trim_end().ends_with('(') {
            for inner in lines.by_ref() {
                out.push_str(inner);
                out.push('\n');
                if inner.starts_with(')') {
                    break;
                }
            }
            continue;
        }
        // A single declaration whose value continues on the next lines.
        let mut depth = balance(line);
        while depth > 0 {
            let Some(inner) = lines.next() else { break };
            out.push_str(inner);
            out.push('\n');
            depth += balance(inner);
        }
    }
    out
}

/// Opening minus closing brackets on a line, strings and comments aside.
fn balance(line: &str) -> i64 {
    let mut depth = 0;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    let mut prev = ' ';
    for c in line.chars() {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' && q != '`' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '`' | '\'' => quote = Some(c),
            '/' if prev == '/' => break,
            '(' | '{' | '[' => depth += 1,
            ')' | '}' | ']' => depth -= 1,
            _ => {}
        }
        prev = c;
    }
    depth
}

/// Where something is: the file (its [`GoFile::id`]), 1-based line and
/// column (in characters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    /// The file's id.
    pub file: u32,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

impl GoFile<'_> {
    /// The source text of `node`.
    pub fn text_of(&self, node: Node) -> &str {
        self.text.get(node.byte_range()).unwrap_or("")
    }

    /// Where `node` starts.
    pub fn pos(&self, node: Node) -> Pos {
        let point = node.start_position();
        let start = node.start_byte();
        let line_start = start.saturating_sub(point.column);
        let column = self
            .text
            .get(line_start..start)
            .map_or(point.column, |s| s.chars().count());
        Pos {
            file: self.id,
            line: point.row + 1,
            column: column + 1,
        }
    }
}

/// The named children of `node`, comments left out.
pub fn children(node: Node) -> Vec<Node> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor)
        .filter(|n| n.kind() != "comment")
        .collect()
}

/// The field `name` of `node`.
pub fn field<'t>(node: Node<'t>, name: &str) -> Option<Node<'t>> {
    node.child_by_field_name(name)
}

/// Every child in field `name` (an `expression_list` is flattened).
pub fn field_list<'t>(node: Node<'t>, name: &str) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    let found: Vec<Node<'t>> = node.children_by_field_name(name, &mut cursor).collect();
    let mut out = Vec::new();
    for n in found {
        if n.kind() == "expression_list" {
            out.extend(children(n));
        } else {
            out.push(n);
        }
    }
    out
}

/// The specs of an `import`, `var` or `const` declaration, in
/// parentheses or not.
pub fn specs(decl: Node) -> Vec<Node> {
    let mut out = Vec::new();
    for child in children(decl) {
        if child.kind().ends_with("_spec") {
            out.push(child);
        } else if child.kind().ends_with("_spec_list") {
            out.extend(
                children(child)
                    .into_iter()
                    .filter(|s| s.kind().ends_with("_spec")),
            );
        }
    }
    out
}

/// The value of a Go string literal (interpreted or raw), or `None` when
/// `node` is not one.
pub fn string_literal(file: &GoFile, node: Node) -> Option<String> {
    let text = file.text_of(node);
    match node.kind() {
        "raw_string_literal" => {
            let inner = text.strip_prefix('`')?.strip_suffix('`')?;
            Some(inner.replace('\r', ""))
        }
        "interpreted_string_literal" => {
            let inner = text.strip_prefix('"')?.strip_suffix('"')?;
            Some(unescape(inner))
        }
        _ => None,
    }
}

/// Go's escapes in an interpreted string literal (invalid ones kept as
/// written: the compiler would refuse the file anyway).
pub fn unescape(inner: &str) -> String {
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars().peekable();
    // Bytes of `\x` and octal escapes, decoded together (they may spell
    // UTF-8).
    let mut bytes: Vec<u8> = Vec::new();
    let flush = |bytes: &mut Vec<u8>, out: &mut String| {
        if !bytes.is_empty() {
            out.push_str(&String::from_utf8_lossy(bytes));
            bytes.clear();
        }
    };
    while let Some(c) = chars.next() {
        if c != '\\' {
            flush(&mut bytes, &mut out);
            out.push(c);
            continue;
        }
        let Some(e) = chars.next() else {
            out.push('\\');
            break;
        };
        match e {
            'x' => bytes.extend(number(&digits(&mut chars, 2, 16), 16).map(|v| v as u8)),
            '0'..='7' => {
                let octal = format!("{e}{}", digits(&mut chars, 2, 8));
                bytes.extend(number(&octal, 8).map(|v| v as u8));
            }
            'u' | 'U' => {
                flush(&mut bytes, &mut out);
                let n = if e == 'u' { 4 } else { 8 };
                out.extend(number(&digits(&mut chars, n, 16), 16).and_then(char::from_u32));
            }
            _ => {
                flush(&mut bytes, &mut out);
                match simple_escape(e) {
                    Some(s) => out.push(s),
                    None => out.extend(['\\', e]),
                }
            }
        }
    }
    flush(&mut bytes, &mut out);
    out
}

/// The character a one-letter escape (`\n`, `\"`, ...) stands for.
fn simple_escape(e: char) -> Option<char> {
    Some(match e {
        'n' => '\n',
        't' => '\t',
        'r' => '\r',
        'a' => '\u{7}',
        'b' => '\u{8}',
        'f' => '\u{c}',
        'v' => '\u{b}',
        '\\' | '"' | '\'' => e,
        _ => return None,
    })
}

/// Up to `n` digits of `radix` from `chars`.
fn digits(chars: &mut Peekable<Chars>, n: usize, radix: u32) -> String {
    let mut s = String::new();
    while s.len() < n {
        match chars.next_if(|d| d.is_digit(radix)) {
            Some(d) => s.push(d),
            None => break,
        }
    }
    s
}

fn number(digits: &str, radix: u32) -> Option<u32> {
    u32::from_str_radix(digits, radix).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_escapes_are_decoded() {
        assert_eq!(unescape(r#"a\"b\n\t\\"#), "a\"b\n\t\\");
        assert_eq!(unescape(r"\u00e9\x41\101\U0001F600"), "éAA😀");
        assert_eq!(unescape(r"\xc3\xa9"), "é");
    }

    #[test]
    fn declarations_are_cut_out_whole() {
        let text = "package x\n\nimport \"fmt\"\n\nconst A = \"/metadata/\" + \"labels\"\n\nconst (\n\tB = \"b\" // (\n\tC = 1\n)\n\nvar m = map[string]string{\n\t\"a\": \"}\",\n}\n\nfunc f() {\n\tconst local = 1\n}\n";
        let decls = declarations(text);
        assert_eq!(
            decls,
            "package p\nconst A = \"/metadata/\" + \"labels\"\nconst (\n\tB = \"b\" // (\n\tC = 1\n)\nvar m = map[string]string{\n\t\"a\": \"}\",\n}\n"
        );
        assert!(may_patch("x := patch.New()"));
        assert!(may_patch("body := `[{\"op\": \"add\"}]`"));
        assert!(!may_patch("func f() { return match(x) }"));
    }

    #[test]
    fn positions_count_characters() {
        let text = "package x\n\nvar é, b = 1, \"s\"\n";
        let mut parser = parser();
        let file = parse(&mut parser, 0, "x.go", text).unwrap();
        let root = file.tree.root_node();
        let mut found = None;
        let mut stack = vec![root];
        while let Some(n) = stack.pop() {
            if n.kind() == "interpreted_string_literal" {
                found = Some(n);
            }
            stack.extend(children(n));
        }
        let lit = found.unwrap();
        assert_eq!(
            file.pos(lit),
            Pos {
                file: 0,
                line: 3,
                column: 15
            }
        );
        assert_eq!(string_literal(&file, lit).as_deref(), Some("s"));
    }
}
