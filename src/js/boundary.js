// The JavaScript side of the module's boundary (used by src/js/boundary.rs;
// wasm-bindgen copies this file into the package as a snippet). Walking a
// JS value costs far less here than crossing into WebAssembly value by
// value, so two walks run here:
//
// - `inexact`: before a value is written as JSON text, the first place
//   where JSON.stringify would change it silently (NaN, Infinity, undefined,
//   a function or a symbol become null or vanish), and whether it is too
//   deep or too large to be read at all (checked before the text is built:
//   a shared subtree repeated many times would make the text huge).
// - `pruneText`: for a diff, the JSON text of the two objects without the
//   members that are equal on both sides, where the diff walks member by
//   member (it skips equal members there, so leaving them out changes
//   nothing it computes).
//
// Both walks recurse at most `depth` levels (crate::limits::DEPTH) and visit
// at most `budget` characters' worth of values (crate::limits::OBJECT_BYTES:
// every value and key adds its length, or 1, to what its JSON text would
// hold), so a cyclic or absurdly shared value ends them early.

const TOO_DEEP = 'too-deep';
const TOO_LARGE = 'too-large';

/** Why JSON.stringify would not carry `v` exactly, or null. */
function inexactLeaf(v) {
  switch (typeof v) {
    case 'number':
      return Number.isFinite(v) ? null : String(v);
    case 'undefined':
      return 'undefined';
    case 'function':
      return 'a function';
    case 'symbol':
      return 'a symbol';
    case 'bigint':
      return 'a BigInt';
    default:
      return null;
  }
}

