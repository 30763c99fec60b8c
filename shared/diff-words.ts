/**
 * Where a long string's change starts, in words: one wording for the terminal (`reprise
 * diff`), the diff's HTML page and the window's Compare view. The span's prefix is a count
 * of characters left unchanged, not a place: "changed from 0" read as a number with no unit,
 * and a count said as a place ("from character 12") leaves open whether the first is 0 or 1.
 */
export function spanStartWords(prefix: number): string {
  if (prefix <= 0) return 'changed from the start';
  if (prefix === 1) return 'changed after the first character';
  return `changed after the first ${prefix.toLocaleString('en')} characters`;
}
