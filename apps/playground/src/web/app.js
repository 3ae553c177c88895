// The playground page: two chat panes over the local Slack and Discord emulators, fed live by
// /api/events. Preact + htm straight from node_modules through the import map: no build step.
import { h, render } from 'preact';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import htm from 'htm';
import { renderDiscord, renderSlack } from './markup.js';

const html = htm.bind(h);

const ASPECT_RATIOS = ['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9'];
const PEOPLE = ['alice', 'bob'];

// ---------------------------------------------------------------------------------------------
// Data: the live feed and the actions

function useFeed() {
  const [state, setState] = useState(null);
  const [connected, setConnected] = useState(false);
  useEffect(() => {
    const source = new EventSource('/api/events');
    source.addEventListener('state', (event) => {
      setState(JSON.parse(event.data));
      setConnected(true);
    });
    source.addEventListener('error', () => setConnected(false));
    return () => source.close();
  }, []);
  return { state, connected };
}

async function post(path, body) {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(answer.error ?? `request failed (${response.status})`);
  return answer;
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
  return html`<div class="files">
    ${files.map(
      (file) => html`<figure class="file" key=${file.id}>
        ${file.isImage
          ? html`<a href=${file.url} target="_blank" rel="noopener"><img src=${file.url} alt=${file.name} loading="lazy" /></a>`
          : html`<div class="file-generic">${file.name}</div>`}
        <figcaption>
          <span class="file-name" title=${file.name}>${file.name}</span>
          <span class="file-size">${formatSize(file.size)}</span>
          <a class="file-action" href=${`${file.url}?download=1`} download=${file.name} aria-label=${`Download ${file.name}`}>Download</a>
          ${file.isImage && onEdit
            ? html`<button type="button" class="file-action link" onClick=${(e) => (e.stopPropagation(), onEdit())}
                aria-label=${`Edit ${file.name} with the bot`}>Edit with @genbot</button>`
            : null}
        </figcaption>
      </figure>`,
    )}
  </div>`;
}

/** Keeps a message list scrolled to the bottom while the person has not scrolled up. */
function useStickToBottom(dependency) {
  const ref = useRef(null);
  const stuck = useRef(true);
  useLayoutEffect(() => {
    const el = ref.current;
    if (el && stuck.current) el.scrollTop = el.scrollHeight;
  }, [dependency]);
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
    if (el) stuck.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
  };
  return { ref, onScroll };
}

function Composer({ platform, placeholder, label, disabled, aspectChoices, onSend, prefill, context, onCancelContext }) {
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
    ${context
      ? html`<div class="composer-context">
          <span>${context}</span>
          <button type="button" class="link" onClick=${onCancelContext} aria-label="Cancel reply">×</button>
        </div>`
      : null}
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
            onChange=${(e) => setFile(e.currentTarget.files?.[0] ?? null)} />
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
      ${file
        ? html`<div class="attachment-chip">
            <span>Attached: ${file.name} (${formatSize(file.size)})</span>
            <button type="button" class="link" aria-label=${`Remove ${file.name}`}
              onClick=${() => (setFile(null), fileRef.current && (fileRef.current.value = ''))}>remove</button>
          </div>`
        : null}
    </div>
  </form>`;
}

function PersonPicker({ platform, value, onChange }) {
  return html`<label class="person">
    <span>Typing as</span>
    <select value=${value} onChange=${(e) => onChange(e.currentTarget.value)} aria-label=${`${platform}: person typing`}>
      ${PEOPLE.map((name) => html`<option key=${name} value=${name}>${name}</option>`)}
    </select>
  </label>`;
}

function Avatar({ name, bot }) {
  const letter = (name || '?').charAt(0).toUpperCase();
  return html`<div class=${`avatar ${bot ? 'bot' : ''}`} aria-hidden="true">${bot ? '✦' : letter}</div>`;
}

// ---------------------------------------------------------------------------------------------
// Slack

function SlackMessage({ message, ctx, onOpenThread, onEditImage, inThread }) {
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
      ${message.text ? html`<div class="msg-text">${renderSlack(message.text, ctx)}${message.streaming ? html`<span class="cursor" aria-hidden="true"></span>` : null}</div>` : null}
      <${Files} files=${message.files} onEdit=${() => onEditImage(message)} />
      ${!inThread && message.replyCount > 0
        ? html`<button type="button" class="replies link" onClick=${(e) => (e.stopPropagation(), onOpenThread(message.ts))}>
            ${message.replyCount} ${message.replyCount === 1 ? 'reply' : 'replies'}
          </button>`
        : null}
      ${clickable && message.replyCount === 0
        ? html`<button type="button" class="hover-action link" onClick=${(e) => (e.stopPropagation(), onOpenThread(message.ts))}
            aria-label=${`Reply in thread to ${message.author}`}>Reply in thread</button>`
        : null}
    </div>
  </article>`;
}

