//! The characters the scanner reads, as yaml.v2's reader hands them over
//! (`readerc.go`): a UTF-8 byte order mark at the start is dropped, the
//! text is decoded 512 bytes at a time when the scanner needs more, and a
//! character outside YAML's printable set refuses the whole text
//! ("control characters are not allowed") when its chunk is decoded, not
//! when the scanner reaches it. Past the end every byte reads as NUL.
//!
//! The text is already UTF-8 (a `&str`), so yaml.v2's UTF-8 and UTF-16
//! decoding errors cannot occur; the chunking is kept because it decides
//! which error a text with a control character and a syntax error gets.

use std::rc::Rc;

use super::error::{Error, Mark, Stage};

/// yaml.v2's `input_raw_buffer_size`: bytes read from the input at a time.
const RAW_CHUNK: usize = 512;

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The reader's state: what is decoded, what the scanner has consumed.
pub(super) struct Reader {
    input: Rc<str>,
    /// Byte offset of the current character (beyond the text: NULs).
    pos: usize,
    pub mark: Mark,
    /// Characters decoded and not yet consumed (yaml.v2's `unread`).
    unread: usize,
    /// Bytes decoded so far, and bytes read into the raw buffer so far.
    decoded: usize,
    raw_end: usize,
    eof: bool,
    started: bool,
    /// Where yaml.v2's decoded buffer starts (its `buffer[0]`), which its
    /// byte-order-mark test reads instead of the current position.
    window: usize,
}

impl Reader {
    /// A reader of `input` (an empty text reads as one line break, as
    /// yaml.v2's `newParser` makes it).
    pub fn new(input: Rc<str>) -> Reader {
        let input: Rc<str> = if input.is_empty() {
            Rc::from("\n")
        } else {
            input
        };
        Reader {
            input,
            pos: 0,
            mark: Mark::default(),
            unread: 0,
            decoded: 0,
            raw_end: 0,
            eof: false,
            started: false,
            window: 0,
        }
    }

    /// The byte `k` places after the current one (0 past the end).
    #[inline]
    pub fn at(&self, k: usize) -> u8 {
        self.input
            .as_bytes()
            .get(self.pos + k)
            .copied()
            .unwrap_or(0)
    }

    /// The current byte.
    #[inline]
    pub fn ch(&self) -> u8 {
        self.at(0)
    }

    /// Makes `length` characters available (yaml.v2's `cache`).
    #[inline]
    pub fn cache(&mut self, length: usize) -> Result<(), Error> {
        if self.unread >= length {
            return Ok(());
        }
        self.update(length)
    }

    /// yaml.v2's `yaml_parser_update_buffer`.
    fn update(&mut self, length: usize) -> Result<(), Error> {
        if !self.started {
            self.start();
        }
        self.window = self.pos;
        let mut first = true;
        while self.unread < length {
            if !first || self.decoded == self.raw_end {
                self.read_raw();
            }
            first = false;
            self.decode()?;
            if self.eof {
                // The NUL yaml.v2 appends at the end of the input.
                self.unread += 1;
                break;
            }
        }
        Ok(())
    }

    /// yaml.v2's `yaml_parser_determine_encoding`: fill the raw buffer
    /// with at least three bytes and drop a UTF-8 byte order mark.
    fn start(&mut self) {
        self.started = true;
        while !self.eof && self.raw_end - self.decoded < 3 {
            self.read_raw();
        }
        if self.input.as_bytes().starts_with(BOM) {
            self.decoded = BOM.len();
            self.pos = BOM.len();
            self.window = self.pos;
        }
    }

    /// yaml.v2's `yaml_parser_update_raw_buffer` over a string input: the
    /// undecoded rest moves to the front and the buffer fills to 512
    /// bytes; a read at the end of the input sets `eof`.
    fn read_raw(&mut self) {
        if self.eof {
            return;
        }
        let leftover = self.raw_end - self.decoded;
        let n = (RAW_CHUNK - leftover).min(self.input.len() - self.raw_end);
        if n == 0 {
            self.eof = true;
        }
        self.raw_end += n;
    }

    /// Decodes the complete characters of the raw buffer, refusing those
    /// YAML does not allow.
    fn decode(&mut self) -> Result<(), Error> {
        while self.decoded < self.raw_end {
            let rest = &self.input[self.decoded..];
            let Some(c) = rest.chars().next() else { break };
            if self.decoded + c.len_utf8() > self.raw_end {
                break;
            }
            if !allowed(c) {
                return Err(self.control_character(self.decoded));
            }
            self.decoded += c.len_utf8();
            self.unread += 1;
        }
        Ok(())
    }

    fn control_character(&self, offset: usize) -> Error {
        // Marks count from after a byte order mark, as yaml.v2's do.
        let start = if self.input.as_bytes().starts_with(BOM) {
            BOM.len()
        } else {
            0
        };
        let mark = mark_of(&self.input[start..], offset - start);
        Error::new(Stage::Reader, "control characters are not allowed", mark)
    }

