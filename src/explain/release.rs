//! The release a user names: any Kubernetes `1.x` (or `1.x.y`). Releases
//! patchlab models (1.25 to 1.36) are replayed on their own engine; older
//! ones on the nearest modelled engine, with what their own handler and
//! evanphx/json-patch answer otherwise (read in kubernetes/apiserver's
//! `go.mod` and `pkg/endpoints/handlers/patch.go` at each `release-1.x`
//! branch, and in evanphx/json-patch at each revision named).

use std::fmt;
use std::str::FromStr;

use serde::{Serialize, Serializer};

use crate::kube::KubeVersion;

/// A Kubernetes release as a user names it: `1.16`, `v1.16.3`,
/// `1.27.4-eks-1`, `1.36`.
///
/// ```
/// use patchlab::explain::Release;
///
/// let r: Release = "v1.16.3".parse().unwrap();
/// assert_eq!(r.modelled().to_string(), "1.25");
/// assert!(r.note().unwrap().contains("v4.9.0"));
/// let r: Release = "1.30".parse().unwrap();
/// assert_eq!((r.modelled().to_string(), r.note()), ("1.30".to_owned(), None));
/// assert_eq!("1.99".parse::<Release>().unwrap().modelled().to_string(), "1.36");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Release {
    minor: u16,
    patch: Option<u16>,
}

/// Not a Kubernetes release (`2.0`, `latest`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotARelease(pub String);

impl fmt::Display for NotARelease {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} is not a Kubernetes release: use 1.X or 1.X.Y (any 1.x; releases before 1.{} are explained with the 1.{} engine)",
            self.0,
            KubeVersion::OLDEST_MINOR,
            KubeVersion::OLDEST_MINOR
        )
    }
}

impl std::error::Error for NotARelease {}

impl FromStr for Release {
    type Err = NotARelease;

    /// `1.30`, `v1.30`, `1.28.1`, `1.27.4-eks-1` (a vendor suffix after
    /// the patch release is dropped), `1.16+` (GKE's minor version).
    fn from_str(s: &str) -> Result<Release, NotARelease> {
        let bad = || NotARelease(s.to_owned());
        let text = s.trim();
        let text = text.strip_prefix(['v', 'V']).unwrap_or(text);
        let mut parts = text.splitn(3, '.');
        let number = |part: &str| -> Option<u16> {
            let digits: String = part.chars().take_while(char::is_ascii_digit).collect();
            let rest = &part[digits.len()..];
            let suffix_ok = rest.is_empty() || rest.starts_with(['-', '+']);
            (suffix_ok && !digits.is_empty() && digits.len() <= 4)
                .then(|| digits.parse().ok())
                .flatten()
        };
        if parts.next() != Some("1") {
            return Err(bad());
        }
        let minor = parts.next().and_then(number).ok_or_else(bad)?;
        let patch = match parts.next() {
            Some(p) => Some(number(p).ok_or_else(bad)?),
            None => None,
        };
        Ok(Release { minor, patch })
    }
}

impl From<KubeVersion> for Release {
    fn from(v: KubeVersion) -> Release {
        Release {
            minor: v.minor(),
            patch: v.patch(),
        }
    }
}

impl fmt::Display for Release {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.patch {
            Some(patch) => write!(f, "1.{}.{patch}", self.minor),
            None => write!(f, "1.{}", self.minor),
        }
    }
}

impl Serialize for Release {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl Release {
    /// The minor version.
    pub fn minor(self) -> u16 {
        self.minor
    }

    /// True when patchlab models this release's engine.
    pub fn is_modelled(self) -> bool {
        (KubeVersion::OLDEST_MINOR..=KubeVersion::NEWEST_MINOR).contains(&self.minor)
    }

    /// The modelled release whose engine explains this one: itself, or the
    /// nearest (1.25 for older releases, 1.36 for newer ones).
    pub fn modelled(self) -> KubeVersion {
        let minor = self
            .minor
            .clamp(KubeVersion::OLDEST_MINOR, KubeVersion::NEWEST_MINOR);
        let patch = self.patch.filter(|_| minor == self.minor);
        KubeVersion::new(minor, patch).unwrap_or_default()
    }

