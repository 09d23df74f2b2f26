//! Go's sorting and ordering as strategic merge patch uses them, near
//! linear: `index` lookups through hash maps of first positions instead
//! of scans, `sort.SliceStable` and `sort.Sort` ported so that even an
//! inconsistent comparator orders as Go's does.

use std::collections::HashMap;

use serde_json::Value;

use super::{Error, ErrorKind};
use crate::gojson::ScalarKey;

/// A scalar as an owned hashable key with Go's `==` semantics.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Key {
    Null,
    Bool(bool),
    Int(i64),
    Float(u64),
    Str(String),
}

impl Key {
    /// The key of a scalar; an error (Go panics) for a map or slice.
    pub(crate) fn of(value: &Value) -> Result<Key, Error> {
        Ok(match ScalarKey::of(value) {
            Some(ScalarKey::Null) => Key::Null,
            Some(ScalarKey::Bool(b)) => Key::Bool(b),
            Some(ScalarKey::Int(i)) => Key::Int(i),
            Some(ScalarKey::Float(f)) => Key::Float(f),
            Some(ScalarKey::Str(s)) => Key::Str(s.to_owned()),
            None => return Err(uncomparable(value)),
        })
    }
}

/// Go's panic when `==` meets two maps (or two slices).
pub(crate) fn uncomparable(value: &Value) -> Error {
    Error::new(ErrorKind::Panic(match value {
        Value::Array(_) => "runtime error: comparing uncomparable type []interface {}",
        _ => "runtime error: comparing uncomparable type map[string]interface {}",
    }))
}

/// What `index` compares of an element: its merge key's value (`nil`
/// when absent or not a map) for lists of maps, the element itself
/// otherwise.
pub(crate) fn index_value<'a>(item: &'a Value, merge_key: &str, maps: bool) -> &'a Value {
    static NULL: Value = Value::Null;
    if maps {
        item.get(merge_key).unwrap_or(&NULL)
    } else {
        item
    }
}

/// First positions of the values `index` compares, so that `index(list,
/// x)` is one hash lookup.
pub(crate) struct Positions(HashMap<Key, usize>);

impl Positions {
    /// Positions of `list`'s elements (see [`index_value`]).
    ///
    /// # Errors
    ///
    /// Go's panic for a map or slice value.
    pub(crate) fn new(list: &[Value], merge_key: &str, maps: bool) -> Result<Positions, Error> {
        let mut map = HashMap::with_capacity(list.len());
        for (i, item) in list.iter().enumerate() {
            map.entry(Key::of(index_value(item, merge_key, maps))?)
                .or_insert(i);
        }
        Ok(Positions(map))
    }

    /// Go's `index(list, item, mergeKey, kind)`: the first position, or
    /// `None` for -1.
    pub(crate) fn index(
        &self,
        item: &Value,
        merge_key: &str,
        maps: bool,
    ) -> Result<Option<usize>, Error> {
        Ok(self
            .0
            .get(&Key::of(index_value(item, merge_key, maps))?)
            .copied())
    }
}

/// Go's `sort.SliceStable` (insertion sort on blocks of 20, then
/// SymMerge), so that a comparator that is no strict weak order (the
/// one of `normalizeSliceOrder`) orders exactly as Go's does.
pub(crate) fn stable<T>(data: &mut [T], less: impl Fn(&T, &T) -> bool) {
    let n = data.len();
    let mut block = 20;
    let (mut a, mut b) = (0, block);
    while b <= n {
        insertion_sort(data, a, b, &less);
        a = b;
        b += block;
    }
    insertion_sort(data, a, n, &less);
    while block < n {
        let (mut a, mut b) = (0, 2 * block);
        while b <= n {
            sym_merge(data, a, a + block, b, &less);
            a = b;
            b += 2 * block;
        }
        let m = a + block;
        if m < n {
            sym_merge(data, a, m, n, &less);
        }
        block *= 2;
    }
}

fn insertion_sort<T>(data: &mut [T], a: usize, b: usize, less: &impl Fn(&T, &T) -> bool) {
    for i in a + 1..b {
        let mut j = i;
        while j > a && less(&data[j], &data[j - 1]) {
            data.swap(j, j - 1);
            j -= 1;
        }
    }
}

