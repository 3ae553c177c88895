/**
 * Standard Markdown as plain text for a field Slack shows as written (a
 * stream task's title): emphasis, strikethrough and code-span marks go, the
 * words stay, on one line. Marks inside words (`snake_case`, `2*3*4`) stay.
 */
export function plainTitle(markdown: string): string {
  return markdown
    .replace(/\s+/g, ' ')
    .replace(/(`+)(?!`)(.+?)(?<!`)\1(?!`)/g, '$2')
    .replace(/(^|[^\w*])\*\*(?!\s)(.+?)(?<!\s)\*\*(?![\w*])/g, '$1$2')
    .replace(/(^|[^\w_])__(?!\s)(.+?)(?<!\s)__(?![\w_])/g, '$1$2')
    .replace(/(^|[^\w*])\*(?![\s*])(.+?)(?<![\s*])\*(?![\w*])/g, '$1$2')
    .replace(/(^|[^\w_])_(?![\s_])(.+?)(?<![\s_])_(?![\w_])/g, '$1$2')
    .replace(/~~(?!\s)(.+?)(?<!\s)~~/g, '$1')
    .trim();
}