function SlackPane({ data, closing }) {
  const [threadTs, setThreadTs] = useState(null);
  const [person, setPerson] = useState('alice');
  const [prefill, setPrefill] = useState(null);
  const users = useMemo(() => new Map([...data.users.map((u) => [u.id, u.displayName || u.name]), [data.botUserId, data.botName]]), [data]);
  const ctx = { userName: (id) => users.get(id) };
  const channel = data.messages.filter((m) => m.threadTs === undefined || m.threadTs === m.ts);
  const thread = threadTs === null ? [] : data.messages.filter((m) => m.ts === threadTs || m.threadTs === threadTs);
  const shown = threadTs === null ? channel : thread;
  const lastText = shown.at(-1)?.text.length ?? 0;
  const scroll = useStickToBottom(`${threadTs}:${shown.length}:${lastText}`);

  async function send({ text, file, ratio }) {
    const command = parseCommand(text);
    if (command && !file) {
      if (command.name === 'imagine' && ratio && !/--ar\s/.test(command.rest)) command.rest += ` --ar ${ratio}`;
      return post('/api/slack/commands', { command: `/${command.name}`, text: command.rest, user: person });
    }
    return post('/api/slack/messages', { text, user: person, ...(threadTs ? { threadTs } : {}), ...(file ? { file } : {}) });
  }

  function editImage(message) {
    setThreadTs(message.threadTs ?? message.ts);
    setPrefill({ text: `@${data.botName} ` });
  }

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
    <div class="messages" role="log" aria-label=${threadTs === null ? `Slack #${data.channel.name} messages` : 'Slack thread messages'}
      ref=${scroll.ref} onScroll=${scroll.onScroll}>
      ${shown.length === 0 ? html`<p class="empty">No messages yet. Try <code>/imagine a lighthouse at dusk</code> or <code>@${data.botName} hello</code>.</p>` : null}
      ${shown.map(
        (m, i) => html`<${SlackMessage} key=${m.ts} message=${m} ctx=${ctx} inThread=${threadTs !== null}
          onOpenThread=${(ts) => (setThreadTs(ts), setPrefill(null))} onEditImage=${editImage} />
          ${threadTs !== null && i === 0 && shown.length > 1 ? html`<div class="divider" key="divider">${shown.length - 1} ${shown.length === 2 ? 'reply' : 'replies'}</div>` : null}`,
      )}
    </div>
    <${Composer}
      platform="slack"
      label=${threadTs === null ? `Message #${data.channel.name}` : 'Reply in thread'}
      placeholder=${threadTs === null ? `Message #${data.channel.name} (/imagine …, @${data.botName} …)` : `Reply… (@${data.botName} to ask the bot)`}
      disabled=${closing}
      aspectChoices=${ASPECT_RATIOS.map((r) => ({ name: r, value: r }))}
      prefill=${prefill}
      onSend=${send}
    />
  </section>`;
}

// ---------------------------------------------------------------------------------------------
// Discord

function DiscordMessage({ message, ctx, onReply, onEditImage, onOpenThread, threadName }) {
  return html`<article
    class=${`msg ${message.isBot ? 'from-bot' : ''} ${message.ephemeral ? 'ephemeral' : ''}`}
    data-id=${message.id}
    data-author=${message.author}
    aria-label=${message.author}
  >
    ${message.replyTo
      ? html`<div class="reply-ref" aria-label=${`In reply to ${message.replyTo.author}`}>
          <span class="reply-curve" aria-hidden="true"></span>
          <span class="author">@${message.replyTo.author}</span> <span class="excerpt">${message.replyTo.excerpt}</span>
        </div>`
      : null}
    ${message.command
      ? html`<div class="reply-ref"><span class="reply-curve" aria-hidden="true"></span>
          <span class="author">${message.command.user}</span> used <span class="command">/${message.command.name}</span></div>`
      : null}
    <div class="msg-row">
      <${Avatar} name=${message.author} bot=${message.isBot} />
      <div class="msg-body">
        <header>
          <span class="author">${message.author}</span>
          ${message.isBot ? html`<span class="badge">APP</span>` : null}
          ${message.editCount > 0 && !message.loading ? html`<span class="note">(edited)</span>` : null}
        </header>
        ${message.loading
          ? html`<div class="msg-text thinking">${message.author} is thinking<span class="dots" aria-hidden="true"></span></div>`
          : message.content
            ? html`<div class="msg-text">${renderDiscord(message.content, ctx)}</div>`
            : null}
        ${message.ephemeral ? html`<div class="note">Only you can see this</div>` : null}
        <${Files} files=${message.files} onEdit=${() => onEditImage(message)} />
        ${message.threadId && onOpenThread
          ? html`<button type="button" class="replies link" onClick=${() => onOpenThread(message.threadId)}>Thread: ${threadName ?? 'open'}</button>`
          : null}
      </div>
      ${onReply && !message.loading
        ? html`<button type="button" class="hover-action link" onClick=${() => onReply(message)} aria-label=${`Reply to ${message.author}`}>Reply</button>`
        : null}
    </div>
  </article>`;
}

function DiscordPane({ data, closing }) {
  const [threadId, setThreadId] = useState(null);
  const [replyTo, setReplyTo] = useState(null);
  const [person, setPerson] = useState('alice');
  const [prefill, setPrefill] = useState(null);
  const users = useMemo(() => {
    const map = new Map([[data.botUserId, data.botName]]);
    for (const m of [...data.messages, ...data.threads.flatMap((t) => t.messages)]) map.set(m.authorId, m.author);
    return map;
  }, [data]);
  const ctx = { userName: (id) => users.get(id) };
  const thread = threadId === null ? undefined : data.threads.find((t) => t.id === threadId);
  const shown = thread ? thread.messages : data.messages;
  const lastText = shown.at(-1)?.content.length ?? 0;
  const scroll = useStickToBottom(`${threadId}:${shown.length}:${lastText}:${shown.at(-1)?.loading}`);
  const imagine = data.commands.find((c) => c.name === 'imagine');
  const ratioOption = imagine?.options.find((o) => /aspect/.test(o.name));
  const aspectChoices = ratioOption?.choices.length ? ratioOption.choices : ASPECT_RATIOS.map((r) => ({ name: r, value: r }));

  async function send({ text, file, ratio }) {
    const command = parseCommand(text);
    const channelId = thread ? thread.id : undefined;
    if (command && !file) {
      const known = data.commands.find((c) => c.name === command.name);
      if (!known) throw new Error(`/${command.name} is not a command of this app${data.commands.length ? ` (try ${data.commands.map((c) => `/${c.name}`).join(', ')})` : ' (the bot has not registered its commands yet)'}`);
      const options = {};
      const textOption = known.options.find((o) => o.type === 3 && !/aspect/.test(o.name));
      if (textOption && command.rest) options[textOption.name] = command.rest;
      if (ratioOption && ratio && known === imagine) options[ratioOption.name] = ratio;
      return post('/api/discord/commands', { name: command.name, options, user: person, ...(channelId ? { channelId } : {}) });
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

  return html`<section class="pane discord" aria-label="Discord" data-testid="discord-pane">
    <header class="pane-header">
      <div>
        <h2><span class="platform">Discord</span> ${thread ? `🧵 ${thread.name}` : `# ${data.channel.name}`}</h2>
        <p class="subtitle">${thread ? `thread in # ${data.channel.name}` : 'Hover a message and choose Reply.'}</p>
      </div>
      <div class="pane-tools">
        ${thread ? html`<button type="button" class="back" onClick=${() => (setThreadId(null), setReplyTo(null))}>← Back to channel</button>` : null}
        <${PersonPicker} platform="Discord" value=${person} onChange=${setPerson} />
      </div>
    </header>
    <div class="messages" role="log" aria-label=${thread ? 'Discord thread messages' : `Discord #${data.channel.name} messages`}
      ref=${scroll.ref} onScroll=${scroll.onScroll}>
      ${shown.length === 0 ? html`<p class="empty">No messages yet. Try <code>/imagine a lighthouse at dusk</code> or <code>@${data.botName} hello</code>.</p>` : null}
      ${shown.map(
        (m) => html`<${DiscordMessage} key=${m.id} message=${m} ctx=${ctx} onReply=${reply} onEditImage=${editImage}
          onOpenThread=${thread ? undefined : (id) => (setThreadId(id), setReplyTo(null))}
          threadName=${data.threads.find((t) => t.id === m.threadId)?.name} />`,
      )}
    </div>
    <${Composer}
      platform="discord"
      label=${thread ? `Message thread ${thread.name}` : `Message #${data.channel.name}`}
      placeholder=${thread ? `Message 🧵 ${thread.name}` : `Message #${data.channel.name} (/imagine …, @${data.botName} …)`}
      disabled=${closing}
      aspectChoices=${aspectChoices}
      prefill=${prefill}
      context=${replyTo ? `Replying to ${replyTo.author}` : null}
      onCancelContext=${() => setReplyTo(null)}
      onSend=${send}
    />
  </section>`;
}

// ---------------------------------------------------------------------------------------------

function App() {
  const { state, connected } = useFeed();
  if (!state) return html`<p class="booting">Connecting to the playground…</p>`;
  const { service } = state;
  return html`<div class="app">
    <header class="top">
      <h1>genbot <span>playground</span></h1>
      <p class="service">
        ${service.emulated ? 'Offline emulator' : `Service: ${service.label}`}
        ${service.chatModel ? html` · chat <code>${service.chatModel}</code>` : null}
        ${service.imageModel ? html` · images <code>${service.imageModel}</code>` : null}
      </p>
      <p class=${`status ${connected && !state.closing ? 'live' : 'off'}`} role="status">
        ${state.closing ? 'Shutting down' : connected ? 'Live' : 'Reconnecting…'}
      </p>
    </header>
    <main class="panes">
      <${SlackPane} data=${state.slack} closing=${state.closing} />
      <${DiscordPane} data=${state.discord} closing=${state.closing} />
    </main>
  </div>`;
}

render(html`<${App} />`, document.getElementById('app'));