fn sym_merge<T>(data: &mut [T], a: usize, m: usize, b: usize, less: &impl Fn(&T, &T) -> bool) {
    if m - a == 1 {
        let (mut i, mut j) = (m, b);
        while i < j {
            let h = (i + j) / 2;
            if less(&data[h], &data[a]) {
                i = h + 1;
            } else {
                j = h;
            }
        }
        for k in a..i.saturating_sub(1) {
            data.swap(k, k + 1);
        }
        return;
    }
    if b - m == 1 {
        let (mut i, mut j) = (a, m);
        while i < j {
            let h = (i + j) / 2;
            if !less(&data[m], &data[h]) {
                i = h + 1;
            } else {
                j = h;
            }
        }
        let mut k = m;
        while k > i {
            data.swap(k, k - 1);
            k -= 1;
        }
        return;
    }
    let mid = (a + b) / 2;
    let n = mid + m;
    let (mut start, mut r) = if m > mid { (n - b, mid) } else { (a, m) };
    let p = n - 1;
    while start < r {
        let c = (start + r) / 2;
        if !less(&data[p - c], &data[c]) {
            start = c + 1;
        } else {
            r = c;
        }
    }
    let end = n - start;
    if start < m && m < end {
        rotate(data, start, m, end);
    }
    if a < start && start < mid {
        sym_merge(data, a, start, mid, less);
    }
    if mid < end && end < b {
        sym_merge(data, mid, end, b, less);
    }
}

fn rotate<T>(data: &mut [T], a: usize, m: usize, b: usize) {
    let (mut i, mut j) = (m - a, b - m);
    while i != j {
        if i > j {
            swap_range(data, m - i, m, j);
            i -= j;
        } else {
            swap_range(data, m - i, m + j - i, i);
            j -= i;
        }
    }
    swap_range(data, m - i, m, i);
}

fn swap_range<T>(data: &mut [T], a: usize, b: usize, n: usize) {
    for i in 0..n {
        data.swap(a + i, b + i);
    }
}

/// Go's `sort.Sort` with strategic merge patch's comparator, `Less(i, j)
/// = str(i) <= str(j)` (`sort.StringsAreSorted`): up to 12 elements Go
/// runs an insertion sort, which puts elements with equal strings in the
/// reverse of their order; patchlab does the same at every length (Go's
/// pdqsort may order ties otherwise above 12).
pub(crate) fn sort_le<T>(items: &mut Vec<T>, text: impl Fn(&T) -> String) {
    let mut keyed: Vec<(String, usize, T)> = items
        .drain(..)
        .enumerate()
        .map(|(i, item)| (text(&item), i, item))
        .collect();
    // Go's stable sort port, not std's: one sort in the wasm module.
    stable(&mut keyed, |a, b| a.0 < b.0 || (a.0 == b.0 && a.1 > b.1));
    items.extend(keyed.into_iter().map(|(_, _, item)| item));
}

/// Go's `deduplicateScalars`, exactly: each later duplicate of `s[i]`
/// (scanning right) is replaced by the current last element, which
/// shortens the list, so the order changes when there are duplicates.
pub(crate) fn dedupe_scalars(s: Vec<Value>) -> Result<Vec<Value>, Error> {
    let (mut backing, len) = dedupe_in_place(s)?;
    backing.truncate(len);
    Ok(backing)
}

/// Go's `deduplicateScalars` as it leaves the backing array it works in:
/// the whole array (its tail past the result holds the elements moved
/// forward, still there) and the result's length. A slice that shares the
/// array (the original list `mergeSlice` appended the patch to) reads its
/// first elements. Simulated with each value's positions, in O(n log n).
pub(crate) fn dedupe_in_place(s: Vec<Value>) -> Result<(Vec<Value>, usize), Error> {
    use std::collections::{BTreeSet, HashMap};
    let keys: Vec<Key> = s.iter().map(Key::of).collect::<Result<_, _>>()?;
    let mut seen = std::collections::HashSet::with_capacity(keys.len());
    if keys.iter().all(|key| seen.insert(key)) {
        let len = s.len();
        return Ok((s, len));
    }
    let mut positions: HashMap<&Key, BTreeSet<usize>> = HashMap::new();
    for (i, key) in keys.iter().enumerate() {
        positions.entry(key).or_default().insert(i);
    }
    // Which original element each position holds, as elements move.
    let mut source: Vec<usize> = (0..s.len()).collect();
    let mut length = s.len() - 1;
    let mut i = 0;
    while i < length {
        let key = &keys[source[i]];
        // Later copies of s[i], left to right; a copy moved into a hole
        // is found again at that hole.
        while i < length {
            let Some(&j) = positions
                .get(key)
                .and_then(|set| set.range(i + 1..=length).next())
            else {
                break;
            };
            // s[j] = s[length]; s = s[:length]
            let last_key = &keys[source[length]];
            if let Some(set) = positions.get_mut(key) {
                set.remove(&j);
            }
            if let Some(set) = positions.get_mut(last_key) {
                set.remove(&length);
                if j != length {
                    set.insert(j);
                }
            }
            source[j] = source[length];
            length -= 1;
        }
        i += 1;
    }
    let backing = source.iter().map(|&k| s[k].clone()).collect();
    Ok((backing, length + 1))
}

