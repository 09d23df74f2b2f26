//! yaml.v2's parser (`parserc.go`): tokens to events, the same state
//! machine, the same refusals (`did not find expected key`, `found
//! incompatible YAML document` for a `%YAML` other than 1.1, ...).

use std::rc::Rc;

use super::error::Mark;
use super::error::{Error, Stage};
use super::scanner::{Scanner, Style, Token, TokenKind};

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum EventKind {
    StreamStart,
    StreamEnd,
    DocumentStart,
    DocumentEnd,
    Alias(Vec<u8>),
    Scalar(Scalar),
    SequenceStart(Properties),
    SequenceEnd,
    MappingStart(Properties),
    MappingEnd,
}

/// A node's anchor and resolved tag (empty when absent).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Properties {
    pub anchor: Option<Vec<u8>>,
    pub tag: Vec<u8>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Scalar {
    pub properties: Properties,
    pub value: String,
    /// yaml.v2's `implicit`: plain and untagged, or tagged `!`.
    pub implicit: bool,
    pub style: Style,
}

#[derive(Clone, Debug)]
pub(super) struct Event {
    pub kind: EventKind,
    pub start: Mark,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    StreamStart,
    ImplicitDocumentStart,
    DocumentStart,
    DocumentContent,
    DocumentEnd,
    BlockNode,
    BlockSequenceFirstEntry,
    BlockSequenceEntry,
    IndentlessSequenceEntry,
    BlockMappingFirstKey,
    BlockMappingKey,
    BlockMappingValue,
    FlowSequenceFirstEntry,
    FlowSequenceEntry,
    FlowSequenceEntryMappingKey,
    FlowSequenceEntryMappingValue,
    FlowSequenceEntryMappingEnd,
    FlowMappingFirstKey,
    FlowMappingKey,
    FlowMappingValue,
    FlowMappingEmptyValue,
    End,
}

pub(super) struct Parser {
    scanner: Scanner,
    state: State,
    states: Vec<State>,
    marks: Vec<Mark>,
    tag_directives: Vec<(Vec<u8>, Vec<u8>)>,
}

fn parser_error(problem: &str, mark: Mark) -> Error {
    Error::new(Stage::Parser, problem, mark)
}

fn context_error(context: Mark, problem: &str, mark: Mark) -> Error {
    Error::new(Stage::Parser, problem, mark).with_context(context)
}

fn event(kind: EventKind, token: &Token) -> Event {
    Event {
        kind,
        start: token.start,
    }
}

/// A scalar token's event: implicit when plain and untagged, or tagged
/// `!` (yaml.v2's `plain_implicit`).
fn scalar_event(properties: Properties, value: &[u8], style: Style) -> Scalar {
    let tag = &properties.tag;
    let implicit = (tag.is_empty() && style == Style::Plain) || tag == b"!";
    Scalar {
        value: String::from_utf8_lossy(value).into_owned(),
        properties,
        implicit,
        style,
    }
}

fn empty_scalar(mark: Mark) -> Event {
    let scalar = Scalar {
        properties: Properties::default(),
        value: String::new(),
        implicit: true,
        style: Style::Plain,
    };
    Event {
        kind: EventKind::Scalar(scalar),
        start: mark,
    }
}

impl Parser {
    pub fn new(input: Rc<str>) -> Parser {
        Parser {
            scanner: Scanner::new(input),
            state: State::StreamStart,
            states: Vec::new(),
            marks: Vec::new(),
            tag_directives: Vec::new(),
        }
    }

    /// Characters read so far.
    pub fn position(&self) -> usize {
        self.scanner.position()
    }

    /// The next event; `None` after the end of the stream.
    pub fn next_event(&mut self) -> Result<Option<Event>, Error> {
        if self.scanner.stream_end_produced || self.state == State::End {
            return Ok(None);
        }
        self.state_machine().map(Some)
    }

    fn peek(&mut self) -> Result<Token, Error> {
        self.scanner.peek().cloned()
    }

    fn pop_state(&mut self) {
        self.state = self.states.pop().unwrap_or(State::End);
    }

