//! yaml.v2's scanner (`scannerc.go`, libyaml's port to Go), turned into
//! Rust line for line: the same tokens, the same simple-key and
//! indentation rules, the same refusals with the same texts and marks.
//! The scalar scanners are in `scanner/scalars.rs`, directives, anchors
//! and tags in `scanner/tags.rs`.

mod scalars;
mod tags;

use std::collections::{HashMap, VecDeque};
use std::rc::Rc;

use super::error::Mark;
use super::error::{Error, Stage};
use super::reader::Reader;

/// yaml.v2's `max_flow_level` and `max_indents`.
const MAX_LEVEL: usize = 10_000;

/// How a scalar was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Style {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
    Folded,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum TokenKind {
    StreamStart,
    StreamEnd,
    VersionDirective(i8, i8),
    TagDirective { handle: Vec<u8>, prefix: Vec<u8> },
    DocumentStart,
    DocumentEnd,
    BlockSequenceStart,
    BlockMappingStart,
    BlockEnd,
    FlowSequenceStart,
    FlowSequenceEnd,
    FlowMappingStart,
    FlowMappingEnd,
    BlockEntry,
    FlowEntry,
    Key,
    Value,
    Alias(Vec<u8>),
    Anchor(Vec<u8>),
    Tag { handle: Vec<u8>, suffix: Vec<u8> },
    Scalar { value: Vec<u8>, style: Style },
}

#[derive(Clone, Debug)]
pub(super) struct Token {
    pub kind: TokenKind,
    pub start: Mark,
    pub end: Mark,
}

impl Token {
    fn new(kind: TokenKind, start: Mark, end: Mark) -> Token {
        Token { kind, start, end }
    }
}

/// A place where a key without `?` may start.
#[derive(Clone, Copy, Debug, Default)]
struct SimpleKey {
    possible: bool,
    required: bool,
    token_number: usize,
    mark: Mark,
}

pub(super) struct Scanner {
    r: Reader,
    tokens: VecDeque<Token>,
    tokens_parsed: usize,
    token_available: bool,
    stream_start_produced: bool,
    pub stream_end_produced: bool,
    indent: isize,
    indents: Vec<isize>,
    simple_key_allowed: bool,
    simple_keys: Vec<SimpleKey>,
    simple_keys_by_tok: HashMap<usize, usize>,
    flow_level: usize,
}

fn scanner_error(context: Mark, problem: &str, at: Mark) -> Error {
    Error::new(Stage::Scanner, problem, at).with_context(context)
}

impl Scanner {
    pub fn new(input: Rc<str>) -> Scanner {
        Scanner {
            r: Reader::new(input),
            tokens: VecDeque::new(),
            tokens_parsed: 0,
            token_available: false,
            stream_start_produced: false,
            stream_end_produced: false,
            indent: -1,
            indents: Vec::new(),
            simple_key_allowed: false,
            simple_keys: Vec::new(),
            simple_keys_by_tok: HashMap::new(),
            flow_level: 0,
        }
    }

    /// Characters read so far.
    pub fn position(&self) -> usize {
        self.r.mark.index
    }

    /// The next token (yaml.v2's `peek_token`).
    pub fn peek(&mut self) -> Result<&Token, Error> {
        if !self.token_available {
            self.fetch_more_tokens()?;
        }
        self.tokens
            .front()
            .ok_or_else(|| Error::new(Stage::Parser, "no token", self.r.mark))
    }

    /// Drops the token [`Scanner::peek`] answered (`skip_token`).
    pub fn skip_token(&mut self) {
        self.token_available = false;
        self.tokens_parsed += 1;
        if let Some(token) = self.tokens.pop_front() {
            self.stream_end_produced = token.kind == TokenKind::StreamEnd;
        }
    }

    /// The error yaml.v2's `yaml_parser_set_scanner_error` records: the
    /// problem at the current mark.
    fn error(&self, context: Mark, problem: &str) -> Error {
        scanner_error(context, problem, self.r.mark)
    }

    /// `yaml_insert_token`: `pos` places after the queue's head, or at
    /// the end.
    fn insert(&mut self, pos: Option<usize>, token: Token) {
        match pos {
            Some(pos) => self.tokens.insert(pos.min(self.tokens.len()), token),
            None => self.tokens.push_back(token),
        }
    }

    fn push(&mut self, kind: TokenKind, start: Mark, end: Mark) {
        self.tokens.push_back(Token::new(kind, start, end));
    }

