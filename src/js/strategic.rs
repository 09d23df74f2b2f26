//! `applyStrategicMergePatch`: a strategic merge patch applied as
//! kube-apiserver's PATCH handler does, with the kind's schema.

use serde_json::Value;
use wasm_bindgen::prelude::*;

use super::convert::{
    apply_error, cluster_of, json_text, parse_json, patch_text, value_to_js, OptionsReader,
};
use crate::apply::strategic;
use crate::schema;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
export interface StrategicOptions {
  /** The kind patched: a kind (`Pod`) or a kubectl resource name (`pods`, `po`, `deploy`, `deployments.apps`, `vmi`). Default: the document's own `kind`. */
  kind?: string;
  /** The kind's apiVersion (`v1`, `apps/v1`). Default: the document's, or the one of the `kind` resource. */
  apiVersion?: string;
  /** The Kubernetes release whose kinds, schemas, `strategicpatch` and handler answer (default "1.36"; a field the release does not have is unknown there, a group version it does not serve answers 404; 1.25 to 1.27 keep `$patch` maps in values taken whole). */
  kubeVersion?: KubeVersion;
}
"#;

/// Applies a strategic merge patch (an object, or its text as sent) to
/// `doc` as kube-apiserver does for the kind (`options.kind`, else the
/// document's): lists merged by their schema's merge key, `$patch`,
/// `$retainKeys`, `$setElementOrder`, `$deleteFromPrimitiveList`; a custom
/// resource is refused with the server's 415 (`kind`
/// `"unsupported-media-type"`, `status` 415). Returns the result; `doc` is
/// never modified.
#[wasm_bindgen(js_name = applyStrategicMergePatch, unchecked_return_type = "Json")]
pub fn apply_strategic_merge_patch(
    #[wasm_bindgen(unchecked_param_type = "Json")] doc: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Json | string")] patch: JsValue,
    #[wasm_bindgen(unchecked_param_type = "StrategicOptions")] options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let opts = OptionsReader::new(options, "options", &["kind", "apiVersion", "kubeVersion"])?;
    let (kind, api_version) = (opts.string("kind")?, opts.string("apiVersion")?);
    let version = cluster_of(opts.string("kubeVersion")?.as_deref(), None)?.version;
    let body = patch_text(&patch)?;
    let mut doc: Value = parse_json(&json_text(&doc, "doc")?, "doc")?;
    let table = schema::for_release(version);
    let target = table.target_named(kind.as_deref(), api_version.as_deref(), &doc);
    strategic::apply_body(&mut doc, &body, &target, version)
        .map_err(|e| apply_error(&e, Some(&body)))?;
    value_to_js(&doc)
}
