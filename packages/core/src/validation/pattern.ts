/**
 * `@pattern` matching. Smithy patterns are ECMAScript regular expressions
 * (with the `u` flag here) that match anywhere in the value unless they
 * anchor themselves. A backtracking engine can take exponential time on
 * patterns such as `^([0-9]+)+$` (the restJson1 ReDoS test), and the input
 * comes from untrusted clients, so patterns run on a Thompson NFA that is
 * linear in the input. The native engine runs the patterns that need
 * backtracking semantics (backreferences, lookaround) and, being faster,
 * those it provably runs in linear time too (see `backtrackSafe`).
 * `compilePattern` and `ecmaPatternSource` are public (fakes generate
 * values with them); the rest is internal.
 */
import { javaPatternAsEcma } from "./java-pattern.js";

/**
 * A `@pattern` as the source of a `u`-flag ECMAScript regex: the pattern
 * itself when it is one, else its rewrite from Java syntax (`\A`,
 * `\p{Print}`, `\_`, ...); undefined when it is neither, or when the
 * rewrite needs other flags (a leading `(?i)`).
 */
export function ecmaPatternSource(pattern: string): string | undefined {
  try {
    new RegExp(pattern, "u");
    return pattern;
  } catch {
    const java = javaPatternAsEcma(pattern);
    return java?.flags === "u" ? java.source : undefined;
  }
}

/** Tests a string against a compiled pattern. */
export type PatternTest = (value: string) => boolean;

/**
 * Compiles a `@pattern` into a test, as validation runs it: linear in the
 * input for untrusted values, matching anywhere unless anchored, Java
 * syntax rewritten (see {@link ecmaPatternSource}). Throws a SyntaxError
 * naming the pattern when it is no regex at all.
 */
export function compilePattern(pattern: string): PatternTest {
  let source = pattern;
  let native: RegExp;
  try {
    native = new RegExp(pattern, "u");
  } catch {
    // Models written for Java's engine use its syntax (`\A`, `\p{Print}`, `\-` outside a class): rewritten when it can be.
    const java = javaPatternAsEcma(pattern);
    if (java === undefined) {
      try {
        native = new RegExp(pattern);
      } catch (e) {
        throw new SyntaxError(`validate: invalid @pattern ${JSON.stringify(pattern)}: ${(e as Error).message}`);
      }
      return (value) => native.test(value);
    }
    native = new RegExp(java.source, java.flags);
    // A case-insensitive pattern stays on the native engine (the linear one has no flags).
    if (java.flags !== "u") return (value) => native.test(value);
    source = java.source;
  }
  let ast: Node;
  try {
    ast = new Parser(source).parse();
  } catch (e) {
    if (!(e instanceof Unsupported)) throw e;
    return (value) => native.test(value);
  }
  // The native engine is several times faster, and provably linear on these.
  if (backtrackSafe(ast)) {
    let linear: PatternTest | undefined;
    return (value) => {
      try {
        return native.test(value);
      } catch (e) {
        // Its backtrack stack can overflow on huge input (astral classes are alternations of surrogate pairs).
        if (!(e instanceof RangeError)) throw e;
        try {
          linear ??= compileNfa(ast);
        } catch {
          throw e;
        }
        return linear(value);
      }
    };
  }
  try {
    return compileNfa(ast);
  } catch (e) {
    if (!(e instanceof Unsupported)) throw e;
    return (value) => native.test(value);
  }
}

/** The most match attempts the bounded variable quantifiers of a {@link backtrackSafe} pattern may combine. */
const MAX_BOUNDED_CHOICES = 256;

/**
 * Whether a backtracking engine runs `ast` in time linear in the input (times
 * the pattern's size): anchored at the start (one start position), no
 * alternation, quantifiers only on single characters (classes, escapes, dot),
 * at most one unbounded quantifier and few combinations of the bounded ones
 * that are not fixed-count. Backtracking then revisits the one unbounded
 * quantifier's at most n+1 stops, each followed by a bounded amount of work.
 * `\b`/`\B` and a `^` anywhere but first are left to the linear engine.
 */
