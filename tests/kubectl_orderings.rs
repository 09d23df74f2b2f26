//! kubectl's own orderings of a merged list of scalars with duplicates
//! (`finalizers: [a, b, a]`, a Node's `podCIDRs`). `mergeSlice` appends the
//! patch to the original (`append(original, patch...)`); when the patch fits
//! the original's spare capacity the two share one array, which
//! `deduplicateScalars` rewrites in place, and the original slice that then
//! orders the result reads the rewritten elements. kubectl decodes the
//! object from JSON, so each list has the capacity `append` grew it to
//! (1, 2, 4, 8, 16, 32, 71, 143, 303, ... with Go 1.23's size classes).
//!
//! One test per spare-capacity case (each with kubectl's answer, checked
//! against the real kubectl where one is installed), then generated lists
//! of every length up to 150 (the size-class boundaries included) with
//! duplicates, merged with patches that fit, fill, or overflow the spare
//! capacity, with and without `$setElementOrder`, run through
//! `kubectl patch --local` and `strategic::apply_local`. Skipped, with a
//! NOTICE on stderr, where no kubectl is installed.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};

use patchlab::apply::strategic::{self, Origin};
use patchlab::schema;
use patchlab::sim::rng::SplitMix64;

fn kubectl() -> Option<PathBuf> {
    let fixed = PathBuf::from("/usr/bin/kubectl");
    if fixed.exists() {
        return Some(fixed);
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|p| p.join("kubectl"))
            .find(|p| p.exists())
    })
}

fn notice(test: &str) {
    eprintln!("\n*** NOTICE: no kubectl at /usr/bin/kubectl or on PATH: {test} checks patchlab only (install kubectl 1.32 to compare) ***\n");
}

/// `kubectl patch --local -f LIST --type=strategic -p PATCH -o json`: each
/// object by name (an empty map when kubectl refuses).
fn run_kubectl(kubectl: &Path, tag: &str, docs: &[Value], patch: &Value) -> HashMap<String, Value> {
    let dir = std::env::temp_dir().join(format!("patchlab-orderings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{tag}.json"));
    let list = json!({"apiVersion": "v1", "kind": "List", "items": docs});
    std::fs::write(&file, serde_json::to_vec(&list).unwrap()).unwrap();
    let out = Command::new(kubectl)
        .args(["patch", "--local", "-f"])
        .arg(&file)
        .args(["--type=strategic", "-p", &patch.to_string(), "-o", "json"])
        .env("KUBECONFIG", "/dev/null")
        .output()
        .expect("kubectl runs");
    let _ = std::fs::remove_file(&file);
    let stdout = String::from_utf8(out.stdout).unwrap();
    serde_json::Deserializer::from_str(&stdout)
        .into_iter::<Value>()
        .map(|v| {
            let v = v.unwrap();
            (v["metadata"]["name"].as_str().unwrap().to_owned(), v)
        })
        .collect()
}

fn pod(name: &str, finalizers: &[&str]) -> Value {
    json!({"apiVersion": "v1", "kind": "Pod",
           "metadata": {"name": name, "finalizers": finalizers},
           "spec": {"containers": [{"name": "c", "image": "i"}]}})
}

/// The merged finalizers as `kubectl patch --local` gives them (patchlab's
/// kubectl model), and as the server would (its deep copy has no spare
/// capacity).
fn patchlab(doc: &Value, patch: &Value) -> (Value, Value) {
    let kind = schema::target_of(doc).schema().unwrap();
    let run = |origin| {
        let mut out = doc.clone();
        strategic::apply_from(&mut out, patch, kind.root(), Default::default(), origin).unwrap();
        out["metadata"]["finalizers"].clone()
    };
    (run(Origin::Decoded), run(Origin::Server))
}

/// One spare-capacity case: the original list, the patch, kubectl's list
/// and the server's (no spare capacity).
fn case(tag: &str, original: &[&str], patch: Value, kubectl_gives: &[&str], server_gives: &[&str]) {
    let doc = pod("p", original);
    let (ours, server) = patchlab(&doc, &patch);
    assert_eq!(
        ours,
        json!(kubectl_gives),
        "kubectl model, {original:?} + {patch}"
    );
    assert_eq!(
        server,
        json!(server_gives),
        "server model, {original:?} + {patch}"
    );
    match kubectl() {
        Some(k) => {
            let theirs = run_kubectl(&k, tag, &[doc], &patch);
            assert_eq!(
                theirs["p"]["metadata"]["finalizers"],
                json!(kubectl_gives),
                "kubectl"
            );
        }
        None => notice("a spare-capacity case"),
    }
}

