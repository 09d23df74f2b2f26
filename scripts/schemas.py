#!/usr/bin/env python3
"""Writes patchlab's schema tables (src/schema/data/*.txt) from the published
OpenAPI documents: per field of every built-in kind its type, its strategic
merge patch strategy and merge key (x-kubernetes-patch-strategy,
x-kubernetes-patch-merge-key) and its list and map types
(x-kubernetes-list-type, x-kubernetes-list-map-keys, x-kubernetes-map-type),
for every Kubernetes release patchlab models (1.25 to 1.36).

Sources (the header of each table names the ones it came from):

- Kubernetes: the PyPI package kubernetes-validate, which ships every
  release's definitions with the OpenAPI extensions kept
  (kubernetes_validate/kubernetes-json-schema/v1.X.0-local/_definitions.json,
  generated with every API group version enabled). The script downloads it
  with `pip download` unless --wheel is given. Every definition carrying
  x-kubernetes-group-version-kind of a resource (RESOURCES below) is a kind
  of that release: the release serves that group version.
- kubectl's scheme per release (scripts/kubectl-schemes.txt, committed):
  the kinds `kubectl patch --local` has Go types for, read from
  k8s.io/client-go `kubernetes/scheme/register.go` and each k8s.io/api
  package's `register.go` (`addKnownTypes`) at tag v0.X.0; rewrite it with
  --kubectl-schemes CLIENT_GO_GIT API_GIT (two git clones with the tags).
- KubeVirt: api/openapi-spec/swagger.json of kubevirt/kubevirt at a commit
  (--kubevirt-swagger FILE --kubevirt-commit SHA).

Usage (re-run for a new release; the tables are committed):

    scripts/schemas.py --kubevirt-swagger swagger.json --kubevirt-commit d923fdb8...

The tables: kubernetes-core.txt (the core group's kinds and every type they
reach), kubernetes-groups.txt (every other group's kinds and the types they
reach that the core table lacks), each the newest release's table followed
by one section per older release: what that release has otherwise than the
release after it. The format (read by src/schema/table.rs), one item a line:

    # comment (the header: sources and versions)
    @custom                      the kinds below are custom resources
    >Kind apiVersion plural singular short,names Root [flags]
    !apiVersion Kind Kind ...    built-in kinds kubectl knows that the release does not serve
    =Type [m=atomic|granular|*]  a struct; its fields follow, one per line:
    name type [p=strategies] [k=mergeKey] [l=atomic|set|map:key,key] [m=...]
    %1.X                         the release 1.X: changes to the table of the release after it
    -name                        (in a change) a field of the type named last is removed
    +name type ...               (in a change) a field is added or replaced
    ->Kind apiVersion  -!apiVersion Kind ...   a kind, an unserved kind removed
A type an older release lacks stays in its table (no kind reaches it); a
type it has is changed from the last definition the sections gave it.

Kind flags: c (no route for an object: a create-only resource), r (the
object's route takes no PATCH), l (not in kubectl's scheme: `kubectl patch
--local` refuses a strategic merge patch). `m=*` on a type: a Go struct whose
JSON is any value (RawExtension, FieldsV1, apiextensions JSON): no fields to
look up. Types: s string, by []byte (base64 text), b bool, i32, i64, n number (float64), ios
IntOrString, q Quantity, t Time, mt MicroTime, x any JSON, [T] list of T,
{T} map of T, or the name of a struct. Descriptions, defaults and
validation are dropped.
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import zipfile

OLDEST, NEWEST = 25, 36

# Every resource kind of a built-in group: (group, kind) -> (plural, short
# names, flags). Plural and short names are what each resource's REST
# storage declares (`DefaultQualifiedResource` and `ShortNames()` in
# kubernetes pkg/registry/<group>/<resource>/storage/storage.go, and
# apiextensions-apiserver's and kube-aggregator's registries), as `kubectl
# api-resources` lists them; the singular is the lowercase kind. Flags: c
# create-only (no GET/PATCH route for one object: reviews, bindings), r a
# route without PATCH (componentstatuses, the create-only subresources
# pods/eviction and serviceaccounts/token).
RESOURCES = {
    ("", "Binding"): ("bindings", [], "c"),
    ("", "ComponentStatus"): ("componentstatuses", ["cs"], "r"),
    ("", "ConfigMap"): ("configmaps", ["cm"], ""),
    ("", "Endpoints"): ("endpoints", ["ep"], ""),
    ("", "Event"): ("events", ["ev"], ""),
    ("", "LimitRange"): ("limitranges", ["limits"], ""),
    ("", "Namespace"): ("namespaces", ["ns"], ""),
    ("", "Node"): ("nodes", ["no"], ""),
    ("", "PersistentVolume"): ("persistentvolumes", ["pv"], ""),
    ("", "PersistentVolumeClaim"): ("persistentvolumeclaims", ["pvc"], ""),
    ("", "Pod"): ("pods", ["po"], ""),
    ("", "PodTemplate"): ("podtemplates", [], ""),
    ("", "ReplicationController"): ("replicationcontrollers", ["rc"], ""),
    ("", "ResourceQuota"): ("resourcequotas", ["quota"], ""),
    ("", "Secret"): ("secrets", [], ""),
    ("", "Service"): ("services", ["svc"], ""),
    ("", "ServiceAccount"): ("serviceaccounts", ["sa"], ""),
    ("admissionregistration.k8s.io", "MutatingAdmissionPolicy"): ("mutatingadmissionpolicies", [], ""),
    ("admissionregistration.k8s.io", "MutatingAdmissionPolicyBinding"): ("mutatingadmissionpolicybindings", [], ""),
    ("admissionregistration.k8s.io", "MutatingWebhookConfiguration"): ("mutatingwebhookconfigurations", [], ""),
    ("admissionregistration.k8s.io", "ValidatingAdmissionPolicy"): ("validatingadmissionpolicies", [], ""),
    ("admissionregistration.k8s.io", "ValidatingAdmissionPolicyBinding"): ("validatingadmissionpolicybindings", [], ""),
    ("admissionregistration.k8s.io", "ValidatingWebhookConfiguration"): ("validatingwebhookconfigurations", [], ""),
    ("apiextensions.k8s.io", "CustomResourceDefinition"): ("customresourcedefinitions", ["crd", "crds"], ""),
    ("apiregistration.k8s.io", "APIService"): ("apiservices", [], ""),
    ("apps", "ControllerRevision"): ("controllerrevisions", [], ""),
    ("apps", "DaemonSet"): ("daemonsets", ["ds"], ""),
    ("apps", "Deployment"): ("deployments", ["deploy"], ""),
    ("apps", "ReplicaSet"): ("replicasets", ["rs"], ""),
    ("apps", "StatefulSet"): ("statefulsets", ["sts"], ""),
    ("authentication.k8s.io", "SelfSubjectReview"): ("selfsubjectreviews", [], "c"),
    ("authentication.k8s.io", "TokenRequest"): ("token", [], "r"),
    ("authentication.k8s.io", "TokenReview"): ("tokenreviews", [], "c"),
    ("authorization.k8s.io", "LocalSubjectAccessReview"): ("localsubjectaccessreviews", [], "c"),
    ("authorization.k8s.io", "SelfSubjectAccessReview"): ("selfsubjectaccessreviews", [], "c"),
    ("authorization.k8s.io", "SelfSubjectRulesReview"): ("selfsubjectrulesreviews", [], "c"),
    ("authorization.k8s.io", "SubjectAccessReview"): ("subjectaccessreviews", [], "c"),
    ("autoscaling", "HorizontalPodAutoscaler"): ("horizontalpodautoscalers", ["hpa"], ""),
    ("autoscaling", "Scale"): ("scale", [], ""),
    ("batch", "CronJob"): ("cronjobs", ["cj"], ""),
    ("batch", "Job"): ("jobs", [], ""),
    ("certificates.k8s.io", "CertificateSigningRequest"): ("certificatesigningrequests", ["csr"], ""),
    ("certificates.k8s.io", "ClusterTrustBundle"): ("clustertrustbundles", [], ""),
    ("certificates.k8s.io", "PodCertificateRequest"): ("podcertificaterequests", [], ""),
    ("coordination.k8s.io", "Lease"): ("leases", [], ""),
    ("coordination.k8s.io", "LeaseCandidate"): ("leasecandidates", [], ""),
    ("discovery.k8s.io", "EndpointSlice"): ("endpointslices", [], ""),
    ("events.k8s.io", "Event"): ("events", ["ev"], ""),
    ("flowcontrol.apiserver.k8s.io", "FlowSchema"): ("flowschemas", [], ""),
    ("flowcontrol.apiserver.k8s.io", "PriorityLevelConfiguration"): ("prioritylevelconfigurations", [], ""),
    ("internal.apiserver.k8s.io", "StorageVersion"): ("storageversions", [], ""),
    ("networking.k8s.io", "ClusterCIDR"): ("clustercidrs", [], ""),
    ("networking.k8s.io", "IPAddress"): ("ipaddresses", ["ip"], ""),
    ("networking.k8s.io", "Ingress"): ("ingresses", ["ing"], ""),
    ("networking.k8s.io", "IngressClass"): ("ingressclasses", [], ""),
    ("networking.k8s.io", "NetworkPolicy"): ("networkpolicies", ["netpol"], ""),
    ("networking.k8s.io", "ServiceCIDR"): ("servicecidrs", [], ""),
    ("node.k8s.io", "RuntimeClass"): ("runtimeclasses", [], ""),
    ("policy", "Eviction"): ("eviction", [], "r"),
    ("policy", "PodDisruptionBudget"): ("poddisruptionbudgets", ["pdb"], ""),
    ("rbac.authorization.k8s.io", "ClusterRole"): ("clusterroles", [], ""),
    ("rbac.authorization.k8s.io", "ClusterRoleBinding"): ("clusterrolebindings", [], ""),
    ("rbac.authorization.k8s.io", "Role"): ("roles", [], ""),
    ("rbac.authorization.k8s.io", "RoleBinding"): ("rolebindings", [], ""),
    ("resource.k8s.io", "DeviceClass"): ("deviceclasses", [], ""),
    ("resource.k8s.io", "DeviceTaintRule"): ("devicetaintrules", [], ""),
    ("resource.k8s.io", "PodScheduling"): ("podschedulings", [], ""),
    ("resource.k8s.io", "PodSchedulingContext"): ("podschedulingcontexts", [], ""),
    ("resource.k8s.io", "ResourceClaim"): ("resourceclaims", [], ""),
    ("resource.k8s.io", "ResourceClaimParameters"): ("resourceclaimparameters", [], ""),
    ("resource.k8s.io", "ResourceClaimTemplate"): ("resourceclaimtemplates", [], ""),
    ("resource.k8s.io", "ResourceClass"): ("resourceclasses", [], ""),
    ("resource.k8s.io", "ResourceClassParameters"): ("resourceclassparameters", [], ""),
    ("resource.k8s.io", "ResourcePoolStatusRequest"): ("resourcepoolstatusrequests", [], ""),
    ("resource.k8s.io", "ResourceSlice"): ("resourceslices", [], ""),
    ("scheduling.k8s.io", "PodGroup"): ("podgroups", [], ""),
    ("scheduling.k8s.io", "PriorityClass"): ("priorityclasses", ["pc"], ""),
    ("scheduling.k8s.io", "Workload"): ("workloads", [], ""),
    ("storage.k8s.io", "CSIDriver"): ("csidrivers", [], ""),
    ("storage.k8s.io", "CSINode"): ("csinodes", [], ""),
    ("storage.k8s.io", "CSIStorageCapacity"): ("csistoragecapacities", [], ""),
    ("storage.k8s.io", "StorageClass"): ("storageclasses", ["sc"], ""),
    ("storage.k8s.io", "VolumeAttachment"): ("volumeattachments", [], ""),
    ("storage.k8s.io", "VolumeAttributesClass"): ("volumeattributesclasses", ["vac"], ""),
    ("storagemigration.k8s.io", "StorageVersionMigration"): ("storageversionmigrations", [], ""),
}

# Kinds with x-kubernetes-group-version-kind that are no resource.
NOT_RESOURCES = {"APIGroup", "APIGroupList", "APIResourceList", "APIVersions", "Status",
                 "WatchEvent", "DeleteOptions"}

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

# Go structs whose JSON is any value (their own MarshalJSON, or `json:"-"`
# fields only): a lookup under them finds no field.
OPAQUE_TYPES = {
    "io.k8s.apimachinery.pkg.runtime.RawExtension",
    "io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1",
    "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON",
    "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray",
    "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool",
    "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray",
}

# The packages whose types keep their bare Go name when another package
# has a type of that name (the others are qualified: `v2.MetricSpec`).
PLAIN_PACKAGES = ("io.k8s.api.core.v1.", "io.k8s.apimachinery.")


def short(name):
    return name.rsplit(".", 1)[-1]


def table_names(fulls):
    """Stable table names for definitions (across every release read):
    the Go name, qualified by version (then group and version) where two
    packages define one name."""
    by_short = {}
    for full in fulls:
        by_short.setdefault(short(full), []).append(full)
    names = {}
    for name, group in by_short.items():
        if len(group) == 1:
            names[group[0]] = name
            continue
        plain = [f for f in group if f.startswith(PLAIN_PACKAGES)]
        for full in group:
            parts = full.split(".")
            if full in plain and len(plain) == 1:
                names[full] = name
            elif sum(1 for f in group if f.split(".")[-2] == parts[-2]) == 1:
                names[full] = parts[-2] + "." + name
            else:
                names[full] = parts[-3] + "." + parts[-2] + "." + name
    return names


def kind_of(schema):
    t = schema.get("type")
    if isinstance(t, list):
        t = [x for x in t if x != "null"]
        t = t[0] if len(t) == 1 else None
    return t


class Types:
    """The struct types reachable from some roots, in the order first
    reached, by their table names."""

    def __init__(self, defs, ref_prefix, names, strategies):
        self.defs = defs
        self.ref_prefix = ref_prefix
        self.names = names
        self.strategies = strategies
        self.order = []
        self.seen = set()

    def name_of(self, full):
        if full not in self.seen:
            self.seen.add(full)
            self.order.append(full)
            if full not in self.names:
                self.names[full] = self.first_come_name(full)
        return self.names[full]

    def first_come_name(self, full):
        """The Go name, or package and name when a type reached before
        took it."""
        taken = set(self.names.values())
        name = short(full)
        if name in taken:
            name = full.split(".")[-2] + "." + name
            if name in taken:
                sys.exit(f"cannot name {full}: {name} is taken")
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
            if full in OPAQUE_TYPES or "properties" in target or kind_of(target) == "object":
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
        if t == "string" and schema.get("format") == "byte":
            return "by"
        return {"string": "s", "boolean": "b", "number": "n"}.get(t) or (
            ("i32" if schema.get("format") == "int32" else "i64") if t == "integer" else "x")

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

    def blocks(self, start=0):
        """{table name: (header, [field lines])} of the types reached from
        `start` on (fields reached on the way are added as they come)."""
        out = {}
        done = start
        while done < len(self.order):
            full = self.order[done]
            done += 1
            target = self.defs[full]
            header = "=" + self.names[full]
            if full in OPAQUE_TYPES:
                header += " m=*"
                out[self.names[full]] = (header, [])
                continue
            if "x-kubernetes-map-type" in target:
                header += " m=" + target["x-kubernetes-map-type"]
            fields = [self.field_line(f, target["properties"][f])
                      for f in sorted(target.get("properties", {}))]
            out[self.names[full]] = (header, fields)
        return out


def api_version(group, version):
    return (group + "/" if group else "") + version


def release_kinds(defs):
    """(apiVersion, kind) -> definition name of every resource kind."""
    kinds = {}
    for full, d in defs.items():
        gvks = d.get("x-kubernetes-group-version-kind", [])
        if len(gvks) != 1:
            continue
        gvk = gvks[0]
        if gvk["kind"].endswith("List") or gvk["kind"] in NOT_RESOURCES:
            continue
        if (gvk["group"], gvk["kind"]) not in RESOURCES:
            sys.exit(f"{gvk}: not in RESOURCES (add its plural and short names)")
        kinds[(api_version(gvk["group"], gvk["version"]), gvk["kind"])] = full
    return kinds


def kind_line(av, kind, root, local):
    group = av.rpartition("/")[0]
    plural, shorts, flags = RESOURCES[(group, kind)]
    flags = flags + ("" if local else "l")
    parts = [">" + kind, av, plural, kind.lower(), ",".join(shorts) or "-", root]
    return " ".join(parts + ([flags] if flags else []))


def read_schemes(path):
    """{minor: {apiVersion: {kinds}}} of kubectl's scheme per release."""
    schemes = {}
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            minor, av, *kinds = line.split()
            schemes.setdefault(int(minor), {})[av] = set(kinds)
    return schemes


