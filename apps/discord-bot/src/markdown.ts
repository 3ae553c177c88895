/**
 * Discord renders standard Markdown itself, so core's text goes out as it is.
 * Pings in it (`@everyone`, `<@id>`) are harmless: every message is sent with
 * mention parsing off (see client.ts), which beats escaping the text.
 */
export function formatMarkdown(markdown: string): string {
  return markdown;
}
