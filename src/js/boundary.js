// The JavaScript side of the module's boundary (used by src/js/boundary.rs;
// wasm-bindgen copies this file into the package as a snippet). Walking a
// JS value costs far less here than crossing into WebAssembly value by
// value, and every read of a caller's value happens here, inside a
// try/catch: a getter or a Proxy trap that throws is the caller's mistake,
// reported with its place, and never unwinds through the module. The
// walks:
//
// - `inexact`: before a value is written as JSON text, the first place
//   where JSON.stringify would change it silently (NaN, Infinity,
//   undefined, a function or a symbol become null or vanish; a Map, a Set
//   or a typed array become an object of something else), a BigInt (which
//   it refuses), a member that cannot be read (a getter or a Proxy trap
//   throws), a cycle, and whether it is too deep or too large to be read
//   at all (checked before the text is built: a shared subtree repeated
//   many times would make the text huge).
// - `pruneText`: for a diff, the JSON text of the two objects without the
//   members that are equal on both sides, where the diff walks member by
//   member (it skips equal members there, so leaving them out changes
//   nothing it computes).
// - `ownOptions`, `stringList`, `stringMap`: an options object's own
//   values, read once, lists and maps copied (duplicates removed) so the
//   module reads only arrays this file made.
//
// The walks recurse at most `depth` levels (crate::limits::DEPTH) and visit
// at most `budget` characters' worth of values (crate::limits::OBJECT_BYTES:
// every value and key adds its length, or 1, to what its JSON text would
// hold), so a cyclic or absurdly shared value ends them early.

const TOO_DEEP = 'too-deep';
const TOO_LARGE = 'too-large';

/** What a place holds (the second item of a walk's finding). */
const INEXACT = 'inexact'; // a value JSON.stringify writes as null or leaves out
const OBJECT = 'object'; // an object JSON.stringify writes as something else
const UNREADABLE = 'unreadable'; // reading it threw (a getter, a Proxy)
const CYCLE = 'cycle'; // an object that holds itself

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

/** Built-in objects JSON.stringify writes as something else than they hold. */
const ODD = new Set([
  'Map', 'Set', 'WeakMap', 'WeakSet', 'WeakRef', 'ArrayBuffer', 'SharedArrayBuffer', 'DataView',
  'Promise', 'RegExp', 'Error', 'BigInt', 'Symbol', 'Int8Array', 'Uint8Array', 'Uint8ClampedArray',
  'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array', 'Float16Array', 'Float32Array',
  'Float64Array', 'BigInt64Array', 'BigUint64Array',
]);

/**
 * `a Map`, `a Uint8Array`, ... for an object JSON.stringify would not
 * write as what it holds (a Map as `{}`, a typed array as an object of its
 * indices), else null. Only objects that are not plain are asked.
 */
function oddObject(v) {
  const tag = Object.prototype.toString.call(v).slice(8, -1);
  return ODD.has(tag) ? `a ${tag}` : null;
}

/** The message of a thrown value. */
function messageOf(error) {
  try {
    if (error instanceof Error) return `${error.name}: ${error.message}`;
    return String(error);
  } catch {
    return 'a value that cannot be shown';
  }
}

/**
 * What `v` is, in words, for a message: `null`, `an array`, `a Map`,
 * `a number`, `an object`, ... (never throws: a revoked Proxy is `a
 * revoked Proxy`).
 */
export function describe(v) {
  if (v === null) return 'null';
  const type = typeof v;
  if (type === 'undefined') return 'undefined';
  if (type !== 'object') return type === 'bigint' ? 'a BigInt' : `a ${type}`;
  try {
    if (Array.isArray(v)) return 'an array';
    return oddObject(v) ?? 'an object';
  } catch {
    return 'a revoked Proxy';
  }
}

/**
 * True for an object whose JSON is its members (not null, an array, a
 * Map, a typed array...); a string saying what it is otherwise (see
 * `describe`).
 */