    fn state_machine(&mut self) -> Result<Event, Error> {
        match self.state {
            State::StreamStart => self.parse_stream_start(),
            State::ImplicitDocumentStart => self.parse_document_start(true),
            State::DocumentStart => self.parse_document_start(false),
            State::DocumentContent => self.parse_document_content(),
            State::DocumentEnd => self.parse_document_end(),
            State::BlockNode => self.parse_node(true, false),
            State::BlockSequenceFirstEntry => self.parse_block_sequence_entry(true),
            State::BlockSequenceEntry => self.parse_block_sequence_entry(false),
            State::IndentlessSequenceEntry => self.parse_indentless_sequence_entry(),
            State::BlockMappingFirstKey => self.parse_block_mapping_key(true),
            State::BlockMappingKey => self.parse_block_mapping_key(false),
            State::BlockMappingValue => self.parse_block_mapping_value(),
            State::FlowSequenceFirstEntry => self.parse_flow_sequence_entry(true),
            State::FlowSequenceEntry => self.parse_flow_sequence_entry(false),
            State::FlowSequenceEntryMappingKey => self.parse_flow_sequence_entry_mapping_key(),
            State::FlowSequenceEntryMappingValue => self.parse_flow_sequence_entry_mapping_value(),
            State::FlowSequenceEntryMappingEnd => self.parse_flow_sequence_entry_mapping_end(),
            State::FlowMappingFirstKey => self.parse_flow_mapping_key(true),
            State::FlowMappingKey => self.parse_flow_mapping_key(false),
            State::FlowMappingValue => self.parse_flow_mapping_value(false),
            State::FlowMappingEmptyValue => self.parse_flow_mapping_value(true),
            State::End => Err(parser_error("no more events", Mark::default())),
        }
    }

    fn parse_stream_start(&mut self) -> Result<Event, Error> {
        let token = self.peek()?;
        if token.kind != TokenKind::StreamStart {
            return Err(parser_error(
                "did not find expected <stream-start>",
                token.start,
            ));
        }
        self.state = State::ImplicitDocumentStart;
        self.scanner.skip_token();
        Ok(event(EventKind::StreamStart, &token))
    }

    fn parse_document_start(&mut self, implicit: bool) -> Result<Event, Error> {
        let mut token = self.peek()?;
        if !implicit {
            while token.kind == TokenKind::DocumentEnd {
                self.scanner.skip_token();
                token = self.peek()?;
            }
        }
        let directive = matches!(
            token.kind,
            TokenKind::VersionDirective(..) | TokenKind::TagDirective { .. }
        );
        if implicit
            && !directive
            && token.kind != TokenKind::DocumentStart
            && token.kind != TokenKind::StreamEnd
        {
            self.process_directives()?;
            self.states.push(State::DocumentEnd);
            self.state = State::BlockNode;
            return Ok(event(EventKind::DocumentStart, &token));
        }
        if token.kind == TokenKind::StreamEnd {
            self.state = State::End;
            self.scanner.skip_token();
            return Ok(event(EventKind::StreamEnd, &token));
        }
        let start = token.start;
        self.process_directives()?;
        let token = self.peek()?;
        if token.kind != TokenKind::DocumentStart {
            return Err(parser_error(
                "did not find expected <document start>",
                token.start,
            ));
        }
        self.states.push(State::DocumentEnd);
        self.state = State::DocumentContent;
        self.scanner.skip_token();
        Ok(Event {
            kind: EventKind::DocumentStart,
            start,
        })
    }

    fn parse_document_content(&mut self) -> Result<Event, Error> {
        let token = self.peek()?;
        let ends = matches!(
            token.kind,
            TokenKind::VersionDirective(..)
                | TokenKind::TagDirective { .. }
                | TokenKind::DocumentStart
                | TokenKind::DocumentEnd
                | TokenKind::StreamEnd
        );
        if ends {
            self.pop_state();
            return Ok(empty_scalar(token.start));
        }
        self.parse_node(true, false)
    }

    fn parse_document_end(&mut self) -> Result<Event, Error> {
        let token = self.peek()?;
        if token.kind == TokenKind::DocumentEnd {
            self.scanner.skip_token();
        }
        self.tag_directives.clear();
        self.state = State::DocumentStart;
        Ok(event(EventKind::DocumentEnd, &token))
    }

