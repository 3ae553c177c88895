/**
 * Standard Markdown (what the models write) -> Slack mrkdwn (what `text` of
 * chat.postMessage / chat.update renders). Slack has no headings, `**bold**`
 * or `[label](url)`, and treats `&`, `<`, `>` as control characters, so prose
 * is rewritten line by line; code blocks and code spans stay as written.
 */

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const CODE_SPAN = /(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g;
const AUTOLINK = /<(https?:\/\/[^\s<>]+|mailto:[^\s<>]+)>/g;
const IMAGE_OR_LINK = /!?\[([^\]\n]*)\]\(\s*<?([^\s)<>]+)>?(?:\s+"[^"]*")?\s*\)/g;
const HEADING = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/;
const BULLET = /^(\s*)[*+](\s+)/;
const QUOTE = /^( {0,3})>\s?/;

// Private-use characters never typed by a model: placeholders for protected text and bold markers.
const SLOT = '\uE000';
const BOLD = '\uE001';

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Slack link label: `|` and `>` would end it early. */
function linkLabel(label: string): string {
  return escapeText(label.replace(/\|/g, '¦'));
}

function emphasis(text: string): string {
  return (
    text
      .replace(/\*\*(?!\s)([^\n]+?)(?<!\s)\*\*/g, `${BOLD}$1${BOLD}`)
      .replace(/(^|[^\w_])__(?!\s)([^\n]+?)(?<!\s)__(?![\w_])/g, `$1${BOLD}$2${BOLD}`)
      .replace(/(^|[^*\w])\*(?![\s*])([^*\n]+?)(?<![\s*])\*(?![*\w])/g, '$1_$2_')
      .replace(/~~(?!\s)([^\n]+?)(?<!\s)~~/g, '~$1~')
      // Slack's bold is a single asterisk.
      .replaceAll(BOLD, '*')
  );
}

/** One line of prose (no code fence around it). */
function formatLine(line: string): string {
  const slots: string[] = [];
  const keep = (formatted: string): string => `${SLOT}${slots.push(formatted) - 1}${SLOT}`;

  let text = line
    .replace(CODE_SPAN, (span) => keep(span))
    .replace(AUTOLINK, (_m, url: string) => keep(`<${escapeText(url)}>`))
    .replace(IMAGE_OR_LINK, (_m, label: string, url: string) =>
      keep(label.trim() === '' ? `<${escapeText(url)}>` : `<${escapeText(url)}|${linkLabel(label)}>`),
    );

  // A quote's `>` is markup, not text to escape.
  let prefix = '';
  const quote = QUOTE.exec(text);
  if (quote !== null) {
    prefix = '> ';
    text = text.slice(quote[0].length);
  }
  const bullet = BULLET.exec(text);
  if (bullet !== null) {
    // `* item` would read as emphasis; Slack shows `-` lists as typed.
    prefix += `${bullet[1] ?? ''}-${bullet[2] ?? ' '}`;
    text = text.slice(bullet[0].length);
  }
  const heading = HEADING.exec(text);
  text = escapeText(text);
  if (heading !== null) {
    const title = escapeText(heading[1] ?? '').replace(/\*\*|__/g, '');
    text = title === '' ? '' : `*${title}*`;
  } else {
    text = emphasis(text);
  }
  const restored = text.replace(
    new RegExp(`${SLOT}(\\d+)${SLOT}`, 'g'),
    (_m, index: string) => slots[Number(index)] ?? '',
  );
  return prefix + restored;
}

export function toMrkdwn(markdown: string): string {
  const out: string[] = [];
  let fence: { char: string; length: number } | undefined;
  for (const line of markdown.split('\n')) {
    const marker = FENCE.exec(line)?.[1];
    if (fence !== undefined) {
      out.push(line);
      const closes =
        marker !== undefined && marker[0] === fence.char && marker.length >= fence.length && line.trim() === marker;
      if (closes) fence = undefined;
      continue;
    }
    if (marker !== undefined) {
      fence = { char: marker[0] ?? '`', length: marker.length };
      out.push(line);
      continue;
    }
    out.push(formatLine(line));
  }
  return out.join('\n');
}
