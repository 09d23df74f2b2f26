//! `simulate` and `migrate`.

use js_sys::JsString;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::convert::{
    bad_argument, checked_string, cluster_of, json_text, to_js, ErrorBuilder, OptionsReader,
};
use super::diff::preset;
use crate::limits::MIGRATE_VMS;
use crate::sim::migrate::{migrate_on, MigrateOptions};
use crate::sim::timeline::{replay, Scenario};

/// Replays a scenario (an object, or its YAML or JSON text) on the
/// simulated API server: every step's request, response and object after,
/// then the outcomes (failures, false conflicts, lost updates).
#[wasm_bindgen(unchecked_return_type = "Replay")]
pub fn simulate(
    #[wasm_bindgen(unchecked_param_type = "Scenario | string")] scenario: JsValue,
    #[wasm_bindgen(unchecked_param_type = "SimulateOptions")] options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let opts = OptionsReader::new(options, "options", &["preset", "kubeVersion", "engine"])?;
    let preset = opts
        .string("preset")?
        .map(|name| preset(&name, "options.preset"))
        .transpose()?;
    let (kube_version, engine) = (opts.string("kubeVersion")?, opts.string("engine")?);
    let text = match scenario.dyn_ref::<JsString>() {
        Some(text) => checked_string(text, "scenario")?,
        None => json_text(&scenario, "scenario")?,
    };
    let mut scenario = Scenario::parse(&text)
        .map_err(|e| ErrorBuilder::new("invalid-scenario", &e.to_string()).build())?;
    if kube_version.is_some() || engine.is_some() {
        let cluster = cluster_of(kube_version.as_deref(), engine.as_deref())?;
        scenario.kubernetes = Some(cluster.version);
        scenario.engine = Some(cluster.engine);
    }
    let replay = replay(&scenario, preset)
        .map_err(|e| ErrorBuilder::new("invalid-scenario", &e.to_string()).build())?;
    to_js(&replay)
}

/// Mass live migration: `vms` VMIs, each patched by the VMI controller and
/// the migration controller (under each preset) while virt-handler calls
/// `Update()`, with `churn` extra writers and a retry budget of
/// `retries`; counts per preset. Runs synchronously (tens of milliseconds
/// for 2000 VMIs and all presets): use a Web Worker for big runs.
#[wasm_bindgen(unchecked_return_type = "MigrateResult")]
pub fn migrate(
    #[wasm_bindgen(unchecked_param_type = "MigrateOptions")] options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let args = OptionsReader::new(
        options,
        "options",
        &[
            "vms",
            "seed",
            "presets",
            "churn",
            "retries",
            "kubeVersion",
            "engine",
        ],
    )?;
    let cluster = cluster_of(
        args.string("kubeVersion")?.as_deref(),
        args.string("engine")?.as_deref(),
    )?;
    let whole = |value: f64, what: &str, max: f64| {
        if value.fract() != 0.0 || !(0.0..=max).contains(&value) {
            Err(bad_argument(format!(
                "{what} must be a whole number from 0 to {max}, found {value}"
            )))
        } else {
            Ok(value)
        }
    };
    let vms = whole(
        args.number("vms")?.unwrap_or(2000.0),
        "options.vms",
        f64::MAX,
    )?;
    if vms < 1.0 || vms > MIGRATE_VMS as f64 {
        return Err(ErrorBuilder::new(
            "too-large",
            &format!("options.vms must be between 1 and {MIGRATE_VMS}, found {vms}"),
        )
        .build());
    }
    let seed = whole(
        args.number("seed")?.unwrap_or(1.0),
        "options.seed",
        9_007_199_254_740_991.0,
    )?;
    // At most OPTION_VALUES names are read; each preset runs once.
    let mut presets = Vec::new();
    for name in args.strings("presets")?.unwrap_or_default() {
        let preset = preset(&name, "options.presets")?;
        if !presets.contains(&preset) {
            presets.push(preset);
        }
    }
    let churn = whole(
        args.number("churn")?.unwrap_or(0.0),
        "options.churn",
        crate::limits::MIGRATE_CHURN as f64,
    )?;
    let retries = whole(
        args.number("retries")?.unwrap_or(2.0),
        "options.retries",
        f64::from(crate::limits::MIGRATE_RETRIES),
    )?;
    let result = migrate_on(
        &MigrateOptions {
            vms: vms as usize,
            seed: seed as u64,
            presets,
            churn: churn as usize,
            retries: retries as u32,
            ..MigrateOptions::default()
        },
        cluster,
    )
    .map_err(|e| bad_argument(e.to_string()))?;
    to_js(&result)
}
