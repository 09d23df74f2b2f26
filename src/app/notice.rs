//! A message shown above a view until dismissed: what happened, in plain
//! words, how serious it is, and an Undo when it replaced work.

/// How serious a notice is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// Something happened that the user should know (announced politely).
    Info,
    /// Something went wrong but nothing is lost.
    Warning,
    /// Something went wrong and needs the user (announced at once).
    Error,
}

impl Level {
    /// The ARIA role that announces it: `status` or `alert`.
    pub fn role(self) -> &'static str {
        match self {
            Level::Info => "status",
            Level::Warning | Level::Error => "alert",
        }
    }

    /// The CSS class.
    pub fn class(self) -> &'static str {
        match self {
            Level::Info => "notice-info",
            Level::Warning => "notice-warning",
            Level::Error => "notice-error",
        }
    }
}

/// A message for the user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    /// How serious.
    pub level: Level,
    /// What happened, in plain words.
    pub text: String,
    /// The technical detail, shown on request.
    pub detail: Option<String>,
    /// The label of an Undo button that brings back what was replaced.
    pub undo: Option<String>,
}

impl Notice {
    /// An information.
    pub fn info(text: impl Into<String>) -> Notice {
        Notice {
            level: Level::Info,
            text: text.into(),
            detail: None,
            undo: None,
        }
    }

    /// A warning: something did not work, nothing is lost.
    pub fn warning(text: impl Into<String>) -> Notice {
        Notice {
            level: Level::Warning,
            ..Notice::info(text)
        }
    }

    /// An error.
    pub fn error(text: impl Into<String>) -> Notice {
        Notice {
            level: Level::Error,
            ..Notice::info(text)
        }
    }

    /// With a technical detail.
    pub fn with_detail(self, detail: Option<&str>) -> Notice {
        Notice {
            detail: detail.map(str::to_owned),
            ..self
        }
    }

    /// With an Undo button labelled `label`.
    pub fn with_undo(self, label: impl Into<String>) -> Notice {
        Notice {
            undo: Some(label.into()),
            ..self
        }
    }
}