def release_parts(defs, names, scheme):
    """The two parts of one release: {"core": part, "groups": part}, each
    {"kinds": {(av, kind): line}, "types": {name: block}, "unserved": {(av, kind)}}."""
    kinds = release_kinds(defs)
    types = Types(defs, "#/$defs/", names, strategies=True)
    parts = {}
    for part, pick in (("core", lambda av: "/" not in av), ("groups", lambda av: "/" in av)):
        start = len(types.order)
        lines = {}
        for (av, kind), full in sorted(kinds.items()):
            if pick(av):
                local = kind in scheme.get(av, ())
                lines[(av, kind)] = kind_line(av, kind, types.name_of(full), local)
        resource_kinds = {k for _, k in RESOURCES}
        unserved = {(av, k) for av, ks in scheme.items() if pick(av) for k in ks
                    if k in resource_kinds and (av, k) not in kinds}
        parts[part] = {"kinds": lines, "types": types.blocks(start), "unserved": unserved}
    return parts


def unserved_lines(pairs, prefix="!"):
    by_av = {}
    for av, kind in pairs:
        by_av.setdefault(av, []).append(kind)
    return [prefix + av + " " + " ".join(sorted(by_av[av])) for av in sorted(by_av)]


def full_lines(part):
    out = [part["kinds"][k] for k in sorted(part["kinds"])]
    for header, fields in part["types"].values():
        out.append(header)
        out.extend(fields)
    return out + unserved_lines(part["unserved"])