    /// `yaml_parser_parse_node`: an alias, or a node with its properties.
    fn parse_node(&mut self, block: bool, indentless_sequence: bool) -> Result<Event, Error> {
        let mut token = self.peek()?;
        if let TokenKind::Alias(name) = &token.kind {
            self.pop_state();
            self.scanner.skip_token();
            return Ok(event(EventKind::Alias(name.clone()), &token));
        }
        let start = token.start;
        let (mut anchor, mut tag_token, mut tag_mark) = (None, None, start);
        for _ in 0..2 {
            match &token.kind {
                TokenKind::Anchor(name) if anchor.is_none() => anchor = Some(name.clone()),
                TokenKind::Tag { handle, suffix } if tag_token.is_none() => {
                    tag_token = Some((handle.clone(), suffix.clone()));
                    tag_mark = token.start;
                }
                _ => break,
            }
            self.scanner.skip_token();
            token = self.peek()?;
        }
        let tag = match tag_token {
            None => Vec::new(),
            Some((handle, suffix)) => self.resolve_tag(&handle, suffix, start, tag_mark)?,
        };
        let properties = Properties { anchor, tag };
        self.node_content(token, properties, start, block, indentless_sequence)
    }

    /// The tag a handle and suffix name (`!!int` is `tag:yaml.org,2002:int`).
    fn resolve_tag(
        &self,
        handle: &[u8],
        suffix: Vec<u8>,
        start: Mark,
        tag_mark: Mark,
    ) -> Result<Vec<u8>, Error> {
        if handle.is_empty() {
            return Ok(suffix);
        }
        let found = self.tag_directives.iter().find(|(h, _)| h == handle);
        match found {
            Some((_, prefix)) if !prefix.is_empty() || !suffix.is_empty() => {
                Ok([prefix.as_slice(), &suffix].concat())
            }
            _ => Err(context_error(start, "found undefined tag handle", tag_mark)),
        }
    }

    fn node_content(
        &mut self,
        token: Token,
        properties: Properties,
        start: Mark,
        block: bool,
        indentless_sequence: bool,
    ) -> Result<Event, Error> {
        let kind = match &token.kind {
            TokenKind::BlockEntry if indentless_sequence => {
                self.state = State::IndentlessSequenceEntry;
                EventKind::SequenceStart(properties)
            }
            TokenKind::Scalar { value, style } => {
                self.pop_state();
                self.scanner.skip_token();
                EventKind::Scalar(scalar_event(properties, value, *style))
            }
            TokenKind::FlowSequenceStart => {
                self.state = State::FlowSequenceFirstEntry;
                EventKind::SequenceStart(properties)
            }
            TokenKind::FlowMappingStart => {
                self.state = State::FlowMappingFirstKey;
                EventKind::MappingStart(properties)
            }
            TokenKind::BlockSequenceStart if block => {
                self.state = State::BlockSequenceFirstEntry;
                EventKind::SequenceStart(properties)
            }
            TokenKind::BlockMappingStart if block => {
                self.state = State::BlockMappingFirstKey;
                EventKind::MappingStart(properties)
            }
            _ if properties.anchor.is_some() || !properties.tag.is_empty() => {
                // Properties and no content: an empty scalar.
                self.pop_state();
                let implicit = properties.tag.is_empty();
                let value = String::new();
                let style = Style::Plain;
                let scalar = Scalar {
                    properties,
                    value,
                    implicit,
                    style,
                };
                return Ok(Event {
                    kind: EventKind::Scalar(scalar),
                    start,
                });
            }
            _ => {
                let problem = "did not find expected node content";
                return Err(context_error(start, problem, token.start));
            }
        };
        Ok(Event { kind, start })
    }

    fn parse_block_sequence_entry(&mut self, first: bool) -> Result<Event, Error> {
        if first {
            let token = self.peek()?;
            self.marks.push(token.start);
            self.scanner.skip_token();
        }
        let token = self.peek()?;
        match token.kind {
            TokenKind::BlockEntry => {
                let mark = token.end;
                self.scanner.skip_token();
                let token = self.peek()?;
                if !matches!(token.kind, TokenKind::BlockEntry | TokenKind::BlockEnd) {
                    self.states.push(State::BlockSequenceEntry);
                    return self.parse_node(true, false);
                }
                self.state = State::BlockSequenceEntry;
                Ok(empty_scalar(mark))
            }
            TokenKind::BlockEnd => {
                self.pop_state();
                self.marks.pop();
                self.scanner.skip_token();
                Ok(event(EventKind::SequenceEnd, &token))
            }
            _ => {
                let context = self.marks.pop().unwrap_or_default();
                let problem = "did not find expected '-' indicator";
                Err(context_error(context, problem, token.start))
            }
        }
    }

