/** Static markup (react-dom/server) as the text a reader sees: tags dropped, the entities React writes read back. */
export const textOf = (html: string): string =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