def delta_lines(newer, older, known):
    """What `older` has otherwise than `newer` (the format's changes).
    `known`: every type the tables read so far define, by name (a type a
    newer release has and this one lacks is left in place: no kind
    reaches it), updated with `older`'s."""
    out = []
    for key in sorted(newer["kinds"]):
        if key not in older["kinds"] or older["kinds"][key] != newer["kinds"][key]:
            out.append("->" + key[1] + " " + key[0])
    for key in sorted(older["kinds"]):
        if key not in newer["kinds"] or older["kinds"][key] != newer["kinds"][key]:
            out.append(older["kinds"][key])
    for name, (header, fields) in older["types"].items():
        old = known.get(name)
        known[name] = (header, fields)
        if old == (header, fields):
            continue
        changes = [header]
        if old is None:
            changes += ["+" + f for f in fields]
        else:
            before = {f.split()[0]: f for f in old[1]}
            after = {f.split()[0]: f for f in fields}
            changes += ["-" + n for n in sorted(before) if n not in after]
            changes += ["+" + after[n] for n in sorted(after) if before.get(n) != after[n]]
        out.extend(changes)
    out += unserved_lines(newer["unserved"] - older["unserved"], "-!")
    out += unserved_lines(older["unserved"] - newer["unserved"])
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