    /// What this release's own code answers otherwise than the engine
    /// that explains it (`None` for a modelled release).
    pub fn note(self) -> Option<String> {
        if self.is_modelled() {
            return None;
        }
        let modelled = self.modelled();
        if self.minor > KubeVersion::NEWEST_MINOR {
            return Some(format!(
                "Kubernetes {self} is newer than the releases patchlab models: explained with the engine of {modelled} (evanphx/json-patch {}).",
                modelled.engine().tag()
            ));
        }
        let mut s = format!(
            "Kubernetes {self} is older than the releases patchlab models: explained with the engine of {modelled} (evanphx/json-patch {}).",
            modelled.engine().tag()
        );
        if let Some(own) = evanphx_of(self.minor) {
            let file = if self.minor < 15 {
                "Godeps/Godeps.json"
            } else {
                "go.mod"
            };
            s.push_str(&format!(
                " Its own kube-apiserver builds with evanphx/json-patch {own} (kubernetes/apiserver release-1.{} {file}).",
                self.minor
            ));
        }
        for (applies, difference) in OLD_DIFFERENCES {
            if applies(self.minor) {
                s.push(' ');
                s.push_str(difference);
            }
        }
        Some(s)
    }
}

/// The evanphx/json-patch revision a release branch's kube-apiserver
/// builds with (kubernetes/apiserver `go.mod`, or `Godeps/Godeps.json`
/// before 1.15, at the tip of `release-1.x`).
pub fn evanphx_of(minor: u16) -> Option<&'static str> {
    Some(match minor {
        6 => "ba18e35c (2017-01, before v3.0.0)",
        7..=9 => "944e0725 (2017-07, before v3.0.0)",
        10 => "94e38aa1 (2018-05, v4.0.0)",
        11..=15 => "5858425f (2019-02, v4.2.0)",
        16..=21 => "v4.9.0",
        22 => "v4.11.0",
        23..=24 => "v4.12.0",
        _ => return None,
    })
}

type Applies = fn(u16) -> bool;

/// What older releases answer otherwise, each with where it is read.
const OLD_DIFFERENCES: &[(Applies, &str)] = &[
    (
        |m| m <= 10,
        "Up to 1.10 a JSON patch op that fails is answered with the engine's own error as a 500 (\"Internal error occurred: jsonpatch ... does not apply ...\"), not the bare 422: kubernetes/apiserver release-1.10 pkg/endpoints/handlers/patch.go patchObjectJSON returns it unwrapped; 1.11 wraps it (applyJSPatch, NewGenericServerResponse 422).",
    ),
    (
        |m| m <= 15,
        "Its engine (before evanphx/json-patch v4.9.0) words its errors \"jsonpatch add operation does not apply: doc is missing path: ...\" and \"Testing value /x failed\", without the \"error in add for path\" wrapping (evanphx/json-patch patch.go at 5858425f and older).",
    ),
    (
        |m| m <= 22,
        "Its engine has no whole-document test or replace (path \"\"): evanphx/json-patch v4.12.0 added them (commit 50fdc0b, \"port over fix for testing/replacing a whole document to v4\"); negative indices were fixed in the same range (19e83ee).",
    ),
    (
        |m| m <= 24,
        "Before 1.25 the handler decodes patches without field validation (no strict decoding, no \"unknown field\" warnings or errors): kubernetes/apiserver release-1.25 patch.go applyJSPatch (kjson.UnmarshalStrict).",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_1x_is_read() {
        for (text, shown, modelled) in [
            ("1.0", "1.0", "1.25"),
            ("v1.16.3", "1.16.3", "1.25"),
            ("1.27.4-eks-1", "1.27.4", "1.27.4"),
            ("1.16+", "1.16", "1.25"),
            ("1.28.1", "1.28.1", "1.28.1"),
            ("1.40", "1.40", "1.36"),
        ] {
            let r: Release = text.parse().unwrap();
            assert_eq!(r.to_string(), shown, "{text}");
            assert_eq!(r.modelled().to_string(), modelled, "{text}");
        }
        for bad in ["2.0", "latest", "1", "1.x", ""] {
            assert!(bad.parse::<Release>().is_err(), "{bad}");
        }
    }

    #[test]
    fn old_releases_say_what_differs() {
        let note = |t: &str| t.parse::<Release>().unwrap().note().unwrap();
        assert!(note("1.8").contains("as a 500"));
        assert!(!note("1.16").contains("as a 500"));
        assert!(note("1.16").contains("whole-document"));
        assert!(note("1.24").contains("field validation"));
        assert!(!note("1.24").contains("whole-document"));
        assert!(note("1.40").contains("newer"));
        assert_eq!("1.30".parse::<Release>().unwrap().note(), None);
    }
}
