//! Block (`|`, `>`), quoted and plain scalars, as yaml.v2 scans them:
//! its escapes (YAML 1.1's: no `\/`; `\'` accepted; no surrogate code
//! points, paired or not), its line folding and its tab rules.

use super::super::error::Error;
use super::super::error::Mark;
use super::{Scanner, Style, Token, TokenKind};

/// The line breaks and blanks between two runs of a scalar's text.
#[derive(Default)]
struct Folding {
    leading_break: Vec<u8>,
    trailing_breaks: Vec<u8>,
    whitespaces: Vec<u8>,
    leading_blanks: bool,
}

impl Folding {
    /// Appends the folded breaks (a line feed folds to a space, or to the
    /// breaks after it; LS and PS stay) and clears them.
    fn fold_breaks(&mut self, s: &mut Vec<u8>) {
        if self.leading_break.first() == Some(&b'\n') {
            if self.trailing_breaks.is_empty() {
                s.push(b' ');
            } else {
                s.extend_from_slice(&self.trailing_breaks);
            }
        } else {
            s.extend_from_slice(&self.leading_break);
            s.extend_from_slice(&self.trailing_breaks);
        }
        self.trailing_breaks.clear();
        self.leading_break.clear();
    }
}

impl Scanner {
    /// `yaml_parser_scan_block_scalar`.
    pub(super) fn scan_block_scalar(&mut self, literal: bool) -> Result<Token, Error> {
        let start = self.r.mark;
        self.r.skip();
        let (chomping, increment) = self.block_scalar_header(start)?;
        let mut end = self.r.mark;
        let mut indent = 0;
        if increment > 0 {
            indent = if self.indent >= 0 {
                self.indent as usize + increment
            } else {
                increment
            };
        }
        let (mut s, mut leading_break, mut trailing_breaks) = (Vec::new(), Vec::new(), Vec::new());
        self.block_scalar_breaks(&mut indent, &mut trailing_breaks, start, &mut end)?;
        self.r.cache(1)?;
        let (mut leading_blank, mut trailing_blank);
        leading_blank = false;
        while self.r.mark.column == indent && !self.r.is_z(0) {
            trailing_blank = self.r.is_blank(0);
            let folds = !literal && !leading_blank && !trailing_blank;
            if folds && leading_break.first() == Some(&b'\n') {
                if trailing_breaks.is_empty() {
                    s.push(b' ');
                }
            } else {
                s.extend_from_slice(&leading_break);
            }
            leading_break.clear();
            s.append(&mut trailing_breaks);
            leading_blank = self.r.is_blank(0);
            while !self.r.is_breakz(0) {
                self.r.read(&mut s);
                self.r.cache(1)?;
            }
            self.r.cache(2)?;
            self.r.read_line(&mut leading_break);
            self.block_scalar_breaks(&mut indent, &mut trailing_breaks, start, &mut end)?;
        }
        if chomping != -1 {
            s.extend_from_slice(&leading_break);
        }
        if chomping == 1 {
            s.extend_from_slice(&trailing_breaks);
        }
        let style = if literal {
            Style::Literal
        } else {
            Style::Folded
        };
        Ok(Token::new(
            TokenKind::Scalar { value: s, style },
            start,
            end,
        ))
    }

    /// The indicators after `|` or `>` (chomping `+`/`-` and an
    /// indentation digit, in either order), then the rest of the line.
    fn block_scalar_header(&mut self, start: Mark) -> Result<(i8, usize), Error> {
        self.r.cache(1)?;
        let (mut chomping, mut increment) = (0i8, 0usize);
        let zero = "found an indentation indicator equal to 0";
        if matches!(self.r.ch(), b'+' | b'-') {
            chomping = if self.r.ch() == b'+' { 1 } else { -1 };
            self.r.skip();
            self.r.cache(1)?;
            if self.r.ch().is_ascii_digit() {
                if self.r.ch() == b'0' {
                    return Err(self.error(start, zero));
                }
                increment = usize::from(self.r.ch() - b'0');
                self.r.skip();
            }
        } else if self.r.ch().is_ascii_digit() {
            if self.r.ch() == b'0' {
                return Err(self.error(start, zero));
            }
            increment = usize::from(self.r.ch() - b'0');
            self.r.skip();
            self.r.cache(1)?;
            if matches!(self.r.ch(), b'+' | b'-') {
                chomping = if self.r.ch() == b'+' { 1 } else { -1 };
                self.r.skip();
            }
        }
        self.end_of_header_line(start)?;
        Ok((chomping, increment))
    }

    fn end_of_header_line(&mut self, start: Mark) -> Result<(), Error> {
        self.r.cache(1)?;
        while self.r.is_blank(0) {
            self.r.skip();
            self.r.cache(1)?;
        }
        if self.r.ch() == b'#' {
            while !self.r.is_breakz(0) {
                self.r.skip();
                self.r.cache(1)?;
            }
        }
        if !self.r.is_breakz(0) {
            return Err(self.error(start, "did not find expected comment or line break"));
        }
        if self.r.is_break(0) {
            self.r.cache(2)?;
            self.r.skip_line();
        }
        Ok(())
    }