def member(minor):
    return f"kubernetes_validate/kubernetes-json-schema/v1.{minor}.0-local/_definitions.json"


def write_kubernetes(wheel, schemes_path, out):
    with zipfile.ZipFile(wheel) as z:
        releases = {m: json.loads(z.read(member(m)))["$defs"] for m in range(OLDEST, NEWEST + 1)}
    names = table_names({full for defs in releases.values() for full in defs})
    schemes = read_schemes(schemes_path)
    parts = {m: release_parts(releases[m], names, schemes[m]) for m in releases}
    source = [
        "# Generated by scripts/schemas.py; do not edit.",
        f"# source: PyPI kubernetes-validate {wheel_version(wheel)}, "
        f"kubernetes_validate/kubernetes-json-schema/v1.{OLDEST}.0-local ... v1.{NEWEST}.0-local/_definitions.json",
        "# (the OpenAPI definitions of each release, every group version enabled, with the x-kubernetes-* extensions)",
        f"# kubectl's scheme (flag l, ! lines): {os.path.basename(schemes_path)}, "
        f"k8s.io/client-go and k8s.io/api v0.{OLDEST}.0 ... v0.{NEWEST}.0",
    ]
    titles = {
        "core": "# patchlab schema table, format 2: Kubernetes built-in kinds, core group.",
        "groups": "# patchlab schema table, format 2: Kubernetes built-in kinds, the other groups.\n"
                  "# Needs kubernetes-core.txt (its types are referenced by name).",
    }
    # Type names are global (a release reads both parts into one table):
    # one record of the types defined so far, across the parts, in the
    # order the reader applies the sections (per release, core first).
    known = {}
    for part in ("core", "groups"):
        known.update(parts[NEWEST][part]["types"])
    home = {}
    for m in parts:
        for part in ("core", "groups"):
            for name in parts[m][part]["types"]:
                if home.setdefault(name, part) != part:
                    sys.exit(f"type {name} is in both parts (the page module reads only the core one)")
    bodies = {part: full_lines(parts[NEWEST][part]) for part in ("core", "groups")}
    for m in range(NEWEST - 1, OLDEST - 1, -1):
        for part in ("core", "groups"):
            bodies[part].append(f"%1.{m}")
            bodies[part] += delta_lines(parts[m + 1][part], parts[m][part], known)
    for part in ("core", "groups"):
        header = titles[part].split("\n") + [
            f"# The table of Kubernetes 1.{NEWEST}, then per older release (%1.X) what it has otherwise."
        ] + source
        write(os.path.join(out, f"kubernetes-{part}.txt"), header, bodies[part])


