//! Pastes and drops that would take an editor over the input budget are
//! stopped before they happen: the browser would freeze for seconds laying
//! out the text only for the parser to refuse it.

const MIB: usize = 1024 * 1024;
// The limit is said in whole MiB.
const _: () = assert!(crate::limits::OBJECT_BYTES.is_multiple_of(MIB));

/// Why inserting `inserted` bytes over the selection `start..end` (UTF-16
/// offsets, as the browser reports them) of `text` is refused, if it is.
pub fn refuse_insert(text: &str, start: usize, end: usize, inserted: usize) -> Option<String> {
    let limit = crate::limits::OBJECT_BYTES;
    let selected = utf16_range_bytes(text, start, end);
    let total = text.len() - selected + inserted;
    (total > limit).then(|| {
        format!(
            "Not pasted: the object would be at least {} bytes ({} MiB), more than the limit \
             of {} MiB (kube-apiserver refuses request bodies above 3 MiB). Your text is unchanged.",
            thousands(total),
            tenths_of_mib(total),
            limit / MIB
        )
    })
}

/// Bytes in MiB to one decimal, rounded to the nearest ("4.0", "10.3"),
/// in integers: the page module carries no float formatting for this one
/// message.
fn tenths_of_mib(bytes: usize) -> String {
    let tenths = (bytes as u64 * 10 + MIB as u64 / 2) / MIB as u64;
    format!("{}.{}", tenths / 10, tenths % 10)
}

/// 1234567 as "1,234,567".
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() * 4 / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// Bytes of `text` between two UTF-16 offsets (clamped to the text).
fn utf16_range_bytes(text: &str, start: usize, end: usize) -> usize {
    let (mut units, mut from, mut to) = (0, None, None);
    for (byte, c) in text.char_indices() {
        if from.is_none() && units >= start {
            from = Some(byte);
        }
        if units >= end {
            to = Some(byte);
            break;
        }
        units += c.len_utf16();
    }
    let from = from.unwrap_or(text.len());
    to.unwrap_or(text.len()).saturating_sub(from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn oversized_pastes_are_refused_before_they_happen() {
        let limit = crate::limits::OBJECT_BYTES;
        assert_eq!(refuse_insert("", 0, 0, limit), None);
        let refusal = refuse_insert("", 0, 0, limit + 1).unwrap();
        assert_eq!(
            refusal,
            "Not pasted: the object would be at least 4,194,305 bytes (4.0 MiB), more than the \
             limit of 4 MiB (kube-apiserver refuses request bodies above 3 MiB). Your text is \
             unchanged."
        );
        // As `{:.1}` of the size in MiB would write it.
        for bytes in [
            0, 1, 52_428, 52_429, 104_857, 1_048_576, 4_194_305, 10_800_000, 99_999_999,
        ] {
            assert_eq!(
                tenths_of_mib(bytes),
                format!("{:.1}", bytes as f64 / MIB as f64),
                "{bytes}"
            );
        }
        assert_eq!(
            [0, 12, 123, 1234, 123_456, 1_234_567].map(thousands),
            ["0", "12", "123", "1,234", "123,456", "1,234,567"]
        );
        // The selection is replaced, so it does not count.
        let text = "é".repeat(1000); // 2000 bytes, 1000 UTF-16 units
        assert_eq!(refuse_insert(&text, 0, 1000, limit), None);
        assert!(refuse_insert(&text, 0, 999, limit).is_some());
        assert_eq!(utf16_range_bytes(&text, 10, 20), 20);
        assert_eq!(utf16_range_bytes("a😀b", 1, 3), 4);
        assert_eq!(utf16_range_bytes("ab", 5, 9), 0);
    }
}