    /// `yaml_parser_scan_block_scalar_breaks`: indentation spaces and
    /// empty lines; the indentation once the first line shows it.
    fn block_scalar_breaks(
        &mut self,
        indent: &mut usize,
        breaks: &mut Vec<u8>,
        start: Mark,
        end: &mut Mark,
    ) -> Result<(), Error> {
        *end = self.r.mark;
        let mut max_indent = 0;
        loop {
            self.r.cache(1)?;
            while (*indent == 0 || self.r.mark.column < *indent) && self.r.ch() == b' ' {
                self.r.skip();
                self.r.cache(1)?;
            }
            max_indent = max_indent.max(self.r.mark.column);
            if (*indent == 0 || self.r.mark.column < *indent) && self.r.ch() == b'\t' {
                let problem = "found a tab character where an indentation space is expected";
                return Err(self.error(start, problem));
            }
            if !self.r.is_break(0) {
                break;
            }
            self.r.cache(2)?;
            self.r.read_line(breaks);
            *end = self.r.mark;
        }
        if *indent == 0 {
            *indent = max_indent.max((self.indent + 1).max(1) as usize);
        }
        Ok(())
    }

    /// `yaml_parser_scan_flow_scalar`: a single- or double-quoted scalar.
    pub(super) fn scan_flow_scalar(&mut self, single: bool) -> Result<Token, Error> {
        let start = self.r.mark;
        self.r.skip();
        let mut s = Vec::new();
        let mut fold = Folding::default();
        loop {
            self.r.cache(4)?;
            let (c0, c1, c2) = (self.r.ch(), self.r.at(1), self.r.at(2));
            let marker = (c0, c1, c2) == (b'-', b'-', b'-') || (c0, c1, c2) == (b'.', b'.', b'.');
            if self.r.mark.column == 0 && marker && self.r.is_blankz(3) {
                return Err(self.error(start, "found unexpected document indicator"));
            }
            if self.r.is_z(0) {
                return Err(self.error(start, "found unexpected end of stream"));
            }
            fold.leading_blanks = false;
            self.quoted_run(single, start, &mut s, &mut fold)?;
            self.r.cache(1)?;
            if self.r.ch() == if single { b'\'' } else { b'"' } {
                break;
            }
            self.quoted_blanks(&mut fold)?;
            if fold.leading_blanks {
                fold.fold_breaks(&mut s);
            } else {
                s.append(&mut fold.whitespaces);
            }
        }
        self.r.skip();
        let end = self.r.mark;
        let style = if single {
            Style::SingleQuoted
        } else {
            Style::DoubleQuoted
        };
        Ok(Token::new(
            TokenKind::Scalar { value: s, style },
            start,
            end,
        ))
    }

    /// The non-blank characters of a quoted scalar up to a blank, a break
    /// or the closing quote; an escaped line break ends the run.
    fn quoted_run(
        &mut self,
        single: bool,
        start: Mark,
        s: &mut Vec<u8>,
        fold: &mut Folding,
    ) -> Result<(), Error> {
        while !self.r.is_blankz(0) {
            let c = self.r.ch();
            if single && c == b'\'' && self.r.at(1) == b'\'' {
                s.push(b'\'');
                self.r.skip();
                self.r.skip();
            } else if (single && c == b'\'') || (!single && c == b'"') {
                break;
            } else if !single && c == b'\\' && self.r.is_break(1) {
                self.r.cache(3)?;
                self.r.skip();
                self.r.skip_line();
                fold.leading_blanks = true;
                break;
            } else if !single && c == b'\\' {
                self.escape(start, s)?;
            } else {
                self.r.read(s);
            }
            self.r.cache(2)?;
        }
        Ok(())
    }

    /// One escape sequence of a double-quoted scalar (the reader is on
    /// its backslash).
    fn escape(&mut self, start: Mark, s: &mut Vec<u8>) -> Result<(), Error> {
        let simple: &[u8] = match self.r.at(1) {
            b'0' => b"\0",
            b'a' => b"\x07",
            b'b' => b"\x08",
            b't' | b'\t' => b"\t",
            b'n' => b"\n",
            b'v' => b"\x0B",
            b'f' => b"\x0C",
            b'r' => b"\r",
            b'e' => b"\x1B",
            b' ' => b" ",
            b'"' => b"\"",
            b'\'' => b"'",
            b'\\' => b"\\",
            b'N' => "\u{85}".as_bytes(),
            b'_' => "\u{A0}".as_bytes(),
            b'L' => "\u{2028}".as_bytes(),
            b'P' => "\u{2029}".as_bytes(),
            b'x' | b'u' | b'U' => b"",
            _ => return Err(self.error(start, "found unknown escape character")),
        };
        let code_length = match self.r.at(1) {
            b'x' => 2,
            b'u' => 4,
            b'U' => 8,
            _ => 0,
        };
        s.extend_from_slice(simple);
        self.r.skip();
        self.r.skip();
        if code_length == 0 {
            return Ok(());
        }
        self.r.cache(code_length)?;
        let mut value: u32 = 0;
        for k in 0..code_length {
            let Some(digit) = char::from(self.r.at(k)).to_digit(16) else {
                return Err(self.error(start, "did not find expected hexdecimal number"));
            };
            value = (value << 4) + digit;
        }
        let Some(c) = char::from_u32(value) else {
            return Err(self.error(start, "found invalid Unicode character escape code"));
        };
        let mut buf = [0; 4];
        s.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        for _ in 0..code_length {
            self.r.skip();
        }
        Ok(())
    }

