//! The real kubectl as the oracle of `explain::render::kubectl`: a small
//! HTTP server on 127.0.0.1 answers a `kubectl patch` with each answer of
//! [`patchlab::status::answers`] (as the server writes it: a Status JSON,
//! or the panic filter's plain text), and what kubectl prints must be what
//! patchlab renders, and be explained back to the answer's classes. Skips
//! loudly (a NOTICE) where kubectl is absent.
#![cfg(not(target_arch = "wasm32"))]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::thread;

use patchlab::explain::{self, render, Request};
use patchlab::status::{self, Reason, Resource, Status, PANIC_TEXT};

const KUBECTL: &str = "/usr/bin/kubectl";

/// What the PATCH gets: a code, a content type and a body.
type Reply = (u16, &'static str, String);

fn respond(stream: &mut TcpStream, code: u16, content_type: &str, body: &str) {
    let _ = write!(
        stream,
        "HTTP/1.1 {code} X\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
}

fn serve(stream: &mut TcpStream, reply: &Reply) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut line = String::new();
    if reader.read_line(&mut line).is_err() {
        return;
    }
    let mut length = 0usize;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).is_err() || header.trim().is_empty() {
            break;
        }
        if let Some(v) = header.to_ascii_lowercase().strip_prefix("content-length:") {
            length = v.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0; length];
    let _ = reader.read_exact(&mut body);
    let mut parts = line.split_whitespace();
    let (method, path) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let path = path.split('?').next().unwrap_or("");
    match (method, path) {
        ("GET", "/api") => respond(
            stream,
            200,
            "application/json",
            r#"{"kind":"APIVersions","versions":["v1"],"serverAddressByClientCIDRs":[{"clientCIDR":"0.0.0.0/0","serverAddress":"127.0.0.1"}]}"#,
        ),
        ("GET", "/apis") => respond(
            stream,
            200,
            "application/json",
            r#"{"kind":"APIGroupList","apiVersion":"v1","groups":[]}"#,
        ),
        ("GET", "/api/v1") => respond(
            stream,
            200,
            "application/json",
            r#"{"kind":"APIResourceList","groupVersion":"v1","resources":[{"name":"pods","singularName":"pod","namespaced":true,"kind":"Pod","verbs":["get","patch","update"]}]}"#,
        ),
        ("GET", "/api/v1/namespaces/default/pods/testvmi") => respond(
            stream,
            200,
            "application/json",
            r#"{"apiVersion":"v1","kind":"Pod","metadata":{"name":"testvmi","namespace":"default","resourceVersion":"1","uid":"4b1c6f2e-0000-4000-8000-000000000001"}}"#,
        ),
        ("PATCH", _) => respond(stream, reply.0, reply.1, &reply.2),
        _ => respond(
            stream,
            404,
            "application/json",
            &format!(
                r#"{{"kind":"Status","apiVersion":"v1","metadata":{{}},"status":"Failure","message":"not served: {method} {path}","reason":"NotFound","code":404}}"#
            ),
        ),
    }
}

/// The server's bytes for an answer: a Status JSON, or for a panic the
/// filter's plain text (client-go builds the Status kubectl shows).
fn reply_of(status: &Status) -> Reply {
    if status.reason == Reason::InternalError {
        return (500, "text/plain; charset=utf-8", format!("{PANIC_TEXT}\n"));
    }
    (
        status.code,
        "application/json",
        render::status_json(status).to_string(),
    )
}

#[test]
fn kubectl_prints_what_patchlab_renders_and_explain_reads_it_back() {
    if !std::path::Path::new(KUBECTL).exists() {
        println!("NOTICE: {KUBECTL} not found: the kubectl rendering oracle is SKIPPED");
        return;
    }
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let reply: Arc<Mutex<Reply>> = Arc::new(Mutex::new((200, "application/json", "{}".into())));
    let shared = Arc::clone(&reply);
    thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { break };
            let current = shared.lock().unwrap().clone();
            serve(&mut stream, &current);
        }
    });
    let cache = std::env::temp_dir().join(format!("patchlab-kubectl-cache-{}", std::process::id()));
    let pods = Resource {
        plural: "pods".into(),
        group: String::new(),
    };
    // The answers as a pod's PATCH would get them (the resource and name
    // kubectl addresses).
    let answers: Vec<(Status, Vec<&str>)> = status::answers()
        .into_iter()
        .map(|a| {
            let status = match a.constructor {
                "panicked" => Status::panicked(Some(("PATCH", &pods, "testvmi"))),
                _ => a.status.clone(),
            };
            (status, a.classes.iter().map(|c| c.id()).collect())
        })
        .collect();
    let mut checked = 0;
    for (status, classes) in &answers {
        *reply.lock().unwrap() = reply_of(status);
        let out = Command::new(KUBECTL)
            .env("KUBECONFIG", "/dev/null")
            .args([
                &format!("--server=http://127.0.0.1:{port}"),
                &format!("--cache-dir={}", cache.display()),
                "--request-timeout=10s",
                "patch",
                "pod",
                "testvmi",
                "-n",
                "default",
                "--type=json",
                "-p",
                r#"[{"op":"test","path":"/metadata/name","value":"testvmi"}]"#,
            ])
            .output()
            .unwrap();
        let printed = String::from_utf8_lossy(&out.stderr).trim_end().to_owned();
        assert_eq!(out.status.code(), Some(1), "{printed}");
        assert_eq!(
            printed,
            render::kubectl(status),
            "{} {}",
            status.code,
            status.message
        );
        let e = explain::explain(&Request::text(&printed)).unwrap();
        let got: Vec<&str> = e.candidates.iter().map(|c| c.class.id()).collect();
        for class in classes {
            assert!(got.contains(class), "{printed}: {got:?} lacks {class}");
        }
        checked += 1;
    }
    let _ = std::fs::remove_dir_all(&cache);
    println!(
        "{checked} answers: kubectl's own output equals patchlab's rendering and explains back"
    );
    assert_eq!(checked, answers.len());
}
