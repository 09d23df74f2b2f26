//! Routing by URL fragment, so static hosting needs no server rules. Every
//! fragment the playground reads or writes is parsed and printed here:
//!
//! | fragment | route |
//! |---|---|
//! | `#/build`, `#/build?s=1.…` | [`Route::Build`] with its link payload |
//! | `#/race?s=1.…` | [`Route::Race`] |
//! | `#/scale?s=1.…` | [`Route::Scale`] |
//! | `#/learn`, `#/learn/<walkthrough>/<step>` | [`Route::Learn`], steps counted from 1 |
//! | `#/learn?w=<walkthrough>&step=<n>` | the same, from older links (steps counted from 0) |
//! | anything else | [`Route::NotFound`] |
//!
//! An empty fragment (or `#/`) opens Build.

use std::fmt;

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
                "Edit an old and a new object; see what each strategy sends, what it tests and what it risks."
            }
            View::Race => {
                "Replay concurrent writers step by step: which test fails, which fails for nothing, which write erases another."
            }
            View::Scale => {
                "Many VMIs migrating at once under each strategy: conflicts, retries and lost updates, counted per writer."
            }
            View::Learn => {
                "Short walkthroughs, each step with a live example you can open and change."
            }
        }
    }

    /// The fragment of the view with no state.
    pub fn href(self) -> String {
        match self {
            View::Build => Route::Build(None),
            View::Race => Route::Race(None),
            View::Scale => Route::Scale(None),
            View::Learn => Route::Learn(None),
        }
        .to_fragment()
    }
}

/// A view's state packed into a link (`1.<base64url>`), as it appears
/// after `?s=`; see [`super::link`]. Not checked until decoded.
pub type Packed = String;

/// Where in a walkthrough: its id and a step counted from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LearnAt {
    /// The walkthrough's id.
    pub walkthrough: String,
    /// The step, from 1.
    pub step: usize,
}

/// A parsed fragment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// The Build view, with a link payload when opened from a link.
    Build(Option<Packed>),
    /// The Race view.
    Race(Option<Packed>),
    /// The Scale view.
    Scale(Option<Packed>),
    /// The Learn view: the list, or a step.
    Learn(Option<LearnAt>),
    /// A fragment that names no page (kept, to say what was asked for).
    NotFound(String),
}

impl Route {
    /// Parses a fragment such as `#/race?s=...`; see the module docs.
    pub fn parse(fragment: &str) -> Route {
        let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
        let (path, query) = fragment.split_once('?').unwrap_or((fragment, ""));
        let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
        let state = || param(query, "s").map(str::to_owned);
        let first = segments.first().map(|s| s.to_ascii_lowercase());
        match (first.as_deref(), &segments[segments.len().min(1)..]) {
            (None, _) => Route::Build(state()),
            (Some("build"), []) => Route::Build(state()),
            (Some("race"), []) => Route::Race(state()),
            (Some("scale"), []) => Route::Scale(state()),
            (Some("learn"), []) => Route::Learn(legacy_learn(query)),
            (Some("learn"), [walkthrough]) => Route::Learn(Some(LearnAt {
                walkthrough: (*walkthrough).to_owned(),
                step: 1,
            })),
            (Some("learn"), [walkthrough, step]) => match step.parse::<usize>() {
                Ok(step) => Route::Learn(Some(LearnAt {
                    walkthrough: (*walkthrough).to_owned(),
                    step: step.max(1),
                })),
                Err(_) => Route::NotFound(format!("#{fragment}")),
            },
            _ => Route::NotFound(format!("#{fragment}")),
        }
    }

    /// The view this route shows (`None` for [`Route::NotFound`]).
    pub fn view(&self) -> Option<View> {
        match self {
            Route::Build(_) => Some(View::Build),
            Route::Race(_) => Some(View::Race),
            Route::Scale(_) => Some(View::Scale),
            Route::Learn(_) => Some(View::Learn),
            Route::NotFound(_) => None,
        }
    }

    /// The link payload of a Build, Race or Scale route.
    pub fn packed(&self) -> Option<&str> {
        match self {
            Route::Build(p) | Route::Race(p) | Route::Scale(p) => p.as_deref(),
            _ => None,
        }
    }

