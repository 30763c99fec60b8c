// The one formatter (issue 30): Prettier, checked by `npm run lint` (prettier --check).
// printWidth 120 suits this code: long signatures and finding messages read better on one
// line than folded at 80. Prettier never breaks a string or a template literal, so the lines
// left over 120 are those: finding messages, URLs and test vectors, which must stay whole
// to be searched for and compared byte for byte.
/** @type {import('prettier').Config} */
export default {
  printWidth: 120,
  singleQuote: true,
  trailingComma: 'all',
  arrowParens: 'always',
};
