//! A fake kube-apiserver for tests that run the real kubectl: a plain
//! HTTP/1.1 server on 127.0.0.1 (std only: a listener thread, a thread per
//! connection) that serves the discovery kubectl 1.32 reads before
//! `patch`, `apply`, `replace`, `create`, `label`, `annotate` and `delete`
//! of built-in kinds (core `v1`, `apps/v1`, `batch/v1`) and of
//! `kubevirt.io/v1` (virtualmachineinstances, virtualmachines), answers
//! GETs of objects with a plausible object, and records every write
//! (method, path, query, Content-Type, body bytes), answering it 200 (201
//! for a create) with a plausible object.
//!
//! Use it from a test file with `#[path = "support/apiserver.rs"] mod
//! apiserver;`. Each test starts its own server (its own port, kubeconfig
//! and `HOME`, so kubectl's discovery cache is its own too); a kubectl that
//! runs longer than [`TIMEOUT`] is killed. [`ApiServer::start`] answers
//! `None`, with a NOTICE on stderr, where no kubectl is installed.
//!
//! Objects: a GET of a name that starts with `absent` answers 404 (so
//! `kubectl apply -f` creates it with a POST); any other name answers an
//! object of the kind with that name, `resourceVersion: "1"` and the label
//! `app: <name>`. `/openapi/v3` says that every PATCH endpoint takes the
//! `fieldValidation` query parameter, so kubectl leaves validation to the
//! server (which accepts everything) and sends `fieldValidation=Strict`;
//! `/openapi/v2` answers 404, so kubectl computes `apply` patches from its
//! built-in types.
#![allow(dead_code)]

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// How long one kubectl (or one `bash` script) may run before it is
/// killed, with every process it started ([`ApiServer::set_timeout`]
/// changes it).
pub const TIMEOUT: Duration = Duration::from_secs(60);

/// The version `/version` answers (the dispatcher in front of some
/// kubectl installs picks the client by it).
const VERSION: (&str, &str) = ("1", "32");

/// A request that changes something, as the server received it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recorded {
    /// `PATCH`, `PUT`, `POST` or `DELETE`.
    pub method: String,
    /// The path, without the query (`/api/v1/namespaces/default/configmaps/x`).
    pub path: String,
    /// The query string, without `?` (`fieldManager=kubectl-patch`), as sent.
    pub query: String,
    /// The Content-Type header (empty when absent).
    pub content_type: String,
    /// The body, byte for byte.
    pub body: Vec<u8>,
}

/// One kubectl (or bash) run: its exit status (-1 when killed or
/// signalled), its output, and the writes the server recorded meanwhile.
#[derive(Clone, Debug)]
pub struct Run {
    /// The exit code; -1 when killed (see `timed_out`) or signalled.
    pub status: i32,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
    /// The writes, in the order they arrived.
    pub writes: Vec<Recorded>,
    /// True when the run was killed after [`TIMEOUT`].
    pub timed_out: bool,
}

/// A resource the server serves: its group/version, plural, kind, short
/// names and whether it lives in a namespace.
struct Resource {
    group_version: &'static str,
    plural: &'static str,
    singular: &'static str,
    kind: &'static str,
    short: &'static [&'static str],
    namespaced: bool,
}

