//! yaml.v2's value to the JSON sigs.k8s.io/yaml's `YAMLToJSON` writes
//! (`yaml.go`, `convertToJSONableObject`, then Go's `json.Marshal`):
//! integer keys in decimal, float keys as `strconv.FormatFloat(f, 'g',
//! -1, 32)` writes them (`3.1415927`, `1e+07`, `.inf`), boolean keys as
//! `true`/`false`; a null or `uint64` key refused (`unsupported map key of
//! type: ...`); a NaN or infinite value refused by the JSON encoder
//! (`json: unsupported value: +Inf`), the first in the encoder's order
//! (keys sorted).
//!
//! Two keys that become one string (`1` and `"1"`, `on` and `true`) are
//! one JSON key; Go's map order decides which value stays, here the later
//! one in the document.

use serde_json::{Map, Number, Value};

use super::error::Mark;
use super::error::{Error, Stage};
use super::value::{go_syntax, Go, GoMap};
use crate::gojson::{format_g, Shortest};

/// A step into a JSON value, ordered as Go's encoder visits them.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Step {
    Index(usize),
    Key(String),
}

/// The first NaN or infinity in the encoder's order.
type Unsupported = Option<(Vec<Step>, f64, Mark)>;

/// `YAMLToJSON`'s value (before the bytes: `gojson::to_string` writes them).
pub(super) fn to_json(go: &Go) -> Result<Value, Error> {
    let mut first: Unsupported = None;
    let value = convert(go, &mut Vec::new(), &mut first)?;
    if let Some((_, f, mark)) = first {
        let problem = format!("json: unsupported value: {}", format_g(f));
        return Err(Error::new(Stage::Convert, problem, mark));
    }
    Ok(value)
}

fn convert(go: &Go, path: &mut Vec<Step>, first: &mut Unsupported) -> Result<Value, Error> {
    Ok(match go {
        Go::Nil => Value::Null,
        Go::Bool(b) => Value::Bool(*b),
        Go::Int(i) => Value::from(*i),
        Go::Uint(u) => Value::from(*u),
        Go::Float(f, mark) => match Number::from_f64(*f) {
            Some(n) => Value::Number(n),
            None => {
                if first.as_ref().is_none_or(|(p, _, _)| *path < *p) {
                    *first = Some((path.clone(), *f, *mark));
                }
                Value::Null
            }
        },
        Go::Str(s) => Value::String(s.clone()),
        Go::Seq(items) => {
            let mut out = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                path.push(Step::Index(i));
                out.push(convert(item, path, first)?);
                path.pop();
            }
            Value::Array(out)
        }
        Go::Map(map) => Value::Object(convert_map(map, path, first)?),
    })
}

fn convert_map(
    map: &GoMap,
    path: &mut Vec<Step>,
    first: &mut Unsupported,
) -> Result<Map<String, Value>, Error> {
    let mut out = Map::new();
    for (key, value, mark) in &map.entries {
        let key = key_string(key, value, *mark)?;
        path.push(Step::Key(key.clone()));
        let converted = convert(value, path, first)?;
        path.pop();
        out.insert(key, converted);
    }
    Ok(out)
}

/// The text a scalar is sent as: a key's string (as
/// `convertToJSONableObject` writes it), or a value's JSON.
pub(super) fn sent_text(go: &Go, key: bool) -> String {
    match go {
        Go::Float(f, _) if !key && !f.is_finite() => format_g(*f),
        Go::Nil | Go::Uint(_) if key => crate::gojson::to_string(&convert_scalar(go)),
        _ if key => key_string(go, &Go::Nil, Mark::default()).unwrap_or_default(),
        _ => crate::gojson::to_string(&convert_scalar(go)),
    }
}

fn convert_scalar(go: &Go) -> Value {
    convert(go, &mut Vec::new(), &mut None).unwrap_or(Value::Null)
}

/// A map key as `convertToJSONableObject` writes it.
fn key_string(key: &Go, value: &Go, mark: Mark) -> Result<String, Error> {
    let unsupported = |type_name: &str, shown: String| {
        let problem = format!(
            "unsupported map key of type: {type_name}, key: {shown}, value: {}",
            go_syntax(value)
        );
        Err(Error::new(Stage::Convert, problem, mark))
    };
    Ok(match key {
        Go::Str(s) => s.clone(),
        Go::Int(i) => i.to_string(),
        Go::Bool(b) => b.to_string(),
        Go::Float(f, _) => match format_g32(*f).as_str() {
            "+Inf" => ".inf".to_owned(),
            "-Inf" => "-.inf".to_owned(),
            "NaN" => ".nan".to_owned(),
            other => other.to_owned(),
        },
        Go::Nil => return unsupported("%!s(<nil>)", "<nil>".to_owned()),
        Go::Uint(u) => return unsupported("uint64", format!("{u:#x}")),
        Go::Seq(_) | Go::Map(_) => return unsupported("[]interface {}", go_syntax(key)),
    })
}

/// `strconv.FormatFloat(f, 'g', -1, 32)`: the shortest digits of the
/// nearest `float32`, in exponent form below 1e-4 and from 1e+06.
pub(super) fn format_g32(f: f64) -> String {
    let f32 = f as f32;
    if f32.is_nan() {
        return "NaN".to_owned();
    }
    if f32.is_infinite() {
        return if f32 > 0.0 { "+Inf" } else { "-Inf" }.to_owned();
    }
    let sign = if f32.is_sign_negative() { "-" } else { "" };
    let Some(shortest) = Shortest::of_f32(f32) else {
        return format!("{sign}0");
    };
    let mut out = sign.to_owned();
    if (-4..6).contains(&shortest.exponent()) {
        shortest.write_plain(&mut out);
    } else {
        shortest.write_mantissa(&mut out);
        shortest.write_exponent(&mut out, 2);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_keys_are_written_with_float32_digits() {
        let cases = [
            (1.5, "1.5"),
            (0.1, "0.1"),
            (std::f64::consts::PI, "3.1415927"),
            (1e7, "1e+07"),
            (123456.0, "123456"),
            (1234567.0, "1.234567e+06"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (-0.0, "-0"),
            (1e39, "+Inf"),
        ];
        for (f, text) in cases {
            assert_eq!(format_g32(f), text, "{f}");
        }
    }
}
