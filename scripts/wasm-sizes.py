#!/usr/bin/env python3
"""Where the bytes of a wasm module go, by crate and by family (Yew, serde,
core/alloc, YAML, the simulator, ...), from the function names in its
`name` section: run it on the module cargo builds, before wasm-bindgen and
wasm-opt strip the names (sizes there are before wasm-opt; the shares are
what matters).

    cargo build --release --target wasm32-unknown-unknown --bin page --features build-only --no-default-features
    scripts/wasm-sizes.py target/wasm32-unknown-unknown/release/page.wasm

Code of a trait impl goes to the implementing type's module: a component's
`view` (`<patchlab::app::race::X as yew::BaseComponent>`) counts as its
view's UI; serde derives of patchlab types are a family of their own.
"""
import collections
import re
import sys


def leb(b, p):
    r = s = 0
    while True:
        x = b[p]
        p += 1
        r |= (x & 0x7F) << s
        s += 7
        if x < 0x80:
            return r, p


def limits(b, p):
    flags = b[p]
    p += 1
    _, p = leb(b, p)
    if flags & 1:
        _, p = leb(b, p)
    return p


def read(path):
    data = open(path, 'rb').read()
    pos, imports, names, bodies, data_bytes = 8, 0, {}, [], 0
    while pos < len(data):
        sid = data[pos]
        size, pos = leb(data, pos + 1)
        start, pos = pos, pos + size
        if sid == 2:
            p = start
            n, p = leb(data, p)
            for _ in range(n):
                for _ in range(2):
                    l, p = leb(data, p)
                    p += l
                kind = data[p]
                p += 1
                if kind == 0:
                    _, p = leb(data, p)
                    imports += 1
                elif kind == 1:
                    p = limits(data, p + 1)
                elif kind == 2:
                    p = limits(data, p)
                elif kind == 3:
                    p += 2
        elif sid == 10:
            p = start
            n, p = leb(data, p)
            for _ in range(n):
                l, q = leb(data, p)
                bodies.append(q - p + l)
                p = q + l
        elif sid == 11:
            data_bytes += size
        elif sid == 0:
            l, p = leb(data, start)
            if data[p:p + l] == b'name':
                p += l
                while p < start + size:
                    sub = data[p]
                    sl, p = leb(data, p + 1)
                    end = p + sl
                    if sub == 1:
                        n, p = leb(data, p)
                        for _ in range(n):
                            idx, p = leb(data, p)
                            l, p = leb(data, p)
                            names[idx] = data[p:p + l].decode('utf-8', 'replace')
                            p += l
                    p = end
    return len(data), imports, names, bodies, data_bytes


def path_of(name):
    """The demangled path segments of a legacy-mangled Rust symbol."""
    if not name.startswith('_ZN'):
        return None
    rest, parts = name[3:], []
    while rest and rest[0].isdigit():
        digits = re.match(r'\d+', rest).group()
        n = int(digits)
        parts.append(rest[len(digits):len(digits) + n])
        rest = rest[len(digits) + n:]
    return parts


def owner(name):
    """(module, trait crate or None) of a function."""
    parts = path_of(name)
    if parts is None:
        return (name.split('::')[0][:24] if not name.startswith('_R') else '(v0-mangled)'), None
    if not parts:
        return '?', None
    first = parts[0]
    if first.startswith('_$LT$'):
        inner = first[5:].replace('$u20$', ' ').replace('$RF$', '').replace('$BP$', '')
        ty, _, trait = inner.partition(' as ')
        segs = [s for s in ty.split('..') if s]
        trait_crate = trait.split('..')[0] if trait else None
        parts = segs
    else:
        trait_crate = None
    if parts and parts[0] == 'patchlab':
        depth = 3 if len(parts) > 2 and parts[1] == 'app' else 2
        return '::'.join(parts[:depth]), trait_crate
    return (parts[0] if parts else '?'), trait_crate


FAMILIES = [
    ('wasm-bindgen descriptors (removed by wasm-bindgen: not shipped)', lambda m, t: m.startswith('__wbindgen_describe')),
    ('serde derive code of patchlab types', lambda m, t: m.startswith('patchlab') and t in ('serde', 'serde_core')),
    ('Yew, gloo', lambda m, t: m.startswith(('yew', 'implicit_clone', 'gloo', 'slab', 'prokio'))),
    ('serde, serde_json', lambda m, t: m.startswith(('serde', 'mut serde', 'ryu', 'itoa')) or t in ('serde', 'serde_core')),
    ('YAML (saphyr)', lambda m, t: m.startswith(('saphyr', 'arraydeque', 'hashlink'))),
    ('link compression (miniz_oxide, base64)', lambda m, t: m.startswith(('miniz', 'adler', 'base64'))),
    ('wasm-bindgen, js-sys, web-sys', lambda m, t: m.startswith(('wasm_bindgen', 'js_sys', 'web_sys', '__wbindgen', '__wbg'))),
    ('simulator, explorer, claims (patchlab::sim, ::claims)', lambda m, t: m.startswith(('patchlab::sim', 'patchlab::claims'))),
    ('strategy engine, export, Go JSON (patchlab::strategy, ::gojson)', lambda m, t: m.startswith(('patchlab::strategy', 'patchlab::gojson'))),
    ('lint (patchlab::lint)', lambda m, t: m.startswith('patchlab::lint')),
    ('apply, patch, pointer, input, kube, status', lambda m, t: m.startswith(('patchlab::apply', 'patchlab::patch', 'patchlab::pointer', 'patchlab::input', 'patchlab::kube', 'patchlab::status', 'patchlab::vocabulary'))),
    ('UI: Build, Check, components, shell, link', lambda m, t: m.startswith(('patchlab::app::build', 'patchlab::app::check', 'patchlab::app::components', 'patchlab::app::shell', 'patchlab::app::link', 'patchlab::app::hooks', 'patchlab::app::browser', 'patchlab::app::route', 'patchlab::app::notice', 'patchlab::app::crash', 'patchlab::app::edit_history', 'patchlab::app::text_diff', 'patchlab::app::paste_guard', 'patchlab::app::shortcuts', 'patchlab::main'))),
    ('UI: Race, Scale, Learn, the worker client', lambda m, t: m.startswith(('patchlab::app::race', 'patchlab::app::scale', 'patchlab::app::learn'))),
    ('core, alloc, std (formatting, collections, panics)', lambda m, t: m.startswith(('core', 'alloc', 'std', 'hashbrown', 'T', 'dlmalloc', 'compiler_builtins', 'memchr'))),
]


def main():
    path = sys.argv[1]
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    size, imports, names, bodies, data_bytes = read(path)
    code = sum(bodies)
    modules, families = collections.Counter(), collections.Counter()
    for i, body in enumerate(bodies):
        module, trait_crate = owner(names.get(i + imports, '?'))
        modules[module] += body
        family = next((f for f, test in FAMILIES if test(module, trait_crate)), 'other')
        families[family] += body
    print(f'{path}: {size} bytes; code {code} in {len(bodies)} functions; data {data_bytes}')
    print('\nby family (code)')
    for family, n in families.most_common():
        print(f'{n:>9} {100 * n / code:5.1f}%  {family}')
    print(f'{data_bytes:>9}         data segment (string literals, tables, embedded examples and lessons)')
    print(f'\nby module, top {top} (code)')
    for module, n in modules.most_common(top):
        print(f'{n:>9} {100 * n / code:5.1f}%  {module}')


if __name__ == '__main__':
    main()
