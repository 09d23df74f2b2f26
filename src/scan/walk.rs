//! Which files to scan, and scanning them on several threads (one Go
//! package, a directory, per task).
//!
//! Directories are walked with a stack of their own (no depth limit, no
//! recursion); symbolic links to files are followed, to directories not
//! (as the Go tool), so a link loop cannot trap the walk; a directory or
//! file that cannot be read is listed as skipped and the rest is scanned.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use globset::{Glob, GlobSet, GlobSetBuilder};

use super::{go, package, ScanError, ScanErrorKind, Survey, MAX_FILE_BYTES};

/// Stack of each scanning thread (the interpreter recurses over nested
/// expressions, up to its depth budget).
const THREAD_STACK: usize = 32 * 1024 * 1024;

/// Directories of tests, skipped unless [`Selection::include_tests`]:
/// end-to-end and functional suites deliberately send patches a
/// controller never would (to break objects, to race on purpose).
pub const TEST_DIRS: [&str; 3] = ["test", "tests", "e2e"];

/// Which files of the given paths are scanned.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    /// Also tests: `_test.go` files and the directories of
    /// [`TEST_DIRS`] (skipped by default).
    pub include_tests: bool,
    /// Also `vendor/` directories (skipped by default).
    pub include_vendor: bool,
    /// Globs of paths to leave out (matched against the path below the
    /// given directory and against the whole path).
    pub exclude: Vec<String>,
}

/// How far a scan is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Files done.
    pub done: usize,
    /// Files in all.
    pub total: usize,
}

fn globs(patterns: &[String]) -> Result<GlobSet, ScanError> {
    let mut builder = GlobSetBuilder::new();
    for pattern in patterns {
        let glob = Glob::new(pattern).map_err(|e| {
            ScanError::new(
                pattern.clone(),
                ScanErrorKind::BadGlob(e.kind().to_string()),
            )
        })?;
        builder.add(glob);
    }
    builder
        .build()
        .map_err(|e| ScanError::new(patterns.join(" "), ScanErrorKind::BadGlob(e.to_string())))
}

