/**
 * Rewrites a ROM dump into formatting variants that canonicalization must see as the same
 * document (AIKernel.NET docs/specs/03.ROM_CORE_SPEC.md §4, AC1): bullets, headings,
 * artifacts and front-matter keys shuffled; structural lines re-indented, padded, ended
 * with CRLF, with `-` bullets and renumbered headings. Fenced content is never touched:
 * it is an artifact's exact bytes, a value.
 */
interface Artifact {
  heading: string;
  bullets: string[];
  block: string[];
}
interface Section {
  heading: string;
  bullets: string[];
  artifacts: Artifact[];
}
export interface RomDoc {
  front: string[];
  sections: Section[];
}

export interface Noise {
  /** Seed of the shuffles (none without it). */
  shuffle?: number;
  indent?: boolean;
  number?: boolean;
  crlf?: boolean;
  dash?: boolean;
  blankLines?: boolean;
}

export function parseRomDoc(text: string): RomDoc {
  const lines = text.split('\n');
  const end = lines.indexOf('---', 1);
  const doc: RomDoc = { front: lines.slice(1, end), sections: [] };
  let section: Section | null = null;
  let artifact: Artifact | null = null;
  for (let i = end + 1; i < lines.length; i++) {
    const l = lines[i]!;
    if (l === '') continue;
    if (l.startsWith('# ')) doc.sections.push((section = { heading: l.slice(2), bullets: [], artifacts: [] }));
    else if (l.startsWith('## ')) section!.artifacts.push((artifact = { heading: l.slice(3), bullets: [], block: [] }));
    else if (l.startsWith('* ')) (artifact ?? section!).bullets.push(l.slice(2));
    else if (l.startsWith('```')) {
      const fence = /^`+/.exec(l)![0];
      let j = i + 1;
      while (lines[j] !== fence) j++;
      artifact!.block = lines.slice(i, j + 1);
      artifact = null;
      i = j;
    } else throw new Error(`unexpected line ${l}`);
  }
  return doc;
}

/** A small deterministic generator (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<T>(xs: readonly T[], r: (() => number) | null): T[] {
  const out = [...xs];
  if (!r) return out;
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  // A shuffle that changed nothing is rotated, so every variant really moves something.
  if (out.length > 1 && out.every((x, i) => x === xs[i])) out.push(out.shift()!);
  return out;
}

export function emitRomDoc(doc: RomDoc, n: Noise = {}): string {
  const r = n.shuffle !== undefined ? rng(n.shuffle) : null;
  const pad = (i: number) => (n.indent ? [' ', '\t', '   ', '  \t'][i % 4]! : '');
  const tail = (i: number) => (n.indent ? ['  ', '\t', ' '][i % 3]! : '');
  const eol = n.crlf ? '\r\n' : '\n';
  const out: string[] = [];
  let k = 0;
  const line = (s: string) => out.push(pad(k) + s + tail(k++) + eol);
  const bullet = (b: string) => {
    const m = /^\[([^\]]+)\]: (.*)$/.exec(b)!;
    line(`${n.dash ? '-' : '*'}${n.indent ? '   ' : ' '}[${m[1]}]${n.indent ? ' :  ' : ': '}${m[2]}`);
  };
  out.push('---' + eol);
  for (const f of shuffled(doc.front, r)) line(f.replace(': ', n.indent ? ':   ' : ': '));
  out.push('---' + eol);
  shuffled(doc.sections, r).forEach((s, si) => {
    if (n.blankLines) out.push(eol, '  ' + eol);
    line(`#${n.indent ? '   ' : ' '}${n.number ? `${si + 1}. ` : ''}${s.heading}`);
    shuffled(s.bullets, r).forEach(bullet);
    shuffled(s.artifacts, r).forEach((a, ai) => {
      line(`##${n.indent ? '  ' : ' '}${n.number ? `${si + 1}.${ai + 1} ` : ''}${a.heading}`);
      a.bullets.forEach(bullet);
      // The fence lines may be indented; the content between them is kept byte for byte.
      const [open, ...rest] = a.block;
      const close = rest.pop()!;
      line(open!);
      for (const c of rest) out.push(c + '\n');
      line(close);
    });
  });
  return out.join('');
}
