//! Each writer its own colour: up to the simulator's writer limit
//! ([`SCENARIO_WRITERS`]), no two writers of a race (or of a Scale chart)
//! share one. The colours are CSS variables `--writer-0` ... in
//! `www/style.css`, for the light and the dark theme.

use crate::limits::SCENARIO_WRITERS;

/// How many distinct writer colours the style sheet defines.
pub const WRITER_COLOURS: usize = SCENARIO_WRITERS;

/// The class that gives the writer at `index` its colour (`w0` ...); it
/// sets `--writer` for what is inside.
pub fn writer_class(index: usize) -> String {
    format!("w{}", index % WRITER_COLOURS)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    const STYLE: &str = include_str!("../../../www/style.css");

    /// The `--writer-N` values of the rule block starting at `selector`.
    fn palette(selector: &str) -> Vec<String> {
        let start = STYLE
            .find(selector)
            .unwrap_or_else(|| panic!("no {selector} block"));
        let block = &STYLE[start..];
        let block = &block[..block.find('}').unwrap()];
        (0..WRITER_COLOURS)
            .map(|n| {
                let name = format!("--writer-{n}:");
                let at = block
                    .find(&name)
                    .unwrap_or_else(|| panic!("{selector} lacks {name}"));
                let value = &block[at + name.len()..];
                value[..value.find(';').unwrap()].trim().to_owned()
            })
            .collect()
    }

    #[test]
    fn every_writer_up_to_the_limit_has_its_own_colour_in_each_theme() {
        for selector in [
            "/* writer colours: light */",
            "/* writer colours: dark (system) */",
            "/* writer colours: dark (chosen) */",
        ] {
            let colours = palette(selector);
            let distinct: BTreeSet<&String> = colours.iter().collect();
            assert_eq!(distinct.len(), WRITER_COLOURS, "{selector}: {colours:?}");
        }
        assert_eq!(
            palette("/* writer colours: dark (system) */"),
            palette("/* writer colours: dark (chosen) */")
        );
        // Every class has its rule.
        for n in 0..WRITER_COLOURS {
            let rule = format!(".w{n} {{ --writer: var(--writer-{n}); }}");
            assert!(STYLE.contains(&rule), "missing {rule}");
        }
        assert_eq!(writer_class(0), "w0");
        assert_eq!(
            writer_class(WRITER_COLOURS - 1),
            format!("w{}", WRITER_COLOURS - 1)
        );
    }
}
