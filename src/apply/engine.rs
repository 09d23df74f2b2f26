//! Which engine runs a patch: strict RFC 6902, or one release of
//! evanphx/json-patch's root package ([`Evanphx`]) as kube-apiserver runs it.

use std::fmt;

use serde::{Serialize, Serializer};

use super::Semantics;
use crate::kube::{Cluster, Evanphx, KubeVersion};

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

impl From<KubeVersion> for Engine {
    fn from(version: KubeVersion) -> Engine {
        Engine::Kube(version.engine())
    }
}

impl From<Cluster> for Engine {
    /// The engine JSON patches run on in this cluster.
    fn from(cluster: Cluster) -> Engine {
        Engine::Kube(cluster.engine)
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
    fn kube_means_the_newest_release() {
        assert_eq!(
            Engine::from(Semantics::Kube),
            Engine::Kube(Evanphx::V4_13_0)
        );
    }
}