    /// Consumes one character.
    #[inline]
    pub fn skip(&mut self) {
        self.mark.index += 1;
        self.mark.column += 1;
        self.unread = self.unread.saturating_sub(1);
        self.pos += width(self.ch()).max(1);
    }

    /// Consumes a line break (`\r\n` counts twice in the index, as in
    /// yaml.v2).
    pub fn skip_line(&mut self) {
        if self.ch() == b'\r' && self.at(1) == b'\n' {
            self.mark.index += 2;
            self.mark.column = 0;
            self.mark.line += 1;
            self.unread = self.unread.saturating_sub(2);
            self.pos += 2;
        } else if self.is_break(0) {
            self.mark.index += 1;
            self.mark.column = 0;
            self.mark.line += 1;
            self.unread = self.unread.saturating_sub(1);
            self.pos += width(self.ch()).max(1);
        }
    }

    /// Copies the current character to `s` and consumes it.
    pub fn read(&mut self, s: &mut Vec<u8>) {
        let w = width(self.ch()).max(1);
        let end = (self.pos + w).min(self.input.len());
        if self.pos < end {
            s.extend_from_slice(&self.input.as_bytes()[self.pos..end]);
        } else {
            s.push(0);
        }
        self.pos += w;
        self.mark.index += 1;
        self.mark.column += 1;
        self.unread = self.unread.saturating_sub(1);
    }

    /// Copies a line break to `s` (CR, LF, CRLF and NEL as `\n`; LS and
    /// PS as they are) and consumes it.
    pub fn read_line(&mut self, s: &mut Vec<u8>) {
        match (self.ch(), self.at(1), self.at(2)) {
            (b'\r', b'\n', _) => {
                s.push(b'\n');
                self.pos += 2;
                self.mark.index += 1;
                self.unread = self.unread.saturating_sub(1);
            }
            (b'\r' | b'\n', _, _) => {
                s.push(b'\n');
                self.pos += 1;
            }
            (0xC2, 0x85, _) => {
                s.push(b'\n');
                self.pos += 2;
            }
            (0xE2, 0x80, 0xA8 | 0xA9) => {
                s.extend_from_slice(&self.input.as_bytes()[self.pos..self.pos + 3]);
                self.pos += 3;
            }
            _ => return,
        }
        self.mark.index += 1;
        self.mark.column = 0;
        self.mark.line += 1;
        self.unread = self.unread.saturating_sub(1);
    }

    /// yaml.v2's `is_bom(parser.buffer, parser.buffer_pos)`, which tests
    /// the start of its buffer, not the position it is given.
    pub fn is_bom_quirk(&self) -> bool {
        self.input.as_bytes().get(self.window..self.window + 3) == Some(BOM)
    }

    pub fn is_blank(&self, k: usize) -> bool {
        matches!(self.at(k), b' ' | b'\t')
    }

    pub fn is_break(&self, k: usize) -> bool {
        match self.at(k) {
            b'\r' | b'\n' => true,
            0xC2 => self.at(k + 1) == 0x85,
            0xE2 => self.at(k + 1) == 0x80 && matches!(self.at(k + 2), 0xA8 | 0xA9),
            _ => false,
        }
    }

    pub fn is_z(&self, k: usize) -> bool {
        self.at(k) == 0
    }

    pub fn is_breakz(&self, k: usize) -> bool {
        self.is_break(k) || self.is_z(k)
    }

    pub fn is_blankz(&self, k: usize) -> bool {
        self.is_blank(k) || self.is_breakz(k)
    }

    /// yaml.v2's `is_alpha`: ASCII letters, digits, `_` and `-`.
    pub fn is_alpha(&self, k: usize) -> bool {
        let b = self.at(k);
        b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
    }
}

/// The bytes of the UTF-8 sequence a leading byte starts (0 when it
/// cannot start one).
#[inline]
pub(super) fn width(b: u8) -> usize {
    match b {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => 0,
    }
}

/// YAML's printable set (yaml.v2's reader check): tab, line feed,
/// carriage return, ASCII from space to `~`, NEL, and the rest of Unicode
/// but C1 controls, surrogates, U+FFFE and U+FFFF.
pub(crate) fn allowed(c: char) -> bool {
    matches!(c,
        '\t' | '\n' | '\r' | ' '..='~' | '\u{85}' | '\u{A0}'..='\u{D7FF}'
        | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// The mark of byte `offset` of `text`, counting line breaks as yaml.v2
/// does (CR LF once; NEL, LS and PS too).
pub(super) fn mark_of(text: &str, offset: usize) -> Mark {
    let mut mark = Mark::default();
    let mut chars = text[..offset.min(text.len())].chars().peekable();
    while let Some(c) = chars.next() {
        mark.index += 1;
        let crlf = c == '\r' && chars.peek() == Some(&'\n');
        if crlf {
            chars.next();
            mark.index += 1;
        }
        if matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}') {
            mark.line += 1;
            mark.column = 0;
        } else {
            mark.column += 1;
        }
    }
    mark
}
