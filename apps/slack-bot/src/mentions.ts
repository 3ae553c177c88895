/**
 * Slack message text -> the plain text core works with: this bot's mention
 * removed, other people's mentions as `@name`, channel and special mentions
 * and links readable, Slack's `&amp;` `&lt;` `&gt;` escapes undone.
 */

const ENTITY = /<([@#!])([^>|]+)(?:\|([^>]*))?>|<([^>|]+)(?:\|([^>]*))?>/g;

/** User IDs mentioned in `text` (`<@U123>` or `<@U123|name>`). */
export function mentionedUserIds(text: string): string[] {
  return [...text.matchAll(/<@([A-Z0-9]+)(?:\|[^>]*)?>/g)].flatMap((match) =>
    match[1] === undefined ? [] : [match[1]],
  );
}

function unescapeEntities(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/**
 * `names` maps user IDs to display names (unknown IDs stay as their ID).
 * Whitespace left where the bot's mention was is collapsed.
 */
export function plainText(text: string, botUserId: string, names: ReadonlyMap<string, string>): string {
  const replaced = text.replace(
    ENTITY,
    (
      _match,
      sigil: string | undefined,
      id: string | undefined,
      label: string | undefined,
      url: string | undefined,
      urlLabel: string | undefined,
    ) => {
      if (sigil === '@') return id === botUserId ? '' : `@${label ?? names.get(id ?? '') ?? id}`;
      if (sigil === '#') return `#${label ?? id}`;
      if (sigil === '!') {
        const special = (id ?? '').split('^')[0] ?? '';
        return label ?? `@${special}`;
      }
      if (url === undefined) return '';
      return urlLabel === undefined || urlLabel === url ? url : `${urlLabel} (${url})`;
    },
  );
  return unescapeEntities(replaced)
    .replace(/[ \t]{2,}/g, ' ')
    .replace(/ +\n/g, '\n')
    .replace(/\n +/g, '\n')
    .trim();
}
