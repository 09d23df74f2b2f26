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
        if (x === y && typeof x === 'string') {
          this.left -= x.length;
          continue;
        }
        if (x === y && typeof x === 'boolean') continue;
        if (!this.equal(x, y, level + 1)) return false;
      }
      return true;
    }
    if (!isPlain(a) || !isPlain(b)) return false;
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
      if (x === y && typeof x === 'string') {
        this.left -= x.length;
        continue;
      }
      if (x === y && typeof x === 'boolean') continue;
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
    let outA = null;
    let outB = null;
    const keysA = Object.keys(a);
    let aligned = true;
    let n = 0;
    for (const key in b) {
      if (n >= keysA.length || keysA[n] !== key) {
        aligned = false;
        break;
      }
      n++;
    }
    aligned &&= n === keysA.length;
    for (let i = 0; i < keysA.length; i++) {
      const key = keysA[i];
      const va = a[key];
      if (!aligned && !Object.hasOwn(b, key)) {
        outA ??= {};
        outB ??= {};
        put(outA, key, va);
        continue;
      }
      const vb = b[key];
      if (va === vb && typeof va === 'string') {
        this.left -= va.length;
        continue;
      }
      if (va === vb && (typeof va === 'boolean' || typeof va === 'object')) continue;
      if (level + 1 < this.depth && isPlain(va) && isPlain(vb)) {
        path.push(key);
        const inner = this.prune(va, vb, level + 1, path, declared);
        if (inner !== null) {
          const whole = declared(pointer(path));
          outA ??= {};
          outB ??= {};
          put(outA, key, whole ? va : inner[0]);
          put(outB, key, whole ? vb : inner[1]);
        }
        path.pop();
      } else if (!this.equal(va, vb, level + 1)) {
        outA ??= {};
        outB ??= {};
        put(outA, key, va);
        put(outB, key, vb);
      }
    }
    if (!aligned) {
      const keysB = Object.keys(b);
      for (let i = 0; i < keysB.length; i++) {
        const key = keysB[i];
        if (!Object.hasOwn(a, key)) {
          outA ??= {};
          outB ??= {};
          put(outB, key, b[key]);
        }
      }
    }
    return outA === null ? null : [outA, outB];
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
 * or why not: null when `old` or `new` is not a plain object,
 * `'too-deep'`, `'too-large'`, or `[pointer, what, side]` for a value JSON
 * cannot carry (see `inexact`). `declared(pointer)` is asked once per
 * pointer for the options numbered `id` (0: options used once, not
 * remembered).
 */
export function pruneText(old, neu, declared, depth, budget, id) {
  if (!isPlain(old) || !isPlain(neu)) return null;
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
