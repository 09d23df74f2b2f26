//! Components rendered natively, for tests: Yew's server renderer
//! (`yew::LocalServerRenderer`, feature `ssr`, a dev-dependency) turns a
//! component and its props into the HTML the browser would get, under
//! plain `cargo test`. Effects do not run and callbacks are not called:
//! what is checked is what the component shows (text, classes, ARIA).
//!
//! A few readers take the HTML apart enough for assertions: the text a
//! user reads ([`text`]), the element holding an attribute ([`element`])
//! and its opening tag ([`opening`]), how often something occurs
//! ([`count`]). Yew writes `selected` as `selected="selected"` and `class`
//! after the other attributes.

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use yew::html::BaseComponent;
use yew::prelude::*;
use yew::LocalServerRenderer;

/// The HTML `C` renders with `props`.
pub fn render<C: BaseComponent>(props: C::Properties) -> String {
    let renderer = LocalServerRenderer::<C>::with_props(props).hydratable(false);
    block_on(renderer.render())
}

/// The HTML of a view function's `html` (a leaf view with no hooks of its
/// own, such as [`crate::app::components::select`]), as the page shows it.
pub fn render_view(html: Html) -> String {
    render::<Shown>(ShownProps { html })
}

#[derive(PartialEq, Properties)]
struct ShownProps {
    html: Html,
}

#[component]
fn Shown(props: &ShownProps) -> Html {
    props.html.clone()
}

/// Runs a future that never waits on anything outside it (rendering
/// without suspense) to its end.
fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let mut cx = Context::from_waker(Waker::noop());
    for _ in 0..1_000 {
        if let Poll::Ready(out) = future.as_mut().poll(&mut cx) {
            return out;
        }
    }
    panic!("rendering waited on something outside it");
}

/// The text of `html` as read: tags dropped, the five escapes decoded,
/// white space collapsed.
pub fn text(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                out.push(' ');
            }
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    let out = out
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&");
    let mut words = out.split_whitespace().collect::<Vec<_>>().join(" ");
    // Punctuation sits against the word before it, as the browser shows it.
    for p in [" .", " ,", " :", " )"] {
        words = words.replace(p, &p[1..]);
    }
    words
}

/// The opening tag holding `attribute`, if any (void elements like
/// `<input>` included). Yew writes `class` last: check attributes one by
/// one, not in a row.
pub fn opening<'a>(html: &'a str, attribute: &str) -> Option<&'a str> {
    let at = html.find(attribute)?;
    let start = html[..=at].rfind('<')?;
    let end = html[at..].find('>')? + at;
    Some(&html[start..=end])
}

/// How many times `needle` occurs in `html`.
pub fn count(html: &str, needle: &str) -> usize {
    html.matches(needle).count()
}

/// The whole element (opening tag to its closing tag) whose opening tag
/// holds `attribute` (`aria-label="Column 1: naive"`, or `<thead`), if
/// any.
pub fn element<'a>(html: &'a str, attribute: &str) -> Option<&'a str> {
    let at = html.find(attribute)?;
    // The tag the attribute is in (or, given `<tag`, that tag).
    let start = html[..=at].rfind('<')?;
    let name: String = html[start + 1..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect();
    let (open, close) = (format!("<{name}"), format!("</{name}>"));
    let mut depth = 0usize;
    let mut i = start;
    while i < html.len() {
        let rest = &html[i..];
        if rest.starts_with(&close) {
            depth -= 1;
            if depth == 0 {
                return Some(&html[start..i + close.len()]);
            }
            i += close.len();
        } else if rest.starts_with(&open)
            && rest[open.len()..].starts_with(|c: char| c == '>' || c.is_whitespace())
        {
            depth += 1;
            i += open.len();
        } else {
            i += rest.chars().next().map_or(1, char::len_utf8);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use yew::prelude::*;

    use super::*;

    #[derive(PartialEq, Properties)]
    struct Props {
        n: usize,
    }

    #[component]
    fn Counter(props: &Props) -> Html {
        html! {
            <section aria-label="outer">
                <p class="n">{ props.n }{ " < 2 & more." }</p>
                <section aria-label="inner"><p>{ "in" }</p></section>
            </section>
        }
    }

    #[test]
    fn a_component_renders_to_html_and_reads_back() {
        let html = render::<Counter>(Props { n: 3 });
        assert!(
            html.contains(r#"<p class="n">3 &lt; 2 &amp; more.</p>"#),
            "{html}"
        );
        assert_eq!(text(&html), "3 < 2 & more. in");
        assert_eq!(count(&html, "<section"), 2);
        let outer = element(&html, r#"aria-label="outer""#).unwrap();
        assert!(outer.ends_with("</section></section>"), "nested: {outer}");
        assert_eq!(
            element(&html, r#"aria-label="inner""#),
            Some(r#"<section aria-label="inner"><p>in</p></section>"#)
        );
        assert_eq!(element(&html, "nowhere"), None);
        assert_eq!(element(&html, "<p>"), Some("<p>in</p>"));
        assert_eq!(opening(&html, r#"class="n""#), Some(r#"<p class="n">"#));
    }
}