function backtrackSafe(ast: Node): boolean {
  const items = ast.t === "seq" ? ast.items : [ast];
  const first = items[0];
  if (first === undefined || first.t !== "assert" || first.kind !== Assertion.Start) return false;
  let unbounded = 0;
  let choices = 1;
  const visit = (node: Node, top: boolean): boolean => {
    switch (node.t) {
      case "char":
        return true;
      case "assert":
        return node.kind === Assertion.End || (top && node.kind === Assertion.Start);
      case "alt":
        return false;
      case "seq":
        return node.items.every((x) => visit(x, false));
      case "rep":
        if (node.node.t !== "char") return false;
        if (node.max === Infinity) return ++unbounded <= 1;
        choices *= node.max - node.min + 1;
        return choices <= MAX_BOUNDED_CHOICES;
    }
  };
  return visit(first, true) && items.slice(1).every((x) => visit(x, false));
}

class Unsupported extends Error {}

/** The linear engine alone, whatever the pattern (throws on one it does not support). For tests. */
export function compileLinearPattern(pattern: string): PatternTest {
  return compileNfa(new Parser(pattern).parse());
}

/** Whether a valid pattern runs on the native engine: when it is safe from catastrophic backtracking or needs backtracking semantics. For tests. */
export function usesNativeEngine(pattern: string): boolean {
  try {
    new RegExp(pattern, "u");
  } catch {
    return true;
  }
  try {
    return backtrackSafe(new Parser(pattern).parse());
  } catch (e) {
    if (!(e instanceof Unsupported)) throw e;
    return true;
  }
}

// ---------------------------------------------------------------- parsing

/** Matches one code point at index `i` of `s`, whose value is `cp`. */
type Pred = (cp: number, s: string, i: number) => boolean;

type Node =
  | { readonly t: "char"; readonly pred: Pred }
  | { readonly t: "seq"; readonly items: readonly Node[] }
  | { readonly t: "alt"; readonly alts: readonly Node[] }
  | { readonly t: "rep"; readonly node: Node; readonly min: number; readonly max: number }
  | { readonly t: "assert"; readonly kind: Assertion };

const enum Assertion {
  Start,
  End,
  WordBoundary,
  NotWordBoundary,
}

const MAX_STATES = 20_000;

function literal(c: number): Pred {
  return (cp) => cp === c;
}

/** A one-code-point atom (class, escape, dot) delegated to a sticky native regex, with an ASCII table. */
function nativeAtom(source: string): Pred {
  const re = new RegExp(source, "uy");
  const ascii = new Uint8Array(128);
  for (let c = 0; c < 128; c++) {
    re.lastIndex = 0;
    ascii[c] = re.test(String.fromCharCode(c)) ? 1 : 0;
  }
  return (cp, s, i) => {
    if (cp < 128) return ascii[cp] === 1;
    re.lastIndex = i;
    return re.test(s);
  };
}

class Parser {
  private i = 0;
  constructor(private readonly src: string) {}

  parse(): Node {
    const node = this.disjunction();
    if (this.i < this.src.length) throw new Unsupported();
    return node;
  }

  private peek(): string {
    return this.src[this.i] ?? "";
  }

  private disjunction(): Node {
    const alts = [this.alternative()];
    while (this.peek() === "|") {
      this.i++;
      alts.push(this.alternative());
    }
    return alts.length === 1 ? alts[0]! : { t: "alt", alts };
  }

  private alternative(): Node {
    const items: Node[] = [];
    for (;;) {
      const c = this.peek();
      if (c === "" || c === "|" || c === ")") break;
      const atom = this.term();
      items.push(this.quantified(atom));
    }
    return items.length === 1 ? items[0]! : { t: "seq", items };
  }

