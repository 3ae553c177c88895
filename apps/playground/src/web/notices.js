// What Slack or Discord itself says to the person (not the bot), woven into a pane's messages.
import { useState } from 'preact/hooks';
import { html } from './html.js';
import { Avatar } from './message-parts.js';

/**
 * Notices only the person sees, added by the page (the platform's own answers, where a command
 * went): each sits after the message that was last when it came, in the channel or thread shown.
 */
export function useNotices() {
  const [notices, setNotices] = useState([]);
  const add = (notice) => setNotices((list) => [...list, { ...notice, key: `notice-${Date.now()}-${list.length}` }]);
  const weave = (messages, place, keyOf) => {
    const here = notices.filter((n) => n.place === place);
    if (here.length === 0) return messages;
    const out = [];
    for (const n of here) if (n.after === undefined) out.push(n);
    for (const m of messages) {
      out.push(m);
      for (const n of here) if (n.after === keyOf(m)) out.push(n);
    }
    const known = new Set(messages.map(keyOf));
    for (const n of here) if (n.after !== undefined && !known.has(n.after)) out.push(n);
    return out;
  };
  return { add, weave };
}

export function Notice({ notice }) {
  return html`<article class="msg notice ephemeral" data-author=${notice.from} aria-label=${`${notice.from} (only visible to you)`}>
    <${Avatar} name=${notice.from} bot=${false} system=${true} />
    <div class="msg-body">
      <header>
        <span class="author">${notice.from}</span>
        <span class="note">Only visible to you</span>
      </header>
      <div class="msg-text">${notice.text}</div>
      ${notice.action ? html`<button type="button" class="link notice-action" onClick=${notice.action.run}>${notice.action.label}</button>` : null}
    </div>
  </article>`;
}