    fn fetch_more_tokens(&mut self) -> Result<(), Error> {
        loop {
            if !self.tokens.is_empty() {
                let Some(&index) = self.simple_keys_by_tok.get(&self.tokens_parsed) else {
                    break;
                };
                if !self.simple_key_is_valid(index)? {
                    break;
                }
            }
            self.fetch_next_token()?;
        }
        self.token_available = true;
        Ok(())
    }

    fn fetch_next_token(&mut self) -> Result<(), Error> {
        self.r.cache(1)?;
        if !self.stream_start_produced {
            self.fetch_stream_start();
            return Ok(());
        }
        self.scan_to_next_token()?;
        self.unroll_indent(self.r.mark.column as isize);
        self.r.cache(4)?;
        if self.r.is_z(0) {
            return self.fetch_stream_end();
        }
        let column0 = self.r.mark.column == 0;
        let (c, c1, c2) = (self.r.ch(), self.r.at(1), self.r.at(2));
        if column0 && c == b'%' {
            return self.fetch_directive();
        }
        if column0 && (c, c1, c2) == (b'-', b'-', b'-') && self.r.is_blankz(3) {
            return self.fetch_document_indicator(TokenKind::DocumentStart);
        }
        if column0 && (c, c1, c2) == (b'.', b'.', b'.') && self.r.is_blankz(3) {
            return self.fetch_document_indicator(TokenKind::DocumentEnd);
        }
        self.fetch_indicator_or_scalar(c)
    }

    /// The rest of `yaml_parser_fetch_next_token`: flow and block
    /// indicators, anchors, tags and scalars.
    fn fetch_indicator_or_scalar(&mut self, c: u8) -> Result<(), Error> {
        let flow = self.flow_level > 0;
        match c {
            b'[' => return self.fetch_flow_collection_start(TokenKind::FlowSequenceStart),
            b'{' => return self.fetch_flow_collection_start(TokenKind::FlowMappingStart),
            b']' => return self.fetch_flow_collection_end(TokenKind::FlowSequenceEnd),
            b'}' => return self.fetch_flow_collection_end(TokenKind::FlowMappingEnd),
            b',' => return self.fetch_flow_entry(),
            b'-' if self.r.is_blankz(1) => return self.fetch_block_entry(),
            b'?' if flow || self.r.is_blankz(1) => return self.fetch_key(),
            b':' if flow || self.r.is_blankz(1) => return self.fetch_value(),
            b'*' => return self.fetch_anchor(true),
            b'&' => return self.fetch_anchor(false),
            b'!' => return self.fetch_tag(),
            b'|' if !flow => return self.fetch_block_scalar(true),
            b'>' if !flow => return self.fetch_block_scalar(false),
            b'\'' => return self.fetch_flow_scalar(true),
            b'"' => return self.fetch_flow_scalar(false),
            _ => {}
        }
        let indicator = self.r.is_blankz(0) || b"-?:,[]{}#&*!|>'\"%@`".contains(&c);
        if !indicator
            || (c == b'-' && !self.r.is_blank(1))
            || (!flow && (c == b'?' || c == b':') && !self.r.is_blankz(1))
        {
            return self.fetch_plain_scalar();
        }
        Err(self.error(self.r.mark, "found character that cannot start any token"))
    }

    /// Whether the potential simple key `index` is still possible; an
    /// error when it was required and no longer is.
    fn simple_key_is_valid(&mut self, index: usize) -> Result<bool, Error> {
        let mark = self.r.mark;
        let key = &mut self.simple_keys[index];
        if !key.possible {
            return Ok(false);
        }
        if key.mark.line < mark.line || key.mark.index + 1024 < mark.index {
            if key.required {
                return Err(scanner_error(key.mark, "could not find expected ':'", mark));
            }
            key.possible = false;
            return Ok(false);
        }
        Ok(true)
    }

    fn save_simple_key(&mut self) -> Result<(), Error> {
        let required = self.flow_level == 0 && self.indent == self.r.mark.column as isize;
        if self.simple_key_allowed {
            let key = SimpleKey {
                possible: true,
                required,
                token_number: self.tokens_parsed + self.tokens.len(),
                mark: self.r.mark,
            };
            self.remove_simple_key()?;
            let last = self.simple_keys.len() - 1;
            self.simple_keys[last] = key;
            self.simple_keys_by_tok.insert(key.token_number, last);
        }
        Ok(())
    }

    fn remove_simple_key(&mut self) -> Result<(), Error> {
        let last = self.simple_keys.len() - 1;
        let key = self.simple_keys[last];
        if key.possible {
            if key.required {
                return Err(self.error(key.mark, "could not find expected ':'"));
            }
            self.simple_keys[last].possible = false;
            self.simple_keys_by_tok.remove(&key.token_number);
        }
        Ok(())
    }

