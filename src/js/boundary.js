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
// - `prune`: for a diff, the two objects without the members that are
//   equal on both sides, where the diff walks member by member (it skips
//   equal members there, so removing them changes nothing it computes).
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
    out += '/' + String(tokens[i]).replace(/~/g, '~0').replace(/\//g, '~1');
  }
  return out;
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
   * exactly (so a member holding them on both sides may be left out).
   * Anything else (NaN, undefined, a Date, a class instance, too deep or
   * over budget) is "not equal": it stays and is checked on its way out.
   */
  equal(a, b, level) {
    if (typeof a === 'string') {
      this.left -= a.length;
      return a === b;
    }
    if (typeof a === 'number') return a === b && Number.isFinite(a);
    if (a === null || typeof a === 'boolean') return a === b;
    if (typeof a !== 'object' || typeof b !== 'object' || b === null) return false;
    if (--this.left < 0 || level >= this.depth) return false;
    if (Array.isArray(a)) {
      if (!Array.isArray(b) || a.length !== b.length) return false;
      for (let i = 0; i < a.length; i++) {
        if (!this.equal(a[i], b[i], level + 1)) return false;
      }
      return true;
    }
    if (!isPlain(a) || !isPlain(b) || Array.isArray(b)) return false;
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      if (!Object.hasOwn(b, key) || !this.equal(a[key], b[key], level + 1)) return false;
    }
    return true;
  }

  /**
   * Two plain objects without the members equal on both sides: null when
   * every member is, else [a', b'] (new objects with no prototype, so that
   * any key, `__proto__` included, is an own member). A member holding
   * objects on both sides is pruned in turn unless `declared(pointer)`
   * says the diff patches it as one unit (then it stays whole).
   */
  prune(a, b, level, path, declared) {
    const outA = Object.create(null);
    const outB = Object.create(null);
    let changed = false;
    const keysA = Object.keys(a);
    for (let i = 0; i < keysA.length; i++) {
      const key = keysA[i];
      const va = a[key];
      if (!Object.hasOwn(b, key)) {
        outA[key] = va;
        changed = true;
        continue;
      }
      const vb = b[key];
      if (level + 1 < this.depth && isPlain(va) && isPlain(vb)) {
        path.push(key);
        const inner = this.prune(va, vb, level + 1, path, declared);
        if (inner !== null) {
          const whole = declared(pointer(path));
          outA[key] = whole ? va : inner[0];
          outB[key] = whole ? vb : inner[1];
          changed = true;
        }
        path.pop();
      } else if (!this.equal(va, vb, level + 1)) {
        outA[key] = va;
        outB[key] = vb;
        changed = true;
      }
    }
    const keysB = Object.keys(b);
    for (let i = 0; i < keysB.length; i++) {
      const key = keysB[i];
      if (!Object.hasOwn(a, key)) {
        outB[key] = b[key];
        changed = true;
      }
    }
    return changed ? [outA, outB] : null;
  }
}

/** An object JSON writes member by member: a plain object, not an array. */
function isPlain(v) {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
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

/**
 * `[old', new']`: two plain objects without the members equal on both
 * sides at every object the diff walks member by member (see
 * `Walk.prune`); `'too-large'` when the walk ran over its budget; null
 * when `old` or `new` is not a plain object. The members kept are the
 * caller's own values (check them with `inexact`).
 */
export function prune(old, neu, declared, depth, budget) {
  if (!isPlain(old) || !isPlain(neu)) return null;
  const walk = new Walk(depth, budget);
  const out = walk.prune(old, neu, 0, [], declared);
  if (walk.left < 0) return TOO_LARGE;
  return out ?? [{}, {}];
}