/** The JSON Pointer of reference tokens (root first). */
function pointer(tokens) {
  let out = '';
  for (let i = 0; i < tokens.length; i++) {
    const token = String(tokens[i]);
    out += '/';
    out += token.includes('~') || token.includes('/') ? token.replace(/~/g, '~0').replace(/\//g, '~1') : token;
  }
  return out;
}

/**
 * Sets `out[key]` as an own data property, also for the key `__proto__`
 * (which an assignment would take for the object's prototype).
 */
function put(out, key, value) {
  if (key === '__proto__') {
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    out[key] = value;
  }
}

/** A walk's state: the characters left in the budget. */
class Walk {
  constructor(depth, budget) {
    this.depth = depth;
    this.left = budget;
  }

  /**
   * The first inexact value under `v` as [tokens leaf first, what], or a
   * verdict string (TOO_DEEP, TOO_LARGE), or null.
   */
  find(v, level) {
    const leaf = inexactLeaf(v);
    if (leaf !== null) return [[], leaf];
    if (typeof v === 'string') {
      this.left -= v.length + 2;
      return this.left < 0 ? TOO_LARGE : null;
    }
    if (--this.left < 0) return TOO_LARGE;
    if (v === null || typeof v !== 'object') return null;
    if (level >= this.depth) return TOO_DEEP;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const found = this.find(v[i], level + 1);
        if (found !== null) {
          if (typeof found !== 'string') found[0].push(i);
          return found;
        }
      }
      return null;
    }
    if (typeof v.toJSON === 'function') return this.find(v.toJSON(''), level + 1);
    if (v instanceof Number) return this.find(Number(v), level);
    const keys = Object.keys(v);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      this.left -= key.length + 3;
      const found = this.find(v[key], level + 1);
      if (found !== null) {
        if (typeof found !== 'string') found[0].push(key);
        return found;
      }
    }
    return null;
  }

  /**
   * True when `a` and `b` are equal JSON values that JSON text carries
   * exactly (so a member holding them on both sides may be left out), or
   * the very same object. Anything else (NaN, undefined, a Date, too deep
   * or over budget) is "not equal": it stays and is checked on its way
   * out.
   */
  equal(a, b, level) {
    if (a === b) {
      const type = typeof a;
      if (type === 'string') {
        this.left -= a.length;
        return true;
      }
      if (type === 'boolean' || a === null) return true;
      if (type === 'number') return Number.isFinite(a);
      // The same object on both sides: equal, and not read at all (as
      // applyPatch never reads what a patch does not touch).
      if (type === 'object') return true;
    }
    if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return false;
    if (--this.left < 0 || level >= this.depth) return false;
    const array = Array.isArray(a);
    if (array !== Array.isArray(b)) return false;
    if (array) {
      const n = a.length;
      if (n !== b.length) return false;
      for (let i = 0; i < n; i++) {
        const x = a[i];
        const y = b[i];
        if (typeof x === 'string') {
          if (x !== y) return false;
          this.left -= x.length;
          continue;
        }
        if (!this.equal(x, y, level + 1)) return false;
      }
      return true;
    }
    if (!isPlain(a) || !isOwnPlain(b)) return false;
    // The usual case: the same keys in the same order. Walk `b` with
    // for-in (V8 reads its members straight from the enum cache) beside
    // `a`'s own keys; any other order takes the general way.
    const keys = Object.keys(a);
    const n = keys.length;
    let i = 0;
    for (const key in b) {
      if (i >= n || keys[i] !== key) return this.unordered(a, b, keys, level);
      i++;
      const x = a[key];
      const y = b[key];
      if (typeof x === 'string') {
        if (x !== y) return false;
        this.left -= x.length;
        continue;
      }
      if (!this.equal(x, y, level + 1)) return false;
    }
    return i === n;
  }

  /** `equal` of two plain objects whose keys come in another order. */
  unordered(a, b, keys, level) {
    if (keys.length !== Object.keys(b).length) return false;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      if (!Object.hasOwn(b, key) || !this.equal(a[key], b[key], level + 1)) return false;
    }
    return true;
  }

  /**
   * Two plain objects without the members equal on both sides: null when
   * every member is, else [a', b'] (new objects whose every key,
   * `__proto__` included, is an own member). A member holding
   * objects on both sides is pruned in turn unless `declared(pointer)`
   * says the diff patches it as one unit (then it stays whole).
   */
  prune(a, b, level, path, declared) {
    if (--this.left < 0) return [a, b];
    const out = [null, null];
    const keysA = Object.keys(a);
    const n = keysA.length;
    // The usual case: the same keys in the same order, `b` walked with
    // for-in beside `a`'s keys; from the first key out of step, the
    // general way.
    let i = 0;
    let stepped = true;
    for (const key in b) {
      if (i >= n || keysA[i] !== key) {
        stepped = false;
        break;
      }
      i++;
      this.member(out, key, a[key], b[key], level, path, declared);
    }
    if (!stepped || i < n) {
      for (; i < n; i++) {
        const key = keysA[i];
        if (Object.hasOwn(b, key)) {
          this.member(out, key, a[key], b[key], level, path, declared);
        } else {
          out[0] ??= {};
          out[1] ??= {};
          put(out[0], key, a[key]);
        }
      }
      const keysB = Object.keys(b);
      for (let k = 0; k < keysB.length; k++) {
        const key = keysB[k];
        if (!Object.hasOwn(a, key)) {
          out[0] ??= {};
          out[1] ??= {};
          put(out[1], key, b[key]);
        }
      }
    }
    return out[0] === null ? null : out;
  }

  /** One member of `prune`: kept in `out` unless equal on both sides. */
  member(out, key, va, vb, level, path, declared) {
    if (typeof va === 'string' && va === vb) {
      this.left -= va.length;
      return;
    }
    if (va === vb && (typeof va === 'boolean' || typeof va === 'object')) return;
    if (level + 1 < this.depth && isPlain(va) && isOwnPlain(vb)) {
      path.push(key);
      const inner = this.prune(va, vb, level + 1, path, declared);
      if (inner !== null) {
        const whole = declared(pointer(path));
        out[0] ??= {};
        out[1] ??= {};
        put(out[0], key, whole ? va : inner[0]);
        put(out[1], key, whole ? vb : inner[1]);
      }
      path.pop();
    } else if (!this.equal(va, vb, level + 1)) {
      out[0] ??= {};
      out[1] ??= {};
      put(out[0], key, va);
      put(out[1], key, vb);
    }
  }
}