    fn increase_flow_level(&mut self) -> Result<(), Error> {
        self.simple_keys.push(SimpleKey {
            token_number: self.tokens_parsed + self.tokens.len(),
            mark: self.r.mark,
            ..SimpleKey::default()
        });
        self.flow_level += 1;
        if self.flow_level > MAX_LEVEL {
            let mark = self.simple_keys[self.simple_keys.len() - 1].mark;
            return Err(self.error(mark, &format!("exceeded max depth of {MAX_LEVEL}")));
        }
        Ok(())
    }

    fn decrease_flow_level(&mut self) {
        if self.flow_level > 0 {
            self.flow_level -= 1;
            if let Some(key) = self.simple_keys.pop() {
                self.simple_keys_by_tok.remove(&key.token_number);
            }
        }
    }

    /// Opens a block collection at `column` when it is deeper than the
    /// current indentation: the token goes at `number` (an absolute token
    /// number) or at the end.
    fn roll_indent(
        &mut self,
        column: usize,
        number: Option<usize>,
        kind: TokenKind,
        mark: Mark,
    ) -> Result<(), Error> {
        if self.flow_level > 0 {
            return Ok(());
        }
        if self.indent < column as isize {
            self.indents.push(self.indent);
            self.indent = column as isize;
            if self.indents.len() > MAX_LEVEL {
                let context = self.simple_keys[self.simple_keys.len() - 1].mark;
                return Err(self.error(context, &format!("exceeded max depth of {MAX_LEVEL}")));
            }
            let pos = number.map(|n| n - self.tokens_parsed);
            self.insert(pos, Token::new(kind, mark, mark));
        }
        Ok(())
    }

    /// Closes the block collections deeper than `column`.
    fn unroll_indent(&mut self, column: isize) {
        if self.flow_level > 0 {
            return;
        }
        while self.indent > column {
            let mark = self.r.mark;
            self.push(TokenKind::BlockEnd, mark, mark);
            self.indent = self.indents.pop().unwrap_or(-1);
        }
    }

    fn fetch_stream_start(&mut self) {
        self.indent = -1;
        self.simple_keys.push(SimpleKey::default());
        self.simple_key_allowed = true;
        self.stream_start_produced = true;
        let mark = self.r.mark;
        self.push(TokenKind::StreamStart, mark, mark);
    }

    fn fetch_stream_end(&mut self) -> Result<(), Error> {
        if self.r.mark.column != 0 {
            self.r.mark.column = 0;
            self.r.mark.line += 1;
        }
        self.unroll_indent(-1);
        self.remove_simple_key()?;
        self.simple_key_allowed = false;
        let mark = self.r.mark;
        self.push(TokenKind::StreamEnd, mark, mark);
        Ok(())
    }

    fn fetch_directive(&mut self) -> Result<(), Error> {
        self.unroll_indent(-1);
        self.remove_simple_key()?;
        self.simple_key_allowed = false;
        let token = self.scan_directive()?;
        self.tokens.push_back(token);
        Ok(())
    }

    fn fetch_document_indicator(&mut self, kind: TokenKind) -> Result<(), Error> {
        self.unroll_indent(-1);
        self.remove_simple_key()?;
        self.simple_key_allowed = false;
        let start = self.r.mark;
        self.r.skip();
        self.r.skip();
        self.r.skip();
        let end = self.r.mark;
        self.push(kind, start, end);
        Ok(())
    }

    /// Consumes one indicator character and queues its token.
    fn indicator(&mut self, kind: TokenKind) {
        let start = self.r.mark;
        self.r.skip();
        let end = self.r.mark;
        self.push(kind, start, end);
    }

    fn fetch_flow_collection_start(&mut self, kind: TokenKind) -> Result<(), Error> {
        self.save_simple_key()?;
        self.increase_flow_level()?;
        self.simple_key_allowed = true;
        self.indicator(kind);
        Ok(())
    }

    fn fetch_flow_collection_end(&mut self, kind: TokenKind) -> Result<(), Error> {
        self.remove_simple_key()?;
        self.decrease_flow_level();
        self.simple_key_allowed = false;
        self.indicator(kind);
        Ok(())
    }

    fn fetch_flow_entry(&mut self) -> Result<(), Error> {
        self.remove_simple_key()?;
        self.simple_key_allowed = true;
        self.indicator(TokenKind::FlowEntry);
        Ok(())
    }