#[rustfmt::skip]
const RESOURCES: &[Resource] = &[
    Resource { group_version: "v1", plural: "configmaps", singular: "configmap", kind: "ConfigMap", short: &["cm"], namespaced: true },
    Resource { group_version: "v1", plural: "secrets", singular: "secret", kind: "Secret", short: &[], namespaced: true },
    Resource { group_version: "v1", plural: "pods", singular: "pod", kind: "Pod", short: &["po"], namespaced: true },
    Resource { group_version: "v1", plural: "services", singular: "service", kind: "Service", short: &["svc"], namespaced: true },
    Resource { group_version: "v1", plural: "serviceaccounts", singular: "serviceaccount", kind: "ServiceAccount", short: &["sa"], namespaced: true },
    Resource { group_version: "v1", plural: "persistentvolumeclaims", singular: "persistentvolumeclaim", kind: "PersistentVolumeClaim", short: &["pvc"], namespaced: true },
    Resource { group_version: "v1", plural: "namespaces", singular: "namespace", kind: "Namespace", short: &["ns"], namespaced: false },
    Resource { group_version: "v1", plural: "nodes", singular: "node", kind: "Node", short: &["no"], namespaced: false },
    Resource { group_version: "apps/v1", plural: "deployments", singular: "deployment", kind: "Deployment", short: &["deploy"], namespaced: true },
    Resource { group_version: "apps/v1", plural: "statefulsets", singular: "statefulset", kind: "StatefulSet", short: &["sts"], namespaced: true },
    Resource { group_version: "apps/v1", plural: "daemonsets", singular: "daemonset", kind: "DaemonSet", short: &["ds"], namespaced: true },
    Resource { group_version: "apps/v1", plural: "replicasets", singular: "replicaset", kind: "ReplicaSet", short: &["rs"], namespaced: true },
    Resource { group_version: "batch/v1", plural: "jobs", singular: "job", kind: "Job", short: &[], namespaced: true },
    Resource { group_version: "batch/v1", plural: "cronjobs", singular: "cronjob", kind: "CronJob", short: &["cj"], namespaced: true },
    Resource { group_version: "kubevirt.io/v1", plural: "virtualmachineinstances", singular: "virtualmachineinstance", kind: "VirtualMachineInstance", short: &["vmi", "vmis"], namespaced: true },
    Resource { group_version: "kubevirt.io/v1", plural: "virtualmachines", singular: "virtualmachine", kind: "VirtualMachine", short: &["vm", "vms"], namespaced: true },
];

/// The group/versions served, in discovery order.
const GROUP_VERSIONS: [&str; 4] = ["v1", "apps/v1", "batch/v1", "kubevirt.io/v1"];

/// The state the connection threads share.
struct Shared {
    writes: Mutex<Vec<Recorded>>,
    stop: AtomicBool,
    port: u16,
}

/// A fake kube-apiserver and a kubeconfig that names it.
pub struct ApiServer {
    shared: Arc<Shared>,
    kubectl: PathBuf,
    dir: PathBuf,
    kubeconfig: PathBuf,
    listener: Option<JoinHandle<()>>,
    timeout: Duration,
}

/// The kubectl to run: `PATCHLAB_KUBECTL`, `/usr/bin/kubectl`, or the
/// first on `PATH`.
fn find_kubectl() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("PATCHLAB_KUBECTL") {
        return Some(PathBuf::from(path)).filter(|p| p.exists());
    }
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

/// A directory of its own under the system's temporary directory.
fn fresh_dir() -> PathBuf {
    static COUNT: AtomicUsize = AtomicUsize::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let name = format!(
        "patchlab-apiserver-{}-{}-{nanos}",
        std::process::id(),
        COUNT.fetch_add(1, Ordering::Relaxed)
    );
    let dir = std::env::temp_dir().join(name);
    std::fs::create_dir_all(dir.join("bin")).expect("a temporary directory");
    dir
}