fn finalizers(list: &[&str]) -> Value {
    json!({"metadata": {"finalizers": list}})
}

/// Three elements have a capacity of 4: one patch element fits and
/// shares the array. `deduplicateScalars` writes `c` over the second `a`,
/// so the original reads `[a b c]` and `c` sorts after `a` and `b`;
/// without sharing `c` is not in the original and goes first.
#[test]
fn a_patch_that_fits_the_spare_capacity_sorts_by_the_rewritten_original() {
    case(
        "fits",
        &["a", "b", "a"],
        finalizers(&["c"]),
        &["a", "b", "c"],
        &["c", "a", "b"],
    );
}

/// Two patch elements do not fit in 3 of 4: a new array, the original
/// read as it was.
#[test]
fn a_patch_past_the_spare_capacity_leaves_the_original_alone() {
    let both = ["c", "d", "a", "b"];
    case(
        "past",
        &["a", "b", "a"],
        finalizers(&["c", "d"]),
        &both,
        &both,
    );
}

/// A full slice (4 of 4) with one more element: a new array.
#[test]
fn a_full_slice_shares_nothing_with_a_patch() {
    let both = ["d", "a", "b", "c"];
    case(
        "full",
        &["a", "b", "a", "c"],
        finalizers(&["d"]),
        &both,
        &both,
    );
}

/// An empty patch always fits, even in a slice without spare capacity (the
/// server's too): `append` returns the original itself, deduplicated in
/// place (`[a a b c]` becomes `[a c b]`, which then orders it).
#[test]
fn an_empty_patch_deduplicates_the_original_in_place() {
    let both = ["a", "c", "b"];
    case(
        "empty",
        &["a", "a", "b", "c"],
        finalizers(&[]),
        &both,
        &both,
    );
}

/// Lengths at a size class: 33 elements get a capacity of 71 (64 rounded
/// up to the 1152-byte class, less the malloc header), so 38 more fit and
/// 39 do not.
#[test]
fn the_capacity_follows_go_s_size_classes() {
    let mut original: Vec<String> = (0..32).map(|i| format!("f{i:02}")).collect();
    original.push("f00".into());
    let original: Vec<&str> = original.iter().map(String::as_str).collect();
    for (extra, shared) in [(38, true), (39, false)] {
        let added: Vec<String> = (0..extra).map(|i| format!("n{i:02}")).collect();
        let added: Vec<&str> = added.iter().map(String::as_str).collect();
        let doc = pod("p", &original);
        let (ours, server) = patchlab(&doc, &finalizers(&added));
        // Shared: the last patch element was written over the second
        // `f00`, so it sorts there, after the original's elements; else
        // it goes with the rest of the patch, before them.
        let last = ours.as_array().unwrap().last().unwrap().as_str().unwrap();
        assert_eq!(last == added[extra - 1], shared, "{extra} more: {ours}");
        assert_eq!(server.as_array().unwrap().last().unwrap(), &json!("f31"));
        if let Some(k) = kubectl() {
            let theirs = run_kubectl(&k, "boundary", &[doc], &finalizers(&added));
            assert_eq!(theirs["p"]["metadata"]["finalizers"], ours, "{extra} more");
        }
    }
}

/// A list length, most near a capacity boundary (where a patch of one
/// element fits or does not).
fn length(rng: &mut SplitMix64) -> usize {
    const NEAR: [usize; 9] = [1, 2, 4, 8, 16, 32, 71, 143, 303];
    match rng.below(3) {
        0 => 1 + rng.below(150) as usize,
        _ => {
            let at = NEAR[rng.below(NEAR.len() as u64) as usize];
            (at + rng.below(5) as usize).saturating_sub(2).max(1)
        }
    }
}

/// A list of `n` words from a pool of `pool` (so with duplicates).
fn words(rng: &mut SplitMix64, n: usize, pool: u64, prefix: &str) -> Vec<Value> {
    (0..n)
        .map(|_| json!(format!("{prefix}{}", rng.below(pool))))
        .collect()
}

