//! Stable sorting with one copy of the sort in a binary.
//!
//! `slice::sort_by` is compiled again for every element type and every
//! comparison closure: each copy of the standard library's driftsort is
//! about 3 KB of wasm, and the unstable sort another 3 KB. The sorts here
//! order the indices `0..len` with a comparison behind a `&dyn` (one copy
//! of the sort for the whole crate), then move the items into that order.
//! They are stable (equal items keep their order), so they also stand in
//! for `sort_unstable` where the order of equal items does not matter.
//! Collecting into a `BTreeMap` or `BTreeSet` sorts a buffer too (one more
//! copy per key type): outside the hot paths (the patch decoder keeps its
//! bulk build) the crate inserts one by one instead.
//! The cost is an indirect call per comparison and a pass to move the
//! items: nothing this crate sorts is large (a CRD's properties, a view's
//! highlight spans, a lint report's findings, a plan's field managers).
//!
//! ```
//! let mut v = vec![("b", 1), ("a", 2), ("b", 0), ("a", 1)];
//! patchlab::sort::sort_by_key(&mut v, |(name, _)| *name);
//! assert_eq!(v, [("a", 2), ("a", 1), ("b", 1), ("b", 0)]);
//! let mut n = vec![3, 1, 2];
//! patchlab::sort::sort(&mut n);
//! assert_eq!(n, [1, 2, 3]);
//! ```

use std::cmp::Ordering;

/// Sorts `items` stably by `compare` (as `slice::sort_by`).
pub fn sort_by<T>(items: &mut [T], compare: impl Fn(&T, &T) -> Ordering) {
    let order = {
        let items = &*items;
        stable_order(items.len(), &|a, b| compare(&items[a], &items[b]))
    };
    permute(items, &order);
}

/// Sorts `items` stably by `key` (as `slice::sort_by_key`).
pub fn sort_by_key<T, K: Ord>(items: &mut [T], key: impl Fn(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `items` stably in their natural order (as `slice::sort`).
pub fn sort<T: Ord>(items: &mut [T]) {
    sort_by(items, T::cmp);
}

/// The indices `0..len` in the stable order `compare` gives them: the one
/// place the standard library's sort is compiled.
#[inline(never)]
fn stable_order(len: usize, compare: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_by(|&a, &b| compare(a, b));
    order
}

/// Moves the items so that place `i` holds the item that was at
/// `order[i]` (a permutation of `0..items.len()`), by following each
/// cycle of the permutation with swaps.
fn permute<T>(items: &mut [T], order: &[usize]) {
    let mut placed = vec![false; items.len()];
    for start in 0..items.len() {
        let mut place = start;
        while !placed[place] {
            placed[place] = true;
            let from = order[place];
            if from == start {
                break;
            }
            items.swap(place, from);
            place = from;
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn sorts_as_the_standard_library_stable_sort(
            items in proptest::collection::vec((0u8..6, any::<u16>()), 0..200),
        ) {
            let mut ours = items.clone();
            let mut std = items;
            super::sort_by_key(&mut ours, |(key, _)| *key);
            std.sort_by_key(|(key, _)| *key);
            prop_assert_eq!(ours, std);
        }

        #[test]
        fn sorts_in_natural_order(items in proptest::collection::vec(any::<i32>(), 0..200)) {
            let mut ours = items.clone();
            let mut std = items;
            super::sort(&mut ours);
            std.sort();
            prop_assert_eq!(ours, std);
        }
    }
}