impl ApiServer {
    /// Starts a server on a free port of 127.0.0.1; `None`, with a NOTICE
    /// on stderr, when no kubectl is installed.
    pub fn start() -> Option<ApiServer> {
        let Some(kubectl) = find_kubectl() else {
            let test = thread::current().name().unwrap_or("this test").to_owned();
            eprintln!(
                "\n*** NOTICE: no kubectl at /usr/bin/kubectl, $PATCHLAB_KUBECTL or on PATH: {test} is SKIPPED (install kubectl 1.32 to run the tests against the fake API server) ***\n"
            );
            return None;
        };
        let listener = TcpListener::bind("127.0.0.1:0").expect("a free port on 127.0.0.1");
        let port = listener.local_addr().expect("a bound address").port();
        let shared = Arc::new(Shared {
            writes: Mutex::new(Vec::new()),
            stop: AtomicBool::new(false),
            port,
        });
        let dir = fresh_dir();
        let kubeconfig = dir.join("kubeconfig");
        std::fs::write(&kubeconfig, kubeconfig_text(port)).expect("the kubeconfig is written");
        #[cfg(unix)]
        let _ = std::os::unix::fs::symlink(&kubectl, dir.join("bin").join("kubectl"));
        let accept = Arc::clone(&shared);
        let handle = thread::Builder::new()
            .name(format!("apiserver-{port}"))
            .spawn(move || serve(listener, accept))
            .expect("the server thread starts");
        Some(ApiServer {
            shared,
            kubectl,
            dir,
            kubeconfig,
            listener: Some(handle),
            timeout: TIMEOUT,
        })
    }

    /// How long each later run may take before it is killed.
    pub fn set_timeout(&mut self, timeout: Duration) {
        self.timeout = timeout;
    }

    /// The kubeconfig file that names this server (no credentials: the
    /// server asks for none).
    pub fn kubeconfig(&self) -> &Path {
        &self.kubeconfig
    }