    fn parse_indentless_sequence_entry(&mut self) -> Result<Event, Error> {
        let token = self.peek()?;
        if token.kind == TokenKind::BlockEntry {
            let mark = token.end;
            self.scanner.skip_token();
            let token = self.peek()?;
            let next = matches!(
                token.kind,
                TokenKind::BlockEntry | TokenKind::Key | TokenKind::Value | TokenKind::BlockEnd
            );
            if !next {
                self.states.push(State::IndentlessSequenceEntry);
                return self.parse_node(true, false);
            }
            self.state = State::IndentlessSequenceEntry;
            return Ok(empty_scalar(mark));
        }
        self.pop_state();
        Ok(event(EventKind::SequenceEnd, &token))
    }

    fn parse_block_mapping_key(&mut self, first: bool) -> Result<Event, Error> {
        if first {
            let token = self.peek()?;
            self.marks.push(token.start);
            self.scanner.skip_token();
        }
        let token = self.peek()?;
        match token.kind {
            TokenKind::Key => {
                let mark = token.end;
                self.scanner.skip_token();
                let token = self.peek()?;
                let next = matches!(
                    token.kind,
                    TokenKind::Key | TokenKind::Value | TokenKind::BlockEnd
                );
                if !next {
                    self.states.push(State::BlockMappingValue);
                    return self.parse_node(true, true);
                }
                self.state = State::BlockMappingValue;
                Ok(empty_scalar(mark))
            }
            TokenKind::BlockEnd => {
                self.pop_state();
                self.marks.pop();
                self.scanner.skip_token();
                Ok(event(EventKind::MappingEnd, &token))
            }
            _ => {
                let context = self.marks.pop().unwrap_or_default();
                let problem = "did not find expected key";
                Err(context_error(context, problem, token.start))
            }
        }
    }

    fn parse_block_mapping_value(&mut self) -> Result<Event, Error> {
        let token = self.peek()?;
        if token.kind == TokenKind::Value {
            let mark = token.end;
            self.scanner.skip_token();
            let token = self.peek()?;
            let next = matches!(
                token.kind,
                TokenKind::Key | TokenKind::Value | TokenKind::BlockEnd
            );
            if !next {
                self.states.push(State::BlockMappingKey);
                return self.parse_node(true, true);
            }
            self.state = State::BlockMappingKey;
            return Ok(empty_scalar(mark));
        }
        self.state = State::BlockMappingKey;
        Ok(empty_scalar(token.start))
    }

    fn parse_flow_sequence_entry(&mut self, first: bool) -> Result<Event, Error> {
        if first {
            let token = self.peek()?;
            self.marks.push(token.start);
            self.scanner.skip_token();
        }
        let mut token = self.peek()?;
        if token.kind != TokenKind::FlowSequenceEnd {
            if !first {
                if token.kind != TokenKind::FlowEntry {
                    let context = self.marks.pop().unwrap_or_default();
                    let problem = "did not find expected ',' or ']'";
                    return Err(context_error(context, problem, token.start));
                }
                self.scanner.skip_token();
                token = self.peek()?;
            }
            if token.kind == TokenKind::Key {
                self.state = State::FlowSequenceEntryMappingKey;
                self.scanner.skip_token();
                let properties = Properties::default();
                return Ok(event(EventKind::MappingStart(properties), &token));
            }
            if token.kind != TokenKind::FlowSequenceEnd {
                self.states.push(State::FlowSequenceEntry);
                return self.parse_node(false, false);
            }
        }
        self.pop_state();
        self.marks.pop();
        self.scanner.skip_token();
        Ok(event(EventKind::SequenceEnd, &token))
    }

    fn parse_flow_sequence_entry_mapping_key(&mut self) -> Result<Event, Error> {
        let token = self.peek()?;
        let next = matches!(
            token.kind,
            TokenKind::Value | TokenKind::FlowEntry | TokenKind::FlowSequenceEnd
        );
        if !next {
            self.states.push(State::FlowSequenceEntryMappingValue);
            return self.parse_node(false, false);
        }
        let mark = token.end;
        self.scanner.skip_token();
        self.state = State::FlowSequenceEntryMappingValue;
        Ok(empty_scalar(mark))
    }