/// The capacity of a Go slice of interface values that `append` grew one
/// element at a time from empty: how `encoding/json` (and sigs.k8s.io/json,
/// which kubectl and strategicpatch decode with) builds a JSON array's
/// `[]interface{}` (`arrayInterface`). Go 1.23's `growslice` (the Go of
/// kubectl 1.32): `nextslicecap` doubles below 256 elements, then adds
/// `(cap + 768) / 4` until the length fits; `roundupsize` rounds the bytes
/// (16 an element) up to the allocator's size class, with the 8-byte
/// malloc header of an object over 512 bytes that holds pointers, or to
/// whole 8 KiB pages above 32 KiB.
///
/// ```text
/// 0, 1, 2, 4, 4, 8 .. 8, 16 .., 32 (17..=32), 71 (33..=71), 143, 303, 591, 1023, 1535, 2560 ..
/// ```
pub(crate) fn appended_capacity(len: usize) -> usize {
    let mut cap = 0;
    while cap < len {
        cap = grown_capacity(cap + 1, cap);
    }
    cap
}

/// `growslice`'s new capacity for `new_len` elements of 16 bytes.
fn grown_capacity(new_len: usize, old_cap: usize) -> usize {
    const ELEMENT: usize = 16;
    let double = old_cap * 2;
    let mut cap = old_cap;
    if new_len > double {
        cap = new_len;
    } else if old_cap < 256 {
        cap = double;
    } else {
        while cap < new_len {
            cap += (cap + 3 * 256) >> 2;
        }
    }
    round_up_size(cap * ELEMENT) / ELEMENT
}

/// The runtime's size classes (`class_to_size`, sizeclasses.go).
const SIZE_CLASSES: [usize; 68] = [
    0, 8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256, 288, 320,
    352, 384, 416, 448, 480, 512, 576, 640, 704, 768, 896, 1024, 1152, 1280, 1408, 1536, 1792,
    2048, 2304, 2688, 3072, 3200, 3456, 4096, 4864, 5376, 6144, 6528, 6784, 6912, 8192, 9472, 9728,
    10240, 10880, 12288, 13568, 14336, 16384, 18432, 19072, 20480, 21760, 24576, 27264, 28672,
    32768,
];