export function isRecord(v) {
  if (v === null || typeof v !== 'object') return describe(v);
  try {
    if (Array.isArray(v)) return 'an array';
  } catch {
    return 'a revoked Proxy';
  }
  try {
    return v.constructor === Object || oddObject(v) === null ? true : describe(v);
  } catch {
    // A Proxy or a getter that throws: an object whose reader names the
    // place and what it threw.
    return true;
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
   * The first place under `v` that JSON text would not carry exactly, as
   * [tokens leaf first, what it holds (INEXACT, OBJECT, UNREADABLE), the
   * words for it], or a verdict string (TOO_DEEP, TOO_LARGE), or null.
   */
  find(v, level) {
    const leaf = inexactLeaf(v);
    if (leaf !== null) return [[], INEXACT, leaf];
    if (typeof v === 'string') {
      this.left -= v.length + 2;
      return this.left < 0 ? TOO_LARGE : null;
    }
    if (--this.left < 0) return TOO_LARGE;
    if (v === null || typeof v !== 'object') return null;
    if (level >= this.depth) return TOO_DEEP;
    let keys;
    try {
      if (Array.isArray(v)) return this.items(v, level);
      if (v.constructor !== Object) {
        if (typeof v.toJSON === 'function') return this.find(v.toJSON(''), level + 1);
        if (v instanceof Number) return this.find(Number(v), level);
        const odd = oddObject(v);
        if (odd !== null) return [[], OBJECT, odd];
      }
      keys = Object.keys(v);
    } catch (error) {
      return [[], UNREADABLE, messageOf(error)];
    }
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      this.left -= key.length + 3;
      let member;
      try {
        member = v[key];
      } catch (error) {
        return [[key], UNREADABLE, messageOf(error)];
      }
      const found = this.find(member, level + 1);
      if (found !== null) {
        if (typeof found !== 'string') found[0].push(key);
        return found;
      }
    }
    return null;
  }

  /** `find` over an array's items. */
  items(v, level) {
    const n = v.length;
    for (let i = 0; i < n; i++) {
      let item;
      try {
        item = v[i];
      } catch (error) {
        return [[i], UNREADABLE, messageOf(error)];
      }
      const found = this.find(item, level + 1);
      if (found !== null) {
        if (typeof found !== 'string') found[0].push(i);
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
      // The same plain object or array on both sides: equal, and not read
      // at all (as applyPatch never reads what a patch does not touch).
      // Anything else (a Map, a Date) is kept and checked on its way out.
      if (type === 'object') return a.constructor === Object || Array.isArray(a);
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
 * Where `value` holds itself: [the pointer of the member that refers back,
 * the pointer of the object it refers to], or null. Asked only when a walk
 * found `value` deeper than `depth` (a cycle looks like that to it).
 */
function findCycle(value, depth) {
  const open = new Map();
  const tokens = [];
  const visit = (v, level) => {
    if (v === null || typeof v !== 'object' || level > depth) return null;
    if (open.has(v)) return [pointer(tokens), pointer(tokens.slice(0, open.get(v)))];
    open.set(v, tokens.length);
    try {
      const keys = Array.isArray(v) ? [...v.keys()] : Object.keys(v);
      for (const key of keys) {
        tokens.push(key);
        const found = visit(v[key], level + 1);
        tokens.pop();
        if (found !== null) return found;
      }
    } catch {
      // Unreadable: the walk itself reports it.
    }
    open.delete(v);
    return null;
  };
  return visit(value, 0);
}

/**
 * The first place in `value` that JSON text would not carry exactly:
 * `[pointer, what, words]` (what: INEXACT, OBJECT, UNREADABLE or CYCLE;
 * words: `NaN`, `a Map`, the error thrown, the pointer a cycle refers back
 * to), `'too-deep'`, `'too-large'`, or null when the value is exact.
 */
export function inexact(value, depth, budget) {
  const found = new Walk(depth, budget).find(value, 0);
  if (found === TOO_DEEP) {
    const cycle = findCycle(value, depth);
    return cycle === null ? found : [cycle[0], CYCLE, cycle[1]];
  }
  if (found === null || typeof found === 'string') return found;
  return [pointer(found[0].reverse()), found[1], found[2]];
}

/**
 * A shallow copy of a record's own enumerable members (getters read
 * once); or, when reading threw, `[key, message]` (key null when the keys
 * themselves could not be listed).
 */
export function copyOwn(record) {
  const out = {};
  let keys;
  try {
    keys = Object.keys(record);
  } catch (error) {
    return [null, messageOf(error)];
  }
  for (const key of keys) {
    try {
      put(out, key, record[key]);
    } catch (error) {
      return [key, messageOf(error)];
    }
  }
  return out;
}

/** The own member `key` of `record`, or undefined when it has none. */
export function readOwn(record, key) {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** Per list of known option names (joined by commas), the names as a Set. */
const knownSets = new Map();

/**
 * The own values of an options object, read in one crossing: an array
 * holding, for each name of `known` (the names joined by commas), the
 * option's own value or undefined; or the first own key that is not in
 * `known` (a string); or `{ key, error }` when reading an option threw
 * (a getter; `key` null when the keys themselves could not be read); or
 * `{ found }` when `options` is not a plain object (a Map, an array, a
 * typed array...: `found` says what it is).
 */
export function ownOptions(options, known) {
  let names = knownSets.get(known);
  if (names === undefined) {
    names = known.split(',');
    knownSets.set(known, names);
  }
  const record = isRecord(options);
  if (record !== true) return { found: record };
  let keys;
  try {
    keys = Object.keys(options);
  } catch (error) {
    return { key: null, error: messageOf(error) };
  }
  for (let i = 0; i < keys.length; i++) {
    if (!names.includes(keys[i])) return keys[i];
  }
  const values = new Array(names.length);
  for (let i = 0; i < names.length; i++) {
    const key = names[i];
    try {
      if (Object.hasOwn(options, key)) values[i] = options[key];
    } catch (error) {
      return { key, error: messageOf(error) };
    }
  }
  return values;
}

/**
 * A list option's strings, duplicates removed (first places kept): a new
 * array of at most `max` strings, each at most `maxText` long; or why not:
 * `{ found }` (not an array: what it is), `{ index, found }` (an item that
 * is not a string), `{ index, length }` (an item too long), `{ distinct }`
 * (more than `max` different strings: how many were seen before stopping),
 * `{ index, error }` (an item could not be read; index -1: the list).
 */
export function stringList(list, max, maxText) {
  let n;
  try {
    if (!Array.isArray(list)) return { found: describe(list) };
    n = list.length;
  } catch (error) {
    return { index: -1, error: messageOf(error) };
  }
  const seen = new Set();
  for (let i = 0; i < n; i++) {
    let item;
    try {
      item = list[i];
    } catch (error) {
      return { index: i, error: messageOf(error) };
    }
    if (typeof item !== 'string') return { index: i, found: describe(item) };
    if (item.length > maxText) return { index: i, length: item.length };
    seen.add(item);
    if (seen.size > max) return { distinct: seen.size };
  }
  return [...seen];
}

/**
 * A map option (a plain object of strings) as [key, value, key, value...],
 * at most `max` entries, each text at most `maxText` long; or why not, as
 * `stringList` says (`{ key, ... }` in place of `index`, `{ count }` for
 * too many entries).
 */
export function stringMap(map, max, maxText) {
  const record = isRecord(map);
  if (record !== true) return { found: record };
  let keys;
  try {
    keys = Object.keys(map);
  } catch (error) {
    return { key: null, error: messageOf(error) };
  }
  if (keys.length > max) return { count: keys.length };
  const out = [];
  for (const key of keys) {
    if (key.length > maxText) return { key: key.slice(0, 64), length: key.length };
    let value;
    try {
      value = map[key];
    } catch (error) {
      return { key, error: messageOf(error) };
    }
    if (typeof value !== 'string') return { key, found: describe(value) };
    if (value.length > maxText) return { key, length: value.length };
    out.push(key, value);
  }
  return out;
}

/** Per options id, what `declared` said of each pointer (see pruneText). */
const memos = new Map();
const MEMO_SIZE = 10000;

/**
 * The JSON text of two plain objects without the members equal on both
 * sides at every object the diff walks member by member (see
 * `Walk.prune`), old and new joined by a newline (JSON text holds none);
 * or why not: null when `old` or `new` is not a plain object, when
 * `Object.prototype` has an enumerable member (pollution), or when reading
 * them threw (the caller then reads them whole, as JSON.stringify writes
 * them, and its walk names the place), `'too-deep'`, `'too-large'`, or
 * `[pointer, what, words, side]` for a place JSON cannot carry (see
 * `inexact`). `declared(pointer)` is asked once per pointer for the
 * options numbered `id` (0: options used once, not remembered).
 */
export function pruneText(old, neu, declared, depth, budget, id) {
  let pruned;
  const walk = new Walk(depth, budget);
  try {
    if (!isPlain(old) || !isOwnPlain(neu) || polluted()) return null;
    pruned = walk.prune(old, neu, 0, [], remembered(declared, id)) ?? [{}, {}];
  } catch (error) {
    if (error instanceof WebAssembly.RuntimeError) throw error;
    return null;
  }
  if (walk.left < 0) return TOO_LARGE;
  const [a, b] = pruned;
  let found = inexact(a, depth, budget);
  let side = 'old';
  if (found === null) {
    found = inexact(b, depth, budget);
    side = 'new';
  }
  if (found === null) return `${JSON.stringify(a)}\n${JSON.stringify(b)}`;
  if (typeof found === 'string') return found;
  if (found[1] === CYCLE) {
    // The pruned copy's root is not the caller's: a cycle through the
    // root is named in the caller's object.
    const cycle = findCycle(side === 'old' ? old : neu, depth);
    if (cycle !== null) found = [cycle[0], CYCLE, cycle[1]];
  }
  found.push(side);
  return found;
}

/** `declared`, its answers remembered per options `id` (0: not remembered). */
function remembered(declared, id) {
  if (id === 0) return declared;
  let memo = memos.get(id);
  if (memo === undefined || memo.size > MEMO_SIZE) {
    memo = new Map();
    memos.set(id, memo);
  }
  return (at) => {
    let whole = memo.get(at);
    if (whole === undefined) {
      whole = declared(at);
      memo.set(at, whole);
    }
    return whole;
  };
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
  if (isRecord(options) !== true) return -1;
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
