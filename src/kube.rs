//! Kubernetes releases, as far as patches are concerned: which release of
//! evanphx/json-patch ([`Evanphx`]) each one's kube-apiserver runs and
//! which texts it answers with.
//!
//! The table (sources in `docs/fidelity.md`): Kubernetes' own `go.mod`
//! decides which release of evanphx/json-patch its kube-apiserver is built
//! with.
//!
//! | Kubernetes | evanphx/json-patch |
//! |---|---|
//! | 1.25 to 1.27 | v4.12.0 (`github.com/evanphx/json-patch v4.12.0+incompatible`) |
//! | 1.28.0, 1.28.1 | the root package at v5.6.0 (`v5.6.0+incompatible`) |
//! | 1.28.2 to 1.30 | v4.12.0 again (reverted in 1.28.2) |
//! | 1.31 to 1.34 | v4.12.0 (`gopkg.in/evanphx/json-patch.v4`) |
//! | 1.35, 1.36 | v4.13.0 |
//!
//! The three releases answer differently (read `patch.go` at each tag):
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
//!
//! ```
//! use patchlab::kube::{Evanphx, KubeVersion};
//!
//! let v: KubeVersion = "1.28".parse().unwrap();
//! assert_eq!(v.engine(), Evanphx::V4_12_0);
//! assert_eq!("1.28.1".parse::<KubeVersion>().unwrap().engine(), Evanphx::V5_6_0);
//! assert_eq!(KubeVersion::default().to_string(), "1.36");
//! assert!("1.24".parse::<KubeVersion>().is_err());
//! ```

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

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

/// A Kubernetes release: a minor version (`1.30`) or a patch release
/// (`1.28.1`) where the patch release matters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct KubeVersion {
    minor: u16,
    patch: Option<u16>,
}

impl KubeVersion {
    /// The oldest minor version modelled (field validation defaults to
    /// `Warn` from 1.25: the handler decodes patches strictly).
    pub const OLDEST_MINOR: u16 = 25;
    /// The newest minor version modelled.
    pub const NEWEST_MINOR: u16 = 36;
    /// The newest release modelled: the default.
    pub const NEWEST: KubeVersion = KubeVersion {
        minor: KubeVersion::NEWEST_MINOR,
        patch: None,
    };

    /// `1.minor`, or `1.minor.patch`.
    ///
    /// # Errors
    ///
    /// [`UnknownVersion`] outside 1.25 to 1.36.
    pub fn new(minor: u16, patch: Option<u16>) -> Result<KubeVersion, UnknownVersion> {
        if !(KubeVersion::OLDEST_MINOR..=KubeVersion::NEWEST_MINOR).contains(&minor) {
            let text = match patch {
                Some(p) => format!("1.{minor}.{p}"),
                None => format!("1.{minor}"),
            };
            return Err(UnknownVersion(text));
        }
        Ok(KubeVersion { minor, patch })
    }

    /// The minor version (`30` for 1.30).
    pub fn minor(self) -> u16 {
        self.minor
    }

    /// The patch release, when given.
    pub fn patch(self) -> Option<u16> {
        self.patch
    }

    /// The JSON patch engine this release's kube-apiserver runs. A minor
    /// version without a patch release means its latest patch release.
    pub fn engine(self) -> Evanphx {
        match (self.minor, self.patch) {
            (28, Some(0 | 1)) => Evanphx::V5_6_0,
            (minor, _) if minor >= 35 => Evanphx::V4_13_0,
            _ => Evanphx::V4_12_0,
        }
    }

