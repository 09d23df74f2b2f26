//! Routing by URL fragment (`#/build`, `#/race`, ...), so static hosting
//! needs no server rules.

/// One of the playground's top-level views.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum View {
    /// Edit old and new objects and compare strategies side by side.
    Build,
    /// Replay concurrent writers step by step.
    Race,
    /// Mass migration of thousands of VMIs under each strategy.
    Scale,
    /// Guided walkthroughs.
    Learn,
}

impl View {
    /// Every view, in navigation order.
    pub const ALL: [View; 4] = [View::Build, View::Race, View::Scale, View::Learn];

    /// The path segment used in the fragment: `build` for `#/build`.
    pub fn slug(self) -> &'static str {
        match self {
            View::Build => "build",
            View::Race => "race",
            View::Scale => "scale",
            View::Learn => "learn",
        }
    }

    /// The navigation label.
    pub fn title(self) -> &'static str {
        match self {
            View::Build => "Build",
            View::Race => "Race",
            View::Scale => "Scale",
            View::Learn => "Learn",
        }
    }

    /// One line saying what the view does.
    pub fn summary(self) -> &'static str {
        match self {
            View::Build => {
                "Edit an old and a new object and compare, side by side, the JSON Patch each strategy sends, what it tests and what it risks."
            }
            View::Race => {
                "Replay concurrent writers step by step and see which test ops fail, which fail for nothing, and which writes erase others."
            }
            View::Scale => {
                "Run a mass live migration of thousands of VMIs under each strategy and chart conflicts, retries and lost updates."
            }
            View::Learn => {
                "Guided walkthroughs: what a test op does, the mass-migration race, per-key patches, finalizers, escaping, and the server's quirks."
            }
        }
    }

    /// The fragment that links to this view, including the `#`.
    pub fn href(self) -> String {
        format!("#/{}", self.slug())
    }
}

/// A parsed fragment: the view and the raw query after `?` (view-specific state).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    /// The view to show.
    pub view: View,
    /// Everything after the first `?`, without it; empty when absent.
    pub query: String,
}

impl Route {
    /// Parses a fragment such as `#/race?s=...`. Unknown or empty paths open
    /// the Build view, so a mistyped link still shows a working page.
    pub fn parse(fragment: &str) -> Route {
        let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
        let (path, query) = match fragment.split_once('?') {
            Some((path, query)) => (path, query),
            None => (fragment, ""),
        };
        let slug = path.trim_matches('/');
        let view = View::ALL
            .into_iter()
            .find(|view| view.slug().eq_ignore_ascii_case(slug))
            .unwrap_or(View::Build);
        Route {
            view,
            query: query.to_owned(),
        }
    }

    /// Formats the route back into a fragment, including the `#`.
    pub fn to_fragment(&self) -> String {
        if self.query.is_empty() {
            self.view.href()
        } else {
            format!("{}?{}", self.view.href(), self.query)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_each_view_and_falls_back_to_build() {
        let cases = [
            ("", View::Build),
            ("#", View::Build),
            ("#/", View::Build),
            ("#/build", View::Build),
            ("#/race", View::Race),
            ("#/scale/", View::Scale),
            ("#/LEARN", View::Learn),
            ("race", View::Race),
            ("#/nope", View::Build),
            ("#/race?x=1", View::Race),
        ];
        for (fragment, view) in cases {
            assert_eq!(Route::parse(fragment).view, view, "fragment {fragment:?}");
        }
    }

    #[test]
    fn keeps_the_query_and_round_trips() {
        let route = Route::parse("#/race?s=abc?def");
        assert_eq!(route.query, "s=abc?def");
        assert_eq!(route.to_fragment(), "#/race?s=abc?def");
        for view in View::ALL {
            let route = Route {
                view,
                query: String::new(),
            };
            assert_eq!(Route::parse(&route.to_fragment()), route);
        }
    }

    #[test]
    fn every_view_has_a_distinct_slug_and_a_summary() {
        for (i, a) in View::ALL.iter().enumerate() {
            assert!(!a.summary().is_empty());
            for b in &View::ALL[i + 1..] {
                assert_ne!(a.slug(), b.slug());
            }
        }
    }
}
