// The playground page: two chat panes over the local Slack and Discord emulators, fed live by
// /api/events. Preact + htm straight from node_modules through the import map: no build step.
import { h, render } from 'preact';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import htm from 'htm';
import { LIMIT_WORDS, LIMITS } from './limits.js';
import { renderMarkdown, renderSlack } from './markup.js';

const html = htm.bind(h);

const ASPECT_RATIOS = ['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9'];
const PEOPLE = ['alice', 'bob'];
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/heic', 'image/heif'];
/** Without a state for this long (and no shutdown seen), the server is taken as gone. */
const GONE_AFTER_MS = 5000;
const STOPPED = 'genbot stopped: run pnpm start again';

// ---------------------------------------------------------------------------------------------
// Data: the live feed and the actions

/**
 * The live state, and whether the server is still there: `stopped` once the feed ended after
 * shutdown began, or stayed away for a while. EventSource keeps retrying, so a new `pnpm start`
 * on the same port brings the page back by itself.
 */
function useFeed() {
  const [state, setState] = useState(null);
  const [connected, setConnected] = useState(false);
  const [stopped, setStopped] = useState(false);
  useEffect(() => {
    const source = new EventSource('/api/events');
    let closing = false;
    let gone;
    source.addEventListener('state', (event) => {
      const next = JSON.parse(event.data);
      closing = next.closing;
      clearTimeout(gone);
      setState(next);
      setConnected(true);
      setStopped(false);
    });
    source.addEventListener('error', () => {
      setConnected(false);
      if (closing) setStopped(true);
      else {
        clearTimeout(gone);
        gone = setTimeout(() => setStopped(true), GONE_AFTER_MS);
      }
    });
    return () => {
      clearTimeout(gone);
      source.close();
    };
  }, []);
  return { state, connected, stopped };
}

/** A refusal the page shows: in the composer, or (with `from`) as the platform's own notice. */
class Refusal extends Error {
  constructor(message, from) {
    super(message);
    this.from = from;
  }
}

async function post(path, body) {
  let response;
  try {
    response = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    throw new Refusal('The playground is not reachable: is genbot still running?');
  }
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    throw new Refusal(
      typeof answer.error === 'string'
        ? answer.error
        : `The playground did not take that (HTTP ${response.status}): try again.`,
      answer.from,
    );
  }
  return answer;
}

/** What keeps a message from being sent, in words; undefined when it may go. */
function checkDraft({ text, file, maxChars, maxCharsWords }) {
  if (file) {
    if (!IMAGE_TYPES.includes(file.type)) return LIMIT_WORDS.notImage;
    if (file.size === 0) return LIMIT_WORDS.emptyImage;
    if (file.size > LIMITS.imageBytes) return LIMIT_WORDS.image;
    if (file.name.length > LIMITS.fileNameChars) return LIMIT_WORDS.fileName;
  }
  if (text.trim().length > maxChars) return maxCharsWords;
  return undefined;
}

/**
 * Notices only the person sees, added by the page (the platform's own answers, where a command
 * went): each sits after the message that was last when it came, in the channel or thread shown.
 */
function useNotices() {
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

function Notice({ notice }) {
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

function readFile(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      resolve({ name: file.name, mimetype: file.type, data: url.slice(url.indexOf(',') + 1) });
    };
    reader.onerror = () => reject(new Error(`could not read ${file.name}`));
    reader.readAsDataURL(file);
  });
}

/** `/imagine a red fox` -> { name: 'imagine', rest: 'a red fox' } */
function parseCommand(text) {
  const match = /^\/([a-z0-9_-]+)(?:\s+([\s\S]*))?$/i.exec(text.trim());
  return match ? { name: match[1].toLowerCase(), rest: (match[2] ?? '').trim() } : undefined;
}

