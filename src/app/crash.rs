//! What the user sees when the playground hits a bug: a banner that says
//! so, a link that reloads the page with the work (the state lives in the
//! page's link and in browser storage), and a bug report to copy. Built
//! with `createElement` and `textContent` from the panic hook: no HTML is
//! parsed, and nothing in it needs the (now stopped) app to run.

/// The text of a bug report: what panicked where, in which version, view
/// and browser. It names the view but not the link's state, which may hold
/// the user's objects.
pub fn report(message: &str, location: Option<&str>, href: &str, user_agent: &str) -> String {
    let view = href
        .split_once('#')
        .map_or("", |(_, fragment)| fragment)
        .split('?')
        .next()
        .unwrap_or("");
    let view = if view.is_empty() { "/" } else { view };
    format!(
        "patchlab {version} panicked{at}:\n{message}\n\nView: #{view}\nBrowser: {user_agent}\n",
        version = crate::VERSION,
        at = location.map(|l| format!(" at {l}")).unwrap_or_default(),
    )
}

/// The fragment that crashes the app on purpose.
pub const PANIC_ROUTE: &str = "#/debug/panic";

/// The reload address: the same page and fragment with a changed query, so
/// the browser loads the page again instead of scrolling to the fragment
/// (the Build view for the crash-on-purpose route; its work is in storage).
pub fn reload_href(href: &str) -> String {
    let fragment = href.split_once('#').map_or("", |(_, f)| f);
    let fragment = if format!("#{fragment}") == PANIC_ROUTE {
        "/build"
    } else {
        fragment
    };
    format!("?reload#{fragment}")
}

#[cfg(target_arch = "wasm32")]
pub use hook::{install, show};

#[cfg(target_arch = "wasm32")]
mod hook {
    use web_sys::{Document, Element};

    /// Installs the panic hook: the console message, then the banner.
    /// (Through Yew, which otherwise replaces any hook when it renders.)
    pub fn install() {
        yew::set_custom_panic_hook(Box::new(|info| {
            console_error_panic_hook::hook(info);
            let message = match info.payload().downcast_ref::<&str>() {
                Some(text) => (*text).to_owned(),
                None => info
                    .payload()
                    .downcast_ref::<String>()
                    .cloned()
                    .unwrap_or_else(|| "(no message)".to_owned()),
            };
            let location = info
                .location()
                .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()));
            show(&message, location.as_deref());
        }));
    }

    /// Shows the banner (once) at the top of the page.
    pub fn show(message: &str, location: Option<&str>) {
        let window = gloo::utils::window();
        let Some(document) = window.document() else {
            return;
        };
        if document.get_element_by_id("crash").is_some() {
            return;
        }
        let href = window.location().href().unwrap_or_default();
        let agent = window.navigator().user_agent().unwrap_or_default();
        let report = super::report(message, location, &href, &agent);
        let _ = banner(&document, &href, &report);
    }

    fn banner(document: &Document, href: &str, report: &str) -> Option<()> {
        let el = |tag: &str, text: &str| -> Option<Element> {
            let element = document.create_element(tag).ok()?;
            if !text.is_empty() {
                element.set_text_content(Some(text));
            }
            Some(element)
        };
        let root = el("div", "")?;
        root.set_id("crash");
        root.set_class_name("crash");
        root.set_attribute("role", "alert").ok()?;
        let title = el("h2", "patchlab hit a bug and stopped")?;
        root.append_child(&title).ok()?;
        let keep = el(
            "p",
            "Your work is kept in this page's link and in this browser. ",
        )?;
        let reload = el("a", "Reload the page")?;
        reload
            .set_attribute("href", &super::reload_href(href))
            .ok()?;
        keep.append_child(&reload).ok()?;
        keep.append_child(&document.create_text_node(" to carry on from where you were."))
            .ok()?;
        root.append_child(&keep).ok()?;
        let ask = el(
            "p",
            "Please report it with the text below (it holds none of your objects): ",
        )?;
        let issue = el("a", "open an issue")?;
        issue
            .set_attribute("href", &format!("{}/issues/new", crate::SOURCE_URL))
            .ok()?;
        issue.set_attribute("rel", "noopener").ok()?;
        ask.append_child(&issue).ok()?;
        ask.append_child(&document.create_text_node(".")).ok()?;
        root.append_child(&ask).ok()?;
        let text = el("textarea", "")?;
        text.set_attribute("readonly", "").ok()?;
        text.set_attribute("rows", "6").ok()?;
        text.set_attribute("aria-label", "Bug report").ok()?;
        // A textarea's text content is its value, never markup.
        text.set_text_content(Some(report));
        root.append_child(&text).ok()?;
        let body = document.body()?;
        body.insert_before(&root, body.first_child().as_ref())
            .ok()?;
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_names_the_view_but_not_the_state() {
        let report = report(
            "index out of bounds",
            Some("src/app/build.rs:10:5"),
            "https://example.org/patchlab/#/build?s=1.secretobjects",
            "Mozilla/5.0",
        );
        assert_eq!(
            report,
            format!(
                "patchlab {} panicked at src/app/build.rs:10:5:\nindex out of bounds\n\n\
                 View: #/build\nBrowser: Mozilla/5.0\n",
                crate::VERSION
            )
        );
        assert!(!report.contains("secret"));
        assert!(super::report("x", None, "https://h/", "UA").contains("panicked:\nx\n\nView: #/\n"));
    }

    #[test]
    fn reload_keeps_the_fragment_and_changes_the_query() {
        assert_eq!(
            reload_href("https://h/p/?a#/race?s=1.x"),
            "?reload#/race?s=1.x"
        );
        assert_eq!(reload_href("https://h/p/"), "?reload#");
        assert_eq!(reload_href("https://h/p/#/debug/panic"), "?reload#/build");
    }
}
