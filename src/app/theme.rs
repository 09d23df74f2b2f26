//! Light, dark, or whatever the system prefers; remembered.

/// The colour theme.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Theme {
    /// Follow the system (`prefers-color-scheme`).
    #[default]
    System,
    /// Always light.
    Light,
    /// Always dark.
    Dark,
}

impl Theme {
    /// Every theme, in the order the switch cycles.
    pub const ALL: [Theme; 3] = [Theme::System, Theme::Light, Theme::Dark];

    /// `system`, `light` or `dark` (also the stored value).
    pub fn as_str(self) -> &'static str {
        match self {
            Theme::System => "system",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }

    /// Reads a stored value; anything unknown is the system theme.
    pub fn parse(s: &str) -> Theme {
        Theme::ALL
            .into_iter()
            .find(|t| t.as_str() == s)
            .unwrap_or_default()
    }

    /// The next theme in the cycle.
    pub fn next(self) -> Theme {
        match self {
            Theme::System => Theme::Light,
            Theme::Light => Theme::Dark,
            Theme::Dark => Theme::System,
        }
    }

    /// The `data-theme` attribute, `None` for the system theme.
    pub fn attribute(self) -> Option<&'static str> {
        match self {
            Theme::System => None,
            Theme::Light => Some("light"),
            Theme::Dark => Some("dark"),
        }
    }

    /// The label of the switch.
    pub fn label(self) -> &'static str {
        match self {
            Theme::System => "Theme: system",
            Theme::Light => "Theme: light",
            Theme::Dark => "Theme: dark",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cycles_and_parses() {
        let mut theme = Theme::default();
        for expected in [Theme::Light, Theme::Dark, Theme::System] {
            theme = theme.next();
            assert_eq!(theme, expected);
            assert_eq!(Theme::parse(theme.as_str()), theme);
        }
        assert_eq!(Theme::parse("neon"), Theme::System);
        assert_eq!(Theme::Dark.attribute(), Some("dark"));
        assert_eq!(Theme::System.attribute(), None);
    }
}