/// One patch and the objects it is sent to: Pods' finalizers or Nodes'
/// podCIDRs, lists of various lengths with duplicates; the patch adds new
/// and known elements (a few, or as many as a list's spare capacity), and
/// sometimes orders them with `$setElementOrder`.
fn group(rng: &mut SplitMix64, g: usize) -> (Vec<Value>, Value) {
    let node = rng.chance(1, 3);
    let docs: Vec<Value> = (0..10)
        .map(|i| {
            let n = length(rng);
            let list = words(rng, n, (n as u64 / 2).max(2), "o");
            let name = format!("g{g}-{i}");
            if node {
                json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": name},
                       "spec": {"podCIDRs": list}})
            } else {
                json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "finalizers": list},
                       "spec": {"containers": [{"name": "c", "image": "i"}]}})
            }
        })
        .collect();
    let m = [0, 1, 1, 2, 3, 5, 9, 17, 40][rng.below(9) as usize];
    let mut patch_list = words(rng, m, 60, "p");
    for item in patch_list.iter_mut() {
        if rng.chance(1, 4) {
            *item = json!(format!("o{}", rng.below(8)));
        }
    }
    let mut body = serde_json::Map::new();
    body.insert(
        if node { "podCIDRs" } else { "finalizers" }.into(),
        json!(patch_list),
    );
    if rng.chance(1, 3) {
        let mut order = patch_list.clone();
        for _ in 0..rng.below(4) {
            let at = rng.below(order.len() as u64 + 1) as usize;
            order.insert(at, json!(format!("o{}", rng.below(8))));
        }
        order.dedup();
        let key = if node {
            "$setElementOrder/podCIDRs"
        } else {
            "$setElementOrder/finalizers"
        };
        body.insert(key.into(), json!(order));
    }
    let patch = json!({ (if node { "spec" } else { "metadata" }): body });
    (docs, patch)
}

/// The list field of a Pod or Node.
fn merged_list(object: &Value) -> &Value {
    object
        .pointer("/metadata/finalizers")
        .or_else(|| object.pointer("/spec/podCIDRs"))
        .unwrap_or(&Value::Null)
}

/// One group through kubectl and both of patchlab's models: the cases,
/// those where the models differ, and the disagreements with kubectl.
fn compare(kubectl: &Path, g: usize, docs: &[Value], patch: &Value) -> (usize, usize, Vec<String>) {
    let theirs = run_kubectl(kubectl, &format!("gen{g}"), docs, patch);
    let mut differ_from_server = 0;
    let mut failures = Vec::new();
    for doc in docs {
        let kind = schema::target_of(doc).schema().unwrap();
        let run = |origin| {
            let mut out = doc.clone();
            strategic::apply_from(&mut out, patch, kind.root(), Default::default(), origin)
                .map(|()| merged_list(&out).clone())
                .map_err(|e| e.to_string())
        };
        let name = doc["metadata"]["name"].as_str().unwrap();
        let theirs = theirs.get(name).map(|o| merged_list(o).clone());
        let ours = run(Origin::Decoded);
        differ_from_server += usize::from(run(Origin::Server) != ours);
        if ours.as_ref().ok() != theirs.as_ref() {
            failures.push(format!(
                "{name}: {}\n  patch: {patch}\n  kubectl:  {theirs:?}\n  patchlab: {ours:?}",
                merged_list(doc)
            ));
        }
    }
    (docs.len(), differ_from_server, failures)
}