  private term(): Node {
    const src = this.src;
    const c = src[this.i]!;
    switch (c) {
      case "^":
        this.i++;
        return { t: "assert", kind: Assertion.Start };
      case "$":
        this.i++;
        return { t: "assert", kind: Assertion.End };
      case "(": {
        this.i++;
        if (src[this.i] === "?") {
          if (src[this.i + 1] === ":") this.i += 2;
          else if (src[this.i + 1] === "<" && src[this.i + 2] !== "=" && src[this.i + 2] !== "!") {
            const close = src.indexOf(">", this.i);
            if (close < 0) throw new Unsupported();
            this.i = close + 1;
          } else throw new Unsupported(); // lookaround, modifiers
        }
        const inner = this.disjunction();
        if (src[this.i] !== ")") throw new Unsupported();
        this.i++;
        return inner;
      }
      case ".":
        this.i++;
        return { t: "char", pred: nativeAtom(".") };
      case "[": {
        const start = this.i;
        let j = this.i + 1;
        if (src[j] === "^") j++;
        while (j < src.length && src[j] !== "]") j += src[j] === "\\" ? 2 : 1;
        if (j >= src.length) throw new Unsupported();
        this.i = j + 1;
        return { t: "char", pred: nativeAtom(src.slice(start, this.i)) };
      }
      case "\\":
        return this.escape();
      default: {
        const cp = src.codePointAt(this.i)!;
        this.i += cp > 0xffff ? 2 : 1;
        return { t: "char", pred: literal(cp) };
      }
    }
  }

  private escape(): Node {
    const src = this.src;
    const start = this.i;
    const c = src[this.i + 1] ?? "";
    let end = this.i + 2;
    if (c === "b" || c === "B") {
      this.i = end;
      return { t: "assert", kind: c === "b" ? Assertion.WordBoundary : Assertion.NotWordBoundary };
    }
    if (/[1-9k]/.test(c)) throw new Unsupported(); // backreferences
    if ((c === "p" || c === "P" || c === "u") && src[end] === "{") {
      const close = src.indexOf("}", end);
      if (close < 0) throw new Unsupported();
      end = close + 1;
    } else if (c === "u") {
      end += 4;
      // With the `u` flag an escaped surrogate pair is one code point.
      if (/^\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}/.test(src.slice(start, start + 12))) end += 6;
    } else if (c === "x") end += 2;
    else if (c === "c") end += 1;
    this.i = end;
    return { t: "char", pred: nativeAtom(src.slice(start, end)) };
  }

  private quantified(atom: Node): Node {
    const src = this.src;
    let min: number;
    let max: number;
    const c = this.peek();
    if (c === "*") [min, max] = [0, Infinity];
    else if (c === "+") [min, max] = [1, Infinity];
    else if (c === "?") [min, max] = [0, 1];
    else if (c === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(src.slice(this.i));
      if (!m) throw new Unsupported();
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3]);
      this.i += m[0].length - 1;
    } else return atom;
    this.i++;
    if (this.peek() === "?") this.i++; // laziness does not change whether a string matches
    if (atom.t === "assert") throw new Unsupported();
    return { t: "rep", node: atom, min, max };
  }
}

// ---------------------------------------------------------------- NFA

const enum Op {
  Char,
  Split,
  Assert,
  Match,
}

interface Program {
  op: Op[];
  pred: (Pred | undefined)[];
  out: number[];
  out1: number[];
  kind: Assertion[];
}

function emit(p: Program, op: Op, out: number, out1 = -1, pred?: Pred, kind = Assertion.Start): number {
  if (p.op.length >= MAX_STATES) throw new Unsupported();
  p.op.push(op);
  p.out.push(out);
  p.out1.push(out1);
  p.pred.push(pred);
  p.kind.push(kind);
  return p.op.length - 1;
}

/** Builds `node` so that it continues to state `next`; returns its start state. */
function build(p: Program, node: Node, next: number): number {
  switch (node.t) {
    case "char":
      return emit(p, Op.Char, next, -1, node.pred);
    case "assert":
      return emit(p, Op.Assert, next, -1, undefined, node.kind);
    case "seq": {
      let s = next;
      for (let k = node.items.length - 1; k >= 0; k--) s = build(p, node.items[k]!, s);
      return s;
    }
    case "alt": {
      let s = build(p, node.alts[node.alts.length - 1]!, next);
      for (let k = node.alts.length - 2; k >= 0; k--) s = emit(p, Op.Split, build(p, node.alts[k]!, next), s);
      return s;
    }
    case "rep": {
      let s = next;
      if (node.max === Infinity) {
        const loop = emit(p, Op.Split, -1, next);
        p.out[loop] = build(p, node.node, loop);
        s = loop;
      } else {
        // x{0,2} is (x(x)?)?: every optional copy may stop and continue to `next`.
        for (let k = node.min; k < node.max; k++) s = emit(p, Op.Split, build(p, node.node, s), next);
      }
      for (let k = 0; k < node.min; k++) s = build(p, node.node, s);
      return s;
    }
  }
}