    fn parse_flow_sequence_entry_mapping_value(&mut self) -> Result<Event, Error> {
        let mut token = self.peek()?;
        if token.kind == TokenKind::Value {
            self.scanner.skip_token();
            token = self.peek()?;
            if !matches!(
                token.kind,
                TokenKind::FlowEntry | TokenKind::FlowSequenceEnd
            ) {
                self.states.push(State::FlowSequenceEntryMappingEnd);
                return self.parse_node(false, false);
            }
        }
        self.state = State::FlowSequenceEntryMappingEnd;
        Ok(empty_scalar(token.start))
    }

    fn parse_flow_sequence_entry_mapping_end(&mut self) -> Result<Event, Error> {
        let token = self.peek()?;
        self.state = State::FlowSequenceEntry;
        Ok(event(EventKind::MappingEnd, &token))
    }

    fn parse_flow_mapping_key(&mut self, first: bool) -> Result<Event, Error> {
        if first {
            let token = self.peek()?;
            self.marks.push(token.start);
            self.scanner.skip_token();
        }
        let mut token = self.peek()?;
        if token.kind != TokenKind::FlowMappingEnd {
            if !first {
                if token.kind != TokenKind::FlowEntry {
                    let context = self.marks.pop().unwrap_or_default();
                    let problem = "did not find expected ',' or '}'";
                    return Err(context_error(context, problem, token.start));
                }
                self.scanner.skip_token();
                token = self.peek()?;
            }
            if token.kind == TokenKind::Key {
                self.scanner.skip_token();
                let token = self.peek()?;
                let next = matches!(
                    token.kind,
                    TokenKind::Value | TokenKind::FlowEntry | TokenKind::FlowMappingEnd
                );
                if !next {
                    self.states.push(State::FlowMappingValue);
                    return self.parse_node(false, false);
                }
                self.state = State::FlowMappingValue;
                return Ok(empty_scalar(token.start));
            }
            if token.kind != TokenKind::FlowMappingEnd {
                self.states.push(State::FlowMappingEmptyValue);
                return self.parse_node(false, false);
            }
        }
        self.pop_state();
        self.marks.pop();
        self.scanner.skip_token();
        Ok(event(EventKind::MappingEnd, &token))
    }

    fn parse_flow_mapping_value(&mut self, empty: bool) -> Result<Event, Error> {
        let mut token = self.peek()?;
        if empty {
            self.state = State::FlowMappingKey;
            return Ok(empty_scalar(token.start));
        }
        if token.kind == TokenKind::Value {
            self.scanner.skip_token();
            token = self.peek()?;
            if !matches!(token.kind, TokenKind::FlowEntry | TokenKind::FlowMappingEnd) {
                self.states.push(State::FlowMappingKey);
                return self.parse_node(false, false);
            }
        }
        self.state = State::FlowMappingKey;
        Ok(empty_scalar(token.start))
    }

    /// `yaml_parser_process_directives`: `%YAML` must say 1.1; `%TAG`
    /// handles must not repeat; then the default handles `!` and `!!`.
    fn process_directives(&mut self) -> Result<(), Error> {
        let mut version = false;
        let mut token = self.peek()?;
        loop {
            match &token.kind {
                TokenKind::VersionDirective(major, minor) => {
                    if version {
                        return Err(parser_error("found duplicate %YAML directive", token.start));
                    }
                    if (*major, *minor) != (1, 1) {
                        return Err(parser_error(
                            "found incompatible YAML document",
                            token.start,
                        ));
                    }
                    version = true;
                }
                TokenKind::TagDirective { handle, prefix } => {
                    if self.tag_directives.iter().any(|(h, _)| h == handle) {
                        return Err(parser_error("found duplicate %TAG directive", token.start));
                    }
                    self.tag_directives.push((handle.clone(), prefix.clone()));
                }
                _ => break,
            }
            self.scanner.skip_token();
            token = self.peek()?;
        }
        for (handle, prefix) in [(&b"!"[..], &b"!"[..]), (b"!!", b"tag:yaml.org,2002:")] {
            if !self.tag_directives.iter().any(|(h, _)| h == handle) {
                self.tag_directives.push((handle.to_vec(), prefix.to_vec()));
            }
        }
        Ok(())
    }
}
