//! JSON/YAML input parsing on arbitrary text: never panic, stay within the
//! budgets, and what the YAML emitter writes reads back to the same value.
#![no_main]

use libfuzzer_sys::fuzz_target;
use patchlab::apply::rfc_eq;
use patchlab::input::{self, Budget, Format};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        let _ = input::utf8(data);
        return;
    };
    let budget = Budget::default();
    for format in [Format::Json, Format::Yaml] {
        if let Ok(value) = input::parse_as(text, format, &budget) {
            let yaml = input::to_yaml(&value);
            let back = input::parse_as(&yaml, Format::Yaml, &budget)
                .unwrap_or_else(|e| panic!("emitted YAML does not parse: {e}\n{yaml}"));
            assert!(rfc_eq(&back, &value), "YAML round trip changed {value} into {back}\n{yaml}");
        }
    }
});