/// Generated lists with duplicates through the real kubectl: patchlab's
/// kubectl model gives kubectl's list in every case.
#[test]
fn generated_duplicates_merge_as_kubectl_merges_them() {
    let Some(kubectl) = kubectl() else {
        return notice("generated_duplicates_merge_as_kubectl_merges_them");
    };
    let seed = std::env::var("PATCHLAB_ORDERINGS_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x0dd5_2026);
    let mut rng = SplitMix64::new(seed);
    let groups: Vec<(Vec<Value>, Value)> = (0..120).map(|g| group(&mut rng, g)).collect();
    // Two threads, each with every other group.
    let results: Vec<(usize, usize, Vec<String>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..2)
            .map(|t| {
                let (kubectl, groups) = (&kubectl, &groups);
                scope.spawn(move || {
                    let mine = groups.iter().enumerate().skip(t).step_by(2);
                    mine.map(|(g, (docs, patch))| compare(kubectl, g, docs, patch))
                        .fold((0, 0, Vec::new()), |mut acc, r| {
                            acc.0 += r.0;
                            acc.1 += r.1;
                            acc.2.extend(r.2);
                            acc
                        })
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let cases: usize = results.iter().map(|r| r.0).sum();
    let differ_from_server: usize = results.iter().map(|r| r.1).sum();
    let failures: Vec<String> = results.into_iter().flat_map(|r| r.2).collect();
    let _ = std::fs::remove_dir_all(
        std::env::temp_dir().join(format!("patchlab-orderings-{}", std::process::id())),
    );
    eprintln!("duplicates vs kubectl: {cases} cases (seed {seed:#x}), {differ_from_server} where the spare capacity changes the order, {} disagreements", failures.len());
    assert!(
        differ_from_server > 20,
        "too few cases where sharing shows: {differ_from_server}"
    );
    assert!(
        failures.is_empty(),
        "{} of {cases} differ:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
}

/// The finding `smp-nondeterministic` names, for a body.
fn nondeterministic(body: &Value) -> Vec<String> {
    let report =
        patchlab::lint::lint(&body.to_string(), &patchlab::lint::Options::default()).unwrap();
    report
        .findings
        .iter()
        .filter(|f| f.rule == patchlab::lint::Rule::SmpNondeterministic)
        .map(|f| f.message.clone())
        .collect()
}

/// A value both added to `finalizers` and named in its
/// `$deleteFromPrimitiveList`: `mergeMap` visits the two keys in Go's map
/// order, random per call, so kubectl keeps the value for some objects of
/// one List and drops it for others. lint flags the body (and not the
/// same body with `$setElementOrder`, whose list `mergePatchIntoOriginal`
/// always merges first). patchlab merges in sorted key order (the deletion
/// first): one of kubectl's two answers. Whether kubectl shows both
/// answers depends on its random draws (16 calls: both orders with
/// probability 1 - 2^-15); seeing one only is reported, not failed.
#[test]
fn a_list_and_its_deletion_list_merge_in_random_order() {
    let body =
        json!({"metadata": {"finalizers": ["x"], "$deleteFromPrimitiveList/finalizers": ["x"]}});
    let flagged = nondeterministic(&body);
    assert_eq!(flagged.len(), 1, "{flagged:?}");
    assert!(
        flagged[0].contains("\"x\" is both added and deleted"),
        "{}",
        flagged[0]
    );
    let mut ordered = body.clone();
    ordered["metadata"]["$setElementOrder/finalizers"] = json!(["a", "x"]);
    assert!(nondeterministic(&ordered).is_empty());
    let docs: Vec<Value> = (0..16).map(|i| pod(&format!("p{i}"), &["a"])).collect();
    let (ours, _) = patchlab(&docs[0], &body);
    let answers = [json!(["x", "a"]), json!(["a"])];
    assert_eq!(ours, answers[0]);
    let Some(k) = kubectl() else {
        return notice("a_list_and_its_deletion_list_merge_in_random_order");
    };
    let theirs = run_kubectl(&k, "random", &docs, &body);
    let mut seen: Vec<Value> = Vec::new();
    for object in theirs.values() {
        let list = object["metadata"]["finalizers"].clone();
        assert!(answers.contains(&list), "kubectl gave {list}");
        if !seen.contains(&list) {
            seen.push(list);
        }
    }
    assert_eq!(theirs.len(), docs.len());
    if seen.len() == 2 {
        eprintln!(
            "kubectl gave both answers over {} objects: {seen:?}",
            docs.len()
        );
    } else {
        eprintln!("\n*** NOTICE: kubectl gave one answer ({seen:?}) to all {} objects this run: its map order happened to agree ***\n", docs.len());
    }
}

/// The deletion first leaves spare capacity: `deleteFromSlice` makes its
/// list with the capacity of the list it read (`[a b a c]` less `c`: 3 of
/// 4), so a one-element patch then shares the array and `deduplicateScalars`
/// reorders (`[a b d]`); the merge first gives `[d a b]`. No value is both
/// added and deleted, yet kubectl answers either, and lint says why.
#[test]
fn the_deletion_list_leaves_spare_capacity_for_the_merge() {
    let body =
        json!({"metadata": {"finalizers": ["d"], "$deleteFromPrimitiveList/finalizers": ["c"]}});
    let flagged = nondeterministic(&body);
    assert!(
        flagged.len() == 1 && flagged[0].contains("holds duplicates"),
        "{flagged:?}"
    );
    let docs: Vec<Value> = (0..16)
        .map(|i| pod(&format!("q{i}"), &["a", "b", "a", "c"]))
        .collect();
    let answers = [json!(["a", "b", "d"]), json!(["d", "a", "b"])];
    assert_eq!(patchlab(&docs[0], &body).0, answers[0]);
    let Some(k) = kubectl() else {
        return notice("the_deletion_list_leaves_spare_capacity_for_the_merge");
    };
    let theirs = run_kubectl(&k, "spare", &docs, &body);
    assert_eq!(theirs.len(), docs.len());
    let mut seen: Vec<Value> = Vec::new();
    for object in theirs.values() {
        let list = object["metadata"]["finalizers"].clone();
        assert!(answers.contains(&list), "kubectl gave {list}");
        if !seen.contains(&list) {
            seen.push(list);
        }
    }
    eprintln!("kubectl's answers over {} objects: {seen:?}", docs.len());
}
