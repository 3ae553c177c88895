// A pane's message list: stays at the bottom, follows what its own person asked for, and marks new messages.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { html } from './html.js';

/**
 * Keeps a message list scrolled to the bottom while the person is there; when they scrolled up,
 * `unseen` says that something new arrived below. `view` names what is shown (a channel, a
 * thread): another view starts at its bottom.
 */
export function useStickToBottom(view, content) {
  const ref = useRef(null);
  const stuck = useRef(true);
  const [unseen, setUnseen] = useState(false);
  // Where the list is now, before this render changes it: scroll events arrive a frame late.
  const el = ref.current;
  if (el) stuck.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
  const toBottom = () => {
    const el = ref.current;
    stuck.current = true;
    setUnseen(false);
    if (el) el.scrollTop = el.scrollHeight;
  };
  useLayoutEffect(toBottom, [view]);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (stuck.current) el.scrollTop = el.scrollHeight;
    else setUnseen(true);
  }, [content]);
  // Images change the height once decoded: follow them down too (load does not bubble; capture it).
  useEffect(() => {
    const el = ref.current;
    if (!el) return undefined;
    const onLoad = () => {
      if (stuck.current) el.scrollTop = el.scrollHeight;
    };
    el.addEventListener('load', onLoad, true);
    return () => el.removeEventListener('load', onLoad, true);
  }, []);
  const onScroll = () => {
    const el = ref.current;
    if (!el) return;
    stuck.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
    if (stuck.current) setUnseen(false);
  };
  return { ref, onScroll, unseen, toBottom };
}

/** The message list with its "new messages" marker. */
export function MessageLog({ label, scroll, children }) {
  return html`<div class="log">
    <div class="messages" role="log" aria-label=${label} ref=${scroll.ref} onScroll=${scroll.onScroll}>${children}</div>
    ${scroll.unseen ? html`<button type="button" class="new-messages" onClick=${scroll.toBottom}>New messages ↓</button>` : null}
  </div>`;
}