    /// How evanphx/json-patch is required in this release's `go.mod`.
    pub fn engine_module(self) -> &'static str {
        match (self.engine(), self.minor) {
            (Evanphx::V5_6_0, _) => "github.com/evanphx/json-patch v5.6.0+incompatible",
            (Evanphx::V4_12_0, minor) if minor <= 30 => {
                "github.com/evanphx/json-patch v4.12.0+incompatible"
            }
            (Evanphx::V4_12_0, _) => "gopkg.in/evanphx/json-patch.v4 v4.12.0",
            (Evanphx::V4_13_0, _) => "gopkg.in/evanphx/json-patch.v4 v4.13.0",
        }
    }

    /// Whether field errors print a bad value with `json.Marshal` (1.34
    /// and later: `Invalid value: 0`) rather than Go's `%#v` (`0x0` for the
    /// `uint64` resourceVersion of an Update without one).
    pub fn json_field_values(self) -> bool {
        self.minor >= 34
    }

    /// The choices a picker offers, newest first: every minor version, and
    /// 1.28.0 for the two 1.28 releases that ran a different engine.
    pub fn choices() -> Vec<KubeVersion> {
        let mut out = Vec::new();
        for minor in (KubeVersion::OLDEST_MINOR..=KubeVersion::NEWEST_MINOR).rev() {
            out.push(KubeVersion { minor, patch: None });
            if minor == 28 {
                out.push(KubeVersion {
                    minor,
                    patch: Some(0),
                });
            }
        }
        out
    }

    /// The picker choice that stands for this release: `1.28.0` for
    /// 1.28.0 and 1.28.1, the minor version otherwise.
    ///
    /// ```
    /// use patchlab::kube::KubeVersion;
    ///
    /// let v = |s: &str| s.parse::<KubeVersion>().unwrap();
    /// assert_eq!(v("1.28.1").choice(), v("1.28.0"));
    /// assert_eq!(v("1.28.4").choice(), v("1.28"));
    /// assert_eq!(v("1.30.2").choice(), v("1.30"));
    /// assert!(KubeVersion::choices().iter().all(|c| c.choice() == *c));
    /// ```
    pub fn choice(self) -> KubeVersion {
        match (self.minor, self.patch) {
            (28, Some(0 | 1)) => KubeVersion {
                minor: 28,
                patch: Some(0),
            },
            (minor, _) => KubeVersion { minor, patch: None },
        }
    }

    /// A label for a picker: `1.36 (evanphx/json-patch v4.13.0)`;
    /// `1.28.0, 1.28.1 (...)` for the choice that stands for both.
    pub fn label(self) -> String {
        let name = match (self.minor, self.patch) {
            (28, Some(0 | 1)) => "1.28.0, 1.28.1".to_owned(),
            (28, None) => "1.28.2+".to_owned(),
            _ => self.to_string(),
        };
        format!("{name} (evanphx/json-patch {})", self.engine().tag())
    }

    /// The accepted values, for error messages and help.
    pub fn accepted() -> String {
        format!(
            "1.{} to 1.{} (as 1.X, or 1.X.Y for a patch release: 1.28.0 and 1.28.1 run another engine than later 1.28 releases)",
            KubeVersion::OLDEST_MINOR,
            KubeVersion::NEWEST_MINOR
        )
    }
}

impl Default for KubeVersion {
    fn default() -> KubeVersion {
        KubeVersion::NEWEST
    }
}

impl fmt::Display for KubeVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.patch {
            Some(patch) => write!(f, "1.{}.{patch}", self.minor),
            None => write!(f, "1.{}", self.minor),
        }
    }
}

/// A Kubernetes version patchlab does not model (or not a version at all).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVersion(pub String);

impl fmt::Display for UnknownVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown Kubernetes version {:?}: use {}",
            self.0,
            KubeVersion::accepted()
        )
    }
}

impl std::error::Error for UnknownVersion {}

impl FromStr for KubeVersion {
    type Err = UnknownVersion;

    /// `1.30`, `v1.30`, `1.28.1`.
    fn from_str(s: &str) -> Result<KubeVersion, UnknownVersion> {
        let bad = || UnknownVersion(s.to_owned());
        let text = s.trim().strip_prefix('v').unwrap_or(s.trim());
        let mut parts = text.split('.');
        let number = |part: Option<&str>| -> Result<u16, UnknownVersion> {
            let part = part.ok_or_else(bad)?;
            if part.is_empty() || part.len() > 4 || !part.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            part.parse().map_err(|_| bad())
        };
        if number(parts.next())? != 1 {
            return Err(bad());
        }
        let minor = number(parts.next())?;
        let patch = parts.next().map(|p| number(Some(p))).transpose()?;
        if parts.next().is_some() {
            return Err(bad());
        }
        KubeVersion::new(minor, patch).map_err(|_| bad())
    }
}