fn slashed(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

fn io_error(path: &Path, err: &std::io::Error) -> ScanError {
    let kind = if err.kind() == std::io::ErrorKind::NotFound {
        ScanErrorKind::NotFound
    } else {
        ScanErrorKind::Io(err.to_string())
    };
    ScanError::new(slashed(path), kind)
}

/// The Go files under `paths`, sorted, and what could not be read on the
/// way: directories are walked (hidden directories, `_*` and `testdata`
/// skipped, as the Go tool does; `vendor/` and test trees unless
/// selected), files named directly are taken as they are.
///
/// # Errors
///
/// [`ScanErrorKind::NotFound`] or [`ScanErrorKind::Io`] for a path given
/// that does not exist or cannot be examined, [`ScanErrorKind::BadGlob`]
/// for a bad pattern.
pub fn discover(
    paths: &[PathBuf],
    selection: &Selection,
) -> Result<(Vec<PathBuf>, Vec<ScanError>), ScanError> {
    let exclude = globs(&selection.exclude)?;
    let mut out = Vec::new();
    let mut skipped = Vec::new();
    for root in paths {
        let meta = std::fs::metadata(root).map_err(|e| io_error(root, &e))?;
        if meta.is_file() {
            out.push(root.clone());
            continue;
        }
        let mut stack = vec![root.clone()];
        while let Some(dir) = stack.pop() {
            let entries = match std::fs::read_dir(&dir) {
                Ok(entries) => entries,
                Err(e) => {
                    skipped.push(io_error(&dir, &e));
                    continue;
                }
            };
            for entry in entries {
                let entry = match entry {
                    Ok(entry) => entry,
                    Err(e) => {
                        skipped.push(io_error(&dir, &e));
                        continue;
                    }
                };
                let path = entry.path();
                let relative = path.strip_prefix(root).unwrap_or(&path);
                if exclude.is_match(relative) || exclude.is_match(&path) {
                    continue;
                }
                match classify(&entry, selection) {
                    Entry::Dir => stack.push(path),
                    Entry::File => out.push(path),
                    Entry::Broken(err) => skipped.push(io_error(&path, &err)),
                    Entry::Skip => {}
                }
            }
        }
    }
    out.sort();
    out.dedup();
    skipped.sort_by(|a, b| a.path.cmp(&b.path));
    Ok((out, skipped))
}

/// What a directory entry is to the walk.
enum Entry {
    Dir,
    File,
    /// A link that leads nowhere readable (dangling, a loop).
    Broken(std::io::Error),
    Skip,
}

fn classify(entry: &std::fs::DirEntry, selection: &Selection) -> Entry {
    let name = entry.file_name();
    let name = name.to_string_lossy();
    let Ok(kind) = entry.file_type() else {
        return Entry::Skip;
    };
    if kind.is_dir() {
        let skip = name.starts_with('.')
            || name.starts_with('_')
            || name == "testdata"
            || (name == "vendor" && !selection.include_vendor)
            || (TEST_DIRS.contains(&name.as_ref()) && !selection.include_tests);
        return if skip { Entry::Skip } else { Entry::Dir };
    }
    let go = name.ends_with(".go") && (selection.include_tests || !name.ends_with("_test.go"));
    if !go {
        return Entry::Skip;
    }
    if kind.is_file() {
        return Entry::File;
    }
    if kind.is_symlink() {
        return match std::fs::metadata(entry.path()) {
            Ok(meta) if meta.is_file() => Entry::File,
            Ok(_) => Entry::Skip,
            Err(err) => Entry::Broken(err),
        };
    }
    Entry::Skip
}

/// Reads a file within the budget, as UTF-8 text (a file with NUL bytes
/// is binary, whatever its name).
fn read(path: &Path) -> Result<String, ScanError> {
    let name = slashed(path);
    let meta = std::fs::metadata(path).map_err(|e| io_error(path, &e))?;
    if meta.len() > MAX_FILE_BYTES as u64 {
        return Err(ScanError::new(
            name,
            ScanErrorKind::TooLarge {
                bytes: meta.len(),
                limit: MAX_FILE_BYTES as u64,
            },
        ));
    }
    let bytes = std::fs::read(path).map_err(|e| io_error(path, &e))?;
    if let Some(offset) = bytes.iter().position(|b| *b == 0) {
        return Err(ScanError::new(name, ScanErrorKind::Binary { offset }));
    }
    String::from_utf8(bytes).map_err(|e| {
        ScanError::new(
            name,
            ScanErrorKind::NotUtf8 {
                offset: e.utf8_error().valid_up_to(),
            },
        )
    })
}

/// A Go module: where its `go.mod` is and the path it declares.
#[derive(Clone, Debug)]
struct Module {
    root: PathBuf,
    path: String,
}

/// The modules of the directories scanned, found once each.
#[derive(Default)]
struct Modules {
    found: Mutex<HashMap<PathBuf, Option<Module>>>,
}

impl Modules {
    /// The module `dir` belongs to (the nearest `go.mod` above it).
    fn of(&self, dir: &Path) -> Option<Module> {
        if let Some(known) = self.found.lock().ok()?.get(dir) {
            return known.clone();
        }
        let mut found = None;
        for ancestor in dir.ancestors() {
            let Ok(text) = std::fs::read_to_string(ancestor.join("go.mod")) else {
                continue;
            };
            found = text
                .lines()
                .find_map(|l| l.trim().strip_prefix("module "))
                .map(|m| Module {
                    root: ancestor.to_path_buf(),
                    path: m.trim().trim_matches('"').to_owned(),
                });
            break;
        }
        if let Ok(mut cache) = self.found.lock() {
            cache.insert(dir.to_path_buf(), found.clone());
        }
        found
    }

    /// The Go files (tests left out) of the package `import` of the
    /// module of `from`; none when it is not the module's.
    fn load(&self, from: &Path, import: &str) -> Vec<(String, String)> {
        let Some(module) = self.of(from) else {
            return Vec::new();
        };
        let Some(rest) = import
            .strip_prefix(&module.path)
            .and_then(|r| r.strip_prefix('/'))
        else {
            return Vec::new();
        };
        let dir = module.root.join(rest);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            return Vec::new();
        };
        let mut out: Vec<(String, String)> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
                name.is_some_and(|n| n.ends_with(".go") && !n.ends_with("_test.go"))
            })
            .filter_map(|p| read(&p).ok().map(|text| (slashed(&p), text)))
            .collect();
        out.sort();
        out
    }
}