def write_kubevirt(swagger, commit, out):
    with open(swagger) as f:
        kdefs = json.load(f)["definitions"]
    # Swagger 2.0 has no x-kubernetes-group-version-kind on KubeVirt's
    # kinds: find the roots by their Go names.
    types = Types(kdefs, "#/definitions/", {}, strategies=False)
    kinds = []
    for av, kind, plural, singular, shorts in KUBEVIRT_KINDS:
        full = "v1." + kind
        if full not in kdefs:
            sys.exit(f"no definition {full} in {swagger}")
        kinds.append(" ".join([">" + kind, av, plural, singular, ",".join(shorts),
                               types.name_of(full)]))
    body = []
    for header, fields in types.blocks().values():
        body += [header] + fields
    header = [
        "# patchlab schema table, format 2: KubeVirt custom resources.",
        "# Generated by scripts/schemas.py; do not edit.",
        f"# source: kubevirt/kubevirt {commit or '(commit not given)'}, api/openapi-spec/swagger.json",
        "# (custom resources: their CRD schemas give list and map types, never patch strategies)",
        "@custom",
    ]
    write(os.path.join(out, "kubevirt.txt"), header, kinds + body)


def write_schemes(client_go, api, path):
    """kubectl's scheme per release: the kinds of each k8s.io/api package
    client-go's kubernetes/scheme registers, at tag v0.X.0."""
    def show(repo, rev, file):
        return subprocess.run(["git", "-C", repo, "show", f"{rev}:{file}"],
                              capture_output=True, text=True, check=True).stdout
    lines = ["# kubectl's scheme per release: minor, apiVersion, kinds (List kinds left out).",
             "# Written by scripts/schemas.py --kubectl-schemes from k8s.io/client-go",
             "# kubernetes/scheme/register.go and k8s.io/api <package>/register.go",
             f"# (addKnownTypes) at tags v0.{OLDEST}.0 ... v0.{NEWEST}.0."]
    for minor in range(OLDEST, NEWEST + 1):
        tag = f"v0.{minor}.0"
        register = show(client_go, tag, "kubernetes/scheme/register.go")
        for package in re.findall(r'"k8s.io/api/([a-z0-9/]+)"', register):
            src = show(api, tag, package + "/register.go")
            group = re.search(r'GroupName\s*=\s*"([^"]*)"', src).group(1)
            body = src[src.find("func addKnownTypes"):]
            body = body[:body.find("\n}")]
            kinds = sorted({k for k in re.findall(r"&([A-Z]\w*)\{\}", body)
                            if not k.endswith("List")})
            lines.append(f"{minor} {api_version(group, package.rsplit('/', 1)[1])} {' '.join(kinds)}")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{path}: {len(lines)} lines")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--wheel", help="a kubernetes-validate wheel (default: pip download)")
    ap.add_argument("--package-version", help="kubernetes-validate version to download")
    ap.add_argument("--kubevirt-swagger", help="KubeVirt's api/openapi-spec/swagger.json")
    ap.add_argument("--kubevirt-commit", help="the kubevirt/kubevirt commit it comes from")
    ap.add_argument("--kubectl-schemes", nargs=2, metavar=("CLIENT_GO_GIT", "API_GIT"),
                    help="rewrite scripts/kubectl-schemes.txt from clones of k8s.io/client-go and k8s.io/api")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--out", default=os.path.join(here, "..", "src", "schema", "data"))
    args = ap.parse_args()
    schemes_path = os.path.join(here, "kubectl-schemes.txt")
    if args.kubectl_schemes:
        write_schemes(*args.kubectl_schemes, schemes_path)
    os.makedirs(args.out, exist_ok=True)
    write_kubernetes(args.wheel or kubernetes_wheel(args.package_version), schemes_path, args.out)
    if args.kubevirt_swagger:
        write_kubevirt(args.kubevirt_swagger, args.kubevirt_commit, args.out)


if __name__ == "__main__":
    main()
