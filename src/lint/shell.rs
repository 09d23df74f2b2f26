//! Splits shell text into words and operators as bash does, far enough to
//! find a `kubectl patch` command in a runbook line: single and double
//! quotes, ANSI-C quoting (`$'...'`, which kubectl's own help uses),
//! backslashes and line continuations, comments, here-documents, and the
//! operators that join commands (`|`, `;`, `&&`, `>` ...). Expansions
//! (`$VAR`, `${VAR}`, `$(...)`, backquotes) are kept as written and
//! recorded: lint cannot know their values.
//!
//! One pass over the text, linear in its length.

use std::fmt;

/// What an escape of `$'...'` stands for: a character, or a byte.
enum Piece {
    Char(char),
    Byte(u8),
}

/// One token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Token {
    /// A word after quote removal.
    Word {
        /// The word's text.
        text: String,
        /// 1-based line where it starts.
        line: usize,
        /// Expansions inside it, as written (`$VMI`, `$(hostname)`).
        expansions: Vec<String>,
        /// Documentation placeholders inside it (`<pod-name>`), read as
        /// the names they stand for where bash would read a redirection.
        placeholders: Vec<String>,
    },
    /// An operator: `|`, `||`, `&`, `&&`, `;`, `;;`, `(`, `)`, a newline
    /// (`\n`), or a redirection (`>`, `>>`, `<`, `2>`, `&>`, `<<`, ...).
    Op {
        /// The operator as written.
        op: String,
        /// 1-based line.
        line: usize,
    },
}

impl Token {
    /// The line the token starts on.
    pub fn line(&self) -> usize {
        match self {
            Token::Word { line, .. } | Token::Op { line, .. } => *line,
        }
    }

    /// The word's text, for a word.
    pub fn word(&self) -> Option<&str> {
        match self {
            Token::Word { text, .. } => Some(text),
            Token::Op { .. } => None,
        }
    }
}

/// A word that runs kubectl: `kubectl`, `oc`, the `k` alias kubectl's
/// docs suggest, the snap's `microk8s.kubectl`, with a path or `.exe`.
pub fn is_kubectl(word: &str) -> bool {
    let name = word.rsplit('/').next().unwrap_or(word);
    let name = name.strip_suffix(".exe").unwrap_or(name);
    matches!(name, "kubectl" | "oc" | "k" | "microk8s.kubectl")
}

/// Why the text cannot be split.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShellError {
    /// What is wrong, in the shell's terms.
    pub message: String,
    /// 1-based line.
    pub line: usize,
    /// True when the text is over the word budget (not a syntax error).
    pub over_budget: bool,
}

impl fmt::Display for ShellError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// The most words a text may hold.
pub const MAX_WORDS: usize = crate::limits::SHELL_WORDS;

struct Lexer<'a> {
    chars: std::iter::Peekable<std::str::CharIndices<'a>>,
    text: &'a str,
    line: usize,
    out: Vec<Token>,
    word: Option<Word>,
    /// Here-documents waiting for their bodies: (delimiter, strip tabs,
    /// the line of the `<<`).
    heredocs: Vec<(String, bool, usize)>,
}

struct Word {
    text: String,
    line: usize,
    expansions: Vec<String>,
    placeholders: Vec<String>,
}

/// Splits `text` into tokens.
///
/// # Errors
///
/// [`ShellError`] for a quote or substitution never closed, or more than
/// [`MAX_WORDS`] words.
pub fn split(text: &str) -> Result<Vec<Token>, ShellError> {
    let mut lexer = Lexer {
        chars: text.char_indices().peekable(),
        text,
        line: 1,
        out: Vec::new(),
        word: None,
        heredocs: Vec::new(),
    };
    lexer.run()?;
    Ok(lexer.out)
}

