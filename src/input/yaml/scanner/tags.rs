//! Directives (`%YAML`, `%TAG`), anchors, aliases and tags, as yaml.v2
//! scans them.

use super::super::error::Error;
use super::super::error::Mark;
use super::super::reader::width;
use super::{Scanner, Token, TokenKind};

/// yaml.v2's `max_number_length`: digits of a `%YAML` version number.
const MAX_NUMBER_LENGTH: usize = 2;

impl Scanner {
    /// `yaml_parser_scan_directive`.
    pub(super) fn scan_directive(&mut self) -> Result<Token, Error> {
        let start = self.r.mark;
        self.r.skip();
        let name = self.scan_directive_name(start)?;
        let kind = match name.as_slice() {
            b"YAML" => {
                let (major, minor) = self.scan_version_directive_value(start)?;
                TokenKind::VersionDirective(major, minor)
            }
            b"TAG" => {
                let (handle, prefix) = self.scan_tag_directive_value(start)?;
                TokenKind::TagDirective { handle, prefix }
            }
            _ => return Err(self.error(start, "found unknown directive name")),
        };
        let end = self.r.mark;
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
        Ok(Token::new(kind, start, end))
    }

    fn scan_directive_name(&mut self, start: Mark) -> Result<Vec<u8>, Error> {
        self.r.cache(1)?;
        let mut s = Vec::new();
        while self.r.is_alpha(0) {
            self.r.read(&mut s);
            self.r.cache(1)?;
        }
        if s.is_empty() {
            return Err(self.error(start, "could not find expected directive name"));
        }
        if !self.r.is_blankz(0) {
            return Err(self.error(start, "found unexpected non-alphabetical character"));
        }
        Ok(s)
    }

    fn scan_version_directive_value(&mut self, start: Mark) -> Result<(i8, i8), Error> {
        self.r.cache(1)?;
        while self.r.is_blank(0) {
            self.r.skip();
            self.r.cache(1)?;
        }
        let major = self.scan_version_directive_number(start)?;
        if self.r.ch() != b'.' {
            let problem = "did not find expected digit or '.' character";
            return Err(self.error(start, problem));
        }
        self.r.skip();
        let minor = self.scan_version_directive_number(start)?;
        Ok((major, minor))
    }

    fn scan_version_directive_number(&mut self, start: Mark) -> Result<i8, Error> {
        self.r.cache(1)?;
        let (mut value, mut length) = (0i8, 0usize);
        while self.r.ch().is_ascii_digit() {
            length += 1;
            if length > MAX_NUMBER_LENGTH {
                return Err(self.error(start, "found extremely long version number"));
            }
            value = value * 10 + (self.r.ch() - b'0') as i8;
            self.r.skip();
            self.r.cache(1)?;
        }
        if length == 0 {
            return Err(self.error(start, "did not find expected version number"));
        }
        Ok(value)
    }

    fn scan_tag_directive_value(&mut self, start: Mark) -> Result<(Vec<u8>, Vec<u8>), Error> {
        self.r.cache(1)?;
        while self.r.is_blank(0) {
            self.r.skip();
            self.r.cache(1)?;
        }
        let handle = self.scan_tag_handle(true, start)?;
        self.r.cache(1)?;
        if !self.r.is_blank(0) {
            let problem = "did not find expected whitespace";
            return Err(self.error(start, problem));
        }
        while self.r.is_blank(0) {
            self.r.skip();
            self.r.cache(1)?;
        }
        let prefix = self.scan_tag_uri(true, &[], start)?;
        self.r.cache(1)?;
        if !self.r.is_blankz(0) {
            let problem = "did not find expected whitespace or line break";
            return Err(self.error(start, problem));
        }
        Ok((handle, prefix))
    }

    /// `yaml_parser_scan_anchor`: `&name` or `*name`.
    pub(super) fn scan_anchor(&mut self, alias: bool) -> Result<Token, Error> {
        let start = self.r.mark;
        self.r.skip();
        self.r.cache(1)?;
        let mut s = Vec::new();
        while self.r.is_alpha(0) {
            self.r.read(&mut s);
            self.r.cache(1)?;
        }
        let end = self.r.mark;
        let ends = self.r.is_blankz(0) || b"?:,]}%@`".contains(&self.r.ch());
        if s.is_empty() || !ends {
            let problem = "did not find expected alphabetic or numeric character";
            return Err(self.error(start, problem));
        }
        let kind = if alias {
            TokenKind::Alias(s)
        } else {
            TokenKind::Anchor(s)
        };
        Ok(Token::new(kind, start, end))
    }