impl Serialize for KubeVersion {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for KubeVersion {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<KubeVersion, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// A modelled cluster: the Kubernetes release of its kube-apiserver and the
/// JSON patch engine that runs (the release's own unless overridden).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Cluster {
    /// The release: handler checks and message texts.
    pub version: KubeVersion,
    /// The engine: the release's own, or another one to compare.
    pub engine: Evanphx,
}

impl Cluster {
    /// The cluster of a release, with its own engine.
    pub fn new(version: KubeVersion) -> Cluster {
        Cluster {
            version,
            engine: version.engine(),
        }
    }

    /// From the CLI's or an API's options: the release (default: the
    /// newest) and an engine that overrides the release's own.
    pub fn from_options(version: Option<KubeVersion>, engine: Option<Evanphx>) -> Cluster {
        let version = version.unwrap_or_default();
        Cluster {
            version,
            engine: engine.unwrap_or_else(|| version.engine()),
        }
    }
}

impl From<KubeVersion> for Cluster {
    fn from(version: KubeVersion) -> Cluster {
        Cluster::new(version)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_names_parse_and_print() {
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
            serde_json::to_string(&Evanphx::V4_12_0).unwrap(),
            r#""evanphx-v4.12.0""#
        );
    }

    #[test]
    fn every_minor_has_its_engine() {
        let engine = |s: &str| s.parse::<KubeVersion>().unwrap().engine();
        for minor in 25..=27 {
            assert_eq!(engine(&format!("1.{minor}")), Evanphx::V4_12_0);
        }
        assert_eq!(engine("1.28.0"), Evanphx::V5_6_0);
        assert_eq!(engine("1.28.1"), Evanphx::V5_6_0);
        assert_eq!(engine("1.28.2"), Evanphx::V4_12_0);
        assert_eq!(engine("1.28"), Evanphx::V4_12_0);
        for minor in 29..=34 {
            assert_eq!(engine(&format!("1.{minor}")), Evanphx::V4_12_0);
        }
        assert_eq!(engine("1.35"), Evanphx::V4_13_0);
        assert_eq!(engine("v1.36.3"), Evanphx::V4_13_0);
    }

    #[test]
    fn bad_versions_list_the_accepted_ones() {
        for bad in [
            "", "1", "1.", "2.30", "1.24", "1.37", "1.30.x", "1.30.1.2", "latest", "1.+30",
        ] {
            let err = bad.parse::<KubeVersion>().unwrap_err();
            assert!(err.to_string().contains("use 1.25 to 1.36"), "{bad}: {err}");
        }
        assert_eq!(
            "1.24".parse::<KubeVersion>().unwrap_err().to_string(),
            "unknown Kubernetes version \"1.24\": use 1.25 to 1.36 (as 1.X, or 1.X.Y for a patch release: 1.28.0 and 1.28.1 run another engine than later 1.28 releases)"
        );
    }

    #[test]
    fn choices_and_serde() {
        let choices = KubeVersion::choices();
        assert_eq!(choices.first(), Some(&KubeVersion::NEWEST));
        assert_eq!(choices.len(), 13);
        let labels: Vec<String> = choices.iter().map(|v| v.label()).collect();
        assert!(labels.contains(&"1.28.0, 1.28.1 (evanphx/json-patch v5.6.0)".to_owned()));
        assert!(labels.contains(&"1.28.2+ (evanphx/json-patch v4.12.0)".to_owned()));
        for choice in choices {
            let text = serde_json::to_string(&choice).unwrap();
            assert_eq!(serde_json::from_str::<KubeVersion>(&text).unwrap(), choice);
            assert_eq!(choice.to_string().parse::<KubeVersion>().unwrap(), choice);
        }
        assert!(serde_json::from_str::<KubeVersion>("\"1.2\"").is_err());
    }
}