/** An object JSON writes member by member: a plain object, not an array. */
function isPlain(v) {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  // Most objects answer by their inherited constructor (a cheap, cached
  // load); the rest (no prototype, an own `constructor` member) by the
  // prototype itself.
  if (v.constructor === Object) return true;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/**
 * A plain object whose for-in yields its own members only: its prototype
 * is `Object.prototype` (unpolluted: `pruneText` checks) or none. The
 * walks read the second object of a pair with for-in beside the first's
 * `Object.keys`; an object made by `Object.create` from another object
 * inherits enumerable members, which JSON.stringify leaves out, so it is
 * not walked but compared and kept whole (its text says what it holds).
 * The first object's members are read by `Object.keys` (own only), so
 * `isPlain` does there.
 */
function isOwnPlain(v) {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** True when `Object.prototype` has an enumerable member (pollution). */
function polluted() {
  for (const _ in Object.prototype) return true;
  return false;
}

/**
 * The first place in `value` JSON.stringify would not carry exactly:
 * `[pointer, what]` (what: `NaN`, `Infinity`, `undefined`, `a function`,
 * ...), `'too-deep'`, `'too-large'`, or null when the value is exact.
 */
export function inexact(value, depth, budget) {
  const found = new Walk(depth, budget).find(value, 0);
  if (found === null || typeof found === 'string') return found;
  return [pointer(found[0].reverse()), found[1]];
}

/** Per list of known option names (joined by commas), the names as a Set. */
const knownSets = new Map();

/**
 * The own values of an options object, read in one crossing: an array
 * holding, for each name of `known` (the names joined by commas), the
 * option's own value or undefined; or the first own key that is not in
 * `known` (a string); or `{ key, error }` when reading an option threw
 * (a getter). `options` is a non-array object (the caller checks).
 */
export function ownOptions(options, known) {
  let names = knownSets.get(known);
  if (names === undefined) {
    names = known.split(',');
    knownSets.set(known, names);
  }
  const keys = Object.keys(options);
  for (let i = 0; i < keys.length; i++) {
    if (!names.includes(keys[i])) return keys[i];
  }
  const values = new Array(names.length);
  for (let i = 0; i < names.length; i++) {
    const key = names[i];
    if (!Object.hasOwn(options, key)) continue;
    try {
      values[i] = options[key];
    } catch (error) {
      return { key, error };
    }
  }
  return values;
}

/** Per options id, what `declared` said of each pointer (see pruneText). */
const memos = new Map();
const MEMO_SIZE = 10000;

/**
 * The JSON text of two plain objects without the members equal on both
 * sides at every object the diff walks member by member (see
 * `Walk.prune`), old and new joined by a newline (JSON text holds none);
 * or why not: null when `old` or `new` is not a plain object or
 * `Object.prototype` has an enumerable member (the caller then reads
 * them whole, as JSON.stringify writes them),
 * `'too-deep'`, `'too-large'`, or `[pointer, what, side]` for a value JSON
 * cannot carry (see `inexact`). `declared(pointer)` is asked once per
 * pointer for the options numbered `id` (0: options used once, not
 * remembered).
 */
export function pruneText(old, neu, declared, depth, budget, id) {
  if (!isPlain(old) || !isOwnPlain(neu) || polluted()) return null;
  let ask = declared;
  if (id !== 0) {
    let memo = memos.get(id);
    if (memo === undefined || memo.size > MEMO_SIZE) {
      memo = new Map();
      memos.set(id, memo);
    }
    ask = (at) => {
      let whole = memo.get(at);
      if (whole === undefined) {
        whole = declared(at);
        memo.set(at, whole);
      }
      return whole;
    };
  }
  const walk = new Walk(depth, budget);
  const [a, b] = walk.prune(old, neu, 0, [], ask) ?? [{}, {}];
  if (walk.left < 0) return TOO_LARGE;
  let found = new Walk(depth, budget).find(a, 0);
  let side = 'old';
  if (found === null) {
    found = new Walk(depth, budget).find(b, 0);
    side = 'new';
  }
  if (found === null) return `${JSON.stringify(a)}\n${JSON.stringify(b)}`;
  if (typeof found === 'string') return found;
  return [pointer(found[0].reverse()), found[1], side];
}

/**
 * The result of `diff` from the text src/js/diff.rs writes (`answer`): its
 * strings joined by U+0001, or (when a string holds U+0001) a JSON array
 * of them, with the ops' values last as one JSON array. Object literals of
 * a known shape cost far less than `JSON.parse` of the same objects with
 * their keys. Item order: preset, content type, empty (`1`/`0`), body, the
 * number of ops (empty: no ops), 7 per op (op, path, `=from` or empty, `1`
 * when a value follows, reason, field, strategy), the number of fields and
 * 4 per field, the conflicts and the overwrites (a number, then path and
 * reason), the notes (a number, then each).
 */
export function diffResult(text) {
  let parts;
  let values;
  if (text.charCodeAt(0) === 0x5b /* [ */) {
    parts = JSON.parse(text);
    values = parts.pop();
  } else {
    parts = text.split('\u0001');
    values = JSON.parse(parts.pop());
  }
  let i = 5;
  let ops = null;
  if (parts[4] !== '') {
    ops = new Array(Number(parts[4]));
    for (let k = 0, v = 0; k < ops.length; k++, i += 7) {
      const from = parts[i + 2];
      const op =
        from === '' ? { op: parts[i], path: parts[i + 1] } : { op: parts[i], path: parts[i + 1], from: from.slice(1) };
      if (parts[i + 3] === '1') op.value = values[v++];
      op.reason = parts[i + 4];
      op.field = parts[i + 5];
      op.strategy = parts[i + 6];
      ops[k] = op;
    }
  }
  const fields = new Array(Number(parts[i++]));
  for (let k = 0; k < fields.length; k++, i += 4) {
    fields[k] = { path: parts[i], kind: parts[i + 1], strategy: parts[i + 2], change: parts[i + 3] };
  }
  const conflicts = new Array(Number(parts[i++]));
  for (let k = 0; k < conflicts.length; k++, i += 2) conflicts[k] = { path: parts[i], reason: parts[i + 1] };
  const overwrites = new Array(Number(parts[i++]));
  for (let k = 0; k < overwrites.length; k++, i += 2) overwrites[k] = { path: parts[i], reason: parts[i + 1] };
  const notes = parts.slice(i + 1, i + 1 + Number(parts[i]));
  return {
    preset: parts[0],
    contentType: parts[1],
    empty: parts[2] === '1',
    body: parts[3],
    ops,
    fields,
    conflicts,
    overwrites,
    notes,
  };
}

/** Per list of preset names (joined by commas), the names. */
const presetLists = new Map();

/**
 * A diff's options read in one step when they hold no more than a preset
 * named exactly as in `presets` (the names joined by commas) and a boolean
 * `explain`, as own members: (the preset's index + 1, 0 when absent) times
 * 2, plus 1 unless `explain` is false. Anything else (another option, an
 * old preset name, a wrong type, a getter that throws) is -1: the general
 * reader (`ownOptions`) then reads the options and says what is wrong.
 */
export function simpleDiffOptions(options, presets) {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) return -1;
  let names = presetLists.get(presets);
  if (names === undefined) {
    names = presets.split(',');
    presetLists.set(presets, names);
  }
  try {
    const keys = Object.keys(options);
    for (let i = 0; i < keys.length; i++) {
      if (keys[i] !== 'preset' && keys[i] !== 'explain') return -1;
    }
    if (Object.hasOwn(options, 'overrides') || Object.hasOwn(options, 'fieldManager') || Object.hasOwn(options, 'mergeResourceVersion')) {
      return -1;
    }
    const explain = Object.hasOwn(options, 'explain') ? options.explain : undefined;
    if (explain !== undefined && typeof explain !== 'boolean') return -1;
    let index = -1;
    if (Object.hasOwn(options, 'preset')) {
      const preset = options.preset;
      if (preset !== undefined) {
        index = names.indexOf(preset);
        if (index < 0) return -1;
      }
    }
    return (index + 1) * 2 + (explain === false ? 0 : 1);
  } catch {
    return -1;
  }
}