    /// `yaml_parser_scan_tag`: `!<uri>`, `!suffix`, `!handle!suffix` or `!`.
    pub(super) fn scan_tag(&mut self) -> Result<Token, Error> {
        let start = self.r.mark;
        self.r.cache(2)?;
        let (handle, suffix);
        if self.r.at(1) == b'<' {
            self.r.skip();
            self.r.skip();
            suffix = self.scan_tag_uri(false, &[], start)?;
            if self.r.ch() != b'>' {
                return Err(self.error(start, "did not find the expected '>'"));
            }
            self.r.skip();
            handle = Vec::new();
        } else {
            let scanned = self.scan_tag_handle(false, start)?;
            if scanned.len() > 1 && scanned.first() == Some(&b'!') && scanned.last() == Some(&b'!')
            {
                suffix = self.scan_tag_uri(false, &[], start)?;
                handle = scanned;
            } else {
                let rest = self.scan_tag_uri(false, &scanned, start)?;
                if rest.is_empty() {
                    // The `!` tag: no handle, suffix `!`.
                    (handle, suffix) = (Vec::new(), b"!".to_vec());
                } else {
                    (handle, suffix) = (b"!".to_vec(), rest);
                }
            }
        }
        self.r.cache(1)?;
        if !self.r.is_blankz(0) {
            let problem = "did not find expected whitespace or line break";
            return Err(self.error(start, problem));
        }
        let end = self.r.mark;
        Ok(Token::new(TokenKind::Tag { handle, suffix }, start, end))
    }

    /// The error yaml.v2's `yaml_parser_set_scanner_tag_error` records.
    fn tag_error(&self, start: Mark, problem: &str) -> Error {
        self.error(start, problem)
    }

    fn scan_tag_handle(&mut self, directive: bool, start: Mark) -> Result<Vec<u8>, Error> {
        self.r.cache(1)?;
        if self.r.ch() != b'!' {
            return Err(self.tag_error(start, "did not find expected '!'"));
        }
        let mut s = Vec::new();
        self.r.read(&mut s);
        self.r.cache(1)?;
        while self.r.is_alpha(0) {
            self.r.read(&mut s);
            self.r.cache(1)?;
        }
        if self.r.ch() == b'!' {
            self.r.read(&mut s);
        } else if directive && s != b"!" {
            return Err(self.tag_error(start, "did not find expected '!'"));
        }
        Ok(s)
    }

    /// A tag's URI characters (`%XX` escapes decoded), after `head`
    /// without its leading `!`.
    fn scan_tag_uri(
        &mut self,
        directive: bool,
        head: &[u8],
        start: Mark,
    ) -> Result<Vec<u8>, Error> {
        let mut has_tag = !head.is_empty();
        let mut s = head.get(1..).unwrap_or_default().to_vec();
        self.r.cache(1)?;
        while self.r.is_alpha(0) || b";/?:@&=+$,.!~*'()[]%".contains(&self.r.ch()) {
            if self.r.ch() == b'%' {
                self.scan_uri_escapes(directive, start, &mut s)?;
            } else {
                self.r.read(&mut s);
            }
            self.r.cache(1)?;
            has_tag = true;
        }
        if !has_tag {
            return Err(self.tag_error(start, "did not find expected tag URI"));
        }
        Ok(s)
    }

    fn scan_uri_escapes(
        &mut self,
        _directive: bool,
        start: Mark,
        s: &mut Vec<u8>,
    ) -> Result<(), Error> {
        let mut w = usize::MAX;
        while w > 0 {
            self.r.cache(3)?;
            let hex = |b: u8| char::from(b).to_digit(16);
            let (Some(high), Some(low)) = (hex(self.r.at(1)), hex(self.r.at(2))) else {
                return Err(self.tag_error(start, "did not find URI escaped octet"));
            };
            if self.r.ch() != b'%' {
                return Err(self.tag_error(start, "did not find URI escaped octet"));
            }
            let octet = (high * 16 + low) as u8;
            if w == usize::MAX {
                w = width(octet);
                if w == 0 {
                    return Err(self.tag_error(start, "found an incorrect leading UTF-8 octet"));
                }
            } else if octet & 0xC0 != 0x80 {
                return Err(self.tag_error(start, "found an incorrect trailing UTF-8 octet"));
            }
            s.push(octet);
            self.r.skip();
            self.r.skip();
            self.r.skip();
            w -= 1;
        }
        Ok(())
    }
}
