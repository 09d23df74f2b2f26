//! Which well-known Go packages a file's names stand for: by import path,
//! or by the usual alias when the file does not import them.

use std::collections::HashMap;

use crate::scan::go::{children, field, specs, string_literal, GoFile};

/// Which well-known Go package an import names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Pkg {
    /// KubeVirt's `pkg/apimachinery/patch`.
    KvPatch,
    /// `k8s.io/apimachinery/pkg/types`.
    Types,
    /// controller-runtime's `pkg/client`.
    CrClient,
    /// `k8s.io/client-go/util/retry`.
    Retry,
    Fmt,
    Strings,
    Strconv,
    Json,
    /// controller-runtime's `controllerutil`.
    Controllerutil,
    /// `k8s.io/apimachinery/pkg/api/meta`.
    Meta,
    /// cluster-api's `util/conditions`.
    Conditions,
    /// `gomodules.xyz/jsonpatch` (`NewOperation`).
    JsonPatchLib,
    /// A patch helper that sends a merge patch of what changed since it
    /// was made: cluster-api's `util/patch` (`NewHelper`), Flux's
    /// `pkg/runtime/patch` (`NewSerialPatcher`).
    PatchHelper,
    Maps,
    Other,
}

pub(super) fn classify(path: &str) -> Pkg {
    let trimmed = path.trim_end_matches(|c: char| c == '/' || c.is_ascii_digit() || c == 'v');
    match path {
        "fmt" => Pkg::Fmt,
        "strings" => Pkg::Strings,
        "strconv" => Pkg::Strconv,
        "maps" => Pkg::Maps,
        "encoding/json" | "k8s.io/apimachinery/pkg/util/json" | "sigs.k8s.io/json" => Pkg::Json,
        "k8s.io/apimachinery/pkg/types" => Pkg::Types,
        "sigs.k8s.io/controller-runtime/pkg/client" => Pkg::CrClient,
        "k8s.io/client-go/util/retry" => Pkg::Retry,
        "sigs.k8s.io/controller-runtime/pkg/controller/controllerutil" => Pkg::Controllerutil,
        "k8s.io/apimachinery/pkg/api/meta" => Pkg::Meta,
        _ if path.ends_with("/apimachinery/patch") => Pkg::KvPatch,
        _ if (path.contains("cluster-api/util/") && path.ends_with("/patch"))
            || path.ends_with("fluxcd/pkg/runtime/patch") =>
        {
            Pkg::PatchHelper
        }
        _ if path.ends_with("/util/conditions") || path.contains("/util/conditions/") => {
            Pkg::Conditions
        }
        _ if trimmed.ends_with("jsonpatch") => Pkg::JsonPatchLib,
        _ if path.ends_with("/json") => Pkg::Json,
        _ => Pkg::Other,
    }
}

/// The name a package is known by when imported without one.
pub(super) fn default_alias(path: &str) -> &str {
    let mut parts = path.rsplit('/');
    let last = parts.next().unwrap_or(path);
    let is_version =
        last.len() >= 2 && last.starts_with('v') && last[1..].bytes().all(|b| b.is_ascii_digit());
    if is_version {
        parts.next().unwrap_or(last)
    } else {
        last
    }
}

/// The imports of a file: alias to well-known package, and alias to
/// import path.
pub(super) fn read(file: &GoFile) -> (HashMap<String, Pkg>, HashMap<String, String>) {
    let mut pkgs = HashMap::new();
    let mut paths = HashMap::new();
    for decl in children(file.tree.root_node()) {
        if decl.kind() != "import_declaration" {
            continue;
        }
        for spec in specs(decl) {
            let Some(path) = field(spec, "path").and_then(|p| string_literal(file, p)) else {
                continue;
            };
            let alias = match field(spec, "name") {
                Some(name)
                    if name.kind() == "package_identifier" || name.kind() == "identifier" =>
                {
                    file.text_of(name).to_owned()
                }
                Some(_) => continue,
                None => default_alias(&path).to_owned(),
            };
            pkgs.insert(alias.clone(), classify(&path));
            paths.insert(alias, path);
        }
    }
    (pkgs, paths)
}

/// The package a name means when the file does not import it (snippets,
/// files whose imports failed to parse).
pub(super) fn guess(alias: &str) -> Pkg {
    match alias {
        "patch" => Pkg::KvPatch,
        "types" | "k8stypes" | "apitypes" => Pkg::Types,
        "client" | "ctrlclient" | "crclient" => Pkg::CrClient,
        "retry" => Pkg::Retry,
        "fmt" => Pkg::Fmt,
        "strings" => Pkg::Strings,
        "strconv" => Pkg::Strconv,
        "json" => Pkg::Json,
        "controllerutil" => Pkg::Controllerutil,
        "meta" | "apimeta" => Pkg::Meta,
        "conditions" => Pkg::Conditions,
        "jsonpatch" => Pkg::JsonPatchLib,
        "maps" => Pkg::Maps,
        _ => Pkg::Other,
    }
}