const isWord = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;

function compileNfa(ast: Node): PatternTest {
  const p: Program = { op: [], pred: [], out: [], out1: [], kind: [] };
  const match = emit(p, Op.Match, -1);
  const start = build(p, ast, match);
  const n = p.op.length;
  const op = Int8Array.from(p.op);
  const out = Int32Array.from(p.out);
  const out1 = Int32Array.from(p.out1);
  const kind = Int8Array.from(p.kind);
  const pred = p.pred;
  if (!p.kind.some((k, s) => p.op[s] === Op.Assert && (k === Assertion.WordBoundary || k === Assertion.NotWordBoundary))) {
    return lazyDfa(op, out, out1, kind, pred, start);
  }
  // Work space, reused by every test (tests never re-enter).
  let clist = new Int32Array(n);
  let nlist = new Int32Array(n);
  const mark = new Int32Array(n);
  const stack = new Int32Array(n);
  let gen = 0;

  /** Adds `s` and its epsilon closure at index `i` to `list`; returns the new list length, or -1 on a match. */
  const add = (list: Int32Array, len: number, s0: number, str: string, i: number): number => {
    if (mark[s0] === gen) return len;
    mark[s0] = gen;
    let sp = 0;
    stack[sp++] = s0;
    while (sp > 0) {
      const s = stack[--sp]!;
      switch (op[s] as Op) {
        case Op.Match:
          return -1;
        case Op.Char:
          list[len++] = s;
          break;
        case Op.Split: {
          const a = out[s]!;
          const b = out1[s]!;
          if (mark[b] !== gen) {
            mark[b] = gen;
            stack[sp++] = b;
          }
          if (mark[a] !== gen) {
            mark[a] = gen;
            stack[sp++] = a;
          }
          break;
        }
        case Op.Assert: {
          let ok: boolean;
          switch (kind[s] as Assertion) {
            case Assertion.Start:
              ok = i === 0;
              break;
            case Assertion.End:
              ok = i === str.length;
              break;
            default: {
              const before = i > 0 && isWord(str.charCodeAt(i - 1));
              const after = i < str.length && isWord(str.charCodeAt(i));
              ok = (before !== after) === (kind[s] === Assertion.WordBoundary);
            }
          }
          const a = out[s]!;
          if (ok && mark[a] !== gen) {
            mark[a] = gen;
            stack[sp++] = a;
          }
          break;
        }
      }
    }
    return len;
  };

  return (str) => {
    if (gen > 0x3fffffff) {
      mark.fill(0);
      gen = 0;
    }
    gen++;
    let clen = 0;
    let i = 0;
    for (;;) {
      // Unanchored: a match may start at every position.
      clen = add(clist, clen, start, str, i);
      if (clen < 0) return true;
      if (i >= str.length) return false;
      const cp = str.codePointAt(i)!;
      const next = i + (cp > 0xffff ? 2 : 1);
      gen++;
      let nlen = 0;
      for (let k = 0; k < clen; k++) {
        const s = clist[k]!;
        if (pred[s]!(cp, str, i)) {
          nlen = add(nlist, nlen, out[s]!, str, next);
          if (nlen < 0) return true;
        }
      }
      const t = clist;
      clist = nlist;
      nlist = t;
      clen = nlen;
      i = next;
    }
  };
}

/** A DFA state: a set of NFA states, with its ASCII transitions filled in as they are first taken. */
interface DState {
  /** NFA states entered by the last character (plus the start state), sorted. */
  readonly kernel: Int32Array;
  /** Char states of the kernel's closure (not at the end of the input). */
  readonly chars: Int32Array;
  /** Whether the closure reaches the match state: the string matches already. */
  readonly matched: boolean;
  readonly ascii: (DState | undefined)[];
}