    fn fetch_block_entry(&mut self) -> Result<(), Error> {
        if self.flow_level == 0 {
            if !self.simple_key_allowed {
                let problem = "block sequence entries are not allowed in this context";
                return Err(self.error(self.r.mark, problem));
            }
            let mark = self.r.mark;
            self.roll_indent(mark.column, None, TokenKind::BlockSequenceStart, mark)?;
        }
        self.remove_simple_key()?;
        self.simple_key_allowed = true;
        self.indicator(TokenKind::BlockEntry);
        Ok(())
    }

    fn fetch_key(&mut self) -> Result<(), Error> {
        if self.flow_level == 0 {
            if !self.simple_key_allowed {
                let problem = "mapping keys are not allowed in this context";
                return Err(self.error(self.r.mark, problem));
            }
            let mark = self.r.mark;
            self.roll_indent(mark.column, None, TokenKind::BlockMappingStart, mark)?;
        }
        self.remove_simple_key()?;
        self.simple_key_allowed = self.flow_level == 0;
        self.indicator(TokenKind::Key);
        Ok(())
    }

    fn fetch_value(&mut self) -> Result<(), Error> {
        let last = self.simple_keys.len() - 1;
        if self.simple_key_is_valid(last)? {
            let key = self.simple_keys[last];
            let pos = key.token_number - self.tokens_parsed;
            self.insert(Some(pos), Token::new(TokenKind::Key, key.mark, key.mark));
            let kind = TokenKind::BlockMappingStart;
            self.roll_indent(key.mark.column, Some(key.token_number), kind, key.mark)?;
            self.simple_keys[last].possible = false;
            self.simple_keys_by_tok.remove(&key.token_number);
            self.simple_key_allowed = false;
        } else {
            if self.flow_level == 0 {
                if !self.simple_key_allowed {
                    let problem = "mapping values are not allowed in this context";
                    return Err(self.error(self.r.mark, problem));
                }
                let mark = self.r.mark;
                self.roll_indent(mark.column, None, TokenKind::BlockMappingStart, mark)?;
            }
            self.simple_key_allowed = self.flow_level == 0;
        }
        self.indicator(TokenKind::Value);
        Ok(())
    }

    fn fetch_anchor(&mut self, alias: bool) -> Result<(), Error> {
        self.save_simple_key()?;
        self.simple_key_allowed = false;
        let token = self.scan_anchor(alias)?;
        self.tokens.push_back(token);
        Ok(())
    }

    fn fetch_tag(&mut self) -> Result<(), Error> {
        self.save_simple_key()?;
        self.simple_key_allowed = false;
        let token = self.scan_tag()?;
        self.tokens.push_back(token);
        Ok(())
    }

    fn fetch_block_scalar(&mut self, literal: bool) -> Result<(), Error> {
        self.remove_simple_key()?;
        self.simple_key_allowed = true;
        let token = self.scan_block_scalar(literal)?;
        self.tokens.push_back(token);
        Ok(())
    }

    fn fetch_flow_scalar(&mut self, single: bool) -> Result<(), Error> {
        self.save_simple_key()?;
        self.simple_key_allowed = false;
        let token = self.scan_flow_scalar(single)?;
        self.tokens.push_back(token);
        Ok(())
    }

    fn fetch_plain_scalar(&mut self) -> Result<(), Error> {
        self.save_simple_key()?;
        self.simple_key_allowed = false;
        let token = self.scan_plain_scalar()?;
        self.tokens.push_back(token);
        Ok(())
    }

    /// Skips blanks, comments and line breaks up to the next token. Tabs
    /// are skipped only in flow context and where no simple key may start
    /// (so not at the start of a block line, nor after `-`, `?` or a
    /// complex key's `:`).
    fn scan_to_next_token(&mut self) -> Result<(), Error> {
        loop {
            self.r.cache(1)?;
            if self.r.mark.column == 0 && self.r.is_bom_quirk() {
                self.r.skip();
            }
            self.r.cache(1)?;
            while self.r.ch() == b' '
                || ((self.flow_level > 0 || !self.simple_key_allowed) && self.r.ch() == b'\t')
            {
                self.r.skip();
                self.r.cache(1)?;
            }
            if self.r.ch() == b'#' {
                while !self.r.is_breakz(0) {
                    self.r.skip();
                    self.r.cache(1)?;
                }
            }
            if !self.r.is_break(0) {
                return Ok(());
            }
            self.r.cache(2)?;
            self.r.skip_line();
            if self.flow_level == 0 {
                self.simple_key_allowed = true;
            }
        }
    }
}
