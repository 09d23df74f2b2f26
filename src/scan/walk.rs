//! Which files to scan, and scanning them on several threads (one Go
//! package, a directory, per task).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use globset::{Glob, GlobSet, GlobSetBuilder};

use super::{go, scan_package, ScanError, ScanErrorKind, Survey, MAX_FILE_BYTES};

/// Deepest directory nesting followed.
const MAX_DIR_DEPTH: usize = 64;
/// Stack of each scanning thread (the interpreter recurses over nested
/// expressions, up to its depth budget).
const THREAD_STACK: usize = 32 * 1024 * 1024;

/// Which files of the given paths are scanned.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    /// Also `_test.go` files (skipped by default).
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

/// The Go files under `paths`, sorted: directories are walked (no
/// symbolic links followed; hidden directories and `testdata` skipped, as
/// the Go tool does), files named directly are taken as they are.
///
/// # Errors
///
/// [`ScanErrorKind::NotFound`] or [`ScanErrorKind::Io`] for a path given
/// that cannot be read, [`ScanErrorKind::BadGlob`] for a bad pattern.
pub fn discover(paths: &[PathBuf], selection: &Selection) -> Result<Vec<PathBuf>, ScanError> {
    let exclude = globs(&selection.exclude)?;
    let mut out = Vec::new();
    for root in paths {
        let meta = std::fs::metadata(root).map_err(|e| {
            let kind = if e.kind() == std::io::ErrorKind::NotFound {
                ScanErrorKind::NotFound
            } else {
                ScanErrorKind::Io(e.to_string())
            };
            ScanError::new(slashed(root), kind)
        })?;
        if meta.is_file() {
            out.push(root.clone());
            continue;
        }
        let mut stack = vec![(root.clone(), 0usize)];
        while let Some((dir, depth)) = stack.pop() {
            let entries = std::fs::read_dir(&dir)
                .map_err(|e| ScanError::new(slashed(&dir), ScanErrorKind::Io(e.to_string())))?;
            for entry in entries.flatten() {
                let path = entry.path();
                let Ok(kind) = entry.file_type() else {
                    continue;
                };
                let name = entry.file_name();
                let name = name.to_string_lossy();
                let relative = path.strip_prefix(root).unwrap_or(&path);
                if exclude.is_match(relative) || exclude.is_match(&path) {
                    continue;
                }
                if kind.is_dir() {
                    let skip = name.starts_with('.')
                        || name.starts_with('_')
                        || name == "testdata"
                        || (name == "vendor" && !selection.include_vendor)
                        || depth >= MAX_DIR_DEPTH;
                    if !skip {
                        stack.push((path, depth + 1));
                    }
                } else if kind.is_file()
                    && name.ends_with(".go")
                    && (selection.include_tests || !name.ends_with("_test.go"))
                {
                    out.push(path);
                }
            }
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// Reads a file within the budget, as UTF-8.
fn read(path: &Path) -> Result<String, ScanError> {
    let name = slashed(path);
    let meta = std::fs::metadata(path)
        .map_err(|e| ScanError::new(&name, ScanErrorKind::Io(e.to_string())))?;
    if meta.len() > MAX_FILE_BYTES as u64 {
        return Err(ScanError::new(
            name,
            ScanErrorKind::TooLarge {
                bytes: meta.len(),
                limit: MAX_FILE_BYTES as u64,
            },
        ));
    }
    let bytes =
        std::fs::read(path).map_err(|e| ScanError::new(&name, ScanErrorKind::Io(e.to_string())))?;
    String::from_utf8(bytes).map_err(|e| {
        ScanError::new(
            name,
            ScanErrorKind::NotUtf8 {
                offset: e.utf8_error().valid_up_to(),
            },
        )
    })
}

/// Reads and scans the files of one package (a directory) into `survey`.
fn scan_dir(parser: &mut tree_sitter::Parser, package: &[PathBuf], survey: &Mutex<Survey>) {
    let mut sources = Vec::with_capacity(package.len());
    let mut skipped = Vec::new();
    for path in package {
        match read(path) {
            Ok(text) => sources.push((slashed(path), text)),
            Err(err) => skipped.push(err),
        }
    }
    let bytes: u64 = sources.iter().map(|(_, t)| t.len() as u64).sum();
    let (findings, payloads, errors) = scan_package(parser, &sources);
    let read = sources.len() - errors.len();
    skipped.extend(errors);
    if let Ok(mut survey) = survey.lock() {
        survey.files += read;
        survey.bytes += bytes;
        survey.findings.extend(findings);
        survey.payloads.extend(payloads);
        survey.skipped.extend(skipped);
    }
}

/// Scans the Go files under `paths` on `threads` threads, calling
/// `progress` as files are done.
///
/// # Errors
///
/// As [`discover`]. Files that cannot be read are listed in
/// [`Survey::skipped`].
pub fn scan_paths(
    paths: &[PathBuf],
    selection: &Selection,
    threads: usize,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Survey, ScanError> {
    let files = discover(paths, selection)?;
    let total = files.len();
    let mut packages: BTreeMap<PathBuf, Vec<PathBuf>> = BTreeMap::new();
    for file in files {
        let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
        packages.entry(dir).or_default().push(file);
    }
    let packages: Vec<Vec<PathBuf>> = packages.into_values().collect();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let survey = Mutex::new(Survey::default());
    let work = || {
        let mut parser = go::parser();
        while let Some(package) = packages.get(next.fetch_add(1, Ordering::Relaxed)) {
            scan_dir(&mut parser, package, &survey);
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
    survey.sort();
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