/// `roundupsize(size, noscan=false)` (msize.go, Go 1.22 and later): the
/// bytes an allocation of `size` gets, less its malloc header.
fn round_up_size(size: usize) -> usize {
    const MAX_SMALL: usize = 32768;
    const HEADER: usize = 8;
    const PAGE: usize = 8192;
    if size <= MAX_SMALL - HEADER {
        let request = if size > 512 { size + HEADER } else { size };
        let class = SIZE_CLASSES
            .iter()
            .copied()
            .find(|&c| c >= request)
            .unwrap_or(MAX_SMALL);
        return class - (request - size);
    }
    size.div_ceil(PAGE) * PAGE
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn stable_sorts_stably_with_a_consistent_comparator() {
        let mut v: Vec<(u32, u32)> = (0..200).map(|i| ((i * 7919) % 13, i)).collect();
        stable(&mut v, |a, b| a.0 < b.0);
        for w in v.windows(2) {
            assert!(w[0].0 < w[1].0 || (w[0].0 == w[1].0 && w[0].1 < w[1].1));
        }
    }

    #[test]
    fn stable_with_go_s_odd_comparator() {
        // normalizeSliceOrder's less: true whenever one side is not found.
        // Hand-run Go: [a(-) b(1) c(0)] -> insertion: i=1: less(b,a) true
        // -> [b a c]; j=0 stop. i=2: less(c,a) true -> [b c a]; less(c,b)
        // 0<1 true -> [c b a].
        let mut v = vec![("a", None), ("b", Some(1)), ("c", Some(0))];
        stable(&mut v, |x: &(&str, Option<usize>), y| match (x.1, y.1) {
            (Some(i), Some(j)) => i < j,
            _ => true,
        });
        let names: Vec<&str> = v.iter().map(|x| x.0).collect();
        assert_eq!(names, ["c", "b", "a"]);
    }

    #[test]
    fn sort_le_reverses_ties_as_go_s_insertion_sort() {
        let mut v = vec![("b", 1), ("a", 2), ("b", 3), ("a", 4)];
        sort_le(&mut v, |x| x.0.to_owned());
        assert_eq!(v, [("a", 4), ("a", 2), ("b", 3), ("b", 1)]);
    }

    /// The loop of Go's `deduplicateScalars`, literally.
    fn go_dedupe(mut s: Vec<Value>) -> Vec<Value> {
        let mut length = s.len().saturating_sub(1);
        let mut i = 0;
        while i < length {
            let mut j = i + 1;
            while j <= length {
                if s[i] == s[j] {
                    s[j] = s[length].clone();
                    s.truncate(length);
                    length -= 1;
                } else {
                    j += 1;
                }
            }
            i += 1;
        }
        s
    }

    #[test]
    fn dedupe_is_go_s_loop() {
        // A small LCG (Knuth's MMIX constants): any sequence will do.
        let mut state: u64 = 9;
        let mut below = |n: u64| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) % n
        };
        for _ in 0..2000 {
            let n = below(12) as usize;
            let s: Vec<Value> = (0..n).map(|_| json!(below(4))).collect();
            assert_eq!(
                dedupe_scalars(s.clone()).unwrap(),
                go_dedupe(s.clone()),
                "{s:?}"
            );
        }
    }

    /// Go's `deduplicateScalars` on its backing array, literally.
    fn go_dedupe_backing(mut s: Vec<Value>) -> (Vec<Value>, usize) {
        if s.is_empty() {
            return (s, 0);
        }
        let mut length = s.len() - 1;
        let mut i = 0;
        while i < length {
            let mut j = i + 1;
            while j <= length {
                if s[i] == s[j] {
                    s[j] = s[length].clone();
                    length -= 1;
                } else {
                    j += 1;
                }
            }
            i += 1;
        }
        (s, length + 1)
    }

    #[test]
    fn dedupe_leaves_the_backing_array_as_go_does() {
        let mut state: u64 = 3;
        let mut below = |n: u64| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) % n
        };
        for _ in 0..2000 {
            let n = below(14) as usize;
            let s: Vec<Value> = (0..n).map(|_| json!(below(5))).collect();
            assert_eq!(
                dedupe_in_place(s.clone()).unwrap(),
                go_dedupe_backing(s.clone()),
                "{s:?}"
            );
        }
        // [a a b c]: s[1] = s[3]; the array keeps c at its end.
        let (backing, len) =
            dedupe_in_place(vec![json!("a"), json!("a"), json!("b"), json!("c")]).unwrap();
        assert_eq!(
            (backing, len),
            (vec![json!("a"), json!("c"), json!("b"), json!("c")], 3)
        );
    }

    #[test]
    fn appended_capacities_are_go_1_23_s() {
        let caps: Vec<usize> = [
            0, 1, 2, 3, 4, 5, 9, 17, 32, 33, 71, 72, 143, 144, 303, 304, 591, 592, 1023, 1024,
            1535, 1536, 2561,
        ]
        .iter()
        .map(|&n| appended_capacity(n))
        .collect();
        assert_eq!(
            caps,
            [
                0, 1, 2, 4, 4, 8, 16, 32, 32, 71, 71, 143, 143, 303, 303, 591, 591, 1023, 1023,
                1535, 1535, 2560, 3584
            ]
        );
    }

    #[test]
    fn dedupe_moves_the_last_element_into_a_duplicate() {
        // Go: [a a b c] -> [a c b].
        let out = dedupe_scalars(vec![json!("a"), json!("a"), json!("b"), json!("c")]).unwrap();
        assert_eq!(out, [json!("a"), json!("c"), json!("b")]);
        let out = dedupe_scalars(vec![json!(1), json!(1.0), json!(1)]).unwrap();
        assert_eq!(out, [json!(1), json!(1.0)]);
        assert!(dedupe_scalars(vec![json!({}), json!({})]).is_err());
    }
}
