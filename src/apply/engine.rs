//! Which engine runs a patch: strict RFC 6902, or one release of
//! evanphx/json-patch's root package as kube-apiserver runs it.
//!
//! Three releases have shipped in kube-apiserver and answer differently
//! (read `patch.go` at each tag; `docs/fidelity.md` has the table of
//! Kubernetes releases and their sources):
//!
//! - `v5.6.0` (the root package at tag v5.6.0, imported as
//!   `github.com/evanphx/json-patch v5.6.0+incompatible`): no
//!   whole-document ops, `test` and `replace` at `""` fail;
//! - `v4.12.0`: `test ""` compares the whole document, `replace ""` with
//!   an object or array replaces it and with anything else silently does
//!   nothing (`errors.Wrapf` of a nil error is nil); a few patches
//!   dereference nil and panic (the server answers 500);
//! - `v4.13.0`: pkg/errors replaced by `fmt.Errorf`, so `replace ""` with a
//!   scalar fails, and the two nil dereferences are ordinary errors.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::Semantics;

/// A release of evanphx/json-patch's root package (the "v4" line that
/// kube-apiserver imports).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Evanphx {
    /// The root package at tag v5.6.0 (`v5.6.0+incompatible`): Kubernetes
    /// 1.28.0 and 1.28.1.
    V5_6_0,
    /// v4.12.0: Kubernetes 1.25 to 1.27 and 1.28.2 to 1.34.
    V4_12_0,
    /// v4.13.0: Kubernetes 1.35 and later.
    #[default]
    V4_13_0,
}

impl Evanphx {
    /// Every release, oldest first.
    pub const ALL: [Evanphx; 3] = [Evanphx::V5_6_0, Evanphx::V4_12_0, Evanphx::V4_13_0];

    /// `evanphx-v5.6.0`, `evanphx-v4.12.0` or `evanphx-v4.13.0` (the CLI's
    /// `--engine` values).
    pub fn as_str(self) -> &'static str {
        match self {
            Evanphx::V5_6_0 => "evanphx-v5.6.0",
            Evanphx::V4_12_0 => "evanphx-v4.12.0",
            Evanphx::V4_13_0 => "evanphx-v4.13.0",
        }
    }

    /// The tag: `v5.6.0`, `v4.12.0` or `v4.13.0`.
    pub fn tag(self) -> &'static str {
        &self.as_str()["evanphx-".len()..]
    }

    /// Whether `test` and `replace` may target the whole document (`""`).
    pub fn whole_document(self) -> bool {
        self != Evanphx::V5_6_0
    }

    /// Whether the nil checks of v4.13.0 are there: a `test` without a
    /// value on a missing member passes instead of panicking, and walking
    /// through a null an earlier op of the same patch added fails instead
    /// of panicking.
    pub fn nil_checks(self) -> bool {
        self == Evanphx::V4_13_0
    }

    /// Whether `replace ""` with a value that is not an object or array is
    /// an error (v4.13.0) rather than silently ignored (v4.12.0).
    pub fn refuses_scalar_root(self) -> bool {
        self == Evanphx::V4_13_0
    }

    /// The accepted `--engine` values, for error messages.
    pub fn accepted() -> String {
        let names: Vec<&str> = Evanphx::ALL.iter().map(|e| e.as_str()).collect();
        format!(
            "{} or {}",
            names[..names.len() - 1].join(", "),
            names[names.len() - 1]
        )
    }
}

impl fmt::Display for Evanphx {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is no engine release.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownEngine(pub String);

impl fmt::Display for UnknownEngine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown engine {:?}: use {}",
            self.0,
            Evanphx::accepted()
        )
    }
}

impl std::error::Error for UnknownEngine {}

impl FromStr for Evanphx {
    type Err = UnknownEngine;

    /// `evanphx-v4.12.0` (also without the `evanphx-` prefix, or without
    /// the `v`).
    fn from_str(s: &str) -> Result<Evanphx, UnknownEngine> {
        let tag = s.strip_prefix("evanphx-").unwrap_or(s);
        let tag = tag.strip_prefix('v').unwrap_or(tag);
        Evanphx::ALL
            .into_iter()
            .find(|e| &e.tag()[1..] == tag)
            .ok_or_else(|| UnknownEngine(s.to_owned()))
    }
}

impl Serialize for Evanphx {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Evanphx {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Evanphx, D::Error> {
        let name = String::deserialize(deserializer)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

/// The engine a patch runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Engine {
    /// Strict RFC 6902.
    Rfc,
    /// kube-apiserver's: this release of evanphx/json-patch, behind the
    /// PATCH handler's checks (body and op limits, strict decode, the name
    /// of the object).
    Kube(Evanphx),
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::Kube(Evanphx::default())
    }
}

impl Engine {
    /// [`Semantics::Rfc`] or [`Semantics::Kube`].
    pub fn semantics(self) -> Semantics {
        match self {
            Engine::Rfc => Semantics::Rfc,
            Engine::Kube(_) => Semantics::Kube,
        }
    }

    /// The evanphx release, in kube mode.
    pub fn evanphx(self) -> Option<Evanphx> {
        match self {
            Engine::Rfc => None,
            Engine::Kube(release) => Some(release),
        }
    }

    /// True in kube mode.
    pub fn is_kube(self) -> bool {
        matches!(self, Engine::Kube(_))
    }

    /// `rfc6902` or the evanphx release (`evanphx-v4.13.0`).
    pub fn as_str(self) -> &'static str {
        match self {
            Engine::Rfc => "rfc6902",
            Engine::Kube(release) => release.as_str(),
        }
    }
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl From<Semantics> for Engine {
    /// `Kube` means the newest engine modelled ([`Evanphx::default`]).
    fn from(semantics: Semantics) -> Engine {
        match semantics {
            Semantics::Rfc => Engine::Rfc,
            Semantics::Kube => Engine::default(),
        }
    }
}

impl From<Evanphx> for Engine {
    fn from(release: Evanphx) -> Engine {
        Engine::Kube(release)
    }
}

impl Serialize for Engine {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_and_print() {
        for release in Evanphx::ALL {
            assert_eq!(release.as_str().parse::<Evanphx>(), Ok(release));
            assert_eq!(release.tag().parse::<Evanphx>(), Ok(release));
        }
        assert_eq!("4.12.0".parse::<Evanphx>(), Ok(Evanphx::V4_12_0));
        assert_eq!(
            "evanphx-v5".parse::<Evanphx>().unwrap_err().to_string(),
            "unknown engine \"evanphx-v5\": use evanphx-v5.6.0, evanphx-v4.12.0 or evanphx-v4.13.0"
        );
        assert_eq!(
            Engine::from(Semantics::Kube),
            Engine::Kube(Evanphx::V4_13_0)
        );
        assert_eq!(
            serde_json::to_string(&Evanphx::V4_12_0).unwrap(),
            r#""evanphx-v4.12.0""#
        );
    }
}