impl Lexer<'_> {
    fn error(&self, message: impl Into<String>, line: usize) -> ShellError {
        ShellError {
            message: message.into(),
            line,
            over_budget: false,
        }
    }

    fn word(&mut self) -> &mut Word {
        let line = self.line;
        self.word.get_or_insert_with(|| Word {
            text: String::new(),
            line,
            expansions: Vec::new(),
            placeholders: Vec::new(),
        })
    }

    fn end_word(&mut self) -> Result<(), ShellError> {
        if let Some(word) = self.word.take() {
            if self.out.len() >= MAX_WORDS {
                return Err(ShellError {
                    over_budget: true,
                    ..self.error(format!("more than {MAX_WORDS} words"), word.line)
                });
            }
            self.out.push(Token::Word {
                text: word.text,
                line: word.line,
                expansions: word.expansions,
                placeholders: word.placeholders,
            });
        }
        Ok(())
    }

    fn op(&mut self, op: &str) -> Result<(), ShellError> {
        self.end_word()?;
        self.out.push(Token::Op {
            op: op.to_owned(),
            line: self.line,
        });
        Ok(())
    }

    fn next_is(&mut self, c: char) -> bool {
        if self.chars.peek().is_some_and(|&(_, n)| n == c) {
            self.chars.next();
            true
        } else {
            false
        }
    }

    fn run(&mut self) -> Result<(), ShellError> {
        while let Some((at, c)) = self.chars.next() {
            match c {
                '\n' => {
                    self.op("\n")?;
                    self.line += 1;
                    self.read_heredocs()?;
                }
                ' ' | '\t' | '\r' => self.end_word()?,
                '#' if self.word.is_none() => {
                    while self.chars.peek().is_some_and(|&(_, n)| n != '\n') {
                        self.chars.next();
                    }
                }
                '\\' => match self.chars.next() {
                    Some((_, '\n')) => self.line += 1,
                    Some((_, next)) => self.word().text.push(next),
                    None => self.word().text.push('\\'),
                },
                '\'' => self.single_quoted()?,
                '"' => self.double_quoted()?,
                '$' if self.chars.peek().is_some_and(|&(_, n)| n == '\'') => {
                    self.chars.next();
                    self.ansi_c()?;
                }
                '$' => self.expansion(at)?,
                '`' => self.backquoted(at)?,
                '<' if self.placeholder(at) => {}
                '|' | '&' | ';' | '(' | ')' | '<' | '>' => self.operator(c)?,
                other => self.word().text.push(other),
            }
        }
        self.end_word()
    }

    /// A documentation placeholder at `at` (the `<` just read):
    /// `<pod-name>`, `<name of patch file>`, `storageclass/<NAME>`. Bash
    /// reads its `<` and `>` as redirections; a reader of a runbook reads
    /// a name to fill in, and so does lint: the placeholder joins the word
    /// and is recorded. It starts with a letter and ends on the same line,
    /// without a space before its `>`, and what follows the `>` is no
    /// redirection target (a space, the end, or punctuation).
    fn placeholder(&mut self, at: usize) -> bool {
        let rest = &self.text[at + 1..];
        if !rest.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
            return false;
        }
        let Some(close) = rest.find(|c: char| {
            matches!(
                c,
                '>' | '<' | '\n' | '|' | ';' | '&' | '(' | ')' | '\'' | '"' | '$' | '`'
            )
        }) else {
            return false;
        };
        let inner = &rest[..close];
        let after = rest[close + 1..].chars().next();
        let ends_well = after.is_none_or(|c| {
            c.is_whitespace()
                || matches!(
                    c,
                    '/' | '.'
                        | ':'
                        | ','
                        | ';'
                        | '|'
                        | '&'
                        | ')'
                        | '\''
                        | '"'
                        | '='
                        | '-'
                        | '_'
                        | '@'
                        | '<'
                )
        });
        if !rest[close..].starts_with('>') || inner.ends_with(char::is_whitespace) || !ends_well {
            return false;
        }
        let written = format!("<{inner}>");
        for _ in 0..written.chars().count() - 1 {
            self.chars.next();
        }
        let word = self.word();
        word.text.push_str(&written);
        word.placeholders.push(written);
        true
    }

    fn operator(&mut self, c: char) -> Result<(), ShellError> {
        // `2>`, `2>&1`: a file descriptor number before a redirection.
        let fd = matches!(c, '<' | '>')
            && self
                .word
                .as_ref()
                .is_some_and(|w| !w.text.is_empty() && w.text.bytes().all(|b| b.is_ascii_digit()));
        let prefix = if fd {
            self.word.take().map(|w| w.text).unwrap_or_default()
        } else {
            String::new()
        };
        let op = match c {
            '|' if self.next_is('|') => "||".to_owned(),
            '|' if self.next_is('&') => "|&".to_owned(),
            '&' if self.next_is('&') => "&&".to_owned(),
            '&' if self.next_is('>') => "&>".to_owned(),
            ';' if self.next_is(';') => ";;".to_owned(),
            '>' if self.next_is('>') => format!("{prefix}>>"),
            '>' if self.next_is('&') => format!("{prefix}>&"),
            '<' if self.next_is('<') => {
                let strip = self.next_is('-');
                self.op("<<")?;
                return self.heredoc_delimiter(strip);
            }
            '<' | '>' => format!("{prefix}{c}"),
            other => other.to_string(),
        };
        self.op(&op)
    }

    fn heredoc_delimiter(&mut self, strip: bool) -> Result<(), ShellError> {
        while self
            .chars
            .peek()
            .is_some_and(|&(_, n)| n == ' ' || n == '\t')
        {
            self.chars.next();
        }
        let mut delimiter = String::new();
        while let Some(&(_, n)) = self.chars.peek() {
            if n.is_whitespace() || matches!(n, ';' | '|' | '&' | '<' | '>' | '(' | ')') {
                break;
            }
            self.chars.next();
            if n != '\'' && n != '"' && n != '\\' {
                delimiter.push(n);
            }
        }
        if delimiter.is_empty() {
            return Err(self.error("`<<` needs a delimiter word", self.line));
        }
        self.heredocs.push((delimiter, strip, self.line));
        Ok(())
    }

    /// After a newline: the bodies of pending here-documents, each up to
    /// its delimiter line, kept as one word after the `<<` operator.
    fn read_heredocs(&mut self) -> Result<(), ShellError> {
        let pending = std::mem::take(&mut self.heredocs);
        for (delimiter, strip, start) in pending {
            let mut body = String::new();
            loop {
                let Some(&(at, _)) = self.chars.peek() else {
                    return Err(self.error(
                        format!("the here-document that starts here never reaches its delimiter {delimiter:?}"),
                        start,
                    ));
                };
                let rest = &self.text[at..];
                let end = rest.find('\n').map_or(rest.len(), |i| i);
                let line = &rest[..end];
                for _ in 0..line.chars().count() {
                    self.chars.next();
                }
                let had_newline = self.chars.next().is_some();
                self.line += 1;
                let shown = if strip {
                    line.trim_start_matches('\t')
                } else {
                    line
                };
                if shown == delimiter {
                    break;
                }
                body.push_str(shown);
                body.push('\n');
                if !had_newline {
                    return Err(self.error(
                        format!("the here-document that starts here never reaches its delimiter {delimiter:?}"),
                        start,
                    ));
                }
            }
            self.out.push(Token::Word {
                text: body,
                line: start + 1,
                expansions: Vec::new(),
                placeholders: Vec::new(),
            });
        }
        Ok(())
    }

    /// A character taken as it is (a newline counted).
    fn literal(&mut self, c: char) {
        if c == '\n' {
            self.line += 1;
        }
        self.word().text.push(c);
    }

    fn single_quoted(&mut self) -> Result<(), ShellError> {
        let line = self.line;
        self.word();
        loop {
            match self.chars.next() {
                Some((_, '\'')) => return Ok(()),
                Some((_, c)) => self.literal(c),
                None => {
                    return Err(self.error("a single quote (') opened here is never closed", line))
                }
            }
        }
    }

    fn double_quoted(&mut self) -> Result<(), ShellError> {
        let line = self.line;
        self.word();
        loop {
            match self.chars.next() {
                Some((_, '"')) => return Ok(()),
                Some((_, '\\')) => match self.chars.peek().copied() {
                    Some((_, '\n')) => {
                        self.chars.next();
                        self.line += 1;
                    }
                    Some((_, c @ ('$' | '`' | '"' | '\\'))) => {
                        self.chars.next();
                        self.word().text.push(c);
                    }
                    _ => self.word().text.push('\\'),
                },
                Some((at, '$')) => self.expansion(at)?,
                Some((at, '`')) => self.backquoted(at)?,
                Some((_, c)) => self.literal(c),
                None => {
                    return Err(self.error("a double quote (\") opened here is never closed", line))
                }
            }
        }
    }

    /// `$'...'`: bash's ANSI-C quoting. `\xHH` and `\ooo` are bytes:
    /// consecutive ones that form UTF-8 are one character (`\xef\xbb\xbf`
    /// is a byte order mark); bytes that do not are read as U+FFFD.
    fn ansi_c(&mut self) -> Result<(), ShellError> {
        let line = self.line;
        self.word();
        let mut bytes = Vec::new();
        loop {
            let escaped = match self.chars.next() {
                Some((_, '\'')) => {
                    self.push_bytes(&mut bytes);
                    return Ok(());
                }
                Some((_, '\\')) => self.chars.next(),
                Some((_, c)) => {
                    self.push_bytes(&mut bytes);
                    self.literal(c);
                    continue;
                }
                None => None,
            };
            let Some((_, e)) = escaped else {
                return Err(self.error("a $'...' quote opened here is never closed", line));
            };
            match self.ansi_c_escape(e) {
                Some(Piece::Byte(b)) => bytes.push(b),
                Some(Piece::Char(d)) => {
                    self.push_bytes(&mut bytes);
                    self.word().text.push(d);
                }
                None => {}
            }
        }
    }

    /// Appends the bytes of `\x` and octal escapes to the word, as text.
    fn push_bytes(&mut self, bytes: &mut Vec<u8>) {
        if !bytes.is_empty() {
            let text = String::from_utf8_lossy(bytes).into_owned();
            self.word().text.push_str(&text);
            bytes.clear();
        }
    }

    /// What `\e` stands for in `$'...'` (an unknown escape keeps its
    /// backslash).
    fn ansi_c_escape(&mut self, e: char) -> Option<Piece> {
        let c = match e {
            'a' => '\u{7}',
            'b' => '\u{8}',
            'e' | 'E' => '\u{1b}',
            'f' => '\u{c}',
            'n' => '\n',
            'r' => '\r',
            't' => '\t',
            'v' => '\u{b}',
            '\\' | '\'' | '"' | '?' => e,
            'c' => {
                return self
                    .chars
                    .next()
                    .map(|(_, x)| Piece::Char(char::from((x as u8) & 0x1f)))
            }
            '0'..='7' => {
                let (n, _) = self.digits(8, 2, e.to_digit(8).unwrap_or(0));
                return Some(Piece::Byte((n & 0xff) as u8));
            }
            'x' | 'u' | 'U' => {
                let max = match e {
                    'x' => 2,
                    'u' => 4,
                    _ => 8,
                };
                return match self.digits(16, max, 0) {
                    (_, 0) => {
                        self.word().text.push('\\');
                        Some(Piece::Char(e))
                    }
                    (n, _) if e == 'x' => Some(Piece::Byte(n as u8)),
                    (n, _) => char::from_u32(n).map(Piece::Char),
                };
            }
            other => {
                self.word().text.push('\\');
                other
            }
        };
        Some(Piece::Char(c))
    }

    /// Up to `max` more digits in `radix` after `n`: the number, and how
    /// many digits were read.
    fn digits(&mut self, radix: u32, max: usize, mut n: u32) -> (u32, usize) {
        let mut read = 0;
        while read < max {
            let Some(d) = self.chars.peek().and_then(|&(_, d)| d.to_digit(radix)) else {
                break;
            };
            self.chars.next();
            n = n.saturating_mul(radix).saturating_add(d);
            read += 1;
        }
        (n, read)
    }

    /// `$NAME`, `${...}`, `$(...)`, `$((...))`: kept as written, recorded.
    fn expansion(&mut self, start: usize) -> Result<(), ShellError> {
        let end = match self.chars.peek().copied() {
            Some((_, open @ ('(' | '{'))) => self.balanced(open)?,
            Some((_, c))
                if c.is_ascii_alphanumeric()
                    || matches!(c, '_' | '@' | '*' | '#' | '?' | '-' | '$' | '!') =>
            {
                self.parameter(start, c)
            }
            _ => {
                // A lone `$` is a literal dollar sign.
                self.word().text.push('$');
                return Ok(());
            }
        };
        let written = self.text[start..end].to_owned();
        let word = self.word();
        word.text.push_str(&written);
        word.expansions.push(written);
        Ok(())
    }

    /// Where `$(...)` or `${...}` ends (`open` is next): past the close
    /// that balances it, quotes skipped.
    fn balanced(&mut self, open: char) -> Result<usize, ShellError> {
        let line = self.line;
        let close = if open == '(' { ')' } else { '}' };
        let mut depth = 0usize;
        let mut quote: Option<char> = None;
        loop {
            let Some((at, c)) = self.chars.next() else {
                let message = format!("a ${open}...{close} opened here is never closed");
                return Err(self.error(message, line));
            };
            match (quote, c) {
                (Some(q), c) if c == q => quote = None,
                (Some(_), '\n') | (None, '\n') => self.line += 1,
                (Some(_), _) => {}
                (None, '\'' | '"') => quote = Some(c),
                (None, c) if c == open => depth += 1,
                (None, c) if c == close => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(at + c.len_utf8());
                    }
                }
                _ => {}
            }
        }
    }

    /// Where `$NAME` ends (`c`, its first character, is next); a special
    /// parameter (`$1`, `$?`) is one character.
    fn parameter(&mut self, start: usize, c: char) -> usize {
        let mut end = start + 1;
        let special = !(c.is_ascii_alphanumeric() || c == '_') || c.is_ascii_digit();
        while let Some(&(at, n)) = self.chars.peek() {
            if !(n.is_ascii_alphanumeric() || n == '_') {
                break;
            }
            self.chars.next();
            end = at + 1;
            if special {
                break;
            }
        }
        if special && end == start + 1 {
            if let Some((at, n)) = self.chars.next() {
                end = at + n.len_utf8();
            }
        }
        end
    }

    fn backquoted(&mut self, start: usize) -> Result<(), ShellError> {
        let line = self.line;
        let end;
        loop {
            match self.chars.next() {
                Some((at, '`')) => {
                    end = at + 1;
                    break;
                }
                Some((_, '\\')) => {
                    self.chars.next();
                }
                Some((_, '\n')) => self.line += 1,
                Some(_) => {}
                None => return Err(self.error("a backquote (`) opened here is never closed", line)),
            }
        }
        let written = self.text[start..end].to_owned();
        let word = self.word();
        word.text.push_str(&written);
        word.expansions.push(written);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        split(text)
            .unwrap()
            .into_iter()
            .map(|t| match t {
                Token::Word { text, .. } => text,
                Token::Op { op, .. } => format!("<{op}>"),
            })
            .collect()
    }

    #[test]
    fn quotes_as_bash_reads_them() {
        assert_eq!(
            words(r#"a 'b c' "d \"e\" \$f" g\ h"#),
            ["a", "b c", "d \"e\" $f", "g h"]
        );
        // ANSI-C quoting: escapes decoded, \' inside.
        assert_eq!(
            words(r#"-p $'[{"op": "remove", "path": "/a\'b\n"}]' $'\x41\u00e9\101'"#),
            [
                "-p",
                "[{\"op\": \"remove\", \"path\": \"/a'b\n\"}]",
                "Aé\u{41}"
            ]
        );
        assert_eq!(words("a\\\nb c # comment\nd"), ["ab", "c", "<\n>", "d"]);
        assert_eq!(words("x'it'\\''s'"), ["xit's"]);
    }

    #[test]
    fn documentation_placeholders_are_names_not_redirections() {
        let tokens =
            split("kubectl patch storageclass/<YOUR_CLASS> -n <name space> --patch-file <f>.yaml")
                .unwrap();
        let placeholders: Vec<&str> = tokens
            .iter()
            .flat_map(|t| match t {
                Token::Word { placeholders, .. } => placeholders.as_slice(),
                Token::Op { .. } => &[],
            })
            .map(String::as_str)
            .collect();
        assert_eq!(placeholders, ["<YOUR_CLASS>", "<name space>", "<f>"]);
        assert_eq!(
            words("kubectl patch storageclass/<YOUR_CLASS> -n <name space> --patch-file <f>.yaml"),
            [
                "kubectl",
                "patch",
                "storageclass/<YOUR_CLASS>",
                "-n",
                "<name space>",
                "--patch-file",
                "<f>.yaml"
            ]
        );
        // Redirections stay redirections.
        assert_eq!(
            words("cat <in >out; sort < a <<EOF\nx\nEOF\n; wc <in>out"),
            [
                "cat", "<<>", "in", "<>>", "out", "<;>", "sort", "<<>", "a", "<<<>", "<\n>", "x\n",
                "<;>", "wc", "<<>", "in", "<>>", "out"
            ]
        );
    }

    #[test]
    fn operators_and_expansions() {
        assert_eq!(
            words("kubectl get vmi -o name | xargs -I{} kubectl patch {} -p '{}' > out.log 2>&1 && echo ok; done"),
            [
                "kubectl", "get", "vmi", "-o", "name", "<|>", "xargs", "-I{}", "kubectl", "patch", "{}",
                "-p", "{}", "<>>", "out.log", "<2>&>", "1", "<&&>", "echo", "ok", "<;>", "done"
            ]
        );
        let tokens = split(r#"kubectl patch vmi "$VMI" -p "{\"a\":\"$(date +%s)\"}""#).unwrap();
        let Token::Word {
            text, expansions, ..
        } = &tokens[3]
        else {
            panic!()
        };
        assert_eq!(
            (text.as_str(), expansions.as_slice()),
            ("$VMI", ["$VMI".to_owned()].as_slice())
        );
        let Token::Word { expansions, .. } = &tokens[5] else {
            panic!()
        };
        assert_eq!(expansions, &["$(date +%s)".to_owned()]);
        assert_eq!(
            words("echo ${A:-x} $((1+2)) `id` $"),
            ["echo", "${A:-x}", "$((1+2))", "`id`", "$"]
        );
    }

    #[test]
    fn heredocs_are_one_word() {
        assert_eq!(
            words("kubectl patch cm a --patch-file /dev/stdin <<EOF\ndata:\n  k: v\nEOF\necho"),
            [
                "kubectl",
                "patch",
                "cm",
                "a",
                "--patch-file",
                "/dev/stdin",
                "<<<>",
                "<\n>",
                "data:\n  k: v\n",
                "echo"
            ]
        );
    }

    #[test]
    fn unclosed_quotes_say_where() {
        for (text, what, line) in [
            ("a\nb 'c", "single quote", 2),
            ("\"x", "double quote", 1),
            ("$'x", "$'...'", 1),
            ("a $(b", "$(", 1),
            ("cat <<EOF\nx\n", "here-document", 1),
        ] {
            let err = split(text).unwrap_err();
            assert!(err.message.contains(what), "{text}: {err}");
            assert_eq!(err.line, line, "{text}");
        }
    }
}