function formatSize(bytes) {
  return bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

// ---------------------------------------------------------------------------------------------
// Shared pieces

function Files({ files, onEdit }) {
  if (files.length === 0) return null;
  // A click on a file (open, download, edit) is about the file, never the message around it:
  // in a Slack channel that would open the thread.
  return html`<div class=${`files ${files.length > 1 ? 'grid' : 'single'}`} onClick=${(e) => e.stopPropagation()}>
    ${files.map(
      (file) => html`<figure class="file" key=${file.id}>
        ${
          file.isImage
            ? html`<a href=${file.url} target="_blank" rel="noopener"><img src=${file.url} alt=${file.name} loading="lazy" /></a>`
            : html`<div class="file-generic">${file.name}</div>`
        }
        <figcaption>
          <span class="file-name" title=${file.name}>${file.name}</span>
          <span class="file-size">${formatSize(file.size)}</span>
          <a class="file-action" href=${`${file.url}?download=1`} download=${file.name} aria-label=${`Download ${file.name}`}>Download</a>
          ${
            file.isImage && onEdit
              ? html`<button type="button" class="file-action link" onClick=${onEdit}
                aria-label=${`Edit ${file.name} with the bot`}>Edit with @genbot</button>`
              : null
          }
        </figcaption>
      </figure>`,
    )}
  </div>`;
}

/**
 * Keeps a message list scrolled to the bottom while the person is there; when they scrolled up,
 * `unseen` says that something new arrived below. `view` names what is shown (a channel, a
 * thread): another view starts at its bottom.
 */
function useStickToBottom(view, content) {
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
function MessageLog({ label, scroll, children }) {
  return html`<div class="log">
    <div class="messages" role="log" aria-label=${label} ref=${scroll.ref} onScroll=${scroll.onScroll}>${children}</div>
    ${scroll.unseen ? html`<button type="button" class="new-messages" onClick=${scroll.toBottom}>New messages ↓</button>` : null}
  </div>`;
}

function Composer({
  platform,
  placeholder,
  label,
  disabled,
  aspectChoices,
  onSend,
  prefill,
  context,
  onCancelContext,
  maxChars,
  maxCharsWords,
}) {
  const [text, setText] = useState('');
  const [file, setFile] = useState(null);
  const [ratio, setRatio] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const textRef = useRef(null);
  const fileRef = useRef(null);

  useEffect(() => {
    if (prefill === undefined || prefill === null) return;
    setText(prefill.text);
    textRef.current?.focus();
  }, [prefill]);

  const isImagine = /^\/imagine\b/i.test(text.trim());

  async function submit(event) {
    event?.preventDefault();
    if (busy || disabled) return;
    if (text.trim() === '' && !file) return;
    const problem = checkDraft({ text, file, maxChars, maxCharsWords });
    if (problem) {
      setError(problem);
      return;
    }
    setBusy(true);
    setError('');
    try {
      const attachment = file ? await readFile(file) : undefined;
      await onSend({ text: text.trim(), file: attachment, ratio });
      setText('');
      setFile(null);
      if (fileRef.current) fileRef.current.value = '';
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
      textRef.current?.focus();
    }
  }

  function onKeyDown(event) {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) submit(event);
  }

  const ids = `${platform}-composer`;
  return html`<form class="composer" onSubmit=${submit} aria-label=${`${label} composer`}>
    ${
      context
        ? html`<div class="composer-context">
          <span>${context}</span>
          <button type="button" class="link" onClick=${onCancelContext} aria-label="Cancel reply">×</button>
        </div>`
        : null
    }
    ${error ? html`<div class="composer-error" role="alert">${error}</div>` : null}
    <div class="composer-box">
      <label class="visually-hidden" for=${`${ids}-text`}>${label}</label>
      <textarea
        id=${`${ids}-text`}
        ref=${textRef}
        rows="2"
        placeholder=${placeholder}
        value=${text}
        disabled=${disabled}
        onInput=${(e) => setText(e.currentTarget.value)}
        onKeyDown=${onKeyDown}
      ></textarea>
      <div class="composer-tools">
        <label class="tool attach" title="Attach an image">
          <svg aria-hidden="true" width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2"
            stroke-linecap="round" stroke-linejoin="round"><path d="M21.4 11.1l-9.2 9.2a6 6 0 0 1-8.5-8.5l9.2-9.2a4 4 0 0 1 5.7 5.7l-9.2 9.2a2 2 0 0 1-2.8-2.8l8.5-8.5" /></svg>
          <span class="visually-hidden">Attach an image</span>
          <input ref=${fileRef} type="file" accept="image/png,image/jpeg,image/webp,image/gif" disabled=${disabled}
            onChange=${(e) => {
              const chosen = e.currentTarget.files?.[0] ?? null;
              setFile(chosen);
              setError((chosen && checkDraft({ text: '', file: chosen, maxChars, maxCharsWords })) ?? '');
            }} />
        </label>
        <label class=${`tool ratio ${isImagine ? 'active' : ''}`}>
          <span>Aspect ratio</span>
          <select value=${ratio} onChange=${(e) => setRatio(e.currentTarget.value)} disabled=${disabled}
            aria-label="Aspect ratio for /imagine">
            <option value="">default</option>
            ${aspectChoices.map((choice) => html`<option key=${choice.value} value=${choice.value}>${choice.name}</option>`)}
          </select>
        </label>
        <button type="submit" class="send" disabled=${busy || disabled}>${busy ? 'Sending…' : 'Send'}</button>
      </div>
      ${
        file
          ? html`<div class="attachment-chip">
            <span>Attached: ${file.name} (${formatSize(file.size)})</span>
            <button type="button" class="link" aria-label=${`Remove ${file.name}`}
              onClick=${() => {
                setFile(null);
                setError('');
                if (fileRef.current) fileRef.current.value = '';
              }}>remove</button>
          </div>`
          : null
      }
    </div>
  </form>`;
}

/** A result's buttons (Re-roll, Vary, Edit, Undo): a press goes to the bot as the platform sends it. */
function Buttons({ buttons, onPress, disabled }) {
  if (!buttons || buttons.length === 0) return null;
  const rows = [];
  for (const button of buttons) (rows[button.row] ??= []).push(button);
  return html`<div class="buttons" role="group" aria-label="Result buttons" onClick=${(e) => e.stopPropagation()}>
    ${rows.map(
      (row, i) => html`<div class="button-row" key=${i}>
        ${row.map(
          (button) =>
            html`<button type="button" key=${button.id} class="action-button" disabled=${disabled} onClick=${() => onPress(button)}>${button.label}</button>`,
        )}
      </div>`,
    )}
  </div>`;
}

/**
 * A form the bot opened (Slack modal, Discord modal), as a small dialog over the pane. Checked here
 * before sending; the bot's own answer (Slack's `response_action: errors`) shows under its field.
 */
function FormDialog({ form, onSubmit, onClose }) {
  const [values, setValues] = useState(() => Object.fromEntries(form.inputs.map((input) => [input.id, ''])));
  const [errors, setErrors] = useState({});
  const [problem, setProblem] = useState(null);
  const [busy, setBusy] = useState(false);
  const first = useRef(null);
  useEffect(() => first.current?.focus(), []);

  async function submit(event) {
    event.preventDefault();
    const found = {};
    for (const input of form.inputs) {
      const text = values[input.id] ?? '';
      if (input.required && text.trim() === '') found[input.id] = LIMIT_WORDS.formEmpty;
      else if (text.length > Math.min(input.maxLength, LIMITS.formTextChars)) found[input.id] = LIMIT_WORDS.formText;
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    setProblem(null);
    try {
      const answer = await onSubmit(values);
      if (answer?.errors && Object.keys(answer.errors).length > 0) setErrors(answer.errors);
    } catch (err) {
      setProblem(err.message);
    } finally {
      setBusy(false);
    }
  }

  return html`<div class="form-backdrop" onClick=${(e) => e.target === e.currentTarget && onClose()}>
    <form class="form-dialog" role="dialog" aria-modal="true" aria-label=${form.title} onSubmit=${submit} noValidate>
      <h3>${form.title}</h3>
      ${form.inputs.map(
        (input, i) => html`<label key=${input.id} class="form-field">
          <span>${input.label}</span>
          <textarea ref=${i === 0 ? first : undefined} rows="3" value=${values[input.id]} aria-invalid=${errors[input.id] ? 'true' : 'false'}
            onInput=${(e) => {
              setValues({ ...values, [input.id]: e.currentTarget.value });
              setErrors({ ...errors, [input.id]: undefined });
            }}
            onKeyDown=${(e) => e.key === 'Enter' && !e.shiftKey && submit(e)}></textarea>
          ${errors[input.id] ? html`<span class="field-error" role="alert">${errors[input.id]}</span>` : null}
        </label>`,
      )}
      ${problem ? html`<p class="field-error" role="alert">${problem}</p>` : null}
      <div class="form-actions">
        <button type="button" class="secondary" onClick=${onClose}>Cancel</button>
        <button type="submit" class="primary" disabled=${busy}>${form.submit}</button>
      </div>
    </form>
  </div>`;
}

/** The open form for the person typing, unless they closed it here. */
function useForms(forms, person) {
  const [closed, setClosed] = useState([]);
  const form = forms.find((f) => f.person === person && !closed.includes(f.id));
  return { form, close: (id) => setClosed((list) => [...list, id]) };
}

function PersonPicker({ platform, value, onChange }) {
  return html`<label class="person">
    <span>Typing as</span>
    <select value=${value} onChange=${(e) => onChange(e.currentTarget.value)} aria-label=${`${platform}: person typing`}>
      ${PEOPLE.map((name) => html`<option key=${name} value=${name}>${name}</option>`)}
    </select>
  </label>`;
}

function Avatar({ name, bot, system }) {
  const letter = (name || '?').charAt(0).toUpperCase();
  const face = system ? '✱' : bot ? '✦' : letter;
  return html`<div class=${`avatar ${bot ? 'bot' : ''} ${system ? 'system' : ''}`} aria-hidden="true">${face}</div>`;
}

// ---------------------------------------------------------------------------------------------
// Slack

function SlackMessage({ message, ctx, onOpenThread, onEditImage, onPress, inThread, lastReply }) {
  const clickable = !inThread && !message.ephemeral;
  const open = () => clickable && onOpenThread(message.ts);
  return html`<article
    class=${`msg ${message.isBot ? 'from-bot' : ''} ${message.ephemeral ? 'ephemeral' : ''} ${clickable ? 'clickable' : ''}`}
    data-ts=${message.ts}
    data-author=${message.author}
    aria-label=${`${message.author}${message.ephemeral ? ' (only visible to you)' : ''}`}
    onClick=${open}
  >
    <${Avatar} name=${message.author} bot=${message.isBot} />
    <div class="msg-body">
      <header>
        <span class="author">${message.author}</span>
        ${message.isBot ? html`<span class="badge">APP</span>` : null}
        ${message.ephemeral ? html`<span class="note">Only visible to you</span>` : null}
        ${message.editCount > 0 ? html`<span class="note">(edited)</span>` : null}
      </header>
      ${message.text ? html`<div class="msg-text">${(message.markdown ? renderMarkdown : renderSlack)(message.text, ctx)}${message.streaming ? html`<span class="cursor" aria-hidden="true"></span>` : null}</div>` : null}
      <${Files} files=${message.files} onEdit=${() => onEditImage(message)} />
      <${Buttons} buttons=${message.buttons} onPress=${(button) => onPress(message, button)} />
      ${
        !inThread && message.replyCount > 0
          ? html`<button type="button" class="replies link" onClick=${(e) => {
              e.stopPropagation();
              onOpenThread(message.ts);
            }}>
            ${message.replyCount} ${message.replyCount === 1 ? 'reply' : 'replies'}
          </button>`
          : null
      }
      ${!inThread && lastReply?.isBot ? html`<${ReplyPreview} reply=${lastReply} ctx=${ctx} />` : null}
      ${
        clickable && message.replyCount === 0
          ? html`<button type="button" class="hover-action link" onClick=${(e) => {
              e.stopPropagation();
              onOpenThread(message.ts);
            }}
            aria-label=${`Reply in thread to ${message.author}`}>Reply in thread</button>`
          : null
      }
    </div>
  </article>`;
}

/**
 * The bot's latest reply in a thread, shown under "N replies" in the channel: a mention made in
 * the channel is answered in a thread, and this is where the person is looking.
 */
function ReplyPreview({ reply, ctx }) {
  const images = reply.files.filter((file) => file.isImage).length;
  return html`<div class="reply-preview" data-ts=${reply.ts} aria-label=${`Latest reply from ${reply.author}`}>
    <span class="author">${reply.author}</span>
    ${reply.text ? html`<div class="msg-text">${renderSlack(reply.text, ctx)}${reply.streaming ? html`<span class="cursor" aria-hidden="true"></span>` : null}</div>` : null}
    ${images > 0 ? html`<div class="note">${images} ${images === 1 ? 'image' : 'images'}: open the thread to see ${images === 1 ? 'it' : 'them'}</div>` : null}
  </div>`;
}

function SlackPane({ data, disabled, idleWords }) {
  const [threadTs, setThreadTs] = useState(null);
  const [person, setPerson] = useState('alice');
  const [prefill, setPrefill] = useState(null);
  const notices = useNotices();
  const users = useMemo(
    () => new Map([...data.users.map((u) => [u.id, u.displayName || u.name]), [data.botUserId, data.botName]]),
    [data],
  );
  const ctx = { userName: (id) => users.get(id) };
  const channel = data.messages.filter((m) => m.threadTs === undefined || m.threadTs === m.ts);
  const lastReplies = useMemo(() => {
    const last = new Map();
    for (const m of data.messages)
      if (m.threadTs !== undefined && m.threadTs !== m.ts && !m.ephemeral) last.set(m.threadTs, m);
    return last;
  }, [data]);
  const thread = threadTs === null ? [] : data.messages.filter((m) => m.ts === threadTs || m.threadTs === threadTs);
  const shown = notices.weave(threadTs === null ? channel : thread, threadTs, (m) => m.ts);
  const last = shown.at(-1);
  const lastPreview = threadTs === null && last?.ts !== undefined ? lastReplies.get(last.ts) : undefined;
  const scroll = useStickToBottom(
    String(threadTs),
    `${shown.length}:${last?.text?.length ?? 0}:${lastPreview?.ts}:${lastPreview?.text.length ?? 0}`,
  );

  function openThread(ts) {
    setThreadTs(ts);
    setPrefill(null);
  }

  async function send({ text, file, ratio }) {
    const command = parseCommand(text);
    const after = shown.filter((m) => m.ts !== undefined).at(-1)?.ts;
    scroll.toBottom();
    try {
      if (command && !file) {
        if (command.name === 'imagine' && ratio && !/--ar\s/.test(command.rest)) command.rest += ` --ar ${ratio}`;
        const answer = await post('/api/slack/commands', {
          command: `/${command.name}`,
          text: command.rest,
          user: person,
        });
        // Slack runs an app's command in the channel, never in a thread: say so where the person looks.
        if (threadTs !== null)
          notices.add({
            from: 'Slackbot',
            place: threadTs,
            after,
            text: `/${command.name} runs in #${data.channel.name}, not in threads: its result is posted there.`,
            action: { label: `Go to #${data.channel.name}`, run: () => setThreadTs(null) },
          });
        return answer;
      }
      return await post('/api/slack/messages', {
        text,
        user: person,
        ...(threadTs ? { threadTs } : {}),
        ...(file ? { file } : {}),
      });
    } catch (err) {
      if (!(err instanceof Refusal) || err.from === undefined) throw err;
      notices.add({ from: err.from, place: threadTs, after, text: err.message });
      return undefined;
    }
  }

  function editImage(message) {
    setThreadTs(message.threadTs ?? message.ts);
    setPrefill({ text: `@${data.botName} ` });
  }

  async function press(message, button) {
    const after = shown.filter((m) => m.ts !== undefined).at(-1)?.ts;
    try {
      await post('/api/slack/press', { ts: message.ts, actionId: button.id, user: person });
    } catch (err) {
      notices.add({ from: 'Slackbot', place: threadTs, after, text: err.message });
    }
  }

  const forms = useForms(data.forms, person);

  return html`<section class="pane slack" aria-label="Slack" data-testid="slack-pane">
    <header class="pane-header">
      <div>
        <h2><span class="platform">Slack</span> ${threadTs === null ? `# ${data.channel.name}` : 'Thread'}</h2>
        <p class="subtitle">${threadTs === null ? 'Click a message to reply in its thread.' : `in # ${data.channel.name}`}</p>
      </div>
      <div class="pane-tools">
        ${threadTs !== null ? html`<button type="button" class="back" onClick=${() => setThreadTs(null)}>← Back to channel</button>` : null}
        <${PersonPicker} platform="Slack" value=${person} onChange=${setPerson} />
      </div>
    </header>
    <${MessageLog} label=${threadTs === null ? `Slack #${data.channel.name} messages` : 'Slack thread messages'} scroll=${scroll}>
      ${shown.length === 0 ? html`<p class="empty">No messages yet. Try <code>/imagine a lighthouse at dusk</code> or <code>@${data.botName} hello</code>.</p>` : null}
      ${shown.map((m, i) =>
        m.from !== undefined
          ? html`<${Notice} key=${m.key} notice=${m} />`
          : html`<${SlackMessage} key=${m.ts} message=${m} ctx=${ctx} inThread=${threadTs !== null}
              lastReply=${threadTs === null ? lastReplies.get(m.ts) : undefined}
              onOpenThread=${openThread} onEditImage=${editImage} onPress=${press} />
            ${threadTs !== null && i === 0 && thread.length > 1 ? html`<div class="divider" key="divider">${thread.length - 1} ${thread.length === 2 ? 'reply' : 'replies'}</div>` : null}`,
      )}
    <//>
    <${Composer}
      platform="slack"
      label=${threadTs === null ? `Message #${data.channel.name}` : 'Reply in thread'}
      placeholder=${disabled ? idleWords : threadTs === null ? `Message #${data.channel.name} (/imagine …, @${data.botName} …)` : `Reply… (@${data.botName} to ask the bot)`}
      disabled=${disabled}
      aspectChoices=${ASPECT_RATIOS.map((r) => ({ name: r, value: r }))}
      prefill=${prefill}
      onSend=${send}
      maxChars=${LIMITS.slackTextChars}
      maxCharsWords=${LIMIT_WORDS.slackText}
    />
    ${
      forms.form
        ? html`<${FormDialog} key=${forms.form.id} form=${forms.form} onClose=${() => forms.close(forms.form.id)}
            onSubmit=${(values) => post('/api/slack/forms', { id: forms.form.id, values, user: person })} />`
        : null
    }
  </section>`;
}

// ---------------------------------------------------------------------------------------------
// Discord

function DiscordMessage({ message, ctx, onReply, onEditImage, onOpenThread, threadName, onPress, appCommands, onApp }) {
  return html`<article
    class=${`msg ${message.isBot ? 'from-bot' : ''} ${message.ephemeral ? 'ephemeral' : ''}`}
    data-id=${message.id}
    data-author=${message.author}
    aria-label=${message.author}
  >
    ${
      message.replyTo
        ? html`<div class="reply-ref" aria-label=${`In reply to ${message.replyTo.author}`}>
          <span class="reply-curve" aria-hidden="true"></span>
          <span class="author">@${message.replyTo.author}</span> <span class="excerpt">${message.replyTo.excerpt}</span>
        </div>`
        : null
    }
    ${
      message.command
        ? html`<div class="reply-ref"><span class="reply-curve" aria-hidden="true"></span>
          <span class="author">${message.command.user}</span> used <span class="command">/${message.command.name}</span></div>`
        : null
    }
    <div class="msg-row">
      <${Avatar} name=${message.author} bot=${message.isBot} />
      <div class="msg-body">
        <header>
          <span class="author">${message.author}</span>
          ${message.isBot ? html`<span class="badge">APP</span>` : null}
          ${message.editCount > 0 && !message.loading ? html`<span class="note">(edited)</span>` : null}
        </header>
        ${
          message.loading
            ? html`<div class="msg-text thinking">${message.author} is thinking<span class="dots" aria-hidden="true"></span></div>`
            : message.content
              ? html`<div class="msg-text">${renderMarkdown(message.content, ctx)}</div>`
              : null
        }
        ${message.ephemeral ? html`<div class="note">Only you can see this</div>` : null}
        <${Files} files=${message.files} onEdit=${() => onEditImage(message)} />
        <${Buttons} buttons=${message.buttons} onPress=${(button) => onPress(message, button)} />
        ${
          message.threadId && onOpenThread
            ? html`<button type="button" class="replies link" onClick=${() => onOpenThread(message.threadId)}>Thread: ${threadName ?? 'open'}</button>`
            : null
        }
      </div>
      ${
        onReply && !message.loading
          ? html`<div class="hover-actions">
              ${
                message.files.some((file) => file.isImage)
                  ? appCommands.map(
                      (name) =>
                        html`<button type="button" key=${name} class="hover-action link" onClick=${() => onApp(message, name)} aria-label=${`Apps: ${name}`}>${name}</button>`,
                    )
                  : null
              }
              <button type="button" class="hover-action link" onClick=${() => onReply(message)} aria-label=${`Reply to ${message.author}`}>Reply</button>
            </div>`
          : null
      }
    </div>
  </article>`;
}

function DiscordPane({ data, disabled, idleWords }) {
  const [threadId, setThreadId] = useState(null);
  const [replyTo, setReplyTo] = useState(null);
  const [person, setPerson] = useState('alice');
  const [prefill, setPrefill] = useState(null);
  const notices = useNotices();
  const users = useMemo(() => {
    const map = new Map([[data.botUserId, data.botName]]);
    for (const m of [...data.messages, ...data.threads.flatMap((t) => t.messages)]) map.set(m.authorId, m.author);
    return map;
  }, [data]);
  const ctx = { userName: (id) => users.get(id) };
  const thread = threadId === null ? undefined : data.threads.find((t) => t.id === threadId);
  const place = thread ? thread.id : null;
  const shown = notices.weave(thread ? thread.messages : data.messages, place, (m) => m.id);
  const last = shown.at(-1);
  const scroll = useStickToBottom(String(place), `${shown.length}:${last?.content?.length ?? 0}:${last?.loading}`);
  const imagine = data.commands.find((c) => c.name === 'imagine');
  const ratioOption = imagine?.options.find((o) => /aspect/.test(o.name));
  const aspectChoices = ratioOption?.choices.length
    ? ratioOption.choices
    : ASPECT_RATIOS.map((r) => ({ name: r, value: r }));

  async function send({ text, file, ratio }) {
    const command = parseCommand(text);
    const channelId = thread ? thread.id : undefined;
    const after = shown.filter((m) => m.id !== undefined).at(-1)?.id;
    scroll.toBottom();
    if (command && !file) {
      const options = {};
      const known = data.commands.find((c) => c.name === command.name);
      if (known) {
        const textOption = known.options.find((o) => o.type === 3 && !/aspect/.test(o.name));
        if (textOption && command.rest) options[textOption.name] = command.rest;
        if (ratioOption && ratio && known === imagine) options[ratioOption.name] = ratio;
        // Discord's client does not send a command without its required options.
        const missing = known.options.find((o) => o.required && options[o.name] === undefined);
        if (missing) throw new Refusal(`/${known.name} needs a ${missing.name}: /${known.name} a lighthouse at dusk`);
      }
      try {
        return await post('/api/discord/commands', {
          name: command.name,
          options,
          user: person,
          ...(channelId ? { channelId } : {}),
        });
      } catch (err) {
        if (!(err instanceof Refusal) || err.from === undefined) throw err;
        notices.add({ from: err.from, place, after, text: err.message });
        return undefined;
      }
    }
    const answer = await post('/api/discord/messages', {
      content: text,
      user: person,
      ...(channelId ? { channelId } : {}),
      ...(replyTo ? { replyTo: replyTo.id } : {}),
      ...(file ? { file } : {}),
    });
    setReplyTo(null);
    return answer;
  }

  function reply(message) {
    setReplyTo(message);
    document.getElementById('discord-composer-text')?.focus();
  }

  function editImage(message) {
    setReplyTo(message);
    setPrefill({ text: `@${data.botName} ` });
  }

  async function act(path, body) {
    const after = shown.filter((m) => m.id !== undefined).at(-1)?.id;
    try {
      await post(path, { ...body, user: person, ...(thread ? { channelId: thread.id } : {}) });
    } catch (err) {
      notices.add({ from: 'Discord', place, after, text: err.message });
    }
  }

  const press = (message, button) => act('/api/discord/press', { messageId: message.id, customId: button.id });
  const runApp = (message, name) => act('/api/discord/message-commands', { messageId: message.id, name });
  const forms = useForms(data.forms, person);

  return html`<section class="pane discord" aria-label="Discord" data-testid="discord-pane">
    <header class="pane-header">
      <div>
        <h2><span class="platform">Discord</span> ${thread ? `🧵 ${thread.name}` : `# ${data.channel.name}`}</h2>
        <p class="subtitle">${thread ? `thread in # ${data.channel.name}` : 'Hover a message and choose Reply.'}</p>
      </div>
      <div class="pane-tools">
        ${
          thread
            ? html`<button type="button" class="back" onClick=${() => {
                setThreadId(null);
                setReplyTo(null);
              }}>← Back to channel</button>`
            : null
        }
        <${PersonPicker} platform="Discord" value=${person} onChange=${setPerson} />
      </div>
    </header>
    <${MessageLog} label=${thread ? 'Discord thread messages' : `Discord #${data.channel.name} messages`} scroll=${scroll}>
      ${shown.length === 0 ? html`<p class="empty">No messages yet. Try <code>/imagine a lighthouse at dusk</code> or <code>@${data.botName} hello</code>.</p>` : null}
      ${shown.map((m) =>
        m.from !== undefined
          ? html`<${Notice} key=${m.key} notice=${m} />`
          : html`<${DiscordMessage} key=${m.id} message=${m} ctx=${ctx} onReply=${reply} onEditImage=${editImage}
          onPress=${press} appCommands=${data.messageCommands} onApp=${runApp}
          onOpenThread=${
            thread
              ? undefined
              : (id) => {
                  setThreadId(id);
                  setReplyTo(null);
                }
          }
          threadName=${data.threads.find((t) => t.id === m.threadId)?.name} />`,
      )}
    <//>
    <${Composer}
      platform="discord"
      label=${thread ? `Message thread ${thread.name}` : `Message #${data.channel.name}`}
      placeholder=${disabled ? idleWords : thread ? `Message 🧵 ${thread.name}` : `Message #${data.channel.name} (/imagine …, @${data.botName} …)`}
      disabled=${disabled}
      aspectChoices=${aspectChoices}
      prefill=${prefill}
      context=${replyTo ? `Replying to ${replyTo.author}` : null}
      onCancelContext=${() => setReplyTo(null)}
      onSend=${send}
      maxChars=${LIMITS.discordTextChars}
      maxCharsWords=${LIMIT_WORDS.discordText}
    />
    ${
      forms.form
        ? html`<${FormDialog} key=${forms.form.id} form=${forms.form} onClose=${() => forms.close(forms.form.id)}
            onSubmit=${(values) => post('/api/discord/forms', { id: forms.form.id, values, user: person })} />`
        : null
    }
  </section>`;
}

// ---------------------------------------------------------------------------------------------

function App() {
  const { state, connected, stopped } = useFeed();
  if (!state) return html`<p class="booting">${stopped ? STOPPED : 'Connecting to the playground…'}</p>`;
  const { service } = state;
  const status = stopped ? STOPPED : state.closing ? 'Shutting down' : connected ? 'Live' : 'Reconnecting…';
  const idle = stopped || state.closing;
  return html`<div class="app">
    <header class="top">
      <h1>genbot <span>playground</span></h1>
      <p class="service">
        ${service.emulated ? 'Offline emulator' : `Service: ${service.label}`}
        ${service.chatModel ? html` · chat <code>${service.chatModel}</code>` : null}
        ${service.imageModel ? html` · images <code>${service.imageModel}</code>` : null}
      </p>
      <p class=${`status ${connected && !idle ? 'live' : 'off'} ${stopped ? 'stopped' : ''}`} role="status">${status}</p>
    </header>
    <main class="panes">
      <${SlackPane} data=${state.slack} disabled=${idle} idleWords=${status} />
      <${DiscordPane} data=${state.discord} disabled=${idle} idleWords=${status} />
    </main>
  </div>`;
}

render(html`<${App} />`, document.getElementById('app'));
