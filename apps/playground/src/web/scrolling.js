// A pane's message list: stays at the bottom, follows what its own person asked for, and marks new messages.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { html } from './html.js';

/**
 * Keeps a message list scrolled to the bottom while the person is there; when they scrolled up,
 * `unseen` says that something new arrived below. `view` names what is shown (a channel, a
 * thread): another view starts at its bottom. After `follow()` (the person sent, pressed or
 * submitted something) the list follows what arrives, whatever moves in between (a progress
 * message deleted, an image decoded), until the person scrolls up themselves.
 */
export function useStickToBottom(view, content) {
  const ref = useRef(null);
  const stuck = useRef(true);
  const following = useRef(false);
  const [unseen, setUnseen] = useState(false);
  const last = useRef({ top: 0, height: 0 });
  // Where the list is now. Moving up over content that did not shrink is the person reading back: stop
  // following then. A list that shrank (a progress message gone) moves up by itself, and keeps following.
  const observe = () => {
    const el = ref.current;
    if (!el) return;
    if (el.scrollTop < last.current.top && el.scrollHeight >= last.current.height) following.current = false;
    last.current = { top: el.scrollTop, height: el.scrollHeight };
    stuck.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
  };
  // Before this render changes the list: its scroll event arrives a frame late, maybe after the new message.
  observe();
  const toBottom = () => {
    const el = ref.current;
    stuck.current = true;
    setUnseen(false);
    if (el) el.scrollTop = el.scrollHeight;
  };
  const follow = () => {
    following.current = true;
    toBottom();
  };
  useLayoutEffect(toBottom, [view]);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (stuck.current || following.current) el.scrollTop = el.scrollHeight;
    else setUnseen(true);
  }, [content]);
  // Images change the height once decoded: follow them down too (load does not bubble; capture it).
  useEffect(() => {
    const el = ref.current;
    if (!el) return undefined;
    const onLoad = () => {
      if (stuck.current || following.current) el.scrollTop = el.scrollHeight;
    };
    el.addEventListener('load', onLoad, true);
    return () => el.removeEventListener('load', onLoad, true);
  }, []);
  const onScroll = () => {
    observe();
    if (stuck.current) setUnseen(false);
  };
  return { ref, onScroll, unseen, toBottom, follow };
}

/** The message list with its "new messages" marker. */
export function MessageLog({ label, scroll, children }) {
  return html`<div class="log">
    <div class="messages" role="log" aria-label=${label} ref=${scroll.ref} onScroll=${scroll.onScroll}>${children}</div>
    ${scroll.unseen ? html`<button type="button" class="new-messages" onClick=${scroll.toBottom}>New messages ↓</button>` : null}
  </div>`;
}