    /// The route of `view` with a link payload (`None` for Learn).
    pub fn with_state(view: View, packed: Option<Packed>) -> Route {
        match view {
            View::Build => Route::Build(packed),
            View::Race => Route::Race(packed),
            View::Scale => Route::Scale(packed),
            View::Learn => Route::Learn(None),
        }
    }

    /// Formats the route back into a fragment, including the `#`.
    pub fn to_fragment(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Route {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let with_state =
            |f: &mut fmt::Formatter<'_>, slug: &str, packed: &Option<Packed>| match packed {
                Some(packed) => write!(f, "#/{slug}?s={packed}"),
                None => write!(f, "#/{slug}"),
            };
        match self {
            Route::Build(p) => with_state(f, "build", p),
            Route::Race(p) => with_state(f, "race", p),
            Route::Scale(p) => with_state(f, "scale", p),
            Route::Learn(None) => f.write_str("#/learn"),
            Route::Learn(Some(at)) => write!(f, "#/learn/{}/{}", at.walkthrough, at.step),
            Route::NotFound(fragment) => f.write_str(fragment),
        }
    }
}

/// The value of `name` in a query (`a=1&s=...`).
fn param<'a>(query: &'a str, name: &str) -> Option<&'a str> {
    query
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .find_map(|(k, v)| (k == name).then_some(v))
}

/// `w=<id>&step=<n>` as links made before steps were counted from 1.
fn legacy_learn(query: &str) -> Option<LearnAt> {
    let walkthrough = param(query, "w")?;
    let step = param(query, "step")
        .and_then(|s| s.parse::<usize>().ok())
        .unwrap_or(0);
    Some(LearnAt {
        walkthrough: walkthrough.to_owned(),
        step: step.saturating_add(1),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(walkthrough: &str, step: usize) -> Route {
        Route::Learn(Some(LearnAt {
            walkthrough: walkthrough.to_owned(),
            step,
        }))
    }

    #[test]
    fn parses_every_fragment() {
        let cases = [
            ("", Route::Build(None)),
            ("#", Route::Build(None)),
            ("#/", Route::Build(None)),
            ("#/build", Route::Build(None)),
            ("#/build?s=1.abc", Route::Build(Some("1.abc".into()))),
            ("#/race?x=1&s=1.a?b", Route::Race(Some("1.a?b".into()))),
            ("#/scale/", Route::Scale(None)),
            ("#/LEARN", Route::Learn(None)),
            ("race", Route::Race(None)),
            ("#/learn/per-key/3", at("per-key", 3)),
            ("#/learn/per-key", at("per-key", 1)),
            ("#/learn/per-key/0", at("per-key", 1)),
            // Older links counted steps from 0.
            ("#/learn?w=per-key&step=0", at("per-key", 1)),
            ("#/learn?w=per-key&step=3", at("per-key", 4)),
            ("#/learn?w=per-key", at("per-key", 1)),
            ("#/nope", Route::NotFound("#/nope".into())),
            ("#/build/extra", Route::NotFound("#/build/extra".into())),
            ("#/learn/a/b", Route::NotFound("#/learn/a/b".into())),
        ];
        for (fragment, route) in cases {
            assert_eq!(Route::parse(fragment), route, "fragment {fragment:?}");
        }
    }

    #[test]
    fn prints_what_it_parses() {
        let routes = [
            Route::Build(None),
            Route::Build(Some("1.abc-_".into())),
            Route::Race(Some("1.x".into())),
            Route::Scale(None),
            Route::Learn(None),
            at("escaping", 2),
        ];
        for route in routes {
            assert_eq!(Route::parse(&route.to_fragment()), route, "{route}");
        }
        assert_eq!(at("escaping", 2).to_fragment(), "#/learn/escaping/2");
        for view in View::ALL {
            assert_eq!(Route::parse(&view.href()).view(), Some(view));
        }
    }

    #[test]
    fn every_view_has_a_distinct_slug_and_a_summary() {
        for (i, a) in View::ALL.iter().enumerate() {
            assert!(a.summary().ends_with('.'));
            for b in &View::ALL[i + 1..] {
                assert_ne!(a.slug(), b.slug());
            }
        }
    }
}