/// Reads and scans the files of one package (a directory) into `survey`.
fn scan_dir(
    parser: &mut tree_sitter::Parser,
    package: &[PathBuf],
    modules: &Modules,
    survey: &Mutex<Survey>,
) {
    let mut sources = Vec::with_capacity(package.len());
    let mut skipped = Vec::new();
    for path in package {
        match read(path) {
            Ok(text) => sources.push((slashed(path), text)),
            Err(err) => skipped.push(err),
        }
    }
    let bytes: u64 = sources.iter().map(|(_, t)| t.len() as u64).sum();
    let dir = package
        .first()
        .and_then(|p| p.parent())
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let loader = |import: &str| modules.load(&dir, import);
    let (judged, errors) = package::scan(parser, &sources, Some(&loader));
    let read = sources.len() - errors.len();
    skipped.extend(errors);
    if let Ok(mut survey) = survey.lock() {
        survey.files += read;
        survey.bytes += bytes;
        survey.add(judged);
        survey.skipped.extend(skipped);
    }
}

/// Scans the Go files under `paths` on `threads` threads, calling
/// `progress` as files are done.
///
/// # Errors
///
/// As [`discover`]. Files and directories that cannot be read are listed
/// in [`Survey::skipped`], and the rest is scanned.
pub fn scan_paths(
    paths: &[PathBuf],
    selection: &Selection,
    threads: usize,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Survey, ScanError> {
    let (files, skipped) = discover(paths, selection)?;
    let total = files.len();
    let mut packages: BTreeMap<PathBuf, Vec<PathBuf>> = BTreeMap::new();
    for file in files {
        let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
        packages.entry(dir).or_default().push(file);
    }
    let packages: Vec<Vec<PathBuf>> = packages.into_values().collect();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let modules = Modules::default();
    let survey = Mutex::new(Survey {
        skipped,
        roots: paths.iter().map(|p| slashed(p)).collect(),
        ..Survey::default()
    });
    let work = || {
        let mut parser = go::parser();
        while let Some(package) = packages.get(next.fetch_add(1, Ordering::Relaxed)) {
            scan_dir(&mut parser, package, &modules, &survey);
            let now = done.fetch_add(package.len(), Ordering::Relaxed) + package.len();
            progress(Progress { done: now, total });
        }
    };
    let threads = threads.clamp(1, 64);
    std::thread::scope(|scope| {
        let mut handles = Vec::new();
        for _ in 0..threads {
            let spawned = std::thread::Builder::new()
                .stack_size(THREAD_STACK)
                .spawn_scoped(scope, work);
            match spawned {
                Ok(handle) => handles.push(handle),
                // No thread to be had: this one does the work.
                Err(_) => work(),
            }
        }
        for handle in handles {
            // A panicking worker is a bug; its packages are then missing
            // from the survey, and the others still finish.
            let _ = handle.join();
        }
    });
    let mut survey = survey.into_inner().unwrap_or_else(|e| e.into_inner());
    survey.finish();
    survey.skipped.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(survey)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tests_vendor_and_excluded_files_are_left_out() {
        let dir = std::env::temp_dir().join(format!("patchlab-walk-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for f in [
            "a/x.go",
            "a/x_test.go",
            "vendor/v/y.go",
            "a/testdata/t.go",
            "a/zz_generated.go",
            ".git/h.go",
            "a/notes.txt",
        ] {
            let p = dir.join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, "package a\n").unwrap();
        }
        let names = |sel: &Selection| -> Vec<String> {
            discover(std::slice::from_ref(&dir), sel)
                .unwrap()
                .0
                .iter()
                .map(|p| slashed(p.strip_prefix(&dir).unwrap()))
                .collect()
        };
        assert_eq!(
            names(&Selection::default()),
            ["a/x.go", "a/zz_generated.go"]
        );
        let all = Selection {
            include_tests: true,
            include_vendor: true,
            exclude: vec!["**/zz_generated*.go".into()],
        };
        assert_eq!(names(&all), ["a/x.go", "a/x_test.go", "vendor/v/y.go"]);
        let missing = discover(&[dir.join("nope")], &Selection::default()).unwrap_err();
        assert_eq!(missing.kind, ScanErrorKind::NotFound);
        let bad = Selection {
            exclude: vec!["a[".into()],
            ..Selection::default()
        };
        assert!(matches!(
            discover(std::slice::from_ref(&dir), &bad).unwrap_err().kind,
            ScanErrorKind::BadGlob(_)
        ));
        let report = scan_paths(
            std::slice::from_ref(&dir),
            &Selection::default(),
            2,
            &|_| {},
        )
        .unwrap();
        assert_eq!(report.files, 2);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