const MAX_DFA_STATES = 4096;

/**
 * The NFA run as a DFA built lazily (subset construction on demand), so an
 * ASCII character costs one table lookup once its transition is known. Only
 * for patterns without `\b`/`\B`, whose closures depend on neighbours.
 * `^` holds only in the initial state; `$` is decided once at the end.
 */
function lazyDfa(op: Int8Array, out: Int32Array, out1: Int32Array, kind: Int8Array, pred: readonly (Pred | undefined)[], start: number): PatternTest {
  const n = op.length;
  const mark = new Int32Array(n);
  const stack = new Int32Array(n);
  const kbuf = new Int32Array(n);
  const cbuf = new Int32Array(n);
  let gen = 0;
  let states = new Map<string, DState>();
  let initial: DState | undefined;

  const bump = (): void => {
    if (++gen > 0x3fffffff) {
      mark.fill(0);
      gen = 1;
    }
  };

  /** Closure of `kernel`: its char states in `cbuf` (count returned), or -1 when it reaches the match state. */
  const closure = (kernel: Int32Array, atStart: boolean, atEnd: boolean): number => {
    bump();
    let sp = 0;
    let count = 0;
    for (let k = 0; k < kernel.length; k++) {
      const s = kernel[k]!;
      if (mark[s] !== gen) {
        mark[s] = gen;
        stack[sp++] = s;
      }
    }
    while (sp > 0) {
      const s = stack[--sp]!;
      let a = -1;
      let b = -1;
      switch (op[s] as Op) {
        case Op.Match:
          return -1;
        case Op.Char:
          cbuf[count++] = s;
          break;
        case Op.Split:
          a = out[s]!;
          b = out1[s]!;
          break;
        case Op.Assert:
          if (kind[s] === Assertion.Start ? atStart : atEnd) a = out[s]!;
          break;
      }
      if (a >= 0 && mark[a] !== gen) {
        mark[a] = gen;
        stack[sp++] = a;
      }
      if (b >= 0 && mark[b] !== gen) {
        mark[b] = gen;
        stack[sp++] = b;
      }
    }
    return count;
  };

  const intern = (kernel: Int32Array, atStart: boolean): DState => {
    const key = (atStart ? "^" : "") + kernel.join(",");
    let d = states.get(key);
    if (d === undefined) {
      if (states.size >= MAX_DFA_STATES) {
        // Bound memory: drop the whole graph (the scan in progress keeps only its current state).
        states = new Map();
        initial = undefined;
      }
      const count = closure(kernel, atStart, false);
      d = { kernel, chars: count < 0 ? new Int32Array(0) : cbuf.slice(0, count), matched: count < 0, ascii: [] };
      states.set(key, d);
    }
    return d;
  };

  const next = (d: DState, cp: number, str: string, i: number): DState => {
    bump();
    let count = 0;
    const chars = d.chars;
    for (let k = 0; k < chars.length; k++) {
      const s = chars[k]!;
      if (pred[s]!(cp, str, i)) {
        const t = out[s]!;
        if (mark[t] !== gen) {
          mark[t] = gen;
          kbuf[count++] = t;
        }
      }
    }
    // Unanchored: a match may start at every position.
    if (mark[start] !== gen) kbuf[count++] = start;
    return intern(kbuf.slice(0, count).sort(), false);
  };

  return (str) => {
    let d = (initial ??= intern(Int32Array.of(start), true));
    if (d.matched) return true;
    const len = str.length;
    let i = 0;
    while (i < len) {
      const c = str.charCodeAt(i);
      if (c < 128) {
        let e = d.ascii[c];
        if (e === undefined) d.ascii[c] = e = next(d, c, str, i);
        d = e;
        i++;
      } else {
        const cp = str.codePointAt(i)!;
        d = next(d, cp, str, i);
        i += cp > 0xffff ? 2 : 1;
      }
      if (d.matched) return true;
    }
    return closure(d.kernel, len === 0, true) < 0;
  };
}
