#!/usr/bin/env python3
"""Writes patchlab's schema tables (src/schema/data/*.txt) from the published
OpenAPI documents: per field of the kinds below its type, its strategic
merge patch strategy and merge key (x-kubernetes-patch-strategy,
x-kubernetes-patch-merge-key) and its list and map types
(x-kubernetes-list-type, x-kubernetes-list-map-keys, x-kubernetes-map-type).

Sources (the header of each table names the ones it came from):

- Kubernetes: the PyPI package kubernetes-validate, which ships every
  release's definitions with the OpenAPI extensions kept
  (kubernetes_validate/kubernetes-json-schema/v1.X.0-local/_definitions.json).
  The script downloads it with `pip download` unless --wheel is given.
- KubeVirt: api/openapi-spec/swagger.json of kubevirt/kubevirt at a commit
  (--kubevirt-swagger FILE --kubevirt-commit SHA).

Usage (re-run for a new release; the tables are committed):

    scripts/schemas.py --kubernetes 1.36 \\
        --kubevirt-swagger swagger.json --kubevirt-commit d923fdb8...

The format (read by src/schema/table.rs), one item per line:

    # comment (the header: sources and versions)
    @custom                      the kinds below are custom resources
    >Kind apiVersion plural singular short,names Root
    !apiVersion Kind Kind ...    built-in kinds whose schemas are not in the table
    =Type [m=atomic|granular]    a struct; its fields follow, one per line:
    name type [p=strategies] [k=mergeKey] [l=atomic|set|map:key,key] [m=...]

Types: s string, b bool, i32, i64, n number (float64), ios IntOrString,
q Quantity, t Time, mt MicroTime, x any JSON, [T] list of T, {T} map of T,
or the name of a struct. Descriptions, defaults and validation are dropped.
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile
import zipfile

# The built-in kinds tabled: (apiVersion, kind, plural, singular, short
# names). Short names are what each resource's REST storage declares
# (`ShortNames()` in kubernetes pkg/registry/<group>/<resource>/storage/
# storage.go), as `kubectl api-resources` lists them.
KUBERNETES_KINDS = [
    ("v1", "Pod", "pods", "pod", ["po"]),
    ("v1", "Node", "nodes", "node", ["no"]),
    ("v1", "Service", "services", "service", ["svc"]),
    ("v1", "ConfigMap", "configmaps", "configmap", ["cm"]),
    ("v1", "Secret", "secrets", "secret", []),
    ("v1", "Namespace", "namespaces", "namespace", ["ns"]),
    ("v1", "PersistentVolumeClaim", "persistentvolumeclaims", "persistentvolumeclaim", ["pvc"]),
    ("v1", "PersistentVolume", "persistentvolumes", "persistentvolume", ["pv"]),
    ("apps/v1", "Deployment", "deployments", "deployment", ["deploy"]),
    ("apps/v1", "StatefulSet", "statefulsets", "statefulset", ["sts"]),
    ("apps/v1", "DaemonSet", "daemonsets", "daemonset", ["ds"]),
    ("apps/v1", "ReplicaSet", "replicasets", "replicaset", ["rs"]),
    ("batch/v1", "Job", "jobs", "job", []),
    ("batch/v1", "CronJob", "cronjobs", "cronjob", ["cj"]),
]

# KubeVirt's custom resources tabled; short names from
# pkg/virt-operator/resource/generate/components/crds.go.
KUBEVIRT_KINDS = [
    ("kubevirt.io/v1", "VirtualMachineInstance", "virtualmachineinstances",
     "virtualmachineinstance", ["vmi", "vmis"]),
    ("kubevirt.io/v1", "VirtualMachine", "virtualmachines", "virtualmachine", ["vm", "vms"]),
    ("kubevirt.io/v1", "VirtualMachineInstanceMigration", "virtualmachineinstancemigrations",
     "virtualmachineinstancemigration", ["vmim", "vmims"]),
]

# Go types whose JSON form is a scalar (a struct in Go): their own codes.
SCALAR_TYPES = {
    "io.k8s.apimachinery.pkg.util.intstr.IntOrString": "ios",
    "io.k8s.apimachinery.pkg.api.resource.Quantity": "q",
    "io.k8s.apimachinery.pkg.apis.meta.v1.Time": "t",
    "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime": "mt",
    # KubeVirt's swagger spells the Kubernetes packages with k8s.io. prefixes.
    "k8s.io.apimachinery.pkg.util.intstr.IntOrString": "ios",
    "k8s.io.apimachinery.pkg.api.resource.Quantity": "q",
    "k8s.io.apimachinery.pkg.apis.meta.v1.Time": "t",
    "k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime": "mt",
}


def short(name):
    return name.rsplit(".", 1)[-1]


class Table:
    """Collects the struct types reachable from some roots."""

    def __init__(self, defs, ref_prefix, strategies):
        self.defs = defs
        self.ref_prefix = ref_prefix
        self.strategies = strategies
        self.names = {}  # full definition name -> short name in the table
        self.order = []  # full names, in the order first reached
        self.taken = {}  # short name -> full name

    def name_of(self, full):
        if full in self.names:
            return self.names[full]
        name = short(full)
        if name in self.taken and self.taken[name] != full:
            # Two packages define the same Go name: qualify the later one.
            parts = full.split(".")
            name = parts[-2] + "." + parts[-1]
            if name in self.taken:
                sys.exit(f"cannot name {full}: {name} is taken by {self.taken[name]}")
        self.taken[name] = full
        self.names[full] = name
        self.order.append(full)
        return name

    def ref(self, schema):
        ref = schema.get("$ref")
        if ref is None and "allOf" in schema and len(schema["allOf"]) == 1:
            ref = schema["allOf"][0].get("$ref")
        return ref[len(self.ref_prefix):] if ref else None

    def type_of(self, schema):
        full = self.ref(schema)
        if full is not None:
            if full in SCALAR_TYPES:
                return SCALAR_TYPES[full]
            target = self.defs[full]
            if "properties" in target or kind_of(target) == "object":
                if "properties" not in target and "additionalProperties" in target:
                    return "{" + self.type_of(target["additionalProperties"]) + "}"
                return self.name_of(full)
            return self.type_of(target)
        t = kind_of(schema)
        if t == "array":
            return "[" + self.type_of(schema.get("items", {})) + "]"
        if t == "object":
            if "additionalProperties" in schema:
                extra = schema["additionalProperties"]
                return "{" + (self.type_of(extra) if isinstance(extra, dict) else "x") + "}"
            return "x"
        if t == "string":
            return "s"
        if t == "boolean":
            return "b"
        if t == "integer":
            return "i32" if schema.get("format") == "int32" else "i64"
        if t == "number":
            return "n"
        return "x"

    def field_line(self, name, schema):
        parts = [name, self.type_of(schema)]
        if self.strategies and "x-kubernetes-patch-strategy" in schema:
            parts.append("p=" + schema["x-kubernetes-patch-strategy"])
        if self.strategies and "x-kubernetes-patch-merge-key" in schema:
            parts.append("k=" + schema["x-kubernetes-patch-merge-key"])
        list_type = schema.get("x-kubernetes-list-type")
        if list_type == "map":
            parts.append("l=map:" + ",".join(schema.get("x-kubernetes-list-map-keys", [])))
        elif list_type:
            parts.append("l=" + list_type)
        if "x-kubernetes-map-type" in schema:
            parts.append("m=" + schema["x-kubernetes-map-type"])
        for part in parts:
            if not part or any(c.isspace() for c in part):
                sys.exit(f"cannot write {parts!r}: a part is empty or holds a space")
        return " ".join(parts)

    def lines(self, start=0):
        out = []
        done = start
        while done < len(self.order):
            full = self.order[done]
            done += 1
            target = self.defs[full]
            header = "=" + self.names[full]
            if "x-kubernetes-map-type" in target:
                header += " m=" + target["x-kubernetes-map-type"]
            out.append(header)
            for field in sorted(target.get("properties", {})):
                out.append(self.field_line(field, target["properties"][field]))
        return out


def kind_of(schema):
    t = schema.get("type")
    if isinstance(t, list):
        t = [x for x in t if x != "null"]
        t = t[0] if len(t) == 1 else None
    return t


def find_kind(defs, api_version, kind):
    group, _, version = api_version.rpartition("/")
    for full, d in defs.items():
        for gvk in d.get("x-kubernetes-group-version-kind", []):
            if (gvk["group"], gvk["version"], gvk["kind"]) == (group, version, kind):
                return full
    sys.exit(f"no definition of {api_version} {kind}")


def kind_lines(table, kinds, defs):
    out = []
    for api_version, kind, plural, singular, shorts in kinds:
        full = find_kind(defs, api_version, kind)
        root = table.name_of(full)
        out.append(" ".join([">" + kind, api_version, plural, singular,
                             ",".join(shorts) or "-", root]))
    return out


def kubernetes_wheel(version):
    tmp = tempfile.mkdtemp()
    spec = "kubernetes-validate" + (f"=={version}" if version else "")
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", tmp, spec],
                   check=True)
    return glob.glob(os.path.join(tmp, "kubernetes_validate-*.whl"))[0]


def wheel_version(path):
    return os.path.basename(path).split("-")[1]


def write(path, header, body):
    text = "\n".join(header + body) + "\n"
    with open(path, "w") as f:
        f.write(text)
    print(f"{path}: {len(text)} bytes, {len(body)} lines")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kubernetes", default="1.36", help="the release whose definitions to read")
    ap.add_argument("--wheel", help="a kubernetes-validate wheel (default: pip download)")
    ap.add_argument("--package-version", help="kubernetes-validate version to download")
    ap.add_argument("--kubevirt-swagger", help="KubeVirt's api/openapi-spec/swagger.json")
    ap.add_argument("--kubevirt-commit", help="the kubevirt/kubevirt commit it comes from")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "src", "schema", "data"))
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)

    wheel = args.wheel or kubernetes_wheel(args.package_version)
    member = f"kubernetes_validate/kubernetes-json-schema/v{args.kubernetes}.0-local/_definitions.json"
    with zipfile.ZipFile(wheel) as z:
        defs = json.loads(z.read(member))["$defs"]
    source = [
        "# Generated by scripts/schemas.py; do not edit.",
        f"# source: PyPI kubernetes-validate {wheel_version(wheel)}, {member}",
        f"# (the OpenAPI definitions of Kubernetes {args.kubernetes}, with the x-kubernetes-* extensions)",
    ]
    # Part 1, the core group (what the playground's first page needs):
    # its kinds, every type they reach, and the other built-in kinds
    # (tabled nowhere, but not custom resources).
    core = [k for k in KUBERNETES_KINDS if "/" not in k[0]]
    table = Table(defs, "#/$defs/", strategies=True)
    kinds = kind_lines(table, core, defs)
    types = table.lines()
    tabled = {(a, k) for a, k, *_ in KUBERNETES_KINDS}
    others = {}
    for d in defs.values():
        for gvk in d.get("x-kubernetes-group-version-kind", []):
            kind = gvk["kind"]
            api_version = (gvk["group"] + "/" if gvk["group"] else "") + gvk["version"]
            if kind.endswith("List") or kind in ("Status", "WatchEvent", "DeleteOptions"):
                continue
            if (api_version, kind) not in tabled:
                others.setdefault(api_version, set()).add(kind)
    builtin = [f"!{a} " + " ".join(sorted(others[a])) for a in sorted(others)]
    header = ["# patchlab schema table, format 1: Kubernetes built-in kinds, core group."] + source
    write(os.path.join(args.out, "kubernetes-core.txt"), header, kinds + types + builtin)

    # Part 2, the workloads (apps, batch): types not in part 1, which they
    # may reference.
    workloads = [k for k in KUBERNETES_KINDS if "/" in k[0]]
    done = len(table.order)
    kinds = kind_lines(table, workloads, defs)
    types = table.lines(start=done)
    header = ["# patchlab schema table, format 1: Kubernetes built-in kinds, apps and batch.",
              "# Needs kubernetes-core.txt (its types are referenced by name)."] + source
    write(os.path.join(args.out, "kubernetes-workloads.txt"), header, kinds + types)

    if args.kubevirt_swagger:
        with open(args.kubevirt_swagger) as f:
            spec = json.load(f)
        kdefs = spec["definitions"]
        # Swagger 2.0 has no x-kubernetes-group-version-kind on KubeVirt's
        # kinds: find the roots by their Go names.
        table = Table(kdefs, "#/definitions/", strategies=False)
        kinds = []
        for api_version, kind, plural, singular, shorts in KUBEVIRT_KINDS:
            full = "v1." + kind
            if full not in kdefs:
                sys.exit(f"no definition {full} in {args.kubevirt_swagger}")
            kinds.append(" ".join([">" + kind, api_version, plural, singular, ",".join(shorts),
                                   table.name_of(full)]))
        header = [
            "# patchlab schema table, format 1: KubeVirt custom resources.",
            "# Generated by scripts/schemas.py; do not edit.",
            f"# source: kubevirt/kubevirt {args.kubevirt_commit or '(commit not given)'}, api/openapi-spec/swagger.json",
            "# (custom resources: their CRD schemas give list and map types, never patch strategies)",
            "@custom",
        ]
        write(os.path.join(args.out, "kubevirt.txt"), header, kinds + table.lines())


if __name__ == "__main__":
    main()
