// Small, safe renderers for the two chat dialects: they build Preact nodes, never HTML strings.
import { h } from 'preact';

const SAFE_URL = /^https?:\/\//i;

function link(href, label, key) {
  if (!SAFE_URL.test(href)) return label;
  return h('a', { key, href, target: '_blank', rel: 'noopener noreferrer' }, label);
}

function decodeSlackEntities(text) {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** Splits ``` fences from the rest; `inline` renders the text between them. */
function blocks(text, inline) {
  const out = [];
  const parts = text.split(/```/);
  parts.forEach((part, index) => {
    if (index % 2 === 1 && index < parts.length - 1) {
      // A fenced block: drop a language tag on its first line (```ts).
      const body = part.replace(/^[a-z0-9+#-]*\n/i, '').replace(/\n$/, '');
      out.push(h('pre', { key: `pre${index}`, class: 'code-block' }, h('code', null, body)));
    } else {
      const body = index % 2 === 1 ? `\`\`\`${part}` : part;
      out.push(...inline(body, `t${index}`));
    }
  });
  return out;
}

function matchAll(text, pattern, onToken, onText, keyPrefix) {
  const out = [];
  let last = 0;
  let n = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) out.push(onText(text.slice(last, match.index)));
    out.push(onToken(match, `${keyPrefix}-${n++}`));
    last = match.index + match[0].length;
  }
  if (last < text.length) out.push(onText(text.slice(last)));
  return out;
}

const SLACK_INLINE = /`([^`\n]+)`|<([^>\s][^>]*)>|\*([^*\n]+)\*|_([^_\n]+)_|~([^~\n]+)~/g;

function slackInline(text, key, ctx) {
  return matchAll(
    text,
    SLACK_INLINE,
    (m, k) => {
      if (m[1] !== undefined) return h('code', { key: k }, decodeSlackEntities(m[1]));
      if (m[2] !== undefined) {
        const [target, label] = m[2].split('|');
        if (target.startsWith('@')) {
          const id = target.slice(1);
          return h('span', { key: k, class: 'mention' }, `@${ctx.userName(id) ?? label ?? id}`);
        }
        if (target.startsWith('#')) {
          const id = target.slice(1);
          return h('span', { key: k, class: 'mention' }, `#${label ?? ctx.channelName?.(id) ?? id}`);
        }
        if (target.startsWith('!')) return h('span', { key: k, class: 'mention' }, `@${target.slice(1)}`);
        return link(decodeSlackEntities(target), decodeSlackEntities(label ?? target), k);
      }
      if (m[3] !== undefined) return h('strong', { key: k }, slackInline(m[3], k, ctx));
      if (m[4] !== undefined) return h('em', { key: k }, slackInline(m[4], k, ctx));
      return h('s', { key: k }, slackInline(m[5], k, ctx));
    },
    decodeSlackEntities,
    key,
  );
}

/** Slack mrkdwn: *bold*, _italic_, ~strike~, `code`, ``` blocks, <url|label>, <@U123>. */
export function renderSlack(text, ctx) {
  return blocks(text, (part, key) => slackInline(part, key, ctx));
}

const DISCORD_INLINE =
  /`([^`\n]+)`|<@!?(\d+)>|\*\*([^*\n]+)\*\*|__([^_\n]+)__|\*([^*\n]+)\*|(?<![\w])_([^_\n]+)_(?![\w])|~~([^~\n]+)~~|\[([^\]\n]+)\]\((https?:\/\/[^)\s]+)\)|(https?:\/\/[^\s<]+)/g;

function discordInline(text, key, ctx) {
  return matchAll(
    text,
    DISCORD_INLINE,
    (m, k) => {
      if (m[1] !== undefined) return h('code', { key: k }, m[1]);
      if (m[2] !== undefined)
        return h('span', { key: k, class: 'mention' }, `@${ctx.userName(m[2]) ?? 'unknown-user'}`);
      if (m[3] !== undefined) return h('strong', { key: k }, discordInline(m[3], k, ctx));
      if (m[4] !== undefined) return h('u', { key: k }, discordInline(m[4], k, ctx));
      if (m[5] !== undefined) return h('em', { key: k }, discordInline(m[5], k, ctx));
      if (m[6] !== undefined) return h('em', { key: k }, discordInline(m[6], k, ctx));
      if (m[7] !== undefined) return h('s', { key: k }, discordInline(m[7], k, ctx));
      if (m[8] !== undefined) return link(m[9], m[8], k);
      return link(m[10], m[10], k);
    },
    (t) => t,
    key,
  );
}

/**
 * Standard Markdown as Discord shows it (also Slack's `markdown_text`): headings, **bold**, *italic*,
 * __underline__, ~~strike~~, `code`, ``` blocks, links, <@id>.
 */
export function renderMarkdown(text, ctx) {
  return blocks(text, (part, key) =>
    part.split(/(\n)/).map((line, i) => {
      const heading = /^(#{1,3}) (.*)$/.exec(line);
      if (heading)
        return h(
          'strong',
          { key: `${key}h${i}`, class: `heading h${heading[1].length}` },
          discordInline(heading[2], `${key}h${i}`, ctx),
        );
      return discordInline(line, `${key}l${i}`, ctx);
    }),
  );
}