    /// The blanks and line breaks after a run of a quoted scalar.
    fn quoted_blanks(&mut self, fold: &mut Folding) -> Result<(), Error> {
        while self.r.is_blank(0) || self.r.is_break(0) {
            if self.r.is_blank(0) {
                if fold.leading_blanks {
                    self.r.skip();
                } else {
                    self.r.read(&mut fold.whitespaces);
                }
            } else {
                self.r.cache(2)?;
                if fold.leading_blanks {
                    self.r.read_line(&mut fold.trailing_breaks);
                } else {
                    fold.whitespaces.clear();
                    self.r.read_line(&mut fold.leading_break);
                    fold.leading_blanks = true;
                }
            }
            self.r.cache(1)?;
        }
        Ok(())
    }

    /// `yaml_parser_scan_plain_scalar`.
    pub(super) fn scan_plain_scalar(&mut self) -> Result<Token, Error> {
        let mut s = Vec::new();
        let mut fold = Folding::default();
        let indent = self.indent + 1;
        let start = self.r.mark;
        let mut end = self.r.mark;
        loop {
            self.r.cache(4)?;
            let (c0, c1, c2) = (self.r.ch(), self.r.at(1), self.r.at(2));
            let marker = (c0, c1, c2) == (b'-', b'-', b'-') || (c0, c1, c2) == (b'.', b'.', b'.');
            if self.r.mark.column == 0 && marker && self.r.is_blankz(3) {
                break;
            }
            if self.r.ch() == b'#' {
                break;
            }
            self.plain_run(&mut s, &mut fold, &mut end)?;
            if !(self.r.is_blank(0) || self.r.is_break(0)) {
                break;
            }
            self.r.cache(1)?;
            self.plain_blanks(&mut fold, indent, start)?;
            if self.flow_level == 0 && (self.r.mark.column as isize) < indent {
                break;
            }
        }
        if fold.leading_blanks {
            self.simple_key_allowed = true;
        }
        let kind = TokenKind::Scalar {
            value: s,
            style: Style::Plain,
        };
        Ok(Token::new(kind, start, end))
    }

    /// The non-blank characters of a plain scalar up to `: `, a flow
    /// indicator in flow context, or a blank.
    fn plain_run(
        &mut self,
        s: &mut Vec<u8>,
        fold: &mut Folding,
        end: &mut Mark,
    ) -> Result<(), Error> {
        while !self.r.is_blankz(0) {
            let c = self.r.ch();
            let flow_indicator = self.flow_level > 0 && b",?[]{}".contains(&c);
            if (c == b':' && self.r.is_blankz(1)) || flow_indicator {
                break;
            }
            if fold.leading_blanks || !fold.whitespaces.is_empty() {
                if fold.leading_blanks {
                    fold.fold_breaks(s);
                    fold.leading_blanks = false;
                } else {
                    s.append(&mut fold.whitespaces);
                }
            }
            self.r.read(s);
            *end = self.r.mark;
            self.r.cache(2)?;
        }
        Ok(())
    }

    /// The blanks and line breaks after a run of a plain scalar; a tab in
    /// the indentation of a continuation line is refused.
    fn plain_blanks(
        &mut self,
        fold: &mut Folding,
        indent: isize,
        start: Mark,
    ) -> Result<(), Error> {
        while self.r.is_blank(0) || self.r.is_break(0) {
            if self.r.is_blank(0) {
                let in_indent = (self.r.mark.column as isize) < indent;
                if fold.leading_blanks && in_indent && self.r.ch() == b'\t' {
                    let problem = "found a tab character that violates indentation";
                    return Err(self.error(start, problem));
                }
                if fold.leading_blanks {
                    self.r.skip();
                } else {
                    self.r.read(&mut fold.whitespaces);
                }
            } else {
                self.r.cache(2)?;
                if fold.leading_blanks {
                    self.r.read_line(&mut fold.trailing_breaks);
                } else {
                    fold.whitespaces.clear();
                    self.r.read_line(&mut fold.leading_break);
                    fold.leading_blanks = true;
                }
            }
            self.r.cache(1)?;
        }
        Ok(())
    }
}