    /// The server's base URL (`http://127.0.0.1:PORT`).
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.shared.port)
    }

    /// The kubectl binary the server runs.
    pub fn kubectl_path(&self) -> &Path {
        &self.kubectl
    }

    /// A scratch directory of this server's own (removed with it).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Runs kubectl with `--kubeconfig` naming this server (and `args`),
    /// `stdin` on its standard input, and answers what it printed and the
    /// writes the server recorded while it ran.
    pub fn kubectl(&self, args: &[&str], stdin: Option<&[u8]>) -> Run {
        let mut command = Command::new(&self.kubectl);
        command.arg("--kubeconfig").arg(&self.kubeconfig).args(args);
        self.run(command, stdin)
    }

    /// Runs `bash -c script` with `KUBECONFIG` naming this server and the
    /// kubectl on `PATH` first.
    pub fn bash(&self, script: &str) -> Run {
        let path = std::env::var_os("PATH").unwrap_or_default();
        let mut paths = vec![self.dir.join("bin")];
        paths.extend(std::env::split_paths(&path));
        let mut command = Command::new("bash");
        command
            .arg("-c")
            .arg(script)
            .env("KUBECONFIG", &self.kubeconfig)
            .env("PATH", std::env::join_paths(paths).unwrap_or(path));
        self.run(command, None)
    }

    fn run(&self, mut command: Command, stdin: Option<&[u8]>) -> Run {
        self.take_writes();
        command
            .current_dir(&self.dir)
            .env("HOME", &self.dir)
            .env_remove("KUBECONFIG_OVERRIDE")
            .stdin(if stdin.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if !command
            .get_envs()
            .any(|(k, _)| k == std::ffi::OsStr::new("KUBECONFIG"))
        {
            command.env_remove("KUBECONFIG");
        }
        let (status, stdout, stderr, timed_out) = run_bounded(command, stdin, self.timeout);
        Run {
            status,
            stdout,
            stderr,
            writes: self.take_writes(),
            timed_out,
        }
    }

    /// The writes recorded since the last run (or the last call).
    pub fn take_writes(&self) -> Vec<Recorded> {
        std::mem::take(&mut *self.shared.writes.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

impl Drop for ApiServer {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop so it sees the flag.
        let _ = TcpStream::connect(("127.0.0.1", self.shared.port));
        if let Some(handle) = self.listener.take() {
            let _ = handle.join();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn kubeconfig_text(port: u16) -> String {
    format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: fake\n  cluster:\n    server: http://127.0.0.1:{port}\ncontexts:\n- name: fake\n  context:\n    cluster: fake\n    user: fake\n    namespace: default\ncurrent-context: fake\nusers:\n- name: fake\n  user: {{}}\n"
    )
}

/// Runs `command` to its end or until `timeout`, then kills it and every
/// process it started (its own process group). Its output is read on
/// threads of their own, so a full pipe cannot block it.
fn run_bounded(
    mut command: Command,
    stdin: Option<&[u8]>,
    timeout: Duration,
) -> (i32, String, String, bool) {
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let mut child = match command.spawn() {
        Ok(child) => child,
        // An argument with a NUL byte, a missing program: no run at all.
        Err(e) => return (-1, String::new(), format!("cannot start: {e}"), false),
    };
    if let (Some(bytes), Some(mut pipe)) = (stdin, child.stdin.take()) {
        let bytes = bytes.to_vec();
        thread::spawn(move || {
            let _ = pipe.write_all(&bytes);
        });
    }
    let mut out = child.stdout.take().expect("a stdout pipe");
    let mut err = child.stderr.take().expect("a stderr pipe");
    let out = thread::spawn(move || {
        let mut text = Vec::new();
        let _ = out.read_to_end(&mut text);
        text
    });
    let err = thread::spawn(move || {
        let mut text = Vec::new();
        let _ = err.read_to_end(&mut text);
        text
    });
    let start = Instant::now();
    let mut timed_out = false;
    let status = loop {
        if let Ok(Some(status)) = child.try_wait() {
            break status.code().unwrap_or(-1);
        }
        if start.elapsed() > timeout {
            timed_out = true;
            kill_group(child.id());
            let _ = child.kill();
            let _ = child.wait();
            break -1;
        }
        thread::sleep(Duration::from_millis(5));
    };
    let text = |bytes: Vec<u8>| String::from_utf8_lossy(&bytes).into_owned();
    let stdout = text(out.join().unwrap_or_default());
    let stderr = text(err.join().unwrap_or_default());
    (status, stdout, stderr, timed_out)
}

/// Kills the process group `id` leads (the child and what it started).
fn kill_group(id: u32) {
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{id}")])
        .stderr(Stdio::null())
        .status();
}

/// Accepts connections until the server is dropped, each on its own thread.
fn serve(listener: TcpListener, shared: Arc<Shared>) {
    let mut workers = Vec::new();
    for stream in listener.incoming() {
        if shared.stop.load(Ordering::SeqCst) {
            break;
        }
        let Ok(stream) = stream else { continue };
        let shared = Arc::clone(&shared);
        workers.push(thread::spawn(move || connection(stream, &shared)));
    }
    for worker in workers {
        let _ = worker.join();
    }
}

/// One request as read off the wire.
struct Request {
    method: String,
    path: String,
    query: String,
    headers: HashMap<String, String>,
    body: Vec<u8>,
}

/// Serves the requests of one (keep-alive) connection.
fn connection(stream: TcpStream, shared: &Shared) {
    let _ = stream.set_read_timeout(Some(Duration::from_millis(200)));
    let Ok(mut writer) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(stream);
    while let Some(request) = read_request(&mut reader, shared) {
        let close = request
            .headers
            .get("connection")
            .is_some_and(|v| v.eq_ignore_ascii_case("close"));
        let (status, body) = respond(&request, shared);
        let head = format!(
            "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        if writer.write_all(head.as_bytes()).is_err() || writer.write_all(body.as_bytes()).is_err()
        {
            break;
        }
        if close {
            break;
        }
    }
    let _ = writer.shutdown(Shutdown::Both);
}

/// Reads a line, waiting out read timeouts until the server stops.
fn read_line(reader: &mut BufReader<TcpStream>, shared: &Shared, line: &mut Vec<u8>) -> bool {
    loop {
        match reader.read_until(b'\n', line) {
            Ok(0) => return false,
            Ok(_) if line.ends_with(b"\n") => return true,
            Ok(_) => continue,
            Err(e) if is_timeout(&e) && !shared.stop.load(Ordering::SeqCst) => continue,
            Err(_) => return false,
        }
    }
}

fn is_timeout(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
    )
}

/// Reads exactly `n` bytes, waiting out read timeouts.
fn read_exact(reader: &mut BufReader<TcpStream>, shared: &Shared, n: usize) -> Option<Vec<u8>> {
    let mut body = vec![0; n];
    let mut filled = 0;
    while filled < n {
        match reader.read(&mut body[filled..]) {
            Ok(0) => return None,
            Ok(k) => filled += k,
            Err(e) if is_timeout(&e) && !shared.stop.load(Ordering::SeqCst) => continue,
            Err(_) => return None,
        }
    }
    Some(body)
}

fn read_request(reader: &mut BufReader<TcpStream>, shared: &Shared) -> Option<Request> {
    let mut line = Vec::new();
    if !read_line(reader, shared, &mut line) {
        return None;
    }
    let line = String::from_utf8_lossy(&line).trim_end().to_owned();
    let mut parts = line.split(' ');
    let method = parts.next()?.to_owned();
    let target = parts.next()?.to_owned();
    let mut headers = HashMap::new();
    loop {
        let mut header = Vec::new();
        if !read_line(reader, shared, &mut header) {
            return None;
        }
        let header = String::from_utf8_lossy(&header).trim_end().to_owned();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            headers.insert(name.trim().to_ascii_lowercase(), value.trim().to_owned());
        }
    }
    let body = read_body(reader, shared, &headers)?;
    let (path, query) = match target.split_once('?') {
        Some((path, query)) => (path.to_owned(), query.to_owned()),
        None => (target, String::new()),
    };
    Some(Request {
        method,
        path,
        query,
        headers,
        body,
    })
}

/// The body: `Content-Length` bytes, or a chunked body joined.
fn read_body(
    reader: &mut BufReader<TcpStream>,
    shared: &Shared,
    headers: &HashMap<String, String>,
) -> Option<Vec<u8>> {
    let chunked = headers
        .get("transfer-encoding")
        .is_some_and(|v| v.eq_ignore_ascii_case("chunked"));
    if !chunked {
        let length = headers
            .get("content-length")
            .and_then(|v| v.parse::<usize>().ok())
            .unwrap_or(0);
        return read_exact(reader, shared, length);
    }
    let mut body = Vec::new();
    loop {
        let mut size = Vec::new();
        if !read_line(reader, shared, &mut size) {
            return None;
        }
        let size = String::from_utf8_lossy(&size);
        let size = usize::from_str_radix(size.trim().split(';').next()?, 16).ok()?;
        let chunk = read_exact(reader, shared, size + 2)?;
        if size == 0 {
            // The terminating chunk; no trailers are sent by kubectl.
            return Some(body);
        }
        body.extend_from_slice(&chunk[..size]);
    }
}

/// The answer to one request: a status line's code and reason, and JSON.
fn respond(request: &Request, shared: &Shared) -> (&'static str, String) {
    let method = request.method.as_str();
    if method != "GET" {
        let mut writes = shared.writes.lock().unwrap_or_else(|e| e.into_inner());
        writes.push(Recorded {
            method: request.method.clone(),
            path: request.path.clone(),
            query: request.query.clone(),
            content_type: request
                .headers
                .get("content-type")
                .cloned()
                .unwrap_or_default(),
            body: request.body.clone(),
        });
    }
    if method == "GET" {
        if let Some(body) = discovery(&request.path, shared.port) {
            return ("200 OK", body);
        }
    }
    let Some(target) = Target::parse(&request.path) else {
        return not_found(&request.path);
    };
    match (method, target.name.as_deref()) {
        ("GET", Some(name)) if name.starts_with("absent") => not_found(&request.path),
        ("GET", Some(_)) => ("200 OK", object(&target, None, "1")),
        ("GET", None) => ("200 OK", list(&target)),
        ("POST", None) => ("201 Created", object(&target, Some(&request.body), "2")),
        ("PUT" | "PATCH", Some(_)) => ("200 OK", object(&target, Some(&request.body), "2")),
        ("DELETE", Some(_)) => ("200 OK", status_success()),
        _ => not_found(&request.path),
    }
}

fn not_found(path: &str) -> (&'static str, String) {
    let message = format!("the server could not find the requested resource ({path})");
    let body = serde_json::json!({
        "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
        "message": message, "reason": "NotFound", "code": 404
    });
    ("404 Not Found", body.to_string())
}

fn status_success() -> String {
    serde_json::json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success"})
        .to_string()
}

/// The discovery documents: `/version`, `/api`, `/apis` and each
/// group/version's resource list.
fn discovery(path: &str, port: u16) -> Option<String> {
    let path = path.trim_end_matches('/');
    let body = match path {
        "/version" => serde_json::json!({
            "major": VERSION.0, "minor": VERSION.1,
            "gitVersion": format!("v{}.{}.4", VERSION.0, VERSION.1),
            "gitCommit": "0000000000000000000000000000000000000000", "gitTreeState": "clean",
            "buildDate": "2025-01-01T00:00:00Z", "goVersion": "go1.23.6",
            "compiler": "gc", "platform": "linux/amd64"
        }),
        "/api" => serde_json::json!({
            "kind": "APIVersions", "versions": ["v1"],
            "serverAddressByClientCIDRs": [
                {"clientCIDR": "0.0.0.0/0", "serverAddress": format!("127.0.0.1:{port}")}
            ]
        }),
        "/apis" => group_list(),
        "/openapi/v3" => openapi_root(),
        _ if path.starts_with("/openapi/v3/") => openapi_group_version(&path[12..])?,
        _ => {
            let gv = path
                .strip_prefix("/api/")
                .or_else(|| path.strip_prefix("/apis/"))?;
            if !GROUP_VERSIONS.contains(&gv) {
                return None;
            }
            resource_list(gv)
        }
    };
    Some(body.to_string())
}

fn group_list() -> serde_json::Value {
    let groups: Vec<serde_json::Value> = GROUP_VERSIONS
        .iter()
        .filter_map(|gv| gv.split_once('/'))
        .map(|(group, version)| {
            let gv = serde_json::json!({"groupVersion": format!("{group}/{version}"), "version": version});
            serde_json::json!({"name": group, "versions": [gv.clone()], "preferredVersion": gv})
        })
        .collect();
    serde_json::json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": groups})
}

fn resource_list(gv: &str) -> serde_json::Value {
    let verbs = [
        "create",
        "delete",
        "deletecollection",
        "get",
        "list",
        "patch",
        "update",
        "watch",
    ];
    let resources: Vec<serde_json::Value> = RESOURCES
        .iter()
        .filter(|r| r.group_version == gv)
        .map(|r| {
            serde_json::json!({
                "name": r.plural, "singularName": r.singular, "namespaced": r.namespaced,
                "kind": r.kind, "verbs": verbs, "shortNames": r.short
            })
        })
        .collect();
    serde_json::json!({
        "kind": "APIResourceList", "apiVersion": "v1", "groupVersion": gv, "resources": resources
    })
}

/// `/openapi/v3`: where each group/version's document is.
fn openapi_root() -> serde_json::Value {
    let paths: serde_json::Map<String, serde_json::Value> = GROUP_VERSIONS
        .iter()
        .map(|gv| {
            let prefix = if gv.contains('/') { "apis" } else { "api" };
            let url = format!("/openapi/v3/{prefix}/{gv}?hash=0");
            (
                format!("{prefix}/{gv}"),
                serde_json::json!({ "serverRelativeURL": url }),
            )
        })
        .collect();
    serde_json::json!({ "paths": paths })
}

/// `/openapi/v3/api/v1` and the others: each object path's PATCH with its
/// kind and the `fieldValidation` query parameter, and nothing else.
fn openapi_group_version(path: &str) -> Option<serde_json::Value> {
    let gv = path
        .strip_prefix("api/")
        .or_else(|| path.strip_prefix("apis/"))?;
    let gv = *GROUP_VERSIONS.iter().find(|g| **g == gv)?;
    let (group, version) = gv.split_once('/').unwrap_or(("", gv));
    let prefix = if group.is_empty() { "/api" } else { "/apis" };
    let paths: serde_json::Map<String, serde_json::Value> = RESOURCES
        .iter()
        .filter(|r| r.group_version == gv)
        .map(|r| {
            let scope = if r.namespaced { "namespaces/{namespace}/" } else { "" };
            let path = format!("{prefix}/{gv}/{scope}{}/{{name}}", r.plural);
            let patch = serde_json::json!({
                "x-kubernetes-group-version-kind": {"group": group, "version": version, "kind": r.kind},
                "parameters": [{"name": "fieldValidation", "in": "query", "schema": {"type": "string"}}],
                "responses": {"200": {"description": "OK"}}
            });
            (path, serde_json::json!({ "patch": patch }))
        })
        .collect();
    let info = serde_json::json!({"title": "Kubernetes", "version": "v1.32.4"});
    Some(serde_json::json!({"openapi": "3.0.0", "info": info, "paths": paths}))
}

/// The object (or collection) a request path names.
struct Target {
    resource: &'static Resource,
    namespace: Option<String>,
    name: Option<String>,
}

impl Target {
    /// `/api/v1/namespaces/NS/PLURAL/NAME`, `/apis/G/V/PLURAL/NAME`, with
    /// or without the namespace, name, or a subresource after the name.
    fn parse(path: &str) -> Option<Target> {
        let rest = path
            .strip_prefix("/api/v1/")
            .map(|r| ("v1", r))
            .or_else(|| {
                let rest = path.strip_prefix("/apis/")?;
                let mut parts = rest.splitn(3, '/');
                let (group, version) = (parts.next()?, parts.next()?);
                let gv = GROUP_VERSIONS
                    .iter()
                    .find(|gv| **gv == format!("{group}/{version}"))?;
                Some((*gv, parts.next().unwrap_or("")))
            });
        let (gv, rest) = rest?;
        let mut parts: Vec<&str> = rest.split('/').filter(|p| !p.is_empty()).collect();
        let mut namespace = None;
        if parts.len() >= 3 && parts[0] == "namespaces" {
            namespace = Some(parts[1].to_owned());
            parts.drain(..2);
        }
        let plural = *parts.first()?;
        let resource = RESOURCES
            .iter()
            .find(|r| r.group_version == gv && r.plural == plural)?;
        Some(Target {
            resource,
            namespace,
            name: parts.get(1).map(|n| (*n).to_owned()),
        })
    }
}

/// A plausible object: the request body's (when it is a JSON object) or
/// a minimal one of the kind, with the name, namespace, uid and `rv`.
fn object(target: &Target, body: Option<&[u8]>, rv: &str) -> String {
    let r = target.resource;
    let mut value = body
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(b).ok())
        .filter(|v| v.get("kind").is_some() && v.get("metadata").is_some_and(|m| m.is_object()))
        .unwrap_or_else(|| serde_json::json!({"metadata": {}}));
    let name = target.name.clone().unwrap_or_else(|| {
        value["metadata"]["name"]
            .as_str()
            .unwrap_or("created")
            .to_owned()
    });
    value["apiVersion"] = r.group_version.into();
    value["kind"] = r.kind.into();
    let meta = &mut value["metadata"];
    meta["name"] = name.clone().into();
    if let Some(namespace) = &target.namespace {
        meta["namespace"] = namespace.clone().into();
    }
    meta["uid"] = "00000000-0000-0000-0000-000000000001".into();
    meta["resourceVersion"] = rv.into();
    meta["creationTimestamp"] = "2025-01-01T00:00:00Z".into();
    if meta.get("labels").is_none() {
        meta["labels"] = serde_json::json!({ "app": name });
    }
    value.to_string()
}

fn list(target: &Target) -> String {
    let r = target.resource;
    serde_json::json!({
        "apiVersion": r.group_version, "kind": format!("{}List", r.kind),
        "metadata": {"resourceVersion": "1"}, "items": []
    })
    .to_string()
}
