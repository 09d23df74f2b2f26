//! `presets`, `kubeVersions` and `version`.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::convert::to_js;
use crate::kube::KubeVersion;
use crate::strategy::Preset;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PresetInfo {
    name: &'static str,
    summary: &'static str,
    builtin_only: bool,
}

/// Every preset with a one-line summary, in the playground's order, then
/// `strategic` (built-in kinds only).
#[wasm_bindgen(unchecked_return_type = "PresetInfo[]")]
pub fn presets() -> Result<JsValue, JsValue> {
    let list: Vec<PresetInfo> = Preset::EVERY
        .iter()
        .map(|p| PresetInfo {
            name: p.as_str(),
            summary: p.summary(),
            builtin_only: p.builtin_only(),
        })
        .collect();
    to_js(&list)
}

/// The version of patchlab this module was built from.
#[wasm_bindgen(unchecked_return_type = "string")]
pub fn version() -> JsValue {
    JsValue::from_str(env!("CARGO_PKG_VERSION"))
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct KubeVersionInfo {
    version: String,
    engine: &'static str,
    label: String,
}

/// The Kubernetes releases a `kubeVersion` option accepts, newest first,
/// with the JSON patch engine each one runs (1.28.0 stands for 1.28.0 and
/// 1.28.1, which ran another engine than later 1.28 releases).
#[wasm_bindgen(js_name = kubeVersions, unchecked_return_type = "KubeVersionInfo[]")]
pub fn kube_versions() -> Result<JsValue, JsValue> {
    let list: Vec<KubeVersionInfo> = KubeVersion::choices()
        .into_iter()
        .map(|v| KubeVersionInfo {
            version: v.to_string(),
            engine: v.engine().as_str(),
            label: v.label(),
        })
        .collect();
    to_js(&list)
}
